"""Time Barons' rules (../shared/rules/time-barons.md) as resumable decision points over one state
array.

This is the game's decision-point protocol (docs/protocol.md): ``new_game`` sets up and runs the
rules up to the first decision; ``to_move`` and ``st[P_DECISION]`` say who decides what;
``legal`` lists the options; ``apply`` answers one and runs the rules (chance included, from the
game's own stream) up to the next decision or the end (``advance``); ``returns``, ``determinize``
and ``infoset_key`` serve search. The rules never call a strategy.

Between decisions the rules run as steps (``S_*`` in ``st[P_STEP]``, run by ``step``) over the
rule helpers of simcore/games/time_barons/effects.py and turns.py, which the scripted games'
straight-line turn (simcore/games/time_barons/scripted.py) calls too;
tests/contract/test_protocol.py proves that the two flows play the same games.
"""

import numpy as np
from numba import njit

from simcore.games.time_barons.effects import (
    CHOOSE_NOW,
    arrange,
    attachment_lands,
    check_site,
    check_unit_choice,
    discard_played,
    draw_card,
    effect_now,
    effect_of,
    effects_at,
    has_candidate,
    hit_site,
    name_site,
    named_site,
    open_attack,
    open_window,
    place_from_supply,
    site_add,
    site_purpose,
    start_response,
    takes_units,
    to_name,
    unit_apply,
    unit_possible,
    window_closed,
)
from simcore.games.time_barons.state import (
    ABILITY,
    ACTIONS,
    ACTIVE,
    ATTACHMENT,
    ATTACK,
    ATTACK_ABILITY,
    C_EFFECTS,
    C_HARMFUL,
    C_N_ABILITIES,
    C_N_EFFECTS,
    C_TYPE,
    CANCELLED,
    CARD_LEVEL,
    D_ARRANGE,
    D_MOVE,
    D_NONE,
    D_RECOVER,
    D_RESPONSE,
    D_SITE,
    D_STACK,
    DECK,
    DISCARD_N,
    DRAW,
    DRAW_ACTION,
    DRAWS_MADE,
    E_DAMAGE,
    E_DESTROY,
    E_DRAW,
    E_RECOVER,
    E_RELOCATE,
    E_STEAL,
    END,
    ENTERED,
    EV_EFFECT,
    EV_END_TURN,
    FIRST,
    FOLLOW,
    GAIN,
    HAND,
    HAND_N,
    IN_HAND,
    IN_STACK,
    LEVEL,
    LOC,
    MAX_IDS,
    MAX_MOVES,
    N_LEVELS,
    N_MOVE_KINDS,
    N_SEAT_STATS,
    NO_ATTACK,
    NO_BOUND,
    ON_ATTACK,
    ON_RELOCATE,
    ON_SITE,
    ON_UPGRADE,
    OVER,
    OWNER,
    P_AMOUNT,
    P_ARR_AFTER,
    P_ARR_I,
    P_ARR_LEFT,
    P_ARR_SEAT,
    P_ARRANGE,
    P_ATTACK_AFTER,
    P_CANCELLED,
    P_DECISION,
    P_DECISIONS,
    P_DECLARE_K,
    P_MOVE_A,
    P_MOVE_B,
    P_MOVE_KIND,
    P_MOVES_LEFT,
    P_OP,
    P_PICK_N,
    P_PURPOSE,
    P_REACT_CARD,
    P_REASON,
    P_RES_AFTER,
    P_RES_BASE,
    P_RES_DECLARED,
    P_RES_K,
    P_RES_N,
    P_RES_SEAT,
    P_RES_SOURCE,
    P_SEAT,
    P_STEAL_FROM,
    P_STEP,
    P_TRIGGER,
    P_TURNS,
    P_UNITS,
    P_WINDOW_AFTER,
    P_WINDOW_LEFT,
    P_WINNER,
    PASS,
    PICK_PLACE,
    PICK_STEAL,
    PROTOCOL,
    R_ATTACK_TARGETS,
    R_MAX_TURNS,
    REACT,
    RELOCATE,
    SHOWN,
    SITE,
    SITES_N,
    ST_DRAWN_MASK,
    STACK_END,
    STACK_TOP,
    STATS,
    TARGETS,
    TARGETS_DECLARED,
    THREAT_N,
    TRACE_LEN,
    TRIGGERED,
    UPGRADE,
    VALUE_BOUND,
    decode,
    followers,
    hand_card,
    hand_n,
    is_candidate,
    may_answer,
    may_draw_from,
    move_code,
    move_is_legal,
    nth_move,
    response_code,
    response_is_legal,
    site_at,
    sites_n,
)
from simcore.games.time_barons.turns import (
    after_turn,
    begin_turn,
    game_over,
    pay_move,
    play_from_hand,
    setup,
    use_ability,
)
from simcore.kernel.chunk import record_event
from simcore.kernel.intrinsics import inline_njit, ix
from simcore.kernel.rng import _splitmix64_mix, rand_below

