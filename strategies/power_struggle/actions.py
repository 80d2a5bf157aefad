"""The action a Power Struggle seat takes (``choose_action``): complete a Victory Point when it
can, found Departments up to ``departments`` offices, work on its routes in its archetype's order,
then grow; ``random`` draws uniformly among the possible actions and their options."""

import numpy as np
from numba import njit

from simcore.games.power_struggle.state import (
    A_BRIBE,
    A_BUY_CONSULTANT,
    A_BUY_MAIN,
    A_BUY_SHARES,
    A_CREATE_ONE,
    A_CREATE_TWO,
    A_DEVELOPMENT,
    A_HIRE,
    A_INFLUENCE,
    A_LEGAL,
    A_MERGE,
    A_MOVE,
    A_PASS,
    A_RESIGN,
    CORRUPTION,
    COUNSEL,
    HEAD,
    HEADS,
    INFLUENCE,
    LEGAL,
    MAIN,
    MAX_EMPLOYEES,
    N_ACTIONS,
    N_COMPETENCES,
    N_DIVISIONS,
    N_OFFICES,
    N_SIZES,
    OWNER,
    ROWS,
    SHARES,
    VP_THRESHOLD,
    action_possible,
    counsel_divisions,
    departments,
    divisional_heads,
    employees,
    has_vacancy,
    offices_of,
    room,
    routes,
    share_option_ok,
    track,
    usable,
    vacancies,
)
from simcore.kernel.rng import rand_below, rand_float
from strategies.power_struggle.archetypes import P_BRIBE, RANDOM, ROUTE_ORDER, TARGET_OFFICES
from strategies.power_struggle.queries import (
    argmax_step,
    best_division,
    best_shares,
    merge_pair,
    new_counsel_division,
    param,
    pick_division,
    set_choice,
)
from strategies.power_struggle.worth import ACTION_WORTH, resign_worth


@njit(cache=True, _nrt=False, forceinline=False)
def finishing(seat, st, rng):
    """An action that completes a Victory Point ``seat`` lacks, or -1 (options in scratch)."""
    shares = track(st, seat, SHARES)
    if shares < VP_THRESHOLD[SHARES]:
        paid, received = best_shares(st, seat)
        if received > 0 and shares + received >= VP_THRESHOLD[SHARES]:
            set_choice(st, paid, received, 0, 0)
            return A_BUY_SHARES
    influence = track(st, seat, INFLUENCE)
    if influence < VP_THRESHOLD[INFLUENCE]:
        legal_points = 0
        if action_possible(st, seat, A_LEGAL):
            legal_points = min(1 + usable(st, seat, LEGAL)[1], employees(st, seat, -1))
        if influence + legal_points >= VP_THRESHOLD[INFLUENCE]:
            return A_LEGAL
        if influence + 1 == VP_THRESHOLD[INFLUENCE] and action_possible(st, seat, A_INFLUENCE):
            return A_INFLUENCE
    if track(st, seat, MAIN) + 1 == VP_THRESHOLD[MAIN]:
        if departments(st, seat, -1) >= 2:
            a, b = merge_pair(st, seat, rng)
            set_choice(st, a, b, -1, 0)
            return A_MERGE
    if counsel_divisions(st, seat) + 1 == VP_THRESHOLD[COUNSEL]:
        division = new_counsel_division(st, seat, rng, True)
        if division >= 0:
            set_choice(st, division, 1, 0, 0)
            return A_RESIGN
        if action_possible(st, seat, A_BUY_CONSULTANT):
            set_choice(st, new_counsel_division(st, seat, rng, False), 0, 0, 0)
            return A_BUY_CONSULTANT
    return -1


@njit(cache=True, _nrt=False, forceinline=False)
def best_resignation(st, seat, to_counsel, rng):
    """The division whose Divisional Head ``seat`` resigns (to the Board, or to Counsel) for the
    most worth, if that is at least an action's worth; else -1."""
    best = -1
    best_worth = 0.0
    ties = 0
    for division in range(N_DIVISIONS):
        if st[HEAD + division] != seat:
            continue
        worth = resign_worth(st, seat, division, to_counsel)
        best, best_worth, ties = argmax_step(rng, best, best_worth, ties, division, worth)
    if best < 0 or best_worth < ACTION_WORTH:
        return -1
    return best


