"""Power Barons' rules (../shared/rules/power-barons.md) as resumable decision points over one
state array.

This is the game's decision-point protocol (docs/protocol.md): ``new_game`` sets up and runs the
rules up to the first decision; ``to_move`` and ``st[P_DECISION]`` say who decides what
(docs/games/power-barons.md, "Decision points"); ``legal`` lists the options; ``apply`` applies
one and runs the rules (chance included, from the game's own stream) up to the next decision or
the end; ``returns``, ``determinize`` and ``infoset_key`` serve search. The rules never call a
strategy.

Between decisions the rules run as steps (``S_*`` in ``st[P_STEP]``); a step either poses a
decision (``ask``) or names the next step. The steps apply the rules through the helpers of
simcore/games/power_barons/actions.py (``draw_card``, ``roll``, ``take_card``,
``open_challenge``, ``lead``, ``end_round``, ``play_pi``, ``resolve``, ``buy_base``, ...), which
the scripted games' straight-line turn (simcore/games/power_barons/scripted.py) calls too, asking
the strategies directly; tests/contract/test_protocol.py proves that the two flows play identical
games.
"""

import numpy as np
from numba import njit

from simcore.games.power_barons.actions import (
    any_opponent_base,
    bank_chosen,
    buy_base,
    can_follow,
    check_asked,
    check_taken,
    check_victim,
    draw_to_size,
    end_round,
    first_to_surrender,
    follow,
    game_ends,
    holds_unplayed_colour,
    invest_owner,
    invest_pays,
    is_limited,
    lead,
    limited_loser,
    may_buy,
    may_play_pi,
    must_surrender,
    open_challenge,
    open_influence,
    over_size,
    play_pi,
    remove_base,
    resolve,
    roll,
    set_up,
    surrender_options,
    surrenders,
    take_card,
    takes_something,
    turn_begins,
    turn_ends,
    wins,
)
from simcore.games.power_barons.state import (
    CH_ATTACKER,
    CH_DEFENDER,
    CH_DONE,
    CH_FLUSH,
    CH_LIMITED,
    CH_ROUND,
    COLOUR,
    COUNT_AT,
    D_BANK,
    D_BUY,
    D_CHALLENGE,
    D_FOLLOW,
    D_GIVE,
    D_LEAD,
    D_NONE,
    D_PI,
    D_REMOVE,
    D_STEAL,
    D_SURRENDER,
    D_TAKE,
    DRAWPILE,
    HAND,
    INVESTMENTS,
    LOC,
    MAX_CARDS,
    MAX_HAND_SIZE,
    MAX_PLAYERS,
    MEMBER,
    MOVE_CALL_OUT,
    MOVE_STOP,
    N_CARDS,
    N_COLOURS,
    N_LOCATIONS,
    N_TERRITORIES,
    N_TYPES,
    P_ACTOR,
    P_AFTER,
    P_ASKED,
    P_BOUGHT,
    P_DECISION,
    P_DECISIONS,
    P_HAND_BEFORE,
    P_INVEST_K,
    P_LEAD,
    P_LEAD_COLOUR,
    P_LOSER,
    P_OPTION,
    P_OVER,
    P_PI_PLAYED,
    P_RESTORE,
    P_SEAT,
    P_SIDE,
    P_SPACE,
    P_STEP,
    P_TERRITORY,
    P_TRUNCATED,
    P_TURN,
    P_VICTIM,
    P_WINNER,
    PAWN,
    PI,
    PI_PER_TURN,
    PLAYED,
    PLAYERS,
    PROGRESS,
    R_MAX_TURNS,
    REMOVE,
    SLOT,
    SPACE_TERRITORY,
    SPY,
    TAKE_PI,
    TAKE_POWER,
    behind_by,
    can_place,
    card_at,
    colour_run,
    count_at,
    has_base,
    has_won,
    is_hand,
    last_round,
    pi_playable,
    relocate,
)
from simcore.kernel.intrinsics import inline_njit
from simcore.kernel.rng import _splitmix64_mix, rand_below, rand_float

