"""The Power Struggle strategies' ids, parameters and registry entries, and the archetypes'
preferences: which Divisions each founds Departments in and the order in which it works on the
Victory Point routes."""

from simcore.games.power_struggle.state import ORDER_POLICIES
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
