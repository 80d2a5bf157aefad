"""Power Struggle's rule helpers: the small transitions on the table (money, competence tracks,
offices and Employees, the Board Room, Consultants, Privilege cards), the actions that ask nothing
more (move, merge, resign, buy shares), the standard events, the Directors' Meeting's Chairman,
snapshots and declarations, set-up and the winners. Both flows call them: the steps (meeting.py,
turns.py) and the scripted game (scripted.py)."""

import numpy as np
from numba import njit

from simcore.games.power_struggle import state as ps
from simcore.games.power_struggle.options import merge_problem, move_problem, office_ok
from simcore.games.power_struggle.state import (
    BOARD,
    BOARD_N,
    BONUS,
    CHAIRMAN,
    CHAIRS,
    COLOUR_CARD,
    COMMUNICATIONS,
    COMP_CARD,
    COMP_CARD_ID,
    COMP_OF,
    CONSULT,
    CONTROLLING,
    DECLARED,
    DEPT_TURNS,
    EMP,
    ENDING,
    EVENT_FX,
    EVENT_WIDTH,
    FACE,
    HALF,
    HEAD,
    HEADS,
    HELD,
    HOLDER,
    MAX_EMPLOYEES,
    MEETING_EVENT,
    MONEY,
    MOTIVATION,
    N_DIVISIONS,
    N_EVENTS,
    N_OFFICES,
    N_PRIVILEGES,
    N_SEAT_STATS,
    N_SIZES,
    N_TRACKS,
    OWNER,
    P_DECISION,
    P_SEAT,
    PILE,
    PLAYERS,
    PRICE,
    ROWS,
    SCRATCH,
    ST_DEALT_CARDS,
    ST_DEALT_COMM,
    ST_DECLARED,
    STATS,
    STOCK,
    TRACE_LEN,
    TRACK,
    TRACK_MAX,
    archenemy_now,
    board_members,
    consultants,
    departments,
    main_departments,
    motivation_bonus,
    occupied,
    routes,
    share_blocks,
    share_option_ok,
    victory_points,
)
from simcore.kernel.chunk import record_event
from simcore.kernel.intrinsics import inline_njit
from simcore.kernel.rng import rand_below

# --- small transitions ------------------------------------------------------------------------
# Every function takes the game as (st, rules, sids, prm, rng, trace): the state, the prepared
# rules, each seat's strategy id and parameter row, the game's random stream, the trace buffer.


@njit(cache=True, _nrt=False, forceinline=False)
def stat(seat, which):
    """Index of one of ``seat``'s statistics in ``st``."""
    return STATS + N_SEAT_STATS * seat + which


@njit(cache=True, _nrt=False, forceinline=False)
def change_money(st, seat, amount, cause, event_id, from_bank, trace):
    st[MONEY + seat] += amount
    record_event(trace, st, TRACE_LEN, ps.EV_PAY, seat, amount, st[MONEY + seat], cause,
                 from_bank, event_id)  # fmt: skip


@njit(cache=True, _nrt=False, forceinline=False)
def charge(st, seat, due, cause, event_id, trace):
    """``seat`` pays ``due`` to the Bank, or all it has when that is less; returns what it paid."""
    paid = min(due, st[MONEY + seat])
    if paid > 0:
        change_money(st, seat, -paid, cause, event_id, 0, trace)
    return paid


@njit(cache=True, _nrt=False, forceinline=False)
def gain(st, seat, which, n, cause, trace):
    """Move ``seat``'s marker ``n`` points up ``which`` track, no further than its golden top
    space; returns the points gained."""
    at = TRACK + N_TRACKS * seat + which
    gained = min(n, st[TRACK_MAX + which] - st[at])
    st[at] += gained
    record_event(trace, st, TRACE_LEN, ps.EV_POINTS, seat, which, gained, st[at], cause)
    return gained


@njit(cache=True, _nrt=False, forceinline=False)
def shifted(tracked, vacated):
    """Where the office ``tracked`` is after ``vacated`` (-1: none) emptied and the offices below
    it in its division moved up; -1 if ``tracked`` was the vacated one."""
    if vacated < 0 or tracked < 0 or tracked // ROWS != vacated // ROWS:
        return tracked
    if tracked == vacated:
        return -1
    return tracked - 1 if tracked > vacated else tracked


