"""Power Struggle's scripted games: the same rules as a straight line.

The steps (meeting.py, turns.py) stop at every decision; played through them, scripted games ran
at 0.66x the games/s of this straight-line flow (docs/performance.md). So scripted games ask the
strategies directly, in loops over the very same rule helpers the steps call (appoint, move_in,
dismiss, place, entice, offer_made, offer_answered, action_begins, ...);
tests/contract/test_protocol.py proves the two flows play the same games."""

from numba import njit

from simcore.games.power_struggle import state as ps
from simcore.games.power_struggle.meeting import (
    appoint,
    appointing_seat,
    chairman_card_office,
    chairman_card_used,
    deal_order,
    displace,
    draw_events,
    extra_action_holder,
    meeting_begins,
    meeting_ends,
    new_head,
    order_recorded,
    seat_head,
)
from simcore.games.power_struggle.options import order_pick_ok
from simcore.games.power_struggle.state import (
    CHAIRMAN,
    COMMUNICATIONS,
    DEPT_TURNS,
    EVENT_FX,
    EVENT_WIDTH,
    HALF,
    HEAD,
    HOLDER,
    MEETING_EVENT,
    MONEY,
    N_DIVISIONS,
    ORDER,
    ORDER_SIZE,
    P_N,
    PLAYERS,
    SCRATCH,
    TRACE_LEN,
    card_on,
    employees,
    loses_employee,
    room,
    usable,
)
from simcore.games.power_struggle.transitions import (
    appoint_chairman,
    declare_if_due,
    gain,
    set_up,
    snapshot,
)
from simcore.games.power_struggle.turns import (
    action_begins,
    action_without_choices,
    bribe_loser,
    can_move_in,
    create_one_office,
    dismiss,
    effect_without_choice,
    entice,
    game_over,
    money_range,
    move_in,
    offer_answered,
    offer_made,
    open_two,
    place,
    second_attempt_allowed,
    turn_begins,
    turn_ends,
)
from simcore.kernel.chunk import record_event
from simcore.kernel.intrinsics import inline_njit
from strategies import power_struggle as strategy


