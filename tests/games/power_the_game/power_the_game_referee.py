"""A slow, readable, independent referee for POWER: The Game that replays kernel traces.

The referee is a second implementation of the rules in ``/work/shared/rules/power-the-game.md``
(quoted as "Rulebook: ..."; its pages are out of order, so a quote names its section). Where the
rulebook leaves a choice open the referee follows the kernel's documented convention (the trace
format in ``simcore/games/power_the_game/state.py``, quoted as "Convention: ..."). It shares
nothing with
the numba kernel except the codes of the trace (events, piece kinds, command ops and results,
locations); it reads the board file itself with ``tomllib`` and keeps every piece as an object.

How a replay works. The trace holds two kinds of facts:

* decisions: the commands each seat writes on its pad, the first official when it is drawn at
  random, which pieces a Mega-Missile is made of, which piece pays a penalty, which army of a
  two-army player receives captured pieces on a tie. The referee takes them from the trace and
  checks that each one is *legal*;
* consequences: whether each command is carried out or cancelled (and why), where pieces go,
  what a Mega-Missile destroys, penalties owed, every bounce, battle and capture, Power Units,
  Flag captures and eliminations, the official's rotation, the end and the winner, and every
  snapshot. The referee computes them itself and asserts that the kernel's next rows say exactly
  that.

Readings. Where the rulebook is ambiguous the referee takes the kernel's reading, each marked
"Convention" where it is applied: a Headquarters is part of its country for Power Units; seat 0
commands armies 0 and 1 at two players; when several like pieces could go (an exchange, a
penalty, a missile's material) those that moved in this round go first, the latest first; a
bounce's side mask names every tied side, even one whose pieces were there already; Planes may
fly over Headquarters (only ground pieces must stop there); a ship steps to any adjacent node
that is not all land (the board file has no geometry for "cannot cut diagonally across Sectors
containing only land"); mercenary orders are counted against the pieces standing when the pads
were written; a captured army's Flags (its own and those it had captured) go to the captor; a
seat with nothing at all to pay a penalty with pays nothing.

Any disagreement raises ``AssertionError`` naming the game, the trace row index, what the rules
expected and what the kernel wrote.
"""

from __future__ import annotations

import tomllib
from collections import Counter, deque
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import simcore
from simcore.games.power_the_game.state import (
    BOUNCE,
    BUILD,
    BUY,
    CAPTURE,
    COUNTRIES,
    END_FLAGS,
    END_REASONS,
    END_TIME_LIMIT,
    EV_ARMY,
    EV_ARMY_STATE,
    EV_BOUNCE,
    EV_CAPTURE,
    EV_COMMAND,
    EV_CONFLICT,
    EV_DESTROYED,
    EV_END,
    EV_EXEC,
    EV_FLAG,
    EV_OUT,
    EV_PENALTY,
    EV_PIECES,
    EV_POWER_UNITS,
    EV_ROUND,
    EV_SCORE,
    EV_SETUP,
    EV_TAKE,
    EV_USED,
    EVENT_NAMES,
    EXECUTED,
    KIND_CODES,
    LAUNCH,
    MOVE,
    OPS,
    OUTCOMES,
    POWER_UNIT,
    RESERVE,
    RESULTS,
    SHARED,
    STANDOFF,
    UPGRADE,
    X_BANNED,
    X_BLOCKADE,
    X_MALFORMED,
    X_MATERIAL,
    X_MERCENARY,
    X_NO_PIECE,
    X_NOT_YOURS,
    X_REACH,
    X_RESERVE,
    X_STOCK,
    X_TOO_MANY,
)
from tests.trace_cursor import TraceCursor

DEFAULT_BOARD = Path(simcore.__file__).parent / "data" / "power_the_game_board.toml"
N_ARMIES = 4  # Rulebook, Components: four colours, four countries, four Reserve areas
NONE = -1

# --- the pieces -----------------------------------------------------------------------------

GROUND, AIR, SEA, LAUNCHED = "ground", "air", "sea", "launched"


@dataclass(frozen=True)
class PieceKind:
    """Rulebook, The Power Forces: one line of the table of maximum moves, power values and
    exchange rates, and the terrain its Movement paragraph allows. The numbers are the rulebook's
    (the defaults of the rule parameters); a game plays by its ``Rules``."""

    letter: str  # Rulebook, Planning Commands: the Command pad's abbreviation
    name: str
    moves: int
    power: int
    travel: str
    group: int  # 1: Group I, 2: Group II, 0: the Mega-Missile
    upgrade: str = ""  # Group I: the Group II piece three of them make


PIECE_KINDS = (
    PieceKind("I", "Infantry", 2, 2, GROUND, 1, "R"),
    PieceKind("T", "Tank", 3, 3, GROUND, 1, "H"),
    PieceKind("F", "Fighter", 5, 5, AIR, 1, "B"),
    PieceKind("D", "Destroyer", 1, 10, SEA, 1, "C"),
    PieceKind("R", "Regiment", 2, 20, GROUND, 2),
    PieceKind("H", "Heavy Tank", 3, 30, GROUND, 2),
    PieceKind("B", "Bomber", 5, 25, AIR, 2),
    PieceKind("C", "Cruiser", 1, 50, SEA, 2),
    # Rulebook, Mega-Missile rules: "MEGA-MISSILE 1 ANYWHERE 0"; "it has no defensive value";
    # "Mega-Missiles cannot be moved ...; they can only be launched."
    PieceKind("M", "Mega-Missile", 0, 0, LAUNCHED, 0),
)
#: The kernel's kind code of each piece (the trace's codes: the pad abbreviations in code order).
KINDS = {KIND_CODES.index(kind.letter): kind for kind in PIECE_KINDS}
CODE = {kind.letter: code for code, kind in KINDS.items()}
INFANTRY, REGIMENT, MISSILE = CODE["I"], CODE["R"], CODE["M"]
#: The rule parameters' name of each kind's numbers: power_<name>, price_<name>.
RULE_NAME = {code: kind.name.lower().replace(" ", "_") for code, kind in KINDS.items()}
#: moves_<name>: Rulebook, Movement of the Pieces gives one range to each pair of a Group I piece
#: and the Group II piece it makes.
MOVES_NAME = {"I": "infantry", "R": "infantry", "T": "tank", "H": "tank", "F": "plane",
              "B": "plane", "D": "ship", "C": "ship"}  # fmt: skip
#: Rulebook, Components: "EACH SET COMPRISING 9 INFANTRY, 6 TANKS, 3 HEAVY TANKS, 6 FIGHTERS, 3
#: BOMBERS, 6 DESTROYERS, 3 CRUISERS, 1 MEGA-MISSILE, 1 FLAG AND 10 POWER UNITS"; The Power
#: Forces: "Three Infantry pieces snap together to create ... a Regiment". With the rule
#: component_limits an army never has more in play than its set.
SET = {CODE["I"]: 9, CODE["T"]: 6, CODE["H"]: 3, CODE["F"]: 6, CODE["B"]: 3, CODE["D"]: 6,
       CODE["C"]: 3, CODE["M"]: 1}  # fmt: skip
SET_POWER_UNITS = 10
#: Convention: the order captured pieces change colour in, for a set that runs short: Group II
#: first (largest first), then Group I (largest first), then Mega-Missiles; largest at the
#: rulebook's power values, whatever a game's rules say.
CAPTURE_ORDER = sorted(KINDS, key=lambda k: (k == MISSILE, KINDS[k].group != 2, -KINDS[k].power))
#: Rulebook, Initial Forces: "2 Infantry, 2 Tanks, 2 Fighters, 2 Destroyers" and a Flag (two:
#: the rule initial_pieces).
INITIAL_KINDS = (CODE["I"], CODE["T"], CODE["F"], CODE["D"])


def is_group_one(kind: int) -> bool:
    return kind in KINDS and KINDS[kind].group == 1


def upgrade_of(kind: int) -> int:
    return CODE[KINDS[kind].upgrade]


