"""Liar's Dice's rules as decision points (docs/protocol.md): ``new_game`` sets a game up to
its first decision, ``apply`` takes the deciding seat's option and runs the rules to the next;
``legal``, ``determinize`` and ``infoset_key`` are what the search reads. Every decision is a
bid or a call, so the rules need no step driver of their own (a game whose turn holds several
steps keeps one, ``advance``)."""

import numpy as np

from simcore.kernel.chunk import record_event
from simcore.kernel.intrinsics import plain_njit
from simcore.kernel.rng import _splitmix64_mix
from tests.games.liars_dice.components import roll, roll_dice
from tests.games.liars_dice.state import (
    BIDS,
    CALL,
    CALLS,
    CALLS_WON,
    COUNT,
    D_NONE,
    D_OPEN,
    D_RAISE,
    DICE,
    DICE_LEFT,
    DICE_LOST,
    ELIMINATED_ROUND,
    EV_BID,
    EV_CALL,
    EV_END,
    EV_OUT,
    EV_STANDING,
    MAX_DICE,
    N_SEAT_STATS,
    P_BID,
    P_BIDDER,
    P_BIDS,
    P_DECISION,
    P_DECISIONS,
    P_FACES,
    P_PLAYERS,
    P_ROUND,
    P_TO_MOVE,
    P_TRUNCATED,
    P_WINNER,
    R_DICE,
    R_FACES,
    R_MAX_ROUNDS,
    STATE_SIZE,
    STATS,
    TRACE_LEN,
    face,
    n_raises,
    next_in,
    quantity,
    raise_at,
    showing,
)


@plain_njit(forceinline=True)
def start_round(opener, st, rng, trace):
    """Every seat with dice rolls them; ``opener`` bids first."""
    for seat in range(st[P_PLAYERS]):
        if st[COUNT + seat] > 0:
            roll(st, seat, rng, trace)
    st[P_TO_MOVE] = opener
    st[P_DECISION] = D_OPEN
    st[P_BID] = CALL
    st[P_BIDDER] = -1
    st[P_BIDS] = 0


@plain_njit(forceinline=True)
def bid(seat, move, st, trace):
    st[P_BID] = move
    st[P_BIDDER] = seat
    st[P_BIDS] += 1
    st[P_DECISION] = D_RAISE
    st[STATS + N_SEAT_STATS * seat + BIDS] += 1
    record_event(trace, st, TRACE_LEN, EV_BID, seat, quantity(move), face(move))
    st[P_TO_MOVE] = next_in(st, seat)


@plain_njit(forceinline=True)
def end_game(winner, truncated, st, trace):
    st[P_WINNER] = winner
    st[P_TRUNCATED] = truncated
    st[P_TO_MOVE] = -1
    st[P_DECISION] = D_NONE
    for seat in range(st[P_PLAYERS]):
        st[STATS + N_SEAT_STATS * seat + DICE_LEFT] = st[COUNT + seat]
    record_event(trace, st, TRACE_LEN, EV_END, winner, st[P_ROUND], truncated, st[P_DECISIONS])


@plain_njit(forceinline=True)
def call(caller, st, rules, rng, trace):
    """Show the dice: the caller loses a die if the standing bid holds, else the bidder does;
    then the next round, or the end."""
    bidder = st[P_BIDDER]
    shown = face(st[P_BID])
    count = 0
    for seat in range(st[P_PLAYERS]):
        count += showing(st, seat, shown)
    loser = caller if count >= quantity(st[P_BID]) else bidder
    st[STATS + N_SEAT_STATS * caller + CALLS] += 1
    st[STATS + N_SEAT_STATS * caller + CALLS_WON] += loser == bidder
    st[STATS + N_SEAT_STATS * loser + DICE_LOST] += 1
    record_event(
        trace, st, TRACE_LEN, EV_CALL, caller, bidder, quantity(st[P_BID]), shown, count, loser
    )
    st[COUNT + loser] -= 1
    st[P_ROUND] += 1
    if st[COUNT + loser] == 0:
        st[STATS + N_SEAT_STATS * loser + ELIMINATED_ROUND] = st[P_ROUND]
        record_event(trace, st, TRACE_LEN, EV_OUT, loser, st[P_ROUND])
    alive = 0
    for seat in range(st[P_PLAYERS]):
        record_event(trace, st, TRACE_LEN, EV_STANDING, st[P_ROUND], seat, st[COUNT + seat])
        alive += st[COUNT + seat] > 0
    if alive == 1:
        end_game(next_in(st, loser), 0, st, trace)
    elif st[P_ROUND] >= rules[R_MAX_ROUNDS]:
        end_game(-1, 1, st, trace)
    else:
        start_round(loser if st[COUNT + loser] > 0 else next_in(st, loser), st, rng, trace)


@plain_njit()
def new_game(players, st, rules, rng, trace):
    """Set up a game of ``players`` seats: ``dice`` dice each, rolled; seat 0 bids first."""
    for i in range(STATE_SIZE):
        st[i] = 0
    st[P_PLAYERS] = players
    st[P_FACES] = rules[R_FACES]
    st[P_WINNER] = -1
    for seat in range(players):
        st[COUNT + seat] = rules[R_DICE]
        st[STATS + N_SEAT_STATS * seat + ELIMINATED_ROUND] = -1
    start_round(0, st, rng, trace)


@plain_njit()
def apply(st, rules, move, rng, trace):
    """The deciding seat bids ``move`` or calls (CALL)."""
    seat = st[P_TO_MOVE]
    st[P_DECISIONS] += 1
    if move == CALL:
        call(seat, st, rules, rng, trace)
    else:
        bid(seat, move, st, trace)


@plain_njit(forceinline=True)
def to_move(st):
    return st[P_TO_MOVE]


@plain_njit(forceinline=True)
def is_over(st):
    return st[P_TO_MOVE] < 0


@plain_njit()
def returns(st, out):
    for seat in range(st[P_PLAYERS]):
        out[seat] = 1.0 if seat == st[P_WINNER] else 0.0


@plain_njit()
def legal(st, rules, moves):
    """The call (when a bid stands), then every higher bid, lowest first."""
    n = 0
    if st[P_BID] != CALL:
        moves[0] = CALL
        n = 1
    for k in range(n_raises(st)):
        moves[n] = raise_at(st, k)
        n += 1
    return n


@plain_njit()
def determinize(st, seat, rng):
    """Roll again every die ``seat`` cannot see: the other seats' (a bid says nothing certain
    about them, so every roll is as likely)."""
    for other in range(st[P_PLAYERS]):
        if other != seat:
            roll_dice(st, other, rng)


@plain_njit(forceinline=True)
def _mix(h, value):
    return _splitmix64_mix(h ^ np.uint64(value))


@plain_njit()
def infoset_key(st, seat):
    """What ``seat`` knows now: the public fields, every seat's dice count and its own dice."""
    h = _mix(np.uint64(0x9E3779B97F4A7C15), seat)
    for i in range(P_PLAYERS, P_BIDS + 1):
        h = _mix(h, st[i])
    for other in range(st[P_PLAYERS]):
        h = _mix(h, st[COUNT + other])
    for k in range(MAX_DICE):
        h = _mix(h, st[DICE + MAX_DICE * seat + k])
    return h