@njit(cache=True, _nrt=False, forceinline=False)
def route_action(which, sid, prm, seat, st, rng):
    """The action that gains on Victory Point route ``which`` this turn, or -1."""
    if which == INFLUENCE:
        division = best_resignation(st, seat, False, rng)
        if division >= 0:
            set_choice(st, division, 0, 0, 0)
            return A_RESIGN
        if action_possible(st, seat, A_LEGAL):
            return A_LEGAL
        if employees(st, seat, -1) >= 6 and action_possible(st, seat, A_INFLUENCE):
            return A_INFLUENCE
    elif which == SHARES:
        paid, received = best_shares(st, seat)
        if received > 0:
            set_choice(st, paid, received, 0, 0)
            return A_BUY_SHARES
    elif which == MAIN:
        if departments(st, seat, -1) >= 2:
            a, b = merge_pair(st, seat, rng)
            set_choice(st, a, b, -1, 0)
            return A_MERGE
        if action_possible(st, seat, A_BUY_MAIN):
            set_choice(st, best_division(sid, seat, st, rng), 0, 0, 0)
            return A_BUY_MAIN
    elif which == CORRUPTION:
        if action_possible(st, seat, A_BRIBE):
            if rand_float(rng) < param(prm, seat, P_BRIBE):
                return A_BRIBE
    else:
        division = best_resignation(st, seat, True, rng)
        if division >= 0:
            set_choice(st, division, 1, 0, 0)
            return A_RESIGN
        if action_possible(st, seat, A_BUY_CONSULTANT):
            set_choice(st, new_counsel_division(st, seat, rng, False), 0, 0, 0)
            return A_BUY_CONSULTANT
    return -1


@njit(cache=True, _nrt=False, forceinline=False)
def route(sid, prm, seat, st, rng):
    """The first of the archetype's routes (ROUTE_ORDER) still without its Victory Point that
    has an action now, or -1."""
    held = routes(st, seat)
    for k in range(N_COMPETENCES):
        which = ROUTE_ORDER[N_COMPETENCES * (sid - 1) + k]
        if (held >> which) & 1:
            continue
        kind = route_action(which, sid, prm, seat, st, rng)
        if kind >= 0:
            return kind
    return -1


@njit(cache=True, _nrt=False, forceinline=False)
def grow(seat, st):
    """Development, else hire, else buy shares, else trade Employees for Influence; pass."""
    if action_possible(st, seat, A_DEVELOPMENT):
        return A_DEVELOPMENT
    if room(st, seat) >= 2:
        return A_HIRE
    paid, received = best_shares(st, seat)
    if received > 0:
        set_choice(st, paid, received, 0, 0)
        return A_BUY_SHARES
    if room(st, seat) > 0:
        return A_HIRE
    if action_possible(st, seat, A_INFLUENCE):
        return A_INFLUENCE
    return A_PASS


@njit(cache=True, _nrt=False, forceinline=False)
def random_action(seat, st, rng):
    """A uniformly random possible action kind (pass only when nothing else is possible) with
    uniformly random options."""
    n = 0
    for kind in range(N_ACTIONS - 1):
        if action_possible(st, seat, kind) and random_options(kind, seat, st, rng, False):
            n += 1
    if n == 0:
        return A_PASS
    k = rand_below(rng, n)
    for kind in range(N_ACTIONS - 1):
        if action_possible(st, seat, kind) and random_options(kind, seat, st, rng, False):
            if k == 0:
                random_options(kind, seat, st, rng, True)
                return kind
            k -= 1
    return A_PASS