def smaller_of(kind: int) -> int:
    """The Group I piece three of which make the Group II ``kind``."""
    return next(code for code, k in KINDS.items() if k.upgrade == KINDS[kind].letter)


# --- the board ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Node:
    name: str
    role: str  # sector, headquarters, island, sea_lane
    terrain: str  # land, coastal, water
    country: int  # army owning the country, or NONE (islands and sea lanes are neutral)


@dataclass(frozen=True)
class Board:
    """Rulebook, The Power Battleground: four countries of Sectors 0-8, each with an adjacent
    Headquarters; Islands and Sea-lanes, "which separate the countries, are neutral zones". The
    layout is not in the rulebook: it is the board file (nodes in file order are the trace's
    node numbers)."""

    nodes: tuple[Node, ...]
    adjacent: tuple[frozenset[int], ...]
    #: fewest_moves answers, by (travel, origin, target): a replay asks the same ones often
    known: dict = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def load(cls, path: str) -> Board:
        source = Path(path) if path else DEFAULT_BOARD
        table = tomllib.loads(source.read_text())["nodes"]
        names = list(table)
        nodes = tuple(
            Node(
                name,
                spec["role"],
                spec["terrain"],
                COUNTRIES.index(spec["country"]) if "country" in spec else NONE,
            )
            for name, spec in table.items()
        )
        adjacent = tuple(
            frozenset(names.index(other) for other in spec["adjacent"]) for spec in table.values()
        )
        for i, around in enumerate(adjacent):
            assert all(i in adjacent[j] for j in around), f"{names[i]}: adjacency not symmetric"
        return cls(nodes, adjacent)

    def __len__(self) -> int:
        return len(self.nodes)

    def node(self, name: str) -> int:
        return next(i for i, node in enumerate(self.nodes) if node.name == name)

    def headquarters(self, army: int) -> int:
        return next(
            i
            for i, node in enumerate(self.nodes)
            if node.role == "headquarters" and node.country == army
        )

    def is_node(self, loc: int) -> bool:
        return 0 <= loc < len(self.nodes)

    def may_end(self, travel: str, node: int) -> bool:
        """Rulebook, Movement of the Pieces: troops and tanks go "through Sectors containing land
        or coastline"; Planes "are prevented from travelling across Sea-lanes"; ships "are
        restricted to Sectors containing water and coastline" (Sector 4, all land, is the only
        place they cannot reach)."""
        terrain = self.nodes[node].terrain
        if travel == SEA:
            return terrain != "land"
        return terrain != "water"

    def may_pass(self, travel: str, node: int) -> bool:
        """May a piece go on through ``node`` in the same round? Rulebook, POWER WARNING:
        "Infantry, Regiments, Tanks and Heavy Tanks may not enter and exit an Island or
        Headquarters on the same round"; Planes "can fly over the Islands without stopping, but
        the Island still counts as one move"."""
        if not self.may_end(travel, node):
            return False
        if travel == GROUND:
            return self.nodes[node].role == "sector"
        return True  # Convention: the rulebook stops only ground pieces at Headquarters

    def fewest_moves(self, kind: int, origin: int, target: int) -> int | None:
        """The fewest Sectors a piece of ``kind`` needs from ``origin`` to ``target`` under its
        terrain rules (None: it can never get there). Rulebook: "the move can be made
        horizontally, vertically and diagonally" (a step goes to any adjacent node)."""
        travel = KINDS[kind].travel
        key = (travel, origin, target)
        if key not in self.known:
            self.known[key] = self.search(travel, origin, target)
        return self.known[key]

    def search(self, travel: str, origin: int, target: int) -> int | None:
        """Breadth-first search for ``fewest_moves``."""
        if not self.may_end(travel, target):
            return None
        seen = {origin}
        queue = deque([(origin, 0)])
        while queue:
            here, steps = queue.popleft()
            for there in self.adjacent[here]:
                if there == target:
                    return steps + 1
                if there not in seen and self.may_pass(travel, there):
                    seen.add(there)
                    queue.append((there, steps + 1))
        return None


@cache
def load_board(path: str) -> Board:
    """A board file is read once per session (a Board is immutable)."""
    return Board.load(path)


# --- the rules ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rules:
    """The rule parameters (``simcore.games.power_the_game.game.RULES``), read from a spec's rules
    dict."""

    board: Board
    max_rounds: int
    commands: int  # per army and round (Rulebook: "up to five commands")
    max_power_units: int  # per army and round (Rulebook: "a single round is three")
    missile_cost: int  # Rulebook: "must equal or exceed 100"
    blockade: bool  # Rulebook, POWER TIP: a piece in an enemy HQ keeps Reserve pieces out
    first_official: str  # "seat0" or "random"
    component_limits: bool  # Rulebook, Components: each colour's set (SET)
    mega_missiles: bool  # Rulebook, Mega-Missile rules (off: none is made or launched)
    powers: dict  # kind -> power value (Rulebook, The Power Forces table; a Mega-Missile 0)
    prices: dict  # Group I kind -> Power Units (Rulebook: "equal to its power value")
    moves: dict  # kind -> most Sectors in a round (the table's MAXIMUM MOVES)
    upgrade_pieces: int  # Rulebook, Exchanging Pieces: "three smaller pieces"
    units_per_country: int  # Rulebook, Collecting Power Units: "one Power Unit for each"
    idle_penalty: bool  # Rulebook, Command Rules: "they must forfeit one Power Unit"
    flag_needs_infantry: bool  # Rulebook, Flag Captures: "an Infantry or Regiment"
    initial_pieces: int  # Rulebook, Initial Forces: two of each Group I piece
    bounces: bool  # Rulebook, Resolving ties: tied pieces that moved in retreat
    units_before_flags: bool  # Rulebook, Flag Captures: "after the distribution of Power Units"

    @classmethod
    def from_dict(cls, rules: dict) -> Rules:
        return cls(
            board=load_board(str(rules["board"])),
            max_rounds=int(rules["max_rounds"]),
            commands=int(rules["commands"]),
            max_power_units=int(rules["max_power_units"]),
            missile_cost=int(rules["missile_cost"]),
            blockade=bool(rules["blockade"]),
            first_official=str(rules["first_official"]),
            component_limits=bool(rules["component_limits"]),
            mega_missiles=bool(rules["mega_missiles"]),
            powers={
                code: 0 if code == MISSILE else int(rules[f"power_{RULE_NAME[code]}"])
                for code in KINDS
            },
            prices={code: int(rules[f"price_{RULE_NAME[code]}"]) for code in INITIAL_KINDS},
            moves={
                code: 0 if code == MISSILE else int(rules[f"moves_{MOVES_NAME[kind.letter]}"])
                for code, kind in KINDS.items()
            },
            upgrade_pieces=int(rules["upgrade_pieces"]),
            units_per_country=int(rules["units_per_country"]),
            idle_penalty=bool(rules["idle_penalty"]),
            flag_needs_infantry=bool(rules["flag_needs_infantry"]),
            initial_pieces=int(rules["initial_pieces"]),
            bounces=bool(rules["bounces"]),
            units_before_flags=bool(rules["units_before_flags"]),
        )

    def power(self, kind: int) -> int:
        return self.powers[kind]

    def price(self, kind: int) -> int:
        """Rulebook, Expanding Forces: "The cost of each piece in Power Units is equal to its
        power value" (two for an Infantry, three for a Tank, five for a Fighter, ten for a
        Destroyer)."""
        return self.prices[kind]

    def penalty_breakdown(self, kind: int) -> tuple[int, int, int]:
        """Rulebook, Command Rules: the piece with the lowest power value is exchanged "for the
        equivalent Power Units", one of which is forfeited; "In the event that the piece with
        the lowest power value is either a Regiment, Bomber, Heavy Tank or Cruiser, players must
        exchange it for two smaller pieces plus the Power Units for the third piece" (all but
        one of the pieces its exchange takes). Returns (Power Units added to the Reserve, kind
        of the pieces added or NONE, how many)."""
        if is_group_one(kind):
            return self.power(kind) - 1, NONE, 0
        smaller = smaller_of(kind)
        return self.power(smaller) - 1, smaller, self.upgrade_pieces - 1