# The rules' steps between decisions (st[P_STEP]).
S_TURN_START = 0  # a turn begins: draw a card, then bank back down to hand_size
S_RESTORE = 1  # st[P_RESTORE] banks down (a decision per card) or draws up to hand_size
S_ROLL = 2  # roll, move, follow the directions of the space
S_INVEST = 3  # INVESTMENTS PAY OFF pays the next seat clockwise from the owner
S_RESTORE_VICTIM = 4  # after a card was taken: the victim restores its hand
S_CHALLENGE = 5  # the compulsory challenge: the attacker chooses whom and what
S_LEAD = 6  # a Power Card round: the attacker leads (or calls out) a new colour
S_SURRENDER = 7  # after a round: the next surrender option
S_PI_TURN = 8  # Political Influence round: a side must surrender, or may
S_PI_PLAY = 9  # ... or plays its next PI card
S_RESOLVE = 10  # the challenge is decided (st[P_LOSER]): WINNING A CHALLENGE
S_BUY = 11  # step 4: with base_cost banked, the player must buy a Power Base
S_END_TURN = 12  # the turn is over: the next one, or the end of the game
S_IDLE = 13  # nothing to run: the game is over


# --- what a seat cannot see --------------------------------------------------------------------


@njit(cache=True, forceinline=False)
def determinize(st, seat, rng, shown=-1):
    """Redraw, in place, everything ``seat`` cannot see, uniformly among the states consistent
    with what it sees now; ``shown`` is an opponent whose hand it is being shown (SPY AND STEAL),
    or -1.

    Hidden from a seat: the other seats' hands (their sizes are public), the drawpile (its size
    is public, its order is not), and, in another seat's challenge, whether the attacker means
    to lose (CH_FLUSH, the attacker's private intent: redrawn as a fair coin). Open: its own
    hand, every bank, the discard pile (paid face up), the cards on the table, bases, pawns and
    the rules. The unseen cards (the drawpile and the other hands) are pooled and dealt again:
    each hand its size, the rest to the drawpile in a random order.

    What it has seen in the challenge in progress constrains the deal (known_voids): no card
    is drawn during a challenge, so a duellist who could not follow a colour holds none of it.
    The deal is exact: with one constrained hand, it is dealt first from its allowed cards;
    with two (a third seat watching a challenge), the first is dealt from its allowed cards and
    kept with probability C(the second's allowed cards left, its size) / C(its allowed cards,
    its size) (rejection sampling), so that every consistent deal is equally likely.

    It keeps no other memory: cards seen earlier (a hand shown on SPY AND STEAL, a challenge
    winner's returned cards, cards given on TAKE spaces) are forgotten, as no strategy here
    reads them; a strategy that did would keep that memory in the state and extend this.

    Through the protocol (``shown`` left at -1), a seat choosing which card to steal
    (D_STEAL) is shown its victim's hand.
    """
    if shown < 0 and st[P_DECISION] == D_STEAL and st[P_SEAT] == seat:
        shown = st[P_VICTIM]
    players = st[PLAYERS]
    void = known_voids(st)
    if seat != st[CH_ATTACKER]:
        st[CH_FLUSH] = rand_below(rng, 2)
    sizes = np.zeros(MAX_PLAYERS, np.int64)
    for other in range(players):
        if other != seat and other != shown:
            sizes[other] = count_at(st, HAND + other)
            while count_at(st, HAND + other) > 0:
                relocate(st, card_at(st, HAND + other, 0), DRAWPILE)
        else:
            void[other] = 0
    # The pool in card-id order: the deal is then a function of what the seat sees and of the
    # stream, not of where the hidden cards lay (the leak check asks exactly that of a search).
    pooled = 0
    for card in range(st[N_CARDS]):
        if st[LOC + card] == DRAWPILE:
            st[MEMBER + MAX_CARDS * DRAWPILE + pooled] = card
            st[SLOT + card] = pooled
            pooled += 1
    first = st[CH_ATTACKER]
    second = st[CH_DEFENDER]
    if void[first] == 0:
        first, second = second, first
    if void[first] != 0:
        while True:
            _deal(st, first, sizes[first], void[first], rng)
            if void[second] == 0:
                break
            allowed = _allowed_in(st, DRAWPILE, void[second])
            taken = _allowed_in(st, HAND + first, void[second])
            keep = 1.0
            for i in range(sizes[second]):
                keep *= max(allowed - i, 0) / (allowed + taken - i)
            if rand_float(rng) < keep:
                _deal(st, second, sizes[second], void[second], rng)
                break
            while count_at(st, HAND + first) > 0:
                relocate(st, card_at(st, HAND + first, 0), DRAWPILE)
    for other in range(players):
        if count_at(st, HAND + other) == 0 and sizes[other] > 0:
            _deal(st, other, sizes[other], 0, rng)
    n = count_at(st, DRAWPILE)
    for k in range(n - 1, 0, -1):  # the drawpile's order
        j = rand_below(rng, k + 1)
        card_k = card_at(st, DRAWPILE, k)
        card_j = card_at(st, DRAWPILE, j)
        st[MEMBER + MAX_CARDS * DRAWPILE + k] = card_j
        st[MEMBER + MAX_CARDS * DRAWPILE + j] = card_k
        st[SLOT + card_j] = k
        st[SLOT + card_k] = j


