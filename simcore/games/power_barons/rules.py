"""Power Barons' rules (../shared/rules/power-barons.md) as resumable decision points over one
state array.

This is the game's decision-point protocol (docs/protocol.md): ``new_game`` sets up and runs the
rules up to the first decision; ``to_move`` and ``st[P_DECISION]`` say who decides what
(docs/games/power-barons.md, "Decision points"); ``legal`` lists the options; ``apply`` applies
one and runs the rules (chance included, from the game's own stream) up to the next decision or
the end; ``returns``, ``determinize`` and ``infoset_key`` serve search. The rules never call a
strategy.

Between decisions the rules run as steps (``S_*`` in ``st[P_STEP]``); a step either poses a
decision (``ask``) or names the next step. Every rule is one helper below (``draw_card``,
``roll``, ``take_card``, ``open_challenge``, ``lead``, ``end_round``, ``play_pi``, ``resolve``,
``buy_base``, ...), called by these steps and by the scripted games' straight-line turn in
simcore/games/power_barons/game.py, which asks the strategies directly;
tests/test_power_barons_protocol.py
proves that the two flows play identical games.
"""

import numpy as np
from numba import njit

from simcore.games.power_barons.state import (
    BANK,
    BANK_WORDS,
    BANKED,
    CH_ATTACKER,
    CH_DECLARED,
    CH_DEFENDER,
    CH_DONE,
    CH_FLUSH,
    CH_LIMITED,
    CH_PLAYED,
    CH_ROUND,
    CH_TOTAL,
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
    DECK_COUNT,
    DECK_TOTAL,
    DISCARD,
    DRAWPILE,
    EMPTY_DRAWS,
    EV_BUY,
    EV_CARD,
    EV_CHALLENGE,
    EV_END,
    EV_INVEST,
    EV_MOVE,
    EV_PI,
    EV_REMOVE,
    EV_RESHUFFLE,
    EV_RESULT,
    EV_ROUND,
    EV_SETUP,
    EV_SNAPSHOT,
    EV_STANDING,
    EV_SURRENDER,
    EV_TAKE,
    EV_TURN,
    EV_WIN,
    HAND,
    INVESTMENTS,
    LIMITED,
    LOC,
    M_BANK,
    M_DEAL,
    M_DRAW,
    M_GIVE,
    M_INVEST,
    M_PAY,
    M_PLAY,
    M_REFILL,
    M_RETURN,
    M_STEAL,
    M_WON,
    MAX_CARD_VALUE,
    MAX_CARDS,
    MAX_PLAYERS,
    MEMBER,
    MOVE_CALL_OUT,
    MOVE_STOP,
    N_CARDS,
    N_COLOURS,
    N_LOCATIONS,
    N_SEAT_STATS,
    N_SPACES,
    N_TERRITORIES,
    N_TYPES,
    P_ACTOR,
    P_AFTER,
    P_ASKED,
    P_DECISION,
    P_DECISIONS,
    P_HAND_BEFORE,
    P_INVEST_K,
    P_LEAD,
    P_LEAD_COLOUR,
    P_LOSER,
    P_N_CARDS,
    P_N_SPACES,
    P_OPTION,
    P_OVER,
    P_RESTORE,
    P_SEAT,
    P_SIDE,
    P_SPACE,
    P_STEP,
    P_TABLES,
    P_TERRITORY,
    P_TRUNCATED,
    P_TURN,
    P_VICTIM,
    P_WINNER,
    PAWN,
    PAY_CARDS,
    PAY_REACHED,
    PI,
    PLAYED,
    PLAYERS,
    PROGRESS,
    R_BASE_COST,
    R_HAND_SIZE,
    R_MAX_TURNS,
    REMOVE,
    RESHUFFLES,
    SCRATCH,
    SET_BITS,
    SLOT,
    SPACE_KIND,
    SPACE_TERRITORY,
    SPY,
    STATS,
    SUPPLY,
    TAKE_PI,
    TAKE_POWER,
    TRACE_LEN,
    VALUE,
    WORD_BITS,
    bank_credits,
    bases_in,
    bases_on_board,
    can_place,
    card_at,
    colour_count,
    colour_credits,
    colour_run,
    count_at,
    hand_count,
    hand_value,
    has_base,
    has_won,
    is_hand,
    multiplier,
    recount,
    relocate,
    set_base,
    supply_left,
    turn_over_discard,
)
from simcore.kernel.chunk import record_event
from simcore.kernel.intrinsics import ix, lowest_bit
from simcore.kernel.rng import _splitmix64_mix, rand_below, rand_float

# Per-seat statistics (the seat columns of simcore/games/power_barons/game.py, in order).
(
    BASES_AT_END,
    BANK_AT_END,
    CHALLENGES_MADE,
    CHALLENGES_WON,
    CHALLENGES_LOST,
    BASES_WON,
    BASES_BOUGHT,
    BASES_REMOVED,
    BASES_LOST,
    CREDITS_BANKED,
    FLUSH_ATTEMPTS,
    FLUSHES,
    FLUSH_CREDITS_GIVEN,
    FLUSH_HAND_BEFORE,
    FLUSH_HAND_AFTER,
) = range(N_SEAT_STATS)

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