@njit(cache=True, _nrt=False, forceinline=False)
def vacate(st, office, cause, trace):
    """Empty ``office`` (its Employees already gone or moved) and move the offices below it up."""
    division = office // ROWS
    row = office % ROWS
    record_event(trace, st, TRACE_LEN, ps.EV_OFFICE, st[OWNER + office], division, row, 0,
                 st[EMP + office], cause)  # fmt: skip
    for r in range(row, ROWS - 1):
        here = ROWS * division + r
        st[OWNER + here] = st[OWNER + here + 1]
        st[HEADS + here] = st[HEADS + here + 1]
        st[EMP + here] = st[EMP + here + 1]
    last = ROWS * division + ROWS - 1
    st[OWNER + last] = -1
    st[HEADS + last] = 0
    st[EMP + last] = 0


@njit(cache=True, _nrt=False, forceinline=False)
def open_office(st, seat, division, heads, staff, cause, trace):
    """Put ``heads`` Managers of ``seat`` and ``staff`` Employees (at most 6; the excess goes back
    to the supply) in the topmost vacant office of ``division``; returns its id."""
    office = ROWS * division + occupied(st, division)
    st[OWNER + office] = seat
    st[HEADS + office] = heads
    st[EMP + office] = min(staff, MAX_EMPLOYEES)
    record_event(trace, st, TRACE_LEN, ps.EV_OFFICE, seat, division, office % ROWS, heads,
                 st[EMP + office], cause)  # fmt: skip
    return office


@njit(cache=True, _nrt=False, forceinline=False)
def add_employee(st, office, cause, trace):
    """One Employee into ``office`` unless it has 6 (then it stays in the supply)."""
    if st[EMP + office] < MAX_EMPLOYEES:
        st[EMP + office] += 1
        record_event(trace, st, TRACE_LEN, ps.EV_EMPLOYEE, st[OWNER + office], office // ROWS,
                     office % ROWS, 1, st[EMP + office], cause)  # fmt: skip


@njit(cache=True, _nrt=False, forceinline=False)
def remove_employees(st, office, n, cause, trace):
    """``n`` Employees of ``office`` back to the supply; a Department left without any closes
    (its Manager goes back to its owner). Returns the vacated office or -1."""
    st[EMP + office] -= n
    record_event(trace, st, TRACE_LEN, ps.EV_EMPLOYEE, st[OWNER + office], office // ROWS,
                 office % ROWS, -n, st[EMP + office], cause)  # fmt: skip
    if st[EMP + office] == 0 and st[HEADS + office] == 1:
        vacate(st, office, ps.O_CLOSED, trace)
        return office
    return -1


@njit(cache=True, _nrt=False, forceinline=False)
def check_office(st, office, seat, need_staff, need_room):
    if not office_ok(st, office, seat, need_staff, need_room):
        if not 0 <= office < N_OFFICES or st[OWNER + office] != seat:
            raise ValueError("strategy chose an office its player does not own")
        if need_staff:
            raise ValueError("strategy chose an office without Employees")
        raise ValueError("strategy chose a full office")


@njit(cache=True, _nrt=False, forceinline=False)
def board_add(st, seat, cause, trace):
    """A Manager of ``seat`` into the leftmost vacant chair; with all 5 taken, everyone moves a
    chair to the left first and the leftmost Manager goes back to its owner."""
    if st[BOARD_N] == CHAIRS:
        record_event(trace, st, TRACE_LEN, ps.EV_BOARD_OUT, st[BOARD])
        board_remove(st, 0)
    st[BOARD + st[BOARD_N]] = seat
    st[BOARD_N] += 1
    record_event(trace, st, TRACE_LEN, ps.EV_BOARD_IN, seat, st[BOARD_N] - 1, cause)


@njit(cache=True, _nrt=False, forceinline=False)
def board_remove(st, chair):
    """Empty ``chair``; the members to its right move left to close the gap."""
    for c in range(chair, st[BOARD_N] - 1):
        st[BOARD + c] = st[BOARD + c + 1]
    st[BOARD_N] -= 1
    st[BOARD + st[BOARD_N]] = -1


@njit(cache=True, _nrt=False, forceinline=False)
def add_consultant(st, seat, division, cause, trace):
    st[CONSULT + N_DIVISIONS * seat + division] += 1
    record_event(trace, st, TRACE_LEN, ps.EV_CONSULTANT, seat, division, consultants(st, seat),
                 cause)  # fmt: skip


