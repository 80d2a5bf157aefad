"""Time Barons' frame of a turn and of a game, called by both flows (the protocol's steps in
simcore/games/time_barons/rules.py, the scripted turn in simcore/games/time_barons/scripted.py):
set-up, the start of a turn, paying for a move, and after each turn the snapshot, the standing and
the end reason; at the end the winner and the per-seat statistics.
"""

import numpy as np
from numba import njit

from simcore.games.time_barons.effects import (
    damage_site,
    draw_card,
    hand_remove,
    mark_card,
    move_followers,
    place_from_supply,
    reset_card_facts,
    site_add,
)
from simcore.games.time_barons.state import (
    A_HARMFUL,
    A_INFINITE,
    ABILITY_WIDTH,
    ACTIONS,
    ACTIVE,
    ATTACK,
    C_ABILITIES,
    C_EFFECTS,
    C_LEVEL,
    C_N_EFFECTS,
    C_TYPE,
    CARD_LEVEL,
    DAMAGE,
    DECAY,
    DECK,
    DISCARD_N,
    DRAW,
    DRAW_SETUP,
    DRAWS_MADE,
    E_DECAY,
    E_START_ACTIONS,
    E_START_GAIN,
    END_STACKS,
    END_TURN_CAP,
    END_WIPEOUT,
    ENTERED,
    EV_EFFECT,
    EV_END,
    EV_MOVE,
    EV_SETUP,
    EV_SNAPSHOT,
    EV_STANDING,
    EV_TABLE,
    EV_TURN,
    FIRST,
    FIRST_PLAYER_RANDOM,
    HOMELAND,
    HOST,
    IN_PLAY,
    IN_STACK,
    LEVEL,
    LOC,
    MAX_CARDS,
    MAX_IDS,
    N_FOLLOWERS,
    N_LEVELS,
    N_SEAT_STATS,
    NO_ATTACK,
    NO_TYPE,
    OVER,
    OWNER,
    POOL,
    R_ACTIONS,
    R_DAMAGE_COUNTERS,
    R_FIRST_PLAYER,
    R_FIRST_TURN_ACTIONS,
    R_FOLLOWERS,
    R_HAND,
    R_LEVEL_TIEBREAK,
    R_STACKS_TO_END,
    R_STARTING_FOLLOWERS,
    S_FINGERPRINT,
    S_LEVEL_COUNT,
    SET_ROW,
    ST_FOLLOWERS,
    ST_LEVEL,
    ST_PLAYED,
    ST_PLAYED_MASK,
    ST_SITES,
    STACK_END,
    STACK_TOP,
    STATS,
    SUPPLY,
    TRACE_LEN,
    TURN,
    UNUSED,
    USED,
    empty_stacks,
    followers,
    hand_n,
    is_disabled,
    move_cost,
    site_at,
    sites_n,
    stack_left,
)
from simcore.kernel.chunk import record_event
from simcore.kernel.intrinsics import inline_njit, ix
from simcore.kernel.rng import rand_below


# Inlined: once per move in both flows.
@inline_njit()
def pay_move(seat, kind, a, b, st, cards, rules, trace):
    """The player on turn pays for a legal move."""
    paid = move_cost(st, cards, rules, seat, kind, a, b)
    st[ACTIONS] -= paid
    if kind == DRAW:
        st[DRAWS_MADE] += 1
    record_event(trace, st, TRACE_LEN, EV_MOVE, seat, kind, a, b, paid, st[ACTIONS])


@inline_njit()
def use_ability(site, ability, st, cards):
    """A once-per-turn ability is used up; is it an attack?"""
    base = C_ABILITIES + ABILITY_WIDTH * ability
    if cards[ix(site), ix(base + A_INFINITE)] == 0:
        st[ix(USED + site)] = 1
    return cards[ix(site), ix(base + A_HARMFUL)] == 1


@inline_njit()
def play_from_hand(seat, card, st):
    hand_remove(st, seat, card)
    mark_card(st, seat, ST_PLAYED, ST_PLAYED_MASK, card)


