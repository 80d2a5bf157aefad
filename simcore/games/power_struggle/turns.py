"""Stage II of Power Struggle as resumable steps: the Department Turns (an event card turns up,
its effects, one action each), every action with its further decisions (hiring, founding
Departments, Development, Legal & Patents, Influence, bribes) and the end of the game.

Each ``step_*`` carries out one step of the rules (st[P_STEP], S_* of state.py) and returns True
when a seat must decide (``ask``); each ``answer_*`` carries out that seat's answer (rules.py
runs both). The other functions here are the rules the scripted turns (scripted.py) call too."""

import numpy as np
from numba import njit

from simcore.games.power_struggle import state as ps
from simcore.games.power_struggle.options import action_of, create_two_problem
from simcore.games.power_struggle.state import (
    COMMUNICATIONS,
    D_BRIBE,
    D_EMPLOYEE,
    D_ENTICE,
    D_FIRE,
    D_NONE,
    D_SOURCE,
    D_VICTIM,
    DEPT_TURNS,
    DEVELOPMENT,
    EMP,
    ENDING,
    EVENT_FX,
    EVENT_WIDTH,
    FACE,
    G_WINNERS,
    GAME_STATS,
    HALF,
    HEAD,
    HOLDER,
    HUMAN_RESOURCES,
    LEGAL,
    MAX_EMPLOYEES,
    MEETING_EVENT,
    MONEY,
    MOTIVATION,
    N_OFFICES,
    N_PRIVILEGES,
    N_TRACKS,
    ORDER,
    OWNER,
    P_ACCEPTED,
    P_ACTOR,
    P_AMOUNT,
    P_ATTEMPT,
    P_CARD,
    P_CAUSE,
    P_DECISION,
    P_DIVISION,
    P_EVENT,
    P_EXCLUDE,
    P_FIRST,
    P_FX,
    P_FX_SEAT,
    P_K,
    P_LIMIT,
    P_LOSER,
    P_N,
    P_OFFICE,
    P_OUTCOME,
    P_POS,
    P_RESUME,
    P_SEAT,
    P_SECOND,
    P_STEP,
    P_TAKEN,
    P_TARGET,
    P_THEN,
    P_W,
    P_WINNER,
    P_WINNERS,
    P_X,
    P_Y,
    P_Z,
    PLAYERS,
    ROUND,
    ROWS,
    S_ACCEPT,
    S_ACTION,
    S_ACTIONS,
    S_AFTER_ACTION,
    S_BRIBE,
    S_BRIBE_LOSERS,
    S_CREATE_TWO,
    S_DEVELOP,
    S_DEVELOP_PLACE,
    S_EFFECT,
    S_END,
    S_EVENT,
    S_FOUND,
    S_HIRE,
    S_INFLUENCE,
    S_LEGAL,
    S_MEETING,
    S_STOP,
    S_TURN,
    ST_ACTIONS,
    ST_BRIBES_ACCEPTED,
    ST_BRIBES_OFFERED,
    ST_BRIBES_TAKEN,
    ST_COMM_ROUNDS,
    ST_COMM_SHARE,
    ST_CONSULTANTS,
    ST_EMPLOYEES,
    ST_INFLUENCE,
    ST_MONEY,
    ST_VP,
    ST_VP_INFLUENCE,
    TRACE_LEN,
    TRACK,
    action_possible,
    bribe_most,
    consultants,
    employees,
    has_vacancy,
    loses_employee,
    motivation_bonus,
    room,
    routes,
    usable,
    victory_points,
)
from simcore.games.power_struggle.transitions import (
    add_consultant,
    add_employee,
    ask,
    bonus_payment,
    buy_shares,
    change_money,
    charge,
    check_division,
    check_office,
    declare_if_due,
    gain,
    merge,
    move_offices,
    open_office,
    record_standing,
    remove_employees,
    resign,
    set_motivation,
    shifted,
    snapshot,
    stat,
    turn_face_down,
    winners_of,
)
from simcore.kernel.chunk import record_event
from simcore.kernel.intrinsics import inline_njit

