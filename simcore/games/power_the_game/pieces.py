"""POWER: The Game's pieces changing count, place and owner, and one legal command carried out.

The piece bookkeeping the rules share: ``change`` (the one way a count of pieces changes), a
Reserve receiving pieces and Power Units (as many as its set holds: the rule component_limits),
the round's move log (which pieces may not move again, which retreat on a tie), Mega-Missiles
(built from the least material, striking) and ``apply_command``. Their callers: the round
(``rules.py``) and resolving conflicts (``conflicts.py``).
"""

import numpy as np
from numba import njit

from simcore.games.power_the_game.state import (
    ARMY_NODES,
    BUILD,
    BUY,
    BY_VALUE,
    CNT,
    EV_DESTROYED,
    EV_USED,
    FIXED,
    GROUP_II_OFFSET,
    IN_PLAY,
    KIND_NODES,
    LAUNCH,
    LOG,
    LOG_ARMY,
    LOG_FROM,
    LOG_KIND,
    LOG_LIVE,
    LOG_N,
    LOG_TO,
    LOG_WIDTH,
    MAX_LOC,
    MISSILE,
    MOVE,
    N_ARMIES,
    N_KINDS,
    N_SEAT_STATS,
    OCCUPIED,
    PIECES_AT,
    POWER_AT,
    POWER_UNIT,
    PU,
    R_MISSILE_COST,
    RESERVE,
    STATS,
    SUM_WORDS,
    SUMS,
    TRACE_LEN,
    UPGRADE,
    count,
    piece_index,
    power_value,
    price,
    stock_left,
    units_left,
    upgrade_size,
)
from simcore.kernel.chunk import record_event
from simcore.kernel.intrinsics import inline_njit


@njit(cache=True, _nrt=False, forceinline=False)
def stat_add(st, seat, which, amount):
    if seat >= 0:
        st[STATS + N_SEAT_STATS * seat + which] += amount


# Hot, and LLVM stops inlining it by itself once its callers are inlined into bigger functions.
@inline_njit()
def change(st, army, loc, kind, n):
    """The one way a count of pieces changes (it keeps IN_PLAY, POWER_AT, PIECES_AT, OCCUPIED,
    ARMY_NODES and KIND_NODES in step)."""
    i = piece_index(army, loc, kind)
    st[CNT + i] += n
    st[IN_PLAY + army * N_KINDS + kind] += n
    st[POWER_AT + army * MAX_LOC + loc] += n * power_value(st, kind)
    st[PIECES_AT + army * MAX_LOC + loc] += n
    if st[PIECES_AT + army * MAX_LOC + loc] > 0:
        st[OCCUPIED + loc] |= 1 << army
    else:
        st[OCCUPIED + loc] &= ~(1 << army)
    if loc >= RESERVE:
        return
    node = np.int64(1) << loc
    if (st[OCCUPIED + loc] >> army) & 1:
        st[ARMY_NODES + army] |= node
    else:
        st[ARMY_NODES + army] &= ~node
    if st[CNT + i] > 0:
        st[KIND_NODES + army * N_KINDS + kind] |= node
    else:
        st[KIND_NODES + army * N_KINDS + kind] &= ~node


@njit(cache=True, _nrt=False, forceinline=True)  # hot, small
def add_pieces(st, army, loc, kind, n, fixed):
    change(st, army, loc, kind, n)
    if fixed:
        st[FIXED + piece_index(army, loc, kind)] += n


@njit(cache=True, _nrt=False, forceinline=False)
def receive(st, rules, army, kind, n):
    """``n`` pieces of ``kind`` come to the army's Reserve (captured, taken over, or broken down
    from a larger piece): as many as its set still has (the rule component_limits; the rest
    leave play). Returns how many it receives."""
    kept = min(n, stock_left(st, rules, army, kind))
    if kept > 0:
        add_pieces(st, army, RESERVE + army, kind, kept, False)
    return kept


@njit(cache=True, _nrt=False, forceinline=False)
def receive_units(st, rules, army, n):
    """``n`` Power Units come to the army's Reserve, as many as its set still has."""
    kept = min(n, units_left(st, rules, army))
    st[PU + army] += kept
    return kept


@njit(cache=True, _nrt=False, forceinline=False)
def take_pieces(st, army, loc, kind, n):
    """Remove ``n`` like pieces, those that moved in this round first (latest move first), then
    those made here this round; returns how many of them had moved in."""
    # One backward pass over the round's log: each piece taken is the latest live move in left,
    # and the one after it can only be earlier.
    k = st[LOG_N] - 1
    moved_in = 0
    while moved_in < n and k >= 0:
        e = LOG + LOG_WIDTH * k
        if (
            st[e + LOG_LIVE] == 1
            and st[e + LOG_ARMY] == army
            and st[e + LOG_KIND] == kind
            and st[e + LOG_TO] == loc
        ):
            st[e + LOG_LIVE] = 0
            moved_in += 1
        k -= 1
    i = piece_index(army, loc, kind)
    st[FIXED + i] -= min(n, st[FIXED + i])
    change(st, army, loc, kind, -n)
    return moved_in


@njit(cache=True, _nrt=False, forceinline=False)
def log_entry(st, army, kind, origin, target, live):
    e = LOG + LOG_WIDTH * st[LOG_N]
    st[e + LOG_ARMY] = army
    st[e + LOG_KIND] = kind
    st[e + LOG_FROM] = origin
    st[e + LOG_TO] = target
    st[e + LOG_LIVE] = live
    st[LOG_N] += 1