@njit(cache=True, _nrt=False, forceinline=False)
def random_options(kind, seat, st, rng, choose):
    """Whether ``kind`` has options a random player can draw (always true for most kinds); with
    ``choose`` draws them into the scratch."""
    if kind == A_CREATE_TWO:
        if choose:
            first = pick_division(st, rng, 1)
            second = pick_division(st, rng, 1)
            if second == first and vacancies(st, first) < 2:
                for division in range(N_DIVISIONS):
                    if division != first and has_vacancy(st, division):
                        second = division
            staff = employees(st, seat, -1)
            n1 = 2 + rand_below(rng, min(MAX_EMPLOYEES + 1, staff - 2) - 1)
            n2 = 2 + rand_below(rng, min(MAX_EMPLOYEES + 1, staff - n1) - 1)
            set_choice(st, first, second, n1, n2)
        return True
    if kind == A_CREATE_ONE:
        if choose:
            moved = rand_below(rng, min(employees(st, seat, -1), 3) + 1)
            set_choice(st, pick_division(st, rng, 1), moved, 0, 0)
        return True
    if kind == A_MOVE:
        if choose:
            random_move(seat, st, rng)
        return True
    if kind == A_MERGE:
        if choose:
            a = pick_office_kind(st, rng, seat, 1, -1)
            b = pick_office_kind(st, rng, seat, 1, a)
            target = -1
            if rand_float(rng) < 0.5:
                target = rand_below(rng, N_DIVISIONS)
                freed = (a // ROWS == target) + (b // ROWS == target)
                if vacancies(st, target) + freed < 1:
                    target = -1
            set_choice(st, a, b, target, 0)
        return True
    if kind == A_RESIGN:
        if choose:
            k = rand_below(rng, divisional_heads(st, seat))
            for division in range(N_DIVISIONS):
                if st[HEAD + division] == seat:
                    if k == 0:
                        set_choice(st, division, rand_below(rng, 2), 0, 0)
                    k -= 1
        return True
    if kind == A_BUY_MAIN:
        if choose:
            set_choice(st, pick_division(st, rng, 1), 0, 0, 0)
        return True
    if kind == A_BUY_CONSULTANT:
        if choose:
            set_choice(st, rand_below(rng, N_DIVISIONS), 0, 0, 0)
        return True
    if kind == A_BUY_SHARES:
        if choose:
            n = 0
            for paid in range(N_SIZES + 1):
                for received in range(1, N_SIZES + 1):
                    n += share_option_ok(st, seat, paid, received)
            k = rand_below(rng, n)
            for paid in range(N_SIZES + 1):
                for received in range(1, N_SIZES + 1):
                    if share_option_ok(st, seat, paid, received):
                        if k == 0:
                            set_choice(st, paid, received, 0, 0)
                        k -= 1
        return True
    return True


@njit(cache=True, _nrt=False, forceinline=False)
def pick_office_kind(st, rng, seat, heads, exclude):
    """A uniformly random office of ``seat`` with ``heads`` Managers, not ``exclude``."""
    n = 0
    for office in range(N_OFFICES):
        if st[OWNER + office] == seat and st[HEADS + office] == heads and office != exclude:
            n += 1
    k = rand_below(rng, n)
    for office in range(N_OFFICES):
        if st[OWNER + office] == seat and st[HEADS + office] == heads and office != exclude:
            if k == 0:
                return office
            k -= 1
    return -1


@njit(cache=True, _nrt=False, forceinline=False)
def random_move(seat, st, rng):
    """A random office that can move, sometimes with a second Department, to a random division
    with room for them."""
    n = 0
    for office in range(N_OFFICES):
        if st[OWNER + office] == seat and movable(st, office, -1, 1):
            n += 1
    k = rand_below(rng, n)
    a = -1
    for office in range(N_OFFICES):
        if st[OWNER + office] == seat and movable(st, office, -1, 1):
            if k == 0:
                a = office
            k -= 1
    b = -1
    if st[HEADS + a] == 1 and rand_float(rng) < 0.5:
        for office in range(N_OFFICES):
            if (
                office != a
                and st[OWNER + office] == seat
                and st[HEADS + office] == 1
                and movable(st, a, office, 2)
            ):
                b = office
                break
    count = 1 if b < 0 else 2
    n = 0
    for division in range(N_DIVISIONS):
        if move_target(st, a, b, division, count):
            n += 1
    k = rand_below(rng, n)
    for division in range(N_DIVISIONS):
        if move_target(st, a, b, division, count):
            if k == 0:
                set_choice(st, a, b, division, 0)
            k -= 1


@njit(cache=True, _nrt=False, forceinline=False)
def move_target(st, a, b, division, count):
    return (
        division != a // ROWS
        and (b < 0 or division != b // ROWS)
        and vacancies(st, division) >= count
    )


@njit(cache=True, _nrt=False, forceinline=False)
def movable(st, a, b, count):
    for division in range(N_DIVISIONS):
        if move_target(st, a, b, division, count):
            return True
    return False


@njit(cache=True, _nrt=False, forceinline=False)
def choose_action(sid, prm, seat, st, rng):
    """The action ``seat`` takes; its options go to st[SCRATCH + 1..4] (see ACTION_ARGS)."""
    if sid == RANDOM:
        return random_action(seat, st, rng)
    kind = finishing(seat, st, rng)
    if kind < 0 and offices_of(st, seat) < np.int64(param(prm, seat, TARGET_OFFICES)):
        division = best_division(sid, seat, st, rng)
        if division >= 0:
            set_choice(st, division, 0, 0, 0)
            kind = A_CREATE_ONE
    if kind < 0:
        kind = route(sid, prm, seat, st, rng)
    if kind < 0:
        kind = grow(seat, st)
    return kind