# --- founding a Department (the Chairman card's Division half, action B2) -------------------------


@inline_njit()
def found(st, seat, office, moved, then):
    """``seat``'s new Department ``office`` takes up to ``moved`` of its Employees from its other
    offices, one by one (D_SOURCE), while it has room; then step ``then``."""
    st[P_ACTOR] = seat
    st[P_OFFICE] = office
    st[P_EXCLUDE] = office
    st[P_N] = 0
    st[P_LIMIT] = moved
    st[P_THEN] = then
    st[P_STEP] = S_FOUND


@njit(cache=True, _nrt=False, forceinline=False)
def step_found(st):
    seat = st[P_ACTOR]
    if st[P_N] >= st[P_LIMIT] or not can_move_in(st, seat, st[P_OFFICE]):
        st[P_STEP] = st[P_THEN]
        return False
    return ask(st, D_SOURCE, seat)


@inline_njit()
def can_move_in(st, seat, office):
    """The new Department ``office`` has room and ``seat`` has Employees elsewhere."""
    return st[EMP + office] < MAX_EMPLOYEES and employees(st, seat, -1) != st[EMP + office]


@inline_njit()
def move_in(st, seat, office, source, trace):
    """One of ``seat``'s Employees from ``source`` into its new Department ``office``; returns
    where that Department is now (offices below a closed one move up)."""
    if source == office:
        raise ValueError("strategy moved Employees from the new Department into itself")
    check_office(st, source, seat, True, False)
    office = shifted(office, remove_employees(st, source, 1, ps.E_TRANSFER_OUT, trace))
    add_employee(st, office, ps.E_TRANSFER_IN, trace)
    return office


@njit(cache=True, _nrt=False, forceinline=False)
def answer_source(st, move, trace):
    """An Employee of office ``move`` into the new Department (or, creating two Departments,
    taken from its office)."""
    seat = st[P_SEAT]
    if st[P_STEP] == S_FOUND:
        st[P_OFFICE] = move_in(st, seat, st[P_OFFICE], move, trace)
        st[P_EXCLUDE] = st[P_OFFICE]
    else:
        dismiss(st, seat, -1, move, ps.E_TRANSFER_OUT, trace)
    st[P_N] += 1


# --- Stage II: the Department Turns ---------------------------------------------------------------


@njit(cache=True, _nrt=False, forceinline=False)
def action_done(st):
    st[P_STEP] = st[P_RESUME]
    return False


@njit(cache=True, _nrt=False, forceinline=False)
def step_turn(st, trace):
    """Stage II: the next event card turns up; the meeting card ends the round, any other is a
    Department Turn: its event step, then one action each clockwise from the starting player."""
    event = turn_begins(st, st[P_POS], trace)
    st[P_K] = 0
    if event == st[MEETING_EVENT]:
        st[P_STEP] = S_MEETING
    elif event == st[ps.BONUS_EVENT]:
        st[P_STEP] = S_ACTIONS
    else:
        st[P_EVENT] = event
        st[P_STEP] = S_EVENT
    return False


@inline_njit()
def turn_begins(st, position, trace):
    """The card at ``position`` turns up: the meeting card ends the round; any other begins a
    Department Turn (the Bonus Payment paid at once). Returns the card."""
    event = st[ORDER + position]
    st[ps.REVEALED] = position + 1
    if event == st[MEETING_EVENT]:
        record_event(trace, st, TRACE_LEN, ps.EV_EVENT, ps.EV_MEETING_CARD, position, 0)
        return event
    if position == 0:
        st[ps.START_SEAT] = st[HEAD + COMMUNICATIONS]
    st[DEPT_TURNS] += 1
    record_event(trace, st, TRACE_LEN, ps.EV_TURN, position + 1, st[DEPT_TURNS],
                 st[ps.START_SEAT])  # fmt: skip
    if event == st[ps.BONUS_EVENT]:
        record_event(trace, st, TRACE_LEN, ps.EV_EVENT, ps.EV_BONUS_CARD, position, 0)
        bonus_payment(st, trace)
    return event


