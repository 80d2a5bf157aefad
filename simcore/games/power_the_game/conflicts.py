"""POWER: The Game's "Resolving Conflicts" (../shared/rules/power-the-game.md, section 3), once
every pad is carried out: ties bounce first, then battles, then Power Units, last captured Flags
(``resolve``, in that order). The round that calls it is in ``rules.py``.
"""

import numpy as np
from numba import njit

from simcore.games.power_the_game.pieces import (
    add_pieces,
    change,
    receive,
    receive_units,
    stat_add,
    take_pieces,
)
from simcore.games.power_the_game.state import (
    ARMY_NODES,
    BOUNCE,
    BY_VALUE,
    CAPTURE,
    EV_BOUNCE,
    EV_CAPTURE,
    EV_CONFLICT,
    EV_FLAG,
    EV_OUT,
    EV_POWER_UNITS,
    EV_TAKE,
    FIXED,
    FLAGS,
    I_SECTORS,
    INFANTRY,
    INFO,
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
    N_ARMIES,
    N_SEAT_STATS,
    OFFICIAL,
    PLAYERS,
    POWER_UNIT,
    PU,
    R_BOUNCES,
    R_FLAG_NEEDS_INFANTRY,
    R_MAX_POWER_UNITS,
    R_UNITS_BEFORE_FLAGS,
    R_UNITS_PER_COUNTRY,
    REGIMENT,
    RESERVE,
    ROUND,
    SEAT_IN,
    ST_FLAGS_CAPTURED,
    ST_PIECES_CAPTURED,
    ST_PIECES_LOST,
    ST_POWER_UNITS,
    ST_ROUND_OUT,
    STANDING,
    STANDOFF,
    STATS,
    TRACE_LEN,
    armies_of,
    army_pieces_at,
    army_power_at,
    count,
    has_foot,
    hq_of,
    next_contested,
    opponent_at,
    piece_index,
    seat_of_army,
    side_of,
    side_power_at,
    units_left,
)
from simcore.kernel.chunk import record_event

# The order captured pieces change colour in: Group II pieces first (a Regiment needs three of the
# set's Infantry at once), largest first; with the rule component_limits this is who gets what is
# left of a set.
CAPTURE_ORDER = np.append(BY_VALUE, MISSILE)


@njit(cache=True, _nrt=False, forceinline=False)
def record_conflict(st, loc, outcome, side, trace):
    if trace.shape[0] == 0:
        return
    record_event(
        trace, st, TRACE_LEN, EV_CONFLICT, loc, side_power_at(st, 0, loc),
        side_power_at(st, 1, loc), side_power_at(st, 2, loc), side_power_at(st, 3, loc), outcome,
        side,
    )  # fmt: skip


@njit(cache=True, _nrt=False, forceinline=False)
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


@njit(cache=True, _nrt=False, forceinline=False)
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


@njit(cache=True, _nrt=False, forceinline=False)
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


@njit(cache=True, _nrt=False, forceinline=False)
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


@njit(cache=True, _nrt=False, forceinline=False)
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


@njit(cache=True, _nrt=False, forceinline=False)
def collect_power_units(st, rules, board, trace):
    """``units_per_country`` (one) Power Unit per enemy country with a standing Flag in which the
    army has a piece (its sectors or Headquarters; not islands or sea lanes), at most
    ``max_power_units``."""
    cap = np.int64(rules[R_MAX_POWER_UNITS])
    per_country = np.int64(rules[R_UNITS_PER_COUNTRY])
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
        gained = min(gained * per_country, cap, units_left(st, rules, army))
        if gained > 0:
            st[PU + army] += gained
            stat_add(st, seat_of_army(st[PLAYERS], army), ST_POWER_UNITS, gained)
            record_event(trace, st, TRACE_LEN, EV_POWER_UNITS, army, gained, mask)


@njit(cache=True, _nrt=False, forceinline=False)
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


@njit(cache=True, _nrt=False, forceinline=False)
def capture_flags(st, rules, board, trace):
    """After the Power Units (before them without the rule units_before_flags): a Flag falls to
    the side with an Infantry or a Regiment in its Headquarters (any piece without the rule
    flag_needs_infantry) and more power there than the defender (the strongest such side; none
    if they tie). The captor takes the army's forces, Power Units and Flags; a seat without a
    standing Flag is out."""
    players = st[PLAYERS]
    needs_foot = rules[R_FLAG_NEEDS_INFANTRY] != 0
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
            if side == defender or power <= defence or (needs_foot and not has_foot(st, side, hq)):
                continue
            if power > best:
                best_side, best, tied = side, power, False
            elif power == best:
                tied = True
        if best_side < 0 or tied:
            continue
        captor = strongest_army(st, best_side, hq, needs_foot)
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


@njit(cache=True, _nrt=False, forceinline=False)
def resolve(st, rules, board, trace):
    """After the commands: ties (without the rule bounces, none: tied sides stand off in the
    battles), battles, Power Units, Flag captures (Flags first without the rule
    units_before_flags)."""
    if rules[R_BOUNCES] != 0:
        resolve_ties(st, trace)
    resolve_battles(st, rules, trace)
    if rules[R_UNITS_BEFORE_FLAGS] != 0:
        collect_power_units(st, rules, board, trace)
        capture_flags(st, rules, board, trace)
    else:
        capture_flags(st, rules, board, trace)
        collect_power_units(st, rules, board, trace)
