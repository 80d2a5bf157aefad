"""POWER: The Game's rules (../shared/rules/power-the-game.md) over one state array, and its
decision-point protocol (docs/protocol.md).

Every rule is one helper below (``write_pads``, ``implement``, ``resolve``, ``end_round``,
``finish_game``, ...). The scripted games' straight-line loop in
simcore/games/power_the_game/game.py calls
them in order; the protocol's steps (``advance``) call the same helpers, stopping where a seat
writes its orders (one decision per seat and round, ``D_ORDERS``);
tests/test_power_the_game_protocol.py proves that the two flows play identical games. The board
and move tables are data the kernel module loads (``prepare``); the pads are written by the
planners of ``strategies/power_the_game.py``.
"""

import numpy as np
from numba import njit

from simcore.games.power_the_game.state import (
    ARMY_NODES,
    BOUNCE,
    BUILD,
    BUY,
    BY_VALUE,
    CAPTURE,
    CARRIED,
    CHOSEN,
    CMD_ARMY,
    CMD_FROM,
    CMD_KIND,
    CMD_OP,
    CMD_TO,
    CMD_WIDTH,
    CNT,
    CRUISER,
    D_NONE,
    D_ORDERS,
    DESTROYER,
    END_FLAGS,
    END_TIME_LIMIT,
    EV_ARMY,
    EV_ARMY_STATE,
    EV_BOUNCE,
    EV_CAPTURE,
    EV_COMMAND,
    EV_CONFLICT,
    EV_DESTROYED,
    EV_END,
    EV_EXEC,
    EV_FLAG,
    EV_OUT,
    EV_PENALTY,
    EV_PIECES,
    EV_POWER_UNITS,
    EV_ROUND,
    EV_SCORE,
    EV_SETUP,
    EV_STANDING,
    EV_TAKE,
    EV_USED,
    EXECUTED,
    FIGHTER,
    FIRST_OFFICIAL,
    FIRST_OFFICIAL_RANDOM,
    FIXED,
    FLAGS,
    GROUP_II_OFFSET,
    I_FINGERPRINT,
    I_SECTORS,
    IN_PLAY,
    INFANTRY,
    INFO,
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
    MAX_COMMANDS,
    MAX_LOC,
    MAX_NODES,
    MAX_PLAYERS,
    MERCENARY_ARMY,
    MISSILE,
    MOVE,
    N_ARMIES,
    N_KINDS,
    N_SEAT_STATS,
    OCCUPIED,
    OFFICIAL,
    P_ASK,
    P_DECISION,
    P_DECISIONS,
    P_N_OPTIONS,
    P_OVER,
    P_REASON,
    P_SEAT,
    P_STEP,
    P_WINNER,
    PAD,
    PAD_N,
    PAD_RESULT,
    PIECES_AT,
    PLAN_CNT,
    PLAN_NODES,
    PLAYERS,
    POWER_AT,
    POWER_UNIT,
    POWER_VALUE,
    PU,
    R_COMMANDS,
    R_FIRST_OFFICIAL,
    R_MAX_POWER_UNITS,
    R_MAX_ROUNDS,
    R_MISSILE_COST,
    REGIMENT,
    RESERVE,
    ROUND,
    SEAT_IN,
    SHARE_LEFT,
    SHARED,
    ST_CANCELLED,
    ST_COMMANDS,
    ST_FINAL_POWER,
    ST_FLAGS_CAPTURED,
    ST_FLAGS_HELD,
    ST_MISSILES_LAUNCHED,
    ST_PENALTIES,
    ST_PIECES_CAPTURED,
    ST_PIECES_LOST,
    ST_POWER_UNITS,
    ST_ROUND_OUT,
    STANDING,
    STANDOFF,
    STATS,
    SUM_WORDS,
    SUMS,
    TANK,
    TARGET,
    TRACE_LEN,
    UPGRADE,
    X_MERCENARY,
    X_NOT_YOURS,
    X_TOO_MANY,
    army_pieces_at,
    army_power_at,
    army_total_pieces,
    army_total_power,
    check_command,
    count,
    has_foot,
    hq_of,
    may_command,
    n_nodes,
    next_contested,
    opponent_at,
    piece_index,
    seat_of_army,
    side_of,
    side_power_at,
    stock_left,
    units_left,
)
from simcore.kernel.chunk import (
    record_event,
)
from simcore.kernel.intrinsics import lowest_bit
from simcore.kernel.rng import _splitmix64_mix, rand_below
from strategies import power_the_game as strategy

# --- pieces ----------------------------------------------------------------------------------

# The order captured pieces change colour in: Group II pieces first (a Regiment needs three of the
# set's Infantry at once), largest first; with the rule component_limits this is who gets what is
# left of a set.
CAPTURE_ORDER = np.append(BY_VALUE, MISSILE)
# Every function takes the game as (st, rules, board, dist, trace) or a part of it: the state,
# the encoded rules, the board table, the move tables and the trace buffer.


@njit(cache=True, _nrt=False)
def stat_add(st, seat, which, amount):
    if seat >= 0:
        st[STATS + N_SEAT_STATS * seat + which] += amount


# Hot, and LLVM stops inlining it by itself once its callers are inlined into bigger functions.
@njit(cache=True, _nrt=False, inline="always")
def change(st, army, loc, kind, n):
    """The one way a count of pieces changes (it keeps IN_PLAY, POWER_AT, PIECES_AT, OCCUPIED,
    ARMY_NODES and KIND_NODES in step)."""
    i = piece_index(army, loc, kind)
    st[CNT + i] += n
    st[IN_PLAY + army * N_KINDS + kind] += n
    st[POWER_AT + army * MAX_LOC + loc] += n * POWER_VALUE[kind]
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


