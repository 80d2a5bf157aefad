"""A slow, readable, independent referee for Power Struggle that replays kernel traces.

The referee is a second implementation of the rules in ``/work/shared/rules/power-struggle.md``
(quoted as "Rulebook: ..."), written from the rulebook and not from the kernel. Where the rulebook
leaves components to the data file (the 24 non-standard Event cards and their effect vocabulary,
the golden spaces, which Archenemy Competence cards are in play) it reads that file itself with
``tomllib`` and follows the file's header, which is the cards' text ("Data file: ..."). It shares
with the numba kernel only the event, cause and action codes of
``simcore.games.power_struggle.state``.

Two parts:

* ``PowerStruggle``, the rulebook model: the state of a game (money, Privilege cards and their
  halves and faces, the Board Room, the Chairman, Divisions with their Divisional Heads and
  Department Offices, the tracks, the Counsel track, the Blocks of Shares, Motivation, the
  Archenemy cards) and every rule as a readable method: the set-up and the initial appointment
  round, meeting steps 1-7, the events, actions A-G, bribes, Victory Points and the end. A method
  that carries out a decision first checks that it is legal and raises ``IllegalMove`` naming
  the rule. Every change is written to a journal of plain facts, in order.
* ``Referee``, the replay. The trace holds decisions and chance (which office, Division or card,
  the bribe amounts and answers, the displaced Divisional Head's choice, the event order, the
  deal) and consequences (everything else). The referee takes the decisions from the trace,
  hands them to the model (which checks they are legal) and asserts that the kernel's next rows
  are exactly the facts the model journaled, then compares every snapshot and the end.

Any disagreement raises ``AssertionError`` naming the game, the trace row index, what the rules
expected and what the kernel wrote.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field, fields
from pathlib import Path

import simcore
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
    A_RESIGN,
    ACTIONS,
    BOARD_CAUSES,
    CONSULTANT_CAUSES,
    E_ENTICE_IN,
    E_ENTICE_OUT,
    E_EVENT,
    E_HIRE,
    E_INFLUENCE,
    E_LEGAL,
    E_TRANSFER_OUT,
    EMPLOYEE_CAUSES,
    EV_ACTION,
    EV_APPOINT,
    EV_BRIBE,
    EV_CHAIRMAN,
    EV_CHAIRMAN_USE,
    EV_DEAL,
    EV_DECLARE,
    EV_EMPLOYEE,
    EV_END,
    EV_EVENT,
    EV_EXTRA_ACTION,
    EV_FACE_DOWN,
    EV_HEAD,
    EV_INFLUENCE,
    EV_MEETING,
    EV_OFFICE,
    EV_ORDER,
    EV_ORDER_CARD,
    EV_PAY,
    EV_POINTS,
    EV_SETUP,
    EV_SNAP_BOARD,
    EV_SNAP_CARD,
    EV_SNAP_OFFICE,
    EV_SNAP_SEAT,
    EV_STOCK,
    EV_TURN,
    EVENT_NAMES,
    O_CLOSED,
    OFFICE_CAUSES,
    ORDER_POLICIES,
    PAY_CAUSES,
    POINT_CAUSES,
    TRACKS,
)
from simcore.games.power_struggle.state import COMPETENCES as STATE_COMPETENCES
from tests.trace_cursor import TraceCursor

DEFAULT_DATA = Path(simcore.__file__).parent / "data" / "power_struggle_default.toml"

# --- components ---------------------------------------------------------------------------

#: Rulebook, Determine new Divisional Heads: "Start on the left with the Development Division
#: and proceed from left to right through the Controlling Division."
DIVISIONS = (
    "Development",
    "Human Resources",
    "Communications",
    "Accounting",
    "Legal & Patents",
    "Controlling",
)
DEVELOPMENT, HUMAN_RESOURCES, COMMUNICATIONS, ACCOUNTING, LEGAL, CONTROLLING = range(6)
#: The seven Privilege cards: one per Division, then the Chairman's.
CHAIRMAN_CARD = 6
PRIVILEGES = DIVISIONS + ("Chairman",)
#: The data file's names of the Divisions (and of the Chairman's card, for ``face_down``).
DATA_DIVISIONS = {
    "development": DEVELOPMENT,
    "human_resources": HUMAN_RESOURCES,
    "communications": COMMUNICATIONS,
    "accounting": ACCOUNTING,
    "legal_patents": LEGAL,
    "controlling": CONTROLLING,
    "chairman": CHAIRMAN_CARD,
}

OFFICES_PER_DIVISION = 6  # Rulebook: "There are 6 Department Offices located in each ... Division"
BOARD_CHAIRS = 5  # Rulebook: "all 5 chairs in the Board Room"
MAX_EMPLOYEES = 6  # Rulebook: "No more than 6 Employees can be in a Department or Main Department"
START_MONEY = 800_000  # Rulebook, Set Up 5
MOTIVATION_TOP = 6  # Rulebook, Set Up 2 and meeting step 6: "space 6 of the Motivation track"
INITIAL_EMPLOYEES = 3  # Rulebook, Initial Appointment Round 2: "add 3 Employees"
MIN_BRIBE = 50_000  # Rulebook, E: "50,000 Pinats or more"
MAIN_DEPARTMENT_PRICE = 1_500_000  # Rulebook, F2
CONSULTANT_PRICE = 2_000_000  # Rulebook, F3
HIRED_EMPLOYEES = 2  # Rulebook, A: "take 2 Employees from the supply"
EMPLOYEES_PER_INFLUENCE = 3  # Rulebook, F1: "dismisses 3 Employees ... gains 1 point"

#: Rulebook, F4: the price of a Block of n Shares (Accounting: "a 0 Share Block is considered to
#: have a price of 0 Pinats").
SHARE_PRICES = {
    0: 0,
    1: 100_000,
    2: 200_000,
    3: 400_000,
    4: 600_000,
    5: 900_000,
    6: 1_200_000,
    7: 1_600_000,
}


#: Rulebook, Standard Event Bonus Payment: "100,000 Pinats for each Block of Shares ... 100,000
#: Pinats for each Department, 200,000 Pinats for each Main Department, 150,000 Pinats for each
#: Manager on the Board of Directors, 300,000 Pinats for the Chairman".
BONUS_PAYMENT = {
    "share_block": 100_000,
    "department": 100_000,
    "main_department": 200_000,
    "board_member": 150_000,
    "chairman": 300_000,
}


def share_blocks_in_play(players: int) -> dict[int, int]:
    """Rulebook, Set Up 4: "If playing with 5 players use all the Blocks of Shares, with 4
    players remove one of each of the 1 Share to 5 Share Blocks and with 3 players use only two
    of each Blocks of Shares (one to seven)." There are 3 Blocks of each size."""
    if players == 5:
        return {size: 3 for size in range(1, 8)}
    if players == 4:
        return {size: 2 if size <= 5 else 3 for size in range(1, 8)}
    return {size: 2 for size in range(1, 8)}


# Competence tracks, in the rulebook's order ("(1) Influence, (2) Shares, (3) Main
# Departments, (4) Corruption and (5) Counsel").
INFLUENCE, SHARES, MAIN_DEPARTMENTS, CORRUPTION, COUNSEL = range(5)
COMPETENCES = ("influence", "shares", "main_departments", "corruption", "counsel")
POINT_TRACKS = (INFLUENCE, SHARES, MAIN_DEPARTMENTS, CORRUPTION)
#: Rulebook, Object of the Game: the first green space of each track ("at least 7 points on the
#: Influence track", 18 Shares, 4 Main Departments, 9 Corruption; "at least 1 Consultant in at
#: least 3 different Divisions on the Counsel track").
VP_THRESHOLDS = {INFLUENCE: 7, SHARES: 18, MAIN_DEPARTMENTS: 4, CORRUPTION: 9, COUNSEL: 3}
#: The two standard Event cards ("Bonus Payment", "Directors' Meeting"); the 24 others are
#: numbered 0, 1, ... in the data file's order (a card with count c takes c numbers).
BONUS, MEETING = -1, -2


def human_resources_bonus(bribed: bool, motivation: int) -> int:
    """Rulebook, Human Resources Privilege card: additional new Employees. Division half: none
    at Motivation 4-6, 1 at 2-3, 2 at 0-1; Bribed half: 1 at 4-6, 2 at 2-3, 3 at 0-1."""
    base = 1 if bribed else 0
    if motivation >= 4:
        return base
    if motivation >= 2:
        return base + 1
    return base + 2


def accounting_bonus(bribed: bool, motivation: int) -> int:
    """Rulebook, Accounting Privilege card: additional Shares. Division half: none at Motivation
    4-6, 1 at 2-3, 2 at 0-1; Bribed half: 1 at 4-6, 2 at 2-3, 3 at 0-1."""
    return human_resources_bonus(bribed, motivation)  # the two cards print the same table


def controlling_bonus(bribed: bool, motivation: int) -> int:
    """Rulebook, Controlling Privilege card: additional Pinats per Department / Main Department
    at a Bonus Payment. Division half: none at Motivation 5-6, 50,000 at 3-4, 100,000 at 0-2;
    Bribed half: 100,000 at 3-6, 150,000 at 2, 200,000 at 0-1."""
    if bribed:
        if motivation >= 3:
            return 100_000
        return 150_000 if motivation == 2 else 200_000
    if motivation >= 5:
        return 0
    return 50_000 if motivation >= 3 else 100_000


@dataclass(frozen=True)
class HouseRules:
    """The rule parameters a game is played with (docs/games/power-struggle.md, "House rules");
    every default is the rulebook's."""

    starting_money: int = START_MONEY
    bribes_allowed: bool = True
    bribe_cap: int = 0  # Pinats one bribe may hold at most; 0: no cap
    second_bribe: bool = True
    refusal_costs_employee: bool = True
    cards_on: tuple[bool, ...] = (True,) * 7  # each Privilege card's power, PRIVILEGES order
    chairman_influence: int = 2
    board_influence: int = 1
    motivation_reset: bool = True
    hired_employees: int = HIRED_EMPLOYEES
    main_department_price: int = MAIN_DEPARTMENT_PRICE
    consultant_price: int = CONSULTANT_PRICE
    influence_cost: int = EMPLOYEES_PER_INFLUENCE
    influence_scoring: str = "new board"  # "outgoing board": step 5 moved before step 1

    #: The names of the cards' parameters (``<name>_card``), PRIVILEGES order.
    CARD_NAMES = (
        "development", "human_resources", "communications", "accounting", "legal_patents",
        "controlling", "chairman",
    )  # fmt: skip

    @classmethod
    def of(cls, rules: dict) -> HouseRules:
        """The house rules of a rules dict (the game's parameters by name)."""
        named = {f.name for f in fields(cls)} - {"cards_on"}
        cards = tuple(bool(rules.get(f"{name}_card", True)) for name in cls.CARD_NAMES)
        return cls(**{name: rules[name] for name in named if name in rules}, cards_on=cards)

    def bribe_allowed(self, amount: int) -> bool:
        """Rulebook, E: "50,000 Pinats or more", and no more than the cap (``bribe_cap``)."""
        return amount >= MIN_BRIBE and (self.bribe_cap == 0 or amount <= self.bribe_cap)


