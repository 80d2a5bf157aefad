"""Scripted Power Struggle players: every decision a seat makes, dispatched on an integer id.

Five archetypes share one way of valuing things and differ in the order in which they work on
the Victory Point routes: ``board`` (Influence first), ``investor`` (Shares), ``builder`` (Main
Departments), ``corrupter`` (Corruption) and ``consultant`` (Counsel); ``random`` picks
uniformly among legal choices. Every archetype first takes an action that completes a Victory
Point when one exists, founds Departments up to ``departments`` offices, then works on its
routes in its order, then grows (Development, hire, shares, trade Employees for Influence).

What things are worth (``point_worth``, ``card_worth``, ...) is in Pinats and derived from the
rulebook's prices: a Victory Point is worth VP_PRICE, the price at which the rulebook sells one
on either purchasable route (4 Main Departments at 1,500,000, or Consultants in 3 Divisions at
2,000,000); a point on a track is its share of a Victory Point while the seat still lacks that
Victory Point; an Employee is a third of an Influence point (action F1 trades 3 for 1); an
action is worth at least a hire of 2 Employees. Bribes (offers, acceptances), resignations and
where a displaced Divisional Head goes are decided on these worths in the current state; the
bribe behaviour has two parameters, ``offer_extra`` and ``ask_extra`` (Pinats beyond the
reckoned price), which the shipped study varies.

Separately, every strategy has ``order``, its policy as Divisional Head of Communications when it
sorts the round's 8 event cards: random, max (7 Department Turns), min (4), self (events that
hurt it after the Directors' Meeting card, good ones before, the Bonus Payment first when it
earns more than the average) or adversarial (the same against the leader among the others).

A decision reads only what its seat may know: the public board, its own cards and money, the
event cards it sorted, ``money_seen`` for the others' money and ``routes_seen`` (with the chance
of an unseen Archenemy point) for their Victory Points. Every tie is broken from the game's
random stream. Scratch: decisions write their options to st[SCRATCH + 1..4] (choose_action),
st[SCRATCH + 1] (choose_chairman_privilege), the card of a first bribe attempt to
st[SCRATCH + 5]; order_events uses st[SCRATCH + 0..11] while the events are sorted (no action is
in progress then) and ``decide`` keeps the places already sorted in st[SCRATCH + 16..23] while it
sorts again.

``decide`` answers any decision point of the protocol (docs/protocol.md) with the decision
functions below, as a move code of ``simcore.games.power_struggle.game.legal``.
"""

import numpy as np
from numba import njit

from simcore.games.power_struggle import state as ps
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
    ACCOUNTING,
    BONUS,
    BONUS_EVENT,
    BRIBE_STEP,
    CHAIRMAN,
    COLOUR_CARD,
    COMMUNICATIONS,
    COMP_OF,
    CONSULT,
    CONSULTANT_PRICE,
    CONTROLLING,
    CORRUPTION,
    COUNSEL,
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
    DECLARED,
    DEVELOPMENT,
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
    HALF,
    HEAD,
    HEADS,
    HOLDER,
    HUMAN_RESOURCES,
    INFLUENCE,
    LEGAL,
    MAIN,
    MAIN_PRICE,
    MAX_EMPLOYEES,
    MAX_MOTIVATION,
    MAX_TURNS,
    MEETING_EVENT,
    MIN_BRIBE,
    MIN_TURNS,
    MONEY,
    MOTIVATION,
    N_ACTIONS,
    N_COMP_CARDS,
    N_COMPETENCES,
    N_DIVISIONS,
    N_OFFICES,
    N_PRIVILEGES,
    N_ROUTES,
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
    PILE,
    PLAYERS,
    REVEALED,
    ROWS,
    SCRATCH,
    SHARES,
    VP_THRESHOLD,
    action_move,
    action_possible,
    archenemy_with,
    board_members,
    counsel_divisions,
    departments,
    divisional_heads,
    employees,
    enticeable,
    has_vacancy,
    main_departments,
    money_seen,
    motivation_extra,
    offices_of,
    order_candidate,
    order_pick_ok,
    room,
    routes,
    routes_seen,
    share_blocks,
    share_option_ok,
    track,
    usable,
    vacancies,
)
from simcore.kernel.rng import rand_below, rand_float
from simcore.registry import Param, Strategy

RANDOM, BOARD, INVESTOR, BUILDER, CORRUPTER, CONSULTANT = range(6)

