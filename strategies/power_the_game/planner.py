"""The archetypes' planner (every scripted strategy but ``random``; its steps in order are in the
package's docstring), the pad's dispatch on the strategy id (``write_pad``) and the protocol's
orders decision (``decide``)."""

import numpy as np
from numba import njit

from simcore.games.power_the_game.state import (
    AIR,
    ARMY_NODES,
    B_AIR_RING,
    B_COUNTRY,
    BOMBER,
    BUILD,
    BUY,
    BY_VALUE,
    FIGHTER,
    GROUP_II_OFFSET,
    I_SECTORS,
    IN_PLAY,
    INFANTRY,
    INFO,
    LAUNCH,
    MAX_LOC,
    MAX_NODES,
    MERCENARY_ARMY,
    MISSILE,
    MOVE,
    MOVE_CLASS,
    N_ARMIES,
    N_KINDS,
    PAD_N,
    PLAN_GUARD,
    PLAN_NODES,
    PLAN_POWER,
    PLAN_PU,
    PLAN_TRIPLES,
    PLAYERS,
    R_BLOCKADE,
    R_MAX_ROUNDS,
    R_MEGA_MISSILES,
    R_MISSILE_COST,
    REGIMENT,
    RESERVE,
    ROUND,
    SEA,
    STANDING,
    TARGET,
    UPGRADE,
    VIEW_ENEMY_POWER,
    VIEW_REACH,
    VIEW_THREAT,
    army_pieces_at,
    army_power_at,
    hq_of,
    may_command,
    opponent_at,
    power_value,
    price,
    side_of,
    upgrade_size,
)
from simcore.kernel.intrinsics import inline_njit, lowest_bit
from simcore.kernel.rng import rand_below
from strategies.power_the_game.catalog import (
    ADVANCE,
    ATTACK_MARGIN,
    BLOCKADES,
    BUY_KIND,
    GUARD,
    HOME,
    MISSILES,
    OPENING_MOVES,
    PARAM_NAMES,
    RAIDERS,
    RANDOM,
    UPGRADES,
)
from strategies.power_the_game.pad import (
    commands_left,
    in_stock,
    kind_nodes,
    kind_nodes_reaching,
    movable,
    next_place,
    own_armies,
    plan_random,
    planned,
    random_move,
    reach_mask,
    room,
    side_power,
    start_pad,
    survey,
    write,
)


@njit(cache=True, _nrt=False, forceinline=False)
def bit_count(bits):
    n = 0
    while bits:
        bits &= bits - 1
        n += 1
    return n


@njit(cache=True, _nrt=False, forceinline=False)
def pick_node(nodes, rng):
    """A node of the non-empty bitmask ``nodes``, uniformly from the game's stream (no draw when
    there is only one). The planners visit a set of nodes by taking its nodes this way, so that
    which piece or place comes first never depends on the order of the board file."""
    if nodes & (nodes - 1) == 0:
        return lowest_bit(nodes)
    for _ in range(rand_below(rng, bit_count(nodes))):
        nodes &= nodes - 1
    return lowest_bit(nodes)


@inline_njit()
def without(nodes, node):
    return nodes & ~(np.int64(1) << node)


@njit(cache=True, _nrt=False, forceinline=False)
def enemy_army(st, army, other):
    return st[STANDING + other] == 1 and side_of(st, other) != side_of(st, army)


@njit(cache=True, _nrt=False, forceinline=False)
def defence(st, board, target):
    """Power in the Headquarters of army ``target`` on its side, from the view."""
    return max(side_power(st, side_of(st, target), hq_of(board, target)), 0)


@njit(cache=True, _nrt=False, forceinline=False)
def strength(st, army):
    """Power value of the army's pieces, wherever they are (its Power Units excepted)."""
    total = 0
    for kind in range(N_KINDS):
        total += st[IN_PLAY + army * N_KINDS + kind] * power_value(st, kind)
    return total