MOVE_CAP = 200  # moves per turn, and responses per window: a card set that loops ends the turn


# --- what a seat cannot see ------------------------------------------------------------------


@njit(cache=True, _nrt=False, forceinline=False)
def hidden_slot(st, seat, level, k):
    """Where the ``k``-th hidden card of ``level`` is, in the deck and then the hand of the
    opponent of ``seat``: an index into ``st``. The hidden cards of a level are those left in
    its stack, then the cards of that level in the opponent's hand that were not shown."""
    top = st[ix(STACK_TOP + level - 1)]
    in_stack = st[ix(STACK_END + level - 1)] - top
    if k < in_stack:
        return DECK + top + k
    k -= in_stack
    other = 1 - seat
    for i in range(hand_n(st, other)):
        card = hand_card(st, other, i)
        if st[ix(SHOWN + card)] == 0 and st[ix(CARD_LEVEL + card)] == level:
            if k == 0:
                return HAND + MAX_IDS * other + i
            k -= 1
    return -1


@njit(cache=True, _nrt=False, forceinline=False)
def determinize(st, seat, rng):
    """Redraw, uniformly among the states consistent with what ``seat`` has seen, everything
    hidden from it: which unseen card of each level is in which place of that level's stack
    and of the opponent's hand. ``seat`` sees its own hand, everything in play and in the
    discard pile, the size of each stack, and of each card in the opponent's hand the level
    (a card is drawn from the stack of its level, in view) and, if it was taken back from the
    discard pile (SHOWN), the card itself. So per level, the cards left in its stack and the
    opponent's unshown cards of that level are shuffled over the same places. Nothing else is
    hidden, and no earlier sight needs remembering: every card once seen is now in play, in
    the pile, in the seat's hand or shown. The cards that change place get their whereabouts,
    the opponent's drawn-card statistic (a card now in its hand was drawn, one now in a stack
    was not) and a forgotten value bound, as a draw would leave them. The result depends only
    on the state as ``seat`` sees it and the stream (docs/protocol.md)."""
    other = 1 - seat
    for level in range(1, N_LEVELS + 1):
        count = 0
        while hidden_slot(st, seat, level, count) >= 0:
            count += 1
        # In card id order first, so that the redraw depends only on which cards are unseen,
        # not on where they are (the search's leak check redraws twins and compares).
        for i in range(count - 1):
            a = hidden_slot(st, seat, level, i)
            for j in range(i + 1, count):
                b = hidden_slot(st, seat, level, j)
                if st[ix(b)] < st[ix(a)]:
                    swap = st[ix(a)]
                    st[ix(a)] = st[ix(b)]
                    st[ix(b)] = swap
        for i in range(count - 1, 0, -1):  # Fisher-Yates over the level's hidden places
            j = rand_below(rng, i + 1)
            a = hidden_slot(st, seat, level, i)
            b = hidden_slot(st, seat, level, j)
            swap = st[ix(a)]
            st[ix(a)] = st[ix(b)]
            st[ix(b)] = swap
        for k in range(count):
            where = hidden_slot(st, seat, level, k)
            card = st[ix(where)]
            in_hand = where >= HAND
            st[ix(LOC + card)] = IN_HAND if in_hand else IN_STACK
            st[ix(OWNER + card)] = other if in_hand else -1
            st[ix(VALUE_BOUND + card)] = NO_BOUND
            mask = STATS + N_SEAT_STATS * other + ST_DRAWN_MASK
            if in_hand:
                st[ix(mask)] |= np.int64(1) << np.int64(card)
            else:
                st[ix(mask)] &= ~(np.int64(1) << np.int64(card))