class IllegalMove(Exception):
    """A decision the rulebook does not allow (the message quotes the rule)."""


def require(condition: bool, rule: str) -> None:
    if not condition:
        raise IllegalMove(rule)


# --- the state ----------------------------------------------------------------------------


@dataclass
class Department:
    """A Department Office in use: one Department Head (a Department) or two (a Main
    Department), and its Employees."""

    owner: int
    managers: int  # 1: a Department, 2: a Main Department
    employees: int

    @property
    def is_main(self) -> bool:
        return self.managers == 2


@dataclass
class Division:
    """Rulebook: a Divisional Head's office above 6 Department Offices. ``offices`` lists the
    Departments from the top: "As soon as a Department Office becomes vacant, any existing
    Departments or Main Departments in the same Division that are below it should be moved up",
    so the occupied offices are always the topmost ones."""

    head: int | None = None  # the owner of the Divisional Head
    offices: list[Department] = field(default_factory=list)

    def vacant(self) -> int:
        return OFFICES_PER_DIVISION - len(self.offices)


@dataclass
class PrivilegeCard:
    """Rulebook, Privilege Cards: held by a player, with the Division half (gray) or the Bribed
    half (golden) facing him, face up (usable) or face down (invalid)."""

    holder: int
    bribed: bool = False
    face_up: bool = True


@dataclass
class Player:
    money: int = START_MONEY
    points: dict[int, int] = field(default_factory=lambda: {t: 0 for t in POINT_TRACKS})
    consultants: list[int] = field(default_factory=lambda: [0] * len(DIVISIONS))
    blocks: list[int] = field(default_factory=list)  # the size of each Block of Shares owned
    archenemy: int = -1  # the player on his Archenemy Color card (himself: his own colour)
    competence_card: int = -1  # his Archenemy Competence card (among the cards in play)
    competences: tuple[int, ...] = ()  # its 3 competences
    declared: bool = False  # announced 4 or more Victory Points
    archenemy_locked: bool = False  # Rulebook: the Archenemy VP "cannot later be lost"


@dataclass(frozen=True)
class Effect:
    """One effect of an event card, in the data file's vocabulary (its header is the cards'
    text: "All further Event cards are self-explanatory. Simply follow the text on the Event
    cards")."""

    kind: str  # motivation, receive, pay, lose_employees, face_down, moron
    who: str = "all"
    per: str = "flat"
    amount: int = 0
    division: int | None = None  # a Division, CHAIRMAN_CARD (face_down), or None


@dataclass(frozen=True)
class EventCard:
    name: str
    effects: tuple[Effect, ...]


@dataclass(frozen=True)
class GameData:
    """The numbers of the components. The rulebook prints the prices, the Block stock and the
    bonus payment; where each competence track ends in a golden space (None: no golden space),
    the Archenemy Competence cards in play and the event cards are the data file's."""

    golden: dict[int, int | None]
    competence_cards: tuple[tuple[int, ...], ...]  # the cards in play at this player count
    share_prices: dict[int, int] = field(default_factory=lambda: dict(SHARE_PRICES))
    share_stock: dict[int, int] = field(default_factory=dict)
    bonus: dict[str, int] = field(default_factory=lambda: dict(BONUS_PAYMENT))
    events: tuple[EventCard, ...] = ()  # one entry per card (a card with count c: c entries)
    competence_card_ids: tuple[int, ...] = ()  # each card in play's index in the data file

    @classmethod
    def load(cls, path: str, players: int) -> GameData:
        """Read the data file (``simcore/data/power_struggle_default.toml`` when ``path`` is
        empty) with ``tomllib``; its header comments define each table."""
        source = Path(path) if path else DEFAULT_DATA
        data = tomllib.loads(source.read_text())
        golden = {COMPETENCES.index(name): int(top) for name, top in data["tracks"].items()}
        prices = {size: int(p) for size, p in enumerate(data["shares"]["prices"], start=1)}
        stock = dict(enumerate(data["shares"][f"players_{players}"], start=1))
        # "`players` is the smallest table the card is used at".
        kept = [
            (index, tuple(COMPETENCES.index(c) for c in card["competences"]))
            for index, card in enumerate(data["archenemy_competence"])
            if int(card["players"]) <= players
        ]
        events = []
        for card in data["events"]:
            effects = tuple(
                Effect(
                    kind=fx["kind"],
                    who=fx.get("who", "all"),
                    per=fx.get("per", "flat"),
                    amount=int(fx.get("amount", 0)),
                    division=DATA_DIVISIONS.get(fx["division"]) if "division" in fx else None,
                )
                for fx in card["effects"]
            )
            events += [EventCard(card["name"], effects)] * int(card.get("count", 1))
        return cls(
            golden=golden,
            competence_cards=tuple(card for _, card in kept),
            share_prices={0: 0, **prices},
            share_stock={size: int(n) for size, n in stock.items()},
            bonus={item: int(v) for item, v in data["bonus_payment"].items()},
            events=tuple(events),
            competence_card_ids=tuple(index for index, _ in kept),
        )


Office = tuple[int, int]  # (division, row from the top) as the office stands at that moment