@njit(cache=True, _nrt=False, forceinline=False)
def step_event(st, trace):
    event = st[P_EVENT]
    record_event(trace, st, TRACE_LEN, ps.EV_EVENT, event, st[P_POS],
                 st[EVENT_FX + EVENT_WIDTH * event])  # fmt: skip
    st[P_FX] = 0
    st[P_FX_SEAT] = 0
    st[P_N] = 0
    st[P_STEP] = S_EFFECT
    return False


@njit(cache=True, _nrt=False, forceinline=False)
def step_effect(st, trace):
    """The event step: the effects of the non-standard event, in the card's order; a player
    losing Employees chooses each one (D_FIRE)."""
    event = st[P_EVENT]
    base = EVENT_FX + EVENT_WIDTH * event
    players = st[PLAYERS]
    while st[P_FX] < st[base]:
        fx = base + 1 + ps.FX_FIELDS * st[P_FX]
        if st[fx] != ps.FX_LOSE:
            effect_without_choice(st, event, fx, trace)
        else:
            # Dismissing Employees moves no money: the richest and poorest stay as they were.
            richest, poorest = money_range(st)
            while st[P_FX_SEAT] < players:
                seat = st[P_FX_SEAT]
                division = st[fx + 4]
                if ps.matches(st, seat, st[fx + 1], division, st[MONEY + seat], richest, poorest):
                    if st[P_N] < st[fx + 3] and employees(st, seat, division) > 0:
                        st[P_DIVISION] = division
                        st[P_CAUSE] = ps.E_EVENT
                        return ask(st, D_FIRE, seat)
                st[P_FX_SEAT] += 1
                st[P_N] = 0
            st[P_FX_SEAT] = 0
        st[P_FX] += 1
    st[P_STEP] = S_ACTIONS
    return False


@inline_njit()
def money_range(st):
    """(the most, the least money a player has)."""
    richest = st[MONEY]
    poorest = st[MONEY]
    for seat in range(st[PLAYERS]):
        richest = max(richest, st[MONEY + seat])
        poorest = min(poorest, st[MONEY + seat])
    return richest, poorest


@inline_njit()
def effect_without_choice(st, event, fx, trace):
    """An effect (at ``fx`` of the event's row) other than losing Employees: Motivation, a card
    face down, the Moron, a payment to or from the Bank for each player it names."""
    kind = st[fx]
    who = st[fx + 1]
    per = st[fx + 2]
    amount = st[fx + 3]
    division = st[fx + 4]
    players = st[PLAYERS]
    if kind == ps.FX_MOTIVATION:
        set_motivation(st, st[MOTIVATION] + amount, event, trace)
    elif kind == ps.FX_FACE_DOWN:
        turn_face_down(st, division, 1, trace)
    elif kind == ps.FX_MORON:
        head = st[HEAD + COMMUNICATIONS]
        if head < 0:
            return  # the Divisional Head of Communications has resigned
        for j in range(1, players):
            other = (head + j) % players
            paid = min(amount, st[MONEY + head])
            if paid > 0:
                change_money(st, head, -paid, ps.PAY_MORON, event, 0, trace)
            change_money(st, other, amount, ps.PAY_MORON, event, amount - paid, trace)
    else:
        richest, poorest = money_range(st)
        for seat in range(players):
            if not ps.matches(st, seat, who, division, st[MONEY + seat], richest, poorest):
                continue
            due = amount * ps.units(st, seat, per)
            if due <= 0:
                continue
            if kind == ps.FX_RECEIVE:
                change_money(st, seat, due, ps.PAY_EVENT, event, 0, trace)
            else:
                charge(st, seat, due, ps.PAY_EVENT, event, trace)