@njit(cache=True, _nrt=False, forceinline=False)
def turn_face_down(st, card, cause, trace):
    st[FACE + card] = 0
    record_event(trace, st, TRACE_LEN, ps.EV_FACE_DOWN, card, st[HOLDER + card], cause)


# --- actions ----------------------------------------------------------------------------------


@njit(cache=True, _nrt=False, forceinline=False)
def move_offices(seat, a, b, target, st, trace):
    """C1) 1 or 2 Departments or 1 Main Department, Managers and Employees, to another division."""
    problem = move_problem(st, seat, a, b, target)
    if problem == 1:
        raise ValueError("strategy chose an office its player does not own")
    if problem == 2:
        raise ValueError("strategy moved two offices that are not two Departments")
    if problem == 3:
        raise ValueError("strategy moved an office within its own division")
    if problem == 4:
        raise ValueError("strategy moved offices to a division without room")
    heads_a = st[HEADS + a]
    staff_a = st[EMP + a]
    heads_b = st[HEADS + b] if b >= 0 else 0
    staff_b = st[EMP + b] if b >= 0 else 0
    vacate(st, a, ps.O_MOVE_OUT, trace)
    if b >= 0:
        vacate(st, shifted(b, a), ps.O_MOVE_OUT, trace)
    open_office(st, seat, target, heads_a, staff_a, ps.O_MOVE_IN, trace)
    if b >= 0:
        open_office(st, seat, target, heads_b, staff_b, ps.O_MOVE_IN, trace)


@njit(cache=True, _nrt=False, forceinline=False)
def merge(seat, a, b, target, st, trace):
    """C2) two of its Departments become a Main Department, in a's office (target -1) or a new
    office of ``target``; 2 Employees and any over 6 are fired; 1 Main Department point."""
    problem = merge_problem(st, seat, a, b, target)
    if problem == 1:
        raise ValueError("strategy chose an office its player does not own")
    if problem == 2:
        raise ValueError("strategy merged offices that are not two of its Departments")
    if problem == 3:
        raise ValueError("strategy merged into a division without a vacant office")
    staff = st[EMP + a] + st[EMP + b]
    if target < 0:
        vacate(st, b, ps.O_MERGE_OUT, trace)
        office = shifted(a, b)
        st[HEADS + office] = 2
        st[EMP + office] = staff
        record_event(trace, st, TRACE_LEN, ps.EV_OFFICE, seat, office // ROWS, office % ROWS, 2,
                     staff, ps.O_MERGE)  # fmt: skip
    else:
        vacate(st, a, ps.O_MERGE_OUT, trace)
        vacate(st, shifted(b, a), ps.O_MERGE_OUT, trace)
        office = ROWS * target + occupied(st, target)
        st[OWNER + office] = seat
        st[HEADS + office] = 2
        st[EMP + office] = staff
        record_event(trace, st, TRACE_LEN, ps.EV_OFFICE, seat, target, office % ROWS, 2, staff,
                     ps.O_MERGE)  # fmt: skip
    fired = min(2, staff)
    if fired > 0:
        remove_employees(st, office, fired, ps.E_MERGE, trace)
    if st[EMP + office] > MAX_EMPLOYEES:
        remove_employees(st, office, st[EMP + office] - MAX_EMPLOYEES, ps.E_EXCESS, trace)
    gain(st, seat, ps.MAIN, 1, ps.P_MERGE, trace)


@njit(cache=True, _nrt=False, forceinline=False)
def resign(seat, division, to_counsel, st, trace):
    """D) its Divisional Head of ``division`` resigns to the Board Room (with its Department
    Heads there) or to the Counsel track; its Employees there are fired, its other Departments
    there close; Main Departments stay; the division's Privilege card turns face down."""
    if not 0 <= division < N_DIVISIONS or st[HEAD + division] != seat:
        raise ValueError("strategy resigned a Divisional Head it does not have")
    st[HEAD + division] = -1
    turn_face_down(st, division, 0, trace)
    leaving = 0
    row = 0
    while row < ROWS:
        office = ROWS * division + row
        if st[OWNER + office] != seat:
            row += 1
            continue
        if st[EMP + office] > 0:
            fired = st[EMP + office]
            st[EMP + office] = 0
            record_event(trace, st, TRACE_LEN, ps.EV_EMPLOYEE, seat, division, row, -fired, 0,
                         ps.E_RESIGN)  # fmt: skip
        if st[HEADS + office] == 1:
            vacate(st, office, ps.O_RESIGN, trace)
            leaving += 1
        else:
            row += 1
    if to_counsel:
        add_consultant(st, seat, division, ps.C_RESIGN, trace)
    else:
        board_add(st, seat, ps.B_RESIGN_HEAD, trace)
        for _ in range(leaving):
            board_add(st, seat, ps.B_RESIGN_DEPARTMENT, trace)