@njit(cache=True, _nrt=False, forceinline=True)  # one caller: write_pad
def choose_target(st, board, army, rng):
    """The enemy army whose Headquarters the army masses on: kept from round to round (TARGET)
    while its Flag stands and its Headquarters holds less than the army's whole strength (beyond
    that the army can never outweigh it); else the weakest enemy Headquarters, a random one of
    equals. -1 if no enemy stands."""
    current = st[TARGET + army] - 1
    if current >= 0 and enemy_army(st, army, current):
        if defence(st, board, current) < strength(st, army):
            return current
    best = -1
    least = 0
    seen = 0
    for other in range(N_ARMIES):
        if enemy_army(st, army, other):
            power = defence(st, board, other)
            if best < 0 or power < least:
                best, least, seen = other, power, 1
            elif power == least:
                seen += 1
                if rand_below(rng, seen) == 0:
                    best = other
    st[TARGET + army] = best + 1
    return best


@njit(cache=True, _nrt=False, forceinline=True)  # one caller: write_pad
def set_guard(prm, army, st):
    """The power the army keeps in its Headquarters this round: ``guard`` times the enemy power
    that can reach it this round (the stake is the Flag and with it everything the army has), and
    at least the ``home`` share of the army's strength."""
    st[PLAN_GUARD + army] = np.int64(
        max(prm[GUARD] * st[VIEW_THREAT + army], prm[HOME] * strength(st, army))
    )


@njit(cache=True, _nrt=False, forceinline=False)
def planned_power(st, army, loc):
    """Power of the army's pieces there once the pad's commands so far are carried out."""
    return army_power_at(st, army, loc) + st[PLAN_POWER + army * MAX_LOC + loc]