# Inlined into take_turn, its only caller in a game: one call per turn saved.
@inline_njit()
def start_of_turn(seat, st, cards, rules, trace):
    """Once-per-turn abilities become usable again, decay attachments damage their sites, then
    the sites' passives apply."""
    # Backwards: a destroyed site only shifts the sites after it, already done (so each site is
    # visited once, and the reset of USED can share the pass: no decay reads it).
    for i in range(sites_n(st, seat) - 1, -1, -1):
        site = site_at(st, seat, i)
        st[ix(USED + site)] = 0
        if st[ix(DECAY + site)] == 0:
            continue
        for card in range(MAX_IDS):
            if st[ix(LOC + site)] != IN_PLAY or st[OVER] == 1:
                break
            if st[ix(LOC + card)] != IN_PLAY or st[ix(HOST + card)] != site:
                continue
            for k in range(cards[ix(card), C_N_EFFECTS]):
                if (
                    cards[ix(card), ix(C_EFFECTS + 2 * k)] == E_DECAY
                    and st[ix(LOC + site)] == IN_PLAY
                ):
                    n = cards[ix(card), ix(C_EFFECTS + 2 * k + 1)]
                    record_event(
                        trace, st, TRACE_LEN, EV_EFFECT, st[ix(OWNER + card)], card, E_DECAY, n
                    )
                    damage_site(site, n, st[ix(OWNER + card)], st, cards, rules, trace)
    for i in range(sites_n(st, seat)):
        site = site_at(st, seat, i)
        if is_disabled(st, site) or st[OVER] == 1:
            continue
        for k in range(cards[ix(site), C_N_EFFECTS]):
            op = cards[ix(site), ix(C_EFFECTS + 2 * k)]
            n = cards[ix(site), ix(C_EFFECTS + 2 * k + 1)]
            if op == E_START_ACTIONS or op == E_START_GAIN:
                record_event(trace, st, TRACE_LEN, EV_EFFECT, seat, site, op, n)
            if op == E_START_ACTIONS:
                st[ACTIONS] += n
            elif op == E_START_GAIN:
                place_from_supply(seat, site, n, st, trace)


# Inlined: once per turn in both flows.
@inline_njit()
def begin_turn(seat, turn, st, cards, rules, trace):
    """The seat's turn starts: its actions, then the start of turn."""
    st[ACTIVE] = seat
    st[TURN] = turn
    actions = rules[R_FIRST_TURN_ACTIONS] if turn == 0 else rules[R_ACTIONS]
    st[ACTIONS] = np.int64(actions)
    st[DRAWS_MADE] = 0
    record_event(trace, st, TRACE_LEN, EV_TURN, seat, turn, st[ACTIONS])
    start_of_turn(seat, st, cards, rules, trace)


@njit(cache=True, _nrt=False, forceinline=False)
def setup(st, cards, rules, rng, trace):
    """Homelands with their followers, the four shuffled stacks, the supply, the hands."""
    st[:] = 0
    st[ATTACK] = NO_ATTACK
    for card in range(MAX_IDS):
        st[LOC + card] = UNUSED
        st[OWNER + card] = -1
        st[HOST + card] = -1
        reset_card_facts(st, cards, card)
        st[CARD_LEVEL + card] = cards[card, C_LEVEL]
    # Each stack in card id order (one pass over the ids, STACK_END growing), then shuffled.
    pos = 0
    for level in range(1, N_LEVELS + 1):
        st[STACK_TOP + level - 1] = pos
        st[STACK_END + level - 1] = pos
        pos += cards[SET_ROW, S_LEVEL_COUNT + level - 1]
    for card in range(MAX_CARDS):
        if cards[card, C_TYPE] != NO_TYPE:
            end = STACK_END + cards[card, C_LEVEL] - 1
            st[DECK + st[end]] = card
            st[end] += 1
            st[LOC + card] = IN_STACK
    for level in range(1, N_LEVELS + 1):
        start = st[STACK_TOP + level - 1]
        for i in range(st[STACK_END + level - 1] - 1, start, -1):  # Fisher-Yates
            j = start + rand_below(rng, i - start + 1)
            swap = st[DECK + i]
            st[DECK + i] = st[DECK + j]
            st[DECK + j] = swap
    starting = np.int64(rules[R_STARTING_FOLLOWERS])
    st[SUPPLY] = np.int64(rules[R_FOLLOWERS]) - 2 * starting
    st[POOL] = np.int64(rules[R_DAMAGE_COUNTERS])
    st[FIRST] = rand_below(rng, 2) if rules[R_FIRST_PLAYER] == FIRST_PLAYER_RANDOM else 0
    record_event(
        trace,
        st,
        TRACE_LEN,
        EV_SETUP,
        st[FIRST],
        st[SUPPLY],
        st[POOL],
        cards[SET_ROW, S_FINGERPRINT],
    )
    for seat in range(2):
        st[LEVEL + seat] = 1
        site_add(st, seat, HOMELAND + seat)
        st[ENTERED + HOMELAND + seat] = -1  # in play before the first turn
        move_followers(HOMELAND + seat, starting, st)
    for seat in range(2):
        for _ in range(np.int64(rules[R_HAND])):
            draw_card(seat, 1, DRAW_SETUP, st, trace)