PARAM_NAMES = ("order", "offer_extra", "ask_extra", "p_bribe", "departments")
ORDER_PARAM, OFFER_EXTRA, ASK_EXTRA, P_BRIBE, TARGET_OFFICES = range(5)
ORDER_POLICY = Param(
    "order",
    "choice",
    "random",
    "how it sorts the 8 event cards as Divisional Head of Communications: random (every legal "
    "order equally likely), max (7 Department Turns), min (4), self (its own gain) or "
    "adversarial (against the leader among the others)",
    choices=ORDER_POLICIES,
)
ARCHETYPE_PARAMS = (
    ORDER_POLICY,
    Param(
        "offer_extra",
        "float",
        0.0,
        "Pinats it offers beyond the asking price it reckons for the card (asking_price, from the "
        "public board; negative: less), at least 50,000, in 50,000s, and only while the card is "
        "worth more than that to it",
        -10_000_000.0,
        10_000_000.0,
    ),
    Param(
        "ask_extra",
        "float",
        0.0,
        "Pinats it demands beyond its asking price before it accepts a bribe (what keeping the "
        "card is worth to it plus a share of the briber's gain, less the Corruption point and "
        "the Employee a refusal costs; often below 0, so it accepts the least bribe)",
        0.0,
        10_000_000.0,
    ),
    Param(
        "p_bribe",
        "float",
        1.0,
        "chance that it bribes on a turn when its Corruption route says so",
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
_SHARED = (
    "; bribes, resignations and a displaced head's move are decided on what they are worth "
    "(docs/games/power-struggle.md)"
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
        "Influence first: two Board Room seats at the start, resigns a Divisional Head to the "
        "Board when the seats are worth more than what it fires, uses Legal & Patents, trades 3 "
        "Employees for 1 Influence once it has 6; then Counsel, Shares, Main, Corruption" + _SHARED,
        ARCHETYPE_PARAMS,
    ),
    Strategy(
        "investor",
        INVESTOR,
        "Shares first: buys the largest block it can afford (using Accounting); then Influence "
        "(resigning to the Board when worth it), Main, Counsel, Corruption" + _SHARED,
        ARCHETYPE_PARAMS,
    ),
    Strategy(
        "builder",
        BUILDER,
        "Main Departments first: merges two Departments whenever it has two, buys one for "
        "1,500,000 when it can; then Shares, Influence (resigning to the Board when worth it), "
        "Counsel, Corruption" + _SHARED,
        ARCHETYPE_PARAMS,
    ),
    Strategy(
        "corrupter",
        CORRUPTER,
        "Corruption first: bribes (with probability p_bribe) for the card with the most surplus "
        "over its price; then Influence, Shares, Main, Counsel" + _SHARED,
        ARCHETYPE_PARAMS,
    ),
    Strategy(
        "consultant",
        CONSULTANT,
        "Counsel first: resigns Divisional Heads to the Counsel track of Divisions where it has "
        "no Consultant, buys Consultants there for 2,000,000; then Influence, Shares, Main, "
        "Corruption" + _SHARED,
        ARCHETYPE_PARAMS,
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
# The order in which each archetype (board, investor, builder, corrupter, consultant) works on
# the Victory Point routes (COMPETENCES: influence 0, shares 1, main 2, corruption 3, counsel 4).
ROUTE_ORDER = (
    0, 4, 1, 2, 3,
    1, 0, 2, 4, 3,
    2, 1, 0, 4, 3,
    3, 0, 1, 2, 4,
    4, 0, 1, 2, 3,
)  # fmt: skip

# --- what things are worth (Pinats) -------------------------------------------------------------
# The rulebook sells a Victory Point's worth of track at one price on both purchasable routes.
VP_PRICE = MAIN_PRICE * VP_THRESHOLD[MAIN]
assert VP_PRICE == CONSULTANT_PRICE * VP_THRESHOLD[COUNSEL]
EMPLOYEE_WORTH = VP_PRICE // (3 * VP_THRESHOLD[INFLUENCE])  # F1: 3 Employees for 1 Influence
ACTION_WORTH = 2 * EMPLOYEE_WORTH  # an action is worth at least a hire of 2 Employees
BOARD_MEMBER_BONUS = 3  # st[BONUS + 3]: the Bonus Payment per Board member
DEPARTMENT_BONUS = 1
MAIN_BONUS = 2


@njit(cache=True, _nrt=False)
def point_worth(st, seat, which):
    """A point on competence ``which`` (for counsel: a Consultant in a new Division) to ``seat``:
    its share of a Victory Point while ``seat`` lacks that Victory Point, else 0."""
    if which == COUNSEL:
        held = counsel_divisions(st, seat) >= VP_THRESHOLD[COUNSEL]
    else:
        held = track(st, seat, which) >= VP_THRESHOLD[which]
    return 0 if held else VP_PRICE // VP_THRESHOLD[which]


@njit(cache=True, _nrt=False)
def round_so_far(st):
    """(Directors' Meeting card turned up, Bonus Payment turned up) this round: public."""
    meeting_up = False
    bonus_up = False
    for position in range(st[REVEALED]):
        meeting_up = meeting_up or st[ORDER + position] == st[MEETING_EVENT]
        bonus_up = bonus_up or st[ORDER + position] == st[BONUS_EVENT]
    return meeting_up, bonus_up


@njit(cache=True, _nrt=False)
def chance_of_another_turn(st):
    """The chance, from what everybody has seen, that another Department Turn follows the
    current one this round, every legal order of the cards being equally likely: 0 once the
    meeting card came up, 1 while the Bonus Payment (which comes before it) has not."""
    meeting_up, bonus_up = round_so_far(st)
    revealed = st[REVEALED]
    if meeting_up:
        return 0.0
    if not bonus_up or revealed < MIN_TURNS:
        return 1.0
    # The meeting card is equally likely in each place from ``revealed`` to the last.
    return (ORDER_SIZE - 1 - revealed) / (ORDER_SIZE - revealed)


@njit(cache=True, _nrt=False)
def card_worth(st, seat, card, half, motivation):
    """What holding Privilege ``card`` face up with ``half`` for the rest of the round is worth
    to ``seat`` at ``motivation``: one use of it while a Department Turn may follow (Human
    Resources: its extra Employees; Accounting: its extra Shares; Development, Legal & Patents:
    what their action gives beyond an ordinary one), Controlling's extra Pinats per
    Department while the Bonus Payment is still to come, the Chairman's Department (Division
    half) or Main Department and point (Bribed half) and the Bribed Communications' extra
    action at the next meeting, nothing once the round is over."""
    meeting_up, bonus_up = round_so_far(st)
    if meeting_up:
        return 0.0
    if card == CHAIRMAN:
        if half == 0:
            return EMPLOYEE_WORTH + st[BONUS + DEPARTMENT_BONUS]
        return point_worth(st, seat, MAIN) + st[BONUS + MAIN_BONUS]
    if card == COMMUNICATIONS:  # the round's events are sorted already
        return ACTION_WORTH * half
    extra = motivation_extra(card, half, motivation)
    if card == CONTROLLING:
        if bonus_up:
            return 0.0
        return extra * (departments(st, seat, -1) + main_departments(st, seat, -1))
    more = chance_of_another_turn(st)
    if card == HUMAN_RESOURCES:
        return more * extra * EMPLOYEE_WORTH
    if card == ACCOUNTING:
        return more * extra * point_worth(st, seat, SHARES)
    if card == DEVELOPMENT:
        return more * max(0, (1 + 2 * half) * EMPLOYEE_WORTH - ACTION_WORTH)
    influence = point_worth(st, seat, INFLUENCE) - EMPLOYEE_WORTH  # LEGAL: an Employee a point
    return more * max(0, (1 + half) * influence - ACTION_WORTH)


@njit(cache=True, _nrt=False)
def held_worth(st, seat, card):
    """What ``card`` is worth to ``seat`` as it holds it now (0 face down: unusable)."""
    if st[HOLDER + card] != seat or st[FACE + card] == 0:
        return 0.0
    return card_worth(st, seat, card, st[HALF + card], st[MOTIVATION])


@njit(cache=True, _nrt=False)
def bribed_worth(st, seat, card):
    """What ``card`` would be worth to ``seat`` won by a bribe now: the Bribed half, face up
    only if it is face up now."""
    if st[FACE + card] == 0:
        return 0.0
    return card_worth(st, seat, card, 1, st[MOTIVATION])


@njit(cache=True, _nrt=False)
def asking_price(st, holder, briber, card):
    """What selling ``card`` to ``briber`` costs ``holder`` (may be negative): the card's worth
    to it, plus the briber's gain shared among the briber's other rivals, less what accepting
    brings (a Corruption point) and spares (the Employee a refusal costs). Every term is public,
    so a briber reckons it exactly as the holder does."""
    spared = EMPLOYEE_WORTH if employees(st, holder, -1) > 0 else 0
    return (
        held_worth(st, holder, card)
        + bribed_worth(st, briber, card) / (st[PLAYERS] - 1)
        - point_worth(st, holder, CORRUPTION)
        - spared
    )


@njit(cache=True, _nrt=False)
def board_gain(st, seat, joining):
    """Board members of ``seat`` after ``joining`` of its Managers sit down (each pushing out
    the leftmost member when the 5 chairs are taken), less those it has now."""
    now = board_members(st, seat)
    total = st[ps.BOARD_N] + joining
    pushed = max(0, total - ps.CHAIRS)
    after = min(joining, ps.CHAIRS)
    for chair in range(pushed, st[ps.BOARD_N]):
        after += st[ps.BOARD + chair] == seat
    return after - now


@njit(cache=True, _nrt=False)
def board_worth(st, seat):
    """One more Board member: the Influence point it scores at the next meeting and its Bonus
    Payment (it may be pushed out after that)."""
    return point_worth(st, seat, INFLUENCE) + st[BONUS + BOARD_MEMBER_BONUS]


@njit(cache=True, _nrt=False)
def department_worth(st, seat):
    """A Department (beyond its Employees): its next Bonus Payment, and half of the Main
    Department point two of them make by merging (an action and 2 Employees)."""
    merged = point_worth(st, seat, MAIN) - ACTION_WORTH - 2 * EMPLOYEE_WORTH
    return st[BONUS + DEPARTMENT_BONUS] + max(0, merged) / 2


@njit(cache=True, _nrt=False)
def resign_worth(st, seat, division, to_counsel):
    """What resigning its Divisional Head of ``division`` gains ``seat`` (may be negative): Board
    seats for it and its Department Heads there, or a Consultant in a new Division; less the
    Employees and Departments it fires there and the division's card if it holds it (turned
    face down)."""
    lost = held_worth(st, seat, division)
    joining = 1
    for row in range(ROWS):
        office = ROWS * division + row
        if st[OWNER + office] == seat:
            lost += st[EMP + office] * EMPLOYEE_WORTH
            if st[HEADS + office] == 1:
                lost += department_worth(st, seat)
                joining += 1
    if to_counsel:
        gained = 0.0
        if st[CONSULT + N_DIVISIONS * seat + division] == 0:
            gained = point_worth(st, seat, COUNSEL)
        return gained - lost
    return board_gain(st, seat, joining) * board_worth(st, seat) - lost


# --- what a seat may know of the others ----------------------------------------------------------


@njit(cache=True, _nrt=False)
def archenemy_chance(st, observer, seat):
    """The chance, as ``observer`` sees it, that ``seat`` holds its Archenemy point now: its own
    cards it knows, a declared player's are shown; else the average over the Colour and
    Competence cards ``seat`` may hold (those ``observer`` has not seen)."""
    if seat == observer or st[DECLARED + seat] == 1:
        return 1.0 if (routes(st, seat) >> (N_ROUTES - 1)) & 1 else 0.0
    players = st[PLAYERS]
    hits = 0
    cases = 0
    for colour in range(players):
        if seen_by(st, observer, COLOUR_CARD, colour):
            continue
        for card in range(st[N_COMP_CARDS]):
            if seen_by(st, observer, COMP_OF, card):
                continue
            cases += 1
            hits += archenemy_with(st, seat, colour, card)
    return hits / max(cases, 1)


@njit(cache=True, _nrt=False)
def seen_by(st, observer, cards_at, card):
    """``observer`` holds the Archenemy ``card`` (Colour cards at COLOUR_CARD, Competence cards
    at COMP_OF) or saw a declared player show it."""
    for p in range(st[PLAYERS]):
        if st[cards_at + p] == card and (p == observer or st[DECLARED + p] == 1):
            return True
    return False


@njit(cache=True, _nrt=False)
def standing(st, observer, seat):
    """``seat``'s Victory Points as ``observer`` can count them: the visible ones plus the
    chance of an Archenemy point it cannot see."""
    mask = routes_seen(st, observer, seat)
    n = ps.count_bits(mask, N_ROUTES)
    if (mask >> (N_ROUTES - 1)) & 1:
        return float(n)
    return n + archenemy_chance(st, observer, seat)


@njit(cache=True, _nrt=False)
def leader_of(st, seat, rng):
    """The player other than ``seat`` with the most Victory Points as ``seat`` sees them (then
    the most money as it can know it; still tied, chosen from the game's stream)."""
    best = -1
    best_standing = 0.0
    best_money = 0
    ties = 0
    for p in range(st[PLAYERS]):
        if p == seat:
            continue
        here = standing(st, seat, p)
        money = money_seen(st, seat, p)
        if best < 0 or here > best_standing or (here == best_standing and money > best_money):
            best = p
            best_standing = here
            best_money = money
            ties = 1
        elif here == best_standing and money == best_money:
            ties += 1
            if rand_below(rng, ties) == 0:
                best = p
    return best


# --- small queries ----------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def param(prm, seat, which):
    return prm[seat, which]


@njit(cache=True, _nrt=False)
def argmax_step(rng, best, best_score, ties, candidate, score):
    """One step of an argmax (start with best -1): (best, best score, candidates tied for it)
    after ``candidate`` with ``score``. The k-th candidate tied for the best takes the place
    with probability 1 / k, so every tied candidate is chosen equally often: ties are broken
    from the game's stream, never by index."""
    if best < 0 or score > best_score:
        return candidate, score, 1
    if score == best_score:
        ties += 1
        if rand_below(rng, ties) == 0:
            return candidate, best_score, ties
    return best, best_score, ties


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
def best_division(sid, seat, st, rng):
    """Where a new Department helps ``seat`` most: a division it would then lead for the
    Divisional Head, weighted by what that division's card does for its route; -1 if none."""
    best = -1
    best_score = 0
    ties = 0
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
        best, best_score, ties = argmax_step(rng, best, best_score, ties, division, score)
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
def new_counsel_division(st, seat, rng, heading):
    """A division where ``seat`` has no Consultant yet (only those it heads when ``heading``),
    chosen at random; -1 if none."""
    best = -1
    ties = 0
    for division in range(N_DIVISIONS):
        if st[CONSULT + N_DIVISIONS * seat + division] > 0:
            continue
        if heading and st[HEAD + division] != seat:
            continue
        best, _, ties = argmax_step(rng, best, 0, ties, division, 0)
    return best


@njit(cache=True, _nrt=False)
def merge_pair(st, seat, rng):
    """Two Departments of ``seat`` to merge (the second moves into the first's office): a pair in
    one division if any (the division keeps its Department Heads), else the pair with the fewest
    Employees (the fewest fired beyond the 2); ties at random."""
    best = -1  # N_OFFICES * first + second
    best_score = 0
    ties = 0
    for first in range(N_OFFICES):
        if st[OWNER + first] != seat or st[HEADS + first] != 1:
            continue
        for second in range(first + 1, N_OFFICES):
            if st[OWNER + second] != seat or st[HEADS + second] != 1:
                continue
            same = first // ROWS == second // ROWS
            score = 100 * same - st[EMP + first] - st[EMP + second]
            pair = N_OFFICES * first + second
            best, best_score, ties = argmax_step(rng, best, best_score, ties, pair, score)
    a, b = best // N_OFFICES, best % N_OFFICES
    if rand_below(rng, 2) == 1:  # which of the two moves: no reason to prefer either
        a, b = b, a
    return a, b


# --- the action --------------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
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
        if influence + 1 == VP_THRESHOLD[INFLUENCE] and employees(st, seat, -1) >= 3:
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
        if st[MONEY + seat] >= CONSULTANT_PRICE:
            set_choice(st, new_counsel_division(st, seat, rng, False), 0, 0, 0)
            return A_BUY_CONSULTANT
    return -1


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
def route_action(which, sid, prm, seat, st, rng):
    """The action that gains on Victory Point route ``which`` this turn, or -1."""
    if which == INFLUENCE:
        division = best_resignation(st, seat, False, rng)
        if division >= 0:
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
        if st[MONEY + seat] >= CONSULTANT_PRICE:
            set_choice(st, new_counsel_division(st, seat, rng, False), 0, 0, 0)
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
    return best_division(sid, seat, st, rng)


@njit(cache=True, _nrt=False)
def vacancies_count(st):
    n = 0
    for division in range(N_DIVISIONS):
        n += has_vacancy(st, division)
    return n


@njit(cache=True, _nrt=False)
def office_by(st, rng, owner, exclude, division, need_staff, need_room, score_kind):
    """The office of ``owner`` (not ``exclude``; in ``division`` unless -1; with Employees /
    with room) with the best score, ties at random. ``score_kind`` 0: fewest Managers, then
    fewest Employees (where a new Employee goes; where a victim loses one); 1: most Employees,
    then most Managers (the office an own Employee leaves: Main Departments never close)."""
    best = -1
    best_score = 0
    ties = 0
    for office in range(N_OFFICES):
        if not office_fits(st, office, owner, need_staff, need_room, exclude, division):
            continue
        size = (MAX_EMPLOYEES + 1) * st[HEADS + office] + st[EMP + office]
        if score_kind == 1:
            size = (MAX_EMPLOYEES + 1) * st[EMP + office] + st[HEADS + office]
        score = -size if score_kind == 0 else size
        best, best_score, ties = argmax_step(rng, best, best_score, ties, office, score)
    return best


@njit(cache=True, _nrt=False)
def choose_employee_office(sid, prm, seat, st, rng):
    """Where a new Employee of ``seat`` goes: its Department with the fewest Employees (then its
    Main Department with the fewest)."""
    if sid == RANDOM:
        return pick_office(st, rng, seat, False, True, -1, -1)
    return office_by(st, rng, seat, -1, -1, False, True, 0)


@njit(cache=True, _nrt=False)
def choose_source_office(sid, prm, seat, exclude, st, rng):
    """Which of its offices gives up an Employee to a new Department: the one with the most
    (Main Departments first on a tie: they never close)."""
    if sid == RANDOM:
        return pick_office(st, rng, seat, True, False, exclude, -1)
    return office_by(st, rng, seat, exclude, -1, True, False, 1)


@njit(cache=True, _nrt=False)
def choose_fire_office(sid, prm, seat, division, st, rng):
    """Which of its own Employees ``seat`` dismisses (in ``division`` unless -1)."""
    if sid == RANDOM:
        return pick_office(st, rng, seat, True, False, -1, division)
    return office_by(st, rng, seat, -1, division, True, False, 1)


@njit(cache=True, _nrt=False)
def choose_victim_office(sid, prm, chooser, victim, st, rng):
    """Which of ``victim``'s Employees ``chooser`` removes: one that closes a Department if it
    can, else from its smallest office."""
    if sid == RANDOM:
        return pick_office(st, rng, victim, True, False, -1, -1)
    return office_by(st, rng, victim, -1, -1, True, False, 0)


@njit(cache=True, _nrt=False)
def choose_entice(sid, prm, seat, taken, st, rng):
    """Development: the office another player (not yet in ``taken``) loses an Employee from, or
    -1 for the supply: the leader's smallest office first."""
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
    leader = leader_of(st, seat, rng)
    best = -1
    best_score = 0
    ties = 0
    for office in range(N_OFFICES):
        if not enticeable(st, office, seat, taken):
            continue
        size = (MAX_EMPLOYEES + 1) * st[HEADS + office] + st[EMP + office]
        score = 100 * (st[OWNER + office] == leader) - size
        best, best_score, ties = argmax_step(rng, best, best_score, ties, office, score)
    return best


@njit(cache=True, _nrt=False)
def choose_displaced(sid, prm, seat, division, st, rng):
    """A displaced Divisional Head goes to the Board Room (0) or the Counsel track (1),
    whichever is worth more to ``seat`` (a tie at random)."""
    if sid == RANDOM:
        return rand_below(rng, 2)
    board = board_gain(st, seat, 1) * board_worth(st, seat)
    counsel = 0
    if st[CONSULT + N_DIVISIONS * seat + division] == 0:
        counsel = point_worth(st, seat, COUNSEL)
    if board == counsel:
        return rand_below(rng, 2)
    return 1 if counsel > board else 0


@njit(cache=True, _nrt=False)
def choose_bribe(sid, prm, seat, attempt, st, rng):
    """(card, amount) of a bribe attempt; card -1 skips a second attempt. An archetype wants the
    card with the most surplus (its worth to it won by the bribe, less the price: the holder's
    asking price plus its ``offer_extra``, at least 50,000, in 50,000s); a second
    attempt skips the card just refused and needs a surplus. A first attempt with no surplus
    anywhere (the Corruption point alone is worth the action) offers 50,000."""
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
    best = -1
    best_surplus = 0.0
    ties = 0
    for card in range(N_PRIVILEGES):
        if st[HOLDER + card] == seat or (attempt == 2 and card == st[SCRATCH + 5]):
            continue
        surplus = bribed_worth(st, seat, card) - bribe_price(st, prm, seat, card)
        best, best_surplus, ties = argmax_step(rng, best, best_surplus, ties, card, surplus)
    if best < 0 or (attempt == 2 and best_surplus < 0):
        return -1, 0
    st[SCRATCH + 5] = best
    amount = bribe_price(st, prm, seat, best) if best_surplus >= 0 else MIN_BRIBE
    return best, min(amount, st[MONEY + seat] // MIN_BRIBE * MIN_BRIBE)


@njit(cache=True, _nrt=False)
def bribe_price(st, prm, seat, card):
    """What ``seat`` would offer for ``card``: the holder's asking price plus its
    ``offer_extra``, in whole 50,000s, at least 50,000."""
    wanted = asking_price(st, st[HOLDER + card], seat, card) + param(prm, seat, OFFER_EXTRA)
    return max(MIN_BRIBE, np.int64(np.ceil(wanted / MIN_BRIBE)) * MIN_BRIBE)


@njit(cache=True, _nrt=False)
def accept_bribe(sid, prm, seat, briber, card, amount, st, rng):
    """An archetype accepts at least its asking price plus ``ask_extra``."""
    if sid == RANDOM:
        return rand_float(rng) < 0.5
    return amount >= asking_price(st, seat, briber, card) + param(prm, seat, ASK_EXTRA)


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
    return best_division(sid, seat, st, rng)


# --- sorting the event cards -------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def event_worth(st, event, judged, observer):
    """What non-standard ``event`` is worth to ``judged`` as ``observer`` reckons it (Pinats):
    payments exactly (money as ``observer`` can know it decides who is the richest or the
    poorest), an Employee lost EMPLOYEE_WORTH, a card turned face down its worth, a Motivation
    change what it changes in the worth of the Human Resources, Accounting and Controlling cards
    ``judged`` holds face up (their effects grow as Motivation falls)."""
    base = EVENT_FX + EVENT_WIDTH * event
    worth = 0.0
    players = st[PLAYERS]
    richest = money_seen(st, observer, 0)
    poorest = richest
    for p in range(players):
        richest = max(richest, money_seen(st, observer, p))
        poorest = min(poorest, money_seen(st, observer, p))
    money = money_seen(st, observer, judged)
    motivation = st[MOTIVATION]
    for k in range(st[base]):
        fx = base + 1 + FX_FIELDS * k
        kind = st[fx]
        who = st[fx + 1]
        per = st[fx + 2]
        amount = st[fx + 3]
        division = st[fx + 4]
        if kind == FX_MOTIVATION:
            after = max(0, min(MAX_MOTIVATION, motivation + amount))
            for card in (HUMAN_RESOURCES, ACCOUNTING, CONTROLLING):
                if st[HOLDER + card] == judged and st[FACE + card] == 1:
                    half = st[HALF + card]
                    worth += card_worth(st, judged, card, half, after)
                    worth -= card_worth(st, judged, card, half, motivation)
            motivation = after
        elif kind == FX_FACE_DOWN:
            worth -= held_worth(st, judged, division)
        elif kind == FX_MORON:
            head = st[HEAD + COMMUNICATIONS]
            if head == judged:
                worth -= amount * (players - 1)
            elif head >= 0:
                worth += amount
        elif ps.matches(st, judged, who, division, money, richest, poorest):
            if kind == FX_LOSE:
                worth -= EMPLOYEE_WORTH * min(amount, employees(st, judged, division))
            elif kind == FX_RECEIVE:
                worth += amount * ps.units(st, judged, per)
            else:
                worth -= amount * ps.units(st, judged, per)
    return worth


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
    judged = seat if policy == ORDER_SELF else leader_of(st, seat, rng)
    sign = 1 if policy == ORDER_SELF else -1
    good = 0
    for i in range(6):
        st[SCRATCH + 6 + i] = np.int64(sign * event_worth(st, st[PILE + i], judged, seat))
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


# --- the decision-point protocol -----------------------------------------------------------------


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
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
