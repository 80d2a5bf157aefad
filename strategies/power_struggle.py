"""Scripted Power Struggle players: every decision a seat makes, dispatched on an integer id.

Five archetypes chase one Victory Point route each and share everything else: ``board``
(Influence: Board Room seats, resigning to the Board, Legal & Patents), ``investor`` (Shares),
``builder`` (Main Departments), ``corrupter`` (Corruption: a bribe whenever it can) and
``consultant`` (Counsel: resigning to and buying Consultants in new Divisions); ``random`` picks
uniformly among legal choices. Every strategy first takes an action that completes a Victory
Point when one exists, then its own route, then grows its Departments (found, hire, entice).

Separately, every strategy has ``order``, its policy as Divisional Head of Communications when it
sorts the round's 8 event cards: random, max (7 Department Turns), min (4), self (events that
hurt it after the Directors' Meeting card, good ones before, the Bonus Payment first when it
earns more than the average) or adversarial (the same against the leader among the others).

Each decision reads the seat's row of ``prm`` (columns in ``PARAM_NAMES`` order) and the public
board, its own cards and money. Scratch: decisions write their options to st[SCRATCH + 1..4]
(choose_action) or st[SCRATCH + 1] (choose_chairman_privilege); order_events uses st[SCRATCH +
0..11] while the events are sorted (no action is in progress then).
"""

import numpy as np
from numba import njit

from simcore.power_struggle_state import (
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
    ACCOUNTING,
    BONUS,
    BONUS_EVENT,
    CHAIRMAN,
    COMMUNICATIONS,
    CONSULT,
    CONSULTANT_PRICE,
    CONTROLLING,
    CORRUPTION,
    COUNSEL,
    EMP,
    EVENT_FX,
    EVENT_WIDTH,
    FACE,
    FX_FACE_DOWN,
    FX_FIELDS,
    FX_LOSE,
    FX_MORON,
    FX_MOTIVATION,
    FX_RECEIVE,
    HEAD,
    HEADS,
    HOLDER,
    HUMAN_RESOURCES,
    INFLUENCE,
    LEGAL,
    MAIN,
    MAX_EMPLOYEES,
    MAX_TURNS,
    MEETING_EVENT,
    MIN_BRIBE,
    MIN_TURNS,
    MONEY,
    N_ACTIONS,
    N_COMPETENCES,
    N_DIVISIONS,
    N_OFFICES,
    N_PRIVILEGES,
    N_SIZES,
    ORDER,
    ORDER_ADVERSARIAL,
    ORDER_MAX,
    ORDER_MIN,
    ORDER_POLICIES,
    ORDER_RANDOM,
    ORDER_SELF,
    ORDER_SIZE,
    OWNER,
    PER_BLOCK,
    PER_BOARD,
    PER_CONSULTANT,
    PER_DEPARTMENT,
    PER_EMPLOYEE,
    PER_FLAT,
    PER_MAIN,
    PILE,
    PLAYERS,
    ROWS,
    SCRATCH,
    SHARES,
    VP_THRESHOLD,
    WHO_ALL,
    WHO_BOARD,
    WHO_CHAIRMAN,
    WHO_HEAD,
    WHO_RICHEST,
    action_possible,
    board_members,
    consultants,
    counsel_divisions,
    departments,
    divisional_heads,
    employees,
    has_vacancy,
    main_departments,
    offices_of,
    room,
    routes,
    share_blocks,
    share_option_ok,
    track,
    usable,
    vacancies,
    victory_points,
)
from simcore.registry import Param, Strategy
from simcore.rng import rand_below, rand_float

RANDOM, BOARD, INVESTOR, BUILDER, CORRUPTER, CONSULTANT = range(6)

PARAM_NAMES = ("order", "accept_at", "offer", "second_offer", "p_bribe", "departments")
ORDER_PARAM, ACCEPT_AT, OFFER, SECOND_OFFER, P_BRIBE, TARGET_OFFICES = range(6)
ORDER_POLICY = Param(
    "order",
    "choice",
    "random",
    "how it sorts the 8 event cards as Divisional Head of Communications: random (every legal "
    "order equally likely), max (7 Department Turns), min (4), self (its own gain) or "
    "adversarial (against the leader among the others)",
    choices=ORDER_POLICIES,
)