@njit(cache=True, _nrt=False, forceinline=False)
def buy_shares(seat, paid, received, st, trace):
    """F4) pay for a block of ``paid`` shares, take one of ``received`` (Accounting: larger)."""
    if not share_option_ok(st, seat, paid, received):
        raise ValueError("strategy bought a share block it may not")
    charge(st, seat, st[PRICE + paid], ps.PAY_SHARES, -1, trace)
    st[STOCK + received] -= 1
    st[HELD + (N_SIZES + 1) * seat + received] += 1
    record_event(trace, st, TRACE_LEN, ps.EV_SHARES, seat, paid, received, st[PRICE + paid],
                 st[STOCK + received])  # fmt: skip
    gain(st, seat, ps.SHARES, received, ps.P_SHARES, trace)


@njit(cache=True, _nrt=False, forceinline=False)
def check_division(division):
    if not 0 <= division < N_DIVISIONS:
        raise ValueError("strategy chose a division that does not exist")


# --- events -----------------------------------------------------------------------------------


@njit(cache=True, _nrt=False, forceinline=False)
def set_motivation(st, value, cause, trace):
    value = max(0, min(ps.MAX_MOTIVATION, value))
    change = value - st[MOTIVATION]
    st[MOTIVATION] = value
    record_event(trace, st, TRACE_LEN, ps.EV_MOTIVATION, value, change, cause)


@njit(cache=True, _nrt=False, forceinline=False)
def bonus_payment(st, trace):
    """The standard event: Pinats per share block, Department, Main Department, Board member and
    for the Chairman, plus the Controlling card's amount per (Main) Department."""
    for seat in range(st[PLAYERS]):
        offices = departments(st, seat, -1)
        mains = main_departments(st, seat, -1)
        total = (
            st[BONUS + 0] * share_blocks(st, seat)
            + st[BONUS + 1] * offices
            + st[BONUS + 2] * mains
            + st[BONUS + 3] * board_members(st, seat)
            + st[BONUS + 4] * (st[HEAD + CHAIRMAN] == seat)
            + motivation_bonus(st, seat, CONTROLLING) * (offices + mains)
        )
        if total > 0:
            change_money(st, seat, total, ps.PAY_BONUS, -1, 0, trace)


# --- the Directors' Meeting -------------------------------------------------------------------


@njit(cache=True, _nrt=False, forceinline=False)
def appoint_chairman(st, trace):
    """Step 2: the player with the most Board members (tie: the leftmost of them) moves its
    leftmost member to the Chairman's office; an empty Board: the Chairman card's holder."""
    if st[BOARD_N] == 0:
        seat = st[HOLDER + CHAIRMAN]
        st[HEAD + CHAIRMAN] = seat
        record_event(trace, st, TRACE_LEN, ps.EV_CHAIRMAN, seat, 1, -1)
        return
    best = -1
    best_count = 0
    for chair in range(st[BOARD_N]):
        seat = st[BOARD + chair]
        count = board_members(st, seat)
        if count > best_count:
            best = seat
            best_count = count
    chair = 0
    while st[BOARD + chair] != best:
        chair += 1
    board_remove(st, chair)
    st[HEAD + CHAIRMAN] = best
    record_event(trace, st, TRACE_LEN, ps.EV_CHAIRMAN, best, 0, chair)


@njit(cache=True, _nrt=False, forceinline=False)
def head_claim(st, division, seat):
    """(Department Heads with a Main Department counting 2, Employees, topmost row or ROWS) of
    ``seat`` in ``division``."""
    heads = 0
    staff = 0
    top = ROWS
    for row in range(ROWS):
        office = ROWS * division + row
        if st[OWNER + office] == seat:
            heads += st[HEADS + office]
            staff += st[EMP + office]
            top = min(top, row)
    return heads, staff, top


@njit(cache=True, _nrt=False, forceinline=False)
def trace_event_id(st, event):
    if event == st[ps.BONUS_EVENT]:
        return ps.EV_BONUS_CARD
    if event == st[MEETING_EVENT]:
        return ps.EV_MEETING_CARD
    return event