# --- the steps ------------------------------------------------------------------------------------
# A step either asks a decision (``ask``: the kind in st[P_DECISION], the seat in st[P_SEAT], the
# step that takes the answer in st[P_STEP]) or names the next step. The in-progress fields of a
# turn (the move, the open window, the attack, the effects resolving, a relocation) are the P_*
# fields of simcore/games/time_barons/state.py; all are public. ``game`` is the prepared (encoded
# rules, card table) pair. Search (simcore/games/time_barons/search.py) and the random-play tests
# drive a game through these.

(
    S_TURN, S_MOVE, S_MOVED, S_RELOCATED, S_WINDOW, S_ANSWERED, S_REACTED, S_DECLARE, S_NAMED,
    S_ATTACK_WINDOW, S_ATTACK_CHECK, S_ATTACK_DONE, S_ATTACHED, S_EVENT_DONE, S_EFFECT,
    S_EFFECT_SITE, S_UNIT, S_UNIT_CHOSEN, S_STOLEN, S_ARRANGE, S_ARRANGED, S_TURN_END, S_OVER,
) = range(23)  # fmt: skip


@njit(cache=True, _nrt=False, forceinline=False)
def ask(st, kind, seat, then):
    st[P_DECISION] = kind
    st[P_SEAT] = seat
    st[P_STEP] = then


@njit(cache=True, _nrt=False, forceinline=False)
def ask_site(st, seat, purpose, n, then):
    st[P_PURPOSE] = purpose
    st[P_PICK_N] = n
    ask(st, D_SITE, seat, then)


@njit(cache=True, _nrt=False, forceinline=False)
def window(trigger, after, st):
    """``respond`` as a step: the window opens (then S_WINDOW) only if the player not on turn
    has something that answers ``trigger``; else the rules go on with ``after``."""
    seat = 1 - st[ACTIVE]
    if may_answer(st, seat, trigger):
        open_window(seat, st)
        st[P_TRIGGER] = trigger
        st[P_WINDOW_LEFT] = MOVE_CAP
        st[P_WINDOW_AFTER] = after
        st[P_STEP] = S_WINDOW
    else:
        st[P_STEP] = after


@njit(cache=True, _nrt=False, forceinline=False)
def begin_resolve(seat, source, base, n_effects, declared, after, st):
    """``resolve`` as steps (S_EFFECT), then ``after``."""
    st[P_RES_SEAT] = seat
    st[P_RES_SOURCE] = source
    st[P_RES_BASE] = base
    st[P_RES_N] = n_effects
    st[P_RES_K] = 0
    st[P_RES_DECLARED] = 1 if declared else 0
    st[P_RES_AFTER] = after
    st[P_STEP] = S_EFFECT


@njit(cache=True, _nrt=False, forceinline=False)
def begin_attack(seat, source, ability, after, st, rules):
    """``attack`` as steps: the sites named (S_DECLARE), the window, the effects; then
    ``after``."""
    open_attack(source, ability, st)
    st[P_ATTACK_AFTER] = after
    st[P_DECLARE_K] = 0
    st[P_STEP] = S_DECLARE if rules[R_ATTACK_TARGETS] == TARGETS_DECLARED else S_ATTACK_WINDOW


@njit(cache=True, _nrt=False, forceinline=False)
def begin_relocation(seat, after, st):
    """``relocate`` as steps: one D_ARRANGE per site of the seat, then ``after``."""
    st[P_ARR_SEAT] = seat
    st[P_ARR_I] = 0
    st[P_ARR_LEFT] = followers(st, seat)
    st[P_ARR_AFTER] = after
    st[P_STEP] = S_ARRANGE


