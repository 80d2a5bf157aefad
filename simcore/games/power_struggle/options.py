"""Power Struggle's options of a decision: the checks of an action's options (which office,
division, Employees), the move codes of actions, and which event card may take the next place
of the order being sorted. The protocol's ``legal`` lists them, the kernel checks a strategy's
answer with them, and the strategies' ``decide`` writes its answer as their move codes."""

from numba import njit

from simcore.games.power_struggle.state import (
    A_BUY_CONSULTANT,
    A_BUY_MAIN,
    A_BUY_SHARES,
    A_CREATE_ONE,
    A_CREATE_TWO,
    A_MERGE,
    A_MOVE,
    A_RESIGN,
    ACTION_BASE,
    ARG_BASE,
    BONUS_EVENT,
    EMP,
    HEAD,
    HEADS,
    MAX_EMPLOYEES,
    MEETING_EVENT,
    MIN_TURNS,
    N_ACTIONS,
    N_DIVISIONS,
    N_OFFICES,
    ORDER,
    ORDER_SIZE,
    OWNER,
    P_N,
    PILE,
    ROWS,
    action_possible,
    employees,
    has_vacancy,
    share_option_ok,
    vacancies,
)


@njit(cache=True, _nrt=False, forceinline=False)
def office_ok(st, office, seat, need_staff, need_room):
    """``office`` is ``seat``'s (with an Employee when ``need_staff``, with room for one when
    ``need_room``)."""
    if not 0 <= office < N_OFFICES or st[OWNER + office] != seat:
        return False
    if need_staff and st[EMP + office] == 0:
        return False
    return not (need_room and st[EMP + office] >= MAX_EMPLOYEES)


@njit(cache=True, _nrt=False, forceinline=False)
def enticeable(st, office, seat, taken):
    """Development may take an Employee of ``office`` for ``seat`` (``taken``: bit p, it already
    took one from player p)."""
    owner = st[OWNER + office]
    return owner >= 0 and owner != seat and st[EMP + office] > 0 and not (taken >> owner) & 1


@njit(cache=True, _nrt=False, forceinline=False)
def create_two_problem(st, seat, first, second, n1, n2):
    """0 if B1 (two Departments from n1 + n2 of its Employees) is allowed, else what is wrong:
    1 no such division, 2 no vacant offices, 3 fewer than 2 or more than 7 placed, 4 more
    Employees than it has."""
    if not (0 <= first < N_DIVISIONS and 0 <= second < N_DIVISIONS):
        return 1
    need = 2 if first == second else 1
    if vacancies(st, first) < need or vacancies(st, second) < need:
        return 2
    if not (2 <= n1 <= MAX_EMPLOYEES + 1 and 2 <= n2 <= MAX_EMPLOYEES + 1):
        return 3
    if employees(st, seat, -1) < n1 + n2:
        return 4
    return 0


@njit(cache=True, _nrt=False, forceinline=False)
def move_problem(st, seat, a, b, target):
    """0 if C1 (office a, and Department b unless -1, to division ``target``) is allowed, else:
    1 not its office, 2 two offices that are not two Departments, 3 within its own division,
    4 no room there."""
    if not office_ok(st, a, seat, False, False):
        return 1
    count = 1
    if b >= 0:
        if not office_ok(st, b, seat, False, False):
            return 1
        if a == b or st[HEADS + a] != 1 or st[HEADS + b] != 1:
            return 2
        count = 2
    if not 0 <= target < N_DIVISIONS or target == a // ROWS or (b >= 0 and target == b // ROWS):
        return 3
    if vacancies(st, target) < count:
        return 4
    return 0