@njit(cache=True, _nrt=False, inline="always")
def stat(st, seat, which):
    """Index of one of ``seat``'s statistics in ``st``."""
    return STATS + N_SEAT_STATS * seat + which


# --- cards ----------------------------------------------------------------------------------
# Every function takes the game as (st, rules, rng, trace): the state, the prepared rules, the
# game's random stream, the trace buffer. The helpers that run once or more a turn and are
# called from one or a few places (resolve, play_card, check_lead, ...) are inline="always":
# each call passed its arrays as up to ~45 machine words on the stack.


@njit(cache=True, _nrt=False)
def move_card(card, to, reason, st, trace):
    """The one way a card changes place (so the trace sees every move)."""
    record_event(
        trace, st, TRACE_LEN, EV_CARD, card, st[COLOUR + card], st[VALUE + card], st[LOC + card],
        to, reason,
    )  # fmt: skip
    relocate(st, card, to)


@njit(cache=True, _nrt=False)
def draw_card(seat, reason, st, rng, trace):
    """A uniformly random drawpile card into ``seat``'s hand; an empty drawpile is first made of
    the shuffled discard pile. False when neither has a card."""
    n = count_at(st, DRAWPILE)
    if n == 0:
        n = count_at(st, DISCARD)
        if n == 0:
            st[EMPTY_DRAWS] += 1
            return False
        turn_over_discard(st)
        st[RESHUFFLES] += 1
        record_event(trace, st, TRACE_LEN, EV_RESHUFFLE, n)
    move_card(card_at(st, DRAWPILE, rand_below(rng, n)), HAND + seat, reason, st, trace)
    return True


@njit(cache=True, _nrt=False)
def bank_card(seat, card, reason, st, trace):
    move_card(card, BANK + seat, reason, st, trace)
    st[stat(st, seat, CREDITS_BANKED)] += st[VALUE + card]


@njit(cache=True, _nrt=False, inline="always")
def in_hand(st, seat, card):
    return 0 <= card < st[N_CARDS] and st[LOC + card] == HAND + seat


# --- Power Bases ----------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def any_placement(st, players, owner):
    for territory in range(players):
        for base_type in range(N_TYPES):
            if can_place(st, players, owner, territory, base_type):
                return True
    return False