@njit(cache=True, _nrt=False, forceinline=False)
def initial_appointments(st, sids, prm, rng, trace):
    for k in range(3 * st[PLAYERS]):
        seat = appointing_seat(st, k)
        division = strategy.choose_appointment(sids[seat], prm, seat, st, rng)
        appoint(st, seat, k // st[PLAYERS], division, trace)


@inline_njit()
def fill_new_department(st, seat, office, moved, sids, prm, rng, trace):
    """Up to ``moved`` of ``seat``'s Employees into its new Department ``office``."""
    for _ in range(moved):
        if not can_move_in(st, seat, office):
            break
        source = strategy.choose_source_office(sids[seat], prm, seat, office, st, rng)
        office = move_in(st, seat, office, source, trace)
    return office


@njit(cache=True, _nrt=False, forceinline=False)
def chairman_privilege(st, rules, sids, prm, rng, trace):
    holder = st[HOLDER + CHAIRMAN]
    if holder < 0 or not usable(st, holder, CHAIRMAN)[0]:
        return
    half = st[HALF + CHAIRMAN]
    st[SCRATCH + 1] = 0
    division = strategy.choose_chairman_privilege(sids[holder], prm, holder, half, st, rng)
    if division < 0:
        return
    office = chairman_card_office(st, holder, division, trace)
    if half == 0:
        office = fill_new_department(st, holder, office, st[SCRATCH + 1], sids, prm, rng, trace)
    chairman_card_used(st, division, office, trace)


@njit(cache=True, _nrt=False, forceinline=False)
def appoint_heads(st, sids, prm, rng, trace):
    for division in range(N_DIVISIONS):
        new, by_card = new_head(st, division)
        old = st[HEAD + division]
        if old >= 0 and old != new:
            to = strategy.choose_displaced(sids[old], prm, old, division, st, rng)
            displace(st, old, division, to, trace)
            seat_head(st, division, new, old, 2, to, by_card, trace)
        else:
            seat_head(st, division, new, old, 0 if old < 0 else 1, -1, by_card, trace)


@njit(cache=True, _nrt=False, forceinline=False)
def sort_events(st, rules, sids, prm, rng, trace):
    draw_events(st, rng)
    if not card_on(st, COMMUNICATIONS):
        deal_order(st, rng)
        st[P_N] = ORDER_SIZE
        order_recorded(st, -1, trace)
        return
    sorter = st[ps.SORTER]
    policy = strategy.order_events(sids[sorter], prm, sorter, st, rng)
    for position in range(ORDER_SIZE):  # the order the steps would take place by place
        st[P_N] = position
        if not order_pick_ok(st, st[ORDER + position]):
            raise ValueError("strategy's event order breaks the two ordering rules")
    st[P_N] = ORDER_SIZE
    order_recorded(st, policy, trace)


@njit(cache=True, _nrt=False, forceinline=False)
def meeting(st, rules, sids, prm, rng, trace):
    """Stage I: the Directors' Meeting's 7 steps."""
    if meeting_begins(st, trace):
        chairman_privilege(st, rules, sids, prm, rng, trace)
        holder = extra_action_holder(st, trace)
        if holder >= 0:
            take_action(holder, st, sids, prm, rng, trace)
    appoint_chairman(st, trace)
    appoint_heads(st, sids, prm, rng, trace)
    meeting_ends(st, trace)
    sort_events(st, rules, sids, prm, rng, trace)
    snapshot(st, trace)


@njit(cache=True, _nrt=False, forceinline=False)
def apply_event(event, position, st, sids, prm, rng, trace):
    """The event step of the non-standard event ``event``."""
    base = EVENT_FX + EVENT_WIDTH * event
    record_event(trace, st, TRACE_LEN, ps.EV_EVENT, event, position, st[base])
    for k in range(st[base]):
        fx = base + 1 + ps.FX_FIELDS * k
        if st[fx] != ps.FX_LOSE:
            effect_without_choice(st, event, fx, trace)
            continue
        richest, poorest = money_range(st)
        division = st[fx + 4]
        for seat in range(st[PLAYERS]):
            if not ps.matches(st, seat, st[fx + 1], division, st[MONEY + seat], richest, poorest):
                continue
            for _ in range(st[fx + 3]):
                if employees(st, seat, division) == 0:
                    break
                office = strategy.choose_fire_office(sids[seat], prm, seat, division, st, rng)
                dismiss(st, seat, division, office, ps.E_EVENT, trace)


@njit(cache=True, _nrt=False, forceinline=False)
def take_action(seat, st, sids, prm, rng, trace):
    """One action of ``seat`` (its strategy's choice, checked, then carried out)."""
    for k in range(5):
        st[SCRATCH + k] = 0
    kind = strategy.choose_action(sids[seat], prm, seat, st, rng)
    x = st[SCRATCH + 1]
    y = st[SCRATCH + 2]
    z = st[SCRATCH + 3]
    w = st[SCRATCH + 4]
    carry_out(seat, kind, x, y, z, w, st, sids, prm, rng, trace)


@njit(cache=True, _nrt=False, forceinline=False)
def carry_out(seat, kind, x, y, z, w, st, sids, prm, rng, trace):
    """Action ``kind`` of ``seat`` with its options; its further choices by the strategies."""
    x, z = action_begins(seat, kind, x, y, z, w, st, trace)
    if action_without_choices(seat, kind, x, y, z, st, trace):
        return
    if kind == ps.A_HIRE or kind == ps.A_DEVELOPMENT:
        taken = 0
        for _ in range(x):
            if room(st, seat) == 0:
                break  # the rest stay in the supply
            cause = ps.E_HIRE
            if kind == ps.A_DEVELOPMENT:
                office = strategy.choose_entice(sids[seat], prm, seat, taken, st, rng)
                taken = entice(st, seat, taken, office, trace)
                cause = ps.E_ENTICE_IN
            office = strategy.choose_employee_office(sids[seat], prm, seat, st, rng)
            place(st, seat, office, cause, trace)
    elif kind == ps.A_CREATE_TWO:
        for _ in range(z + w):
            source = strategy.choose_source_office(sids[seat], prm, seat, -1, st, rng)
            dismiss(st, seat, -1, source, ps.E_TRANSFER_OUT, trace)
        open_two(seat, x, y, z, w, st, trace)
    elif kind == ps.A_CREATE_ONE:
        office = create_one_office(seat, x, y, z, st, trace)
        fill_new_department(st, seat, office, y, sids, prm, rng, trace)
    elif kind == ps.A_BRIBE:
        bribe(seat, st, sids, prm, rng, trace)
    else:  # Influence (3 Employees for a point), Legal & Patents (1 or 2, a point each)
        dismissed = 0
        cause = ps.E_INFLUENCE if kind == ps.A_INFLUENCE else ps.E_LEGAL
        for _ in range(st[ps.RULE + ps.R_INFLUENCE_COST] if kind == ps.A_INFLUENCE else x):
            if employees(st, seat, -1) == 0:
                break
            office = strategy.choose_fire_office(sids[seat], prm, seat, -1, st, rng)
            dismiss(st, seat, -1, office, cause, trace)
            dismissed += 1
        if kind == ps.A_INFLUENCE:
            gain(st, seat, ps.INFLUENCE, 1, ps.P_INFLUENCE, trace)
        else:
            gain(st, seat, ps.INFLUENCE, dismissed, ps.P_LEGAL, trace)


@njit(cache=True, _nrt=False, forceinline=False)
def bribe(seat, st, sids, prm, rng, trace):
    """E) up to two attempts, then the Employees lost for refusals."""
    first = -1
    second = -1
    accepted = False
    for attempt in range(1, 3):
        card, amount = strategy.choose_bribe(sids[seat], prm, seat, attempt, st, rng)
        if card < 0 and attempt == 2:
            break
        target = offer_made(seat, attempt, card, amount, st, trace)
        accepted = strategy.accept_bribe(sids[target], prm, target, seat, card, amount, st, rng)
        offer_answered(seat, target, card, amount, attempt, accepted, st, trace)
        if attempt == 1:
            first = target
            if accepted:
                return
            if not second_attempt_allowed(st):
                break
        else:
            second = target
    for k in range(2):
        loser = bribe_loser(k, first, second, accepted)
        if loses_employee(st, loser):
            office = strategy.choose_victim_office(sids[seat], prm, seat, loser, st, rng)
            dismiss(st, loser, -1, office, ps.E_BRIBE_LOSS, trace)


@njit(cache=True, _nrt=False, forceinline=False)
def department_turns(st, rules, sids, prm, rng, trace):
    """Stage II until the meeting card (0), a declaration ends the game (1) or the turn cap
    (2)."""
    players = st[PLAYERS]
    for position in range(ORDER_SIZE):
        event = turn_begins(st, position, trace)
        if event == st[MEETING_EVENT]:
            return 0
        if event != st[ps.BONUS_EVENT]:
            apply_event(event, position, st, sids, prm, rng, trace)
        for k in range(players):
            seat = (st[ps.START_SEAT] + k) % players
            take_action(seat, st, sids, prm, rng, trace)
            declare_if_due(st, seat, rules, trace)
        outcome = turn_ends(st, rules, trace)
        if outcome != 0:
            return outcome
    return 0


@njit(cache=True, _nrt=False, forceinline=False)
def play_game(players, st, rules, sids, prm, rng, trace):
    """Set up and play one game: (winner or -1, winners bitmask, Department Turns, truncated)."""
    set_up(players, st, rules, rng, trace)
    initial_appointments(st, sids, prm, rng, trace)
    outcome = 0
    while outcome == 0:
        meeting(st, rules, sids, prm, rng, trace)
        outcome = department_turns(st, rules, sids, prm, rng, trace)
    winner, winners = game_over(st, rules, outcome, trace)
    return winner, winners, st[DEPT_TURNS], outcome == 2