@njit(cache=True, forceinline=False)
def known_voids(st):
    """Per seat, the Power Card colours (a bit each) it is known to hold none of, from the
    challenge in progress (none outside one: CH_DONE is cleared after it): the defender could
    not follow a colour whose round is done if it has no card of it on the table; an attacker
    with no card of a done colour on the table called it out, so it held none of the colours
    still to come then, which are the called-out ones and those not done yet; and while the
    defender is to follow a colour the attacker called out (D_FOLLOW), the same holds now."""
    void = np.zeros(MAX_PLAYERS, np.int64)
    done = st[CH_DONE]
    if done == 0 and st[P_DECISION] != D_FOLLOW:
        return void
    attacker = st[CH_ATTACKER]
    defender = st[CH_DEFENDER]
    called_out = 0
    for card_colour in range(N_TYPES):
        if (done >> card_colour) & 1:
            if not _on_table(st, defender, card_colour):
                void[defender] |= 1 << card_colour
            if not _on_table(st, attacker, card_colour):
                called_out |= 1 << card_colour
    if st[P_DECISION] == D_FOLLOW and st[P_LEAD] < 0:
        # The round in progress: the defender is to follow a colour the attacker called out.
        called_out |= 1 << st[P_LEAD_COLOUR]
    if called_out != 0:
        void[attacker] = called_out | (((1 << N_TYPES) - 1) & ~done)
    return void


@njit(cache=True, forceinline=False)
def _on_table(st, seat, card_colour):
    for i in range(count_at(st, PLAYED + seat)):
        if st[COLOUR + card_at(st, PLAYED + seat, i)] == card_colour:
            return True
    return False


@njit(cache=True, forceinline=False)
def _allowed_in(st, loc, void):
    """Cards at ``loc`` of a colour outside ``void``."""
    n = 0
    for i in range(count_at(st, loc)):
        n += not (void >> st[COLOUR + card_at(st, loc, i)]) & 1
    return n


@njit(cache=True, forceinline=False)
def _deal(st, seat, size, void, rng):
    """``size`` drawpile cards of colours outside ``void``, uniformly, into ``seat``'s hand."""
    for _ in range(size):
        k = rand_below(rng, _allowed_in(st, DRAWPILE, void))
        for i in range(count_at(st, DRAWPILE)):
            card = card_at(st, DRAWPILE, i)
            if not (void >> st[COLOUR + card]) & 1:
                if k == 0:
                    relocate(st, card, HAND + seat)
                    break
                k -= 1


# --- the steps ----------------------------------------------------------------------------------


@inline_njit()
def ask(kind, seat, st):
    """Pose a decision: the rules stop until ``apply`` answers it."""
    st[P_DECISION] = kind
    st[P_SEAT] = seat


@inline_njit()
def start_restore(seat, after, st):
    """``seat`` restores its hand to hand_size (S_RESTORE), then the rules go on at ``after``."""
    st[P_RESTORE] = seat
    st[P_AFTER] = after
    st[P_STEP] = S_RESTORE


@inline_njit()
def restore_step(st, rules, rng, trace):
    """S_RESTORE: bank one card (a decision) while over size, else draw up to it."""
    seat = st[P_RESTORE]
    if over_size(seat, st, rules):
        ask(D_BANK, seat, st)
        return
    draw_to_size(seat, st, rules, rng, trace)
    st[P_STEP] = st[P_AFTER]


@inline_njit()
def roll_step(st, rules, rng, trace):
    """S_ROLL: roll, move and follow the directions (the challenge comes next)."""
    seat = st[P_ACTOR]
    players = st[PLAYERS]
    kind = roll(seat, st, rules, rng, trace)
    st[P_SPACE] = kind
    st[P_STEP] = S_CHALLENGE
    if kind == INVESTMENTS:
        territory = st[SPACE_TERRITORY + st[PAWN + seat]]
        if invest_owner(territory, players, st, trace) >= 0:
            st[P_TERRITORY] = territory
            st[P_INVEST_K] = 0
            st[P_STEP] = S_INVEST
    elif kind == TAKE_POWER or kind == TAKE_PI or kind == SPY:
        ask(D_TAKE, seat, st)
    elif kind == REMOVE:
        if any_opponent_base(seat, players, st, trace):
            ask(D_REMOVE, seat, st)