class PowerStruggle:
    """The state of one game and the rules that change it.

    Every change is also written, in order, to ``journal`` as a plain fact (``("employee",
    owner, division, row, change, after, cause)``, ``("board_in", player, chair, cause)``, ...)
    so that a replay can compare each step with the kernel's trace. Offices are named as they
    stand at the moment of each step: a decision that names several offices names each one as it
    stands when its turn comes (after any Department above it closed or moved away)."""

    def __init__(self, players: int, data: GameData, house: HouseRules = HouseRules()):
        require(3 <= players <= 5, "Rulebook: 'A game for 3-5 managers'")
        self.n = players
        self.data = data
        self.house = house
        self.players = [Player(money=house.starting_money) for _ in range(players)]
        self.divisions = [Division() for _ in DIVISIONS]
        self.board: list[int] = []  # owners of the Board Room chairs, from the left
        self.chairman: int | None = None
        self.cards = [PrivilegeCard(holder=0) for _ in PRIVILEGES]
        self.motivation = MOTIVATION_TOP
        self.share_supply = dict(data.share_stock or share_blocks_in_play(players))
        self.round = 0
        self.journal: list[tuple] = []

    def note(self, *fact) -> None:
        self.journal.append(fact)

    # --- small queries ------------------------------------------------------------------

    def clockwise(self, start: int) -> list[int]:
        return [(start + k) % self.n for k in range(self.n)]

    def departments_of(self, player: int) -> list[tuple[int, Department]]:
        """(division, department) of every Department and Main Department ``player`` owns."""
        return [
            (d, dep)
            for d, division in enumerate(self.divisions)
            for dep in division.offices
            if dep.owner == player
        ]

    def employees_of(self, player: int) -> int:
        return sum(dep.employees for _, dep in self.departments_of(player))

    def room_of(self, player: int) -> int:
        """Free places for Employees in his Departments and Main Departments (6 each)."""
        return sum(MAX_EMPLOYEES - dep.employees for _, dep in self.departments_of(player))

    def office(self, at: Office) -> Department:
        division, row = at
        require(0 <= division < len(DIVISIONS), f"a Division (not {division})")
        offices = self.divisions[division].offices
        require(0 <= row < len(offices), f"an occupied office (row {row} of {DIVISIONS[division]})")
        return offices[row]

    def own_office(self, player: int, at: Office) -> Department:
        dep = self.office(at)
        require(dep.owner == player, f"an office of player {player}'s own, not {dep.owner}'s")
        return dep

    def where(self, dep: Department) -> Office:
        """The office a Department stands in now."""
        for d, division in enumerate(self.divisions):
            for row, other in enumerate(division.offices):
                if other is dep:
                    return d, row
        raise AssertionError("a Department that is not on the board")

    def usable(self, player: int, card: int) -> PrivilegeCard | None:
        """Rulebook, Use of Privilege cards: "A Privilege card can only be used by the current
        player if the card is laid out face up in front of him." The card, or None; always None
        when the house rules switch the card's power off."""
        c = self.cards[card]
        return c if c.holder == player and c.face_up and self.house.cards_on[card] else None

    def gain_points(self, player: int, track: int, points: int, cause: str) -> int:
        """Rulebook, Competence Tracks: "If a player's point marker reaches the highest value of
        a competence track that has a golden space, he cannot gain any more points for this
        competence" (the extra points "will simply be ignored"). Returns the points gained."""
        p = self.players[player]
        top = self.data.golden.get(track)
        before = p.points[track]
        p.points[track] += points
        if top is not None:
            p.points[track] = min(p.points[track], max(top, before))
        gained = p.points[track] - before
        self.note("points", player, track, gained, p.points[track], cause)
        return gained

    def at_golden_space(self, player: int, track: int) -> bool:
        top = self.data.golden.get(track)
        return top is not None and self.players[player].points[track] >= top

    def change_money(self, player: int, change: int, cause: str, event: int = -1, bank: int = 0):
        if change:
            self.players[player].money += change
            self.note("pay", player, change, self.players[player].money, cause, bank, event)

    def pay(self, player: int, amount: int, cause: str, event: int = -1) -> int:
        """Rulebook, Event Step: "any player who has insufficient funds to make a required
        payment pays only as much as he has." Returns what was paid."""
        paid = min(amount, self.players[player].money)
        self.change_money(player, -paid, cause, event)
        return paid

    # --- general rules for all actions ----------------------------------------------------

    def seat_on_board(self, player: int, cause: str) -> None:
        """Rulebook, Initial Appointment Round 1: a new Board member occupies the leftmost vacant
        chair; with all 5 chairs taken "all members of the Board of Directors are moved 1 chair
        to the left. As a result, the leftmost Manager is pushed out of the Board Room and
        returned to the appropriate player's supply." (The chairs are kept compact, so the
        leftmost vacant chair is the end of the list.)"""
        if len(self.board) == BOARD_CHAIRS:
            self.note("board_out", self.board.pop(0))
        self.board.append(player)
        self.note("board_in", player, len(self.board) - 1, cause)

    def open_department(self, division: int, dep: Department, cause: str) -> None:
        """Rulebook: "When creating a new Department or moving a Department or Main Department,
        always occupy the topmost vacant office of the Division"."""
        require(0 <= division < len(DIVISIONS), f"a Division (not {division})")
        offices = self.divisions[division].offices
        require(len(offices) < OFFICES_PER_DIVISION, f"a vacant office in {DIVISIONS[division]}")
        offices.append(dep)
        self.note(
            "office", dep.owner, division, len(offices) - 1, dep.managers, dep.employees, cause
        )

    def vacate(self, dep: Department, cause: str, employees: int = 0) -> None:
        """A Department leaves its office (closed, moved or merged away; ``employees`` are the
        ones it takes along). Rulebook: "As soon as a Department Office becomes vacant, any
        existing Departments or Main Departments in the same Division that are below it should
        be moved up" (removing it from the list does exactly that)."""
        division, row = self.where(dep)
        self.divisions[division].offices.pop(row)
        self.note("office", dep.owner, division, row, 0, employees, cause)

    def change_employees(self, at: Office, change: int, cause: str) -> Department:
        """Employees arrive in or leave one office. Rulebook: "In the event that a Department
        has no Employees, the Department is closed immediately and the Manager is returned to
        the player's supply"; "A Main Department can exist with no Employees"."""
        dep = self.office(at)
        require(dep.employees + change >= 0, f"{-change} Employee(s) in office {at}")
        require(dep.employees + change <= MAX_EMPLOYEES, f"room for {change} in office {at}")
        dep.employees += change
        self.note("employee", dep.owner, *at, change, dep.employees, cause)
        if dep.employees == 0 and not dep.is_main:
            self.vacate(dep, "closed")
        return dep

    def cut_to_six(self, dep: Department) -> None:
        """Rulebook: "No more than 6 Employees can be in a Department or Main Department. Any
        excess should be returned to the supply.\""""
        if dep.employees > MAX_EMPLOYEES:
            excess = dep.employees - MAX_EMPLOYEES
            dep.employees = MAX_EMPLOYEES
            self.note("employee", dep.owner, *self.where(dep), -excess, dep.employees, "excess")

    def dismiss_own(self, player: int, at: Office, cause: str) -> None:
        self.own_office(player, at)
        self.change_employees(at, -1, cause)

    def transfer_in(self, player: int, dep: Department, cause: str) -> None:
        """One Employee arrives in ``dep`` (his own) wherever it stands now."""
        require(dep.owner == player, "an Employee placed in his own office")
        self.change_employees(self.where(dep), +1, cause)

    # --- setup and the initial appointment round ------------------------------------------

    def initial_appointment_order(self, starting: int) -> list[int]:
        """Rulebook, Initial Appointment Round: the starting player and clockwise; then "the
        player sitting to the right of the starting player and continuing in counter-clockwise
        order"; then the starting player and clockwise again."""
        forward = self.clockwise(starting)
        backward = [(starting - 1 - k) % self.n for k in range(self.n)]
        return forward + backward + forward

    def deal_privileges(self, holders: list[int]) -> int:
        """Rulebook, Set Up 8: the seven Privilege cards are dealt face up "as equally as
        possible" (Division half: nobody bribed for them); "The player who receives the
        Communications Privilege card becomes the starting player." Returns him."""
        counts = [holders.count(p) for p in range(self.n)]
        require(
            len(holders) == len(PRIVILEGES) and max(counts) - min(counts) <= 1,
            "Set Up 8: the 7 Privilege cards dealt as equally as possible",
        )
        for card, holder in enumerate(holders):
            self.cards[card] = PrivilegeCard(holder=holder)
        return holders[COMMUNICATIONS]

    def deal_archenemy(self, player: int, colour: int, card: int) -> None:
        """Rulebook, Set Up 7: an Archenemy Color card of the participating colours and a
        Competence card ("in a game with 3 or 4 players, first remove the 1 or 2 cards
        accordingly marked") to each player, all different."""
        require(
            0 <= colour < self.n and colour not in [p.archenemy for p in self.players],
            "Set Up 7: a Color card of the participating colours not dealt yet",
        )
        require(
            0 <= card < len(self.data.competence_cards)
            and card not in [p.competence_card for p in self.players],
            "Set Up 7: a Competence card in play not dealt yet",
        )
        p = self.players[player]
        p.archenemy, p.competence_card = colour, card
        p.competences = self.data.competence_cards[card]

    def initial_appointment(self, player: int, division: int | None) -> None:
        """Rulebook, Initial Appointment Round: a Manager "as a member of the Board of
        Directors" (``division`` None) or "as a Department Head in a Department Office of a
        Division of his choice" with 3 Employees."""
        if division is None:
            self.seat_on_board(player, "appoint")
        else:
            self.open_department(division, Department(player, 1, INITIAL_EMPLOYEES), "appoint")

    # --- I: the Directors' Meeting ----------------------------------------------------------

    def chairman_privilege(self, player: int, division: int, sources: list[Office]) -> Department:
        """Rulebook, Chairman Privilege card, used "At the beginning of the Directors' Meeting"
        ("can not be used in the 1st Round"). Division half: "create 1 new Department. Take 1
        Manager and 1 Employee from the supply and place them in a vacant Department Office in
        a division of your choice. In addition, you may take any number of Employees from your
        existing Departments and/or Main Departments and place them in the newly created
        Department" (one from each office of ``sources``). Bribed half: "create 1 new Main
        Department. Take 2 Managers from your supply and place them in a vacant Department
        Office ... score 1 point on the Main Department track". Returns the new Department."""
        card = self.usable(player, CHAIRMAN_CARD)
        require(card is not None, "the Chairman Privilege card face up in front of him")
        require(self.round > 1, "Chairman Privilege: 'can not be used in the 1st Round'")
        if not card.bribed:
            return self.new_department(player, division, 0, sources)
        require(not sources, "Bribed Chairman: a Main Department takes no Employees")
        dep = Department(player, 2, 0)
        self.open_department(division, dep, "chairman")
        self.gain_points(player, MAIN_DEPARTMENTS, 1, "chairman")
        return dep

    def dismiss_chairman(self) -> int | None:
        """Rulebook, meeting step 1: "Return the Manager in the Chairman's Office to the
        appropriate player's supply. This step does not apply during the 1st Round". Returns
        the dismissed Chairman's owner."""
        dismissed, self.chairman = self.chairman, None
        return dismissed

    def appoint_chairman(self) -> tuple[int, int | None]:
        """Rulebook, meeting step 2: the player with the most Managers on the Board; a tie to
        "the tied player whose Manager is furthest to the left in the Board Room"; his leftmost
        Board member becomes the Chairman and the others move left. With an empty Board Room
        "the player with the Chairman Privilege card (face up or face down) provides the new
        Chairman from his supply". Returns (the Chairman, the chair he left or None)."""
        if not self.board:
            self.chairman = self.cards[CHAIRMAN_CARD].holder
            return self.chairman, None
        most = max(self.board.count(p) for p in self.board)
        chairman = next(p for p in self.board if self.board.count(p) == most)
        chair = self.board.index(chairman)
        self.board.pop(chair)  # his leftmost member; the others close the gap
        self.chairman = chairman
        return chairman, chair

    def department_heads(self, division: int, player: int) -> int:
        """Rulebook, step 3: "A Main Department ... counts as 2 Department Heads. Managers
        currently serving as Divisional Heads do not count.\""""
        return sum(d.managers for d in self.divisions[division].offices if d.owner == player)

    def new_divisional_head(self, division: int) -> int:
        """Rulebook, step 3: who provides the Divisional Head: most Department Heads; then most
        Employees in the Division; then "a Department Head located in an office closest to the
        top"; with no Department Heads, the holder of the Division's Privilege card "(face up
        or face down)"."""
        offices = self.divisions[division].offices
        if not offices:
            return self.cards[division].holder

        def standing(player: int) -> tuple[int, int, int]:
            employees = sum(d.employees for d in offices if d.owner == player)
            top = next(row for row, d in enumerate(offices) if d.owner == player)
            return (self.department_heads(division, player), employees, -top)

        return max({d.owner for d in offices}, key=standing)

    def determine_divisional_head(self, division: int, to_board: bool | None) -> int:
        """Rulebook, step 3, situations A-C. ``to_board`` is the decision of the owner of a
        replaced Divisional Head: "move the Divisional Head to the Board Room ... or to the
        appropriate Division's space on the Counsel track" (None when nobody is replaced)."""
        d = self.divisions[division]
        new = self.new_divisional_head(division)
        replaced = d.head is not None and d.head != new
        require(
            replaced == (to_board is not None),
            "step 3: a choice (Board Room or Counsel track) exactly when a Divisional Head is "
            "replaced by another player's",
        )
        if replaced:
            if to_board:
                self.seat_on_board(d.head, "displaced_head")
            else:
                self.add_consultant(d.head, division, "displaced_head")
        d.head = new
        return new

    def add_consultant(self, player: int, division: int, cause: str) -> None:
        """Rulebook, Counsel track: "Players can have any number of Consultants on each
        space"."""
        require(0 <= division < len(DIVISIONS), "a Division space of the Counsel track")
        p = self.players[player]
        p.consultants[division] += 1
        self.note("consultant", player, division, sum(p.consultants), cause)

    def hand_out_privileges(self) -> None:
        """Rulebook, step 4: each Division's card to its Divisional Head's owner, the Chairman's
        to the Chairman, all "face-up ... with the Division half (gray background) facing
        them"."""
        holders = [d.head for d in self.divisions] + [self.chairman]
        for card, holder in enumerate(holders):
            self.cards[card] = PrivilegeCard(holder=holder)
            self.note("privilege", card, holder, 0, 1)

    def score_influence(self) -> list[int]:
        """Rulebook, step 5: "The Chairman now earns 2 points and each Manager on the Board of
        Directors earns 1 point on the Influence track." Returns the points each player earned
        (before a golden space cuts them)."""
        earned = [0] * self.n
        if self.chairman is not None:  # none before the first meeting (outgoing board scoring)
            earned[self.chairman] += self.house.chairman_influence
        for member in self.board:
            earned[member] += self.house.board_influence
        return earned

    def reset_motivation(self) -> None:
        """Rulebook, step 6: "Place the Motivation Marker on space 6"."""
        self.move_motivation(MOTIVATION_TOP, event=-1)

    @staticmethod
    def event_order_rules(order: list[int], others: int) -> str | None:
        """Rulebook, step 7: 6 of the shuffled other Event cards (ids 0 .. ``others`` - 1) and
        the two standard cards (BONUS, MEETING); "the 'Standard Event Bonus Payment' card must
        appear before the 'Standard Event Directors' Meeting' card and the 'Standard Event
        Directors' Meeting' card must appear as the 5th or later Event card". Returns the broken
        rule, or None."""
        drawn = [e for e in order if e not in (BONUS, MEETING)]
        if len(order) != 8 or order.count(BONUS) != 1 or order.count(MEETING) != 1:
            return "8 cards: the two standard events and 6 others"
        if len(set(drawn)) != 6 or not all(0 <= e < others for e in drawn):
            return f"6 different other Event cards (ids 0-{others - 1})"
        if order.index(BONUS) > order.index(MEETING):
            return "the Bonus Payment before the Directors' Meeting"
        if order.index(MEETING) < 4:
            return "the Directors' Meeting as the 5th card or later"
        return None

    # --- II: events ---------------------------------------------------------------------------

    def bonus_payment(self, player: int) -> int:
        """Rulebook, Standard Event Bonus Payment: 100,000 per Block of Shares, 100,000 per
        Department, 200,000 per Main Department, 150,000 per Manager on the Board, 300,000 for
        the Chairman; the holder of a face-up Controlling card adds its bonus per Department and
        Main Department. Returns the payment (not yet paid)."""
        bonus = self.data.bonus
        departments = [dep for _, dep in self.departments_of(player)]
        mains = sum(dep.is_main for dep in departments)
        amount = (
            bonus["share_block"] * len(self.players[player].blocks)
            + bonus["department"] * (len(departments) - mains)
            + bonus["main_department"] * mains
            + bonus["board_member"] * self.board.count(player)
            + (bonus["chairman"] if self.chairman == player else 0)
        )
        controlling = self.usable(player, CONTROLLING)
        if controlling is not None:
            amount += controlling_bonus(controlling.bribed, self.motivation) * len(departments)
        return amount

    def move_motivation(self, steps: int, event: int) -> None:
        """Rulebook, Various Motivation Event Cards: "up in case of a +, down in case of a -"
        on a track from 0 to 6."""
        before = self.motivation
        self.motivation = max(0, min(MOTIVATION_TOP, self.motivation + steps))
        self.note("motivation", self.motivation, self.motivation - before, event)

    def matched(self, effect: Effect) -> list[int]:
        """The players an event effect names (data file: "who: all, chairman, head (of
        `division`), board (players with a Board member), most_money, least_money (every tied
        player)"); a resigned Divisional Head names nobody."""
        everybody = list(range(self.n))
        if effect.who == "all":
            return everybody
        if effect.who == "chairman":
            return [] if self.chairman is None else [self.chairman]
        if effect.who == "head":
            head = self.divisions[effect.division].head
            return [] if head is None else [head]
        if effect.who == "board":
            return [p for p in everybody if p in self.board]
        money = [self.players[p].money for p in everybody]
        extreme = max(money) if effect.who == "most_money" else min(money)
        return [p for p in everybody if money[p] == extreme]

    def items(self, player: int, per: str) -> int:
        """How many of ``per`` (data file: "flat, department, main_department, board_member,
        employee, share_block, consultant, divisional_head") a player has. A Department is one
        Department Head's office; Main Departments are counted apart (as the Bonus Payment
        does)."""
        deps = [dep for _, dep in self.departments_of(player)]
        return {
            "flat": 1,
            "department": sum(not dep.is_main for dep in deps),
            "main_department": sum(dep.is_main for dep in deps),
            "board_member": self.board.count(player),
            "employee": sum(dep.employees for dep in deps),
            "share_block": len(self.players[player].blocks),
            "consultant": sum(self.players[player].consultants),
            "divisional_head": sum(d.head == player for d in self.divisions),
        }[per]

    def event_effect(self, event: int, effect: Effect, losses: list[Office]) -> None:
        """One effect of Event card ``event`` (the data file's vocabulary). ``losses`` are the
        offices the players matched by a ``lose_employees`` effect choose, in seat order."""
        if effect.kind == "motivation":
            self.move_motivation(effect.amount, event)
        elif effect.kind in ("receive", "pay"):
            for player in self.matched(effect):
                amount = effect.amount * self.items(player, effect.per)
                if effect.kind == "receive":
                    self.change_money(player, amount, "event", event)
                else:
                    self.pay(player, amount, "event", event)
        elif effect.kind == "lose_employees":
            self.lose_employees(effect, losses)
        elif effect.kind == "face_down":
            card = self.cards[effect.division]
            card.face_up = False
            self.note("face_down", effect.division, card.holder, "event")
        else:
            require(effect.kind == "moron", f"an effect kind of the data file, not {effect.kind}")
            self.moron(effect.amount, event)

    def moron(self, amount: int, event: int) -> None:
        """Rulebook, Moron Event Cards: the Divisional Head of Communications pays the other
        players (data file: ``amount`` each); "If this card does get played but the Divisional
        Head of Communications has already resigned, it has no affect. During this event only,
        if the Divisional Head of Communications has insufficient money to pay the other
        players, the other players receive the shortfall from the Bank." The recipients in
        clockwise order from the head's left."""
        head = self.divisions[COMMUNICATIONS].head
        if head is None:
            return
        for player in self.clockwise(head)[1:]:
            from_head = self.pay(head, amount, "moron", event)
            self.change_money(player, amount, "moron", event, bank=amount - from_head)

    def lose_employees(self, effect: Effect, losses: list[Office]) -> None:
        """Data file, lose_employees: "each player matched by who dismisses amount Employees of
        its choice (from `division` only, when given)" (as many as he has); empty Departments
        close. Convention: the players in seat order."""
        choices = iter(losses)
        for player in self.matched(effect):
            have = sum(
                dep.employees
                for d, dep in self.departments_of(player)
                if effect.division is None or d == effect.division
            )
            for _ in range(min(effect.amount, have)):
                at = next(choices, None)
                require(at is not None, f"player {player} loses an Employee")
                require(
                    effect.division is None or at[0] == effect.division,
                    f"an Employee of {PRIVILEGES[effect.division]}"
                    if effect.division is not None
                    else "",
                )
                self.dismiss_own(player, at, "event")
        require(next(choices, None) is None, "no more Employees lost than the event says")

    # --- II: actions --------------------------------------------------------------------------

    def human_resources_extra(self, player: int) -> int:
        card = self.usable(player, HUMAN_RESOURCES)
        return 0 if card is None else human_resources_bonus(card.bribed, self.motivation)

    def hire_employees(self, player: int, placements: list[Office]) -> None:
        """Rulebook, A: "take 2 Employees from the supply and place each of them in any
        Department Office(s) (same or different) where he has a Department or a Main
        Department", plus the Human Resources bonus; "a maximum of 6 Employees per
        Department"."""
        hired = self.house.hired_employees + self.human_resources_extra(player)
        placed = min(hired, self.room_of(player))  # the excess goes back to the supply
        require(len(placements) == placed, f"A: {placed} of the {hired} new Employees placed")
        for at in placements:
            self.own_office(player, at)
            self.change_employees(at, +1, "hire")

    def new_department(
        self, player: int, division: int, extra: int, sources: list[Office]
    ) -> Department:
        """Rulebook, B2 (and the Chairman's Division half): "taking 1 Manager and 1 Employee
        from the supply and placing them both in 1 vacant Department Office of his choice. He
        may then take any number of Employees from his existing Departments and/or Main
        Departments and place them in the newly created Department", with ``extra`` more from
        the supply (Human Resources). ``sources`` names the office each moved Employee comes
        from. Returns the new Department."""
        dep = Department(player, 1, 1 + extra)
        self.open_department(division, dep, "create")
        for at in sources:
            self.dismiss_own(player, at, "transfer_out")
            self.transfer_in(player, dep, "transfer_in")
        return dep

    def create_department_with_new_employees(
        self, player: int, division: int, extra: int, sources: list[Office]
    ) -> Department:
        """Rulebook, B2, with the Human Resources card: "additional Employees from the supply
        during ... B) Creating new Departments (with new Employees)"."""
        require(
            extra == self.human_resources_extra(player),
            f"B2: {self.human_resources_extra(player)} more Employees by Human Resources",
        )
        return self.new_department(player, division, extra, sources)

    def create_departments_with_existing_employees(
        self, player: int, targets: tuple[int, int], placed: tuple[int, int], sources: list[Office]
    ) -> None:
        """Rulebook, B1: "create 2 new Departments by taking any number of Employees from any
        of his existing Departments and/or Main Departments and placing them in 2 vacant
        Department Offices. He must place at least 2 Employees in each of the newly created
        Departments ... then replaces 1 Employee with 1 Manager from his supply in each ...
        and returns the replaced Employees to the supply". ``sources`` names the office each
        taken Employee comes from; emptied Departments close as they empty."""
        require(all(p >= 2 for p in placed), "B1: at least 2 Employees in each new Department")
        require(len(sources) == sum(placed), "B1: the Employees placed are the ones taken")
        require(all(p - 1 <= MAX_EMPLOYEES for p in placed), "B1: at most 6 Employees stay in each")
        for at in sources:
            self.dismiss_own(player, at, "transfer_out")
        for division, count in zip(targets, placed, strict=True):
            self.open_department(division, Department(player, 1, count - 1), "create")

    def move_departments(self, player: int, moved: list[Office], target: int) -> None:
        """Rulebook, C1: "move 1 or 2 existing Departments or 1 Main Department under his
        control by taking all Managers and Employees from the selected Department Office(s) and
        placing them in vacant Department Office(s) in another Division of his choice. The
        number of Employees ... must remain the same". ``moved`` names the offices as they
        stand before the action."""
        deps = [self.own_office(player, at) for at in moved]
        mains = sum(dep.is_main for dep in deps)
        require(
            (len(deps) in (1, 2) and mains == 0) or (len(deps) == 1 and mains == 1),
            "C1: 1 or 2 Departments or 1 Main Department",
        )
        require(len(set(moved)) == len(moved), "C1: two different Departments")
        require(all(d != target for d, _ in moved), "C1: to another Division")
        for dep in deps:
            self.vacate(dep, "move_out", dep.employees)
        for dep in deps:
            self.open_department(target, dep, "move_in")

    def merge_departments(self, player: int, a: Office, b: Office, target: int | None) -> None:
        """Rulebook, C2: "create 1 Main Department by merging 2 of his existing Departments ...
        He can either move 2 Departments to a new vacant Department Office" (``target`` a
        Division) "or move 1 Department to a Department Office already occupied by his
        Department Head" (``target`` None: ``b`` moves into ``a``'s office). "(a) 2 Employees
        from the newly founded Main Department are removed and returned to the supply, along
        with any additional Employees in excess of 6 and (b) the current player scores 1 point
        on the Main Department track"."""
        first, second = self.own_office(player, a), self.own_office(player, b)
        require(first is not second, "C2: two different Departments")
        require(not first.is_main and not second.is_main, "C2: two Departments, not Main ones")
        employees = first.employees + second.employees
        if target is None:
            self.vacate(second, "merge_out", second.employees)
            merged = first
            merged.managers, merged.employees = 2, employees
            self.note("office", player, *self.where(merged), 2, employees, "merge")
        else:
            self.vacate(first, "merge_out", first.employees)
            self.vacate(second, "merge_out", second.employees)
            merged = Department(player, 2, employees)
            self.open_department(target, merged, "merge")
        merged.employees -= 2
        self.note("employee", player, *self.where(merged), -2, merged.employees, "merge")
        self.cut_to_six(merged)
        self.gain_points(player, MAIN_DEPARTMENTS, 1, "merge")

    def resign(self, player: int, division: int, to_board: bool) -> None:
        """Rulebook, D: a Divisional Head he controls resigns; "the Privilege card for this
        Division will lose its validity ... and should be turned face down (even if held by a
        different player who obtained it through a bribe)". To the Board: "The Divisional Head
        and all of the current player's Department Heads in the same Division are moved to the
        Board Room. Department Heads in Main Departments remain in the Division but all
        Employees controlled by the current player in this Division (including those in Main
        Departments) are fired". As a Consultant: the Divisional Head goes to the Division's
        space on the Counsel track; "Department Heads of Main Departments remain in the
        Division but all other Department Heads and Employees belonging to the current player in
        this Division (including those in Main Departments) are fired". Convention (the order is
        free): each of his offices from the top, its Employees fired and a Department vacated;
        then the Board Room (the Divisional Head first) or the Counsel track."""
        d = self.divisions[division]
        require(d.head == player, f"D: his own Divisional Head in {DIVISIONS[division]}")
        card = self.cards[division]
        card.face_up = False
        self.note("face_down", division, card.holder, "resignation")
        own = [dep for dep in d.offices if dep.owner == player]
        for dep in own:
            if dep.employees:
                self.note("employee", player, *self.where(dep), -dep.employees, 0, "resign")
                dep.employees = 0
            if not dep.is_main:
                self.vacate(dep, "resign")
        d.head = None
        if to_board:
            self.seat_on_board(player, "resign_head")
            for dep in own:
                if not dep.is_main:
                    self.seat_on_board(player, "resign_department")
        else:
            self.add_consultant(player, division, "resign")

    def briber_corruption(self, player: int) -> None:
        """Rulebook, E: "In either case, the current player scores 1 point on the Corruption
        track" ("a maximum of 1 Corruption point can be obtained by any one player during this
        Action")."""
        self.gain_points(player, CORRUPTION, 1, "bribe")

    def bribe(self, player: int, target: int, card: int, amount: int, accepted: bool) -> None:
        """Rulebook, E: one bribe attempt: "50,000 Pinats or more" for a Privilege card of
        another player ("face-up or face-down"). Accepted: the bribed player "takes the money
        ... and scores 1 point on the Corruption track", then hands over the card, which the
        briber lays out "with the Bribed half (golden background) facing him" ("If the
        Privilege card was face down before the bribe, the new owner places it face down as
        well")."""
        require(self.house.bribes_allowed, "house rule bribes_allowed: no bribes")
        require(0 <= card < len(PRIVILEGES), "E: a Privilege card")
        c = self.cards[card]
        require(c.holder == target and target != player, "E: a Privilege card of another player")
        require(self.house.bribe_allowed(amount), "E: a bribe of 50,000 Pinats or more, capped")
        require(amount <= self.players[player].money, "E: no more than the briber has")
        if accepted:
            self.change_money(player, -amount, "bribe")
            self.change_money(target, amount, "bribe")
            self.gain_points(target, CORRUPTION, 1, "bribe")
            c.holder, c.bribed = player, True
            self.note("privilege", card, player, 1, int(c.face_up))

    def employee_lost_for_declining(self, decliner: int, at: Office) -> None:
        """Rulebook, Loss of Employee(s) for Declining a Bribe: "The current player chooses 1
        Employee from any Department or Main Department controlled by the declining player(s)
        and returns it to the supply"; an emptied Department closes."""
        self.dismiss_own(decliner, at, "bribe_loss")

    def influence_for_employees(self, player: int, dismissed: list[Office]) -> None:
        """Rulebook, F1: "dismisses 3 Employees from any Departments and/or Main Departments he
        controls and, in exchange, gains 1 point on the Influence track"."""
        cost = self.house.influence_cost
        require(len(dismissed) == cost, f"F1: {cost} Employees dismissed")
        for at in dismissed:
            self.dismiss_own(player, at, "influence")
        self.gain_points(player, INFLUENCE, 1, "influence")

    def buy_main_department(self, player: int, division: int) -> None:
        """Rulebook, F2: "pays 1,500,000 Pinats to the Bank and then takes 2 Managers from his
        supply and places them in a vacant Department Office of any Division of his choice ...
        he scores 1 point on the Main Department track"."""
        price = self.house.main_department_price
        require(self.players[player].money >= price, f"F2: {price:,} Pinats")
        require(self.divisions[division].vacant() > 0, f"F2: a vacant office in {division}")
        self.change_money(player, -price, "buy_main")
        self.open_department(division, Department(player, 2, 0), "buy_main")
        self.gain_points(player, MAIN_DEPARTMENTS, 1, "buy_main")

    def buy_consultant(self, player: int, division: int) -> None:
        """Rulebook, F3: "pays 2,000,000 Pinats to the Bank and then takes 1 Manager from his
        supply and places it on the Counsel track in any Division space of his choice"."""
        price = self.house.consultant_price
        require(self.players[player].money >= price, f"F3: {price:,} Pinats")
        self.change_money(player, -price, "buy_consultant")
        self.add_consultant(player, division, "bought")

    def buy_shares(self, player: int, paid_for: int, received: int) -> None:
        """Rulebook, F4: buy 1 Block of Shares at its price and score 1 point per Share. The
        Accounting card "may" give a larger Block: "Only the Block of Shares you receive with
        this privilege must still be available. The Block of Shares you pay for does not have
        to be available", and then "a 0 Share Block is considered to have a price of 0
        Pinats"."""
        card = self.usable(player, ACCOUNTING)
        extra = 0 if card is None else accounting_bonus(card.bribed, self.motivation)
        require(
            received == paid_for or (extra > 0 and received == paid_for + extra),
            f"F4: the Block paid for ({paid_for}), or {extra} more Shares with Accounting",
        )
        require(paid_for in self.data.share_prices, f"F4: a Block size (not {paid_for})")
        require(paid_for >= 1 or received > paid_for, "F4: a Block of at least 1 Share")
        require(self.share_supply.get(received, 0) > 0, f"F4: a Block of {received} available")
        price = self.data.share_prices[paid_for]
        require(self.players[player].money >= price, f"F4: {price} Pinats to pay")
        self.change_money(player, -price, "buy_shares")
        self.share_supply[received] -= 1
        self.players[player].blocks.append(received)
        self.note("shares", player, paid_for, received, price, self.share_supply[received])
        self.gain_points(player, SHARES, received, "shares")

    def development_privilege(self, player: int, enticed: list[tuple[Office | None, Office]]):
        """Rulebook, Development Privilege card (Action G). Division half: "entice 1 Employee
        away from another player ... Alternatively, you may take an Employee from the supply.
        If you have no Departments or Main Departments that can take the Employee, you cannot
        carry out this Action." Bribed half: 3 Employees, "You may not take more than 1 Employee
        from a single player", the rest from the supply; "you may only entice away as many
        Employees as you can employ". ``enticed`` is, per Employee, the office it leaves (None:
        the supply) and his office it joins."""
        card = self.usable(player, DEVELOPMENT)
        require(card is not None, "G: the Development card face up in front of him")
        room = self.room_of(player)
        require(room > 0, "G: a Department that can take the Employee")
        count = min(3 if card.bribed else 1, room)
        require(len(enticed) == count, f"G: {count} Employee(s) enticed")
        victims = []
        for source, destination in enticed:
            if source is not None:
                victim = self.office(source).owner
                require(victim != player, "G: an Employee of another player")
                require(victim not in victims, "G: at most 1 Employee from a single player")
                victims.append(victim)
                self.change_employees(source, -1, "entice_out")
            self.own_office(player, destination)
            self.change_employees(destination, +1, "entice_in")

    def legal_privilege(self, player: int, dismissed: list[Office]) -> None:
        """Rulebook, Legal & Patents Privilege card (Action G): dismiss 1 own Employee to score
        1 Influence point (Bribed: 2 and 2, "to the extent that you have Employees"); "You may
        only carry out this action if you have an Employee to dismiss"."""
        card = self.usable(player, LEGAL)
        require(card is not None, "G: the Legal & Patents card face up in front of him")
        have = self.employees_of(player)
        require(have > 0, "G: an Employee to dismiss")
        count = min(2 if card.bribed else 1, have)
        require(len(dismissed) == count, f"G: {count} Employee(s) dismissed")
        for at in dismissed:
            self.dismiss_own(player, at, "legal")
        self.gain_points(player, INFLUENCE, count, "legal")

    # --- victory points and the end -----------------------------------------------------------

    def competence_vps(self, player: int) -> list[bool]:
        """Rulebook, Object of the Game 1-5: a track's first green space, or "at least 1
        Consultant in at least 3 different Divisions"."""
        p = self.players[player]
        divisions = sum(count > 0 for count in p.consultants)
        return [p.points[t] >= VP_THRESHOLDS[t] for t in POINT_TRACKS] + [
            divisions >= VP_THRESHOLDS[COUNSEL]
        ]

    def standing(self, player: int, competence: int) -> int:
        """His points on a track, or for Counsel his total Consultants ("It does not matter
        which Division(s) the Consultants are located in")."""
        p = self.players[player]
        return sum(p.consultants) if competence == COUNSEL else p.points[competence]

    def beats(self, player: int, other: int, competence: int) -> bool:
        """Rulebook, Archenemy: "more points" (Counsel: more Consultants); "if a player's point
        marker reaches the highest value on a competence track that has a golden space, it
        always counts as having more points than all other players ... This does not apply to
        the Counsel track"."""
        if competence != COUNSEL and self.at_golden_space(player, competence):
            return True
        return self.standing(player, competence) > self.standing(other, competence)

    def beats_archenemy(self, player: int) -> bool:
        """Rulebook, Archenemy: with another player's Color card, more than him "in all 3
        competences"; with his own Color card, more "than all other players in 2 out of the 3
        competences"."""
        p = self.players[player]
        if p.archenemy != player:
            return all(self.beats(player, p.archenemy, c) for c in p.competences)
        others = [q for q in range(self.n) if q != player]
        won = [all(self.beats(player, q, c) for q in others) for c in p.competences]
        return sum(won) >= 2

    def archenemy_vp(self, player: int) -> bool:
        """Rulebook, End of the Game: once he announced, "the Archenemy Victory Point (if
        applicable) cannot later be lost"."""
        return self.players[player].archenemy_locked or self.beats_archenemy(player)

    def victory_points(self, player: int) -> int:
        return sum(self.competence_vps(player)) + self.archenemy_vp(player)

    def declare(self, player: int, needed: int) -> bool:
        """Rulebook, End of the Game: "If, during a player's turn in Stage II, he scores 4 (or,
        for a longer game, 5) or more Victory Points, he should immediately let the other
        players know"; his Archenemy point is then locked. Returns whether he declares now."""
        p = self.players[player]
        if p.declared or self.victory_points(player) < needed:
            return False
        p.declared = True
        p.archenemy_locked = self.archenemy_vp(player)
        return True

    def winners(self) -> list[int]:
        """Rulebook, End of the Game: "The player who has scored the most Victory Points wins
        the game. In the event of a tie, the tied player with the most money wins the game. If
        there is still a tie, the tied players share the victory.\""""
        best = max((self.victory_points(p), self.players[p].money) for p in range(self.n))
        return [p for p in range(self.n) if (self.victory_points(p), self.players[p].money) == best]


