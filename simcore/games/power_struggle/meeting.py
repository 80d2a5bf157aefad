"""Stage I of Power Struggle as resumable steps: the initial appointments and the Directors'
Meeting (the Chairman card, the Bribed Communications card's extra action, the new Chairman and
Divisional Heads, Privilege cards, Influence, Motivation, sorting the event cards).

Each ``step_*`` carries out one step of the rules (st[P_STEP], S_* of state.py) and returns True
when a seat must decide (``ask``); each ``answer_*`` carries out that seat's answer (rules.py
runs both). The other functions here are the rules the scripted meeting (scripted.py) calls too."""

from numba import njit

from simcore.games.power_struggle import state as ps
from simcore.games.power_struggle.options import order_pick_ok
from simcore.games.power_struggle.state import (
    BOARD_N,
    CHAIRMAN,
    COMMUNICATIONS,
    D_APPOINT,
    D_CHAIRMAN,
    D_DISPLACED,
    D_ORDER,
    EMP,
    FACE,
    G_ROUNDS,
    G_ROUNDS_4,
    GAME_STATS,
    HALF,
    HEAD,
    HOLDER,
    MEETING_EVENT,
    N_DIVISIONS,
    N_EVENTS,
    N_PRIVILEGES,
    N_TRACKS,
    ORDER,
    ORDER_SIZE,
    P_BY_CARD,
    P_K,
    P_N,
    P_NEW_HEAD,
    P_OFFICE,
    P_ORDER_POLICY,
    P_SEAT,
    P_STEP,
    P_X,
    PILE,
    PLAYERS,
    ROUND,
    ROWS,
    S_CHAIRMAN_CARD,
    S_CHAIRMAN_DONE,
    S_EXTRA,
    S_HEADS,
    S_HEADS_START,
    S_MEETING,
    S_MEETING_END,
    S_ORDER,
    S_SNAPSHOT,
    S_SORT,
    ST_COMM_ROUNDS,
    TRACE_LEN,
    TRACK,
    TRACK_MAX,
    board_members,
    card_on,
    has_vacancy,
    usable,
)
from simcore.games.power_struggle.transitions import (
    add_consultant,
    appoint_chairman,
    ask,
    board_add,
    check_division,
    gain,
    head_claim,
    open_office,
    set_motivation,
    stat,
    trace_event_id,
)
from simcore.games.power_struggle.turns import found, start_action
from simcore.kernel.chunk import record_event
from simcore.kernel.intrinsics import inline_njit
from simcore.kernel.rng import rand_below


@njit(cache=True, _nrt=False, forceinline=False)
def step_appoint(st):
    """Three Managers each: clockwise from the starting player, counter-clockwise from the player
    to its right, clockwise again; each to the Board Room or as a Department Head with 3
    Employees (D_APPOINT)."""
    players = st[PLAYERS]
    k = st[P_K]
    if k == 3 * players:
        st[P_STEP] = S_MEETING
        return False
    return ask(st, D_APPOINT, appointing_seat(st, k))


@inline_njit()
def appointing_seat(st, k):
    """Who makes appointment ``k`` (0 .. 3 * players - 1): clockwise from the starting player,
    counter-clockwise from the player to its right, clockwise again."""
    players = st[PLAYERS]
    start = st[HOLDER + COMMUNICATIONS]
    i = k % players
    return (start + i) % players if k // players != 1 else (start - 1 - i) % players