@njit(cache=True, _nrt=False, forceinline=False)
def start_move(move, st, cards, rules, trace):
    """S_MOVED: the player on turn's move (a D_MOVE code) is paid and begun."""
    seat = st[ACTIVE]
    kind, a, b = decode(move, N_MOVE_KINDS)
    if kind == END:
        st[P_STEP] = S_TURN_END
        return
    if not move_is_legal(st, cards, rules, seat, kind, a, b):
        raise ValueError("strategy chose an illegal move")
    pay_move(seat, kind, a, b, st, cards, rules, trace)
    st[P_MOVE_KIND] = kind
    st[P_MOVE_A] = a
    st[P_MOVE_B] = b
    st[P_STEP] = S_MOVE
    if kind == DRAW:
        draw_card(seat, a, DRAW_ACTION, st, trace)
    elif kind == GAIN:
        place_from_supply(seat, a, 1, st, trace)
    elif kind == RELOCATE:
        begin_relocation(seat, S_RELOCATED, st)
    elif kind == UPGRADE:
        st[ix(LEVEL + seat)] += 1
        window(ON_UPGRADE, S_MOVE, st)
    elif kind == ABILITY:
        if use_ability(a, b, st, cards):
            begin_attack(seat, a, b, S_MOVE, st, rules)
        else:
            base, n_effects = effects_at(cards, a, b)
            begin_resolve(seat, a, base, n_effects, False, S_MOVE, st)
    else:  # PLAY
        play_from_hand(seat, a, st)
        kind_of_card = cards[ix(a), C_TYPE]
        if kind_of_card == SITE:
            site_add(st, seat, a)
            window(ON_SITE, S_MOVE, st)
        elif kind_of_card == ATTACHMENT:
            st[P_CANCELLED] = 0
            st[P_STEP] = S_ATTACHED
            if st[ix(OWNER + b)] != seat:  # an attack on the site it names
                open_attack(a, -1, st)
                st[TARGETS] = b
                st[P_ATTACK_AFTER] = S_ATTACHED
                st[P_STEP] = S_ATTACK_WINDOW
        elif cards[ix(a), C_HARMFUL] == 1:
            begin_attack(seat, a, -1, S_EVENT_DONE, st, rules)
        else:
            begin_resolve(seat, a, C_EFFECTS, cards[ix(a), C_N_EFFECTS], False, S_EVENT_DONE, st)


@njit(cache=True, _nrt=False, forceinline=False)
def next_effect(st, cards, rules, rng, trace):
    """S_EFFECT: the next effect resolving starts (or the effects are done)."""
    k = st[P_RES_K]
    if k >= st[P_RES_N] or st[OVER] == 1:
        st[P_STEP] = st[P_RES_AFTER]
        return
    seat = st[P_RES_SEAT]
    source = st[P_RES_SOURCE]
    op, n, target = effect_of(st, cards, source, st[P_RES_BASE], k, st[P_RES_DECLARED] == 1)
    st[P_RES_K] = k + 1
    st[P_OP] = op
    st[P_AMOUNT] = n
    record_event(trace, st, TRACE_LEN, EV_EFFECT, seat, source, op, n)
    if op == E_DAMAGE or op == E_DESTROY:
        purpose = site_purpose(op)
        if target != CHOOSE_NOW:
            site = named_site(seat, purpose, target, st)
            if site >= 0:
                hit_site(seat, op, n, site, st, cards, rules, trace)
        elif has_candidate(st, seat, purpose):
            ask_site(st, seat, purpose, n, S_EFFECT_SITE)
    elif takes_units(op):
        st[P_UNITS] = n
        st[P_STEP] = S_UNIT
    elif op == E_RELOCATE:
        begin_relocation(seat, S_EFFECT, st)
    else:
        effect_now(seat, op, n, st, cards, rules, rng, trace)


