"""The pad a seat writes, as every planner sees it: the round's view of the board (``survey``,
shared by every seat's pad), the seat's picture of its own armies' pieces as its commands so far
leave them (PLAN_* in the state), appending a command (``write``), and the ``random``
strategy's pad (``plan_random``)."""

import numpy as np
from numba import njit

from simcore.games.power_the_game.state import (
    ARMY_NODES,
    B_REACH,
    B_REACHED_BY,
    BUILD,
    BUY,
    CMD_ARMY,
    CMD_FROM,
    CMD_KIND,
    CMD_OP,
    CMD_TO,
    CMD_WIDTH,
    CNT,
    GROUP_II_OFFSET,
    IN_PLAY,
    KIND_NODES,
    LAUNCH,
    MAX_COMMANDS,
    MAX_LOC,
    MAX_NODES,
    MERCENARY_ARMY,
    MISSILE,
    MOVE,
    N_ARMIES,
    N_KINDS,
    OCCUPIED,
    PAD,
    PAD_N,
    PLAN_CNT,
    PLAN_FREE,
    PLAN_N,
    PLAN_NODES,
    PLAN_POWER,
    PLAN_PU,
    PLAN_STOCK,
    PLAN_TOUCHED,
    PLAN_TOUCHED_N,
    PLAN_TRIPLES,
    PLAYERS,
    PU,
    R_COMMANDS,
    RESERVE,
    UPGRADE,
    VIEW_ENEMY_POWER,
    VIEW_REACH,
    VIEW_SIDE_POWER,
    VIEW_THREAT,
    army_pieces_at,
    army_power_at,
    hq_of,
    may_command,
    n_nodes,
    piece_index,
    power_value,
    price,
    side_of,
    stock_room,
    upgrade_size,
)
from simcore.kernel.intrinsics import inline_njit, lowest_bit
from simcore.kernel.rng import (
    rand_below,
    rand_bool,
)
from strategies.power_the_game.catalog import P_MOVE


@njit(cache=True, _nrt=False, forceinline=False)
def planned(st, army, loc, kind):
    """Pieces there once the pad's commands so far are carried out."""
    i = piece_index(army, loc, kind)
    return st[CNT + i] + st[PLAN_CNT + i]


@njit(cache=True, _nrt=False, forceinline=False)
def movable(st, army, loc, kind):
    """Pieces there that the pad may still order to move."""
    i = piece_index(army, loc, kind)
    return st[CNT + i] + st[PLAN_FREE + i]