@inline_njit()
def dismiss(st, seat, division, office, cause, trace):
    """One of ``seat``'s Employees in ``office`` (in ``division`` unless -1) back to the supply."""
    check_office(st, office, seat, True, False)
    if division >= 0 and office // ROWS != division:
        raise ValueError("strategy dismissed an Employee outside the division")
    remove_employees(st, office, 1, cause, trace)


@njit(cache=True, _nrt=False, forceinline=False)
def answer_fire(st, move, trace):
    """One of the deciding player's Employees in office ``move`` back to the supply."""
    dismiss(st, st[P_SEAT], st[P_DIVISION], move, st[P_CAUSE], trace)
    st[P_N] += 1


@njit(cache=True, _nrt=False, forceinline=False)
def step_actions(st, rules, trace):
    """The action step: the next player's action, or the Department Turn is over: the game ends
    if somebody declared (or at the turn cap), else the next card turns up."""
    players = st[PLAYERS]
    if st[P_K] < players:
        start_action(st, (st[ps.START_SEAT] + st[P_K]) % players, S_AFTER_ACTION)
        return False
    st[P_OUTCOME] = turn_ends(st, rules, trace)
    st[P_STEP] = S_END
    if st[P_OUTCOME] == 0:
        st[P_POS] += 1
        st[P_STEP] = S_TURN
    return False


@inline_njit()
def turn_ends(st, rules, trace):
    """After a Department Turn: 1 if somebody declared (the game ends), 2 at the turn cap, else
    0."""
    record_standing(st, trace)
    if st[ENDING] == 1:
        return 1
    if st[DEPT_TURNS] >= np.int64(rules[ps.R_MAX_TURNS]):
        return 2
    return 0


@njit(cache=True, _nrt=False, forceinline=False)
def step_after_action(st, rules, trace):
    """A player with the Victory Points at the end of its own action declares."""
    declare_if_due(st, (st[ps.START_SEAT] + st[P_K]) % st[PLAYERS], rules, trace)
    st[P_K] += 1
    st[P_STEP] = S_ACTIONS
    return False


@njit(cache=True, _nrt=False, forceinline=False)
def start_action(st, seat, resume):
    """``seat`` takes an action (D_ACTION); the rules go on with step ``resume``."""
    st[P_ACTOR] = seat
    st[P_RESUME] = resume
    st[P_STEP] = S_ACTION


@njit(cache=True, _nrt=False, forceinline=False)
def answer_action(st, move, trace):
    """Action move (``action_move``: kind and options), carried out; those with further
    decisions go on in their steps."""
    seat = st[P_ACTOR]
    kind, x, y, z, w = action_of(move)
    x, z = action_begins(seat, kind, x, y, z, w, st, trace)
    st[P_X] = x
    st[P_Y] = y
    st[P_Z] = z
    st[P_W] = w
    st[P_N] = 0
    st[P_LIMIT] = x
    st[P_STEP] = st[P_RESUME]
    if action_without_choices(seat, kind, x, y, z, st, trace):
        return
    if kind == ps.A_HIRE:
        st[P_STEP] = S_HIRE
    elif kind == ps.A_CREATE_TWO:
        st[P_LIMIT] = z + w
        st[P_EXCLUDE] = -1
        st[P_STEP] = S_CREATE_TWO
    elif kind == ps.A_CREATE_ONE:
        found(st, seat, create_one_office(seat, x, y, z, st, trace), y, st[P_RESUME])
    elif kind == ps.A_BRIBE:
        st[P_ATTEMPT] = 1
        st[P_STEP] = S_BRIBE
    elif kind == ps.A_INFLUENCE:
        st[P_LIMIT] = st[ps.RULE + ps.R_INFLUENCE_COST]
        st[P_DIVISION] = -1
        st[P_CAUSE] = ps.E_INFLUENCE
        st[P_STEP] = S_INFLUENCE
    elif kind == ps.A_DEVELOPMENT:
        st[P_TAKEN] = 0
        st[P_STEP] = S_DEVELOP
    elif kind == ps.A_LEGAL:
        st[P_DIVISION] = -1
        st[P_CAUSE] = ps.E_LEGAL
        st[P_STEP] = S_LEGAL