@njit(cache=True, _nrt=False, forceinline=False)
def next_unit(st, rules):
    """S_UNIT: the effect taking things one at a time asks for its next one, or ends."""
    seat = st[P_RES_SEAT]
    op = st[P_OP]
    if st[P_UNITS] == 0 or not unit_possible(seat, op, st, rules):
        st[P_STEP] = S_EFFECT
        return
    st[P_UNITS] -= 1
    if op == E_DRAW:
        ask(st, D_STACK, seat, S_UNIT_CHOSEN)
    elif op == E_RECOVER:
        ask(st, D_RECOVER, seat, S_UNIT_CHOSEN)
    else:
        ask_site(st, seat, site_purpose(op), 1, S_UNIT_CHOSEN)


# The longer steps, each inlined into ``step``: the same compiled step as when they were written
# out there, with no call passing the game's arrays.
@inline_njit()
def answered(seat, move, st, cards, rules, trace):
    """S_ANSWERED: the player not on turn answered the window (a D_RESPONSE code)."""
    kind, a, b = decode(move, 3)
    if kind == PASS:
        st[P_STEP] = st[P_WINDOW_AFTER]
        return
    other = 1 - seat
    if not response_is_legal(st, cards, rules, other, st[P_TRIGGER], kind, a, b):
        raise ValueError("strategy chose an illegal response")
    base, n_effects = start_response(other, kind, a, b, st[P_TRIGGER], st, cards, trace)
    st[P_REACT_CARD] = a
    after = S_REACTED if kind == REACT else S_WINDOW
    begin_resolve(other, a, base, n_effects, False, after, st)


@inline_njit()
def declare(seat, st, cards):
    """S_DECLARE: the attacker names the site of the attack's next damage or destroy effect, or
    the attack goes to its window."""
    base, n_effects = effects_at(cards, st[ATTACK], st[ATTACK_ABILITY])
    st[P_STEP] = S_ATTACK_WINDOW
    for k in range(st[P_DECLARE_K], n_effects):
        purpose = to_name(seat, st[ATTACK], base, k, st, cards)
        if purpose >= 0:
            st[P_DECLARE_K] = k
            ask_site(st, seat, purpose, cards[ix(st[ATTACK]), ix(base + 2 * k + 1)], S_NAMED)
            return


@inline_njit()
def attack_checked(seat, st, cards, rules, trace):
    """S_ATTACK_CHECK: after the attack's window, its effects resolve unless it was cancelled (an
    attachment's attack goes back to the attachment, cancelled or not)."""
    cancelled = window_closed(st, trace)
    source = st[ATTACK]
    if cards[ix(source), C_TYPE] == ATTACHMENT:
        st[P_CANCELLED] = 1 if cancelled else 0
        st[ATTACK] = NO_ATTACK
        st[P_STEP] = st[P_ATTACK_AFTER]
    elif cancelled:
        st[P_STEP] = S_ATTACK_DONE
    else:
        base, n_effects = effects_at(cards, source, st[ATTACK_ABILITY])
        declared = rules[R_ATTACK_TARGETS] == TARGETS_DECLARED
        begin_resolve(seat, source, base, n_effects, declared, S_ATTACK_DONE, st)


@inline_njit()
def unit_chosen(move, st, cards, rules, trace):
    """S_UNIT_CHOSEN: one unit of the effect resolving, on the stack, pile index or site chosen
    (a steal then asks where the follower goes)."""
    owner = st[P_RES_SEAT]
    check_unit_choice(owner, st[P_OP], move, st, rules)
    st[P_STEP] = S_UNIT
    if st[P_OP] == E_STEAL:
        st[P_STEAL_FROM] = move
        ask_site(st, owner, PICK_PLACE, 1, S_STOLEN)
    else:
        unit_apply(owner, st[P_OP], move, -1, st, cards, trace)


