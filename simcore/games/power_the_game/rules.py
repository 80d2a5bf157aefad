"""POWER: The Game's rules (../shared/rules/power-the-game.md) over one state array, and its
decision-point protocol (docs/protocol.md).

Every rule is one helper: those of a round and of a game below (``write_pads``, ``implement``,
``end_round``, ``finish_game``, ...), resolving conflicts in ``conflicts.py`` (``resolve``), the
pieces' bookkeeping and carrying out one command in ``pieces.py``. The scripted games'
straight-line loop (``scripted.py``) calls them in order; the protocol's steps (``advance``) call
the same helpers, stopping where a seat writes its orders (one decision per seat and round,
``D_ORDERS``); tests/contract/test_protocol.py proves that the two flows play identical
games. The board and move tables are data that ``prepare`` loads (``components.py``); the pads
are written by the planners of ``strategies/power_the_game/``.
"""

import numpy as np
from numba import njit

from simcore.games.power_the_game.conflicts import resolve
from simcore.games.power_the_game.pieces import (
    add_pieces,
    apply_command,
    receive,
    receive_units,
    stat_add,
    take_pieces,
)
from simcore.games.power_the_game.state import (
    ARMY_NODES,
    BUILD,
    CARRIED,
    CHOSEN,
    CMD_ARMY,
    CMD_FROM,
    CMD_KIND,
    CMD_OP,
    CMD_TO,
    CMD_WIDTH,
    CNT,
    D_NONE,
    D_ORDERS,
    DESTROYER,
    END_FLAGS,
    END_TIME_LIMIT,
    EV_ARMY,
    EV_ARMY_STATE,
    EV_COMMAND,
    EV_END,
    EV_EXEC,
    EV_PENALTY,
    EV_PIECES,
    EV_ROUND,
    EV_SCORE,
    EV_SETUP,
    EV_STANDING,
    EXECUTED,
    FIGHTER,
    FIRST_OFFICIAL,
    FIRST_OFFICIAL_RANDOM,
    FIXED,
    FLAGS,
    GROUP_II_OFFSET,
    I_FINGERPRINT,
    INFANTRY,
    INFO,
    LAUNCH,
    LOG,
    LOG_ARMY,
    LOG_FROM,
    LOG_KIND,
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
    PIECE_POWER,
    PIECE_PRICE,
    PLAN_CNT,
    PLAN_NODES,
    PLAYERS,
    PU,
    R_COMMANDS,
    R_FIRST_OFFICIAL,
    R_IDLE_PENALTY,
    R_INITIAL_PIECES,
    R_MAX_POWER_UNITS,
    R_MAX_ROUNDS,
    R_POWER,
    R_PRICE,
    R_UPGRADE_PIECES,
    RESERVE,
    ROUND,
    SEAT_IN,
    SHARE_LEFT,
    SHARED,
    ST_CANCELLED,
    ST_COMMANDS,
    ST_FINAL_POWER,
    ST_FLAGS_HELD,
    ST_MISSILES_LAUNCHED,
    ST_PENALTIES,
    ST_ROUND_OUT,
    STANDING,
    STATS,
    TANK,
    TARGET,
    TRACE_LEN,
    UPGRADE,
    UPGRADE_SIZE,
    X_MERCENARY,
    X_NOT_YOURS,
    X_TOO_MANY,
    armies_of,
    army_total_pieces,
    army_total_power,
    check_command,
    count,
    hq_of,
    may_command,
    n_nodes,
    piece_index,
    power_value,
    seat_of_army,
    side_of,
    upgrade_size,
)
from simcore.kernel.chunk import record_event
from simcore.kernel.intrinsics import inline_njit, lowest_bit
from simcore.kernel.rng import _splitmix64_mix, rand_below
from strategies import power_the_game as strategy

# Every function takes the game as (st, rules, board, dist, trace) or a part of it: the state,
# the encoded rules, the board table, the move tables and the trace buffer.


# --- a round ---------------------------------------------------------------------------------


@njit(cache=True, _nrt=False, forceinline=False)
def pad_at(seat, i):
    return PAD + (seat * MAX_COMMANDS + i) * CMD_WIDTH


@njit(cache=True, _nrt=False, forceinline=False)
def next_seat(st, seat):
    """The seat to the left (clockwise), in or out."""
    return seat + 1 if seat + 1 < st[PLAYERS] else 0