def side_of(players: int, army: int) -> int:
    """Who fights together. Rulebook, Two Player Games: "Each player controls two adjacent
    countries" and "they count the power value of both of their coloured pieces in that Sector";
    Three Player Games: "The fourth Country and armed force is considered MERCENARY" (a side of
    its own). Convention: seat 0 commands armies 0 and 1 at two players."""
    return army // 2 if players == 2 else army


def seat_of(players: int, army: int) -> int:
    """The seat commanding ``army``; NONE for the mercenary of the three-player game."""
    if players == 2:
        return army // 2
    return army if army < players else NONE


def tie_sides(powers: dict[int, int]) -> list[int]:
    """Rulebook, Resolving ties: the sides tied at the highest total of a Sector ("If there are
    three players involved in a conflict and the two with the highest power values are tied,
    these two players retreat"; ties lower down do not bounce: "If the two players with the
    lowest power values are tied, the third player with the highest power value captures all
    pieces"). Empty when the highest total is held by one side (or nobody is there)."""
    if len(powers) < 2:
        return []
    top = max(powers.values())
    tied = sorted(side for side, power in powers.items() if power == top)
    return tied if len(tied) > 1 else []


# --- the state ------------------------------------------------------------------------------


@dataclass(eq=False)  # pieces are compared by identity: two like pieces are two pieces
class Piece:
    army: int
    kind: int
    where: int  # a board node, or RESERVE + army
    came_from: int = NONE  # where it moved in from this round (where a bounce sends it back)
    move_order: int = NONE  # which of this round's moves brought it here
    fixed: bool = False  # it may not move again this round


@dataclass
class Army:
    seat: int  # NONE: the mercenary
    side: int
    headquarters: int
    power_units: int = 0
    standing: bool = True  # its Flag stands
    flags: int = 1  # Flags in its Headquarters: its own and those it captured


@dataclass
class Table:
    """The whole state of a game as the referee sees it."""

    rules: Rules
    players: int
    armies: list[Army]
    pieces: list[Piece]
    seats_in: list[bool]
    first_official: int = 0
    official: int = 0
    rounds: int = 0
    winner: int = NONE
    end_reason: int = NONE
    moves_this_round: int = 0
    #: situations met, for the sweep's coverage test
    seen: Counter = field(default_factory=Counter)
    #: per seat, the kernel's seat result columns by name (flags_captured, pieces_captured,
    #: pieces_lost, missiles_launched, commands, cancelled, penalties, power_units, final_power,
    #: flags_held, round_out), tallied by the referee
    stats: list[Counter] = field(default_factory=list)

    def tally(self, army: int, column: str, amount: int = 1) -> None:
        """Count towards the seat commanding ``army`` (the mercenary's count for nobody)."""
        seat = self.armies[army].seat
        if seat != NONE:
            self.stats[seat][column] += amount

    def at(self, loc: int, army: int | None = None, kind: int | None = None) -> list[Piece]:
        return [
            p
            for p in self.pieces
            if p.where == loc
            and (army is None or p.army == army)
            and (kind is None or p.kind == kind)
        ]

    def sides_at(self, loc: int) -> dict[int, int]:
        """Rulebook, Resolving Conflicts: "they each add up the power value of their pieces
        occupying the Sector" (a side present with only Mega-Missiles has 0)."""
        powers: dict[int, int] = {}
        for p in self.at(loc):
            side = self.armies[p.army].side
            powers[side] = powers.get(side, 0) + self.rules.power(p.kind)
        return powers

    def army_power(self, army: int) -> int:
        """Rulebook, Winning the Game: "adding the power values of each piece and Power Units
        in all Sectors, including Reserve"."""
        return self.armies[army].power_units + sum(
            self.rules.power(p.kind) for p in self.pieces if p.army == army
        )

    def armies_of_seat(self, seat: int) -> list[int]:
        return [a for a in range(N_ARMIES) if self.armies[a].seat == seat]


def removal_order(pieces: list[Piece]) -> list[Piece]:
    """Convention: when only some of several like pieces go (an exchange, a penalty, a missile's
    material), those that moved in this round go first, the most recent move first."""
    return sorted(pieces, key=lambda p: -p.move_order if p.move_order != NONE else 1)


def location_name(board: Board, loc: int) -> str:
    if board.is_node(loc):
        return board.nodes[loc].name
    if RESERVE <= loc < RESERVE + N_ARMIES:
        return f"{COUNTRIES[loc - RESERVE]}RV"
    return str(loc)


#: Field names of each event, for readable messages.
FIELDS = {
    "setup": ("players", "nodes", "fingerprint", "official", "max_rounds", "commands", "max_pu"),
    "army": ("army", "seat", "side", "hq"),
    "round": ("round", "official", "seats_in"),
    "pieces": ("army", "loc", "kind", "count"),
    "army_state": ("army", "pu", "standing", "flags", "power", "pieces"),
    "command": ("seat", "index", "army", "op", "kind", "from", "to"),
    "exec": ("seat", "index", "result", "detail"),
    "used": ("army", "loc", "kind", "count"),
    "destroyed": ("army", "loc", "kind", "count"),
    "penalty": ("seat", "army", "kind", "loc", "pu_added", "kind_added", "count"),
    "conflict": ("loc", "side0", "side1", "side2", "side3", "outcome", "side"),
    "bounce": ("army", "kind", "from", "to"),
    "capture": ("winner", "loser", "loc", "kind", "count", "received"),
    "power_units": ("army", "units", "countries"),
    "flag": ("captor", "captured", "attack", "defence", "seat"),
    "take": ("captor", "captured", "loc", "kind", "count", "received"),
    "out": ("seat", "round"),
    "score": ("seat", "power", "flags", "in"),
    "end": ("winner", "rounds", "reason"),
}
LOCATION_FIELDS = {"loc", "from", "to", "hq"}
KIND_FIELDS = {"kind", "kind_added"}


def describe_row(row, board: Board | None = None) -> str:
    """One trace row as ``name(field=value, ...)`` with kinds, ops, results and places named."""
    row = tuple(int(x) for x in row)
    if not 0 <= row[0] < len(EVENT_NAMES):
        return f"unknown event {list(row)}"
    name = EVENT_NAMES[row[0]]
    names = FIELDS[name]
    parts = []
    for key, value in zip(names, row[1:], strict=False):
        if key in LOCATION_FIELDS and board is not None:
            parts.append(f"{key}={location_name(board, value)}")
        elif key in KIND_FIELDS and 0 <= value < len(KIND_CODES):
            parts.append(f"{key}={KIND_CODES[value]}")
        elif name == "command" and key == "op" and 0 <= value < len(OPS):
            parts.append(f"op={OPS[value]}")
        elif name == "exec" and key == "result" and 0 <= value < len(RESULTS):
            parts.append(f"result={RESULTS[value]}")
        elif name == "conflict" and key == "outcome" and 0 <= value < len(OUTCOMES):
            parts.append(f"outcome={OUTCOMES[value]}")
        elif name == "end" and key == "reason" and 0 <= value < len(END_REASONS):
            parts.append(f"reason={END_REASONS[value]}")
        else:
            parts.append(f"{key}={value}")
    extra = row[1 + len(names) :]
    if any(extra):
        parts.append(f"extra={list(extra)}")
    return f"{name}({', '.join(parts)})"