@inline_njit()
def arranged(move, st):
    """S_ARRANGED: the followers the relocating seat puts on its next site, checked."""
    i = st[P_ARR_I]
    left = st[P_ARR_LEFT]
    if move < 0 or move > left:
        raise ValueError("strategy arranged a negative number of followers")
    if i == sites_n(st, st[P_ARR_SEAT]) - 1 and move != left:
        raise ValueError("strategy's arrangement does not hold all its followers")
    st[ix(P_ARRANGE + i)] = move
    st[P_ARR_LEFT] = left - move
    st[P_ARR_I] = i + 1
    st[P_STEP] = S_ARRANGE


@inline_njit()
def turn_ended(seat, st, rules, trace):
    """S_TURN_END: the turn ends; the next one starts, or the game is over."""
    record_event(trace, st, TRACE_LEN, EV_END_TURN, seat, st[ACTIONS])
    st[P_TURNS] += 1
    reason = after_turn(st[P_TURNS], st, rules, trace)
    if reason < 0 and st[P_TURNS] < np.int64(rules[R_MAX_TURNS]):
        st[P_STEP] = S_TURN
    else:
        winner, reason = game_over(st[P_TURNS], reason, st, rules, trace)
        st[P_WINNER] = winner
        st[P_REASON] = reason
        st[P_SEAT] = -1
        st[P_STEP] = S_OVER


@njit(cache=True, _nrt=False, forceinline=False)
def step(st, rules, cards, move, rng, trace):
    """Run the step st[P_STEP]; ``move`` is the answer of the decision it asked (if it did)."""
    s = st[P_STEP]
    seat = st[ACTIVE]
    if s == S_TURN:
        begin_turn(st[FIRST] ^ (st[P_TURNS] & 1), st[P_TURNS], st, cards, rules, trace)
        st[P_MOVES_LEFT] = MOVE_CAP
        st[P_STEP] = S_MOVE
    elif s == S_MOVE:
        if st[OVER] == 1 or st[P_MOVES_LEFT] == 0:
            st[P_STEP] = S_TURN_END
        else:
            st[P_MOVES_LEFT] -= 1
            ask(st, D_MOVE, seat, S_MOVED)
    elif s == S_MOVED:
        start_move(move, st, cards, rules, trace)
    elif s == S_RELOCATED:
        window(ON_RELOCATE, S_MOVE, st)
    elif s == S_WINDOW:
        if st[OVER] == 1 or st[P_WINDOW_LEFT] == 0:
            st[P_STEP] = st[P_WINDOW_AFTER]
        else:
            st[P_WINDOW_LEFT] -= 1
            ask(st, D_RESPONSE, 1 - seat, S_ANSWERED)
    elif s == S_ANSWERED:
        answered(seat, move, st, cards, rules, trace)
    elif s == S_REACTED:
        discard_played(st[P_REACT_CARD], 1 - seat, st, trace)
        st[P_STEP] = S_WINDOW
    elif s == S_DECLARE:
        declare(seat, st, cards)
    elif s == S_NAMED:
        check_site(st, seat, st[P_PURPOSE], move)
        name_site(seat, st[P_DECLARE_K], move, st, trace)
        st[P_DECLARE_K] += 1
        st[P_STEP] = S_DECLARE
    elif s == S_ATTACK_WINDOW:
        st[CANCELLED] = 0
        window(ON_ATTACK, S_ATTACK_CHECK, st)
    elif s == S_ATTACK_CHECK:
        attack_checked(seat, st, cards, rules, trace)
    elif s == S_ATTACK_DONE:
        st[ATTACK] = NO_ATTACK
        st[P_STEP] = st[P_ATTACK_AFTER]
    elif s == S_ATTACHED:
        attachment_lands(st[P_MOVE_A], st[P_MOVE_B], seat, st[P_CANCELLED] == 1, st, cards, trace)
        st[P_STEP] = S_MOVE
    elif s == S_EVENT_DONE:
        discard_played(st[P_MOVE_A], seat, st, trace)
        st[P_STEP] = S_MOVE
    elif s == S_EFFECT:
        next_effect(st, cards, rules, rng, trace)
    elif s == S_EFFECT_SITE:
        check_site(st, st[P_RES_SEAT], st[P_PURPOSE], move)
        hit_site(st[P_RES_SEAT], st[P_OP], st[P_AMOUNT], move, st, cards, rules, trace)
        st[P_STEP] = S_EFFECT
    elif s == S_UNIT:
        next_unit(st, rules)
    elif s == S_UNIT_CHOSEN:
        unit_chosen(move, st, cards, rules, trace)
    elif s == S_STOLEN:
        check_site(st, st[P_RES_SEAT], PICK_PLACE, move)
        unit_apply(st[P_RES_SEAT], E_STEAL, st[P_STEAL_FROM], move, st, cards, trace)
        st[P_STEP] = S_UNIT
    elif s == S_ARRANGE:
        owner = st[P_ARR_SEAT]
        if st[P_ARR_I] < sites_n(st, owner):
            ask(st, D_ARRANGE, owner, S_ARRANGED)
        else:
            arrange(owner, P_ARRANGE, st, trace)
            st[P_STEP] = st[P_ARR_AFTER]
    elif s == S_ARRANGED:
        arranged(move, st)
    elif s == S_TURN_END:
        turn_ended(seat, st, rules, trace)