@njit(cache=True, _nrt=False, forceinline=True)  # the commonest command
def move_piece(st, army, kind, origin, target):
    """A piece that may still move goes; it may not move again this round."""
    change(st, army, origin, kind, -1)
    add_pieces(st, army, target, kind, 1, True)
    log_entry(st, army, kind, origin, target, 1)


@njit(cache=True, _nrt=False, forceinline=True)  # tiny, in build_missile's loops
def sum_word(level, total):
    return SUMS + level * SUM_WORDS + total // 64


@inline_njit()
def has_sum(st, level, total):
    return (st[sum_word(level, total)] >> (total % 64)) & 1 == 1


@njit(cache=True, _nrt=False, forceinline=False)
def build_missile(st, rules, army, loc, trace):
    """Make a Mega-Missile at ``loc`` from the material that wastes the least power value (the
    rulebook lets the player choose; "the player simply loses the extra power"): the least total
    of at least the cost; of the materials with that total, the one with the most Power Units
    (only in the army's own Reserve), then the most of the largest pieces, then the next largest,
    and so on. Returns the power value used.

    The piece totals reachable with the kinds BY_VALUE[j:] are bitsets (SUMS, level j), built
    from the smallest kind up; the least piece total p with p + Power Units >= cost is below
    cost plus the largest power value (a set that far above it would stay enough without one of
    its pieces), which bounds the bitsets; then each kind, largest first, takes as many pieces as
    leave a total the smaller kinds can still make exactly."""
    need = np.int64(rules[R_MISSILE_COST])
    units = st[PU + army] if loc == RESERVE + army else 0
    largest = 0
    for kind in BY_VALUE:
        largest = max(largest, power_value(st, kind))
    top = need + largest  # the largest total that matters
    levels = len(BY_VALUE)
    for level in range(levels + 1):
        for w in range(top // 64 + 1):
            st[SUMS + level * SUM_WORDS + w] = 0
    st[sum_word(levels, 0)] = 1  # no pieces: total 0
    for level in range(levels - 1, -1, -1):
        kind = BY_VALUE[level]
        value = power_value(st, kind)
        pieces = count(st, army, loc, kind)
        for total in range(top + 1):
            for n in range(min(pieces, total // value) + 1):
                if has_sum(st, level + 1, total - n * value):
                    st[sum_word(level, total)] |= np.int64(1) << (total % 64)
                    break
    pieces_total = max(need - units, 0)
    while not has_sum(st, 0, pieces_total):
        pieces_total += 1  # check_command made sure the material is worth the cost
    used = max(need - pieces_total, 0)
    if used > 0:
        st[PU + army] -= used
        record_event(trace, st, TRACE_LEN, EV_USED, army, loc, POWER_UNIT, used)
    left = pieces_total
    for level in range(levels):
        kind = BY_VALUE[level]
        value = power_value(st, kind)
        n = min(count(st, army, loc, kind), left // value)
        while not has_sum(st, level + 1, left - n * value):
            n -= 1
        if n > 0:
            take_pieces(st, army, loc, kind, n)
            left -= n * value
            record_event(trace, st, TRACE_LEN, EV_USED, army, loc, kind, n)
    add_pieces(st, army, loc, MISSILE, 1, False)  # launched, never moved
    return used + pieces_total


@njit(cache=True, _nrt=False, forceinline=False)
def strike(st, target, trace):
    """A Mega-Missile lands: every piece at ``target`` is destroyed (a Flag stays), and in a
    Reserve its Power Units too."""
    for army in range(N_ARMIES):
        for kind in range(N_KINDS):
            n = count(st, army, target, kind)
            if n > 0:
                take_pieces(st, army, target, kind, n)
                record_event(trace, st, TRACE_LEN, EV_DESTROYED, army, target, kind, n)
    if target >= RESERVE and st[PU + target - RESERVE] > 0:
        army = target - RESERVE
        record_event(trace, st, TRACE_LEN, EV_DESTROYED, army, target, POWER_UNIT, st[PU + army])
        st[PU + army] = 0


@njit(cache=True, _nrt=False, forceinline=True)  # one caller: execute_pad
def apply_command(st, rules, army, op, kind, origin, target, trace):
    """Carry out a command ``check_command`` found legal; returns EV_EXEC's detail when it is
    only known afterwards (the consumed pieces that had moved in, the power value used)."""
    if op == MOVE:
        move_piece(st, army, kind, origin, target)
    elif op == UPGRADE:
        moved_in = take_pieces(st, army, origin, kind, upgrade_size(st))
        if origin < RESERVE:  # made on the board: it may not move this round
            add_pieces(st, army, origin, kind + GROUP_II_OFFSET, 1, True)
            log_entry(st, army, kind + GROUP_II_OFFSET, origin, origin, 0)
        else:
            add_pieces(st, army, origin, kind + GROUP_II_OFFSET, 1, False)
        return moved_in
    elif op == BUY:
        st[PU + army] -= price(st, kind)
        add_pieces(st, army, RESERVE + army, kind, 1, False)
    elif op == BUILD:
        return build_missile(st, rules, army, origin, trace)
    elif op == LAUNCH:
        take_pieces(st, army, origin, MISSILE, 1)
        strike(st, target, trace)
    return -1