@inline_njit()
def invest_step(st, rng, trace):
    """S_INVEST: pay the next seat clockwise from the owner; one paid restores its hand."""
    players = st[PLAYERS]
    owner = st[P_TERRITORY]
    while st[P_INVEST_K] < players:
        seat = (owner + st[P_INVEST_K]) % players
        st[P_INVEST_K] += 1
        if invest_pays(seat, owner, st[P_TERRITORY], st, rng, trace) > 0:
            start_restore(seat, S_INVEST, st)
            return
    st[P_STEP] = S_CHALLENGE


@inline_njit()
def asked_for(seat, move, st):
    """D_TAKE's answer: the victim and the colour asked for (PI, or -1 for SPY AND STEAL)."""
    victim = move % MAX_PLAYERS
    check_victim(seat, victim, st[PLAYERS])
    kind = st[P_SPACE]
    if kind == TAKE_POWER:
        asked = move // MAX_PLAYERS
        check_asked(asked)
        return victim, asked
    return victim, PI if kind == TAKE_PI else -1


@inline_njit()
def taken(card, st, trace):
    """D_GIVE / D_STEAL answered (or nothing to take, -1): the card moves, both restore."""
    seat = st[P_ACTOR]
    take_card(seat, st[P_VICTIM], st[P_ASKED], card, st[P_SPACE], st, trace)
    if card >= 0:
        start_restore(seat, S_RESTORE_VICTIM, st)
    else:
        st[P_STEP] = S_CHALLENGE


@inline_njit()
def next_round(st, rules):
    """After a round nobody surrendered: the next colour, or the challenge is played out."""
    if not last_round(st[CH_ROUND], rules):
        st[CH_ROUND] += 1
        st[P_STEP] = S_LEAD
    elif st[CH_LIMITED] == 1:
        st[P_LOSER] = limited_loser(st)
        st[P_STEP] = S_RESOLVE
    else:
        st[P_SIDE] = open_influence(st)
        st[P_STEP] = S_PI_TURN


@inline_njit()
def round_played(follow_card, st, rules, trace):
    if end_round(st[CH_ROUND], st[P_LEAD_COLOUR], st[P_LEAD], follow_card, st, rules, trace):
        st[P_OPTION] = 0
        st[P_STEP] = S_SURRENDER
    else:
        next_round(st, rules)


@inline_njit()
def surrender_step(st):
    """S_SURRENDER: the lower total's option, then the higher's."""
    first = first_to_surrender(st)
    seat = first if st[P_OPTION] == 0 else st[CH_ATTACKER] + st[CH_DEFENDER] - first
    ask(D_SURRENDER, seat, st)


@inline_njit()
def pi_turn_step(st, rules, trace):
    """S_PI_TURN: a side whose PI cannot put it ahead surrenders; else it may (a decision,
    unless surrender is none)."""
    side = st[P_SIDE]
    seat = st[CH_ATTACKER + side]
    st[P_PI_PLAYED] = 0
    if must_surrender(side, st):
        surrenders(seat, N_TYPES, 1, st, trace)
        st[P_LOSER] = seat
        st[P_STEP] = S_RESOLVE
    elif surrender_options(rules) == 0:
        st[P_STEP] = S_PI_PLAY
    else:
        ask(D_SURRENDER, seat, st)


@inline_njit()
def pi_play_step(st):
    """S_PI_PLAY: the side plays PI cards (a decision each) until it stops, has none or has
    played pi_cards_per_turn."""
    seat = st[CH_ATTACKER + st[P_SIDE]]
    if may_play_pi(st, seat, st[P_PI_PLAYED]):
        ask(D_PI, seat, st)
    else:
        st[P_SIDE] = 1 - st[P_SIDE]
        st[P_STEP] = S_PI_TURN