@njit(cache=True, _nrt=False, forceinline=False)
def snapshot(st, trace):
    if trace.shape[0] == 0:
        return
    for seat in range(st[PLAYERS]):
        t = TRACK + N_TRACKS * seat
        record_event(trace, st, TRACE_LEN, ps.EV_SNAP_SEAT, seat, st[MONEY + seat], st[t],
                     st[t + 1], st[t + 2], st[t + 3], consultants(st, seat))  # fmt: skip
    for office in range(N_OFFICES):
        if st[OWNER + office] >= 0:
            record_event(trace, st, TRACE_LEN, ps.EV_SNAP_OFFICE, office // ROWS, office % ROWS,
                         st[OWNER + office], st[HEADS + office], st[EMP + office])  # fmt: skip
    for chair in range(st[BOARD_N]):
        record_event(trace, st, TRACE_LEN, ps.EV_SNAP_BOARD, chair, st[BOARD + chair])
    record_event(trace, st, TRACE_LEN, ps.EV_SNAP_BOARD, -1, st[HEAD + CHAIRMAN])
    for card in range(N_PRIVILEGES):
        record_event(trace, st, TRACE_LEN, ps.EV_SNAP_CARD, card, st[HOLDER + card],
                     st[HALF + card], st[FACE + card])  # fmt: skip


@njit(cache=True, _nrt=False, forceinline=False)
def record_standing(st, trace):
    """After a Department Turn: one standing row per seat when tracing; nothing otherwise."""
    if trace.shape[0] == 0:
        return
    for seat in range(st[PLAYERS]):
        record_event(trace, st, TRACE_LEN, ps.EV_STANDING, st[DEPT_TURNS], seat,
                     victory_points(st, seat), st[MONEY + seat])  # fmt: skip


@inline_njit()
def declare_if_due(st, seat, rules, trace):
    """At the end of its own action a player with the Victory Points declares."""
    if st[DECLARED + seat] == 0 and victory_points(st, seat) >= np.int64(
        rules[ps.R_VICTORY_POINTS]
    ):
        declare(st, seat, trace)


@njit(cache=True, _nrt=False, forceinline=False)
def declare(st, seat, trace):
    """``seat`` announces its Victory Points on its own turn: its Archenemy point, if it has it
    now, can no longer be lost; the game ends with this Department Turn."""
    st[ps.ARCH_LOCKED + seat] = archenemy_now(st, seat)
    st[DECLARED + seat] = 1
    st[ENDING] = 1
    st[stat(seat, ST_DECLARED)] = 1
    record_event(trace, st, TRACE_LEN, ps.EV_DECLARE, seat, victory_points(st, seat),
                 st[ps.ARCH_LOCKED + seat], routes(st, seat))  # fmt: skip


@njit(cache=True, _nrt=False, forceinline=False)
def shuffle_into(st, at, n, rng):
    """A uniformly random permutation of 0 .. n-1 into st[at : at + n]."""
    for i in range(n):
        st[at + i] = i
    shuffle_slice(st, at, n, rng)


@njit(cache=True, _nrt=False, forceinline=False)
def shuffle_slice(st, at, n, rng):
    """Shuffle st[at : at + n] in place, uniformly."""
    for i in range(n - 1, 0, -1):
        j = rand_below(rng, i + 1)
        held = st[at + i]
        st[at + i] = st[at + j]
        st[at + j] = held


@inline_njit()
def sort_slice(st, at, n):
    """Sort st[at : at + n] in place (insertion sort: a few dozen event ids)."""
    for i in range(1, n):
        held = st[at + i]
        j = i
        while j > 0 and st[at + j - 1] > held:
            st[at + j] = st[at + j - 1]
            j -= 1
        st[at + j] = held