# --- the replay of a kernel trace -------------------------------------------------------------

#: Field names of each event (simcore/games/power_struggle/state.py, Trace format), for messages.
FIELDS = {
    "setup": ("seat", "colour", "competence_card", "c1", "c2", "c3", "money"),
    "stock": ("size", "blocks", "price"),
    "deal": ("card", "seat"),
    "appoint": ("seat", "pass", "place", "division", "row", "employees"),
    "board_out": ("seat",),
    "board_in": ("seat", "chair", "cause"),
    "meeting": ("round", "dismissed"),
    "chairman_use": ("seat", "half", "division", "row", "employees"),
    "extra_action": ("seat",),
    "chairman": ("seat", "source", "chair"),
    "head": ("division", "new", "previous", "case", "displaced_to", "by_card"),
    "privilege": ("card", "seat", "half", "face"),
    "influence": ("seat", "gained", "after"),
    "motivation": ("value", "change", "cause"),
    "order": ("sorter", "turns", "policy"),
    "order_card": ("position", "event"),
    "turn": ("turn", "turns_so_far", "starting"),
    "event": ("event", "position", "effects"),
    "pay": ("seat", "change", "money", "cause", "from_bank", "event"),
    "face_down": ("card", "holder", "cause"),
    "action": ("seat", "kind", "x", "y", "z", "w"),
    "employee": ("owner", "division", "row", "change", "after", "cause"),
    "office": ("owner", "division", "row", "heads", "employees", "cause"),
    "consultant": ("seat", "division", "consultants", "cause"),
    "points": ("seat", "track", "gained", "after", "cause"),
    "bribe": ("briber", "target", "card", "amount", "attempt", "accepted"),
    "shares": ("seat", "paid_for", "received", "price", "left"),
    "declare": ("seat", "vp", "archenemy", "routes"),
    "snap_seat": ("seat", "money", "influence", "shares", "main", "corruption", "consultants"),
    "snap_office": ("division", "row", "owner", "heads", "employees"),
    "snap_board": ("chair", "owner"),
    "snap_card": ("card", "holder", "half", "face"),
    "end": ("winner", "turns", "truncated", "rounds", "winners", "vp"),
}
CAUSE_NAMES = {
    "board_in": BOARD_CAUSES,
    "pay": PAY_CAUSES,
    "employee": EMPLOYEE_CAUSES,
    "office": OFFICE_CAUSES,
    "consultant": CONSULTANT_CAUSES,
    "points": POINT_CAUSES,
}
FACE_DOWN_CAUSES = ("resignation", "event")
#: Rows that start something new: an action's own rows end before the next of these.
BOUNDARIES = {
    EV_ACTION, EV_TURN, EV_EVENT, EV_DECLARE, EV_CHAIRMAN, EV_SNAP_SEAT, EV_END, EV_MEETING,
    EV_EXTRA_ACTION,
}  # fmt: skip