@njit(cache=True, _nrt=False, inline="always")  # hot, small
def add_pieces(st, army, loc, kind, n, fixed):
    change(st, army, loc, kind, n)
    if fixed:
        st[FIXED + piece_index(army, loc, kind)] += n


@njit(cache=True, _nrt=False)
def receive(st, rules, army, kind, n):
    """``n`` pieces of ``kind`` come to the army's Reserve (captured, taken over, or broken down
    from a larger piece): as many as its set still has (the rule component_limits; the rest
    leave play). Returns how many it receives."""
    kept = min(n, stock_left(st, rules, army, kind))
    if kept > 0:
        add_pieces(st, army, RESERVE + army, kind, kept, False)
    return kept


@njit(cache=True, _nrt=False)
def receive_units(st, rules, army, n):
    """``n`` Power Units come to the army's Reserve, as many as its set still has."""
    kept = min(n, units_left(st, rules, army))
    st[PU + army] += kept
    return kept


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
def log_entry(st, army, kind, origin, target, live):
    e = LOG + LOG_WIDTH * st[LOG_N]
    st[e + LOG_ARMY] = army
    st[e + LOG_KIND] = kind
    st[e + LOG_FROM] = origin
    st[e + LOG_TO] = target
    st[e + LOG_LIVE] = live
    st[LOG_N] += 1


@njit(cache=True, _nrt=False, inline="always")  # the commonest command
def move_piece(st, army, kind, origin, target):
    """A piece that may still move goes; it may not move again this round."""
    change(st, army, origin, kind, -1)
    add_pieces(st, army, target, kind, 1, True)
    log_entry(st, army, kind, origin, target, 1)


@njit(cache=True, _nrt=False, inline="always")  # tiny, in build_missile's loops
def sum_word(level, total):
    return SUMS + level * SUM_WORDS + total // 64


@njit(cache=True, _nrt=False, inline="always")
def has_sum(st, level, total):
    return (st[sum_word(level, total)] >> (total % 64)) & 1 == 1