@njit(cache=True, _nrt=False, forceinline=False)
def snapshot(st, trace):
    for seat in range(2):
        counters = 0
        for i in range(sites_n(st, seat)):
            counters += st[DAMAGE + site_at(st, seat, i)]
        record_event(
            trace, st, TRACE_LEN, EV_SNAPSHOT, seat, st[LEVEL + seat], followers(st, seat),
            hand_n(st, seat), sites_n(st, seat), counters,
        )  # fmt: skip
    record_event(
        trace, st, TRACE_LEN, EV_TABLE, st[SUPPLY], st[POOL], st[DISCARD_N],
        stack_left(st, 1), stack_left(st, 2), stack_left(st, 3), stack_left(st, 4),
    )  # fmt: skip


@njit(cache=True, _nrt=False, forceinline=False)
def end_reason(st, rules):
    """Checked at the end of every turn: END_WIPEOUT when a seat has no followers left,
    END_STACKS when ``stacks_to_end`` stacks are empty, else -1 (the game goes on)."""
    if st[OVER] == 1:
        return END_WIPEOUT
    if empty_stacks(st) >= rules[R_STACKS_TO_END]:
        return END_STACKS
    return -1


@njit(cache=True, _nrt=False, forceinline=False)
def winner_of(st, rules, reason):
    """After a wipeout, the seat that still has followers; after the stacks ran out, the most
    followers, then (rule level_tiebreak) the higher level; otherwise (a tie, the turn cap) -1."""
    if reason == END_WIPEOUT:
        for seat in range(2):
            if followers(st, seat) > 0:
                return seat
    elif reason == END_STACKS:
        if st[N_FOLLOWERS] != st[N_FOLLOWERS + 1]:
            return 0 if st[N_FOLLOWERS] > st[N_FOLLOWERS + 1] else 1
        if rules[R_LEVEL_TIEBREAK] != 0.0 and st[LEVEL] != st[LEVEL + 1]:
            return 0 if st[LEVEL] > st[LEVEL + 1] else 1
    return -1


@njit(cache=True, _nrt=False, forceinline=False)
def after_turn(turns, st, rules, trace):
    """After the ``turns``-th turn: snapshot and standing rows when tracing; the end reason, or
    -1 when the game goes on (``end_reason``)."""
    if trace.shape[0] > 0:
        snapshot(st, trace)
    reason = end_reason(st, rules)
    record_standing(turns, st, trace)
    return reason


@njit(cache=True, _nrt=False, forceinline=False)
def game_over(turns, reason, st, rules, trace):
    """The game ends after ``turns`` turns (``reason`` -1: cut off by the cap): the per-seat
    statistics and the end row; (winner or -1, end reason)."""
    if reason < 0:
        reason = END_TURN_CAP
    winner = winner_of(st, rules, reason)
    for s in range(2):
        st[STATS + N_SEAT_STATS * s + ST_LEVEL] = st[LEVEL + s]
        st[STATS + N_SEAT_STATS * s + ST_FOLLOWERS] = followers(st, s)
        st[STATS + N_SEAT_STATS * s + ST_SITES] = sites_n(st, s)
    record_event(trace, st, TRACE_LEN, EV_END, winner, turns, reason == END_TURN_CAP, reason)
    return winner, reason


# --- the standing per seat (game arcs, docs/arcs.md) -------------------------------------------


@njit(cache=True, _nrt=False, forceinline=False)
def record_standing(turns, st, trace):
    """After a turn: one standing row per seat when tracing; nothing otherwise."""
    if trace.shape[0] == 0:
        return
    for seat in range(2):
        record_event(trace, st, TRACE_LEN, EV_STANDING, turns, seat, followers(st, seat),
                     st[LEVEL + seat])  # fmt: skip