class Trace(TraceCursor):
    def __init__(self, rows, game_label: str, board: Board):
        super().__init__(
            rows,
            game_label,
            "POWER: The Game",
            EVENT_NAMES,
            lambda row: describe_row(row, board),
        )

    def take_all(self, event: int) -> list[tuple[int, ...]]:
        """The consecutive rows of ``event`` at the cursor, consumed."""
        rows = []
        while self.peek() == event:
            rows.append(self.rows[self.index])
            self.index += 1
        return rows

    def expect_set(self, event: int, expected: list[tuple[int, ...]], what: str) -> None:
        """The next rows are the ``event`` rows ``expected``, in any order (the rules give no
        order to simultaneous removals)."""
        start = self.index
        got = self.take_all(event)
        if Counter(got) != Counter((event, *row) + (0,) * (7 - len(row)) for row in expected):
            shown = [self.describe((event, *row) + (0,) * (7 - len(row))) for row in expected]
            self.fail(f"{what}: {shown or 'no such rows'}", index=start)


#: Largest first at the rulebook's power values, whatever a game's rules say (a convention).
LARGEST_FIRST = sorted((k for k in KINDS if k != MISSILE), key=lambda k: -KINDS[k].power)


def least_waste(rules: Rules, units: int, pieces: Counter) -> tuple[int, ...]:
    """Convention (docs/games/power-the-game.md): the Mega-Missile material the player chooses
    is the one that loses the least power ("If the power value is greater than 100, the player
    simply loses the extra power"); of those, the most Power Units, then the most of the largest
    piece, then of the next largest, and so on. Returns (Power Units, then the count of each kind
    in LARGEST_FIRST), found by trying every combination of the pieces there."""
    cost = rules.missile_cost
    best_key, best = None, None

    def combos(k: int, total: int, counts: tuple[int, ...]):
        if k == len(LARGEST_FIRST) or total + units >= cost:  # more pieces only lose more
            yield total, counts + (0,) * (len(LARGEST_FIRST) - k)
            return
        kind = LARGEST_FIRST[k]
        for n in range(pieces[kind] + 1):
            yield from combos(k + 1, total + n * rules.power(kind), (*counts, n))

    for total, counts in combos(0, 0, ()):
        used_units = min(units, max(cost - total, 0))
        if total + used_units < cost:
            continue
        key = (total + used_units, -used_units, tuple(-n for n in counts))
        if best_key is None or key < best_key:
            best_key, best = key, (used_units, *counts)
    return best


@dataclass
class Recipe:
    """What a Mega-Missile is made of."""

    power: int = 0
    units: int = 0
    pieces: list[Piece] = field(default_factory=list)


@dataclass
class Command:
    seat: int
    index: int
    army: int
    op: int
    kind: int
    origin: int
    target: int