@njit(cache=True, _nrt=False, inline="always")
def has_total(st, reached, total):
    """Total ``total`` is in the bitset of totals at st[reached]."""
    return (st[ix(reached + total // WORD_BITS)] >> (total % WORD_BITS)) & 1 == 1


@njit(cache=True, _nrt=False)
def pay(seat, cost, st, rng, trace):
    """Move the bank cards with the smallest total of at least ``cost`` to the discard pile (no
    change is given); returns (credits paid, cards paid).

    A 0/1 subset sum over credits with the bank's cards in a random order (shuffled from the
    game's stream): among the sets of that total, which one pays decides which cards return to
    the drawpile, and an order of card ids would favour some colours and values over others
    (the ids follow the components file). The totals reached after each card are a bitset
    (PAY_REACHED):
    those before it, and those shifted by its value. The minimal total is below cost + the
    largest card, which bounds the sets. Following a total back through the first card that
    reached it (s -> s - value, down to 0) names distinct cards.
    """
    words = (cost + MAX_CARD_VALUE + WORD_BITS - 1) // WORD_BITS
    n = 0
    for w in range(BANK_WORDS):
        members = st[ix(BANKED + BANK_WORDS * seat + w)]
        while members != 0:
            st[ix(PAY_CARDS + n)] = SET_BITS * w + lowest_bit(members)
            n += 1
            members &= members - 1
    for k in range(n - 1, 0, -1):  # Fisher-Yates
        j = rand_below(rng, k + 1)
        st[ix(PAY_CARDS + k)], st[ix(PAY_CARDS + j)] = st[ix(PAY_CARDS + j)], st[ix(PAY_CARDS + k)]
    for w in range(words):
        st[ix(PAY_REACHED + w)] = 0
    st[PAY_REACHED] = 1  # total 0, before any card
    reach = 0  # the cards' sum so far: no total above it is reached, so its words are 0
    for k in range(n):
        card_value = st[ix(VALUE + st[ix(PAY_CARDS + k)])]
        reach += card_value
        live = min(words, reach // WORD_BITS + 1)
        before = PAY_REACHED + words * k
        after = before + words
        whole, part = divmod(card_value, WORD_BITS)  # the shift: whole words and part bits
        for w in range(min(whole, live)):
            st[ix(after + w)] = st[ix(before + w)]
        for w in range(whole, live):
            # Shifted as uint64: an int64 shift right would drag the sign bit in.
            shifted = np.uint64(st[ix(before + w - whole)]) << np.uint64(part)
            if w > whole and part > 0:
                shifted |= np.uint64(st[ix(before + w - whole - 1)]) >> np.uint64(WORD_BITS - part)
            st[ix(after + w)] = st[ix(before + w)] | np.int64(shifted)
        for w in range(live, words):
            st[ix(after + w)] = 0
    total = cost
    while not has_total(st, PAY_REACHED + words * n, total):
        total += 1
    s = total
    cards = 0
    reached_after = n  # s is reached after that many cards
    while s > 0:
        # The first card after which s was reached: the sets only grow card by card, so it is
        # found going down while s was reached before the card. And s minus its value was
        # reached before it, so the next search starts below it: one pass over the cards.
        first = reached_after - 1
        while first > 0 and has_total(st, PAY_REACHED + words * first, s):
            first -= 1
        card = st[ix(PAY_CARDS + first)]
        s -= st[ix(VALUE + card)]
        reached_after = first
        move_card(card, DISCARD, M_PAY, st, trace)
        cards += 1
    return total, cards


# --- the challenge --------------------------------------------------------------------------


@njit(cache=True, _nrt=False, inline="always")
def play_card(seat, side, card, st, rules, trace):
    """``seat`` (side 0 attacker, 1 defender) puts ``card`` on the table: a Power Card counts its
    face value times its colour's multiplier, a Political Influence card its face value."""
    move_card(card, PLAYED + seat, M_PLAY, st, trace)
    card_colour = st[COLOUR + card]
    if card_colour == PI:
        st[CH_TOTAL + side] += st[VALUE + card]
    else:
        st[CH_TOTAL + side] += st[VALUE + card] * multiplier(st, rules, card_colour)
        st[CH_PLAYED + side] += 1


@njit(cache=True, _nrt=False, inline="always")
def behind_by(st, side):
    """Credits ``side`` must add to be winning (ties go to the defender); <= 0 when winning."""
    mine = st[CH_TOTAL + side]
    theirs = st[CH_TOTAL + 1 - side]
    return theirs - mine + (1 if side == 0 else 0)


@njit(cache=True, _nrt=False, inline="always")
def holds_unplayed_colour(st, seat):
    """``seat`` holds a Power Card of a colour that has not had its round yet."""
    for card_colour in range(N_TYPES):
        if colour_count(st, HAND + seat, card_colour) > 0 and not (st[CH_DONE] >> card_colour) & 1:
            return True
    return False


@njit(cache=True, _nrt=False, inline="always")
def check_lead(attacker, lead_colour, lead, st):
    """The attacker leads a card of a new colour when it holds one, else calls out a new colour."""
    if not 0 <= lead_colour < N_TYPES or (st[CH_DONE] >> lead_colour) & 1:
        raise ValueError("strategy led a colour that already had its round")
    if holds_unplayed_colour(st, attacker):
        if not in_hand(st, attacker, lead) or st[COLOUR + lead] != lead_colour:
            raise ValueError("strategy did not lead a card it holds of the colour it named")
    elif lead != -1:
        raise ValueError("strategy led a card without holding one of a new colour")


@njit(cache=True, _nrt=False, inline="always")
def resolve(winner, loser, players, hand_before, st, rng, trace):
    """WINNING A CHALLENGE: the winner banks the loser's played cards, the loser draws as many
    cards as it lost, the winner takes its own cards back, and a winning attacker places its
    declared base if it may. Returns 1 if a base was placed."""
    credits = 0
    cards = 0
    while count_at(st, PLAYED + loser) > 0:
        card = card_at(st, PLAYED + loser, 0)
        credits += st[VALUE + card]
        cards += 1
        bank_card(winner, card, M_WON, st, trace)
    # "The loser takes enough cards from the drawpile to replace the lost cards" (not to size).
    for _ in range(cards):
        if not draw_card(loser, M_REFILL, st, rng, trace):
            break
    while count_at(st, PLAYED + winner) > 0:
        move_card(card_at(st, PLAYED + winner, 0), HAND + winner, M_RETURN, st, trace)
    attacker = st[CH_ATTACKER]
    defender = st[CH_DEFENDER]
    declared = st[CH_DECLARED]
    placed = 0
    if winner == attacker and can_place(st, players, attacker, defender, declared):
        set_base(st, attacker, defender, declared, 1)
        st[stat(st, attacker, BASES_WON)] += 1
        placed = 1
    st[stat(st, winner, CHALLENGES_WON)] += 1
    st[stat(st, loser, CHALLENGES_LOST)] += 1
    if st[CH_FLUSH] == 1 and loser == attacker:
        st[stat(st, attacker, FLUSHES)] += 1
        st[stat(st, attacker, FLUSH_CREDITS_GIVEN)] += credits
        st[stat(st, attacker, FLUSH_HAND_BEFORE)] += hand_before
        st[stat(st, attacker, FLUSH_HAND_AFTER)] += hand_value(st, attacker)
    record_event(
        trace,
        st,
        TRACE_LEN,
        EV_RESULT,
        winner,
        loser,
        credits,
        cards,
        placed,
        hand_value(st, loser),
    )
    st[CH_DONE] = 0  # no challenge in progress: nothing is known about voids (determinize)
    return placed


# --- what a seat cannot see --------------------------------------------------------------------


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
def _on_table(st, seat, card_colour):
    for i in range(count_at(st, PLAYED + seat)):
        if st[COLOUR + card_at(st, PLAYED + seat, i)] == card_colour:
            return True
    return False


@njit(cache=True)
def _allowed_in(st, loc, void):
    """Cards at ``loc`` of a colour outside ``void``."""
    n = 0
    for i in range(count_at(st, loc)):
        n += not (void >> st[COLOUR + card_at(st, loc, i)]) & 1
    return n


@njit(cache=True)
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


@njit(cache=True, _nrt=False)
def set_up(players, st, rules, rng, trace):
    """The table from the prepared components; supplies, pawns on their owners' INVESTMENTS PAY
    OFF spaces; hand_size cards dealt to each player, one at a time clockwise from seat 0."""
    st[:SCRATCH] = 0  # the scratch areas are written before they are read
    n_cards = np.int64(rules[P_N_CARDS])
    n_spaces = np.int64(rules[P_N_SPACES])
    st[N_CARDS] = n_cards
    st[N_SPACES] = n_spaces
    st[PLAYERS] = players
    for card in range(n_cards):
        card_colour = np.int64(rules[P_TABLES + card])
        st[COLOUR + card] = card_colour
        st[VALUE + card] = np.int64(rules[P_TABLES + n_cards + card])
        st[DECK_COUNT + card_colour] += 1
        st[DECK_TOTAL + card_colour] += st[VALUE + card]
        st[LOC + card] = DRAWPILE
    recount(st)
    for space in range(n_spaces):
        st[SPACE_KIND + space] = np.int64(rules[P_TABLES + 2 * n_cards + space])
        st[SPACE_TERRITORY + space] = np.int64(rules[P_TABLES + 2 * n_cards + n_spaces + space])
    per_type = 2 if players == 3 else 3
    for seat in range(players):
        for base_type in range(N_TYPES):
            st[SUPPLY + N_TYPES * seat + base_type] = per_type
        for space in range(n_spaces):
            if st[SPACE_KIND + space] == INVESTMENTS and st[SPACE_TERRITORY + space] == seat:
                st[PAWN + seat] = space
        record_event(trace, st, TRACE_LEN, EV_SETUP, seat, seat, st[PAWN + seat], per_type)
    for _ in range(np.int64(rules[R_HAND_SIZE])):
        for seat in range(players):
            draw_card(seat, M_DEAL, st, rng, trace)


# --- the standing per seat (game arcs, docs/arcs.md) -------------------------------------------


@njit(cache=True, _nrt=False)
def record_standing(players, turns, st, trace):
    """After a turn: one standing row per seat when tracing; nothing otherwise."""
    if trace.shape[0] == 0:
        return
    for seat in range(players):
        record_event(trace, st, TRACE_LEN, EV_STANDING, turns, seat, bases_on_board(st, seat),
                     bank_credits(st, seat))  # fmt: skip


# --- the rules of a turn, shared by the scripted flow and the protocol's steps ----------------


@njit(cache=True, _nrt=False, inline="always")
def over_size(seat, st, rules):
    return hand_count(st, seat) > np.int64(rules[R_HAND_SIZE])


@njit(cache=True, _nrt=False, inline="always")
def bank_chosen(seat, card, st, trace):
    """A hand over size banks the card its owner chose."""
    if not in_hand(st, seat, card):
        raise ValueError("strategy banked a card it does not hold")
    bank_card(seat, card, M_BANK, st, trace)


@njit(cache=True, _nrt=False, inline="always")
def draw_to_size(seat, st, rules, rng, trace):
    """A hand under size draws up to it while a card is left."""
    size = np.int64(rules[R_HAND_SIZE])
    while hand_count(st, seat) < size and draw_card(seat, M_REFILL, st, rng, trace):
        pass


@njit(cache=True, _nrt=False, inline="always")
def turn_begins(seat, st, rng, trace):
    """Step 1's draw (the bank follows: ``restore``)."""
    record_event(trace, st, TRACE_LEN, EV_TURN, seat, st[PAWN + seat], hand_count(st, seat),
           bank_credits(st, seat))  # fmt: skip
    draw_card(seat, M_DRAW, st, rng, trace)


@njit(cache=True, _nrt=False, inline="always")
def roll(seat, st, rng, trace):
    """Step 2: roll both dice and move clockwise; the kind of the space landed on."""
    die1 = rand_below(rng, 6) + 1
    die2 = rand_below(rng, 6) + 1
    start = st[PAWN + seat]
    space = (start + die1 + die2) % st[N_SPACES]
    st[PAWN + seat] = space
    kind = st[SPACE_KIND + space]
    record_event(
        trace, st, TRACE_LEN, EV_MOVE, seat, die1, die2, start, space, kind,
        st[SPACE_TERRITORY + space],
    )  # fmt: skip
    return kind


@njit(cache=True, _nrt=False, inline="always")
def invest_owner(territory, players, st, trace):
    """INVESTMENTS PAY OFF in ``territory``: its owner, or -1 when nobody plays it."""
    owner = territory if territory < players else -1
    record_event(trace, st, TRACE_LEN, EV_INVEST, territory, owner)
    return owner


@njit(cache=True, _nrt=False, inline="always")
def invest_pays(seat, owner, territory, st, rng, trace):
    """The owner draws 1, every other seat 1 per base it has there; the cards it was owed."""
    n = 1 if seat == owner else bases_in(st, seat, territory)
    for _ in range(n):
        draw_card(seat, M_INVEST, st, rng, trace)
    return n


@njit(cache=True, _nrt=False, inline="always")
def check_victim(seat, victim, players):
    if not 0 <= victim < players or victim == seat:
        raise ValueError("strategy asked a player who is not an opponent")


@njit(cache=True, _nrt=False, inline="always")
def check_asked(asked):
    if not 0 <= asked < N_TYPES:
        raise ValueError("strategy asked for a colour that is not a Power Card colour")


@njit(cache=True, _nrt=False, inline="always")
def takes_something(victim, asked, kind, st):
    """SPY AND STEAL finds a card when the victim holds any, a TAKE one of the asked colour."""
    if kind == SPY:
        return hand_count(st, victim) > 0
    return colour_count(st, HAND + victim, asked) > 0


@njit(cache=True, _nrt=False, inline="always")
def check_taken(victim, asked, kind, card, st):
    if kind == SPY:
        if not in_hand(st, victim, card):
            raise ValueError("strategy stole a card the victim does not hold")
    elif not in_hand(st, victim, card) or st[COLOUR + card] != asked:
        raise ValueError("strategy gave a card it does not hold or of another colour")


@njit(cache=True, _nrt=False, inline="always")
def take_card(seat, victim, asked, card, kind, st, trace):
    """The card (-1: none) goes from the victim's hand to the taker's (both restore after)."""
    record_event(trace, st, TRACE_LEN, EV_TAKE, seat, victim, asked, card, kind)
    if card >= 0:
        move_card(card, HAND + seat, M_STEAL if kind == SPY else M_GIVE, st, trace)


@njit(cache=True, _nrt=False, inline="always")
def any_opponent_base(seat, players, st, trace):
    """REMOVE A POWER BASE finds an opponent's base on the board (else it records that none)."""
    for owner in range(players):
        if owner != seat and bases_on_board(st, owner) > 0:
            return True
    record_event(trace, st, TRACE_LEN, EV_REMOVE, seat, -1, -1, -1)
    return False


@njit(cache=True, _nrt=False, inline="always")
def remove_base(seat, owner, territory, base_type, players, st, trace):
    """An opponent's base goes back to its owner's supply."""
    if not 0 <= owner < players or owner == seat or not 0 <= territory < N_TERRITORIES:
        raise ValueError("strategy removed a base that is not an opponent's")
    if not 0 <= base_type < N_TYPES or not has_base(st, owner, territory, base_type):
        raise ValueError("strategy removed a base that is not on the board")
    set_base(st, owner, territory, base_type, 0)
    st[stat(st, seat, BASES_REMOVED)] += 1
    st[stat(st, owner, BASES_LOST)] += 1
    record_event(trace, st, TRACE_LEN, EV_REMOVE, seat, owner, territory, base_type)


@njit(cache=True, _nrt=False, inline="always")
def open_challenge(attacker, defender, declared, limited, flush, players, st, trace):
    """Step 3: the challenge's public record (and the attacker's intent ``flush``); returns the
    attacker's hand value (for the flush statistics)."""
    if not 0 <= defender < players or defender == attacker or not 0 <= declared < N_TYPES:
        raise ValueError("strategy challenged a player who is not an opponent, or no base type")
    hand_before = hand_value(st, attacker)
    st[CH_ATTACKER] = attacker
    st[CH_DEFENDER] = defender
    st[CH_DECLARED] = declared
    st[CH_LIMITED] = limited
    st[CH_FLUSH] = flush
    st[CH_DONE] = 0
    st[CH_ROUND] = 0
    for side in range(2):
        st[CH_TOTAL + side] = 0
        st[CH_PLAYED + side] = 0
    st[stat(st, attacker, CHALLENGES_MADE)] += 1
    st[stat(st, attacker, FLUSH_ATTEMPTS)] += flush
    record_event(
        trace, st, TRACE_LEN, EV_CHALLENGE, attacker, defender, declared, limited, flush,
        hand_before,
    )  # fmt: skip
    return hand_before


@njit(cache=True, _nrt=False, inline="always")
def lead(attacker, lead_colour, card, st, rules, trace):
    """The attacker leads ``card`` of ``lead_colour`` face up, or calls the colour out (-1)."""
    check_lead(attacker, lead_colour, card, st)
    if card >= 0:
        play_card(attacker, 0, card, st, rules, trace)


@njit(cache=True, _nrt=False, inline="always")
def can_follow(defender, lead_colour, st):
    return colour_count(st, HAND + defender, lead_colour) > 0


@njit(cache=True, _nrt=False, inline="always")
def follow(defender, lead_colour, card, st, rules, trace):
    if not in_hand(st, defender, card) or st[COLOUR + card] != lead_colour:
        raise ValueError("strategy did not follow with a card of the led colour")
    play_card(defender, 1, card, st, rules, trace)


@njit(cache=True, _nrt=False, inline="always")
def end_round(rnd, lead_colour, lead_card, follow_card, st, trace):
    """The round is played; whether the surrender options open (nobody may surrender before
    both have played a Power Card)."""
    st[CH_DONE] |= 1 << lead_colour
    record_event(trace, st, TRACE_LEN, EV_ROUND, rnd, lead_colour, lead_card, follow_card,
           st[CH_TOTAL], st[CH_TOTAL + 1])  # fmt: skip
    return st[CH_PLAYED] > 0 and st[CH_PLAYED + 1] > 0


@njit(cache=True, _nrt=False, inline="always")
def first_to_surrender(st):
    """The lower total has the first surrender option (ties: the attacker)."""
    return st[CH_ATTACKER] if st[CH_TOTAL] <= st[CH_TOTAL + 1] else st[CH_DEFENDER]


@njit(cache=True, _nrt=False, inline="always")
def surrenders(seat, rnd, forced, st, trace):
    record_event(
        trace, st, TRACE_LEN, EV_SURRENDER, seat, rnd, st[CH_TOTAL], st[CH_TOTAL + 1], forced
    )


@njit(cache=True, _nrt=False, inline="always")
def limited_loser(st):
    """A Limited Challenge played out: the lower total loses (ties: the attacker)."""
    return st[CH_ATTACKER] if behind_by(st, 0) > 0 else st[CH_DEFENDER]


@njit(cache=True, _nrt=False, inline="always")
def open_influence(st):
    """A full challenge played out opens the Political Influence round; the side that is not
    winning acts first."""
    st[CH_ROUND] = N_TYPES
    return 0 if behind_by(st, 0) > 0 else 1


@njit(cache=True, _nrt=False, inline="always")
def must_surrender(side, st):
    """Its Political Influence cannot put ``side`` ahead."""
    seat = st[CH_ATTACKER + side]
    return colour_credits(st, HAND + seat, PI) < behind_by(st, side)


@njit(cache=True, _nrt=False, inline="always")
def play_pi(seat, side, card, st, rules, trace):
    if not in_hand(st, seat, card) or st[COLOUR + card] != PI:
        raise ValueError("strategy played a Political Influence card it does not hold")
    play_card(seat, side, card, st, rules, trace)
    record_event(trace, st, TRACE_LEN, EV_PI, seat, card, st[CH_TOTAL], st[CH_TOTAL + 1])


@njit(cache=True, _nrt=False, inline="always")
def may_buy(seat, players, st, rules):
    """Step 4: base_cost credits banked and a base it may place."""
    cost = np.int64(rules[R_BASE_COST])
    return bank_credits(st, seat) >= cost and any_placement(st, players, seat)


@njit(cache=True, _nrt=False, inline="always")
def buy_base(seat, players, territory, base_type, st, rules, rng, trace):
    """Pay base_cost (no change) and place the base."""
    if not can_place(st, players, seat, territory, base_type):
        raise ValueError("strategy bought a Power Base it cannot place there")
    paid, cards = pay(seat, np.int64(rules[R_BASE_COST]), st, rng, trace)
    set_base(st, seat, territory, base_type, 1)
    st[stat(st, seat, BASES_BOUGHT)] += 1
    record_event(
        trace, st, TRACE_LEN, EV_BUY, seat, territory, base_type, paid, cards,
        bank_credits(st, seat),
    )  # fmt: skip


@njit(cache=True, _nrt=False, inline="always")
def wins(seat, st, trace):
    record_event(trace, st, TRACE_LEN, EV_WIN, seat)


@njit(cache=True, _nrt=False)
def turn_ends(players, turns, st, trace):
    """A traced game records every seat's snapshot after each turn, then its standing."""
    if trace.shape[0] > 0:
        for s in range(players):
            record_event(
                trace, st, TRACE_LEN, EV_SNAPSHOT, s, st[PAWN + s], hand_count(st, s),
                hand_value(st, s), bank_credits(st, s), bases_on_board(st, s),
                supply_left(st, s),
            )  # fmt: skip
    record_standing(players, turns, st, trace)


@njit(cache=True, _nrt=False)
def game_ends(players, winner, turns, st, trace):
    """The end-of-game statistics and record."""
    for s in range(players):
        st[stat(st, s, BASES_AT_END)] = bases_on_board(st, s)
        st[stat(st, s, BANK_AT_END)] = bank_credits(st, s)
    record_event(trace, st, TRACE_LEN, EV_END, winner, turns, winner < 0)


# --- the steps ----------------------------------------------------------------------------------


@njit(cache=True, _nrt=False, inline="always")
def ask(kind, seat, st):
    """Pose a decision: the rules stop until ``apply`` answers it."""
    st[P_DECISION] = kind
    st[P_SEAT] = seat


@njit(cache=True, _nrt=False, inline="always")
def start_restore(seat, after, st):
    """``seat`` restores its hand to hand_size (S_RESTORE), then the rules go on at ``after``."""
    st[P_RESTORE] = seat
    st[P_AFTER] = after
    st[P_STEP] = S_RESTORE


@njit(cache=True, _nrt=False, inline="always")
def restore_step(st, rules, rng, trace):
    """S_RESTORE: bank one card (a decision) while over size, else draw up to it."""
    seat = st[P_RESTORE]
    if over_size(seat, st, rules):
        ask(D_BANK, seat, st)
        return
    draw_to_size(seat, st, rules, rng, trace)
    st[P_STEP] = st[P_AFTER]


@njit(cache=True, _nrt=False, inline="always")
def roll_step(st, rng, trace):
    """S_ROLL: roll, move and follow the directions (the challenge comes next)."""
    seat = st[P_ACTOR]
    players = st[PLAYERS]
    kind = roll(seat, st, rng, trace)
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


@njit(cache=True, _nrt=False, inline="always")
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


@njit(cache=True, _nrt=False, inline="always")
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


@njit(cache=True, _nrt=False, inline="always")
def taken(card, st, trace):
    """D_GIVE / D_STEAL answered (or nothing to take, -1): the card moves, both restore."""
    seat = st[P_ACTOR]
    take_card(seat, st[P_VICTIM], st[P_ASKED], card, st[P_SPACE], st, trace)
    if card >= 0:
        start_restore(seat, S_RESTORE_VICTIM, st)
    else:
        st[P_STEP] = S_CHALLENGE


@njit(cache=True, _nrt=False, inline="always")
def next_round(st):
    """After a round nobody surrendered: the next colour, or the challenge is played out."""
    if st[CH_ROUND] < N_TYPES - 1:
        st[CH_ROUND] += 1
        st[P_STEP] = S_LEAD
    elif st[CH_LIMITED] == 1:
        st[P_LOSER] = limited_loser(st)
        st[P_STEP] = S_RESOLVE
    else:
        st[P_SIDE] = open_influence(st)
        st[P_STEP] = S_PI_TURN


@njit(cache=True, _nrt=False, inline="always")
def round_played(follow_card, st, trace):
    if end_round(st[CH_ROUND], st[P_LEAD_COLOUR], st[P_LEAD], follow_card, st, trace):
        st[P_OPTION] = 0
        st[P_STEP] = S_SURRENDER
    else:
        next_round(st)


@njit(cache=True, _nrt=False, inline="always")
def surrender_step(st):
    """S_SURRENDER: the lower total's option, then the higher's."""
    first = first_to_surrender(st)
    seat = first if st[P_OPTION] == 0 else st[CH_ATTACKER] + st[CH_DEFENDER] - first
    ask(D_SURRENDER, seat, st)


@njit(cache=True, _nrt=False, inline="always")
def pi_turn_step(st, trace):
    """S_PI_TURN: a side whose PI cannot put it ahead surrenders; else it may (a decision)."""
    side = st[P_SIDE]
    seat = st[CH_ATTACKER + side]
    if must_surrender(side, st):
        surrenders(seat, N_TYPES, 1, st, trace)
        st[P_LOSER] = seat
        st[P_STEP] = S_RESOLVE
    else:
        ask(D_SURRENDER, seat, st)


@njit(cache=True, _nrt=False, inline="always")
def pi_play_step(st):
    """S_PI_PLAY: the side plays PI cards (a decision each) until it stops or has none."""
    seat = st[CH_ATTACKER + st[P_SIDE]]
    if colour_count(st, HAND + seat, PI) > 0:
        ask(D_PI, seat, st)
    else:
        st[P_SIDE] = 1 - st[P_SIDE]
        st[P_STEP] = S_PI_TURN


@njit(cache=True, _nrt=False, inline="always")
def resolve_step(st, rng, trace):
    """S_RESOLVE: WINNING A CHALLENGE; a placed base may complete the win, else step 4."""
    loser = st[P_LOSER]
    attacker = st[CH_ATTACKER]
    winner = attacker + st[CH_DEFENDER] - loser
    players = st[PLAYERS]
    st[P_STEP] = S_BUY
    if resolve(winner, loser, players, st[P_HAND_BEFORE], st, rng, trace) and has_won(
        st, players, attacker
    ):
        wins(attacker, st, trace)
        st[P_WINNER] = attacker
        st[P_STEP] = S_END_TURN


@njit(cache=True, _nrt=False)
def end_turn(st, rules, trace):
    """S_END_TURN: the game ends with a win or at the turn cap; else the next seat's turn."""
    players = st[PLAYERS]
    st[P_TURN] += 1
    turn_ends(players, st[P_TURN], st, trace)
    if st[P_WINNER] < 0 and st[P_TURN] < np.int64(rules[R_MAX_TURNS]):
        st[P_ACTOR] = (st[P_ACTOR] + 1) % players
        st[P_STEP] = S_TURN_START
        return
    game_ends(players, st[P_WINNER], st[P_TURN], st, trace)
    st[P_OVER] = 1
    st[P_TRUNCATED] = st[P_WINNER] < 0
    st[P_SEAT] = -1
    st[P_STEP] = S_IDLE


@njit(cache=True, _nrt=False)
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
            pi_turn_step(st, trace)
        elif step == S_PI_PLAY:
            pi_play_step(st)
        elif step == S_TURN_START:
            turn_begins(st[P_ACTOR], st, rng, trace)
            start_restore(st[P_ACTOR], S_ROLL, st)
        elif step == S_ROLL:
            roll_step(st, rng, trace)
        elif step == S_INVEST:
            invest_step(st, rng, trace)
        elif step == S_RESTORE_VICTIM:
            start_restore(st[P_VICTIM], S_CHALLENGE, st)
        elif step == S_CHALLENGE:
            ask(D_CHALLENGE, st[P_ACTOR], st)
        elif step == S_RESOLVE:
            resolve_step(st, rng, trace)
        elif step == S_BUY:
            if may_buy(st[P_ACTOR], st[PLAYERS], st, rules):
                ask(D_BUY, st[P_ACTOR], st)
            else:
                st[P_STEP] = S_END_TURN
        else:
            end_turn(st, rules, trace)


@njit(cache=True, _nrt=False)
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
            if st[P_OPTION] == 2:
                next_round(st)
    elif kind == D_LEAD:
        lead_colour = move - MOVE_CALL_OUT if move >= MOVE_CALL_OUT else st[COLOUR + move]
        card = -1 if move >= MOVE_CALL_OUT else move
        lead(seat, lead_colour, card, st, rules, trace)
        st[P_LEAD_COLOUR] = lead_colour
        st[P_LEAD] = card
        if can_follow(st[CH_DEFENDER], lead_colour, st):
            ask(D_FOLLOW, st[CH_DEFENDER], st)
        else:
            round_played(-1, st, trace)
    elif kind == D_FOLLOW:
        follow(seat, st[P_LEAD_COLOUR], move, st, rules, trace)
        round_played(move, st, trace)
    elif kind == D_PI:
        side = st[P_SIDE]
        if move == MOVE_STOP:
            if behind_by(st, side) > 0:
                raise ValueError("strategy stopped playing Political Influence while behind")
            st[P_SIDE] = 1 - side
            st[P_STEP] = S_PI_TURN
        else:
            play_pi(seat, side, move, st, rules, trace)
    elif kind == D_CHALLENGE:
        limited = 1 if st[P_SPACE] == LIMITED else 0
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
        if has_won(st, players, seat):
            wins(seat, st, trace)
            st[P_WINNER] = seat
        st[P_STEP] = S_END_TURN


# --- the protocol ---------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def new_game(players, st, rules, rng, trace):
    """Set up, then run the rules to the first decision (seat 0 takes the first turn)."""
    set_up(players, st, rules, rng, trace)
    st[P_WINNER] = -1
    st[P_STEP] = S_TURN_START
    advance(st, rules, rng, trace)


@njit(cache=True, _nrt=False)
def apply(st, rules, move, rng, trace):
    """Apply option ``move`` of the pending decision and run the rules to the next decision or
    the end of the game."""
    answer(move, st, rules, rng, trace)
    advance(st, rules, rng, trace)


@njit(cache=True, _nrt=False, inline="always")
def to_move(st):
    """The seat deciding now, or -1 once the game is over."""
    return st[P_SEAT]


@njit(cache=True, _nrt=False, inline="always")
def is_over(st):
    return st[P_OVER] != 0


@njit(cache=True, _nrt=False)
def returns(st, out):
    """Each seat's result: 1 for the winner, 0 for the others (a capped game: 0 for all)."""
    for seat in range(st[PLAYERS]):
        out[seat] = 1.0 if seat == st[P_WINNER] else 0.0


@njit(cache=True, _nrt=False, inline="always")
def list_cards(st, seat, card_colour, moves, n):
    """Append ``seat``'s cards of ``card_colour`` (highest first) to ``moves[n:]``."""
    first, count = colour_run(st, seat, card_colour)
    for i in range(count):
        moves[n + i] = st[first + i]
    return n + count


@njit(cache=True, _nrt=False)
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
        n = list_cards(st, seat, PI, moves, n)
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


@njit(cache=True, _nrt=False, inline="always")
def _mix(h, value):
    return _splitmix64_mix(h ^ np.uint64(value + 0x100))


UNSEEN = -1  # a card's place in an information set when the seat cannot see it


@njit(cache=True, _nrt=False)
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
    return h
