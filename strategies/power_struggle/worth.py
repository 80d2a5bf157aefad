"""What things are worth to a Power Struggle seat, in Pinats derived from the rulebook's prices
(Victory Points, track points, Privilege cards, Board seats, Departments, resignations, the
asking price of a bribe), and what a seat may know of the others (their Victory Points with the
chance of an unseen Archenemy point, the leader)."""

from numba import njit

from simcore.games.power_struggle import state as ps
from simcore.games.power_struggle.state import (
    ACCOUNTING,
    BONUS,
    BONUS_EVENT,
    CHAIRMAN,
    COLOUR_CARD,
    COMMUNICATIONS,
    COMP_OF,
    CONSULT,
    CONSULTANT_PRICE,
    CONTROLLING,
    CORRUPTION,
    COUNSEL,
    DECLARED,
    DEVELOPMENT,
    EMP,
    FACE,
    HALF,
    HEADS,
    HOLDER,
    HUMAN_RESOURCES,
    INFLUENCE,
    MAIN,
    MAIN_PRICE,
    MEETING_EVENT,
    MIN_TURNS,
    MOTIVATION,
    N_COMP_CARDS,
    N_DIVISIONS,
    N_ROUTES,
    ORDER,
    ORDER_SIZE,
    OWNER,
    PLAYERS,
    REVEALED,
    ROWS,
    SHARES,
    VP_THRESHOLD,
    archenemy_with,
    board_members,
    card_on,
    counsel_divisions,
    departments,
    loses_employee,
    main_departments,
    money_seen,
    motivation_extra,
    routes,
    routes_seen,
    track,
)
from simcore.kernel.rng import rand_below

# --- what things are worth (Pinats) -------------------------------------------------------------
# The rulebook sells a Victory Point's worth of track at one price on both purchasable routes.
VP_PRICE = MAIN_PRICE * VP_THRESHOLD[MAIN]
assert VP_PRICE == CONSULTANT_PRICE * VP_THRESHOLD[COUNSEL]
EMPLOYEE_WORTH = VP_PRICE // (3 * VP_THRESHOLD[INFLUENCE])  # F1: 3 Employees for 1 Influence
ACTION_WORTH = 2 * EMPLOYEE_WORTH  # an action is worth at least a hire of 2 Employees
BOARD_MEMBER_BONUS = 3  # st[BONUS + 3]: the Bonus Payment per Board member
DEPARTMENT_BONUS = 1
MAIN_BONUS = 2


@njit(cache=True, _nrt=False, forceinline=False)
def point_worth(st, seat, which):
    """A point on competence ``which`` (for counsel: a Consultant in a new Division) to ``seat``:
    its share of a Victory Point while ``seat`` lacks that Victory Point, else 0."""
    if which == COUNSEL:
        held = counsel_divisions(st, seat) >= VP_THRESHOLD[COUNSEL]
    else:
        held = track(st, seat, which) >= VP_THRESHOLD[which]
    return 0 if held else VP_PRICE // VP_THRESHOLD[which]


@njit(cache=True, _nrt=False, forceinline=False)
def round_so_far(st):
    """(Directors' Meeting card turned up, Bonus Payment turned up) this round: public."""
    meeting_up = False
    bonus_up = False
    for position in range(st[REVEALED]):
        meeting_up = meeting_up or st[ORDER + position] == st[MEETING_EVENT]
        bonus_up = bonus_up or st[ORDER + position] == st[BONUS_EVENT]
    return meeting_up, bonus_up


@njit(cache=True, _nrt=False, forceinline=False)
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


@njit(cache=True, _nrt=False, forceinline=False)
def card_worth(st, seat, card, half, motivation):
    """What holding Privilege ``card`` face up with ``half`` for the rest of the round is worth
    to ``seat`` at ``motivation``: one use of it while a Department Turn may follow (Human
    Resources: its extra Employees; Accounting: its extra Shares; Development, Legal & Patents:
    what their action gives beyond an ordinary one), Controlling's extra Pinats per
    Department while the Bonus Payment is still to come, the Chairman's Department (Division
    half) or Main Department and point (Bribed half) and the Bribed Communications' extra
    action at the next meeting, nothing once the round is over."""
    meeting_up, bonus_up = round_so_far(st)
    if meeting_up or not card_on(st, card):
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


@njit(cache=True, _nrt=False, forceinline=False)
def held_worth(st, seat, card):
    """What ``card`` is worth to ``seat`` as it holds it now (0 face down: unusable)."""
    if st[HOLDER + card] != seat or st[FACE + card] == 0:
        return 0.0
    return card_worth(st, seat, card, st[HALF + card], st[MOTIVATION])


@njit(cache=True, _nrt=False, forceinline=False)
def bribed_worth(st, seat, card):
    """What ``card`` would be worth to ``seat`` won by a bribe now: the Bribed half, face up
    only if it is face up now."""
    if st[FACE + card] == 0:
        return 0.0
    return card_worth(st, seat, card, 1, st[MOTIVATION])


@njit(cache=True, _nrt=False, forceinline=False)
def asking_price(st, holder, briber, card):
    """What selling ``card`` to ``briber`` costs ``holder`` (may be negative): the card's worth
    to it, plus the briber's gain shared among the briber's other rivals, less what accepting
    brings (a Corruption point) and spares (the Employee a refusal costs). Every term is public,
    so a briber reckons it exactly as the holder does."""
    spared = EMPLOYEE_WORTH if loses_employee(st, holder) else 0
    return (
        held_worth(st, holder, card)
        + bribed_worth(st, briber, card) / (st[PLAYERS] - 1)
        - point_worth(st, holder, CORRUPTION)
        - spared
    )


@njit(cache=True, _nrt=False, forceinline=False)
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


@njit(cache=True, _nrt=False, forceinline=False)
def board_worth(st, seat):
    """One more Board member: the Influence point it scores at the next meeting and its Bonus
    Payment (it may be pushed out after that)."""
    return point_worth(st, seat, INFLUENCE) + st[BONUS + BOARD_MEMBER_BONUS]


@njit(cache=True, _nrt=False, forceinline=False)
def department_worth(st, seat):
    """A Department (beyond its Employees): its next Bonus Payment, and half of the Main
    Department point two of them make by merging (an action and 2 Employees)."""
    merged = point_worth(st, seat, MAIN) - ACTION_WORTH - 2 * EMPLOYEE_WORTH
    return st[BONUS + DEPARTMENT_BONUS] + max(0, merged) / 2


@njit(cache=True, _nrt=False, forceinline=False)
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


@njit(cache=True, _nrt=False, forceinline=False)
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


@njit(cache=True, _nrt=False, forceinline=False)
def seen_by(st, observer, cards_at, card):
    """``observer`` holds the Archenemy ``card`` (Colour cards at COLOUR_CARD, Competence cards
    at COMP_OF) or saw a declared player show it."""
    for p in range(st[PLAYERS]):
        if st[cards_at + p] == card and (p == observer or st[DECLARED + p] == 1):
            return True
    return False


@njit(cache=True, _nrt=False, forceinline=False)
def standing(st, observer, seat):
    """``seat``'s Victory Points as ``observer`` can count them: the visible ones plus the
    chance of an Archenemy point it cannot see."""
    mask = routes_seen(st, observer, seat)
    n = ps.count_bits(mask, N_ROUTES)
    if (mask >> (N_ROUTES - 1)) & 1:
        return float(n)
    return n + archenemy_chance(st, observer, seat)


@njit(cache=True, _nrt=False, forceinline=False)
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