@inline_njit()
def action_begins(seat, kind, x, y, z, w, st, trace):
    """Action ``kind`` with its options (ACTION_ARGS), checked and recorded; the kernel fills in
    the Employees a hire, a Human Resources bonus, Development or Legal & Patents give: returns
    (x, z) as filled in. Two Departments from its Employees are checked here too."""
    if not 0 <= kind < ps.N_ACTIONS or not action_possible(st, seat, kind):
        raise ValueError("strategy chose an action it cannot take")
    if kind == ps.A_HIRE:
        x = st[ps.RULE + ps.R_HIRED] + motivation_bonus(st, seat, HUMAN_RESOURCES)
    elif kind == ps.A_CREATE_ONE:
        z = motivation_bonus(st, seat, HUMAN_RESOURCES)
    elif kind == ps.A_DEVELOPMENT:
        x = 1 if usable(st, seat, DEVELOPMENT)[1] == 0 else 3
    elif kind == ps.A_LEGAL:
        x = 1 if usable(st, seat, LEGAL)[1] == 0 else 2
    record_event(trace, st, TRACE_LEN, ps.EV_ACTION, seat, kind, x, y, z, w)
    if kind != ps.A_PASS:
        st[stat(seat, ST_ACTIONS)] += 1
    if kind == ps.A_CREATE_TWO:
        problem = create_two_problem(st, seat, x, y, z, w)
        if problem == 1:
            raise ValueError("strategy created Departments outside the divisions")
        if problem == 2:
            raise ValueError("strategy created Departments in a division without vacant offices")
        if problem == 3:
            raise ValueError("strategy placed fewer than 2 or more than 7 Employees")
        if problem == 4:
            raise ValueError("strategy placed more Employees than it has")
    return x, z


@inline_njit()
def action_without_choices(seat, kind, x, y, z, st, trace):
    """Carry out an action that asks nothing more (move, merge, resign, buy, pass); False for
    the others."""
    if kind == ps.A_MOVE:
        move_offices(seat, x, y, z, st, trace)
    elif kind == ps.A_MERGE:
        merge(seat, x, y, z, st, trace)
    elif kind == ps.A_RESIGN:
        resign(seat, x, y == 1, st, trace)
    elif kind == ps.A_BUY_MAIN:
        check_division(x)
        if not has_vacancy(st, x):
            raise ValueError("strategy bought a Main Department where no office is vacant")
        charge(st, seat, st[ps.RULE + ps.R_MAIN_PRICE], ps.PAY_MAIN, -1, trace)
        open_office(st, seat, x, 2, 0, ps.O_BUY_MAIN, trace)
        gain(st, seat, ps.MAIN, 1, ps.P_BUY_MAIN, trace)
    elif kind == ps.A_BUY_CONSULTANT:
        check_division(x)
        charge(st, seat, st[ps.RULE + ps.R_CONSULTANT_PRICE], ps.PAY_CONSULTANT, -1, trace)
        add_consultant(st, seat, x, ps.C_BOUGHT, trace)
    elif kind == ps.A_BUY_SHARES:
        buy_shares(seat, x, y, st, trace)
    else:
        return kind == ps.A_PASS
    return True


@inline_njit()
def create_one_office(seat, division, moved, extra, st, trace):
    """B2) a new Department with 1 + ``extra`` (Human Resources) new Employees; ``moved`` of its
    own may follow."""
    check_division(division)
    if not has_vacancy(st, division) or moved < 0:
        raise ValueError("strategy created a Department where no office is vacant")
    return open_office(st, seat, division, 1, 1 + extra, ps.O_CREATE, trace)


@inline_njit()
def open_two(seat, first, second, n1, n2, st, trace):
    """B1) the 2 Departments, once their Employees are taken: 1 in each replaced by a Manager."""
    open_office(st, seat, first, 1, n1 - 1, ps.O_CREATE, trace)
    open_office(st, seat, second, 1, n2 - 1, ps.O_CREATE, trace)