@njit(cache=True, _nrt=False)
def build_missile(st, rules, army, loc, trace):
    """Make a Mega-Missile at ``loc`` from the material that wastes the least power value (the
    rulebook lets the player choose; "the player simply loses the extra power"): the least total
    of at least the cost; of the materials with that total, the one with the most Power Units
    (only in the army's own Reserve), then the most of the largest pieces, then the next largest,
    and so on. Returns the power value used.

    The piece totals reachable with the kinds BY_VALUE[j:] are bitsets (SUMS, level j), built
    from the smallest kind up; the least piece total p with p + Power Units >= cost is below
    cost + 50 (a set of pieces 50 or more above it would stay enough without one of its pieces),
    which bounds the bitsets; then each kind, largest first, takes as many pieces as leave a
    total the smaller kinds can still make exactly."""
    need = np.int64(rules[R_MISSILE_COST])
    units = st[PU + army] if loc == RESERVE + army else 0
    top = need + POWER_VALUE[CRUISER]  # the largest total that matters
    levels = len(BY_VALUE)
    for level in range(levels + 1):
        for w in range(top // 64 + 1):
            st[SUMS + level * SUM_WORDS + w] = 0
    st[sum_word(levels, 0)] = 1  # no pieces: total 0
    for level in range(levels - 1, -1, -1):
        kind = BY_VALUE[level]
        value = POWER_VALUE[kind]
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
        value = POWER_VALUE[kind]
        n = min(count(st, army, loc, kind), left // value)
        while not has_sum(st, level + 1, left - n * value):
            n -= 1
        if n > 0:
            take_pieces(st, army, loc, kind, n)
            left -= n * value
            record_event(trace, st, TRACE_LEN, EV_USED, army, loc, kind, n)
    add_pieces(st, army, loc, MISSILE, 1, False)  # launched, never moved
    return used + pieces_total


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False, inline="always")  # one caller: execute_pad
def apply_command(st, rules, army, op, kind, origin, target, trace):
    """Carry out a command ``check_command`` found legal; returns EV_EXEC's detail when it is
    only known afterwards (the consumed pieces that had moved in, the power value used)."""
    if op == MOVE:
        move_piece(st, army, kind, origin, target)
    elif op == UPGRADE:
        moved_in = take_pieces(st, army, origin, kind, 3)
        if origin < RESERVE:  # made on the board: it may not move this round
            add_pieces(st, army, origin, kind + GROUP_II_OFFSET, 1, True)
            log_entry(st, army, kind + GROUP_II_OFFSET, origin, origin, 0)
        else:
            add_pieces(st, army, origin, kind + GROUP_II_OFFSET, 1, False)
        return moved_in
    elif op == BUY:
        st[PU + army] -= POWER_VALUE[kind]
        add_pieces(st, army, RESERVE + army, kind, 1, False)
    elif op == BUILD:
        return build_missile(st, rules, army, origin, trace)
    elif op == LAUNCH:
        take_pieces(st, army, origin, MISSILE, 1)
        strike(st, target, trace)
    return -1


# --- a round ---------------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def pad_at(seat, i):
    return PAD + (seat * MAX_COMMANDS + i) * CMD_WIDTH


@njit(cache=True, _nrt=False)
def next_seat(st, seat):
    """The seat to the left (clockwise), in or out."""
    return seat + 1 if seat + 1 < st[PLAYERS] else 0


@njit(cache=True, _nrt=False)
def seats_in(st):
    n = 0
    for seat in range(st[PLAYERS]):
        n += st[SEAT_IN + seat]
    return n


@njit(cache=True, _nrt=False)
def armies_of(players, seat):
    """(first army, number of armies) a seat owns."""
    if players == 2:
        return 2 * seat, 2
    return seat, 1


@njit(cache=True, _nrt=False)
def pad_over_limit(st, rules, seat, i):
    """Command i of the seat's pad is beyond what its armies may give this round: the pad holds
    ``commands`` per own army, and in the 2-player game each army gets ``commands`` of them."""
    per_army = np.int64(rules[R_COMMANDS])
    first, n_own = armies_of(st[PLAYERS], seat)
    if i >= per_army * n_own:
        return True
    if st[PLAYERS] != 2:
        return False
    army = st[pad_at(seat, i) + CMD_ARMY]
    same = 0
    for k in range(i):
        same += st[pad_at(seat, k) + CMD_ARMY] == army
    return same >= per_army


@njit(cache=True, _nrt=False)
def is_mercenary_move(st, c, kind, origin):
    return (
        st[c + CMD_ARMY] == MERCENARY_ARMY
        and st[c + CMD_OP] == MOVE
        and st[c + CMD_KIND] == kind
        and st[c + CMD_FROM] == origin
    )


@njit(cache=True, _nrt=False)
def mercenary_conflicts(st):
    """3-player game: mercenary moves several seats ordered for the same pieces (same kind and
    sector) beyond how many are there are cancelled, unless all go to the same place: then they
    are SHARED, with SHARE_LEFT the pieces standing there (see ``execute_pad``)."""
    for seat in range(st[PLAYERS]):  # a seat that is out wrote nothing
        for i in range(st[PAD_N + seat]):
            c = pad_at(seat, i)
            kind = st[c + CMD_KIND]
            origin = st[c + CMD_FROM]
            if not is_mercenary_move(st, c, kind, origin) or not (
                0 <= kind < MISSILE and 0 <= origin < MAX_LOC
            ):
                continue
            seats_mask = 0
            orders = 0
            same_target = True
            for other in range(st[PLAYERS]):
                for i2 in range(st[PAD_N + other]):
                    c2 = pad_at(other, i2)
                    if is_mercenary_move(st, c2, kind, origin):
                        seats_mask |= 1 << other
                        orders += 1
                        same_target = same_target and st[c2 + CMD_TO] == st[c + CMD_TO]
            pieces = count(st, MERCENARY_ARMY, origin, kind)
            if seats_mask & (seats_mask - 1) == 0 or pieces == 0 or orders <= pieces:
                continue
            slot = seat * MAX_COMMANDS + i
            if same_target:
                st[PAD_RESULT + slot] = SHARED
                st[SHARE_LEFT + slot] = pieces
            else:
                st[PAD_RESULT + slot] = X_MERCENARY


@njit(cache=True, _nrt=False)
def shared_piece_moved(st, kind, origin):
    """One of the pieces a SHARED group of orders is about moved: one fewer left for them."""
    for seat in range(st[PLAYERS]):
        for i in range(st[PAD_N + seat]):
            slot = seat * MAX_COMMANDS + i
            if st[PAD_RESULT + slot] == SHARED and is_mercenary_move(
                st, pad_at(seat, i), kind, origin
            ):
                st[SHARE_LEFT + slot] -= 1


@njit(cache=True, _nrt=False, inline="always")  # one caller: implement
def execute_pad(seat, st, rules, board, dist, trace):
    """Read the seat's pad top to bottom, counting the commands carried out in CARRIED. A SHARED
    order is judged like any other while pieces of its group are left to move (so it is
    cancelled when illegal, as the rulebook's "Illegal commands are cancelled"); once they have
    all moved there, it is carried out with them."""
    for i in range(st[PAD_N + seat]):
        c = pad_at(seat, i)
        army = st[c + CMD_ARMY]
        op = st[c + CMD_OP]
        kind = st[c + CMD_KIND]
        origin = st[c + CMD_FROM]
        target = st[c + CMD_TO]
        detail = 0
        slot = seat * MAX_COMMANDS + i
        verdict = st[PAD_RESULT + slot]
        result = verdict
        if not (0 <= army < N_ARMIES) or not may_command(st, seat, army):
            result = X_NOT_YOURS
        elif pad_over_limit(st, rules, seat, i):
            result = X_TOO_MANY
        elif verdict == EXECUTED or (verdict == SHARED and st[SHARE_LEFT + slot] > 0):
            result, detail = check_command(st, rules, board, dist, army, op, kind, origin, target)
            if result == EXECUTED and verdict == SHARED:
                shared_piece_moved(st, kind, origin)
        if result != EXECUTED:
            record_event(trace, st, TRACE_LEN, EV_EXEC, seat, i, result, detail)
            if result == SHARED:
                st[CARRIED + seat] += 1
            else:
                stat_add(st, seat, ST_CANCELLED, 1)
            continue
        st[CARRIED + seat] += 1
        if op == BUILD or op == UPGRADE:
            # Their detail is only known once done; EV_EXEC still comes before EV_USED.
            row = st[TRACE_LEN]
            record_event(trace, st, TRACE_LEN, EV_EXEC, seat, i, result, 0)
            detail = apply_command(st, rules, army, op, kind, origin, target, trace)
            if row < trace.shape[0]:
                trace[row, 4] = detail
        else:
            record_event(trace, st, TRACE_LEN, EV_EXEC, seat, i, result, detail)
            apply_command(st, rules, army, op, kind, origin, target, trace)
            if op == LAUNCH:
                stat_add(st, seat, ST_MISSILES_LAUNCHED, 1)


@njit(cache=True, _nrt=False)
def penalty(seat, st, rules, rng, trace):
    """None of the seat's commands was carried out: one of its armies loses a Power Unit, or its
    smallest piece is broken down into Power Units (a Group II piece into two Group I pieces and
    the third's Power Units) and one of those is forfeited. Which piece is the player's choice:
    one in a Reserve if there is one (it keeps its pieces on the board), else a random one of the
    smallest on the board."""
    stat_add(st, seat, ST_PENALTIES, 1)
    first, n_own = armies_of(st[PLAYERS], seat)
    for army in range(first, first + n_own):
        if st[STANDING + army] == 1 and st[PU + army] > 0:
            st[PU + army] -= 1
            record_event(trace, st, TRACE_LEN, EV_PENALTY, seat, army, -1, -1, 0, -1, 0)
            return
    lowest, in_reserve = -1, False
    for army in range(first, first + n_own):
        if st[STANDING + army] == 0:
            continue
        for step in range(MAX_NODES + 1):
            loc = RESERVE + army if step == 0 else step - 1
            for kind in range(MISSILE):  # power values differ kind by kind
                if count(st, army, loc, kind) == 0:
                    continue
                if lowest < 0 or POWER_VALUE[kind] < POWER_VALUE[lowest]:
                    lowest, in_reserve = kind, step == 0
                elif kind == lowest and step == 0:
                    in_reserve = True
    best_army, best_loc, best_kind = -1, -1, -1
    seen = 0
    for army in range(first, first + n_own):
        if st[STANDING + army] == 0:
            continue
        for step in range(MAX_NODES + 1):
            loc = RESERVE + army if step == 0 else step - 1
            if (step == 0) == in_reserve and lowest >= 0 and count(st, army, loc, lowest) > 0:
                seen += 1
                if seen == 1 or rand_below(rng, seen) == 0:
                    best_army, best_loc, best_kind = army, loc, lowest
    if best_kind < 0:
        record_event(trace, st, TRACE_LEN, EV_PENALTY, seat, -1, -1, -1, 0, -1, 0)
        return
    take_pieces(st, best_army, best_loc, best_kind, 1)
    smaller, added = -1, 0
    if best_kind >= GROUP_II_OFFSET:
        smaller = best_kind - GROUP_II_OFFSET
        added = receive(st, rules, best_army, smaller, 2)
        units = receive_units(st, rules, best_army, POWER_VALUE[smaller] - 1)
    else:
        units = receive_units(st, rules, best_army, POWER_VALUE[best_kind] - 1)
    record_event(
        trace, st, TRACE_LEN, EV_PENALTY, seat, best_army, best_kind, best_loc, units, smaller,
        added,
    )  # fmt: skip


@njit(cache=True, _nrt=False)
def record_conflict(st, loc, outcome, side, trace):
    if trace.shape[0] == 0:
        return
    record_event(
        trace, st, TRACE_LEN, EV_CONFLICT, loc, side_power_at(st, 0, loc),
        side_power_at(st, 1, loc), side_power_at(st, 2, loc), side_power_at(st, 3, loc), outcome,
        side,
    )  # fmt: skip


@njit(cache=True, _nrt=False)
def top_sides(st, loc):
    """(sides present, highest power, bitmask of the sides with it) at ``loc``."""
    present = 0
    best = -1
    mask = 0
    for side in range(N_ARMIES):
        power = side_power_at(st, side, loc)
        if power < 0:
            continue
        present += 1
        if power > best:
            best = power
            mask = 1 << side
        elif power == best:
            mask |= 1 << side
    return present, best, mask


@njit(cache=True, _nrt=False)
def bounce_tie(st, loc, trace):
    """Where the highest totals at ``loc`` tie, the pieces of those sides that moved in this round
    retreat to where they came from; returns whether any did."""
    present, best, mask = top_sides(st, loc)
    if present < 2 or mask & (mask - 1) == 0:
        return False
    bouncing = False
    for k in range(st[LOG_N]):
        e = LOG + LOG_WIDTH * k
        if (
            st[e + LOG_LIVE] == 1
            and st[e + LOG_TO] == loc
            and (mask >> side_of(st, st[e + LOG_ARMY])) & 1
        ):
            bouncing = True
            break
    if not bouncing:
        return False
    record_conflict(st, loc, BOUNCE, mask, trace)
    for k in range(st[LOG_N]):
        e = LOG + LOG_WIDTH * k
        army = st[e + LOG_ARMY]
        if st[e + LOG_LIVE] == 1 and st[e + LOG_TO] == loc and (mask >> side_of(st, army)) & 1:
            kind = st[e + LOG_KIND]
            origin = st[e + LOG_FROM]
            change(st, army, loc, kind, -1)
            st[FIXED + piece_index(army, loc, kind)] -= 1
            add_pieces(st, army, origin, kind, 1, True)
            st[e + LOG_TO] = origin
            st[e + LOG_LIVE] = 0
            record_event(trace, st, TRACE_LEN, EV_BOUNCE, army, kind, loc, origin)
    return True


@njit(cache=True, _nrt=False)
def resolve_ties(st, trace):
    """Ties first: contested sectors in node order, each tie bouncing once; the scan repeats
    until no tie can bounce. (A bounce can contest a later node: the next one is looked up
    afresh.)"""
    changed = True
    while changed:
        changed = False
        loc = next_contested(st, -1)
        while loc >= 0:
            if bounce_tie(st, loc, trace):
                changed = True
            loc = next_contested(st, loc)


@njit(cache=True, _nrt=False)
def strongest_army(st, side, loc, with_foot):
    """The army of ``side`` with the most power at ``loc`` (the lower army on a tie), with
    ``with_foot`` among those with an Infantry or a Regiment there (a Flag falls to one of
    those): it receives what the side captures there."""
    best = -1
    for army in range(N_ARMIES):
        if (
            with_foot
            and count(st, army, loc, INFANTRY) == 0
            and count(st, army, loc, REGIMENT) == 0
        ):
            continue
        if side_of(st, army) == side and army_pieces_at(st, army, loc) > 0:
            if best < 0 or army_power_at(st, army, loc) > army_power_at(st, best, loc):
                best = army
    return best


@njit(cache=True, _nrt=False)
def resolve_battles(st, rules, trace):
    """Then battles: the highest total captures every opposing piece into its Reserve (as many
    as its set has, the Group II pieces first); tied highest totals whose pieces were all
    already there stand off."""
    players = st[PLAYERS]
    loc = -1
    while True:
        loc = next_contested(st, loc)
        if loc < 0:
            break
        present, best, mask = top_sides(st, loc)
        if present < 2:
            continue
        if mask & (mask - 1) != 0:
            record_conflict(st, loc, STANDOFF, mask, trace)
            continue
        winner_side = 0
        while (mask >> winner_side) & 1 == 0:
            winner_side += 1
        record_conflict(st, loc, CAPTURE, winner_side, trace)
        victor = strongest_army(st, winner_side, loc, False)
        for kind in CAPTURE_ORDER:
            for army in range(N_ARMIES):
                n = count(st, army, loc, kind)
                if side_of(st, army) == winner_side or n == 0:
                    continue
                take_pieces(st, army, loc, kind, n)
                kept = receive(st, rules, victor, kind, n)
                record_event(trace, st, TRACE_LEN, EV_CAPTURE, victor, army, loc, kind, n, kept)
                stat_add(st, seat_of_army(players, victor), ST_PIECES_CAPTURED, n)
                stat_add(st, seat_of_army(players, army), ST_PIECES_LOST, n)


@njit(cache=True, _nrt=False)
def collect_power_units(st, rules, board, trace):
    """One Power Unit per enemy country with a standing Flag in which the army has a piece (its
    sectors or Headquarters; not islands or sea lanes), at most ``max_power_units``."""
    cap = np.int64(rules[R_MAX_POWER_UNITS])
    for army in range(N_ARMIES):
        if st[STANDING + army] == 0:
            continue
        mask = 0
        for country in range(N_ARMIES):
            territory = board[INFO, I_SECTORS + country] | (np.int64(1) << hq_of(board, country))
            if (
                st[ARMY_NODES + army] & territory != 0
                and st[STANDING + country] == 1
                and side_of(st, country) != side_of(st, army)
            ):
                mask |= 1 << country
        gained = 0
        for country in range(N_ARMIES):
            gained += (mask >> country) & 1
        gained = min(gained, cap, units_left(st, rules, army))
        if gained > 0:
            st[PU + army] += gained
            stat_add(st, seat_of_army(st[PLAYERS], army), ST_POWER_UNITS, gained)
            record_event(trace, st, TRACE_LEN, EV_POWER_UNITS, army, gained, mask)


@njit(cache=True, _nrt=False)
def take_over(st, rules, captor, captured, trace):
    """The captor takes every piece and Power Unit of the captured army into its Reserve (as
    many as its set has, the Group II pieces first)."""
    for kind in CAPTURE_ORDER:
        for loc in range(MAX_LOC):
            n = count(st, captured, loc, kind)
            if n > 0:
                take_pieces(st, captured, loc, kind, n)
                kept = receive(st, rules, captor, kind, n)
                record_event(trace, st, TRACE_LEN, EV_TAKE, captor, captured, loc, kind, n, kept)
    units = st[PU + captured]
    if units > 0:
        st[PU + captured] = 0
        kept = receive_units(st, rules, captor, units)
        record_event(
            trace, st, TRACE_LEN, EV_TAKE, captor, captured, RESERVE + captured, POWER_UNIT,
            units, kept,
        )  # fmt: skip


@njit(cache=True, _nrt=False)
def capture_flags(st, rules, board, trace):
    """Last: a Flag falls to the side with an Infantry or a Regiment in its Headquarters and more
    power there than the defender (the strongest such side; none if they tie). The captor takes
    the army's forces, Power Units and Flags; a seat without a standing Flag is out."""
    players = st[PLAYERS]
    first, _ = armies_of(players, st[OFFICIAL])
    for j in range(N_ARMIES):
        army = (first + j) % N_ARMIES
        if st[STANDING + army] == 0:
            continue
        hq = hq_of(board, army)
        if not opponent_at(st, army, hq):
            continue  # nobody there to take it (the common case)
        defender = side_of(st, army)
        defence = max(side_power_at(st, defender, hq), 0)
        best_side, best, tied = -1, -1, False
        for side in range(N_ARMIES):
            power = side_power_at(st, side, hq)
            if side == defender or power <= defence or not has_foot(st, side, hq):
                continue
            if power > best:
                best_side, best, tied = side, power, False
            elif power == best:
                tied = True
        if best_side < 0 or tied:
            continue
        captor = strongest_army(st, best_side, hq, True)
        captor_seat = seat_of_army(players, captor)
        record_event(trace, st, TRACE_LEN, EV_FLAG, captor, army, best, defence, captor_seat)
        take_over(st, rules, captor, army, trace)
        st[FLAGS + captor] += st[FLAGS + army]
        st[FLAGS + army] = 0
        st[STANDING + army] = 0
        stat_add(st, captor_seat, ST_FLAGS_CAPTURED, 1)
        seat = seat_of_army(players, army)
        if seat < 0:
            continue
        own, n_own = armies_of(players, seat)
        standing = 0
        for a in range(own, own + n_own):
            standing += st[STANDING + a]
        if standing == 0:
            st[SEAT_IN + seat] = 0
            st[STATS + N_SEAT_STATS * seat + ST_ROUND_OUT] = st[ROUND]
            record_event(trace, st, TRACE_LEN, EV_OUT, seat, st[ROUND])


@njit(cache=True, _nrt=False)
def snapshot(st, board, trace):
    for army in range(N_ARMIES):
        for loc in range(MAX_LOC):
            for kind in range(N_KINDS):
                n = count(st, army, loc, kind)
                if n > 0:
                    record_event(trace, st, TRACE_LEN, EV_PIECES, army, loc, kind, n)
    for army in range(N_ARMIES):
        record_event(
            trace, st, TRACE_LEN, EV_ARMY_STATE, army, st[PU + army], st[STANDING + army],
            st[FLAGS + army], army_total_power(st, army), army_total_pieces(st, army),
        )  # fmt: skip


@njit(cache=True, _nrt=False)
def write_pads(st, rules, board, dist, planner_ids, planner_params, rng, trace):
    """Planning: every seat still in writes its pad from the same state (surveyed once), in seat
    order, with planner ``st[CHOSEN + seat]``: row k < n of (planner_ids, planner_params) writes
    it, option n + k is that pad without its last command. A scripted game passes its seats'
    strategies and keeps CHOSEN[seat] = seat (``setup``); the protocol passes the planner table
    and the options the seats chose (docs/protocol.md)."""
    n = planner_ids.shape[0]
    strategy.survey(st, board)
    for seat in range(st[PLAYERS]):
        st[PAD_N + seat] = 0
        if st[SEAT_IN + seat] == 0:
            continue
        option = st[CHOSEN + seat]
        k = option % n
        strategy.write_pad(planner_ids[k], planner_params[k], seat, st, rules, board, dist, rng)
        if option >= n and st[PAD_N + seat] > 0:
            st[PAD_N + seat] -= 1
        stat_add(st, seat, ST_COMMANDS, st[PAD_N + seat])
        for i in range(st[PAD_N + seat]):
            c = pad_at(seat, i)
            record_event(
                trace, st, TRACE_LEN, EV_COMMAND, seat, i, st[c + CMD_ARMY], st[c + CMD_OP],
                st[c + CMD_KIND], st[c + CMD_FROM], st[c + CMD_TO],
            )  # fmt: skip


@njit(cache=True, _nrt=False)
def redraw_targets(st, seat, rng):
    """Each of the seat's armies' target (TARGET, a planner's private memory): a random standing
    enemy army, or none."""
    first, n_own = armies_of(st[PLAYERS], seat)
    for army in range(first, first + n_own):
        choices = 1
        for enemy in range(N_ARMIES):
            choices += strategy.enemy_army(st, army, enemy)
        pick = rand_below(rng, choices)
        st[TARGET + army] = 0
        for enemy in range(N_ARMIES):
            if pick > 0 and strategy.enemy_army(st, army, enemy):
                pick -= 1
                if pick == 0:
                    st[TARGET + army] = enemy + 1


@njit(cache=True)
def hide_pads(st, rules, board, seat, rng):
    """Redraw what ``seat`` cannot see while its planner writes its pad (inside ``write_pads``),
    in place: the other seats' pads of this round (orders are written simultaneously and shown
    only once all are down) and their armies' targets (``redraw_targets``). A redrawn pad is a
    random pad, as the ``random`` strategy writes one: any orders are consistent with what the
    seat has seen. Everything else is on the table for every player (pieces, Reserves, Power
    Units, Flags, the round, the official) and stays. The leak check's redraw for the planners
    (tests/leak_glue_power_the_game.py); the protocol's ``determinize`` hides the same things at
    the decision, where the others' orders are still option codes.

    Keeps the planning scratch consistent (a pad is written through the strategies' own
    planner, which lists the entries it touches), so a pad written afterwards starts
    clean. Draws from ``rng`` only, never from the game's stream."""
    random_row = np.zeros(len(strategy.PARAM_NAMES))
    random_row[strategy.P_MOVE] = strategy.RANDOM_P_MOVE
    for other in range(st[PLAYERS]):
        if other == seat or st[SEAT_IN + other] == 0:
            continue
        strategy.start_pad(st, other)
        strategy.plan_random(random_row, other, st, rules, board, rng)
        redraw_targets(st, other, rng)


@njit(cache=True, _nrt=False)
def implement(st, rules, board, dist, rng, trace):
    """Implementing the pads: official first, then clockwise; then the penalties."""
    for k in range(st[LOG_N]):  # last round's immovable pieces are all at its log's places
        e = LOG + LOG_WIDTH * k
        army = st[e + LOG_ARMY]
        kind = st[e + LOG_KIND]
        st[FIXED + piece_index(army, st[e + LOG_FROM], kind)] = 0
        st[FIXED + piece_index(army, st[e + LOG_TO], kind)] = 0
    st[LOG_N] = 0
    st[CARRIED : CARRIED + MAX_PLAYERS] = 0
    st[PAD_RESULT : PAD_RESULT + MAX_PLAYERS * MAX_COMMANDS] = EXECUTED
    if st[PLAYERS] == 3:
        mercenary_conflicts(st)
    seat = st[OFFICIAL]
    for _ in range(st[PLAYERS]):
        if st[SEAT_IN + seat] == 1:
            execute_pad(seat, st, rules, board, dist, trace)
        seat = next_seat(st, seat)
    for _ in range(st[PLAYERS]):  # back at the official
        if st[SEAT_IN + seat] == 1 and st[CARRIED + seat] == 0:
            penalty(seat, st, rules, rng, trace)
        seat = next_seat(st, seat)


@njit(cache=True, _nrt=False)
def resolve(st, rules, board, trace):
    """After the commands: ties, battles, Power Units, Flag captures."""
    resolve_ties(st, trace)
    resolve_battles(st, rules, trace)
    collect_power_units(st, rules, board, trace)
    capture_flags(st, rules, board, trace)


@njit(cache=True, _nrt=False, inline="always")
def start_round(st, board, trace):
    record_event(trace, st, TRACE_LEN, EV_ROUND, st[ROUND], st[OFFICIAL], seats_in(st))
    if trace.shape[0] > 0:
        snapshot(st, board, trace)


@njit(cache=True, _nrt=False, inline="always")
def orders_and_resolution(st, rules, board, dist, planner_ids, planner_params, rng, trace):
    """The round after planning's decisions: the pads written, carried out, then resolved."""
    write_pads(st, rules, board, dist, planner_ids, planner_params, rng, trace)
    implement(st, rules, board, dist, rng, trace)
    resolve(st, rules, board, trace)


@njit(cache=True, _nrt=False)
def play_round(st, rules, board, dist, sids, prm, rng, trace):
    """A scripted round: each seat's pad by its own strategy (CHOSEN[seat] = seat)."""
    start_round(st, board, trace)
    orders_and_resolution(st, rules, board, dist, sids, prm, rng, trace)


# --- a game ----------------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def setup(players, st, rules, board, rng, trace):
    """Every army in its Headquarters with its Flag and two of each Group I piece."""
    # All but the pad's planning picture, much of the state: it is zero but for the entries its
    # list (PLAN_TOUCHED) names, and the next pad's start_pad clears those (the list is kept).
    st[:PLAN_CNT] = 0
    st[PLAN_NODES:] = 0
    st[PLAYERS] = players
    if rules[R_FIRST_OFFICIAL] == FIRST_OFFICIAL_RANDOM:
        st[OFFICIAL] = rand_below(rng, players)
    st[FIRST_OFFICIAL] = st[OFFICIAL]
    record_event(
        trace, st, TRACE_LEN, EV_SETUP, players, n_nodes(board), board[INFO, I_FINGERPRINT],
        st[OFFICIAL], np.int64(rules[R_MAX_ROUNDS]), np.int64(rules[R_COMMANDS]),
        np.int64(rules[R_MAX_POWER_UNITS]),
    )  # fmt: skip
    for seat in range(players):
        st[SEAT_IN + seat] = 1
        st[CHOSEN + seat] = seat  # a scripted seat plans with its own strategy
        st[STATS + N_SEAT_STATS * seat + ST_ROUND_OUT] = -1
    for army in range(N_ARMIES):
        st[STANDING + army] = 1
        st[FLAGS + army] = 1
        for kind in (INFANTRY, TANK, FIGHTER, DESTROYER):
            add_pieces(st, army, hq_of(board, army), kind, 2, False)
        record_event(
            trace, st, TRACE_LEN, EV_ARMY, army, seat_of_army(players, army),
            side_of(st, army), hq_of(board, army),
        )  # fmt: skip


@njit(cache=True, _nrt=False)
def seat_power(st, seat):
    first, n_own = armies_of(st[PLAYERS], seat)
    power = 0
    flags = 0
    for army in range(first, first + n_own):
        power += army_total_power(st, army)
        flags += st[FLAGS + army]
    return power, flags


@njit(cache=True, _nrt=False)
def winner_at_time(st):
    """At the time limit: the highest power value, then the most Flags; else no winner."""
    winner, best_power, best_flags = -1, -1, -1
    for seat in range(st[PLAYERS]):
        if st[SEAT_IN + seat] == 0:
            continue
        power, flags = seat_power(st, seat)
        if power > best_power or (power == best_power and flags > best_flags):
            winner, best_power, best_flags = seat, power, flags
        elif power == best_power and flags == best_flags:
            winner = -1
    return winner


@njit(cache=True, _nrt=False)
def record_standing(players, st, trace):
    """After a round: one standing row per seat when tracing; nothing otherwise."""
    if trace.shape[0] == 0:
        return
    for seat in range(players):
        power, flags = seat_power(st, seat)
        record_event(trace, st, TRACE_LEN, EV_STANDING, st[ROUND], seat, power, flags)


@njit(cache=True, _nrt=False)
def goes_on(st, rules):
    """Another round: more than one seat is in and the time limit is not reached."""
    return st[ROUND] < np.int64(rules[R_MAX_ROUNDS]) and seats_in(st) > 1


@njit(cache=True, _nrt=False)
def end_round(st, trace):
    """The round is over: the official passes clockwise to the next seat still in."""
    players = st[PLAYERS]
    st[ROUND] += 1
    seat = st[OFFICIAL]
    for _ in range(players):
        seat = (seat + 1) % players
        if st[SEAT_IN + seat] == 1:
            break
    st[OFFICIAL] = seat
    record_standing(players, st, trace)


@njit(cache=True, _nrt=False)
def finish_game(st, board, trace):
    """The game is over: (winner or -1, end reason), with the final statistics and trace rows.
    One seat left wins by Flags; at the time limit the highest power value, then Flags."""
    players = st[PLAYERS]
    if seats_in(st) <= 1:
        reason = END_FLAGS
        winner = -1
        for seat in range(players):
            if st[SEAT_IN + seat] == 1:
                winner = seat
    else:
        reason = END_TIME_LIMIT
        winner = winner_at_time(st)
    if trace.shape[0] > 0:
        snapshot(st, board, trace)
    for seat in range(players):
        power, flags = seat_power(st, seat)
        st[STATS + N_SEAT_STATS * seat + ST_FINAL_POWER] = power
        st[STATS + N_SEAT_STATS * seat + ST_FLAGS_HELD] = flags
        record_event(trace, st, TRACE_LEN, EV_SCORE, seat, power, flags, st[SEAT_IN + seat])
    record_event(trace, st, TRACE_LEN, EV_END, winner, st[ROUND], reason)
    return winner, reason


# --- the protocol ---------------------------------------------------------------------------
# ``game`` is the tuple (rules, board, dist, planner_ids, planner_params): the encoded rules, the
# board and move tables (simcore.games.power_the_game.game.prepare) and the planner table whose
# rows are
# the orders decision's options (simcore.games.power_the_game.game.planner_table).

# The rules' steps between decisions (st[P_STEP]).
S_ROUND = 0  # a round may begin: its snapshot, then the orders decisions; or the game ends
S_ORDERS = 1  # ask the next seat still in for its orders (P_ASK)
S_RESOLVE = 2  # every seat has chosen: the pads are written, carried out and resolved
S_IDLE = 3  # the game is over


@njit(cache=True, _nrt=False, inline="always")
def advance(st, game, rng, trace):
    """Run the rules until a seat must decide or the game is over."""
    rules, board, dist, planner_ids, planner_params = game
    while st[P_DECISION] == D_NONE and st[P_STEP] != S_IDLE:
        step = st[P_STEP]
        if step == S_ORDERS:
            seat = st[P_ASK]
            while seat < st[PLAYERS] and st[SEAT_IN + seat] == 0:
                seat += 1
            if seat < st[PLAYERS]:
                st[P_ASK] = seat + 1
                st[P_DECISION] = D_ORDERS
                st[P_SEAT] = seat
            else:
                st[P_STEP] = S_RESOLVE
        elif step == S_RESOLVE:
            orders_and_resolution(
                st, rules, board, dist, planner_ids, planner_params, rng, trace
            )  # fmt: skip
            end_round(st, trace)
            st[P_STEP] = S_ROUND
        elif goes_on(st, rules):
            start_round(st, board, trace)
            st[CHOSEN : CHOSEN + MAX_PLAYERS] = -1
            st[P_ASK] = 0
            st[P_STEP] = S_ORDERS
        else:
            st[P_WINNER], st[P_REASON] = finish_game(st, board, trace)
            st[P_OVER] = 1
            st[P_SEAT] = -1
            st[P_STEP] = S_IDLE


@njit(cache=True, _nrt=False)
def new_game(players, st, game, rng, trace):
    """Set up, then run the rules to the first decision (seat 0's orders for round 0)."""
    setup(players, st, game[0], game[1], rng, trace)
    st[P_N_OPTIONS] = 2 * game[3].shape[0]
    st[P_SEAT] = -1
    st[P_STEP] = S_ROUND
    advance(st, game, rng, trace)


@njit(cache=True, _nrt=False)
def apply(st, game, move, rng, trace):
    """The deciding seat's orders are option ``move``; the rules then run to the next decision:
    the next seat's orders, or after the last seat's the whole round (the pads written, carried
    out, resolved) and the next round's first orders, or the end of the game."""
    if st[P_DECISION] != D_ORDERS or not 0 <= move < st[P_N_OPTIONS]:
        raise ValueError("not an option of the pending decision")
    st[CHOSEN + st[P_SEAT]] = move
    st[P_DECISION] = D_NONE
    st[P_DECISIONS] += 1
    advance(st, game, rng, trace)


@njit(cache=True, _nrt=False, inline="always")
def to_move(st):
    """The seat deciding now, or -1 once the game is over."""
    return st[P_SEAT]


@njit(cache=True, _nrt=False, inline="always")
def is_over(st):
    return st[P_OVER] != 0


@njit(cache=True, _nrt=False)
def returns(st, out):
    """Each seat's result: 1 for the winner, 0 for the others (no winner: 0 for all)."""
    for seat in range(st[PLAYERS]):
        out[seat] = 1.0 if seat == st[P_WINNER] else 0.0


@njit(cache=True, _nrt=False)
def legal(st, game, moves):
    """The options of the pending orders decision, 0 .. 2n - 1 for n planners (planner k's pad,
    then each without its last command), written to ``moves``; their count."""
    n = st[P_N_OPTIONS] if st[P_DECISION] == D_ORDERS else 0
    for option in range(n):
        moves[option] = option
    return n


@njit(cache=True, _nrt=False)
def determinize(st, seat, rng):
    """In place, what ``seat`` cannot see redrawn: the options the other seats chose this round
    before it (orders are simultaneous: any option of theirs is consistent with what it saw),
    uniformly, and the other seats' armies' targets (``redraw_targets``). The board, Reserves,
    Power Units, Flags, the round, the official and the protocol's fields are public; its own
    targets are its own. Draws from ``rng`` only."""
    for other in range(st[PLAYERS]):
        if other == seat or st[SEAT_IN + other] == 0:
            continue
        if st[CHOSEN + other] >= 0:
            st[CHOSEN + other] = rand_below(rng, st[P_N_OPTIONS])
        redraw_targets(st, other, rng)


@njit(cache=True, _nrt=False, inline="always")
def _mix(h, value):
    return _splitmix64_mix(h ^ np.uint64(value + 0x100))


@njit(cache=True, _nrt=False)
def infoset_key(st, seat):
    """A 64-bit hash of exactly what ``seat`` observes now: every army's pieces by place and
    kind, Power Units, Flags, who is in, the round, the official, its own armies' targets and
    choice, and the protocol's fields. Two states get the same key iff they differ only in what
    ``determinize(st, seat, ...)`` redraws (up to hash collisions), in the statistics, or in
    what the next rules step overwrites before anything reads it (last round's pads, log and
    immovable pieces, the planners' scratch)."""
    h = _mix(np.uint64(0x9E3779B97F4A7C15), seat)
    for field in (PLAYERS, ROUND, OFFICIAL, P_DECISION, P_SEAT, P_STEP, P_ASK, P_N_OPTIONS):
        h = _mix(h, st[field])
    h = _mix(h, st[P_OVER])
    h = _mix(h, st[CHOSEN + seat])
    for army in range(N_ARMIES):
        h = _mix(h, st[PU + army])
        h = _mix(h, st[STANDING + army] + 2 * st[FLAGS + army])
        places = st[ARMY_NODES + army]
        loc = lowest_bit(places) if places != 0 else RESERVE
        while loc < MAX_LOC:
            for kind in range(N_KINDS):
                n = st[CNT + piece_index(army, loc, kind)]
                if n != 0:
                    h = _mix(h, piece_index(army, loc, kind))
                    h = _mix(h, n)
            if loc < RESERVE:
                places &= places - 1
                loc = lowest_bit(places) if places != 0 else RESERVE
            else:
                loc += 1
    for seat_in in range(st[PLAYERS]):
        h = _mix(h, st[SEAT_IN + seat_in])
    first, n_own = armies_of(st[PLAYERS], seat)
    for army in range(first, first + n_own):
        h = _mix(h, st[TARGET + army])
    return h