@njit(cache=True, _nrt=False, forceinline=False)
def merge_problem(st, seat, a, b, target):
    """0 if C2 (Departments a and b into a's office, target -1, or a new office of ``target``)
    is allowed, else: 1 not its offices, 2 not two Departments, 3 no vacant office there."""
    if not (office_ok(st, a, seat, False, False) and office_ok(st, b, seat, False, False)):
        return 1
    if a == b or st[HEADS + a] != 1 or st[HEADS + b] != 1:
        return 2
    if target >= 0:
        freed = (a // ROWS == target) + (b // ROWS == target)
        if target >= N_DIVISIONS or vacancies(st, target) + freed < 1:
            return 3
    return 0


@njit(cache=True, _nrt=False, forceinline=False)
def action_move(kind, x, y, z, w):
    """The move code of action ``kind`` with its options; the fields the kernel fills in (the
    Employees a hire, Human Resources, Development or Legal & Patents give) are left out."""
    if kind == A_CREATE_TWO:
        pass
    elif kind == A_CREATE_ONE or kind == A_RESIGN or kind == A_BUY_SHARES:
        z = 0
        w = 0
    elif kind == A_MOVE or kind == A_MERGE:
        w = 0
    elif kind == A_BUY_MAIN or kind == A_BUY_CONSULTANT:
        y = 0
        z = 0
        w = 0
    else:
        x = 0
        y = 0
        z = 0
        w = 0
    return kind + ACTION_BASE * (
        (x + 1) + ARG_BASE * ((y + 1) + ARG_BASE * ((z + 1) + ARG_BASE * (w + 1)))
    )


@njit(cache=True, _nrt=False, forceinline=False)
def action_of(move):
    """(kind, x, y, z, w) of an action move code."""
    args = move // ACTION_BASE
    return (
        move % ACTION_BASE,
        args % ARG_BASE - 1,
        args // ARG_BASE % ARG_BASE - 1,
        args // ARG_BASE**2 % ARG_BASE - 1,
        args // ARG_BASE**3 - 1,
    )


@njit(cache=True, _nrt=False, forceinline=False)
def action_ok(st, seat, kind, x, y, z, w):
    """Action ``kind`` with these options is legal for ``seat`` now (the kernel's checks)."""
    if not 0 <= kind < N_ACTIONS or not action_possible(st, seat, kind):
        return False
    if kind == A_CREATE_TWO:
        return create_two_problem(st, seat, x, y, z, w) == 0
    if kind == A_CREATE_ONE:
        return 0 <= x < N_DIVISIONS and has_vacancy(st, x) and y >= 0
    if kind == A_MOVE:
        return move_problem(st, seat, x, y, z) == 0
    if kind == A_MERGE:
        return merge_problem(st, seat, x, y, z) == 0
    if kind == A_RESIGN:
        return 0 <= x < N_DIVISIONS and st[HEAD + x] == seat and 0 <= y <= 1
    if kind == A_BUY_MAIN:
        return 0 <= x < N_DIVISIONS and has_vacancy(st, x)
    if kind == A_BUY_CONSULTANT:
        return 0 <= x < N_DIVISIONS
    if kind == A_BUY_SHARES:
        return share_option_ok(st, seat, x, y)
    return True


@njit(cache=True, _nrt=False, forceinline=False)
def order_pick_ok(st, event):
    """``event`` may take the next place of the order being sorted (st[P_N] places taken): one
    of the round's 8 cards not placed yet; the Directors' Meeting card 5th or later and after
    the Bonus Payment; and places enough left for the standard cards still to come."""
    position = st[P_N]
    candidate = event == st[BONUS_EVENT] or event == st[MEETING_EVENT]
    for i in range(ORDER_SIZE - 2):
        candidate = candidate or st[PILE + i] == event
    if not candidate:
        return False
    bonus_placed = False
    meeting_placed = False
    for p in range(position):
        if st[ORDER + p] == event:
            return False
        bonus_placed = bonus_placed or st[ORDER + p] == st[BONUS_EVENT]
        meeting_placed = meeting_placed or st[ORDER + p] == st[MEETING_EVENT]
    if meeting_placed:
        return True
    if event == st[MEETING_EVENT]:
        return position >= MIN_TURNS and bonus_placed
    still_needed = 1 + (not bonus_placed and event != st[BONUS_EVENT])
    return ORDER_SIZE - position - 1 >= still_needed


@njit(cache=True, _nrt=False, forceinline=False)
def order_candidate(st, i):
    """The i-th of the round's 8 cards in ``legal``'s fixed order: the 6 drawn, bonus, meeting."""
    if i < ORDER_SIZE - 2:
        return st[PILE + i]
    return st[BONUS_EVENT] if i == ORDER_SIZE - 2 else st[MEETING_EVENT]