def describe_row(row) -> str:
    """One trace row as ``name(field=value, ...)``, with causes and action kinds named."""
    row = tuple(int(x) for x in row)
    if not 0 <= row[0] < len(EVENT_NAMES):
        return f"unknown event {list(row)}"
    name = EVENT_NAMES[row[0]]
    parts = []
    for key, value in zip(FIELDS[name], row[1:], strict=False):
        names = CAUSE_NAMES.get(name) if key == "cause" else None
        if name == "action" and key == "kind":
            names = ACTIONS
        if names is not None and 0 <= value < len(names):
            parts.append(f"{key}={names[value]}")
        else:
            parts.append(f"{key}={value}")
    if any(row[1 + len(FIELDS[name]) :]):
        parts.append(f"extra={list(row[1 + len(FIELDS[name]) :])}")
    return f"{name}({', '.join(parts)})"


def fact_row(fact: tuple) -> tuple:
    """The trace row the kernel writes for a fact of the model's journal."""
    kind, *fields = fact
    if kind == "points" and fields[-1] == "meeting":
        seat, _, gained, after, _ = fields
        return (EV_INFLUENCE, seat, gained, after)
    if kind == "points":
        seat, track, gained, after, cause = fields
        return (EV_POINTS, seat, TRACKS.index(COMPETENCES[track]), gained, after,
                POINT_CAUSES.index(cause))  # fmt: skip
    if kind == "face_down":
        card, holder, cause = fields
        return (EV_FACE_DOWN, card, holder, FACE_DOWN_CAUSES.index(cause))
    if kind == "pay":  # the cause sits before the Bank's share and the event id
        seat, change, money, cause, bank, event = fields
        return (EV_PAY, seat, change, money, PAY_CAUSES.index(cause), bank, event)
    if kind in CAUSE_NAMES:
        *values, cause = fields
        return (EVENT_NAMES.index(kind), *values, CAUSE_NAMES[kind].index(cause))
    return (EVENT_NAMES.index(kind), *fields)