@njit(cache=True, _nrt=False, forceinline=False)
def step_hire(st):
    """A) the hired Employees (2, R_HIRED, plus the Human Resources card's) one by one into
    offices of its choice (D_EMPLOYEE); without room the rest stay in the supply."""
    seat = st[P_ACTOR]
    if st[P_N] < st[P_LIMIT] and room(st, seat) > 0:
        return ask(st, D_EMPLOYEE, seat)
    return action_done(st)


@njit(cache=True, _nrt=False, forceinline=False)
def answer_employee(st, move, trace):
    """A new or enticed Employee into office ``move``."""
    st[P_N] += 1
    if st[P_STEP] == S_HIRE:
        place(st, st[P_SEAT], move, ps.E_HIRE, trace)
    else:
        place(st, st[P_SEAT], move, ps.E_ENTICE_IN, trace)
        st[P_STEP] = S_DEVELOP


@inline_njit()
def place(st, seat, office, cause, trace):
    """A new or enticed Employee into ``seat``'s office ``office``."""
    check_office(st, office, seat, False, True)
    add_employee(st, office, cause, trace)


@njit(cache=True, _nrt=False, forceinline=False)
def step_create_two(st, trace):
    """B1) n1 + n2 of its Employees taken one by one (D_SOURCE), then the 2 Departments, 1
    Employee in each replaced by its Manager."""
    seat = st[P_ACTOR]
    if st[P_N] < st[P_LIMIT]:
        return ask(st, D_SOURCE, seat)
    open_two(seat, st[P_X], st[P_Y], st[P_Z], st[P_W], st, trace)
    return action_done(st)


@njit(cache=True, _nrt=False, forceinline=False)
def step_influence(st, trace):
    """F1) 3 (R_INFLUENCE_COST) of its Employees of its choice back to the supply (D_FIRE), 1
    Influence point."""
    seat = st[P_ACTOR]
    if st[P_N] < st[P_LIMIT]:
        return ask(st, D_FIRE, seat)
    gain(st, seat, ps.INFLUENCE, 1, ps.P_INFLUENCE, trace)
    return action_done(st)


@njit(cache=True, _nrt=False, forceinline=False)
def step_legal(st, trace):
    """G) Legal & Patents: 1 (Bribed: 2) of its Employees back to the supply while it has any
    (D_FIRE), as many Influence points."""
    seat = st[P_ACTOR]
    if st[P_N] < st[P_LIMIT] and employees(st, seat, -1) > 0:
        return ask(st, D_FIRE, seat)
    gain(st, seat, ps.INFLUENCE, st[P_N], ps.P_LEGAL, trace)
    return action_done(st)


@njit(cache=True, _nrt=False, forceinline=False)
def step_develop(st):
    """G) Development: entice 1 (Bribed: 3) Employees, each from another player (at most 1 from
    each) or from the supply (D_ENTICE), into its own offices (D_EMPLOYEE), while it has room."""
    seat = st[P_ACTOR]
    if st[P_N] < st[P_LIMIT] and room(st, seat) > 0:
        return ask(st, D_ENTICE, seat)
    return action_done(st)


@njit(cache=True, _nrt=False, forceinline=False)
def answer_entice(st, move, trace):
    """Move 0: from the supply; else from office move - 1."""
    st[P_TAKEN] = entice(st, st[P_SEAT], st[P_TAKEN], move - 1, trace)
    st[P_STEP] = S_DEVELOP_PLACE


@inline_njit()
def entice(st, seat, taken, office, trace):
    """Development takes an Employee of ``office`` (-1: from the supply) for ``seat``; returns
    the players taken from (bit p)."""
    if office < 0:
        return taken
    victim = st[OWNER + office] if office < N_OFFICES else -1
    if victim < 0 or victim == seat or st[EMP + office] == 0:
        raise ValueError("strategy enticed an Employee from an office it may not")
    if (taken >> victim) & 1:
        raise ValueError("strategy enticed twice from the same player")
    remove_employees(st, office, 1, ps.E_ENTICE_OUT, trace)
    return taken | (1 << victim)