@inline_njit()
def resolve_step(st, rules, rng, trace):
    """S_RESOLVE: WINNING A CHALLENGE; a placed base may complete the win, else step 4."""
    loser = st[P_LOSER]
    attacker = st[CH_ATTACKER]
    winner = attacker + st[CH_DEFENDER] - loser
    players = st[PLAYERS]
    st[P_STEP] = S_BUY
    if resolve(winner, loser, players, st[P_HAND_BEFORE], st, rules, rng, trace) and has_won(
        st, players, attacker
    ):
        wins(attacker, st, trace)
        st[P_WINNER] = attacker
        st[P_STEP] = S_END_TURN


@njit(cache=True, _nrt=False, forceinline=False)
def end_turn(st, rules, trace):
    """S_END_TURN: the game ends with a win or at the turn cap; else the next seat's turn."""
    players = st[PLAYERS]
    st[P_TURN] += 1
    turn_ends(players, st[P_TURN], st, trace)
    st[P_BOUGHT] = 0
    if st[P_WINNER] < 0 and st[P_TURN] < np.int64(rules[R_MAX_TURNS]):
        st[P_ACTOR] = (st[P_ACTOR] + 1) % players
        st[P_STEP] = S_TURN_START
        return
    game_ends(players, st[P_WINNER], st[P_TURN], st, trace)
    st[P_OVER] = 1
    st[P_TRUNCATED] = st[P_WINNER] < 0
    st[P_SEAT] = -1
    st[P_STEP] = S_IDLE


@njit(cache=True, _nrt=False, forceinline=False)
def advance(st, rules, rng, trace):
    """Run the rules until a decision is pending or the game is over."""
    while st[P_DECISION] == D_NONE:
        step = st[P_STEP]
        if step == S_IDLE:
            return
        if step == S_RESTORE:
            restore_step(st, rules, rng, trace)
        elif step == S_SURRENDER:
            surrender_step(st)
        elif step == S_LEAD:
            ask(D_LEAD, st[CH_ATTACKER], st)
        elif step == S_PI_TURN:
            pi_turn_step(st, rules, trace)
        elif step == S_PI_PLAY:
            pi_play_step(st)
        elif step == S_TURN_START:
            turn_begins(st[P_ACTOR], st, rules, rng, trace)
            start_restore(st[P_ACTOR], S_ROLL, st)
        elif step == S_ROLL:
            roll_step(st, rules, rng, trace)
        elif step == S_INVEST:
            invest_step(st, rng, trace)
        elif step == S_RESTORE_VICTIM:
            start_restore(st[P_VICTIM], S_CHALLENGE, st)
        elif step == S_CHALLENGE:
            ask(D_CHALLENGE, st[P_ACTOR], st)
        elif step == S_RESOLVE:
            resolve_step(st, rules, rng, trace)
        elif step == S_BUY:
            if may_buy(st[P_ACTOR], st[PLAYERS], st[P_BOUGHT], st, rules):
                ask(D_BUY, st[P_ACTOR], st)
            else:
                st[P_STEP] = S_END_TURN
        else:
            end_turn(st, rules, trace)