@njit(cache=True, _nrt=False, forceinline=False)
def seats_in(st):
    n = 0
    for seat in range(st[PLAYERS]):
        n += st[SEAT_IN + seat]
    return n


@njit(cache=True, _nrt=False, forceinline=False)
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


@njit(cache=True, _nrt=False, forceinline=False)
def is_mercenary_move(st, c, kind, origin):
    return (
        st[c + CMD_ARMY] == MERCENARY_ARMY
        and st[c + CMD_OP] == MOVE
        and st[c + CMD_KIND] == kind
        and st[c + CMD_FROM] == origin
    )


@njit(cache=True, _nrt=False, forceinline=False)
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


@njit(cache=True, _nrt=False, forceinline=False)
def shared_piece_moved(st, kind, origin):
    """One of the pieces a SHARED group of orders is about moved: one fewer left for them."""
    for seat in range(st[PLAYERS]):
        for i in range(st[PAD_N + seat]):
            slot = seat * MAX_COMMANDS + i
            if st[PAD_RESULT + slot] == SHARED and is_mercenary_move(
                st, pad_at(seat, i), kind, origin
            ):
                st[SHARE_LEFT + slot] -= 1


@njit(cache=True, _nrt=False, forceinline=True)  # one caller: implement
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


@njit(cache=True, _nrt=False, forceinline=False)
def penalty(seat, st, rules, rng, trace):
    """None of the seat's commands was carried out: one of its armies loses a Power Unit, or its
    smallest piece is broken down into Power Units (a Group II piece into the Group I pieces of
    its exchange but one, and that one's Power Units) and one of those is forfeited. Which piece
    is the player's choice: one in a Reserve if there is one (it keeps its pieces on the board),
    else a random one of the smallest on the board."""
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
                if lowest < 0 or power_value(st, kind) < power_value(st, lowest):
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
        added = receive(st, rules, best_army, smaller, upgrade_size(st) - 1)
        units = receive_units(st, rules, best_army, power_value(st, smaller) - 1)
    else:
        units = receive_units(st, rules, best_army, power_value(st, best_kind) - 1)
    record_event(
        trace, st, TRACE_LEN, EV_PENALTY, seat, best_army, best_kind, best_loc, units, smaller,
        added,
    )  # fmt: skip


@njit(cache=True, _nrt=False, forceinline=False)
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


@njit(cache=True, _nrt=False, forceinline=False)
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


@njit(cache=True, _nrt=False, forceinline=False)
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


@njit(cache=True, forceinline=False)
def hide_pads(st, rules, board, seat, rng):
    """Redraw what ``seat`` cannot see while its planner writes its pad (inside ``write_pads``),
    in place: the other seats' pads of this round (orders are written simultaneously and shown
    only once all are down) and their armies' targets (``redraw_targets``). A redrawn pad is a
    random pad, as the ``random`` strategy writes one: any orders are consistent with what the
    seat has seen. Everything else is on the table for every player (pieces, Reserves, Power
    Units, Flags, the round, the official) and stays. The leak check's redraw for the planners
    (tests/contract/games/power_the_game.py); the protocol's ``determinize`` hides the same
    things at the decision, where the others' orders are still option codes.

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


@njit(cache=True, _nrt=False, forceinline=False)
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
    if rules[R_IDLE_PENALTY] == 0:
        return
    for _ in range(st[PLAYERS]):  # back at the official
        if st[SEAT_IN + seat] == 1 and st[CARRIED + seat] == 0:
            penalty(seat, st, rules, rng, trace)
        seat = next_seat(st, seat)


@inline_njit()
def start_round(st, board, trace):
    record_event(trace, st, TRACE_LEN, EV_ROUND, st[ROUND], st[OFFICIAL], seats_in(st))
    if trace.shape[0] > 0:
        snapshot(st, board, trace)


@inline_njit()
def orders_and_resolution(st, rules, board, dist, planner_ids, planner_params, rng, trace):
    """The round after planning's decisions: the pads written, carried out, then resolved."""
    write_pads(st, rules, board, dist, planner_ids, planner_params, rng, trace)
    implement(st, rules, board, dist, rng, trace)
    resolve(st, rules, board, trace)


# --- a game ----------------------------------------------------------------------------------