class Referee:
    """Replays one game of POWER: The Game from its trace, enforcing the rulebook step by step."""

    def __init__(self, rules: dict, players: int, game_label: str = ""):
        assert players in (2, 3, 4), "Rulebook: a game for 2 to 4 players"
        self.rules = Rules.from_dict(rules)
        self.board = self.rules.board
        self.n = players
        self.label = game_label
        self.trace: Trace | None = None
        self.table: Table | None = None

    # --- small helpers ----------------------------------------------------------------------

    def where(self, loc: int) -> str:
        return location_name(self.board, loc)

    def is_location(self, loc: int) -> bool:
        return self.board.is_node(loc) or RESERVE <= loc < RESERVE + N_ARMIES

    def reserve(self, army: int) -> int:
        return RESERVE + army

    def mercenary_game(self) -> bool:
        return self.n == 3

    def seat_order(self) -> list[int]:
        """Rulebook, Implementing Commands: "Starting with the official and then going
        clockwise"; seats that are out are skipped."""
        t = self.table
        return [s for s in ((t.official + k) % self.n for k in range(self.n)) if t.seats_in[s]]

    # --- the game ---------------------------------------------------------------------------

    def replay(self, rows) -> Table:
        """Replay a whole trace; returns the final table."""
        self.trace = Trace(rows, self.label, self.board)
        self.setup()
        while True:
            self.play_round()
            t = self.table
            t.rounds += 1
            if sum(t.seats_in) <= 1:
                # Rulebook, Winning the Game: "The winner is the first player to defeat all
                # their opponents by capturing their Flags."
                t.winner = t.seats_in.index(True) if any(t.seats_in) else NONE
                t.end_reason = END_FLAGS
                break
            if t.rounds >= self.rules.max_rounds:
                t.end_reason = END_TIME_LIMIT
                break
        self.finish()
        if self.trace.index != len(self.trace.rows):
            self.trace.fail("nothing after the end of the game")
        return self.table

    def setup(self) -> None:
        """Rulebook, Initial Forces: each army's Flag, 2 Infantry, 2 Tanks, 2 Fighters and 2
        Destroyers in its Headquarters; Two Player Games: "two complete sets of pieces" each;
        Three Player Games: the fourth army is the mercenary. The Official: "One player is
        selected to be the first official" (Convention: seat 0, or a random seat)."""
        r = self.rules
        row = self.trace.take(EV_SETUP, "the set-up")
        official = row[4]
        if r.first_official == "seat0":
            self.trace.check(official == 0, "seat 0 as first official (first_official=seat0)")
        else:
            self.trace.check(0 <= official < self.n, f"a first official among {self.n} seats")
        self.trace.expect(
            EV_SETUP,
            self.n,
            len(self.board),
            row[3],  # the board file's fingerprint: a hash the referee does not recompute
            official,
            r.max_rounds,
            r.commands,
            r.max_power_units,
            what="the set-up",
        )
        self.table = self.initial_table(official)
        for a, army in enumerate(self.table.armies):
            self.trace.expect(EV_ARMY, a, army.seat, army.side, army.headquarters, what=f"army {a}")

    def initial_table(self, official: int) -> Table:
        """Every army at full strength in its Headquarters, its Flag standing."""
        armies = [
            Army(seat_of(self.n, a), side_of(self.n, a), self.board.headquarters(a))
            for a in range(N_ARMIES)
        ]
        pieces = [
            Piece(a, kind, armies[a].headquarters)
            for a in range(N_ARMIES)
            for kind in INITIAL_KINDS
            for _ in range(self.rules.initial_pieces)
        ]
        table = Table(self.rules, self.n, armies, pieces, [True] * self.n, official, official)
        table.stats = [Counter(round_out=NONE) for _ in range(self.n)]
        return table

    def snapshot(self) -> None:
        """Every (army, location, kind) with pieces, then each army's Power Units, Flag, Flags
        held, power value and pieces."""
        t = self.table
        counts = Counter((p.army, p.where, p.kind) for p in t.pieces)
        for army, loc, kind in sorted(counts):
            self.trace.expect(
                EV_PIECES, army, loc, kind, counts[(army, loc, kind)], what="the snapshot"
            )
        for a, army in enumerate(t.armies):
            self.trace.expect(
                EV_ARMY_STATE,
                a,
                army.power_units,
                int(army.standing),
                army.flags,
                t.army_power(a),
                sum(1 for p in t.pieces if p.army == a),
                what=f"army {a}'s state",
            )

    def play_round(self) -> None:
        """Rulebook, Round Structure: 1. Planning Commands, 2. Implementing Commands,
        3. Resolving Conflicts, 4. Capturing Pieces, 5. Collecting Power Units, 6. Flag
        Captures."""
        t = self.table
        self.trace.expect(EV_ROUND, t.rounds, t.official, sum(t.seats_in), what=f"round {t.rounds}")
        self.snapshot()
        for p in t.pieces:
            p.came_from, p.move_order, p.fixed = NONE, NONE, False
        t.moves_this_round = 0
        pads = self.read_pads()
        carried = self.implement(pads)
        self.penalties(carried)
        self.resolve_conflicts()
        # Rulebook, Flag Captures: "after the distribution of Power Units" (the rule
        # units_before_flags; off, Flags first).
        if self.rules.units_before_flags:
            self.collect_power_units()
            self.flag_captures()
        else:
            self.flag_captures()
            self.collect_power_units()
        # Rulebook, Starting the Next Round: "The timer is passed to the player to the left of
        # the last official, and they become the new official" (seats that are out skipped).
        if any(t.seats_in):
            nxt = (t.official + 1) % self.n
            while not t.seats_in[nxt]:
                nxt = (nxt + 1) % self.n
            t.official = nxt

    # --- 1. planning ------------------------------------------------------------------------

    def read_pads(self) -> dict[int, list[Command]]:
        """Rulebook, Planning Commands: every player writes its commands at once (a strategy's
        choice); seats in increasing order, each pad top to bottom. The pad's length: "up to
        five commands" (ten at two players); commands beyond are cancelled when implemented."""
        t = self.table
        pads: dict[int, list[Command]] = {s: [] for s in range(self.n) if t.seats_in[s]}
        last_seat = NONE
        while self.trace.peek() == EV_COMMAND:
            row = self.trace.peek_row()
            seat, index = row[1], row[2]
            self.trace.check(
                seat in pads and seat >= last_seat,
                f"a command of a seat still in, seats in increasing order (after {last_seat})",
            )
            self.trace.check(index == len(pads[seat]), f"pad line {len(pads[seat])}")
            pads[seat].append(Command(*row[1:8]))
            t.stats[seat]["commands"] += 1
            last_seat = seat
            self.trace.index += 1
        return pads

    # --- 2. implementing commands -----------------------------------------------------------

    def mercenary_verdicts(self, pads: dict[int, list[Command]]) -> tuple[dict, dict]:
        """Rulebook, Three Player Games: "If two or more opponents try to move the same piece
        during the same round, the moves cancel each other out and the piece stays where it is.
        If, however, the players move the same piece to the same Sector, the command is carried
        out. If there are more than one of the same type of piece in the same Sector and two
        players try to move them, then the commands are carried out. However, if three players
        try to move the same two pieces all commands are cancelled."

        Reading (the kernel's): when two or more seats write more mercenary moves of one kind
        from one place than there are such pieces there, the moves are all cancelled
        (``X_MERCENARY``) unless they all go to the same place; then they are carried out, in
        the order of execution, until the pieces that stood there when the pads were written
        have moved, and the others are ``SHARED`` (carried out by a piece already moved there:
        a piece bought since is not one the seats ordered). Returns {(seat, pad line): verdict}
        for the moves of such groups, and {(kind, from, to): pieces} for the shared groups."""
        verdicts: dict[tuple[int, int], int] = {}
        shared: dict[tuple[int, int, int], int] = {}
        if not self.mercenary_game():
            return verdicts, shared
        t = self.table
        mercenary = next(a for a in range(N_ARMIES) if t.armies[a].seat == NONE)
        groups: dict[tuple[int, int], list[Command]] = {}
        for pad in pads.values():
            for c in pad:
                if c.army == mercenary and c.op == MOVE:
                    groups.setdefault((c.kind, c.origin), []).append(c)
        for (kind, origin), orders in groups.items():
            seats = {c.seat for c in orders}
            standing = len(t.at(origin, mercenary, kind))
            if len(seats) < 2 or standing == 0 or len(orders) <= standing:
                continue
            if len({c.target for c in orders}) == 1:
                for c in orders:
                    verdicts[(c.seat, c.index)] = SHARED
                shared[(kind, origin, orders[0].target)] = standing
                t.seen["mercenary move shared"] += 1
            else:
                for c in orders:
                    verdicts[(c.seat, c.index)] = X_MERCENARY
                t.seen["mercenary moves cancel out"] += 1
        return verdicts, shared

    def may_command(self, seat: int, army: int) -> bool:
        """Rulebook: a player commands its own armies; Three Player Games: "The mercenary force
        can be directed by any of the three players". An army whose Flag fell is out."""
        t = self.table
        if not 0 <= army < N_ARMIES or not t.armies[army].standing:
            return False
        owner = t.armies[army].seat
        return owner == seat or (owner == NONE and self.mercenary_game())

    def implement(self, pads: dict[int, list[Command]]) -> set[int]:
        """Rulebook, Implementing Commands: seats from the official clockwise, "Commands should
        be read in order from top to bottom"; "Illegal commands are cancelled". Returns the
        seats with at least one command carried out."""
        t = self.table
        verdicts, shared = self.mercenary_verdicts(pads)
        carried = set()
        for seat in self.seat_order():
            written_for: Counter = Counter()
            for c in pads[seat]:
                what = f"round {t.rounds}: seat {seat}'s command {c.index}"
                written_for[c.army] += 1
                result, detail = self.judge(c, written_for, verdicts)
                together = (c.kind, c.origin, c.target)
                if result == SHARED and shared[together] > 0:
                    result, detail = self.judge(c, written_for, {})
                    if result == EXECUTED:
                        shared[together] -= 1
                recipe = None
                if result == EXECUTED and c.op == BUILD:
                    recipe = self.missile_recipe(c, what)
                    detail = recipe.power
                self.trace.expect(EV_EXEC, seat, c.index, result, detail, what=what)
                t.seen[("result", RESULTS[result])] += 1
                if result in (EXECUTED, SHARED):
                    carried.add(seat)
                    if result == EXECUTED:
                        self.carry_out(c, what, recipe)
                else:
                    t.stats[seat]["cancelled"] += 1
        return carried

    def judge(self, c: Command, written_for: Counter, verdicts) -> tuple[int, int]:
        """(result, detail) of command ``c`` on the current state."""
        t = self.table
        if not self.may_command(c.seat, c.army):
            return X_NOT_YOURS, 0
        # Rulebook: "up to five commands"; Two Player Games: "ten commands per round, five for
        # each army"; Three Player Games: "as many of their five commands as they wish" for the
        # mercenary. A cancelled command still uses its line ("they lose that command").
        own = len(t.armies_of_seat(c.seat))
        if (
            written_for[c.army] > self.rules.commands
            or sum(written_for.values()) > self.rules.commands * own
        ):
            return X_TOO_MANY, 0
        if (c.seat, c.index) in verdicts:
            return verdicts[(c.seat, c.index)], 0
        if c.op == MOVE:
            return self.judge_move(c)
        if c.op == UPGRADE:
            if not is_group_one(c.kind) or not self.is_location(c.origin):
                return X_MALFORMED, 0
            # Rulebook, Exchanging Pieces: "three smaller pieces within the same Sector for one
            # larger piece of the same type"; Two Player Games: "they cannot use different
            # coloured pieces in exchanging and upgrading".
            if len(t.at(c.origin, c.army, c.kind)) < self.rules.upgrade_pieces:
                return X_MATERIAL, 0
            # A Regiment is the same three Infantry snapped together; the other Group II pieces
            # come from the set.
            if c.kind != INFANTRY and self.set_room(c.army, upgrade_of(c.kind)) < 1:
                return X_STOCK, 0
            moved_in = removal_order(t.at(c.origin, c.army, c.kind))[: self.rules.upgrade_pieces]
            return EXECUTED, sum(p.came_from != NONE for p in moved_in)
        if c.op == BUY:
            # Rulebook: "Power Units are kept in a player's Reserve area until they are
            # exchanged for Group I pieces."
            if not is_group_one(c.kind):
                return X_MALFORMED, 0
            if t.armies[c.army].power_units < self.rules.price(c.kind):
                return X_MATERIAL, 0
            if self.set_room(c.army, c.kind) < 1:
                return X_STOCK, 0
            return EXECUTED, self.rules.price(c.kind)
        if c.op == BUILD:
            if not self.is_location(c.origin):
                return X_MALFORMED, 0
            if not self.rules.mega_missiles:
                return X_BANNED, 0
            if self.missile_material(c.army, c.origin) < self.rules.missile_cost:
                return X_MATERIAL, 0
            if self.set_room(c.army, MISSILE) < 1:
                return X_STOCK, 0
            return EXECUTED, 0  # the power used is checked against the EV_USED rows
        if c.op == LAUNCH:
            if not (self.is_location(c.origin) and self.is_location(c.target)):
                return X_MALFORMED, 0
            if not self.rules.mega_missiles:
                return X_BANNED, 0
            # Rulebook: "Captured Mega-Missiles are placed in the victor's Reserve area, and
            # then can only be launched from there"; "to any sector on the battleground
            # including Headquarters, Reserve areas and even to the sector from which they were
            # launched".
            if not t.at(c.origin, c.army, MISSILE):
                return X_NO_PIECE, 0
            return EXECUTED, c.target
        return X_MALFORMED, 0

    def judge_move(self, c: Command) -> tuple[int, int]:
        t = self.table
        if c.kind not in KINDS or c.kind == MISSILE:
            return X_MALFORMED, 0  # "Mega-Missiles cannot be moved ... only launched"
        if not (self.is_location(c.origin) and self.is_location(c.target)):
            return X_MALFORMED, 0
        if c.origin == c.target:
            return X_MALFORMED, 0
        # Rulebook, Command Rules: "Pieces cannot be moved more than once during a single
        # round"; "Pieces cannot be exchanged and then moved unless they are in Reserve".
        if not [p for p in t.at(c.origin, c.army, c.kind) if not p.fixed]:
            return X_NO_PIECE, 0
        # "Pieces in Reserve can move once in any one round and only to Headquarters."
        # "Pieces cannot move back into Reserve."
        if not self.board.is_node(c.target):
            return X_RESERVE, 0
        if not self.board.is_node(c.origin):
            if c.target != t.armies[c.army].headquarters:
                return X_RESERVE, 0
            # POWER TIP: a piece in an opponent's Headquarters "prevent[s] them from bringing in
            # pieces from Reserve - this is called a blockade".
            if self.rules.blockade and any(
                t.armies[p.army].side != t.armies[c.army].side for p in t.at(c.target)
            ):
                return X_BLOCKADE, 0
            return EXECUTED, 1
        needed = self.board.fewest_moves(c.kind, c.origin, c.target)
        if needed is None:
            return X_REACH, NONE
        if needed > self.rules.moves[c.kind]:
            return X_REACH, needed
        return EXECUTED, needed

    def set_room(self, army: int, kind: int) -> int:
        """How many more pieces of ``kind`` the army's set can put in play (a Regiment is the
        Infantry of its exchange snapped together: three); unbounded without the rule
        component_limits."""
        if not self.rules.component_limits:
            return 1 << 40
        per_regiment = self.rules.upgrade_pieces
        held = Counter(p.kind for p in self.table.pieces if p.army == army)
        infantry = SET[INFANTRY] - held[INFANTRY] - per_regiment * held[REGIMENT]
        if kind == INFANTRY:
            return infantry
        if kind == REGIMENT:
            return infantry // per_regiment
        return SET[kind] - held[kind]

    def units_room(self, army: int) -> int:
        if not self.rules.component_limits:
            return 1 << 40
        return SET_POWER_UNITS - self.table.armies[army].power_units

    def receive(self, army: int, pieces: list[Piece]) -> int:
        """Captured or taken-over pieces of one kind change colour into the army's Reserve, as
        many as its set has; the rest leave play. Returns how many it receives."""
        t = self.table
        kept = min(len(pieces), self.set_room(army, pieces[0].kind))
        for p in pieces[kept:]:
            t.pieces.remove(p)
            t.seen["set runs short"] += 1
        for p in pieces[:kept]:
            p.army, p.where = army, self.reserve(army)
            p.came_from, p.fixed = NONE, True
        return kept

    def missile_material(self, army: int, loc: int) -> int:
        """Rulebook, Mega-Missile rules: "any combination of existing pieces and/or Power Units
        ... The pieces must all be located in the same Sector"; Power Units are in the Reserve."""
        t = self.table
        total = sum(self.rules.power(p.kind) for p in t.at(loc, army))
        if loc == self.reserve(army):
            total += t.armies[army].power_units
        return total

    def carry_out(self, c: Command, what: str, recipe: Recipe | None) -> None:
        t = self.table
        if c.op == MOVE:
            piece = next(p for p in t.at(c.origin, c.army, c.kind) if not p.fixed)
            piece.where, piece.came_from, piece.fixed = c.target, c.origin, True
            piece.move_order = t.moves_this_round
            t.moves_this_round += 1
            t.seen[("move", KINDS[c.kind].travel)] += 1
            if not self.board.is_node(c.origin):
                t.seen["reserve to headquarters"] += 1
        elif c.op == UPGRADE:
            for p in removal_order(t.at(c.origin, c.army, c.kind))[: self.rules.upgrade_pieces]:
                t.pieces.remove(p)
            # Rulebook, Command Rules: "they cannot move the Bomber until the next round";
            # "Pieces cannot be exchanged and then moved unless they are in Reserve."
            made = Piece(c.army, upgrade_of(c.kind), c.origin)
            made.fixed = self.board.is_node(c.origin)
            t.pieces.append(made)
            t.seen["upgrade in reserve" if not made.fixed else "upgrade on the board"] += 1
        elif c.op == BUY:
            t.armies[c.army].power_units -= self.rules.price(c.kind)
            t.pieces.append(Piece(c.army, c.kind, self.reserve(c.army)))
            t.seen["buy"] += 1
        elif c.op == BUILD:
            self.build_missile(c, recipe)
        elif c.op == LAUNCH:
            self.launch_missile(c, what)

    def missile_recipe(self, c: Command, what: str) -> Recipe:
        """The pieces and Power Units a Mega-Missile is made of are the player's choice, written
        in the EV_USED rows after its EV_EXEC row. Rulebook, Mega-Missile rules: "any
        combination of existing pieces and/or Power Units ... The pieces must all be located in
        the same Sector ... must equal or exceed 100 ... If the power value is greater than 100,
        the player simply loses the extra power" (Power Units are only in the Reserve)."""
        t = self.table
        recipe = Recipe()
        ahead = 1
        while (row := self.trace.peek_row(ahead)) is not None and row[0] == EV_USED:
            _, army, loc, kind, count, *_ = row
            ok = army == c.army and loc == c.origin and count > 0
            if ok and kind == POWER_UNIT:
                recipe.units += count
                ok = loc == self.reserve(c.army) and recipe.units <= t.armies[army].power_units
                recipe.power += count
            elif ok and kind in KINDS:
                left = [p for p in removal_order(t.at(loc, army, kind)) if p not in recipe.pieces]
                ok = len(left) >= count
                recipe.pieces += left[:count]
                recipe.power += count * self.rules.power(kind)
            else:
                ok = False
            if not ok:
                self.trace.fail(
                    f"{what}: material army {c.army} has at {self.where(c.origin)}",
                    index=self.trace.index + ahead,
                )
            ahead += 1
        if recipe.power < self.rules.missile_cost:
            self.trace.fail(
                f"{what}: material worth at least {self.rules.missile_cost}, not {recipe.power}"
            )
        best = least_waste(
            self.rules,
            t.armies[c.army].power_units if c.origin == self.reserve(c.army) else 0,
            Counter(p.kind for p in t.at(c.origin, c.army) if p.kind != MISSILE),
        )
        chosen = (recipe.units, *(sum(p.kind == k for p in recipe.pieces) for k in LARGEST_FIRST))
        if chosen != best:
            order = "".join(KINDS[k].letter for k in LARGEST_FIRST)
            self.trace.fail(f"{what}: least-waste material (P{order}) {best}, not {chosen}")
        return recipe

    def build_missile(self, c: Command, recipe: Recipe) -> None:
        t = self.table
        self.trace.take_all(EV_USED)  # checked by missile_recipe
        for p in recipe.pieces:
            t.pieces.remove(p)
        t.armies[c.army].power_units -= recipe.units
        t.pieces.append(Piece(c.army, MISSILE, c.origin, fixed=True))
        t.seen["missile built"] += 1
        if recipe.units:
            t.seen["missile made with Power Units"] += 1

    def launch_missile(self, c: Command, what: str) -> None:
        """Rulebook, Mega-Missile rules: "all the forces in that Sector are destroyed"; in a
        Reserve area "all the pieces and Power Units there"; "If the Sector is a Headquarters,
        the Flag remains standing"; "The Mega-Missile is itself destroyed"."""
        t = self.table
        t.pieces.remove(next(p for p in t.at(c.origin, c.army, MISSILE)))
        hit = t.at(c.target)
        counts = Counter((p.army, p.kind) for p in hit)
        expected = [(army, c.target, kind, n) for (army, kind), n in sorted(counts.items())]
        if not self.board.is_node(c.target):
            owner = c.target - RESERVE
            if t.armies[owner].power_units:
                expected.append((owner, c.target, POWER_UNIT, t.armies[owner].power_units))
            t.armies[owner].power_units = 0
            t.seen["missile on a Reserve"] += 1
        self.trace.expect_set(
            EV_DESTROYED, expected, f"{what}: the strike on {self.where(c.target)}"
        )
        for p in hit:
            t.pieces.remove(p)
        t.seen["missile launched"] += 1
        t.stats[c.seat]["missiles_launched"] += 1

    # --- penalties --------------------------------------------------------------------------

    def penalties(self, carried: set[int]) -> None:
        """Rulebook, Command Rules: "If they fail to make a move or exchange, they must forfeit
        one Power Unit. If they do not have a Power Unit, they must exchange their piece which
        has the lowest power value (from anywhere on the battleground/Reserve) for the
        equivalent Power Units." The army paying and which lowest piece are the player's
        choice. The rule idle_penalty off: nobody pays."""
        t = self.table
        if not self.rules.idle_penalty:
            return
        for seat in self.seat_order():
            if seat in carried:
                continue
            what = f"round {t.rounds}: seat {seat} carried out no command"
            row = self.trace.take(EV_PENALTY, what)
            army, kind, loc = row[2], row[3], row[4]
            mine = t.armies_of_seat(seat)
            t.stats[seat]["penalties"] += 1
            candidates = [p for p in t.pieces if p.army in mine and p.kind != MISSILE]
            if not candidates and not any(t.armies[a].power_units for a in mine):
                # Nothing to pay with (a Mega-Missile has no power value to break down).
                self.trace.expect(EV_PENALTY, seat, NONE, NONE, NONE, 0, NONE, 0, what=what)
                t.seen["penalty: nothing to pay with"] += 1
                continue
            self.trace.check(army in mine, f"{what}: one of its armies {mine} pays")
            if any(t.armies[a].power_units for a in mine):
                self.trace.check(
                    kind == NONE and t.armies[army].power_units > 0,
                    f"{what}: a Power Unit paid by an army that has one",
                )
                self.trace.expect(EV_PENALTY, seat, army, NONE, NONE, 0, NONE, 0, what=what)
                t.armies[army].power_units -= 1
                t.seen["penalty: a Power Unit"] += 1
                continue
            lowest = min(self.rules.power(p.kind) for p in candidates)
            at = [p for p in candidates if p.army == army and p.kind == kind and p.where == loc]
            self.trace.check(
                bool(at) and self.rules.power(kind) == lowest,
                f"{what}: a piece of the lowest power value ({lowest}) broken down",
            )
            units, added, n_added = self.rules.penalty_breakdown(kind)
            t.pieces.remove(removal_order(at)[0])
            # With component_limits: what the set has room for.
            units = min(units, self.units_room(army))
            if added != NONE:
                n_added = min(n_added, self.set_room(army, added))
            self.trace.expect(EV_PENALTY, seat, army, kind, loc, units, added, n_added, what=what)
            t.armies[army].power_units += units
            for _ in range(n_added):
                t.pieces.append(Piece(army, added, self.reserve(army)))
            t.seen["penalty: a piece broken down"] += 1

    # --- 3-4. conflicts and captures --------------------------------------------------------

    def bitmask(self, members) -> int:
        return sum(1 << m for m in members)

    def conflict_row(self, loc: int, outcome: int, side: int) -> tuple[int, ...]:
        powers = self.table.sides_at(loc)
        return (EV_CONFLICT, loc, *(powers.get(s, NONE) for s in range(4)), outcome, side)

    def retreaters(self, loc: int) -> list[Piece]:
        """Rulebook, Resolving ties: the tied players' pieces "must retreat to the Sector from
        which they originated - this is called a bounce. Pieces that were already in the Sector
        before the current round do not retreat"; "Pieces can only retreat once during a
        round." Convention: in the order they moved."""
        t = self.table
        tied = tie_sides(t.sides_at(loc))
        going = [p for p in t.at(loc) if t.armies[p.army].side in tied and p.came_from != NONE]
        return sorted(going, key=lambda p: p.move_order)

    def contested(self) -> set[int]:
        """Rulebook: "Any Sector (including Headquarters), occupied by more than one opponent
        has a conflict that needs to be resolved"."""
        t = self.table
        sides: dict[int, set[int]] = {}
        for p in t.pieces:
            if self.board.is_node(p.where):
                sides.setdefault(p.where, set()).add(t.armies[p.army].side)
        return {loc for loc, present in sides.items() if len(present) > 1}

    def resolve_conflicts(self) -> None:
        """Rulebook, Resolving ties: "Players always have to resolve ties before other battles."
        Convention: Sectors are scanned in node order, and the scan repeats until no tie can
        bounce; then the battles, in node order. The rule bounces off: no tie bounces (every tie
        stands off)."""
        t = self.table
        bounced = self.rules.bounces
        while bounced:
            bounced = False
            contested = self.contested()
            for loc in range(len(self.board)):
                going = self.retreaters(loc) if loc in contested else []
                if not going:
                    continue
                tied = tie_sides(t.sides_at(loc))
                what = f"round {t.rounds}: a tie at {self.where(loc)} bounces"
                self.trace.expect(*self.conflict_row(loc, BOUNCE, self.bitmask(tied)), what=what)
                for p in going:
                    self.trace.expect(EV_BOUNCE, p.army, p.kind, loc, p.came_from, what=what)
                    if not self.board.is_node(p.came_from):
                        t.seen["bounce back to a Reserve"] += 1
                    p.where, p.came_from = p.came_from, NONE
                t.seen["bounce"] += 1
                if len(t.sides_at(loc)) > 1:
                    t.seen["bounce leaves a conflict"] += 1
                bounced = True
                contested = self.contested()
        for loc in sorted(self.contested()):
            powers = t.sides_at(loc)
            what = f"round {t.rounds}: the battle at {self.where(loc)}"
            tied = tie_sides(powers)
            if tied:
                # Rulebook: tied pieces that were already there "remain unaffected".
                self.trace.expect(*self.conflict_row(loc, STANDOFF, self.bitmask(tied)), what=what)
                t.seen["standoff"] += 1
                continue
            self.battle(loc, powers, what)

    def battle(self, loc: int, powers: dict[int, int], what: str) -> None:
        """Rulebook, Resolving Conflicts: "The player with the highest total power value wins
        the battle and captures all the opposing pieces"; Capturing Pieces: they go to the
        victor's Reserve area. Two Player Games: "Captured pieces go into the Reserve area of
        the Country that won the conflict ... If they have an equal power value from each of
        their countries ... they can choose which Country will receive the conquered forces.
        They cannot split the conquered forces"."""
        t = self.table
        winner = max(powers, key=lambda side: powers[side])
        self.trace.expect(*self.conflict_row(loc, CAPTURE, winner), what=what)
        t.seen[("battle between sides", len(powers))] += 1
        winning = [a for a in range(N_ARMIES) if t.armies[a].side == winner and t.at(loc, a)]
        army_power = {a: sum(self.rules.power(p.kind) for p in t.at(loc, a)) for a in winning}
        best = max(army_power.values())
        receivers = [a for a in winning if army_power[a] == best]
        row = self.trace.take(EV_CAPTURE, f"{what}: side {winner} captures")
        receiver = row[1]
        self.trace.check(
            receiver in receivers, f"{what}: captured pieces go to one of armies {receivers}"
        )
        if len(receivers) > 1:
            t.seen["equal armies choose the receiver"] += 1
        lost = [p for p in t.at(loc) if t.armies[p.army].side != winner]
        for p in lost:
            t.tally(receiver, "pieces_captured")
            t.tally(p.army, "pieces_lost")
        groups = {
            (kind, army): [p for p in lost if p.army == army and p.kind == kind]
            for kind in CAPTURE_ORDER  # Convention: kind by kind, each loser in army order
            for army in range(N_ARMIES)
        }
        expected = []
        for (kind, army), of_kind in groups.items():
            if of_kind:
                kept = self.receive(receiver, of_kind)
                expected.append((receiver, army, loc, kind, len(of_kind), kept))
        self.trace.expect_set(EV_CAPTURE, expected, what)
        if self.board.nodes[loc].role == "headquarters":
            t.seen["battle in a Headquarters"] += 1

    # --- 5. Power Units ---------------------------------------------------------------------

    def collect_power_units(self) -> None:
        """Rulebook, Collecting Power Units: "one Power Unit for each opponent's Country that
        they have pieces in at the end of the round ... only one Power Unit per Country"; "not
        ... for occupying their own Country"; "The maximum ... in a single round is three";
        none "for occupying a Country without a Flag", "an Island or a Sea lane". Two Player
        Games: "a Power Unit for each" coloured army in an enemy Country, two per colour at
        most. Convention (the rulebook is ambiguous: "their own colour country with an adjacent
        Headquarters", yet "Any Sector (including Headquarters)"): a Headquarters is part of its
        country."""
        t = self.table
        for a, army in enumerate(t.armies):
            if not army.standing:
                continue
            paying = set()
            for p in t.pieces:
                if p.army != a or not self.board.is_node(p.where):
                    continue
                node = self.board.nodes[p.where]
                if node.country == NONE:
                    continue
                owner = t.armies[node.country]
                if owner.side != army.side and owner.standing:
                    paying.add(node.country)
            units = min(
                len(paying) * self.rules.units_per_country,
                self.rules.max_power_units,
                self.units_room(a),
            )
            if not units:
                continue
            army.power_units += units
            t.tally(a, "power_units", units)
            self.trace.expect(
                EV_POWER_UNITS,
                a,
                units,
                self.bitmask(paying),
                what=f"round {t.rounds}: army {a} occupies enemy countries {sorted(paying)}",
            )
            t.seen[("power units", units)] += 1

    # --- 6. Flag captures -------------------------------------------------------------------

    def flag_captures(self) -> None:
        """Rulebook, Flag Captures: after Power Units, "A Flag is captured when at least one
        piece from the attacker's Infantry or Regiment occupies the Sector in which the
        defender's Flag is situated (i.e. their Headquarters) and the power value of the
        combined attacking force is greater than the defender's force." Convention: country by
        country from the official's first army on. The rule flag_needs_infantry off: any piece of
        the attacking force will do."""
        t = self.table
        first = min(t.armies_of_seat(t.official), default=0)
        for k in range(N_ARMIES):
            victim = (first + k) % N_ARMIES
            defender = t.armies[victim]
            if not defender.standing:
                continue
            hq = defender.headquarters
            powers = t.sides_at(hq)
            defence = powers.get(defender.side, 0)
            needed = (INFANTRY, REGIMENT) if self.rules.flag_needs_infantry else tuple(KINDS)
            attackers = {}  # side -> the armies of its force that could take the Flag
            for side, attack in powers.items():
                force = [p for p in t.at(hq) if t.armies[p.army].side == side]
                foot = sorted({p.army for p in force if p.kind in needed})
                if side != defender.side and foot and attack > defence:
                    attackers[side] = foot
            if not attackers:
                continue
            # Convention: several sides could take it (a standoff left them there): the
            # strongest; none if they tie.
            best = max(powers[side] for side in attackers)
            strongest = [side for side in attackers if powers[side] == best]
            if len(strongest) > 1:
                t.seen["flag: attackers tie"] += 1
                continue
            self.capture_flag(victim, attackers[strongest[0]], best, defence)

    def capture_flag(self, victim: int, captors: list[int], attack: int, defence: int) -> None:
        """Rulebook: "The captured Flag is then placed in the victor's own Headquarters. The
        victor also takes possession of all of their opponent's military force and Power Units,
        which are converted to their colour and placed in their Reserve area. The opponent is
        permanently eliminated". Three Player Games: the mercenary's Flag likewise."""
        t = self.table
        what = f"round {t.rounds}: army {victim}'s Flag"
        row = self.trace.take(EV_FLAG, f"{what} is captured")
        captor = row[1]
        self.trace.check(
            captor in captors, f"{what}: captured by an army with Infantry there, {captors}"
        )
        self.trace.expect(
            EV_FLAG, captor, victim, attack, defence, t.armies[captor].seat, what=what
        )
        loser = t.armies[victim]
        taken = [p for p in t.pieces if p.army == victim]
        expected = []
        groups = {
            (kind, loc): [p for p in taken if p.kind == kind and p.where == loc]
            for kind in CAPTURE_ORDER  # Convention: kind by kind, each place in location order
            for loc in sorted({p.where for p in taken if p.kind == kind})
        }
        for (kind, loc), here in groups.items():
            kept = self.receive(captor, here)
            expected.append((captor, victim, loc, kind, len(here), kept))
        if loser.power_units:
            kept = min(loser.power_units, self.units_room(captor))
            units = loser.power_units
            expected.append((captor, victim, self.reserve(victim), POWER_UNIT, units, kept))
            t.armies[captor].power_units += kept
        self.trace.expect_set(EV_TAKE, expected, f"{what}: everything of army {victim}")
        # Convention: every Flag in the fallen Headquarters (its own and those it had captured)
        t.armies[captor].flags += loser.flags
        loser.power_units, loser.flags, loser.standing = 0, 0, False
        seat = loser.seat
        t.tally(captor, "flags_captured")
        t.seen["flag captured"] += 1
        if seat == NONE:
            t.seen["mercenary flag captured"] += 1
        elif not any(t.armies[a].standing for a in t.armies_of_seat(seat)):
            t.seats_in[seat] = False
            t.stats[seat]["round_out"] = t.rounds
            self.trace.expect(EV_OUT, seat, t.rounds, what=f"seat {seat} has no Flag left")
            t.seen["seat out"] += 1

    # --- the end ----------------------------------------------------------------------------

    def finish(self) -> None:
        """Rulebook, Winning the Game: the last player with a Flag wins; "If the two hour time
        limit expires the player who has the highest power value wins ... In the unusual event
        of the total power value of more than one player being the same, the player with the
        most Flags wins." Convention: the time limit is ``max_rounds``; a tie on both: nobody."""
        t = self.table
        self.snapshot()
        scores = []
        for seat in range(self.n):
            mine = t.armies_of_seat(seat)
            power = sum(t.army_power(a) for a in mine)
            flags = sum(t.armies[a].flags for a in mine)
            scores.append((power, flags))
            t.stats[seat]["final_power"] = power
            t.stats[seat]["flags_held"] = flags
            self.trace.expect(
                EV_SCORE, seat, power, flags, int(t.seats_in[seat]), what=f"seat {seat}'s score"
            )
        if t.end_reason == END_TIME_LIMIT:
            best = max(scores[s] for s in range(self.n) if t.seats_in[s])
            leaders = [s for s in range(self.n) if t.seats_in[s] and scores[s] == best]
            t.winner = leaders[0] if len(leaders) == 1 else NONE
            t.seen["round cap"] += 1
            if len(leaders) > 1:
                t.seen["round cap: a tie"] += 1
            elif sum(s[0] == best[0] for s in scores) > 1:
                t.seen["round cap: power tie broken by flags"] += 1
        else:
            t.seen["won by flags"] += 1
        self.trace.expect(EV_END, t.winner, t.rounds, t.end_reason, what="the end")


def replay(trace_rows, rules: dict, players: int, game_label: str = "") -> Table:
    """Replay one kernel trace against the rulebook; AssertionError on any disagreement."""
    return Referee(rules, players, game_label).replay(trace_rows)