@njit(cache=True, _nrt=False, forceinline=False)
def advance(st, rules, cards, rng, trace):
    """Run the rules to the next decision or the end."""
    while st[P_DECISION] == D_NONE and st[P_STEP] != S_OVER:
        step(st, rules, cards, np.int64(-1), rng, trace)  # -1 as int64 compiles step once


@njit(cache=True, _nrt=False, forceinline=False)
def new_game(players, st, game, rng, trace):
    """Set up (``players`` is always 2) and run the rules to the first decision."""
    rules, cards = game
    setup(st, cards, rules, rng, trace)
    st[P_SEAT] = -1
    st[P_REASON] = -1
    st[P_WINNER] = -1
    st[P_STEP] = S_TURN
    advance(st, rules, cards, rng, trace)


@njit(cache=True, _nrt=False, forceinline=False)
def apply(st, game, move, rng, trace):
    """Answer the pending decision with ``move`` and run the rules to the next one."""
    rules, cards = game
    st[P_DECISION] = D_NONE
    st[P_DECISIONS] += 1
    step(st, rules, cards, move, rng, trace)
    advance(st, rules, cards, rng, trace)


@njit(cache=True, _nrt=False, forceinline=False)
def to_move(st):
    return st[P_SEAT]


@njit(cache=True, _nrt=False, forceinline=False)
def is_over(st):
    return st[P_STEP] == S_OVER


@njit(cache=True, _nrt=False, forceinline=False)
def returns(st, out):
    """1.0 for the winner, 0.0 otherwise (a draw or a game cut off by the cap: 0 for both)."""
    out[0] = 0.0
    out[1] = 0.0
    if st[P_WINNER] >= 0:
        out[st[P_WINNER]] = 1.0


@njit(cache=True, _nrt=False, forceinline=False)
def listed(moves, n, code):
    """Add ``code`` to the options (at most MAX_MOVES of them)."""
    if n < MAX_MOVES:
        moves[n] = code
        return n + 1
    return n