@njit(cache=True, _nrt=False, forceinline=False)
def answer_appoint(st, move, trace):
    """Move 0: the Board Room; else a Department in division move - 1."""
    appoint(st, st[P_SEAT], st[P_K] // st[PLAYERS], move - 1, trace)
    st[P_K] += 1


@inline_njit()
def appoint(st, seat, appointment, division, trace):
    """A Manager of ``seat`` to the Board Room (``division`` < 0) or as a Department Head with 3
    Employees in ``division``."""
    if division < 0:
        board_add(st, seat, ps.B_APPOINT, trace)
        record_event(trace, st, TRACE_LEN, ps.EV_APPOINT, seat, appointment, 0, -1,
                     st[BOARD_N] - 1, 0)  # fmt: skip
    else:
        check_division(division)
        if not has_vacancy(st, division):
            raise ValueError("strategy appointed a Department Head to a full division")
        office = open_office(st, seat, division, 1, 3, ps.O_APPOINT, trace)
        record_event(trace, st, TRACE_LEN, ps.EV_APPOINT, seat, appointment, 1, division,
                     office % ROWS, 3)  # fmt: skip


@njit(cache=True, _nrt=False, forceinline=False)
def step_meeting(st, trace):
    """Stage I, step 1: a new round; from round 2 on the Chairman is dismissed, then the Chairman
    card and the Bribed Communications card (face up) act, in that order."""
    st[P_STEP] = S_CHAIRMAN_CARD if meeting_begins(st, trace) else S_HEADS_START
    return False


@inline_njit()
def meeting_begins(st, trace):
    """A new round; from round 2 on the Chairman is dismissed (True: the cards act next)."""
    st[ROUND] += 1
    st[GAME_STATS + G_ROUNDS] += 1
    record_event(trace, st, TRACE_LEN, ps.EV_MEETING, st[ROUND], st[HEAD + CHAIRMAN])
    if st[ps.RULE + ps.R_INFLUENCE_SCORING] == 1:
        score_influence(st, trace)  # step 5 moved before step 1: the outgoing Board scores
    if st[ROUND] > 1:
        st[HEAD + CHAIRMAN] = -1
        return True
    return False


@njit(cache=True, _nrt=False, forceinline=False)
def step_chairman_card(st):
    """The face-up Chairman card's holder may found a Department (Division half: 1 Manager, 1 new
    Employee, any of its own Employees) or a Main Department (Bribed half: 2 Managers, 1 Main
    Department point): D_CHAIRMAN."""
    holder = st[HOLDER + CHAIRMAN]
    if holder < 0 or not usable(st, holder, CHAIRMAN)[0]:
        st[P_STEP] = S_EXTRA
        return False
    return ask(st, D_CHAIRMAN, holder)


@njit(cache=True, _nrt=False, forceinline=False)
def answer_chairman(st, move, trace):
    """Move 0: not used; else 1 + division + 6 * Employees it moves in (Division half)."""
    holder = st[P_SEAT]
    st[P_STEP] = S_EXTRA
    if move == 0:
        return
    division = (move - 1) % N_DIVISIONS if move > 0 else -1
    office = chairman_card_office(st, holder, division, trace)
    st[P_X] = division
    st[P_OFFICE] = office
    st[P_STEP] = S_CHAIRMAN_DONE
    if st[HALF + CHAIRMAN] == 0:
        found(st, holder, office, (move - 1) // N_DIVISIONS, S_CHAIRMAN_DONE)


@inline_njit()
def chairman_card_office(st, holder, division, trace):
    """The Chairman card used in ``division``: a Department with 1 new Employee (Division half;
    its own Employees may follow) or a Main Department and its point (Bribed half)."""
    check_division(division)
    if not has_vacancy(st, division):
        raise ValueError("strategy used the Chairman card where no office is vacant")
    if st[HALF + CHAIRMAN] == 0:
        return open_office(st, holder, division, 1, 1, ps.O_CREATE, trace)
    office = open_office(st, holder, division, 2, 0, ps.O_CHAIRMAN, trace)
    gain(st, holder, ps.MAIN, 1, ps.P_CHAIRMAN, trace)
    return office


@inline_njit()
def chairman_card_used(st, division, office, trace):
    record_event(trace, st, TRACE_LEN, ps.EV_CHAIRMAN_USE, st[HOLDER + CHAIRMAN],
                 st[HALF + CHAIRMAN], division, office % ROWS, st[EMP + office])  # fmt: skip


@njit(cache=True, _nrt=False, forceinline=False)
def step_chairman_done(st, trace):
    chairman_card_used(st, st[P_X], st[P_OFFICE], trace)
    st[P_STEP] = S_EXTRA
    return False


@njit(cache=True, _nrt=False, forceinline=False)
def step_extra(st, trace):
    """The face-up Bribed Communications card: one extra action for its holder."""
    st[P_STEP] = S_HEADS_START
    holder = extra_action_holder(st, trace)
    if holder >= 0:
        start_action(st, holder, S_HEADS_START)
    return False


@inline_njit()
def extra_action_holder(st, trace):
    """The holder of the face-up Bribed Communications card, who takes an extra action now, or
    -1."""
    holder = st[HOLDER + COMMUNICATIONS]
    face_up, half = usable(st, holder, COMMUNICATIONS)
    if holder >= 0 and face_up and half == 1:
        record_event(trace, st, TRACE_LEN, ps.EV_EXTRA_ACTION, holder)
        return holder
    return -1


@njit(cache=True, _nrt=False, forceinline=False)
def step_heads_start(st, trace):
    """Step 2 (a new Chairman), then step 3 from the left."""
    appoint_chairman(st, trace)
    st[P_K] = 0
    st[P_STEP] = S_HEADS
    return False


@inline_njit()
def new_head(st, division):
    """(the new Divisional Head of ``division``, 1 if the card holder provides it): most
    Department Heads, then most Employees, then the topmost office; nobody there: the holder of
    the division's Privilege card."""
    new = -1
    best_heads = 0
    best_staff = 0
    best_top = ROWS
    for seat in range(st[PLAYERS]):
        heads, staff, top = head_claim(st, division, seat)
        if heads == 0:
            continue
        if (
            heads > best_heads
            or (heads == best_heads and staff > best_staff)
            or (heads == best_heads and staff == best_staff and top < best_top)
        ):
            new = seat
            best_heads = heads
            best_staff = staff
            best_top = top
    if new < 0:
        return st[HOLDER + division], 1
    return new, 0


@njit(cache=True, _nrt=False, forceinline=False)
def step_heads(st, trace):
    """Step 3, division by division (st[P_K]): cases A and B at once; in case C the displaced
    head's owner chooses the Board Room or the Counsel track (D_DISPLACED)."""
    while st[P_K] < N_DIVISIONS:
        division = st[P_K]
        new, by_card = new_head(st, division)
        old = st[HEAD + division]
        if old >= 0 and old != new:
            st[P_NEW_HEAD] = new
            st[P_BY_CARD] = by_card
            return ask(st, D_DISPLACED, old)
        seat_head(st, division, new, old, 0 if old < 0 else 1, -1, by_card, trace)
        st[P_K] += 1
    st[P_STEP] = S_MEETING_END
    return False


@inline_njit()
def seat_head(st, division, new, old, case, displaced_to, by_card, trace):
    st[HEAD + division] = new
    record_event(trace, st, TRACE_LEN, ps.EV_HEAD, division, new, old, case, displaced_to,
                 by_card)  # fmt: skip


@njit(cache=True, _nrt=False, forceinline=False)
def answer_displaced(st, move, trace):
    """Move 0: the displaced Divisional Head to the Board Room; 1: to the Counsel track."""
    old = st[P_SEAT]
    division = st[P_K]
    displace(st, old, division, move, trace)
    seat_head(st, division, st[P_NEW_HEAD], old, 2, move, st[P_BY_CARD], trace)
    st[P_K] += 1


@inline_njit()
def displace(st, old, division, to, trace):
    """``old``'s Divisional Head of ``division`` to the Board Room (0) or the Counsel track (1)."""
    if to == 1:
        add_consultant(st, old, division, ps.C_DISPLACED, trace)
    elif to == 0:
        board_add(st, old, ps.B_DISPLACED, trace)
    else:
        raise ValueError("strategy sent a displaced Divisional Head nowhere")


@njit(cache=True, _nrt=False, forceinline=False)
def step_meeting_end(st, trace):
    meeting_ends(st, trace)
    st[P_STEP] = S_SORT
    return False


@inline_njit()
def meeting_ends(st, trace):
    """Steps 4 to 6 (5 and 6 as the rule parameters R_INFLUENCE_SCORING and R_MOTIVATION_RESET
    say)."""
    # 4. Privilege cards, face up, Division half.
    for card in range(N_PRIVILEGES):
        st[HOLDER + card] = st[HEAD + card]
        st[HALF + card] = 0
        st[FACE + card] = 1
        record_event(trace, st, TRACE_LEN, ps.EV_PRIVILEGE, card, st[HOLDER + card], 0, 1)
    # 5. Influence (unless moved before step 1).
    if st[ps.RULE + ps.R_INFLUENCE_SCORING] == 0:
        score_influence(st, trace)
    # 6. Motivation back to 6.
    if st[ps.RULE + ps.R_MOTIVATION_RESET] != 0:
        set_motivation(st, ps.MAX_MOTIVATION, -1, trace)


@inline_njit()
def score_influence(st, trace):
    """Step 5: the Chairman 2 (R_CHAIRMAN_INFLUENCE), each Board member 1 (R_BOARD_INFLUENCE)
    Influence."""
    chairman_points = st[ps.RULE + ps.R_CHAIRMAN_INFLUENCE]
    member_points = st[ps.RULE + ps.R_BOARD_INFLUENCE]
    for seat in range(st[PLAYERS]):
        points = member_points * board_members(st, seat)
        points += chairman_points * (st[HEAD + CHAIRMAN] == seat)
        if points > 0:
            at = TRACK + N_TRACKS * seat + ps.INFLUENCE
            gained = min(points, st[TRACK_MAX + ps.INFLUENCE] - st[at])
            st[at] += gained
            record_event(trace, st, TRACE_LEN, ps.EV_INFLUENCE, seat, gained, st[at])


@njit(cache=True, _nrt=False, forceinline=False)
def step_sort(st, rng):
    """Step 7: the Divisional Head of Communications draws 6 of the shuffled non-standard events
    and orders them with the 2 standard ones, place by place (D_ORDER: bonus before meeting,
    meeting 5th or later); with the Communications card's power off they are dealt in order."""
    draw_events(st, rng)
    st[P_ORDER_POLICY] = -1
    st[P_N] = 0
    st[P_STEP] = S_ORDER
    if not card_on(st, COMMUNICATIONS):
        deal_order(st, rng)
        st[P_N] = ORDER_SIZE
    return False


@inline_njit()
def draw_events(st, rng):
    """The Divisional Head of Communications draws 6 of the shuffled non-standard events."""
    n = st[N_EVENTS]
    for i in range(ORDER_SIZE - 2):
        j = i + rand_below(rng, n - i)
        held = st[PILE + i]
        st[PILE + i] = st[PILE + j]
        st[PILE + j] = held
    st[ps.SORTER] = st[HEAD + COMMUNICATIONS]
    st[ps.REVEALED] = 0
    return False


@inline_njit()
def deal_order(st, rng):
    """The Communications card's power off (R_CARD_ON): nobody sorts; the 6 drawn cards and the
    2 standard ones are stacked in a uniformly random order within the two ordering rules (the
    Directors' Meeting card at place m, 5th or later, with weight m: the Bonus Payment at any
    place before it; the drawn cards, in random order, in the other places)."""
    r = rand_below(rng, (ps.MIN_TURNS + ORDER_SIZE - 1) * (ORDER_SIZE - ps.MIN_TURNS) // 2)
    meeting_at = ps.MIN_TURNS
    while r >= meeting_at:
        r -= meeting_at
        meeting_at += 1
    k = 0
    for position in range(ORDER_SIZE):
        if position == meeting_at:
            st[ORDER + position] = st[MEETING_EVENT]
        elif position == r:
            st[ORDER + position] = st[ps.BONUS_EVENT]
        else:
            st[ORDER + position] = st[PILE + k]
            k += 1


@njit(cache=True, _nrt=False, forceinline=False)
def step_order(st, trace):
    if st[P_N] < ORDER_SIZE:
        return ask(st, D_ORDER, st[ps.SORTER])
    order_recorded(st, st[P_ORDER_POLICY], trace)
    st[P_STEP] = S_SNAPSHOT
    return False


@inline_njit()
def order_recorded(st, policy, trace):
    """The round's order is sorted: its statistics and trace rows."""
    sorter = st[ps.SORTER]
    meeting_at = 0
    while st[ORDER + meeting_at] != st[MEETING_EVENT]:
        meeting_at += 1
    st[stat(sorter, ST_COMM_ROUNDS)] += 1
    st[GAME_STATS + G_ROUNDS_4 + meeting_at - ps.MIN_TURNS] += 1
    record_event(trace, st, TRACE_LEN, ps.EV_ORDER, sorter, meeting_at, policy)
    for position in range(ORDER_SIZE):
        record_event(trace, st, TRACE_LEN, ps.EV_ORDER_CARD, position,
                     trace_event_id(st, st[ORDER + position]))  # fmt: skip


@njit(cache=True, _nrt=False, forceinline=False)
def answer_order(st, move):
    """The event card ``move`` takes the next place."""
    if not order_pick_ok(st, move):
        raise ValueError("strategy's event order breaks the two ordering rules")
    st[ORDER + st[P_N]] = move
    st[P_N] += 1