def _archetype_params(accept_at: float, offer: float, p_bribe: float) -> tuple[Param, ...]:
    return (
        ORDER_POLICY,
        Param(
            "accept_at",
            "float",
            accept_at,
            "the smallest bribe (Pinats) it accepts for one of its Privilege cards",
            0.0,
            10_000_000.0,
        ),
        Param(
            "offer",
            "float",
            offer,
            "Pinats it offers in a first bribe attempt (rounded down to 50,000s, at least 50,000)",
            50_000.0,
            10_000_000.0,
        ),
        Param(
            "second_offer",
            "float",
            offer + 100_000.0,
            "Pinats it offers in a second attempt for the same card (0: no second attempt)",
            0.0,
            10_000_000.0,
        ),
        Param(
            "p_bribe",
            "float",
            p_bribe,
            "chance that it bribes on a turn when its route says so and it can pay the offer",
            0.0,
            1.0,
        ),
        Param(
            "departments",
            "int",
            3,
            "Departments and Main Departments it founds before it only hires and buys",
            0,
            36,
        ),
    )


STRATEGIES = (
    Strategy(
        "random",
        RANDOM,
        "uniform over legal choices: action kinds, offices, divisions, bribe cards and amounts "
        "(50,000 to 300,000), accepts a bribe with probability 1/2",
        (ORDER_POLICY,),
    ),
    Strategy(
        "board",
        BOARD,
        "Influence: two Board Room seats at the start, resigns Divisional Heads to the Board, "
        "uses Legal & Patents, trades 3 Employees for 1 Influence once it has 6",
        _archetype_params(250_000.0, 150_000.0, 1.0),
    ),
    Strategy(
        "investor",
        INVESTOR,
        "Shares: buys the largest block it can afford (using Accounting), else grows",
        _archetype_params(250_000.0, 150_000.0, 1.0),
    ),
    Strategy(
        "builder",
        BUILDER,
        "Main Departments: merges two Departments whenever it has two, buys one for 1,500,000 "
        "when it can, else grows",
        _archetype_params(250_000.0, 150_000.0, 1.0),
    ),
    Strategy(
        "corrupter",
        CORRUPTER,
        "Corruption: bribes for the most useful card of another player (offer, second_offer) "
        "with probability p_bribe, accepts bribes of accept_at or more",
        _archetype_params(100_000.0, 100_000.0, 1.0),
    ),
    Strategy(
        "consultant",
        CONSULTANT,
        "Counsel: resigns Divisional Heads to the Counsel track of Divisions where it has no "
        "Consultant, buys Consultants there for 2,000,000, else grows",
        _archetype_params(250_000.0, 150_000.0, 1.0),
    ),
)

# Division preferences per archetype (DIVISIONS order), for founding Departments: what the
# Division's Privilege card does for that route (random's row is unused).
PREFERENCES = (
    0, 0, 0, 0, 0, 0,
    1, 2, 3, 1, 4, 2,  # board: Legal & Patents turns Employees into Influence
    1, 2, 3, 4, 1, 3,  # investor: Accounting's larger blocks, Controlling's bonus
    2, 3, 4, 1, 1, 3,  # builder: Communications' event order, Human Resources' Employees
    2, 3, 4, 1, 1, 2,  # corrupter: Communications
    2, 3, 3, 2, 2, 2,  # consultant: any Division it has no Consultant in (scored apart)
)  # fmt: skip
# Which Privilege card a briber wants first, per archetype (most wanted first).
WANTED = (
    0, 1, 2, 3, 4, 5, 6,
    4, 6, 1, 5, 3, 0, 2,
    3, 5, 6, 1, 0, 4, 2,
    6, 1, 5, 0, 3, 4, 2,
    6, 2, 1, 3, 5, 0, 4,
    6, 1, 5, 3, 0, 4, 2,
)  # fmt: skip
# The order in which each archetype (board, investor, builder, corrupter, consultant) works on
# the Victory Point routes (COMPETENCES: influence 0, shares 1, main 2, corruption 3, counsel 4).
ROUTE_ORDER = (
    0, 4, 1, 2, 3,
    1, 0, 2, 4, 3,
    2, 1, 0, 4, 3,
    3, 0, 1, 2, 4,
    4, 0, 1, 2, 3,
)  # fmt: skip
EMPLOYEE_WORTH = 100_000  # what an Employee is worth to the event-ordering policies
CARD_WORTH = 300_000  # what a face-up Privilege card is worth to them
MOTIVATION_STEP_WORTH = 50_000  # per Motivation step and card whose effect depends on it