@njit(cache=True, _nrt=False, forceinline=False)
def answer(move, st, rules, rng, trace):
    """Apply the pending decision's option ``move``; the rules then go on at ``st[P_STEP]``."""
    kind = st[P_DECISION]
    seat = st[P_SEAT]
    st[P_DECISION] = D_NONE
    st[P_DECISIONS] += 1
    players = st[PLAYERS]
    if kind == D_BANK:
        bank_chosen(seat, move, st, trace)
    elif kind == D_SURRENDER:
        if move == 1:
            surrenders(seat, st[CH_ROUND], 0, st, trace)
            st[P_LOSER] = seat
            st[P_STEP] = S_RESOLVE
        elif st[CH_ROUND] == N_TYPES:
            st[P_STEP] = S_PI_PLAY
        else:
            st[P_OPTION] += 1
            if st[P_OPTION] == surrender_options(rules):
                next_round(st, rules)
    elif kind == D_LEAD:
        lead_colour = move - MOVE_CALL_OUT if move >= MOVE_CALL_OUT else st[COLOUR + move]
        card = -1 if move >= MOVE_CALL_OUT else move
        lead(seat, lead_colour, card, st, rules, trace)
        st[P_LEAD_COLOUR] = lead_colour
        st[P_LEAD] = card
        if can_follow(st[CH_DEFENDER], lead_colour, st):
            ask(D_FOLLOW, st[CH_DEFENDER], st)
        else:
            round_played(-1, st, rules, trace)
    elif kind == D_FOLLOW:
        follow(seat, st[P_LEAD_COLOUR], move, st, rules, trace)
        round_played(move, st, rules, trace)
    elif kind == D_PI:
        side = st[P_SIDE]
        if move == MOVE_STOP:
            if behind_by(st, side) > 0:
                raise ValueError("strategy stopped playing Political Influence while behind")
            st[P_SIDE] = 1 - side
            st[P_STEP] = S_PI_TURN
        else:
            play_pi(seat, side, move, st[P_PI_PLAYED], st, rules, trace)
            st[P_PI_PLAYED] += 1
    elif kind == D_CHALLENGE:
        limited = is_limited(st[P_SPACE], rules)
        defender = move % MAX_PLAYERS
        declared = (move // MAX_PLAYERS) % N_TYPES
        flush = move // (MAX_PLAYERS * N_TYPES)
        st[P_HAND_BEFORE] = open_challenge(
            seat, defender, declared, limited, flush, players, st, trace
        )
        st[P_STEP] = S_LEAD
    elif kind == D_TAKE:
        victim, asked = asked_for(seat, move, st)
        st[P_VICTIM] = victim
        st[P_ASKED] = asked
        if not takes_something(victim, asked, st[P_SPACE], st):
            taken(-1, st, trace)
        elif st[P_SPACE] == SPY:
            ask(D_STEAL, seat, st)
        else:
            ask(D_GIVE, victim, st)
    elif kind == D_GIVE or kind == D_STEAL:
        check_taken(st[P_VICTIM], st[P_ASKED], st[P_SPACE], move, st)
        taken(move, st, trace)
    elif kind == D_REMOVE:
        owner = move // (N_TERRITORIES * N_TYPES)
        territory = (move // N_TYPES) % N_TERRITORIES
        remove_base(seat, owner, territory, move % N_TYPES, players, st, trace)
        st[P_STEP] = S_CHALLENGE
    else:
        buy_base(seat, players, move // N_TYPES, move % N_TYPES, st, rules, rng, trace)
        st[P_BOUGHT] += 1
        if has_won(st, players, seat):
            wins(seat, st, trace)
            st[P_WINNER] = seat
            st[P_STEP] = S_END_TURN
        else:
            st[P_STEP] = S_BUY


# --- the protocol ---------------------------------------------------------------------------


@njit(cache=True, _nrt=False, forceinline=False)
def new_game(players, st, rules, rng, trace):
    """Set up, then run the rules to the first decision (seat 0 takes the first turn)."""
    set_up(players, st, rules, rng, trace)
    st[P_WINNER] = -1
    st[P_STEP] = S_TURN_START
    advance(st, rules, rng, trace)


@njit(cache=True, _nrt=False, forceinline=False)
def apply(st, rules, move, rng, trace):
    """Apply option ``move`` of the pending decision and run the rules to the next decision or
    the end of the game."""
    answer(move, st, rules, rng, trace)
    advance(st, rules, rng, trace)


@inline_njit()
def to_move(st):
    """The seat deciding now, or -1 once the game is over."""
    return st[P_SEAT]


@inline_njit()
def is_over(st):
    return st[P_OVER] != 0


@njit(cache=True, _nrt=False, forceinline=False)
def returns(st, out):
    """Each seat's result: 1 for the winner, 0 for the others (a capped game: 0 for all)."""
    for seat in range(st[PLAYERS]):
        out[seat] = 1.0 if seat == st[P_WINNER] else 0.0


@inline_njit()
def list_cards(st, seat, card_colour, moves, n):
    """Append ``seat``'s cards of ``card_colour`` (highest first) to ``moves[n:]``."""
    first, count = colour_run(st, seat, card_colour)
    for i in range(count):
        moves[n + i] = st[first + i]
    return n + count


@njit(cache=True, _nrt=False, forceinline=False)
def legal(st, rules, moves):
    """The options of the pending decision, written to ``moves`` in a fixed order; their count."""
    kind = st[P_DECISION]
    seat = st[P_SEAT]
    players = st[PLAYERS]
    n = 0
    if kind == D_BANK:
        for card_colour in range(N_COLOURS):
            n = list_cards(st, seat, card_colour, moves, n)
    elif kind == D_SURRENDER:
        moves[0] = 0
        moves[1] = 1
        n = 2
    elif kind == D_LEAD:
        holds = holds_unplayed_colour(st, seat)
        for card_colour in range(N_TYPES):
            if (st[CH_DONE] >> card_colour) & 1:
                continue
            if holds:
                n = list_cards(st, seat, card_colour, moves, n)
            else:
                moves[n] = MOVE_CALL_OUT + card_colour
                n += 1
    elif kind == D_FOLLOW:
        n = list_cards(st, seat, st[P_LEAD_COLOUR], moves, n)
    elif kind == D_PI:
        first, count = colour_run(st, seat, PI)
        for i in range(first, first + count):
            if pi_playable(st, seat, st[P_SIDE], st[i], st[P_PI_PLAYED]):
                moves[n] = st[i]
                n += 1
        if behind_by(st, st[P_SIDE]) <= 0:
            moves[n] = MOVE_STOP
            n += 1
    elif kind == D_CHALLENGE:
        for flush in range(2):
            for declared in range(N_TYPES):
                for defender in range(players):
                    if defender != seat:
                        moves[n] = defender + MAX_PLAYERS * (declared + N_TYPES * flush)
                        n += 1
    elif kind == D_TAKE:
        colours = N_TYPES if st[P_SPACE] == TAKE_POWER else 1
        for asked in range(colours):
            for victim in range(players):
                if victim != seat:
                    moves[n] = victim + MAX_PLAYERS * asked
                    n += 1
    elif kind == D_GIVE:
        n = list_cards(st, seat, st[P_ASKED], moves, n)
    elif kind == D_STEAL:
        for card_colour in range(N_COLOURS):
            n = list_cards(st, st[P_VICTIM], card_colour, moves, n)
    elif kind == D_REMOVE:
        for owner in range(players):
            for territory in range(N_TERRITORIES):
                for base_type in range(N_TYPES):
                    if owner != seat and has_base(st, owner, territory, base_type):
                        moves[n] = N_TYPES * (N_TERRITORIES * owner + territory) + base_type
                        n += 1
    elif kind == D_BUY:
        for territory in range(players):
            for base_type in range(N_TYPES):
                if can_place(st, players, seat, territory, base_type):
                    moves[n] = N_TYPES * territory + base_type
                    n += 1
    return n


@inline_njit()
def _mix(h, value):
    return _splitmix64_mix(h ^ np.uint64(value + 0x100))


UNSEEN = -1  # a card's place in an information set when the seat cannot see it


@njit(cache=True, _nrt=False, forceinline=False)
def infoset_key(st, seat):
    """A 64-bit hash of exactly what ``seat`` observes now: where every card it can see lies
    (its hand, the banks, the discard pile, the table; while it is shown a hand on SPY AND
    STEAL, that hand too), how many cards every hand and the drawpile hold, pawns, bases, the
    challenge in progress (the attacker's intent CH_FLUSH only for the attacker) and the
    protocol fields. Two states get the same key iff they differ only in what
    ``determinize(st, seat, ...)`` redraws (up to hash collisions): the other hands, the
    drawpile and its order, another attacker's intent, and the statistics (P_HAND_BEFORE is one:
    it feeds the flush columns only)."""
    h = _mix(np.uint64(0x9E3779B97F4A7C15), seat)
    shown = st[P_VICTIM] if st[P_DECISION] == D_STEAL and st[P_SEAT] == seat else -1
    for card in range(st[N_CARDS]):
        loc = st[LOC + card]
        hidden = loc == DRAWPILE or (is_hand(loc) and loc != HAND + seat and loc != HAND + shown)
        h = _mix(h, UNSEEN if hidden else loc)
    for loc in range(N_LOCATIONS):
        h = _mix(h, st[COUNT_AT + loc])
    for field in range(PAWN, PROGRESS):  # pawns, supplies, bases and their counts
        h = _mix(h, st[field])
    for field in range(CH_ATTACKER, CH_ATTACKER + 11):
        if field != CH_FLUSH or seat == st[CH_ATTACKER]:
            h = _mix(h, st[field])
    for field in range(P_DECISION, P_HAND_BEFORE):
        h = _mix(h, st[field])
    # The turn's counters, mixed in only where they can change what may follow (0 bought is
    # every decision's under one purchase a turn; PI cards played matter under a cap), so that
    # keys under the rulebook's rules split no state they did not split before.
    if st[P_BOUGHT] != 0:
        h = _mix(h, st[P_BOUGHT])
    if st[PI_PER_TURN] < MAX_HAND_SIZE:
        h = _mix(h, st[P_PI_PLAYED])
    return h