@njit(cache=True, _nrt=False, forceinline=False)
def step_bribe(st):
    """E) a bribe attempt (D_BRIBE: a card another player holds and Pinats; a second attempt may
    be skipped)."""
    return ask(st, D_BRIBE, st[P_ACTOR])


@njit(cache=True, _nrt=False, forceinline=False)
def answer_bribe(st, move, trace):
    """Move 0: no second attempt; else 1 + card + 7 * (Pinats / 50,000 - 1)."""
    seat = st[P_ACTOR]
    attempt = st[P_ATTEMPT]
    if move == 0 and attempt == 2:
        st[P_SECOND] = -1
        st[P_ACCEPTED] = 0
        st[P_N] = 0
        st[P_STEP] = S_BRIBE_LOSERS
        return
    card = (move - 1) % N_PRIVILEGES if move > 0 else -1
    amount = ((move - 1) // N_PRIVILEGES + 1) * ps.BRIBE_STEP
    st[P_TARGET] = offer_made(seat, attempt, card, amount, st, trace)
    st[P_CARD] = card
    st[P_AMOUNT] = amount
    st[P_STEP] = S_ACCEPT


@inline_njit()
def offer_made(seat, attempt, card, amount, st, trace):
    """A bribe attempt for ``card`` with ``amount`` Pinats, checked; the first gives the briber
    its Corruption point. Returns the target (the card's holder)."""
    if not 0 <= card < N_PRIVILEGES or st[HOLDER + card] == seat:
        raise ValueError("strategy bribed for a Privilege card it holds or that does not exist")
    if amount < ps.MIN_BRIBE or amount % ps.BRIBE_STEP != 0 or amount > bribe_most(st, seat):
        raise ValueError("strategy offered a bribe it cannot pay, over the cap or below 50,000")
    if attempt == 1:
        gain(st, seat, ps.CORRUPTION, 1, ps.P_BRIBE, trace)
    st[stat(seat, ST_BRIBES_OFFERED)] += 1
    return st[HOLDER + card]


@njit(cache=True, _nrt=False, forceinline=False)
def answer_accept(st, move, trace):
    """The target accepts the offer (move 1) or declines it (0)."""
    target = st[P_TARGET]
    attempt = st[P_ATTEMPT]
    accepted = move == 1
    offer_answered(st[P_ACTOR], target, st[P_CARD], st[P_AMOUNT], attempt, accepted, st, trace)
    if attempt == 1:
        st[P_FIRST] = target
        st[P_ATTEMPT] = 2
        st[P_STEP] = st[P_RESUME] if accepted else S_BRIBE
        if not accepted and not second_attempt_allowed(st):
            st[P_SECOND] = -1
            st[P_ACCEPTED] = 0
            st[P_N] = 0
            st[P_STEP] = S_BRIBE_LOSERS
    else:
        st[P_SECOND] = target
        st[P_ACCEPTED] = accepted
        st[P_N] = 0
        st[P_STEP] = S_BRIBE_LOSERS


@inline_njit()
def second_attempt_allowed(st):
    """E: "A second attempt can be made by the current player if the first attempt is
    unsuccessful" (R_SECOND_BRIBE)."""
    return st[ps.RULE + ps.R_SECOND_BRIBE] != 0


@inline_njit()
def offer_answered(seat, target, card, amount, attempt, accepted, st, trace):
    """The target's answer; an accepted bribe moves the Pinats and the card (Bribed half) and
    gives the target its Corruption point."""
    record_event(trace, st, TRACE_LEN, ps.EV_BRIBE, seat, target, card, amount, attempt,
                 accepted)  # fmt: skip
    if accepted:
        change_money(st, seat, -amount, ps.PAY_BRIBE, -1, 0, trace)
        change_money(st, target, amount, ps.PAY_BRIBE, -1, 0, trace)
        gain(st, target, ps.CORRUPTION, 1, ps.P_BRIBE, trace)
        st[HOLDER + card] = seat
        st[HALF + card] = 1
        record_event(trace, st, TRACE_LEN, ps.EV_PRIVILEGE, card, seat, 1, st[FACE + card])
        st[stat(seat, ST_BRIBES_ACCEPTED)] += 1
        st[stat(target, ST_BRIBES_TAKEN)] += 1
        st[ps.BRIBE_COUNT + ps.MAX_PLAYERS * seat + target] += 1
        st[ps.BRIBE_PAID + ps.MAX_PLAYERS * seat + target] += amount


@njit(cache=True, _nrt=False, forceinline=False)
def step_bribe_losers(st):
    """Each player who declined (and did not accept the second attempt) loses an Employee of the
    briber's choice (D_VICTIM); declining twice costs one."""
    while st[P_N] < 2:
        loser = bribe_loser(st[P_N], st[P_FIRST], st[P_SECOND], st[P_ACCEPTED] == 1)
        st[P_N] += 1
        if loses_employee(st, loser):
            st[P_LOSER] = loser
            return ask(st, D_VICTIM, st[P_ACTOR])
    return action_done(st)


@inline_njit()
def bribe_loser(k, first, second, accepted):
    """The player losing an Employee for the k-th refusal (0: the first attempt's target, 1: the
    second's), or -1: whoever declined and did not accept the second loses one; declining twice
    costs one."""
    loser = first if k == 0 else second
    if loser < 0 or (k == 0 and accepted and second == first) or (k == 1 and accepted):
        return -1
    if k == 1 and loser == first:
        return -1
    return loser


@njit(cache=True, _nrt=False, forceinline=False)
def answer_victim(st, move, trace):
    dismiss(st, st[P_LOSER], -1, move, ps.E_BRIBE_LOSS, trace)


@njit(cache=True, _nrt=False, forceinline=False)
def step_end(st, rules, trace):
    """The game is over: winners, the seats' statistics, the last snapshot."""
    st[P_WINNER], st[P_WINNERS] = game_over(st, rules, st[P_OUTCOME], trace)
    st[P_STEP] = S_STOP
    st[P_DECISION] = D_NONE
    st[P_SEAT] = -1
    return True


@inline_njit()
def game_over(st, rules, outcome, trace):
    """Winners, the seats' statistics, the last snapshot and the end row: (winner or -1, winners
    bitmask)."""
    players = st[PLAYERS]
    winners, best_vp = winners_of(st, np.int64(rules[ps.R_VICTORY_POINTS]), outcome == 1)
    winner = -1
    n_winners = 0
    for seat in range(players):
        if (winners >> seat) & 1:
            n_winners += 1
            winner = seat
    if n_winners != 1:
        winner = -1
    st[GAME_STATS + G_WINNERS] = n_winners
    for seat in range(players):
        mask = routes(st, seat)
        st[stat(seat, ST_VP)] = victory_points(st, seat)
        for r in range(ps.N_ROUTES):
            st[stat(seat, ST_VP_INFLUENCE + r)] = (mask >> r) & 1
        st[stat(seat, ST_MONEY)] = st[MONEY + seat]
        for which in range(N_TRACKS):
            st[stat(seat, ST_INFLUENCE + which)] = st[TRACK + N_TRACKS * seat + which]
        st[stat(seat, ST_CONSULTANTS)] = consultants(st, seat)
        st[stat(seat, ST_EMPLOYEES)] = employees(st, seat, -1)
        held = st[stat(seat, ST_COMM_ROUNDS)]
        st[stat(seat, ST_COMM_SHARE)] = 0 if held == 0 else (2 if 2 * held >= st[ROUND] else 1)
    snapshot(st, trace)
    record_event(trace, st, TRACE_LEN, ps.EV_END, winner, st[DEPT_TURNS], outcome == 2,
                 st[ROUND], winners, best_vp)  # fmt: skip
    return winner, winners