@njit(cache=True, _nrt=False, forceinline=False)
def setup(players, st, rules, board, rng, trace):
    """Every army in its Headquarters with its Flag and ``initial_pieces`` (two) of each Group I
    piece."""
    # All but the pad's planning picture, much of the state: it is zero but for the entries its
    # list (PLAN_TOUCHED) names, and the next pad's start_pad clears those (the list is kept).
    st[:PLAN_CNT] = 0
    st[PLAN_NODES:] = 0
    for kind in range(MISSILE):  # a Mega-Missile's power value stays 0
        st[PIECE_POWER + kind] = np.int64(rules[R_POWER + kind])
    for kind in range(GROUP_II_OFFSET):
        st[PIECE_PRICE + kind] = np.int64(rules[R_PRICE + kind])
    st[UPGRADE_SIZE] = np.int64(rules[R_UPGRADE_PIECES])
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
            add_pieces(st, army, hq_of(board, army), kind, np.int64(rules[R_INITIAL_PIECES]), False)
        record_event(
            trace, st, TRACE_LEN, EV_ARMY, army, seat_of_army(players, army),
            side_of(st, army), hq_of(board, army),
        )  # fmt: skip


@njit(cache=True, _nrt=False, forceinline=False)
def seat_power(st, seat):
    first, n_own = armies_of(st[PLAYERS], seat)
    power = 0
    flags = 0
    for army in range(first, first + n_own):
        power += army_total_power(st, army)
        flags += st[FLAGS + army]
    return power, flags


@njit(cache=True, _nrt=False, forceinline=False)
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


@njit(cache=True, _nrt=False, forceinline=False)
def record_standing(players, st, trace):
    """After a round: one standing row per seat when tracing; nothing otherwise."""
    if trace.shape[0] == 0:
        return
    for seat in range(players):
        power, flags = seat_power(st, seat)
        record_event(trace, st, TRACE_LEN, EV_STANDING, st[ROUND], seat, power, flags)


@njit(cache=True, _nrt=False, forceinline=False)
def goes_on(st, rules):
    """Another round: more than one seat is in and the time limit is not reached."""
    return st[ROUND] < np.int64(rules[R_MAX_ROUNDS]) and seats_in(st) > 1


@njit(cache=True, _nrt=False, forceinline=False)
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


@njit(cache=True, _nrt=False, forceinline=False)
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
# board and move tables (``prepare`` in game.py) and the planner table whose rows are the orders
# decision's options (``planner_table`` in game.py).

# The rules' steps between decisions (st[P_STEP]).
S_ROUND = 0  # a round may begin: its snapshot, then the orders decisions; or the game ends
S_ORDERS = 1  # ask the next seat still in for its orders (P_ASK)
S_RESOLVE = 2  # every seat has chosen: the pads are written, carried out and resolved
S_IDLE = 3  # the game is over


@inline_njit()
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


@njit(cache=True, _nrt=False, forceinline=False)
def new_game(players, st, game, rng, trace):
    """Set up, then run the rules to the first decision (seat 0's orders for round 0)."""
    setup(players, st, game[0], game[1], rng, trace)
    st[P_N_OPTIONS] = 2 * game[3].shape[0]
    st[P_SEAT] = -1
    st[P_STEP] = S_ROUND
    advance(st, game, rng, trace)


@njit(cache=True, _nrt=False, forceinline=False)
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


@inline_njit()
def to_move(st):
    """The seat deciding now, or -1 once the game is over."""
    return st[P_SEAT]


@inline_njit()
def is_over(st):
    return st[P_OVER] != 0


@njit(cache=True, _nrt=False, forceinline=False)
def returns(st, out):
    """Each seat's result: 1 for the winner, 0 for the others (no winner: 0 for all)."""
    for seat in range(st[PLAYERS]):
        out[seat] = 1.0 if seat == st[P_WINNER] else 0.0


@njit(cache=True, _nrt=False, forceinline=False)
def legal(st, game, moves):
    """The options of the pending orders decision, 0 .. 2n - 1 for n planners (planner k's pad,
    then each without its last command), written to ``moves``; their count."""
    n = st[P_N_OPTIONS] if st[P_DECISION] == D_ORDERS else 0
    for option in range(n):
        moves[option] = option
    return n


@njit(cache=True, _nrt=False, forceinline=False)
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


@inline_njit()
def _mix(h, value):
    return _splitmix64_mix(h ^ np.uint64(value + 0x100))


@njit(cache=True, _nrt=False, forceinline=False)
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
