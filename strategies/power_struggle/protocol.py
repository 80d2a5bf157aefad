"""Power Struggle's decisions as the protocol asks them (docs/protocol.md): ``decide`` answers any
decision point with the decision functions of this package, as a move code of
``simcore.games.power_struggle.rules.legal``."""

import numpy as np
from numba import njit

from simcore.games.power_struggle.options import action_move, order_candidate, order_pick_ok
from simcore.games.power_struggle.state import (
    BRIBE_STEP,
    CHAIRMAN,
    D_ACCEPT,
    D_ACTION,
    D_APPOINT,
    D_BRIBE,
    D_CHAIRMAN,
    D_DISPLACED,
    D_EMPLOYEE,
    D_ENTICE,
    D_FIRE,
    D_SOURCE,
    D_VICTIM,
    HALF,
    N_DIVISIONS,
    N_PRIVILEGES,
    ORDER,
    ORDER_SIZE,
    P_ACTOR,
    P_AMOUNT,
    P_ATTEMPT,
    P_CARD,
    P_DECISION,
    P_DIVISION,
    P_EXCLUDE,
    P_K,
    P_LOSER,
    P_N,
    P_ORDER_POLICY,
    P_TAKEN,
    SCRATCH,
)
from strategies.power_struggle.actions import choose_action
from strategies.power_struggle.decisions import (
    accept_bribe,
    choose_appointment,
    choose_bribe,
    choose_chairman_privilege,
    choose_displaced,
    choose_employee_office,
    choose_entice,
    choose_fire_office,
    choose_source_office,
    choose_victim_office,
)
from strategies.power_struggle.events import order_events


@njit(cache=True, _nrt=False, forceinline=False)
def pick_order(sid, prm, seat, st, rng):
    """D_ORDER: the card for the next place. The strategy sorts all 8 at once (``order_events``,
    into st[ORDER], its policy label to st[P_ORDER_POLICY]) when no plan of its own is there and
    answers each place from the plan; a place whose planned card is not legal (the plan was made
    after other picks, e.g. in a search's playout) takes the first legal card of the plan's later
    places, else the first legal card."""
    position = st[P_N]
    if st[P_ORDER_POLICY] < 0:
        for p in range(position):
            st[SCRATCH + 16 + p] = st[ORDER + p]
        st[P_ORDER_POLICY] = order_events(sid, prm, seat, st, rng)
        for p in range(position):
            st[ORDER + p] = st[SCRATCH + 16 + p]
    for p in range(position, ORDER_SIZE):
        if order_pick_ok(st, st[ORDER + p]):
            return st[ORDER + p]
    for i in range(ORDER_SIZE):
        if order_pick_ok(st, order_candidate(st, i)):
            return order_candidate(st, i)
    return -1


@njit(cache=True, _nrt=False, forceinline=False)
def decide(sid, prm, seat, st, rules, rng):
    """The option strategy ``sid`` takes at the decision pending in ``st`` (``seat`` decides):
    the answer of the decision function above, as the protocol's move code
    (docs/games/power-struggle.md, "Decision points")."""
    kind = st[P_DECISION]
    if kind == D_ACTION:
        for k in range(5):
            st[SCRATCH + k] = 0
        action = choose_action(sid, prm, seat, st, rng)
        return action_move(
            action, st[SCRATCH + 1], st[SCRATCH + 2], st[SCRATCH + 3], st[SCRATCH + 4]
        )
    if kind == D_EMPLOYEE:
        return choose_employee_office(sid, prm, seat, st, rng)
    if kind == D_SOURCE:
        return choose_source_office(sid, prm, seat, st[P_EXCLUDE], st, rng)
    if kind == D_FIRE:
        return choose_fire_office(sid, prm, seat, st[P_DIVISION], st, rng)
    if kind == D_BRIBE:
        card, amount = choose_bribe(sid, prm, seat, st[P_ATTEMPT], st, rng)
        return 0 if card < 0 else 1 + card + N_PRIVILEGES * (amount // BRIBE_STEP - 1)
    if kind == D_ACCEPT:
        accepted = accept_bribe(sid, prm, seat, st[P_ACTOR], st[P_CARD], st[P_AMOUNT], st, rng)
        return np.int64(1 if accepted else 0)
    if kind == D_VICTIM:
        return choose_victim_office(sid, prm, seat, st[P_LOSER], st, rng)
    if kind == D_ENTICE:
        return choose_entice(sid, prm, seat, st[P_TAKEN], st, rng) + 1
    if kind == D_DISPLACED:
        return np.int64(choose_displaced(sid, prm, seat, st[P_K], st, rng))
    if kind == D_APPOINT:
        return choose_appointment(sid, prm, seat, st, rng) + 1
    if kind == D_CHAIRMAN:
        st[SCRATCH + 1] = 0
        half = st[HALF + CHAIRMAN]
        division = choose_chairman_privilege(sid, prm, seat, half, st, rng)
        if division < 0:
            return np.int64(0)
        return 1 + division + N_DIVISIONS * (st[SCRATCH + 1] if half == 0 else 0)
    return pick_order(sid, prm, seat, st, rng)