@njit(cache=True, _nrt=False, forceinline=False)
def plan_change(st, i, pieces, free):
    """Change the pad's picture at piece index ``i`` (kept as differences from the state, listed
    so that the next pad clears only what this one touched)."""
    if st[PLAN_CNT + i] == 0 and st[PLAN_FREE + i] == 0:
        st[PLAN_TOUCHED + st[PLAN_TOUCHED_N]] = i
        st[PLAN_TOUCHED_N] += 1
    st[PLAN_CNT + i] += pieces
    st[PLAN_FREE + i] += free
    st[PLAN_POWER + i // N_KINDS] += pieces * power_value(st, i % N_KINDS)


@njit(cache=True, _nrt=False, forceinline=False)
def survey(st, board):
    """The round's view (VIEW_*): each side's power at each node and the strongest other side's,
    the power each army could bring to each enemy Headquarters, and their sum per Headquarters
    (its threat)."""
    st[VIEW_SIDE_POWER : VIEW_SIDE_POWER + N_ARMIES * MAX_NODES] = -1
    st[VIEW_ENEMY_POWER : VIEW_ENEMY_POWER + N_ARMIES * MAX_NODES] = 0
    occupied = 0
    for army in range(N_ARMIES):
        occupied |= st[ARMY_NODES + army]
    while occupied:
        node = lowest_bit(occupied)
        occupied &= occupied - 1
        armies = st[OCCUPIED + node]
        while armies:
            army = lowest_bit(armies)  # the lowest army with pieces there
            armies &= armies - 1
            at = VIEW_SIDE_POWER + side_of(st, army) * MAX_NODES + node  # as side_power_at
            st[at] = max(st[at], 0) + army_power_at(st, army, node)
        # The strongest other side is the strongest side, or for that side the runner-up.
        top_side, top, runner_up = -1, 0, 0
        for side in range(N_ARMIES):
            power = st[VIEW_SIDE_POWER + side * MAX_NODES + node]
            if power > top:
                top_side, top, runner_up = side, power, top
            elif power > runner_up:
                runner_up = power
        for side in range(N_ARMIES):
            enemy = runner_up if side == top_side else top
            st[VIEW_ENEMY_POWER + side * MAX_NODES + node] = enemy
    for target in range(N_ARMIES):
        hq = hq_of(board, target)
        threat = 0
        for army in range(N_ARMIES):
            in_reach = 0
            if side_of(st, army) != side_of(st, target):
                for kind in range(MISSILE):
                    nodes = kind_nodes_reaching(st, board, army, kind, hq)
                    while nodes:
                        loc = lowest_bit(nodes)
                        nodes &= nodes - 1
                        in_reach += st[CNT + piece_index(army, loc, kind)] * power_value(st, kind)
            st[VIEW_REACH + army * N_ARMIES + target] = in_reach
            threat += in_reach
        st[VIEW_THREAT + target] = threat


@njit(cache=True, _nrt=False, forceinline=False)
def kind_nodes(st, army, kind):
    """Bitmask of the board nodes where the army has pieces of ``kind``: those the pad may order
    to move stand there (so the steps below look only there)."""
    return st[KIND_NODES + army * N_KINDS + kind]


@njit(cache=True, _nrt=False, forceinline=False)
def kind_nodes_reaching(st, board, army, kind, target):
    """Those of ``kind_nodes`` from which such a piece can get to node ``target`` this round."""
    return kind_nodes(st, army, kind) & board[target, B_REACHED_BY + kind]


@njit(cache=True, _nrt=False, forceinline=False)
def side_power(st, side, node):
    """Power of a side's pieces at a board node, -1 when it has none there (from the view)."""
    return st[VIEW_SIDE_POWER + side * MAX_NODES + node]


@njit(cache=True, _nrt=False, forceinline=True)  # one caller: write_pad
def start_pad(st, seat):
    st[PAD_N + seat] = 0
    for k in range(st[PLAN_TOUCHED_N]):
        i = st[PLAN_TOUCHED + k]
        st[PLAN_CNT + i] = 0
        st[PLAN_FREE + i] = 0
        st[PLAN_POWER + i // N_KINDS] = 0
    st[PLAN_TOUCHED_N] = 0
    st[PLAN_STOCK : PLAN_STOCK + N_ARMIES * N_KINDS] = 0
    for army in range(N_ARMIES):
        st[PLAN_N + army] = 0
        st[PLAN_PU + army] = st[PU + army]
        st[PLAN_NODES + army] = st[ARMY_NODES + army]
        st[PLAN_TRIPLES + army] = 0


@njit(cache=True, _nrt=False, forceinline=False)
def next_place(st, army, loc):
    """The next location after ``loc`` (-1: the first) where the pad's picture may have the
    army's pieces: its PLAN_NODES in increasing order, then every Reserve; MAX_LOC after them.
    Visiting these instead of every location skips only places where it has nothing."""
    if loc + 1 < RESERVE:
        later = st[PLAN_NODES + army] & -(np.int64(1) << (loc + 1))
        return lowest_bit(later) if later != 0 else RESERVE
    return loc + 1


@njit(cache=True, _nrt=False, forceinline=False)
def write(st, seat, army, op, kind, origin, target):
    """Append a command to the pad and apply it to the seat's picture of its own pieces."""
    c = PAD + (seat * MAX_COMMANDS + st[PAD_N + seat]) * CMD_WIDTH
    st[c + CMD_ARMY] = army
    st[c + CMD_OP] = op
    st[c + CMD_KIND] = kind
    st[c + CMD_FROM] = origin
    st[c + CMD_TO] = target
    st[PAD_N + seat] += 1
    st[PLAN_N + army] += 1
    if op == MOVE:
        plan_change(st, piece_index(army, origin, kind), -1, -1)
        plan_change(st, piece_index(army, target, kind), 1, 0)
        if target < RESERVE:
            st[PLAN_NODES + army] |= np.int64(1) << target
            if kind < GROUP_II_OFFSET and planned(st, army, target, kind) >= upgrade_size(st):
                st[PLAN_TRIPLES + army] |= np.int64(1) << target
    elif op == UPGRADE:
        used = upgrade_size(st)
        st[PLAN_STOCK + army * N_KINDS + kind] -= used
        st[PLAN_STOCK + army * N_KINDS + kind + GROUP_II_OFFSET] += 1
        i = piece_index(army, origin, kind)
        # Fewer left: those that may still move are at most those left.
        free = min(st[PLAN_FREE + i], st[PLAN_CNT + i] - used) - st[PLAN_FREE + i]
        plan_change(st, i, -used, free)
        made = piece_index(army, origin, kind + GROUP_II_OFFSET)
        plan_change(st, made, 1, 1 if origin >= RESERVE else 0)  # Reserve pieces may move on
    elif op == BUY:
        st[PLAN_STOCK + army * N_KINDS + kind] += 1
        st[PLAN_PU + army] -= price(st, kind)
        plan_change(st, piece_index(army, RESERVE + army, kind), 1, 1)
    elif op == BUILD:
        st[PLAN_STOCK + army * N_KINDS + MISSILE] += 1
        # What the kernel will consume is not tracked: the seat plans nothing more there.
        for k in range(MISSILE):
            plan_change(st, piece_index(army, origin, k), 0, -movable(st, army, origin, k))
        plan_change(st, piece_index(army, origin, MISSILE), 1, 0)
        if origin == RESERVE + army:
            st[PLAN_PU + army] = 0
    elif op == LAUNCH:
        plan_change(st, piece_index(army, origin, MISSILE), -1, 0)


@njit(cache=True, _nrt=False, forceinline=False)
def in_stock(st, rules, army, kind):
    """Does the army's set still have a piece of ``kind`` to put in play, after the pad's buys,
    exchanges and missiles so far? (Always without the rule component_limits.)"""
    at = army * N_KINDS
    return stock_room(st, rules, IN_PLAY + at, PLAN_STOCK + at, kind) > 0


@inline_njit()
def reach_mask(board, kind, origin):
    """Bitmask of the nodes a piece of ``kind`` (not a missile) at ``origin`` (a node or its
    army's Reserve) can get to this round. From a Reserve only the army's Headquarters."""
    if origin >= RESERVE:
        return np.int64(1) << hq_of(board, origin - RESERVE)
    return board[origin, B_REACH + kind]


@inline_njit()
def reach(board, kind, origin, target):
    """Can a piece of ``kind`` at ``origin`` get to node ``target`` this round?"""
    return (reach_mask(board, kind, origin) >> target) & 1 == 1


@njit(cache=True, _nrt=False, forceinline=False)
def own_armies(st, seat):
    """(first army, number of armies) the seat owns (not the mercenary)."""
    if st[PLAYERS] == 2:
        return 2 * seat, 2
    return seat, 1


@njit(cache=True, _nrt=False, forceinline=False)
def commands_left(st, rules, seat, army):
    """Commands the seat can still write for ``army``."""
    per_army = np.int64(rules[R_COMMANDS])
    if st[PLAYERS] == 2:
        return per_army - st[PLAN_N + army]
    return per_army - st[PAD_N + seat]


@njit(cache=True, _nrt=False, forceinline=False)
def room(st, rules, seat, army):
    """Can the seat still write a command for ``army``?"""
    return commands_left(st, rules, seat, army) > 0


# --- random ----------------------------------------------------------------------------------


@njit(cache=True, _nrt=False, forceinline=False)
def random_move(st, board, seat, army, from_reserve, rng):
    """A random piece that may still move (from the Reserve only with ``from_reserve``), to a
    random node in its reach."""
    seen = 0
    pick = -1
    loc = next_place(st, army, -1)  # every place with pieces, in increasing order
    while loc < MAX_LOC:
        if army_pieces_at(st, army, loc) > 0 and (from_reserve or loc < RESERVE):
            for kind in range(MISSILE):
                if movable(st, army, loc, kind) > 0:
                    seen += 1
                    if rand_below(rng, seen) == 0:
                        pick = loc * N_KINDS + kind
        loc = next_place(st, army, loc)
    if pick < 0:
        return False
    origin = pick // N_KINDS
    kind = pick % N_KINDS
    seen = 0
    target = -1
    nodes = reach_mask(board, kind, origin)
    if origin < RESERVE:
        nodes &= ~(np.int64(1) << origin)  # not where it stands
    while nodes:
        node = lowest_bit(nodes)
        nodes &= nodes - 1
        seen += 1
        if rand_below(rng, seen) == 0:
            target = node
    if target < 0:
        return False
    write(st, seat, army, MOVE, kind, origin, target)
    return True


@njit(cache=True, _nrt=False, forceinline=False)
def random_exchange(st, board, seat, army, rng):
    """A random exchange the seat's pieces allow: an upgrade, a purchase, a missile or a launch."""
    seen = 0
    choice = -1
    loc = next_place(st, army, -1)
    while loc < MAX_LOC:
        for kind in range(GROUP_II_OFFSET):
            if planned(st, army, loc, kind) >= upgrade_size(st):
                seen += 1
                if rand_below(rng, seen) == 0:
                    choice = loc * N_KINDS + kind
        if planned(st, army, loc, MISSILE) > 0:
            seen += 1
            if rand_below(rng, seen) == 0:
                choice = loc * N_KINDS + MISSILE
        loc = next_place(st, army, loc)
    for kind in range(GROUP_II_OFFSET):
        if st[PLAN_PU + army] >= price(st, kind):
            seen += 1
            if rand_below(rng, seen) == 0:
                choice = MAX_LOC * N_KINDS + kind
    if choice < 0:
        return False
    loc = choice // N_KINDS
    kind = choice % N_KINDS
    if loc == MAX_LOC:
        write(st, seat, army, BUY, kind, RESERVE + army, RESERVE + army)
    elif kind == MISSILE:
        target = rand_below(rng, n_nodes(board))
        write(st, seat, army, LAUNCH, MISSILE, loc, target)
    else:
        write(st, seat, army, UPGRADE, kind, loc, loc)
    return True


@njit(cache=True, _nrt=False, forceinline=False)
def plan_random(prm, seat, st, rules, board, rng):
    per_army = np.int64(rules[R_COMMANDS])
    first, n_own = own_armies(st, seat)
    wanted = 1 + rand_below(rng, per_army * n_own)
    for _ in range(wanted):
        army = first + rand_below(rng, n_own)
        if st[PLAYERS] == 3 and rand_bool(rng, 0.2):
            army = MERCENARY_ARMY
        if not may_command(st, seat, army) or not room(st, rules, seat, army):
            continue
        if rand_bool(rng, prm[P_MOVE]):
            if not random_move(st, board, seat, army, True, rng):
                random_exchange(st, board, seat, army, rng)
        elif not random_exchange(st, board, seat, army, rng):
            random_move(st, board, seat, army, True, rng)