@njit(cache=True, _nrt=False, forceinline=False)
def legal(st, game, moves):
    """The pending decision's options as move codes in ``moves[:n]``, in a fixed order; n."""
    rules, cards = game
    kind = st[P_DECISION]
    seat = st[P_SEAT]
    n = 0
    if kind == D_MOVE:  # in nth_move's order, END first
        total, _, _, _ = nth_move(st, cards, rules, seat, -1)
        for pick in range(min(total, MAX_MOVES)):
            _, move, a, b = nth_move(st, cards, rules, seat, pick)
            n = listed(moves, n, move_code(move, a, b))
    elif kind == D_RESPONSE:  # pass, reaction cards in hand order, abilities in site order
        trigger = st[P_TRIGGER]
        n = listed(moves, n, response_code(PASS, -1, -1))
        for i in range(hand_n(st, seat)):
            card = hand_card(st, seat, i)
            if response_is_legal(st, cards, rules, seat, trigger, REACT, card, -1):
                n = listed(moves, n, response_code(REACT, card, -1))
        for i in range(sites_n(st, seat)):
            site = site_at(st, seat, i)
            for ability in range(cards[ix(site), C_N_ABILITIES]):
                if response_is_legal(st, cards, rules, seat, trigger, TRIGGERED, site, ability):
                    n = listed(moves, n, response_code(TRIGGERED, site, ability))
    elif kind == D_SITE:  # the candidates in their owner's play order
        purpose = st[P_PURPOSE]
        owner = 1 - seat if purpose <= PICK_STEAL else seat
        for i in range(sites_n(st, owner)):
            if is_candidate(st, seat, purpose, site_at(st, owner, i)):
                n = listed(moves, n, site_at(st, owner, i))
    elif kind == D_STACK:
        for level in range(1, st[ix(LEVEL + seat)] + 1):
            if may_draw_from(st, rules, seat, level):
                n = listed(moves, n, level)
    elif kind == D_RECOVER:
        for i in range(st[DISCARD_N]):
            n = listed(moves, n, i)
    elif kind == D_ARRANGE:  # followers for this site: the last site takes those left
        left = st[P_ARR_LEFT]
        if st[P_ARR_I] == sites_n(st, seat) - 1:
            n = listed(moves, n, left)
        else:
            for count in range(left + 1):
                n = listed(moves, n, count)
    return n


@inline_njit()
def _mix(h, value):
    return _splitmix64_mix(h ^ np.uint64(value + 0x100))


@njit(cache=True, _nrt=False, forceinline=False)
def _mix_range(h, st, start, stop):
    for i in range(start, stop):
        h = _mix(h, st[ix(i)])
    return h


@njit(cache=True, _nrt=False, forceinline=False)
def infoset_key(st, seat):
    """A 64-bit hash of what ``seat`` observes now: every field of ``st`` but those
    ``determinize(st, seat, ...)`` may change (the stacks' order, the opponent's unshown
    cards, where those are, the opponent's drawn-card mask) and the strategies' scratch and
    caches (value bounds, arrangements, expected attacks); for each card of the opponent's hand
    its level, or the card itself if shown. Two states get the same key iff they differ only in
    what ``determinize`` redraws (up to hash collisions)."""
    other = 1 - seat
    h = _mix(np.uint64(0x9E3779B97F4A7C15), seat)
    h = _mix_range(h, st, 0, TRACE_LEN)
    h = _mix_range(h, st, TRACE_LEN + 1, DECK)
    h = _mix_range(h, st, HAND_N, HAND)
    h = _mix_range(h, st, HAND + MAX_IDS * seat, HAND + MAX_IDS * seat + hand_n(st, seat))
    for i in range(hand_n(st, other)):
        card = hand_card(st, other, i)
        h = _mix(h, card if st[ix(SHOWN + card)] == 1 else -1 - st[ix(CARD_LEVEL + card)])
    h = _mix_range(h, st, SITES_N, LOC)
    for card in range(MAX_IDS):
        hidden = st[ix(LOC + card)] == IN_STACK or (
            st[ix(LOC + card)] == IN_HAND and st[ix(OWNER + card)] == other
        )
        if not hidden:
            h = _mix(h, st[ix(LOC + card)])
            h = _mix(h, st[ix(OWNER + card)])
            h = _mix(h, st[ix(ENTERED + card)])
    h = _mix_range(h, st, FOLLOW, VALUE_BOUND)
    for k in range(2 * N_SEAT_STATS):
        if k != N_SEAT_STATS * other + ST_DRAWN_MASK:
            h = _mix(h, st[ix(STATS + k)])
    h = _mix_range(h, st, ATTACK, THREAT_N)
    h = _mix(h, st[DRAWS_MADE])
    return _mix_range(h, st, PROTOCOL, P_ARRANGE + st[P_ARR_I])