# --- small queries ----------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def param(prm, seat, which):
    return prm[seat, which]


@njit(cache=True, _nrt=False)
def pick_office(st, rng, seat, need_staff, need_room, exclude, division):
    """A uniformly random office of ``seat`` (with Employees / with room / not ``exclude`` /
    in ``division`` unless -1), or -1."""
    n = 0
    for office in range(N_OFFICES):
        if office_fits(st, office, seat, need_staff, need_room, exclude, division):
            n += 1
    if n == 0:
        return -1
    k = rand_below(rng, n)
    for office in range(N_OFFICES):
        if office_fits(st, office, seat, need_staff, need_room, exclude, division):
            if k == 0:
                return office
            k -= 1
    return -1


@njit(cache=True, _nrt=False)
def office_fits(st, office, seat, need_staff, need_room, exclude, division):
    return (
        st[OWNER + office] == seat
        and office != exclude
        and (division < 0 or office // ROWS == division)
        and (not need_staff or st[EMP + office] > 0)
        and (not need_room or st[EMP + office] < MAX_EMPLOYEES)
    )


@njit(cache=True, _nrt=False)
def pick_division(st, rng, need):
    """A uniformly random division with at least ``need`` vacant offices, or -1."""
    n = 0
    for division in range(N_DIVISIONS):
        if vacancies(st, division) >= need:
            n += 1
    if n == 0:
        return -1
    k = rand_below(rng, n)
    for division in range(N_DIVISIONS):
        if vacancies(st, division) >= need:
            if k == 0:
                return division
            k -= 1
    return -1


@njit(cache=True, _nrt=False)
def claim(st, division, seat):
    """Department Heads of ``seat`` in ``division`` (a Main Department counts 2)."""
    n = 0
    for row in range(ROWS):
        if st[OWNER + ROWS * division + row] == seat:
            n += st[HEADS + ROWS * division + row]
    return n


@njit(cache=True, _nrt=False)
def best_division(sid, seat, st):
    """Where a new Department helps ``seat`` most: a division it would then lead for the
    Divisional Head, weighted by what that division's card does for its route; -1 if none."""
    best = -1
    best_score = -1_000_000
    for division in range(N_DIVISIONS):
        if not has_vacancy(st, division):
            continue
        mine = claim(st, division, seat)
        other = 0
        for p in range(st[PLAYERS]):
            if p != seat:
                other = max(other, claim(st, division, p))
        score = 10 * PREFERENCES[6 * sid + division] - ROWS + vacancies(st, division)
        if mine <= other < mine + 1:
            score += 100
        elif mine > other:
            score += 20
        else:
            score -= 10 * (other - mine)
        if sid == CONSULTANT and st[CONSULT + N_DIVISIONS * seat + division] == 0:
            score += 30
        if score > best_score:
            best = division
            best_score = score
    return best


@njit(cache=True, _nrt=False)
def best_shares(st, seat):
    """(paid, received) of the allowed purchase receiving the most shares (ties: cheapest), or
    (-1, -1)."""
    best_paid = -1
    best_received = -1
    for received in range(N_SIZES, 0, -1):
        for paid in range(N_SIZES + 1):
            if share_option_ok(st, seat, paid, received):
                if best_received < 0 or (received == best_received and paid < best_paid):
                    best_paid = paid
                    best_received = received
        if best_received > 0:
            return best_paid, best_received
    return best_paid, best_received


@njit(cache=True, _nrt=False)
def set_choice(st, x, y, z, w):
    st[SCRATCH + 1] = x
    st[SCRATCH + 2] = y
    st[SCRATCH + 3] = z
    st[SCRATCH + 4] = w


@njit(cache=True, _nrt=False)
def head_without_consultant(st, seat):
    """A division ``seat`` heads where it has no Consultant yet, or -1."""
    for division in range(N_DIVISIONS):
        if st[HEAD + division] == seat and st[CONSULT + N_DIVISIONS * seat + division] == 0:
            return division
    return -1


@njit(cache=True, _nrt=False)
def new_counsel_division(st, seat):
    """The first division where ``seat`` has no Consultant."""
    for division in range(N_DIVISIONS):
        if st[CONSULT + N_DIVISIONS * seat + division] == 0:
            return division
    return 0


@njit(cache=True, _nrt=False)
def merge_pair(st, seat):
    """Two Departments of ``seat`` to merge: a pair in one division if any (merged in place),
    else its two smallest: (a, b, target -1)."""
    a = -1
    b = -1
    for office in range(N_OFFICES):
        if st[OWNER + office] != seat or st[HEADS + office] != 1:
            continue
        for other in range(office + 1, (office // ROWS + 1) * ROWS):
            if st[OWNER + other] == seat and st[HEADS + other] == 1:
                return office, other
        if a < 0 or st[EMP + office] < st[EMP + a]:
            b = a
            a = office
        elif b < 0 or st[EMP + office] < st[EMP + b]:
            b = office
    return a, b


# --- the action --------------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def finishing(seat, st):
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
        if influence + 1 == VP_THRESHOLD[INFLUENCE] and employees(st, seat, -1) >= 3:
            return A_INFLUENCE
    if track(st, seat, MAIN) + 1 == VP_THRESHOLD[MAIN]:
        if departments(st, seat, -1) >= 2:
            a, b = merge_pair(st, seat)
            set_choice(st, a, b, -1, 0)
            return A_MERGE
    if counsel_divisions(st, seat) + 1 == VP_THRESHOLD[COUNSEL]:
        division = head_without_consultant(st, seat)
        if division >= 0:
            set_choice(st, division, 1, 0, 0)
            return A_RESIGN
        if st[MONEY + seat] >= CONSULTANT_PRICE:
            set_choice(st, new_counsel_division(st, seat), 0, 0, 0)
            return A_BUY_CONSULTANT
    return -1


@njit(cache=True, _nrt=False)
def route_action(which, sid, prm, seat, st, rng):
    """The action that gains on Victory Point route ``which`` this turn, or -1."""
    if which == INFLUENCE:
        for division in range(N_DIVISIONS):
            if st[HEAD + division] == seat:
                set_choice(st, division, 0, 0, 0)
                return A_RESIGN
        if action_possible(st, seat, A_LEGAL):
            return A_LEGAL
        if employees(st, seat, -1) >= 6:
            return A_INFLUENCE
    elif which == SHARES:
        paid, received = best_shares(st, seat)
        if received > 0:
            set_choice(st, paid, received, 0, 0)
            return A_BUY_SHARES
    elif which == MAIN:
        if departments(st, seat, -1) >= 2:
            a, b = merge_pair(st, seat)
            set_choice(st, a, b, -1, 0)
            return A_MERGE
        if action_possible(st, seat, A_BUY_MAIN):
            set_choice(st, best_division(sid, seat, st), 0, 0, 0)
            return A_BUY_MAIN
    elif which == CORRUPTION:
        if action_possible(st, seat, A_BRIBE):
            if st[MONEY + seat] >= bribe_amount(prm, seat, OFFER, st) >= MIN_BRIBE:
                if rand_float(rng) < param(prm, seat, P_BRIBE):
                    return A_BRIBE
    else:
        division = head_without_consultant(st, seat)
        if division >= 0:
            set_choice(st, division, 1, 0, 0)
            return A_RESIGN
        if st[MONEY + seat] >= CONSULTANT_PRICE:
            set_choice(st, new_counsel_division(st, seat), 0, 0, 0)
            return A_BUY_CONSULTANT
    return -1


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
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
    if employees(st, seat, -1) >= 3:
        return A_INFLUENCE
    return A_PASS


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
def move_target(st, a, b, division, count):
    return (
        division != a // ROWS
        and (b < 0 or division != b // ROWS)
        and vacancies(st, division) >= count
    )


@njit(cache=True, _nrt=False)
def movable(st, a, b, count):
    for division in range(N_DIVISIONS):
        if move_target(st, a, b, division, count):
            return True
    return False


@njit(cache=True, _nrt=False)
def choose_action(sid, prm, seat, st, rng):
    """The action ``seat`` takes; its options go to st[SCRATCH + 1..4] (see ACTION_ARGS)."""
    if sid == RANDOM:
        return random_action(seat, st, rng)
    kind = finishing(seat, st)
    if kind < 0 and offices_of(st, seat) < np.int64(param(prm, seat, TARGET_OFFICES)):
        division = best_division(sid, seat, st)
        if division >= 0:
            set_choice(st, division, 0, 0, 0)
            kind = A_CREATE_ONE
    if kind < 0:
        kind = route(sid, prm, seat, st, rng)
    if kind < 0:
        kind = grow(seat, st)
    return kind


# --- the smaller decisions ---------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def choose_appointment(sid, prm, seat, st, rng):
    """Initial appointment: -1 the Board Room, else the division of a new Department."""
    if sid == RANDOM:
        choice = rand_below(rng, 1 + vacancies_count(st))
        if choice == 0:
            return -1
        return pick_division(st, rng, 1)
    if sid == BOARD and board_members(st, seat) < 2:
        return -1
    return best_division(sid, seat, st)


@njit(cache=True, _nrt=False)
def vacancies_count(st):
    n = 0
    for division in range(N_DIVISIONS):
        n += has_vacancy(st, division)
    return n


@njit(cache=True, _nrt=False)
def choose_employee_office(sid, prm, seat, st, rng):
    """Where a new Employee of ``seat`` goes: its Department with the fewest Employees (then its
    Main Department with the fewest)."""
    if sid == RANDOM:
        return pick_office(st, rng, seat, False, True, -1, -1)
    best = -1
    for office in range(N_OFFICES):
        if st[OWNER + office] != seat or st[EMP + office] >= MAX_EMPLOYEES:
            continue
        if (
            best < 0
            or st[HEADS + office] < st[HEADS + best]
            or (st[HEADS + office] == st[HEADS + best] and st[EMP + office] < st[EMP + best])
        ):
            best = office
    return best


@njit(cache=True, _nrt=False)
def choose_source_office(sid, prm, seat, exclude, st, rng):
    """Which of its offices gives up an Employee to a new Department: the one with the most
    (Main Departments first on a tie: they never close)."""
    if sid == RANDOM:
        return pick_office(st, rng, seat, True, False, exclude, -1)
    return fullest(st, seat, exclude, -1)


@njit(cache=True, _nrt=False)
def fullest(st, seat, exclude, division):
    best = -1
    for office in range(N_OFFICES):
        if not office_fits(st, office, seat, True, False, exclude, division):
            continue
        if (
            best < 0
            or st[EMP + office] > st[EMP + best]
            or (st[EMP + office] == st[EMP + best] and st[HEADS + office] > st[HEADS + best])
        ):
            best = office
    return best


@njit(cache=True, _nrt=False)
def choose_fire_office(sid, prm, seat, division, st, rng):
    """Which of its own Employees ``seat`` dismisses (in ``division`` unless -1)."""
    if sid == RANDOM:
        return pick_office(st, rng, seat, True, False, -1, division)
    return fullest(st, seat, -1, division)


@njit(cache=True, _nrt=False)
def choose_victim_office(sid, prm, chooser, victim, st, rng):
    """Which of ``victim``'s Employees ``chooser`` removes: one that closes a Department if it
    can, else from its smallest office."""
    if sid == RANDOM:
        return pick_office(st, rng, victim, True, False, -1, -1)
    return weakest(st, victim)


@njit(cache=True, _nrt=False)
def weakest(st, victim):
    best = -1
    for office in range(N_OFFICES):
        if st[OWNER + office] != victim or st[EMP + office] == 0:
            continue
        if (
            best < 0
            or st[HEADS + office] < st[HEADS + best]
            or (st[HEADS + office] == st[HEADS + best] and st[EMP + office] < st[EMP + best])
        ):
            best = office
    return best


@njit(cache=True, _nrt=False)
def choose_entice(sid, prm, seat, taken, st, rng):
    """Development: the office another player (not yet in ``taken``) loses an Employee from, or
    -1 for the supply."""
    if sid == RANDOM:
        n = 1
        for office in range(N_OFFICES):
            n += enticeable(st, office, seat, taken)
        k = rand_below(rng, n)
        for office in range(N_OFFICES):
            if enticeable(st, office, seat, taken):
                k -= 1
                if k == 0:
                    return office
        return -1
    leader = leader_of(st, seat)
    best = -1
    for office in range(N_OFFICES):
        if not enticeable(st, office, seat, taken):
            continue
        owner = st[OWNER + office]
        if best < 0 or (owner == leader and st[OWNER + best] != leader):
            best = office
        elif (owner == leader) == (st[OWNER + best] == leader) and (
            st[HEADS + office] < st[HEADS + best]
            or (st[HEADS + office] == st[HEADS + best] and st[EMP + office] < st[EMP + best])
        ):
            best = office
    return best


@njit(cache=True, _nrt=False)
def enticeable(st, office, seat, taken):
    owner = st[OWNER + office]
    return owner >= 0 and owner != seat and st[EMP + office] > 0 and not (taken >> owner) & 1


@njit(cache=True, _nrt=False)
def leader_of(st, seat):
    """The player other than ``seat`` with the most Victory Points (then money)."""
    best = -1
    for p in range(st[PLAYERS]):
        if p == seat:
            continue
        if best < 0:
            best = p
            continue
        vp = victory_points(st, p)
        best_vp = victory_points(st, best)
        if vp > best_vp or (vp == best_vp and st[MONEY + p] > st[MONEY + best]):
            best = p
    return best


@njit(cache=True, _nrt=False)
def choose_displaced(sid, prm, seat, division, st, rng):
    """A displaced Divisional Head goes to the Board Room (0) or the Counsel track (1)."""
    if sid == RANDOM:
        return rand_below(rng, 2)
    if sid == BOARD:
        return 0
    if st[CONSULT + N_DIVISIONS * seat + division] == 0 and (
        sid == CONSULTANT or counsel_divisions(st, seat) + 1 >= VP_THRESHOLD[COUNSEL]
    ):
        return 1
    return 0


@njit(cache=True, _nrt=False)
def bribe_amount(prm, seat, which, st):
    """The offer ``which`` (OFFER, SECOND_OFFER) in whole 50,000s, no more than its money."""
    amount = np.int64(param(prm, seat, which)) // MIN_BRIBE * MIN_BRIBE
    return min(amount, st[MONEY + seat] // MIN_BRIBE * MIN_BRIBE)


@njit(cache=True, _nrt=False)
def choose_bribe(sid, prm, seat, attempt, st, rng):
    """(card, amount) of a bribe attempt; card -1 skips a second attempt."""
    if st[MONEY + seat] < MIN_BRIBE:
        return -1, 0
    if sid == RANDOM:
        if attempt == 2 and rand_float(rng) < 0.5:
            return -1, 0
        n = 0
        for card in range(N_PRIVILEGES):
            n += st[HOLDER + card] != seat
        k = rand_below(rng, n)
        chosen = -1
        for card in range(N_PRIVILEGES):
            if st[HOLDER + card] != seat:
                if k == 0:
                    chosen = card
                k -= 1
        steps = rand_below(rng, min(st[MONEY + seat] // MIN_BRIBE, 6)) + 1
        return chosen, steps * MIN_BRIBE
    which = OFFER if attempt == 1 else SECOND_OFFER
    amount = bribe_amount(prm, seat, which, st)
    if amount < MIN_BRIBE:
        return -1, 0
    for k in range(N_PRIVILEGES):
        card = WANTED[N_PRIVILEGES * sid + k]
        if st[HOLDER + card] != seat and st[FACE + card] == 1:
            return card, amount
    for card in range(N_PRIVILEGES):
        if st[HOLDER + card] != seat:
            return card, amount
    return -1, 0


@njit(cache=True, _nrt=False)
def accept_bribe(sid, prm, seat, briber, card, amount, st, rng):
    if sid == RANDOM:
        return rand_float(rng) < 0.5
    return amount >= param(prm, seat, ACCEPT_AT)


@njit(cache=True, _nrt=False)
def choose_chairman_privilege(sid, prm, seat, half, st, rng):
    """The division of the Department (half 0) or Main Department (half 1) the Chairman card
    founds, or -1; Employees it moves into a new Department go to st[SCRATCH + 1]."""
    if sid == RANDOM:
        if rand_float(rng) < 0.25:
            return -1
        st[SCRATCH + 1] = rand_below(rng, min(employees(st, seat, -1), 2) + 1)
        return pick_division(st, rng, 1)
    st[SCRATCH + 1] = 0
    return best_division(sid, seat, st)


# --- sorting the event cards -------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def event_worth(st, event, seat):
    """What non-standard ``event`` is worth to ``seat`` in Pinats, as the ordering policies
    estimate it: payments exactly, an Employee lost EMPLOYEE_WORTH, a face-up card turned down
    CARD_WORTH, a Motivation step MOTIVATION_STEP_WORTH per face-up Human Resources,
    Accounting or Controlling card it holds (their effects grow as Motivation falls)."""
    base = EVENT_FX + EVENT_WIDTH * event
    worth = 0
    players = st[PLAYERS]
    richest = st[MONEY]
    for p in range(players):
        richest = max(richest, st[MONEY + p])
    for k in range(st[base]):
        fx = base + 1 + FX_FIELDS * k
        kind = st[fx]
        who = st[fx + 1]
        per = st[fx + 2]
        amount = st[fx + 3]
        division = st[fx + 4]
        if kind == FX_MOTIVATION:
            cards = 0
            for card in (HUMAN_RESOURCES, ACCOUNTING, CONTROLLING):
                cards += st[HOLDER + card] == seat and st[FACE + card] == 1
            worth -= amount * MOTIVATION_STEP_WORTH * cards
        elif kind == FX_FACE_DOWN:
            if st[HOLDER + division] == seat and st[FACE + division] == 1:
                worth -= CARD_WORTH
        elif kind == FX_MORON:
            head = st[HEAD + COMMUNICATIONS]
            if head == seat:
                worth -= amount * (players - 1)
            elif head >= 0:
                worth += amount
        else:
            if who == WHO_CHAIRMAN:
                hit = st[HEAD + CHAIRMAN] == seat
            elif who == WHO_HEAD:
                hit = st[HEAD + division] == seat
            elif who == WHO_BOARD:
                hit = board_members(st, seat) > 0
            elif who == WHO_RICHEST:
                hit = st[MONEY + seat] == richest
            elif who == WHO_ALL:
                hit = True
            else:
                hit = False
                poorest = st[MONEY]
                for p in range(players):
                    poorest = min(poorest, st[MONEY + p])
                hit = st[MONEY + seat] == poorest
            if not hit:
                continue
            if kind == FX_LOSE:
                worth -= EMPLOYEE_WORTH * min(amount, employees(st, seat, division))
                continue
            count = unit_count(st, seat, per)
            worth += amount * count if kind == FX_RECEIVE else -amount * count
    return worth


@njit(cache=True, _nrt=False)
def unit_count(st, seat, per):
    if per == PER_FLAT:
        return 1
    if per == PER_DEPARTMENT:
        return departments(st, seat, -1)
    if per == PER_MAIN:
        return main_departments(st, seat, -1)
    if per == PER_BOARD:
        return board_members(st, seat)
    if per == PER_EMPLOYEE:
        return employees(st, seat, -1)
    if per == PER_BLOCK:
        return share_blocks(st, seat)
    if per == PER_CONSULTANT:
        return consultants(st, seat)
    return divisional_heads(st, seat)


@njit(cache=True, _nrt=False)
def bonus_worth(st, seat):
    """The Bonus Payment ``seat`` would receive now, without the Controlling card."""
    return (
        st[BONUS] * share_blocks(st, seat)
        + st[BONUS + 1] * departments(st, seat, -1)
        + st[BONUS + 2] * main_departments(st, seat, -1)
        + st[BONUS + 3] * board_members(st, seat)
        + st[BONUS + 4] * (st[HEAD + CHAIRMAN] == seat)
    )


@njit(cache=True, _nrt=False)
def place_order(st, rng, turns, bonus_at, by_worth):
    """Write the round's order: the meeting card at ``turns``, the bonus at ``bonus_at``, the six
    drawn events in the other places: best worth first when ``by_worth`` (worths in
    st[SCRATCH + 6..11]), else in random order."""
    for i in range(6):
        st[SCRATCH + i] = i
    if by_worth:
        for i in range(6):  # selection sort, best first, stable
            best = i
            for j in range(i + 1, 6):
                if st[SCRATCH + 6 + st[SCRATCH + j]] > st[SCRATCH + 6 + st[SCRATCH + best]]:
                    best = j
            held = st[SCRATCH + best]
            for j in range(best, i, -1):
                st[SCRATCH + j] = st[SCRATCH + j - 1]
            st[SCRATCH + i] = held
    else:
        for i in range(5, 0, -1):
            j = rand_below(rng, i + 1)
            held = st[SCRATCH + i]
            st[SCRATCH + i] = st[SCRATCH + j]
            st[SCRATCH + j] = held
    k = 0
    for position in range(ORDER_SIZE):
        if position == turns:
            st[ORDER + position] = st[MEETING_EVENT]
        elif position == bonus_at:
            st[ORDER + position] = st[BONUS_EVENT]
        else:
            st[ORDER + position] = st[PILE + st[SCRATCH + k]]
            k += 1


@njit(cache=True, _nrt=False)
def order_events(sid, prm, seat, st, rng):
    """Sort the drawn events (st[PILE + 0..5]) with the two standard ones into st[ORDER + 0..7]
    under the two ordering rules; returns the policy used (ORDER_POLICIES)."""
    policy = np.int64(param(prm, seat, ORDER_PARAM))
    if policy == ORDER_RANDOM or policy == ORDER_MAX or policy == ORDER_MIN:
        if policy == ORDER_MAX:
            turns = MAX_TURNS
        elif policy == ORDER_MIN:
            turns = MIN_TURNS
        else:
            # Every legal order equally likely: the meeting card at position p (4..7) has p
            # places for the bonus before it, so P(p) is proportional to p.
            r = rand_below(rng, 4 + 5 + 6 + 7)
            turns = 4 if r < 4 else (5 if r < 9 else (6 if r < 15 else 7))
        place_order(st, rng, turns, rand_below(rng, turns), False)
        return policy
    judged = seat if policy == ORDER_SELF else leader_of(st, seat)
    sign = 1 if policy == ORDER_SELF else -1
    good = 0
    for i in range(6):
        st[SCRATCH + 6 + i] = sign * event_worth(st, st[PILE + i], judged)
        good += st[SCRATCH + 6 + i] >= 0
    turns = max(MIN_TURNS, min(MAX_TURNS, good + 1))
    average = 0
    for p in range(st[PLAYERS]):
        average += bonus_worth(st, p)
    early = bonus_worth(st, judged) * st[PLAYERS] >= average
    if policy == ORDER_ADVERSARIAL:
        early = not early
    place_order(st, rng, turns, 0 if early else turns - 1, True)
    return policy