@njit(cache=True, _nrt=False, forceinline=True)  # small, passes three arrays
def spare(st, board, army, loc, kind):
    """How many of the army's pieces of ``kind`` at ``loc`` the pad may still move away: those
    that may move, and from its Headquarters only as many as leave the guard there."""
    free = movable(st, army, loc, kind)
    if loc != hq_of(board, army) or free == 0:
        return free
    above = planned_power(st, army, loc) - st[PLAN_GUARD + army]
    return max(min(free, above // power_value(st, kind)), 0)


@njit(cache=True, _nrt=False, forceinline=True)  # one caller: write_pad
def attack_flags(prm, seat, army, st, rules, board, rng):
    """Storm the enemy Headquarters where the power in reach beats its defence by the margin (the
    largest surplus, a random one of equals), an Infantry or Regiment first to take the Flag.
    Without one in reach it is still worth it (the rulebook's Hot Tips): the guard is captured
    and the Reserve blockaded, and the Flag falls to the next Infantry that walks in."""
    # In the final round there is no later one to wait for a safer margin in.
    margin = 1.0 if st[ROUND] + 1 >= rules[R_MAX_ROUNDS] else prm[ATTACK_MARGIN]
    best_target = -1
    best_surplus = 0.0
    seen = 0
    for other in range(N_ARMIES):
        if not enemy_army(st, army, other):
            continue
        held = defence(st, board, other)
        # The army's first step: the pad has not moved any of its pieces yet, so all of those
        # in reach may move (the survey added them up).
        power = max(side_power(st, side_of(st, army), hq_of(board, other)), 0)
        power += st[VIEW_REACH + army * N_ARMIES + other]
        if power > held and power >= margin * held:
            surplus = power - margin * held
            if best_target < 0 or surplus > best_surplus:
                best_target, best_surplus, seen = other, surplus, 1
            elif surplus == best_surplus:
                seen += 1
                if rand_below(rng, seen) == 0:
                    best_target = other
    if best_target < 0:
        return
    hq = hq_of(board, best_target)
    held = defence(st, board, best_target)
    needed = max(margin * held, held + 1.0)
    sent = max(side_power(st, side_of(st, army), hq), 0)
    origin, kind = foot_in_reach(st, board, army, hq, rng)  # a Flag needs one of them
    if origin >= 0 and room(st, rules, seat, army):
        write(st, seat, army, MOVE, kind, origin, hq)
        sent += power_value(st, kind)
    for kind in BY_VALUE:
        nodes = kind_nodes_reaching(st, board, army, kind, hq)
        while nodes and sent < needed:
            loc = pick_node(nodes, rng)
            nodes = without(nodes, loc)
            while (
                sent < needed and movable(st, army, loc, kind) > 0 and room(st, rules, seat, army)
            ):
                write(st, seat, army, MOVE, kind, loc, hq)
                sent += power_value(st, kind)


@njit(cache=True, _nrt=False, forceinline=False)
def foot_in_reach(st, board, army, node, rng):
    """A place from which one of the army's Infantry or Regiments can still move to ``node``
    this round (a Regiment if any, from a random place), and the kind (-1, -1 if none)."""
    for kind in (REGIMENT, INFANTRY):
        nodes = kind_nodes_reaching(st, board, army, kind, node)
        while nodes:
            loc = pick_node(nodes, rng)
            nodes = without(nodes, loc)
            if movable(st, army, loc, kind) > 0:
                return loc, kind
    return -1, -1


@njit(cache=True, _nrt=False, forceinline=False)
def missile_target(st, board, army, rng):
    """The enemy army with the strongest Headquarters guard, preferring those an Infantry or
    Regiment of ours can walk into behind the strike (a random one of equals; -1 if none
    stands). Whether a foot can walk in is asked without drawing: only the answer's existence
    matters here."""
    best = -1
    best_key = -1
    seen = 0
    for other in range(N_ARMIES):
        if enemy_army(st, army, other):
            hq = hq_of(board, other)
            key = defence(st, board, other)
            if foot_could_reach(st, board, army, hq):
                key += 1_000_000
            if key > best_key:
                best, best_key, seen = other, key, 1
            elif key == best_key:
                seen += 1
                if rand_below(rng, seen) == 0:
                    best = other
    return best


@njit(cache=True, _nrt=False, forceinline=False)
def foot_could_reach(st, board, army, node):
    """Can one of the army's Infantry or Regiments still move to ``node`` this round?"""
    for kind in (REGIMENT, INFANTRY):
        nodes = kind_nodes_reaching(st, board, army, kind, node)
        while nodes:
            loc = lowest_bit(nodes)
            nodes &= nodes - 1
            if movable(st, army, loc, kind) > 0:
                return True
    return False


@njit(cache=True, _nrt=False, forceinline=False)
def material(st, army, loc):
    """Power value a Mega-Missile built at ``loc`` could use (Power Units count in a Reserve)."""
    units = st[PLAN_PU + army] if loc == RESERVE + army else 0
    return units + planned_power(st, army, loc)


@njit(cache=True, _nrt=False, forceinline=True)  # one caller: write_pad
def missiles(seat, army, st, rules, board, rng):
    """Build a Mega-Missile in the Reserve (Power Units and pieces) or in Headquarters (the
    army's hoard of pieces) once either is worth the cost; launch every missile at the strongest
    enemy Headquarters guard, with an Infantry or Regiment walking in behind the strike."""
    target = missile_target(st, board, army, rng)
    if target < 0:
        return
    for loc in (RESERVE + army, hq_of(board, army)):
        if (
            material(st, army, loc) >= rules[R_MISSILE_COST]
            and room(st, rules, seat, army)
            and in_stock(st, rules, army, MISSILE)
        ):
            write(st, seat, army, BUILD, MISSILE, loc, loc)
            break
    hq = hq_of(board, target)
    loc = next_place(st, army, -1)
    while loc < MAX_LOC:
        while planned(st, army, loc, MISSILE) > 0 and room(st, rules, seat, army):
            write(st, seat, army, LAUNCH, MISSILE, loc, hq)
            origin, kind = foot_in_reach(st, board, army, hq, rng)
            if origin >= 0 and room(st, rules, seat, army):
                write(st, seat, army, MOVE, kind, origin, hq)
        loc = next_place(st, army, loc)


@njit(cache=True, _nrt=False, forceinline=False)
def enemy_power_at(st, army, node):
    """The strongest opposing side's power at ``node`` now (0 if none), from the view."""
    return st[VIEW_ENEMY_POWER + side_of(st, army) * MAX_NODES + node]


@njit(cache=True, _nrt=False, forceinline=True)  # passes three arrays, once per plane
def raid_target(st, board, army, kind, loc, taken, rng):
    """A sector for a plane at ``loc`` to earn a Power Unit: in an enemy country not yet raided
    this round (bit in ``taken``), in reach, with the least enemy power there, below the plane's;
    a random one of those (players should be unpredictable); -1 if none."""
    sectors = 0
    for country in range(N_ARMIES):
        if enemy_army(st, army, country) and (taken >> country) & 1 == 0:
            sectors |= board[INFO, I_SECTORS + country]
    best = -1
    least = power_value(st, kind)
    seen = 0
    targets = sectors & reach_mask(board, kind, loc)
    while targets != 0:
        node = lowest_bit(targets)
        targets &= targets - 1
        enemy = enemy_power_at(st, army, node)
        if enemy < least:
            best, least, seen = node, enemy, 1
        elif enemy == least and best >= 0:
            seen += 1
            if rand_below(rng, seen) == 0:
                best = node
    return best


@njit(cache=True, _nrt=False, forceinline=True)  # one caller: write_pad
def raid(prm, seat, army, st, rules, board, rng):
    """Send up to ``raiders`` planes, from random places, into different enemy countries."""
    sent = 0
    taken = 0
    for kind in (BOMBER, FIGHTER):
        nodes = kind_nodes(st, army, kind)
        while nodes:
            if sent >= prm[RAIDERS] or not room(st, rules, seat, army):
                return
            loc = pick_node(nodes, rng)
            nodes = without(nodes, loc)
            left = spare(st, board, army, loc, kind)
            while left > 0 and sent < prm[RAIDERS] and room(st, rules, seat, army):
                country = board[loc, B_COUNTRY]
                if country >= 0 and enemy_army(st, army, country) and (taken >> country) & 1 == 0:
                    taken |= 1 << country  # already earning there: it stays
                    break
                node = raid_target(st, board, army, kind, loc, taken, rng)
                if node < 0:
                    break
                write(st, seat, army, MOVE, kind, loc, node)
                taken |= 1 << board[node, B_COUNTRY]
                sent += 1
                left -= 1


@njit(cache=True, _nrt=False, forceinline=True)  # one caller: write_pad
def opening(seat, army, st, rules, board, rng):
    """The rulebook's quick power value of 20 in the first two rounds: two Fighters into two
    opponents' countries in round 1; in round 2 their two Power Units buy an Infantry, which
    moves to Headquarters, where the three Infantry become a Regiment."""
    hq = hq_of(board, army)
    if st[ROUND] == 0:
        taken = 0
        for _ in range(2):
            if movable(st, army, hq, FIGHTER) > 0 and room(st, rules, seat, army):
                node = raid_target(st, board, army, FIGHTER, hq, taken, rng)
                if node >= 0:
                    write(st, seat, army, MOVE, FIGHTER, hq, node)
                    taken |= 1 << board[node, B_COUNTRY]
        return
    reserve = RESERVE + army
    if (
        st[PLAN_PU + army] >= price(st, INFANTRY)
        and room(st, rules, seat, army)
        and in_stock(st, rules, army, INFANTRY)
    ):
        write(st, seat, army, BUY, INFANTRY, reserve, reserve)
    if movable(st, army, reserve, INFANTRY) > 0 and room(st, rules, seat, army):
        write(st, seat, army, MOVE, INFANTRY, reserve, hq)
    if planned(st, army, hq, INFANTRY) >= upgrade_size(st) and room(st, rules, seat, army):
        write(st, seat, army, UPGRADE, INFANTRY, hq, hq)


@njit(cache=True, _nrt=False, forceinline=True)  # two calls, in build_up
def upgrade_triples(st, rules, seat, army, loc):
    """Exchange like Group I pieces the pad's picture has at ``loc``, as often as it can."""
    for k in range(GROUP_II_OFFSET):
        while (
            planned(st, army, loc, k) >= upgrade_size(st)
            and room(st, rules, seat, army)
            and (k == INFANTRY or in_stock(st, rules, army, k + GROUP_II_OFFSET))
        ):
            write(st, seat, army, UPGRADE, k, loc, loc)


@njit(cache=True, _nrt=False, forceinline=True)  # one caller: write_pad
def build_up(prm, seat, army, st, rules, board, rng):
    """Buy the chosen piece with Power Units (once its set has none left, the dearest other
    Group I piece it can afford and still has), upgrade triples (places in random order), and
    bring Reserve pieces to Headquarters (a missile builder's hoard)."""
    reserve = RESERVE + army
    while room(st, rules, seat, army):
        kind = np.int64(prm[BUY_KIND])
        if not in_stock(st, rules, army, kind):
            kind = -1
            for k in BY_VALUE:
                if k < GROUP_II_OFFSET and in_stock(st, rules, army, k):
                    if st[PLAN_PU + army] >= price(st, k):
                        kind = k
                        break
        if kind < 0 or st[PLAN_PU + army] < price(st, kind):
            break
        write(st, seat, army, BUY, kind, reserve, reserve)
    if prm[UPGRADES] != 0:
        # Three like pieces stand only where the army has three pieces or more, where the pad's
        # moves brought them together, or in its own Reserve (an army's pieces are never in
        # another's).
        places = 0
        nodes = st[PLAN_NODES + army]
        while nodes:
            loc = lowest_bit(nodes)
            nodes &= nodes - 1
            many = army_pieces_at(st, army, loc) >= upgrade_size(st)
            if many or (st[PLAN_TRIPLES + army] >> loc) & 1:
                places |= np.int64(1) << loc
        while places:
            loc = pick_node(places, rng)
            places = without(places, loc)
            upgrade_triples(st, rules, seat, army, loc)
        upgrade_triples(st, rules, seat, army, reserve)
    hq = hq_of(board, army)
    if rules[R_BLOCKADE] != 0 and opponent_at(st, army, hq):
        return
    for k in BY_VALUE:
        while movable(st, army, reserve, k) > 0 and room(st, rules, seat, army):
            write(st, seat, army, MOVE, k, reserve, hq)


@njit(cache=True, _nrt=False, forceinline=True)  # one caller: write_pad
def defend(prm, seat, army, st, rules, board, rng):
    """With a guard, bring pieces back into Headquarters (largest first, from random places)
    while they hold no more than ``guard`` times the enemy power that can reach it."""
    threat = prm[GUARD] * st[VIEW_THREAT + army]
    if threat <= 0:
        return
    hq = hq_of(board, army)
    held = planned_power(st, army, hq)
    for kind in BY_VALUE:
        if held > threat:
            return  # held only grows: nothing more comes back
        nodes = without(kind_nodes_reaching(st, board, army, kind, hq), hq)
        while nodes:
            loc = pick_node(nodes, rng)
            nodes = without(nodes, loc)
            while (
                held <= threat and movable(st, army, loc, kind) > 0 and room(st, rules, seat, army)
            ):
                write(st, seat, army, MOVE, kind, loc, hq)
                held += power_value(st, kind)


@njit(cache=True, _nrt=False, forceinline=True)  # one caller: write_pad
def blockade(prm, seat, army, target, st, rules, board, rng):
    """Park the largest piece that outweighs it in the Headquarters of ``target`` (-1: none),
    from a random place it can spare a piece from."""
    if prm[BLOCKADES] == 0:
        return
    if target < 0:
        return
    hq = hq_of(board, target)
    if side_power(st, side_of(st, army), hq) >= 0:
        return
    held = defence(st, board, target)
    for kind in BY_VALUE:
        if power_value(st, kind) <= held:
            return
        nodes = kind_nodes_reaching(st, board, army, kind, hq)
        while nodes:
            loc = pick_node(nodes, rng)
            nodes = without(nodes, loc)
            if spare(st, board, army, loc, kind) > 0 and room(st, rules, seat, army):
                write(st, seat, army, MOVE, kind, loc, hq)
                return


@njit(cache=True, _nrt=False, forceinline=True)  # one caller: advance
def step_toward(st, board, dist, army, kind, loc, hq, support, rng):
    """The node in reach of a piece of ``kind`` at ``loc`` nearest ``hq`` in planes' moves and
    nearer than ``loc``, other than ``hq``, where the enemy is weaker than ``support`` (the power
    going there together) plus what the army will have there already; a random one of the
    nearest such nodes; -1 if none."""
    targets = reach_mask(board, kind, loc)
    # Ring by ring outward from hq (ring 0 is hq itself): the first ring with a node the enemy
    # does not outweigh holds the answer.
    for to_go in range(1, min(dist[AIR, loc, hq], MAX_NODES)):
        nodes = targets & board[hq, B_AIR_RING + to_go]
        best = -1
        seen = 0
        while nodes != 0:
            node = lowest_bit(nodes)
            nodes &= nodes - 1
            if enemy_power_at(st, army, node) < support + planned_power(st, army, node):
                seen += 1
                if seen == 1 or rand_below(rng, seen) == 0:
                    best = node
        if best >= 0:
            return best
    return -1


@njit(cache=True, _nrt=False, forceinline=True)  # one caller: write_pad
def advance(prm, seat, army, target, st, rules, board, dist, rng):
    """Mass force for a Flag: move up to ``advance`` pieces the guard can spare (largest first,
    from random places; ground pieces and planes, ships being slow) towards the Headquarters of
    ``target`` (-1: none), short of it: Infantry and Regiments to its kill squares, the rest
    beside them, so that ``attack_flags`` finds enough power in reach. The pieces of one kind at
    one place go together, to a node where they (and what the army has there) outweigh the
    enemy. The way left is counted in planes' moves: ground pieces take the same routes over
    several rounds, only stopping at islands."""
    if target < 0:
        return
    hq = hq_of(board, target)
    moved = 0
    for kind in BY_VALUE:
        if MOVE_CLASS[kind] == SEA:
            continue
        nodes = kind_nodes(st, army, kind)
        while nodes:
            budget = min(np.int64(prm[ADVANCE]) - moved, commands_left(st, rules, seat, army))
            if budget <= 0:
                return  # both only get tighter: nothing more will be written
            loc = pick_node(nodes, rng)
            nodes = without(nodes, loc)
            n = min(spare(st, board, army, loc, kind), budget)
            if n <= 0:
                continue
            support = n * power_value(st, kind)
            step = step_toward(st, board, dist, army, kind, loc, hq, support, rng)
            if step < 0:
                continue
            for _ in range(n):
                write(st, seat, army, MOVE, kind, loc, step)
            moved += n


@njit(cache=True, _nrt=False, forceinline=False)
def lure_mercenary(seat, st, rules, board, rng):
    """3 players, spare commands: move mercenary pieces (from random places) where the seat's
    pieces outweigh them, so that they capture them (a random such node in reach)."""
    mine = side_of(st, seat)
    nodes = st[ARMY_NODES + MERCENARY_ARMY]
    while nodes:
        loc = pick_node(nodes, rng)
        nodes = without(nodes, loc)
        for kind in range(MISSILE):
            if movable(st, MERCENARY_ARMY, loc, kind) == 0:
                continue
            if not room(st, rules, seat, MERCENARY_ARMY):
                return
            lures = 0
            targets = without(reach_mask(board, kind, loc), loc)
            while targets:
                node = lowest_bit(targets)
                targets &= targets - 1
                if side_power(st, mine, node) > power_value(st, kind):
                    lures |= np.int64(1) << node
            if lures:
                write(st, seat, MERCENARY_ARMY, MOVE, kind, loc, pick_node(lures, rng))


@njit(cache=True, _nrt=False, forceinline=False)
def plan(sid, prm, seat, st, rules, board, dist, rng):
    """Survey the state and write the seat's pad (what a rule test calls on a state it made)."""
    survey(st, board)
    write_pad(sid, prm, seat, st, rules, board, dist, rng)


@njit(cache=True, _nrt=False, forceinline=False)
def write_pad(sid, prm, seat, st, rules, board, dist, rng):
    """Write the seat's pad for this round (st[PAD_N + seat] commands at PAD) from the round's
    survey, which every seat's pad shares."""
    start_pad(st, seat)
    if sid == RANDOM:
        plan_random(prm, seat, st, rules, board, rng)
        return
    first, n_own = own_armies(st, seat)
    for army in range(first, first + n_own):
        if st[STANDING + army] == 0:
            continue
        set_guard(prm, army, st)
        attack_flags(prm, seat, army, st, rules, board, rng)
        if prm[MISSILES] != 0 and rules[R_MEGA_MISSILES] != 0:
            missiles(seat, army, st, rules, board, rng)
        in_opening = prm[OPENING_MOVES] != 0 and st[ROUND] < 2
        if in_opening:
            opening(seat, army, st, rules, board, rng)
        defend(prm, seat, army, st, rules, board, rng)
        raid(prm, seat, army, st, rules, board, rng)
        build_up(prm, seat, army, st, rules, board, rng)
        target = choose_target(st, board, army, rng)
        blockade(prm, seat, army, target, st, rules, board, rng)
        if not in_opening:  # the Infantry stay for the opening's Regiment
            advance(prm, seat, army, target, st, rules, board, dist, rng)
    if st[PLAYERS] == 3 and may_command(st, seat, MERCENARY_ARMY):
        lure_mercenary(seat, st, rules, board, rng)
    if st[PAD_N + seat] == 0:
        for army in range(first, first + n_own):
            if st[STANDING + army] == 1 and any_command(seat, army, st, rules, board, rng):
                return


@njit(cache=True, _nrt=False, forceinline=False)
def any_command(seat, army, st, rules, board, rng):
    """One command for an empty pad that will be carried out if the army has one (a seat never
    pays the penalty by choice): a random move (never into a blockaded Headquarters), else the
    cheapest piece its Power Units buy, else an exchange of three like pieces."""
    blockaded = rules[R_BLOCKADE] != 0 and opponent_at(st, army, hq_of(board, army))
    if random_move(st, board, seat, army, not blockaded, rng):
        return True
    reserve = RESERVE + army
    for kind in range(GROUP_II_OFFSET):  # cheapest first
        if st[PLAN_PU + army] >= price(st, kind) and in_stock(st, rules, army, kind):
            write(st, seat, army, BUY, kind, reserve, reserve)
            return True
    seen = 0
    pick = -1
    loc = next_place(st, army, -1)
    while loc < MAX_LOC:
        for kind in range(GROUP_II_OFFSET):
            if planned(st, army, loc, kind) >= upgrade_size(st) and (
                kind == INFANTRY or in_stock(st, rules, army, kind + GROUP_II_OFFSET)
            ):
                seen += 1
                if seen == 1 or rand_below(rng, seen) == 0:
                    pick = loc * N_KINDS + kind
        loc = next_place(st, army, loc)
    if pick < 0:
        return False
    loc, kind = pick // N_KINDS, pick % N_KINDS
    write(st, seat, army, UPGRADE, kind, loc, loc)
    return True


@njit(cache=True, _nrt=False, forceinline=False)
def decide(sid, prm, seat, st, game, rng):
    """The option strategy ``sid`` (parameter rows ``prm``) takes at the pending orders decision
    (docs/protocol.md): its own planner's row in the planner table ``game[3]``, ``game[4]`` (the
    kernel's ``planner_table`` holds every lineup seat's own). The pad itself is written when
    the round is resolved, from the game's stream, as in a scripted game; nothing is drawn
    here."""
    planner_ids = game[3]
    planner_params = game[4]
    for k in range(planner_ids.shape[0]):
        if planner_ids[k] != sid:
            continue
        same = True
        for p in range(len(PARAM_NAMES)):
            same = same and planner_params[k, p] == prm[seat, p]
        if same:
            return np.int64(k)
    raise ValueError("the strategy is not in the planner table")