class Trace(TraceCursor):
    def __init__(self, rows, game_label: str):
        super().__init__(rows, game_label, "Power Struggle", EVENT_NAMES, describe_row)

    def rows_ahead(self) -> list[tuple[int, ...]]:
        """The rows from the cursor up to the next row that starts something new."""
        out = []
        while (row := self.peek_row(len(out))) is not None and row[0] not in BOUNDARIES:
            out.append(row)
        return out

    def next_of(self, events: set[int]) -> tuple[int, ...] | None:
        """The first row ahead whose event is one of ``events``."""
        k = 0
        while (row := self.peek_row(k)) is not None:
            if row[0] in events:
                return row
            k += 1
        return None


@dataclass
class Outcome:
    """A replayed game: the final state, how it ended, and the situations met on the way."""

    game: PowerStruggle
    winners: list[int]
    turns: int
    truncated: bool
    seen: Counter = field(default_factory=Counter)
    event_draws: Counter = field(default_factory=Counter)


class Referee:
    """Replays one game of Power Struggle from its trace, enforcing the rulebook step by step."""

    def __init__(self, rules: dict, players: int, game_label: str = ""):
        self.data = GameData.load(str(rules["data"]), players)
        self.house = HouseRules.of(rules)
        self.needed = int(rules["victory_points"])
        self.max_turns = int(rules["max_turns"])
        self.n = players
        self.label = game_label
        self.seen: Counter = Counter()
        self.event_draws: Counter = Counter()
        self.trace: Trace | None = None
        self.game: PowerStruggle | None = None

    # --- helpers ------------------------------------------------------------------------------

    @contextmanager
    def rules(self, what: str, index: int | None = None):
        """Run a rule of the model; an illegal decision fails at trace row ``index`` (where the
        decision is written; default: the current row)."""
        try:
            yield
        except IllegalMove as broken:
            self.trace.fail(f"{what}: a legal decision ({broken})", index=index)

    def flush(self, what: str) -> None:
        """Every fact the model journaled must be the kernel's next rows, in order."""
        for fact in self.game.journal:
            self.trace.expect(*fact_row(fact), what=what)
        self.game.journal.clear()

    def decide(self, event: int, what: str) -> tuple[int, ...]:
        """The next row, a decision (checked by the caller, then consumed with ``expect``)."""
        return self.trace.take(event, what)

    # --- the game -------------------------------------------------------------------------------

    def replay(self, rows) -> Outcome:
        self.trace = Trace(rows.tolist() if hasattr(rows, "tolist") else rows, self.label)
        self.game = PowerStruggle(self.n, self.data, self.house)
        starting = self.setup()
        self.initial_appointments(starting)
        turns = 0
        while True:
            order = self.directors_meeting()
            turns, ended = self.department_turns(order, turns)
            if ended is not None:
                break
        truncated = ended == "truncated"
        winners = [] if truncated else self.game.winners()
        self.snapshots("the end of the game")
        self.end(winners, turns, truncated)
        if self.trace.index != len(self.trace.rows):
            self.trace.fail("nothing after the end of the game")
        return Outcome(self.game, winners, turns, truncated, self.seen, self.event_draws)

    def setup(self) -> int:
        """Rulebook, Set Up 4, 5, 7, 8: the Blocks of Shares in play, 800,000 Pinats each, the
        Archenemy cards, the Privilege cards. Returns the starting player."""
        g = self.game
        for size in range(1, 8):
            self.trace.expect(
                EV_STOCK, size, g.share_supply[size], self.data.share_prices[size],
                what=f"Set Up 4: the Blocks of {size} Shares in play",
            )  # fmt: skip
        for seat in range(self.n):
            row = self.decide(EV_SETUP, f"seat {seat}'s Archenemy cards")
            colour, card = row[2], row[3]
            ids = self.data.competence_card_ids
            with self.rules(f"seat {seat}'s Archenemy cards"):
                require(card in ids, f"Set Up 7: a Competence card kept at {self.n} players")
                g.deal_archenemy(seat, colour, ids.index(card))
            competences = [COMPETENCES.index(STATE_COMPETENCES[c]) for c in row[4:7]]
            self.trace.check(
                tuple(competences) == g.players[seat].competences,
                f"the competences of Competence card {card} in the data file",
            )
            money = self.house.starting_money
            self.trace.expect(*row[:7], money, what=f"Set Up 5: {money:,} Pinats")
        holders = [-1] * len(PRIVILEGES)
        for _ in PRIVILEGES:
            row = self.decide(EV_DEAL, "Set Up 8: the Privilege cards dealt")
            card, seat = row[1], row[2]
            self.trace.check(
                0 <= card < len(PRIVILEGES) and holders[card] == -1 and 0 <= seat < self.n,
                "a Privilege card not dealt yet, to a player",
            )
            holders[card] = seat
            self.trace.expect(EV_DEAL, card, seat, what="Set Up 8")
        with self.rules("Set Up 8"):
            return g.deal_privileges(holders)

    def initial_appointments(self, starting: int) -> None:
        """Rulebook, Initial Appointment Round: three passes, each player appointing a Manager
        to the Board Room or as a Department Head with 3 Employees."""
        g = self.game
        for k, seat in enumerate(g.initial_appointment_order(starting)):
            what = f"seat {seat}'s appointment {k // self.n + 1}"
            row = self.trace.peek_row()
            if row is not None and row[0] == EV_OFFICE:
                division = row[2]
                with self.rules(what):
                    g.initial_appointment(seat, division)
                self.flush(what)
                place, chair_or_row = 1, len(g.divisions[division].offices) - 1
                employees = INITIAL_EMPLOYEES
                self.seen["appoint a Department"] += 1
            else:
                g.initial_appointment(seat, None)
                self.flush(what)
                place, division, chair_or_row, employees = 0, -1, len(g.board) - 1, 0
                self.seen["appoint to the Board Room"] += 1
            self.trace.expect(
                EV_APPOINT, seat, k // self.n, place, division, chair_or_row, employees, what=what
            )

    # --- I: the Directors' Meeting ----------------------------------------------------------

    def directors_meeting(self) -> list[int]:
        """Rulebook, I: Directors' Meeting, steps 1-7 (with the Chairman and Bribed
        Communications cards "at the beginning"). Returns the round's Event order."""
        g = self.game
        g.round += 1
        outgoing = self.house.influence_scoring == "outgoing board"
        if outgoing:
            earned = g.score_influence()
        dismissed = g.dismiss_chairman() if g.round > 1 else None
        self.trace.expect(
            EV_MEETING, g.round, -1 if dismissed is None else dismissed,
            what=f"round {g.round}'s Directors' Meeting (step 1: the Chairman dismissed)",
        )  # fmt: skip
        if outgoing:
            self.influence(earned, "step 5 before step 1: Influence for the outgoing Board")
        self.chairman_privilege()
        if self.trace.peek() == EV_EXTRA_ACTION:
            self.extra_action()
        chairman, chair = g.appoint_chairman()
        self.trace.expect(
            EV_CHAIRMAN, chairman, int(chair is None), -1 if chair is None else chair,
            what="step 2: the new Chairman",
        )  # fmt: skip
        self.seen["Chairman from the card holder" if chair is None else "Chairman"] += 1
        for division in range(len(DIVISIONS)):
            self.divisional_head(division)
        g.hand_out_privileges()
        self.flush("step 4: the Privilege cards handed out")
        if not outgoing:
            self.influence(g.score_influence(), "step 5: Influence for the Chairman and the Board")
        if self.house.motivation_reset:
            g.reset_motivation()
        self.flush("step 6: Motivation back to 6 (unless the house rules keep it)")
        order = self.sort_events()
        self.snapshots(f"after round {g.round}'s Directors' Meeting")
        return order

    def influence(self, earned: list[int], what: str) -> None:
        """Step 5's points, each player's ``earned``, on the Influence track."""
        for seat, points in enumerate(earned):
            if points:
                self.game.gain_points(seat, INFLUENCE, points, "meeting")
        self.flush(what)

    def chairman_privilege(self) -> None:
        """Rulebook, Chairman Privilege card: "At the beginning of the Directors' Meeting you
        may ..." (a choice: the kernel writes ``chairman_use`` after its consequences)."""
        g = self.game
        use = self.trace.next_of({EV_CHAIRMAN_USE, EV_EXTRA_ACTION, EV_CHAIRMAN})
        if use is None or use[0] != EV_CHAIRMAN_USE:
            return
        seat, division = use[1], use[3]
        what = f"seat {seat} uses the Chairman Privilege card"
        sources = [
            (r[2], r[3])
            for r in self.trace.rows_ahead()
            if r[0] == EV_EMPLOYEE and r[6] == E_TRANSFER_OUT
        ]
        with self.rules(what):
            require(0 <= seat < self.n, "a player")
            half = int(g.cards[CHAIRMAN_CARD].bribed)
            dep = g.chairman_privilege(seat, division, sources)
        self.flush(what)
        row = g.where(dep)[1]
        employees = 0 if half else 1 + len(sources)
        self.trace.expect(EV_CHAIRMAN_USE, seat, half, division, row, employees, what=what)
        self.seen[f"Chairman card used ({'Bribed' if half else 'Division'} half)"] += 1

    def extra_action(self) -> None:
        """Rulebook, Communication (Bribed half): "At the beginning of the Directors' Meeting
        and, if applicable, after the Chairman Privilege card has been executed, you may take 1
        additional Action" ("The game can end only during Stage II")."""
        row = self.decide(EV_EXTRA_ACTION, "an extra action")
        seat = row[1]
        card = self.game.cards[COMMUNICATIONS]
        self.trace.check(
            0 <= seat < self.n and self.game.usable(seat, COMMUNICATIONS) is not None
            and card.bribed,
            "an extra action only by the holder of the Bribed Communications card, face up",
        )  # fmt: skip
        self.trace.expect(EV_EXTRA_ACTION, seat, what="the Bribed Communications card")
        self.seen["extra action (Bribed Communications)"] += 1
        self.action(seat)

    def divisional_head(self, division: int) -> None:
        """Rulebook, step 3 (situations A-C); the kernel writes the displaced Divisional Head's
        move before the ``head`` row that holds his choice."""
        g = self.game
        d = g.divisions[division]
        previous = d.head
        by_card = int(not d.offices)
        new = g.new_divisional_head(division)
        what = f"step 3: the Divisional Head of {DIVISIONS[division]}"
        to_board = None
        if previous is not None and previous != new:
            choice = self.trace.next_of({EV_HEAD})
            self.trace.check(
                choice is not None and choice[5] in (0, 1),
                f"{what}: the displaced head goes to the Board Room (0) or the Counsel track (1)",
            )
            to_board = choice[5] == 0
        with self.rules(what):
            g.determine_divisional_head(division, to_board)
        self.flush(what)
        case = 0 if previous is None else (1 if previous == new else 2)
        displaced = -1 if to_board is None else int(not to_board)
        self.trace.expect(
            EV_HEAD, division, new, -1 if previous is None else previous, case, displaced,
            by_card, what=what,
        )  # fmt: skip
        self.seen[("head case", "ABC"[case])] += 1
        if by_card:
            self.seen["Divisional Head by the Privilege card"] += 1

    def sort_events(self) -> list[int]:
        """Rulebook, step 7: the Divisional Head of Communications sorts the two standard cards
        and 6 other cards drawn at random (a choice: the order, within the rules)."""
        g = self.game
        sorter = g.divisions[COMMUNICATIONS].head
        row = self.decide(EV_ORDER, "step 7: the Event cards sorted")
        turns, policy = row[2], row[3]
        if self.house.cards_on[COMMUNICATIONS]:
            self.trace.check(0 <= policy < len(ORDER_POLICIES), "a sorting policy")
        else:
            self.trace.check(policy == -1, "no sorting: the Communications card's power is off")
            self.seen["Event cards dealt (Communications off)"] += 1
        self.trace.expect(
            EV_ORDER, sorter, turns, policy, what="step 7: sorted by the Head of Communications"
        )
        order = []
        for position in range(8):
            card = self.decide(EV_ORDER_CARD, f"step 7: Event card {position + 1}")[2]
            self.trace.expect(EV_ORDER_CARD, position, card, what="step 7: the Event order")
            order.append(card)
        broken = PowerStruggle.event_order_rules(order, len(self.data.events))
        if broken is not None:
            self.trace.fail(f"step 7: {broken}", f"the order {order}", self.trace.index - 1)
        if order.index(MEETING) != turns:
            self.trace.fail(
                f"{order.index(MEETING)} department turns (cards before the Directors' Meeting)",
                f"{turns}",
                self.trace.index - 9,
            )
        self.event_draws.update(e for e in order if e >= 0)
        self.seen[("department turns", turns)] += 1
        return order

    def snapshots(self, what: str) -> None:
        """Trace format: the state after each meeting and at the end, compared in full."""
        g = self.game
        for seat, p in enumerate(g.players):
            self.trace.expect(
                EV_SNAP_SEAT, seat, p.money, *(p.points[t] for t in POINT_TRACKS),
                sum(p.consultants), what=f"{what}: seat {seat}",
            )  # fmt: skip
        for division, d in enumerate(g.divisions):
            for row, dep in enumerate(d.offices):
                self.trace.expect(
                    EV_SNAP_OFFICE, division, row, dep.owner, dep.managers, dep.employees,
                    what=f"{what}: the offices",
                )  # fmt: skip
        for chair, owner in enumerate(g.board):
            self.trace.expect(EV_SNAP_BOARD, chair, owner, what=f"{what}: the Board Room")
        self.trace.expect(EV_SNAP_BOARD, -1, g.chairman, what=f"{what}: the Chairman")
        for card, c in enumerate(g.cards):
            self.trace.expect(
                EV_SNAP_CARD, card, c.holder, int(c.bribed), int(c.face_up),
                what=f"{what}: the Privilege cards",
            )  # fmt: skip

    # --- II: Department Turns -----------------------------------------------------------------

    def department_turns(self, order: list[int], turns: int) -> tuple[int, str | None]:
        """Rulebook, II: each Department Turn an Event Step, then an Action Step "Starting with
        the player who controls the Divisional Head of Communications" (who "remains the
        starting player for all Action Steps of the Round"). Returns the department turns
        played in the game and how the game ended (None: it goes on)."""
        g = self.game
        starting = g.divisions[COMMUNICATIONS].head
        for position, event in enumerate(order):
            if event == MEETING:
                self.trace.expect(EV_EVENT, MEETING, position, 0, what="the Directors' Meeting")
                return turns, None
            turns += 1
            self.trace.expect(
                EV_TURN, position + 1, turns, starting, what=f"department turn {position + 1}"
            )
            self.event_step(event, position)
            for seat in g.clockwise(starting):
                self.action(seat)
                if g.declare(seat, self.needed):
                    self.declare(seat)
            if any(p.declared for p in g.players):
                return turns, "declared"
            if turns >= self.max_turns:
                self.seen["truncated"] += 1
                return turns, "truncated"
        raise AssertionError("an Event order without the Directors' Meeting")

    def event_step(self, event: int, position: int) -> None:
        """Rulebook, 1. Event Step: the top card "happens immediately"."""
        g = self.game
        if event == BONUS:
            self.trace.expect(EV_EVENT, BONUS, position, 0, what="the Bonus Payment")
            for seat in range(self.n):
                g.change_money(seat, g.bonus_payment(seat), "bonus")
            self.flush("the Bonus Payment")
            self.seen["bonus payment"] += 1
            return
        card = self.data.events[event]
        what = f"event {event} ({card.name})"
        self.trace.expect(EV_EVENT, event, position, len(card.effects), what=what)
        for effect in card.effects:
            losses = []
            k = 0
            while (row := self.trace.peek_row(k)) is not None and (
                (row[0] == EV_EMPLOYEE and row[6] == E_EVENT)
                or (row[0] == EV_OFFICE and row[6] == O_CLOSED)
            ):
                if row[0] == EV_EMPLOYEE:
                    losses.append((row[2], row[3]))
                k += 1
            with self.rules(what):
                g.event_effect(event, effect, losses if effect.kind == "lose_employees" else [])
            self.flush(what)
            self.seen[("effect", effect.kind)] += 1
            if effect.kind == "moron" and g.divisions[COMMUNICATIONS].head is None:
                self.seen["moron without a Head of Communications"] += 1

    def declare(self, seat: int) -> None:
        """Rulebook, End of the Game: he announces 4 or more Victory Points; "The game continues
        for that turn (not Round) so that every player has the same number of Actions"."""
        g = self.game
        routes = g.competence_vps(seat) + [g.archenemy_vp(seat)]
        mask = sum(1 << r for r, held in enumerate(routes) if held)
        self.trace.expect(
            EV_DECLARE, seat, sum(routes), int(routes[-1]), mask,
            what=f"seat {seat} has {sum(routes)} Victory Points and declares",
        )  # fmt: skip
        self.seen["declare"] += 1

    def end(self, winners: list[int], turns: int, truncated: bool) -> None:
        """Rulebook, End of the Game: most Victory Points, then most money, else shared."""
        g = self.game
        mask = sum(1 << p for p in winners)
        winner = winners[0] if len(winners) == 1 else -1
        vp = g.victory_points(winners[0]) if winners else 0
        self.trace.expect(
            EV_END, winner, turns, int(truncated), g.round, mask, vp, what="the end of the game"
        )
        if len(winners) > 1:
            self.seen["shared victory"] += 1

    # --- II: the actions ------------------------------------------------------------------------

    def action(self, seat: int) -> None:
        """Rulebook, 2. Action Step: 1 Action, A-G; every decision checked for legality."""
        g = self.game
        row = self.decide(EV_ACTION, f"seat {seat}'s action")
        at = self.trace.index
        kind, x, y, z, w = row[2:7]
        self.trace.check(0 <= kind < len(ACTIONS), "an action kind")
        name = ACTIONS[kind]
        what = f"seat {seat}'s action {name}"
        self.trace.expect(EV_ACTION, seat, kind, x, y, z, w, what=f"seat {seat}'s turn to act")
        self.seen[("action", name)] += 1
        body = self.trace.rows_ahead()

        def offices(event: int, cause: int) -> list[Office]:
            return [(r[2], r[3]) for r in body if r[0] == event and r[6] == cause]

        def office_id(code: int) -> Office:
            return divmod(code, OFFICES_PER_DIVISION)

        with self.rules(what, at):
            if kind == A_HIRE:
                if g.room_of(seat) < x:
                    self.seen["hire: excess to the supply"] += 1
                hired = self.house.hired_employees + g.human_resources_extra(seat)
                require(x == hired, "A: hired count")
                g.hire_employees(seat, offices(EV_EMPLOYEE, E_HIRE))
            elif kind == A_CREATE_TWO:
                sources = offices(EV_EMPLOYEE, E_TRANSFER_OUT)
                g.create_departments_with_existing_employees(seat, (x, y), (z, w), sources)
            elif kind == A_CREATE_ONE:
                sources = offices(EV_EMPLOYEE, E_TRANSFER_OUT)
                new = g.create_department_with_new_employees(seat, x, z, sources)
                # The kernel's y is the Employees the strategy meant to move; those that did
                # not fit (6 at most) stayed where they were.
                require(
                    y == len(sources) or (y > len(sources) and new.employees == MAX_EMPLOYEES),
                    "B2: the Employees moved as counted, or as many as fit",
                )
            elif kind == A_MOVE:
                moved = [office_id(x)] + ([office_id(y)] if y >= 0 else [])
                g.move_departments(seat, moved, z)
            elif kind == A_MERGE:
                g.merge_departments(seat, office_id(x), office_id(y), None if z < 0 else z)
            elif kind == A_RESIGN:
                require(y in (0, 1), "D: to the Board Room (0) or the Counsel track (1)")
                g.resign(seat, x, to_board=y == 0)
                self.seen[("resign", "Board Room" if y == 0 else "Counsel")] += 1
            elif kind == A_INFLUENCE:
                g.influence_for_employees(seat, offices(EV_EMPLOYEE, E_INFLUENCE))
            elif kind == A_BUY_MAIN:
                g.buy_main_department(seat, x)
            elif kind == A_BUY_CONSULTANT:
                g.buy_consultant(seat, x)
            elif kind == A_BUY_SHARES:
                g.buy_shares(seat, x, y)
                if x != y:
                    self.seen["shares with Accounting"] += 1
            elif kind == A_DEVELOPMENT:
                enticed, source = [], None
                for r in body:
                    if r[0] == EV_EMPLOYEE and r[6] == E_ENTICE_OUT:
                        source = (r[2], r[3])
                    elif r[0] == EV_EMPLOYEE and r[6] == E_ENTICE_IN:
                        enticed.append((source, (r[2], r[3])))
                        source = None
                card = g.cards[DEVELOPMENT]
                require(x == (3 if card.bribed else 1), "G: 1 Employee (Bribed half: 3)")
                g.development_privilege(seat, enticed)
            elif kind == A_LEGAL:
                dismissed = offices(EV_EMPLOYEE, E_LEGAL)
                card = g.cards[LEGAL]
                require(x == (2 if card.bribed else 1), "G: 1 Employee (Bribed half: 2)")
                g.legal_privilege(seat, dismissed)
        if kind == A_BRIBE:
            self.bribe(seat)
        self.flush(what)

    def bribe(self, seat: int) -> None:
        """Rulebook, E: one or two bribe attempts, 1 Corruption point for the briber; then "Each
        player who declined a bribe attempt during this Action loses 1 Employee - unless (a) he
        received a 2nd bribe attempt and accepted it or (2) he has no Employees on the board".
        Convention: the losses in the order of the attempts."""
        g = self.game
        what = f"seat {seat}'s bribe"
        with self.rules(what):
            require(self.house.bribes_allowed, "house rule bribes_allowed: no bribes")
        g.briber_corruption(seat)
        self.flush(f"{what}: 1 Corruption point for the briber")
        declined, accepted_by = [], None
        for attempt in (1, 2):
            if attempt == 2 and self.trace.peek() != EV_BRIBE:
                break
            if attempt == 2:
                with self.rules(f"{what}: attempt 2"):
                    require(self.house.second_bribe, "house rule second_bribe: one attempt only")
            row = self.decide(EV_BRIBE, f"{what}: attempt {attempt}")
            target, card, amount, accepted = row[2], row[3], row[4], row[6]
            self.trace.check(accepted in (0, 1), "accepted 0 or 1")
            with self.rules(f"{what}: attempt {attempt}"):
                g.bribe(seat, target, card, amount, bool(accepted))
            self.trace.expect(
                EV_BRIBE, seat, target, card, amount, attempt, accepted, what=f"{what} attempt"
            )
            self.flush(f"{what}: accepted")
            self.seen[("bribe attempt", attempt, "accepted" if accepted else "declined")] += 1
            if accepted:
                accepted_by = target
                break
            declined.append(target)
        losers = [p for p in dict.fromkeys(declined) if p != accepted_by]
        if not self.house.refusal_costs_employee:
            self.seen["a refusal without a lost Employee"] += len(losers)
            losers = []
        for loser in losers:
            if g.employees_of(loser) == 0:
                self.seen["a decliner without Employees"] += 1
                continue
            row = self.decide(EV_EMPLOYEE, f"{what}: seat {loser} declined and loses 1 Employee")
            with self.rules(f"{what}: the decliner's lost Employee"):
                g.employee_lost_for_declining(loser, (row[2], row[3]))
            self.flush(f"{what}: seat {loser} declined and loses 1 Employee")


def replay(trace_rows, rules: dict, players: int, game_label: str = "") -> Outcome:
    """Replay one kernel trace against the rulebook; AssertionError on any disagreement."""
    return Referee(rules, players, game_label).replay(trace_rows)