@njit(cache=True, _nrt=False, forceinline=False)
def set_up(players, st, rules, rng, trace):
    """The table from the prepared data; money, Archenemy cards, Privilege cards."""
    st[:] = 0
    st[PLAYERS] = players
    for office in range(N_OFFICES):
        st[OWNER + office] = -1
    for k in range(N_PRIVILEGES):
        st[HEAD + k] = -1
    for chair in range(CHAIRS):
        st[BOARD + chair] = -1
    for which in range(N_TRACKS):
        st[TRACK_MAX + which] = np.int64(rules[ps.P_TRACK_MAX + which])
    for size in range(1, N_SIZES + 1):
        st[PRICE + size] = np.int64(rules[ps.P_PRICE + size - 1])
        st[STOCK + size] = np.int64(rules[ps.P_STOCK + size - 1])
        record_event(trace, st, TRACE_LEN, ps.EV_STOCK, size, st[STOCK + size], st[PRICE + size])
    for item in range(len(ps.BONUS_ITEMS)):
        st[BONUS + item] = np.int64(rules[ps.P_BONUS + item])
    n_cards = np.int64(rules[ps.P_N_CARDS])
    st[ps.N_COMP_CARDS] = n_cards
    for k in range(3 * n_cards):
        st[COMP_CARD + k] = np.int64(rules[ps.P_CARDS + k])
    for k in range(n_cards):
        st[COMP_CARD_ID + k] = np.int64(rules[ps.P_CARD_IDS + k])
    n_events = np.int64(rules[ps.P_N_EVENTS])
    st[N_EVENTS] = n_events
    st[ps.BONUS_EVENT] = n_events
    st[MEETING_EVENT] = n_events + 1
    for k in range(EVENT_WIDTH * n_events):
        st[EVENT_FX + k] = np.int64(rules[ps.P_EVENTS + k])
    for k in range(n_events):
        st[PILE + k] = k
    for r in range(ps.N_RULES):
        st[ps.RULE + r] = np.int64(rules[r])
    st[MOTIVATION] = ps.MAX_MOTIVATION
    # Archenemy Colour cards of the players' colours, then Competence cards: scratch permutations.
    shuffle_into(st, SCRATCH, players, rng)
    for seat in range(players):
        st[COLOUR_CARD + seat] = st[SCRATCH + seat]
    shuffle_into(st, SCRATCH, n_cards, rng)
    for seat in range(players):
        st[COMP_OF + seat] = st[SCRATCH + seat]
        st[MONEY + seat] = st[ps.RULE + ps.R_STARTING_MONEY]
        card = st[COMP_OF + seat]
        record_event(trace, st, TRACE_LEN, ps.EV_SETUP, seat, st[COLOUR_CARD + seat],
                     st[COMP_CARD_ID + card], st[COMP_CARD + 3 * card],
                     st[COMP_CARD + 3 * card + 1], st[COMP_CARD + 3 * card + 2],
                     st[MONEY + seat])  # fmt: skip
    # Privilege cards shuffled and dealt "randomly ... as equally as possible" (Set Up 8), face
    # up, Division half: one at a time round a random order of the seats, so which players get
    # the extra cards is the game's chance, not their seats.
    st[ps.SORTER] = -1
    shuffle_into(st, SCRATCH, N_PRIVILEGES, rng)
    shuffle_into(st, SCRATCH + N_PRIVILEGES, players, rng)
    for seat in range(players):
        st[stat(seat, ST_DEALT_CARDS)] = -1  # the column's code is cards - 1
    for k in range(N_PRIVILEGES):
        card = st[SCRATCH + k]
        seat = st[SCRATCH + N_PRIVILEGES + k % players]
        st[HOLDER + card] = seat
        st[FACE + card] = 1
        st[stat(seat, ST_DEALT_CARDS)] += 1
        record_event(trace, st, TRACE_LEN, ps.EV_DEAL, card, seat)
    st[stat(st[HOLDER + COMMUNICATIONS], ST_DEALT_COMM)] = 1


@njit(cache=True, _nrt=False, forceinline=False)
def winners_of(st, target, ended):
    """(bitmask of the winners, their Victory Points): among the players with at least
    ``target`` Victory Points when the game ``ended`` by a declaration, the most Victory Points,
    then the most money; still tied, they share the win. (0, 0) when it did not end."""
    winners = 0
    best_vp = 0
    best_money = -1
    if not ended:
        return winners, best_vp
    for seat in range(st[PLAYERS]):
        vp = victory_points(st, seat)
        if vp < target:
            continue
        money = st[MONEY + seat]
        if vp > best_vp or (vp == best_vp and money > best_money):
            winners = 1 << seat
            best_vp = vp
            best_money = money
        elif vp == best_vp and money == best_money:
            winners |= 1 << seat
    return winners, best_vp


# --- where a step stops (meeting.py, turns.py, rules.py) ------------------------------------------


@njit(cache=True, _nrt=False, forceinline=False)
def ask(st, kind, seat):
    """Stop the rules: ``seat`` must answer a decision of ``kind``."""
    st[P_DECISION] = kind
    st[P_SEAT] = seat
    return True
