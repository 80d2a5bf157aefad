"""POWER: The Game (../shared/rules/power-the-game.md): a board-graph kernel with simultaneous
orders, over plain state arrays.

The board is not in the rulebook: it is data (a TOML board file, the rule parameter ``board``),
checked against the rulebook's constraints by tests/test_power_the_game_board.py. Every choice the
rulebook leaves open is a rule parameter below or a convention in docs/games/power-the-game.md.
Codes, the state layout, the trace format and command legality are in
``simcore/power_the_game_state.py``; decisions come from ``strategies/power_the_game.py``; this
module only applies rules.
"""

import hashlib
import re
import tomllib
from collections import deque
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numba import njit, prange

from simcore import chunk, files
from simcore.chunk import (
    ENDED_BY,
    ENDED_DRAW,
    ENDED_RULES,
    ENDED_TIME_LIMIT,
    N_STANDARD_GAME_COLUMNS,
    N_STANDARD_SEAT_COLUMNS,
    TURNS,
    WINNER,
    WON,
    block_bounds,
    record_event,
    seat_lineup,
)
from simcore.power_the_game_state import (
    AIR,
    ARMY_NODES,
    B_ADJ,
    B_AIR_RING,
    B_COUNTRY,
    B_DEGREE,
    B_NUMBER,
    B_REACH,
    B_REACHED_BY,
    B_ROLE,
    B_TERRAIN,
    BOARD_WIDTH,
    BOUNCE,
    BUILD,
    BUY,
    BY_VALUE,
    CAPTURE,
    CARRIED,
    CMD_ARMY,
    CMD_FROM,
    CMD_KIND,
    CMD_OP,
    CMD_TO,
    CMD_WIDTH,
    CNT,
    COUNTRIES,
    COUNTRY_NAMES,
    CRUISER,
    DESTROYER,
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
    EV_STANDING,
    EV_TAKE,
    EV_USED,
    EVENT_NAMES,
    EXECUTED,
    FIGHTER,
    FILE_WIDTH,
    FIRST_OFFICIAL,
    FIRST_OFFICIAL_RANDOM,
    FIXED,
    FLAGS,
    GROUND,
    GROUP_II_OFFSET,
    HEADQUARTERS,
    I_FINGERPRINT,
    I_HQ,
    I_NODES,
    I_SECTORS,
    IN_PLAY,
    INFANTRY,
    INFO,
    ISLAND,
    KIND_CODES,
    KIND_NAMES,
    KIND_NODES,
    LAND,
    LAUNCH,
    LOG,
    LOG_ARMY,
    LOG_FROM,
    LOG_KIND,
    LOG_LIVE,
    LOG_N,
    LOG_TO,
    LOG_WIDTH,
    MAX_COMMANDS,
    MAX_DEGREE,
    MAX_LOC,
    MAX_MISSILE_COST,
    MAX_MOVES,
    MAX_NODES,
    MAX_PLAYERS,
    MERCENARY_ARMY,
    MISSILE,
    MOVE,
    MOVE_CLASS,
    N_ARMIES,
    N_CLASSES,
    N_KINDS,
    N_RULES,
    N_SEAT_STATS,
    OCCUPIED,
    OFFICIAL,
    OUTCOMES,
    PAD,
    PAD_N,
    PAD_RESULT,
    PIECES_AT,
    PLAN_CNT,
    PLAN_NODES,
    PLAYERS,
    POWER_AT,
    POWER_UNIT,
    POWER_VALUE,
    PU,
    R_COMMANDS,
    R_FIRST_OFFICIAL,
    R_MAX_POWER_UNITS,
    R_MAX_ROUNDS,
    R_MISSILE_COST,
    REGIMENT,
    RESERVE,
    RESULTS,
    ROLES,
    ROUND,
    SEA,
    SEAT_IN,
    SECTOR,
    SHARE_LEFT,
    SHARED,
    ST_CANCELLED,
    ST_COMMANDS,
    ST_FINAL_POWER,
    ST_FLAGS_CAPTURED,
    ST_FLAGS_HELD,
    ST_MISSILES_LAUNCHED,
    ST_PENALTIES,
    ST_PIECES_CAPTURED,
    ST_PIECES_LOST,
    ST_POWER_UNITS,
    ST_ROUND_OUT,
    STANDING,
    STANDOFF,
    STATE_SIZE,
    STATS,
    SUM_WORDS,
    SUMS,
    TANK,
    TARGET,
    TERRAINS,
    TRACE_LEN,
    TRACE_WIDTH,
    UNREACHABLE,
    UPGRADE,
    WATER,
    X_MERCENARY,
    X_NOT_YOURS,
    X_TOO_MANY,
    army_pieces_at,
    army_power_at,
    army_total_pieces,
    army_total_power,
    check_command,
    count,
    has_foot,
    hq_of,
    may_command,
    n_nodes,
    next_contested,
    opponent_at,
    piece_index,
    seat_of_army,
    side_of,
    side_power_at,
    stock_left,
    units_left,
)
from simcore.registry import Arcs, Column, Game, Param, SpecError
from simcore.rng import rand_below, seed_game_stream
from strategies import power_the_game as strategy

RULES = (
    Param(
        "board",
        "path",
        "",
        "TOML board file (format in docs/games/power-the-game.md); "
        '"" = the shipped simcore/data/power_the_game_board.toml',
        shipped="power_the_game_board.toml",
    ),
    Param(
        "max_rounds",
        "int",
        24,
        "rounds standing for the two-hour limit; then the highest power value wins",
        1,
        10_000,
    ),
    Param(
        "commands", "int", 5, "commands per army and round (a 2-player pad has twice as many)", 1, 5
    ),
    Param("max_power_units", "int", 3, "most Power Units an army earns in one round", 0, 3),
    Param(
        "missile_cost",
        "int",
        100,
        "power value a Mega-Missile is made of, at least",
        1,
        MAX_MISSILE_COST,
    ),
    Param(
        "blockade",
        "bool",
        True,
        "an opponent's piece in a Headquarters stops moves from its Reserve into it",
    ),
    Param(
        "first_official",
        "choice",
        "seat0",
        "who is official in round 1: seat 0, or a random seat per game",
        choices=("seat0", "random"),
    ),
    Param(
        "component_limits",
        "bool",
        True,
        "an army never has more pieces or Power Units in play than its colour's set holds",
    ),
)
assert len(RULES) == N_RULES

SEAT_COLUMNS = (
    Column("flags_captured", "Flags this seat captured", "int8"),
    Column("pieces_captured", "opponents' pieces this seat captured in battles", "int16"),
    Column("pieces_lost", "pieces of this seat captured by opponents in battles", "int16"),
    Column("missiles_launched", "Mega-Missiles this seat launched", "int16"),
    Column("commands", "commands this seat wrote", "int16"),
    Column("cancelled", "of those, cancelled at execution", "int16"),
    Column("penalties", "rounds in which none of its commands was carried out", "int16"),
    Column("power_units", "Power Units earned by occupying enemy countries", "int16"),
    Column("final_power", "power value at the end (pieces and Power Units, all armies)", "int32"),
    Column("flags_held", "Flags held at the end (its own standing ones and captured ones)", "int8"),
    Column("round_out", "round (0-based) in which it lost its last Flag, -1 if still in", "int16"),
)
assert len(SEAT_COLUMNS) == N_SEAT_STATS

GAME_COLUMNS = (
    Column("end", "what ended the game", "int8", END_REASONS),
    Column("first_official", "seat that was official in round 1", "int8"),
)
END_COLUMN = N_STANDARD_GAME_COLUMNS
FIRST_OFFICIAL_COLUMN = N_STANDARD_GAME_COLUMNS + 1

# The standing per seat (game arcs, docs/arcs.md): recorded by ``record_standing``.
ARCS = Arcs(
    unit="round",
    standing=(
        Column(
            "power",
            "power value of all its armies: pieces anywhere, Reserve included, and Power Units "
            "(the highest wins at the time limit)",
        ),
        Column("flags", "Flags held: its own still standing and those captured (the tie-break)"),
    ),
    event=EV_STANDING,
)

GAME = Game(
    id="power-the-game",
    title="POWER: The Game",
    min_players=2,
    max_players=MAX_PLAYERS,
    rules=RULES,
    strategies=strategy.STRATEGIES,
    strategy_param_names=strategy.PARAM_NAMES,
    default_strategy="balanced",
    game_columns=GAME_COLUMNS,
    seat_columns=SEAT_COLUMNS,
    arcs=ARCS,
    module=__name__,
    doc="simultaneous written orders on a board of countries, islands and sea lanes; capture Flags",
    rulebook="power-the-game.md",
)


# --- the board file --------------------------------------------------------------------------

SHIPPED_BOARD = Path(__file__).resolve().parent / "data" / "power_the_game_board.toml"
NODE_KEYS = ("role", "terrain", "country", "adjacent")


@dataclass(frozen=True)
class Board:
    """A checked board file: node names in file order, the board table and the move tables."""

    path: str
    names: tuple[str, ...]
    table: np.ndarray
    dist: np.ndarray

    @property
    def fingerprint(self) -> int:
        return int(self.table[INFO, I_FINGERPRINT])


_NAMES_BY_FINGERPRINT: dict[int, tuple[str, ...]] = {}  # for describe_trace


def load_board(path_text: str) -> Board:
    """Read and check a board file ("" = the shipped one); every mistake is one SpecError line
    naming the file and the node."""
    path = Path(path_text) if path_text else SHIPPED_BOARD
    try:
        data = tomllib.loads(files.read_text(path, "board file"))
    except (tomllib.TOMLDecodeError, RecursionError) as error:
        raise SpecError(f"{path}: not a valid TOML board file ({error})") from None
    unknown = sorted(set(data) - {"nodes"})
    if unknown:
        raise SpecError(f"{path}: unknown top-level key {unknown[0]!r} (expected nodes)")
    nodes = data.get("nodes")
    if not isinstance(nodes, dict) or not nodes:
        raise SpecError(f"{path}: no [nodes] table")
    if len(nodes) > MAX_NODES:
        raise SpecError(f"{path}: {len(nodes)} nodes, at most {MAX_NODES} are supported")
    names = tuple(nodes)
    index = {name: i for i, name in enumerate(names)}
    table = np.full((MAX_NODES + 1, BOARD_WIDTH), -1, dtype=np.int64)
    sectors = {country: set() for country in COUNTRIES}
    for i, name in enumerate(names):
        _node_row(path, name, nodes[name], index, table[i], sectors)
    for i, name in enumerate(names):
        for k in range(table[i, B_DEGREE]):
            other = table[i, B_ADJ + k]
            if i not in table[other, B_ADJ : B_ADJ + table[other, B_DEGREE]]:
                raise SpecError(
                    f"{path}: node {name}: adjacent to {names[other]} but {names[other]} does not "
                    f"list {name} (adjacency must be symmetric)"
                )
    table[INFO, :] = 0
    table[INFO, I_NODES] = len(names)
    for c, country in enumerate(COUNTRIES):
        hqs = [
            i
            for i in range(len(names))
            if table[i, B_ROLE] == HEADQUARTERS and table[i, B_COUNTRY] == c
        ]
        if len(hqs) != 1:
            raise SpecError(
                f"{path}: country {country}: {len(hqs)} headquarters nodes, expected exactly 1"
            )
        missing = sorted(set(range(9)) - sectors[country])
        if missing:
            raise SpecError(f"{path}: country {country}: no sector {country}{missing[0]}")
        table[INFO, I_HQ + c] = hqs[0]
    table[:, FILE_WIDTH:] = 0
    digest = hashlib.blake2b(table[:, :FILE_WIDTH].tobytes(), digest_size=8).digest()
    table[INFO, I_FINGERPRINT] = int.from_bytes(digest, "little") >> 2
    dist = move_tables(table)
    derive_masks(table, dist)
    board = Board(str(path), names, table, dist)
    _NAMES_BY_FINGERPRINT[board.fingerprint] = names
    return board


def _node_row(path, name, entry, index, row, sectors) -> None:
    """Fill one node's board-table row from its TOML entry."""
    where = f"{path}: node {name}"
    if not isinstance(entry, dict):
        raise SpecError(f"{where}: not a table")
    unknown = sorted(set(entry) - set(NODE_KEYS))
    if unknown:
        raise SpecError(f"{where}: unknown field {unknown[0]!r} (expected {', '.join(NODE_KEYS)})")
    role = entry.get("role")
    if role not in ROLES:
        raise SpecError(f"{where}: field role: {role!r} is not one of {', '.join(ROLES)}")
    terrain = entry.get("terrain")
    if terrain not in TERRAINS:
        raise SpecError(f"{where}: field terrain: {terrain!r} is not one of {', '.join(TERRAINS)}")
    if (role == "sea_lane") != (terrain == "water"):
        raise SpecError(f"{where}: field terrain: a sea lane is water, and only a sea lane is")
    row[B_ROLE] = ROLES.index(role)
    row[B_TERRAIN] = TERRAINS.index(terrain)
    country = entry.get("country")
    if role in ("sector", "headquarters"):
        if country not in COUNTRIES:
            raise SpecError(
                f"{where}: field country: {country!r} is not one of {', '.join(COUNTRIES)}"
            )
        row[B_COUNTRY] = COUNTRIES.index(country)
    elif country is not None:
        raise SpecError(f"{where}: field country: only sectors and headquarters have one")
    if role == "sector":
        number = name[len(country) :]
        if not name.startswith(country) or number not in tuple("012345678"):
            raise SpecError(
                f"{where}: a sector of country {country} is named {country}0-{country}8"
            )
        if int(number) in sectors[country]:
            raise SpecError(f"{where}: sector {name} appears twice")
        sectors[country].add(int(number))
        row[B_NUMBER] = int(number)
    elif role == "sea_lane" and re.fullmatch(r"[0-9]{1,6}", name[1:]):  # S3 -> 3; ASCII only
        row[B_NUMBER] = int(name[1:])
    adjacent = entry.get("adjacent")
    if not isinstance(adjacent, list) or not adjacent:
        raise SpecError(f"{where}: field adjacent: expected a non-empty list of node names")
    if len(adjacent) > MAX_DEGREE:
        raise SpecError(
            f"{where}: field adjacent: {len(adjacent)} neighbours, at most {MAX_DEGREE}"
        )
    seen = set()
    for k, other in enumerate(adjacent):
        if other not in index or other == name or other in seen:
            problem = "itself" if other == name else "twice" if other in seen else "unknown"
            raise SpecError(f"{where}: field adjacent: {other!r} is {problem}")
        seen.add(other)
        row[B_ADJ + k] = index[other]
    row[B_DEGREE] = len(adjacent)


def move_tables(table: np.ndarray) -> np.ndarray:
    """``dist[class, a, b]``: fewest moves from node a to node b for each movement class.

    Ground pieces cross land and coastline and stop on entering an island or a Headquarters;
    planes cross land and coastline (islands included); ships cross water and coastline.
    """
    n = int(table[INFO, I_NODES])
    dist = np.full((N_CLASSES, MAX_NODES, MAX_NODES), UNREACHABLE, dtype=np.int64)
    for cls in (GROUND, AIR, SEA):
        barred = LAND if cls == SEA else WATER
        for start in range(n):
            dist[cls, start, start] = 0
            queue = deque([start])
            while queue:
                node = queue.popleft()
                stops = table[node, B_ROLE] in (ISLAND, HEADQUARTERS)
                if cls == GROUND and node != start and stops:
                    continue
                for k in range(table[node, B_DEGREE]):
                    other = table[node, B_ADJ + k]
                    if table[other, B_TERRAIN] != barred and dist[cls, start, other] == UNREACHABLE:
                        dist[cls, start, other] = dist[cls, start, node] + 1
                        queue.append(other)
    return dist


def derive_masks(table: np.ndarray, dist: np.ndarray) -> None:
    """Fill the board table's derived columns: each node's reach per moving kind both ways and
    its rings of nodes by planes' moves to it (from the move tables), and each country's
    sectors, as bitmasks over the nodes."""
    n = int(table[INFO, I_NODES])
    for node in range(n):
        for kind in range(MISSILE):
            reached = dist[MOVE_CLASS[kind], node, :n] <= MAX_MOVES[kind]
            table[node, B_REACH + kind] = bit_mask(np.flatnonzero(reached))
            reached_by = dist[MOVE_CLASS[kind], :n, node] <= MAX_MOVES[kind]
            table[node, B_REACHED_BY + kind] = bit_mask(np.flatnonzero(reached_by))
        for d in range(MAX_NODES):
            table[node, B_AIR_RING + d] = bit_mask(np.flatnonzero(dist[AIR, :n, node] == d))
    for c in range(N_ARMIES):
        sectors = (table[:n, B_ROLE] == SECTOR) & (table[:n, B_COUNTRY] == c)
        table[INFO, I_SECTORS + c] = bit_mask(np.flatnonzero(sectors))


def bit_mask(nodes) -> int:
    """The int64 bitmask of ``nodes`` (bit 63 is the sign bit)."""
    bits = sum(1 << int(node) for node in nodes)
    return bits - (1 << 64) if bits >= 1 << 63 else bits


def prepare(rules: dict, players: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(encoded rules, board table, move tables): the board file is read here, never in a kernel."""
    board = load_board(rules["board"])
    encoded = np.array(
        [0.0 if p.kind == "path" else p.encode(rules[p.name]) for p in RULES], dtype=np.float64
    )
    return encoded, board.table, board.dist


# --- pieces ----------------------------------------------------------------------------------

# The order captured pieces change colour in: Group II pieces first (a Regiment needs three of the
# set's Infantry at once), largest first; with the rule component_limits this is who gets what is
# left of a set.
CAPTURE_ORDER = np.append(BY_VALUE, MISSILE)
# Every function takes the game as (st, rules, board, dist, trace) or a part of it: the state,
# the encoded rules, the board table, the move tables and the trace buffer.


@njit(cache=True, _nrt=False)
def stat_add(st, seat, which, amount):
    if seat >= 0:
        st[STATS + N_SEAT_STATS * seat + which] += amount


# Hot, and LLVM stops inlining it by itself once its callers are inlined into bigger functions.
@njit(cache=True, _nrt=False, inline="always")
def change(st, army, loc, kind, n):
    """The one way a count of pieces changes (it keeps IN_PLAY, POWER_AT, PIECES_AT, OCCUPIED,
    ARMY_NODES and KIND_NODES in step)."""
    i = piece_index(army, loc, kind)
    st[CNT + i] += n
    st[IN_PLAY + army * N_KINDS + kind] += n
    st[POWER_AT + army * MAX_LOC + loc] += n * POWER_VALUE[kind]
    st[PIECES_AT + army * MAX_LOC + loc] += n
    if st[PIECES_AT + army * MAX_LOC + loc] > 0:
        st[OCCUPIED + loc] |= 1 << army
    else:
        st[OCCUPIED + loc] &= ~(1 << army)
    if loc >= RESERVE:
        return
    node = np.int64(1) << loc
    if (st[OCCUPIED + loc] >> army) & 1:
        st[ARMY_NODES + army] |= node
    else:
        st[ARMY_NODES + army] &= ~node
    if st[CNT + i] > 0:
        st[KIND_NODES + army * N_KINDS + kind] |= node
    else:
        st[KIND_NODES + army * N_KINDS + kind] &= ~node


@njit(cache=True, _nrt=False, inline="always")  # hot, small
def add_pieces(st, army, loc, kind, n, fixed):
    change(st, army, loc, kind, n)
    if fixed:
        st[FIXED + piece_index(army, loc, kind)] += n


@njit(cache=True, _nrt=False)
def receive(st, rules, army, kind, n):
    """``n`` pieces of ``kind`` come to the army's Reserve (captured, taken over, or broken down
    from a larger piece): as many as its set still has (the rule component_limits; the rest
    leave play). Returns how many it receives."""
    kept = min(n, stock_left(st, rules, army, kind))
    if kept > 0:
        add_pieces(st, army, RESERVE + army, kind, kept, False)
    return kept


@njit(cache=True, _nrt=False)
def receive_units(st, rules, army, n):
    """``n`` Power Units come to the army's Reserve, as many as its set still has."""
    kept = min(n, units_left(st, rules, army))
    st[PU + army] += kept
    return kept


@njit(cache=True, _nrt=False)
def take_pieces(st, army, loc, kind, n):
    """Remove ``n`` like pieces, those that moved in this round first (latest move first), then
    those made here this round; returns how many of them had moved in."""
    # One backward pass over the round's log: each piece taken is the latest live move in left,
    # and the one after it can only be earlier.
    k = st[LOG_N] - 1
    moved_in = 0
    while moved_in < n and k >= 0:
        e = LOG + LOG_WIDTH * k
        if (
            st[e + LOG_LIVE] == 1
            and st[e + LOG_ARMY] == army
            and st[e + LOG_KIND] == kind
            and st[e + LOG_TO] == loc
        ):
            st[e + LOG_LIVE] = 0
            moved_in += 1
        k -= 1
    i = piece_index(army, loc, kind)
    st[FIXED + i] -= min(n, st[FIXED + i])
    change(st, army, loc, kind, -n)
    return moved_in


@njit(cache=True, _nrt=False)
def log_entry(st, army, kind, origin, target, live):
    e = LOG + LOG_WIDTH * st[LOG_N]
    st[e + LOG_ARMY] = army
    st[e + LOG_KIND] = kind
    st[e + LOG_FROM] = origin
    st[e + LOG_TO] = target
    st[e + LOG_LIVE] = live
    st[LOG_N] += 1


@njit(cache=True, _nrt=False, inline="always")  # the commonest command
def move_piece(st, army, kind, origin, target):
    """A piece that may still move goes; it may not move again this round."""
    change(st, army, origin, kind, -1)
    add_pieces(st, army, target, kind, 1, True)
    log_entry(st, army, kind, origin, target, 1)


@njit(cache=True, _nrt=False, inline="always")  # tiny, in build_missile's loops
def sum_word(level, total):
    return SUMS + level * SUM_WORDS + total // 64


@njit(cache=True, _nrt=False, inline="always")
def has_sum(st, level, total):
    return (st[sum_word(level, total)] >> (total % 64)) & 1 == 1


@njit(cache=True, _nrt=False)
def build_missile(st, rules, army, loc, trace):
    """Make a Mega-Missile at ``loc`` from the material that wastes the least power value (the
    rulebook lets the player choose; "the player simply loses the extra power"): the least total
    of at least the cost; of the materials with that total, the one with the most Power Units
    (only in the army's own Reserve), then the most of the largest pieces, then the next largest,
    and so on. Returns the power value used.

    The piece totals reachable with the kinds BY_VALUE[j:] are bitsets (SUMS, level j), built
    from the smallest kind up; the least piece total p with p + Power Units >= cost is below
    cost + 50 (a set of pieces 50 or more above it would stay enough without one of its pieces),
    which bounds the bitsets; then each kind, largest first, takes as many pieces as leave a
    total the smaller kinds can still make exactly."""
    need = np.int64(rules[R_MISSILE_COST])
    units = st[PU + army] if loc == RESERVE + army else 0
    top = need + POWER_VALUE[CRUISER]  # the largest total that matters
    levels = len(BY_VALUE)
    for level in range(levels + 1):
        for w in range(top // 64 + 1):
            st[SUMS + level * SUM_WORDS + w] = 0
    st[sum_word(levels, 0)] = 1  # no pieces: total 0
    for level in range(levels - 1, -1, -1):
        kind = BY_VALUE[level]
        value = POWER_VALUE[kind]
        pieces = count(st, army, loc, kind)
        for total in range(top + 1):
            for n in range(min(pieces, total // value) + 1):
                if has_sum(st, level + 1, total - n * value):
                    st[sum_word(level, total)] |= np.int64(1) << (total % 64)
                    break
    pieces_total = max(need - units, 0)
    while not has_sum(st, 0, pieces_total):
        pieces_total += 1  # check_command made sure the material is worth the cost
    used = max(need - pieces_total, 0)
    if used > 0:
        st[PU + army] -= used
        record_event(trace, st, TRACE_LEN, EV_USED, army, loc, POWER_UNIT, used)
    left = pieces_total
    for level in range(levels):
        kind = BY_VALUE[level]
        value = POWER_VALUE[kind]
        n = min(count(st, army, loc, kind), left // value)
        while not has_sum(st, level + 1, left - n * value):
            n -= 1
        if n > 0:
            take_pieces(st, army, loc, kind, n)
            left -= n * value
            record_event(trace, st, TRACE_LEN, EV_USED, army, loc, kind, n)
    add_pieces(st, army, loc, MISSILE, 1, False)  # launched, never moved
    return used + pieces_total


@njit(cache=True, _nrt=False)
def strike(st, target, trace):
    """A Mega-Missile lands: every piece at ``target`` is destroyed (a Flag stays), and in a
    Reserve its Power Units too."""
    for army in range(N_ARMIES):
        for kind in range(N_KINDS):
            n = count(st, army, target, kind)
            if n > 0:
                take_pieces(st, army, target, kind, n)
                record_event(trace, st, TRACE_LEN, EV_DESTROYED, army, target, kind, n)
    if target >= RESERVE and st[PU + target - RESERVE] > 0:
        army = target - RESERVE
        record_event(trace, st, TRACE_LEN, EV_DESTROYED, army, target, POWER_UNIT, st[PU + army])
        st[PU + army] = 0


@njit(cache=True, _nrt=False, inline="always")  # one caller: execute_pad
def apply_command(st, rules, army, op, kind, origin, target, trace):
    """Carry out a command ``check_command`` found legal; returns EV_EXEC's detail when it is
    only known afterwards (the consumed pieces that had moved in, the power value used)."""
    if op == MOVE:
        move_piece(st, army, kind, origin, target)
    elif op == UPGRADE:
        moved_in = take_pieces(st, army, origin, kind, 3)
        if origin < RESERVE:  # made on the board: it may not move this round
            add_pieces(st, army, origin, kind + GROUP_II_OFFSET, 1, True)
            log_entry(st, army, kind + GROUP_II_OFFSET, origin, origin, 0)
        else:
            add_pieces(st, army, origin, kind + GROUP_II_OFFSET, 1, False)
        return moved_in
    elif op == BUY:
        st[PU + army] -= POWER_VALUE[kind]
        add_pieces(st, army, RESERVE + army, kind, 1, False)
    elif op == BUILD:
        return build_missile(st, rules, army, origin, trace)
    elif op == LAUNCH:
        take_pieces(st, army, origin, MISSILE, 1)
        strike(st, target, trace)
    return -1


# --- a round ---------------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def pad_at(seat, i):
    return PAD + (seat * MAX_COMMANDS + i) * CMD_WIDTH


@njit(cache=True, _nrt=False)
def next_seat(st, seat):
    """The seat to the left (clockwise), in or out."""
    return seat + 1 if seat + 1 < st[PLAYERS] else 0


@njit(cache=True, _nrt=False)
def seats_in(st):
    n = 0
    for seat in range(st[PLAYERS]):
        n += st[SEAT_IN + seat]
    return n


@njit(cache=True, _nrt=False)
def armies_of(players, seat):
    """(first army, number of armies) a seat owns."""
    if players == 2:
        return 2 * seat, 2
    return seat, 1


@njit(cache=True, _nrt=False)
def pad_over_limit(st, rules, seat, i):
    """Command i of the seat's pad is beyond what its armies may give this round: the pad holds
    ``commands`` per own army, and in the 2-player game each army gets ``commands`` of them."""
    per_army = np.int64(rules[R_COMMANDS])
    first, n_own = armies_of(st[PLAYERS], seat)
    if i >= per_army * n_own:
        return True
    if st[PLAYERS] != 2:
        return False
    army = st[pad_at(seat, i) + CMD_ARMY]
    same = 0
    for k in range(i):
        same += st[pad_at(seat, k) + CMD_ARMY] == army
    return same >= per_army


@njit(cache=True, _nrt=False)
def is_mercenary_move(st, c, kind, origin):
    return (
        st[c + CMD_ARMY] == MERCENARY_ARMY
        and st[c + CMD_OP] == MOVE
        and st[c + CMD_KIND] == kind
        and st[c + CMD_FROM] == origin
    )


@njit(cache=True, _nrt=False)
def mercenary_conflicts(st):
    """3-player game: mercenary moves several seats ordered for the same pieces (same kind and
    sector) beyond how many are there are cancelled, unless all go to the same place: then they
    are SHARED, with SHARE_LEFT the pieces standing there (see ``execute_pad``)."""
    for seat in range(st[PLAYERS]):  # a seat that is out wrote nothing
        for i in range(st[PAD_N + seat]):
            c = pad_at(seat, i)
            kind = st[c + CMD_KIND]
            origin = st[c + CMD_FROM]
            if not is_mercenary_move(st, c, kind, origin) or not (
                0 <= kind < MISSILE and 0 <= origin < MAX_LOC
            ):
                continue
            seats_mask = 0
            orders = 0
            same_target = True
            for other in range(st[PLAYERS]):
                for i2 in range(st[PAD_N + other]):
                    c2 = pad_at(other, i2)
                    if is_mercenary_move(st, c2, kind, origin):
                        seats_mask |= 1 << other
                        orders += 1
                        same_target = same_target and st[c2 + CMD_TO] == st[c + CMD_TO]
            pieces = count(st, MERCENARY_ARMY, origin, kind)
            if seats_mask & (seats_mask - 1) == 0 or pieces == 0 or orders <= pieces:
                continue
            slot = seat * MAX_COMMANDS + i
            if same_target:
                st[PAD_RESULT + slot] = SHARED
                st[SHARE_LEFT + slot] = pieces
            else:
                st[PAD_RESULT + slot] = X_MERCENARY


@njit(cache=True, _nrt=False)
def shared_piece_moved(st, kind, origin):
    """One of the pieces a SHARED group of orders is about moved: one fewer left for them."""
    for seat in range(st[PLAYERS]):
        for i in range(st[PAD_N + seat]):
            slot = seat * MAX_COMMANDS + i
            if st[PAD_RESULT + slot] == SHARED and is_mercenary_move(
                st, pad_at(seat, i), kind, origin
            ):
                st[SHARE_LEFT + slot] -= 1


@njit(cache=True, _nrt=False, inline="always")  # one caller: implement
def execute_pad(seat, st, rules, board, dist, trace):
    """Read the seat's pad top to bottom, counting the commands carried out in CARRIED. A SHARED
    order is judged like any other while pieces of its group are left to move (so it is
    cancelled when illegal, as the rulebook's "Illegal commands are cancelled"); once they have
    all moved there, it is carried out with them."""
    for i in range(st[PAD_N + seat]):
        c = pad_at(seat, i)
        army = st[c + CMD_ARMY]
        op = st[c + CMD_OP]
        kind = st[c + CMD_KIND]
        origin = st[c + CMD_FROM]
        target = st[c + CMD_TO]
        detail = 0
        slot = seat * MAX_COMMANDS + i
        verdict = st[PAD_RESULT + slot]
        result = verdict
        if not (0 <= army < N_ARMIES) or not may_command(st, seat, army):
            result = X_NOT_YOURS
        elif pad_over_limit(st, rules, seat, i):
            result = X_TOO_MANY
        elif verdict == EXECUTED or (verdict == SHARED and st[SHARE_LEFT + slot] > 0):
            result, detail = check_command(st, rules, board, dist, army, op, kind, origin, target)
            if result == EXECUTED and verdict == SHARED:
                shared_piece_moved(st, kind, origin)
        if result != EXECUTED:
            record_event(trace, st, TRACE_LEN, EV_EXEC, seat, i, result, detail)
            if result == SHARED:
                st[CARRIED + seat] += 1
            else:
                stat_add(st, seat, ST_CANCELLED, 1)
            continue
        st[CARRIED + seat] += 1
        if op == BUILD or op == UPGRADE:
            # Their detail is only known once done; EV_EXEC still comes before EV_USED.
            row = st[TRACE_LEN]
            record_event(trace, st, TRACE_LEN, EV_EXEC, seat, i, result, 0)
            detail = apply_command(st, rules, army, op, kind, origin, target, trace)
            if row < trace.shape[0]:
                trace[row, 4] = detail
        else:
            record_event(trace, st, TRACE_LEN, EV_EXEC, seat, i, result, detail)
            apply_command(st, rules, army, op, kind, origin, target, trace)
            if op == LAUNCH:
                stat_add(st, seat, ST_MISSILES_LAUNCHED, 1)


@njit(cache=True, _nrt=False)
def penalty(seat, st, rules, rng, trace):
    """None of the seat's commands was carried out: one of its armies loses a Power Unit, or its
    smallest piece is broken down into Power Units (a Group II piece into two Group I pieces and
    the third's Power Units) and one of those is forfeited. Which piece is the player's choice:
    one in a Reserve if there is one (it keeps its pieces on the board), else a random one of the
    smallest on the board."""
    stat_add(st, seat, ST_PENALTIES, 1)
    first, n_own = armies_of(st[PLAYERS], seat)
    for army in range(first, first + n_own):
        if st[STANDING + army] == 1 and st[PU + army] > 0:
            st[PU + army] -= 1
            record_event(trace, st, TRACE_LEN, EV_PENALTY, seat, army, -1, -1, 0, -1, 0)
            return
    lowest, in_reserve = -1, False
    for army in range(first, first + n_own):
        if st[STANDING + army] == 0:
            continue
        for step in range(MAX_NODES + 1):
            loc = RESERVE + army if step == 0 else step - 1
            for kind in range(MISSILE):  # power values differ kind by kind
                if count(st, army, loc, kind) == 0:
                    continue
                if lowest < 0 or POWER_VALUE[kind] < POWER_VALUE[lowest]:
                    lowest, in_reserve = kind, step == 0
                elif kind == lowest and step == 0:
                    in_reserve = True
    best_army, best_loc, best_kind = -1, -1, -1
    seen = 0
    for army in range(first, first + n_own):
        if st[STANDING + army] == 0:
            continue
        for step in range(MAX_NODES + 1):
            loc = RESERVE + army if step == 0 else step - 1
            if (step == 0) == in_reserve and lowest >= 0 and count(st, army, loc, lowest) > 0:
                seen += 1
                if seen == 1 or rand_below(rng, seen) == 0:
                    best_army, best_loc, best_kind = army, loc, lowest
    if best_kind < 0:
        record_event(trace, st, TRACE_LEN, EV_PENALTY, seat, -1, -1, -1, 0, -1, 0)
        return
    take_pieces(st, best_army, best_loc, best_kind, 1)
    smaller, added = -1, 0
    if best_kind >= GROUP_II_OFFSET:
        smaller = best_kind - GROUP_II_OFFSET
        added = receive(st, rules, best_army, smaller, 2)
        units = receive_units(st, rules, best_army, POWER_VALUE[smaller] - 1)
    else:
        units = receive_units(st, rules, best_army, POWER_VALUE[best_kind] - 1)
    record_event(
        trace, st, TRACE_LEN, EV_PENALTY, seat, best_army, best_kind, best_loc, units, smaller,
        added,
    )  # fmt: skip


@njit(cache=True, _nrt=False)
def record_conflict(st, loc, outcome, side, trace):
    if trace.shape[0] == 0:
        return
    record_event(
        trace, st, TRACE_LEN, EV_CONFLICT, loc, side_power_at(st, 0, loc),
        side_power_at(st, 1, loc), side_power_at(st, 2, loc), side_power_at(st, 3, loc), outcome,
        side,
    )  # fmt: skip


@njit(cache=True, _nrt=False)
def top_sides(st, loc):
    """(sides present, highest power, bitmask of the sides with it) at ``loc``."""
    present = 0
    best = -1
    mask = 0
    for side in range(N_ARMIES):
        power = side_power_at(st, side, loc)
        if power < 0:
            continue
        present += 1
        if power > best:
            best = power
            mask = 1 << side
        elif power == best:
            mask |= 1 << side
    return present, best, mask


@njit(cache=True, _nrt=False)
def bounce_tie(st, loc, trace):
    """Where the highest totals at ``loc`` tie, the pieces of those sides that moved in this round
    retreat to where they came from; returns whether any did."""
    present, best, mask = top_sides(st, loc)
    if present < 2 or mask & (mask - 1) == 0:
        return False
    bouncing = False
    for k in range(st[LOG_N]):
        e = LOG + LOG_WIDTH * k
        if (
            st[e + LOG_LIVE] == 1
            and st[e + LOG_TO] == loc
            and (mask >> side_of(st, st[e + LOG_ARMY])) & 1
        ):
            bouncing = True
            break
    if not bouncing:
        return False
    record_conflict(st, loc, BOUNCE, mask, trace)
    for k in range(st[LOG_N]):
        e = LOG + LOG_WIDTH * k
        army = st[e + LOG_ARMY]
        if st[e + LOG_LIVE] == 1 and st[e + LOG_TO] == loc and (mask >> side_of(st, army)) & 1:
            kind = st[e + LOG_KIND]
            origin = st[e + LOG_FROM]
            change(st, army, loc, kind, -1)
            st[FIXED + piece_index(army, loc, kind)] -= 1
            add_pieces(st, army, origin, kind, 1, True)
            st[e + LOG_TO] = origin
            st[e + LOG_LIVE] = 0
            record_event(trace, st, TRACE_LEN, EV_BOUNCE, army, kind, loc, origin)
    return True


@njit(cache=True, _nrt=False)
def resolve_ties(st, trace):
    """Ties first: contested sectors in node order, each tie bouncing once; the scan repeats
    until no tie can bounce. (A bounce can contest a later node: the next one is looked up
    afresh.)"""
    changed = True
    while changed:
        changed = False
        loc = next_contested(st, -1)
        while loc >= 0:
            if bounce_tie(st, loc, trace):
                changed = True
            loc = next_contested(st, loc)


@njit(cache=True, _nrt=False)
def strongest_army(st, side, loc, with_foot):
    """The army of ``side`` with the most power at ``loc`` (the lower army on a tie), with
    ``with_foot`` among those with an Infantry or a Regiment there (a Flag falls to one of
    those): it receives what the side captures there."""
    best = -1
    for army in range(N_ARMIES):
        if (
            with_foot
            and count(st, army, loc, INFANTRY) == 0
            and count(st, army, loc, REGIMENT) == 0
        ):
            continue
        if side_of(st, army) == side and army_pieces_at(st, army, loc) > 0:
            if best < 0 or army_power_at(st, army, loc) > army_power_at(st, best, loc):
                best = army
    return best


@njit(cache=True, _nrt=False)
def resolve_battles(st, rules, trace):
    """Then battles: the highest total captures every opposing piece into its Reserve (as many
    as its set has, the Group II pieces first); tied highest totals whose pieces were all
    already there stand off."""
    players = st[PLAYERS]
    loc = -1
    while True:
        loc = next_contested(st, loc)
        if loc < 0:
            break
        present, best, mask = top_sides(st, loc)
        if present < 2:
            continue
        if mask & (mask - 1) != 0:
            record_conflict(st, loc, STANDOFF, mask, trace)
            continue
        winner_side = 0
        while (mask >> winner_side) & 1 == 0:
            winner_side += 1
        record_conflict(st, loc, CAPTURE, winner_side, trace)
        victor = strongest_army(st, winner_side, loc, False)
        for kind in CAPTURE_ORDER:
            for army in range(N_ARMIES):
                n = count(st, army, loc, kind)
                if side_of(st, army) == winner_side or n == 0:
                    continue
                take_pieces(st, army, loc, kind, n)
                kept = receive(st, rules, victor, kind, n)
                record_event(trace, st, TRACE_LEN, EV_CAPTURE, victor, army, loc, kind, n, kept)
                stat_add(st, seat_of_army(players, victor), ST_PIECES_CAPTURED, n)
                stat_add(st, seat_of_army(players, army), ST_PIECES_LOST, n)


@njit(cache=True, _nrt=False)
def collect_power_units(st, rules, board, trace):
    """One Power Unit per enemy country with a standing Flag in which the army has a piece (its
    sectors or Headquarters; not islands or sea lanes), at most ``max_power_units``."""
    cap = np.int64(rules[R_MAX_POWER_UNITS])
    for army in range(N_ARMIES):
        if st[STANDING + army] == 0:
            continue
        mask = 0
        for country in range(N_ARMIES):
            territory = board[INFO, I_SECTORS + country] | (np.int64(1) << hq_of(board, country))
            if (
                st[ARMY_NODES + army] & territory != 0
                and st[STANDING + country] == 1
                and side_of(st, country) != side_of(st, army)
            ):
                mask |= 1 << country
        gained = 0
        for country in range(N_ARMIES):
            gained += (mask >> country) & 1
        gained = min(gained, cap, units_left(st, rules, army))
        if gained > 0:
            st[PU + army] += gained
            stat_add(st, seat_of_army(st[PLAYERS], army), ST_POWER_UNITS, gained)
            record_event(trace, st, TRACE_LEN, EV_POWER_UNITS, army, gained, mask)


@njit(cache=True, _nrt=False)
def take_over(st, rules, captor, captured, trace):
    """The captor takes every piece and Power Unit of the captured army into its Reserve (as
    many as its set has, the Group II pieces first)."""
    for kind in CAPTURE_ORDER:
        for loc in range(MAX_LOC):
            n = count(st, captured, loc, kind)
            if n > 0:
                take_pieces(st, captured, loc, kind, n)
                kept = receive(st, rules, captor, kind, n)
                record_event(trace, st, TRACE_LEN, EV_TAKE, captor, captured, loc, kind, n, kept)
    units = st[PU + captured]
    if units > 0:
        st[PU + captured] = 0
        kept = receive_units(st, rules, captor, units)
        record_event(
            trace, st, TRACE_LEN, EV_TAKE, captor, captured, RESERVE + captured, POWER_UNIT,
            units, kept,
        )  # fmt: skip


@njit(cache=True, _nrt=False)
def capture_flags(st, rules, board, trace):
    """Last: a Flag falls to the side with an Infantry or a Regiment in its Headquarters and more
    power there than the defender (the strongest such side; none if they tie). The captor takes
    the army's forces, Power Units and Flags; a seat without a standing Flag is out."""
    players = st[PLAYERS]
    first, _ = armies_of(players, st[OFFICIAL])
    for j in range(N_ARMIES):
        army = (first + j) % N_ARMIES
        if st[STANDING + army] == 0:
            continue
        hq = hq_of(board, army)
        if not opponent_at(st, army, hq):
            continue  # nobody there to take it (the common case)
        defender = side_of(st, army)
        defence = max(side_power_at(st, defender, hq), 0)
        best_side, best, tied = -1, -1, False
        for side in range(N_ARMIES):
            power = side_power_at(st, side, hq)
            if side == defender or power <= defence or not has_foot(st, side, hq):
                continue
            if power > best:
                best_side, best, tied = side, power, False
            elif power == best:
                tied = True
        if best_side < 0 or tied:
            continue
        captor = strongest_army(st, best_side, hq, True)
        captor_seat = seat_of_army(players, captor)
        record_event(trace, st, TRACE_LEN, EV_FLAG, captor, army, best, defence, captor_seat)
        take_over(st, rules, captor, army, trace)
        st[FLAGS + captor] += st[FLAGS + army]
        st[FLAGS + army] = 0
        st[STANDING + army] = 0
        stat_add(st, captor_seat, ST_FLAGS_CAPTURED, 1)
        seat = seat_of_army(players, army)
        if seat < 0:
            continue
        own, n_own = armies_of(players, seat)
        standing = 0
        for a in range(own, own + n_own):
            standing += st[STANDING + a]
        if standing == 0:
            st[SEAT_IN + seat] = 0
            st[STATS + N_SEAT_STATS * seat + ST_ROUND_OUT] = st[ROUND]
            record_event(trace, st, TRACE_LEN, EV_OUT, seat, st[ROUND])


@njit(cache=True, _nrt=False)
def snapshot(st, board, trace):
    for army in range(N_ARMIES):
        for loc in range(MAX_LOC):
            for kind in range(N_KINDS):
                n = count(st, army, loc, kind)
                if n > 0:
                    record_event(trace, st, TRACE_LEN, EV_PIECES, army, loc, kind, n)
    for army in range(N_ARMIES):
        record_event(
            trace, st, TRACE_LEN, EV_ARMY_STATE, army, st[PU + army], st[STANDING + army],
            st[FLAGS + army], army_total_power(st, army), army_total_pieces(st, army),
        )  # fmt: skip


@njit(cache=True, _nrt=False)
def write_pads(st, rules, board, dist, sids, prm, rng, trace):
    """Planning: every seat still in writes its pad from the same state (surveyed once)."""
    strategy.survey(st, board)
    for seat in range(st[PLAYERS]):
        st[PAD_N + seat] = 0
        if st[SEAT_IN + seat] == 1:
            strategy.write_pad(sids[seat], prm[seat], seat, st, rules, board, dist, rng)
            stat_add(st, seat, ST_COMMANDS, st[PAD_N + seat])
            for i in range(st[PAD_N + seat]):
                c = pad_at(seat, i)
                record_event(
                    trace, st, TRACE_LEN, EV_COMMAND, seat, i, st[c + CMD_ARMY], st[c + CMD_OP],
                    st[c + CMD_KIND], st[c + CMD_FROM], st[c + CMD_TO],
                )  # fmt: skip


@njit(cache=True)
def determinize(st, rules, board, seat, rng):
    """Redraw what ``seat`` cannot see while it writes its pad, in place: the other seats' pads
    of this round (orders are written simultaneously and shown only once all are down) and the
    other seats' private memory, each of their armies' target (TARGET: a random standing enemy
    army, or none). A redrawn pad is a random pad, as the ``random`` strategy writes one: any
    orders are consistent with what the seat has seen. Everything else is on the table for every
    player (pieces, Reserves, Power Units, Flags, the round, the official) and stays.

    Keeps the planning scratch consistent (a pad is written through the strategies' own
    planner, which lists the entries it touches), so a pad written afterwards starts
    clean. Draws from ``rng`` only, never from the game's stream."""
    random_row = np.zeros(len(strategy.PARAM_NAMES))
    random_row[strategy.P_MOVE] = strategy.RANDOM_P_MOVE
    for other in range(st[PLAYERS]):
        if other == seat or st[SEAT_IN + other] == 0:
            continue
        strategy.start_pad(st, other)
        strategy.plan_random(random_row, other, st, rules, board, rng)
        first, n_own = armies_of(st[PLAYERS], other)
        for army in range(first, first + n_own):
            choices = 1
            for enemy in range(N_ARMIES):
                choices += strategy.enemy_army(st, army, enemy)
            pick = rand_below(rng, choices)
            st[TARGET + army] = 0
            for enemy in range(N_ARMIES):
                if pick > 0 and strategy.enemy_army(st, army, enemy):
                    pick -= 1
                    if pick == 0:
                        st[TARGET + army] = enemy + 1


@njit(cache=True, _nrt=False)
def implement(st, rules, board, dist, rng, trace):
    """Implementing the pads: official first, then clockwise; then the penalties."""
    for k in range(st[LOG_N]):  # last round's immovable pieces are all at its log's places
        e = LOG + LOG_WIDTH * k
        army = st[e + LOG_ARMY]
        kind = st[e + LOG_KIND]
        st[FIXED + piece_index(army, st[e + LOG_FROM], kind)] = 0
        st[FIXED + piece_index(army, st[e + LOG_TO], kind)] = 0
    st[LOG_N] = 0
    st[CARRIED : CARRIED + MAX_PLAYERS] = 0
    st[PAD_RESULT : PAD_RESULT + MAX_PLAYERS * MAX_COMMANDS] = EXECUTED
    if st[PLAYERS] == 3:
        mercenary_conflicts(st)
    seat = st[OFFICIAL]
    for _ in range(st[PLAYERS]):
        if st[SEAT_IN + seat] == 1:
            execute_pad(seat, st, rules, board, dist, trace)
        seat = next_seat(st, seat)
    for _ in range(st[PLAYERS]):  # back at the official
        if st[SEAT_IN + seat] == 1 and st[CARRIED + seat] == 0:
            penalty(seat, st, rules, rng, trace)
        seat = next_seat(st, seat)


@njit(cache=True, _nrt=False)
def resolve(st, rules, board, trace):
    """After the commands: ties, battles, Power Units, Flag captures."""
    resolve_ties(st, trace)
    resolve_battles(st, rules, trace)
    collect_power_units(st, rules, board, trace)
    capture_flags(st, rules, board, trace)


@njit(cache=True, _nrt=False)
def play_round(st, rules, board, dist, sids, prm, rng, trace):
    record_event(trace, st, TRACE_LEN, EV_ROUND, st[ROUND], st[OFFICIAL], seats_in(st))
    if trace.shape[0] > 0:
        snapshot(st, board, trace)
    write_pads(st, rules, board, dist, sids, prm, rng, trace)
    implement(st, rules, board, dist, rng, trace)
    resolve(st, rules, board, trace)


# --- a game ----------------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def setup(players, st, rules, board, rng, trace):
    """Every army in its Headquarters with its Flag and two of each Group I piece."""
    # All but the pad's planning picture, much of the state: it is zero but for the entries its
    # list (PLAN_TOUCHED) names, and the next pad's start_pad clears those (the list is kept).
    st[:PLAN_CNT] = 0
    st[PLAN_NODES:] = 0
    st[PLAYERS] = players
    if rules[R_FIRST_OFFICIAL] == FIRST_OFFICIAL_RANDOM:
        st[OFFICIAL] = rand_below(rng, players)
    st[FIRST_OFFICIAL] = st[OFFICIAL]
    record_event(
        trace, st, TRACE_LEN, EV_SETUP, players, n_nodes(board), board[INFO, I_FINGERPRINT],
        st[OFFICIAL], np.int64(rules[R_MAX_ROUNDS]), np.int64(rules[R_COMMANDS]),
        np.int64(rules[R_MAX_POWER_UNITS]),
    )  # fmt: skip
    for seat in range(players):
        st[SEAT_IN + seat] = 1
        st[STATS + N_SEAT_STATS * seat + ST_ROUND_OUT] = -1
    for army in range(N_ARMIES):
        st[STANDING + army] = 1
        st[FLAGS + army] = 1
        for kind in (INFANTRY, TANK, FIGHTER, DESTROYER):
            add_pieces(st, army, hq_of(board, army), kind, 2, False)
        record_event(
            trace, st, TRACE_LEN, EV_ARMY, army, seat_of_army(players, army),
            side_of(st, army), hq_of(board, army),
        )  # fmt: skip


@njit(cache=True, _nrt=False)
def seat_power(st, seat):
    first, n_own = armies_of(st[PLAYERS], seat)
    power = 0
    flags = 0
    for army in range(first, first + n_own):
        power += army_total_power(st, army)
        flags += st[FLAGS + army]
    return power, flags


@njit(cache=True, _nrt=False)
def winner_at_time(st):
    """At the time limit: the highest power value, then the most Flags; else no winner."""
    winner, best_power, best_flags = -1, -1, -1
    for seat in range(st[PLAYERS]):
        if st[SEAT_IN + seat] == 0:
            continue
        power, flags = seat_power(st, seat)
        if power > best_power or (power == best_power and flags > best_flags):
            winner, best_power, best_flags = seat, power, flags
        elif power == best_power and flags == best_flags:
            winner = -1
    return winner


@njit(cache=True, _nrt=False)
def record_standing(players, st, trace):
    """After a round: one standing row per seat when tracing; nothing otherwise."""
    if trace.shape[0] == 0:
        return
    for seat in range(players):
        power, flags = seat_power(st, seat)
        record_event(trace, st, TRACE_LEN, EV_STANDING, st[ROUND], seat, power, flags)


@njit(cache=True, _nrt=False)
def play_game(players, st, rules, board, dist, sids, prm, rng, trace):
    """Set up and play one game: (winner or -1, rounds, end reason)."""
    setup(players, st, rules, board, rng, trace)
    max_rounds = np.int64(rules[R_MAX_ROUNDS])
    while st[ROUND] < max_rounds and seats_in(st) > 1:
        play_round(st, rules, board, dist, sids, prm, rng, trace)
        st[ROUND] += 1
        seat = st[OFFICIAL]
        for _ in range(players):
            seat = (seat + 1) % players
            if st[SEAT_IN + seat] == 1:
                break
        st[OFFICIAL] = seat
        record_standing(players, st, trace)
    if seats_in(st) <= 1:
        reason = END_FLAGS
        winner = -1
        for seat in range(players):
            if st[SEAT_IN + seat] == 1:
                winner = seat
    else:
        reason = END_TIME_LIMIT
        winner = winner_at_time(st)
    if trace.shape[0] > 0:
        snapshot(st, board, trace)
    for seat in range(players):
        power, flags = seat_power(st, seat)
        st[STATS + N_SEAT_STATS * seat + ST_FINAL_POWER] = power
        st[STATS + N_SEAT_STATS * seat + ST_FLAGS_HELD] = flags
        record_event(trace, st, TRACE_LEN, EV_SCORE, seat, power, flags, st[SEAT_IN + seat])
    record_event(trace, st, TRACE_LEN, EV_END, winner, st[ROUND], reason)
    return winner, st[ROUND], reason


@njit(cache=True, _nrt=False)
def play_indexed(
    players, lineup_ids, lineup_params, seed, game_index, rotate,
    st, rules, board, dist, sids, prm, rng, trace, g, game_out, seat_out,
):  # fmt: skip
    """Seat the lineup for ``game_index``, play it from its own stream, write row ``g``."""
    seat_lineup(lineup_ids, lineup_params, game_index, players, rotate, sids, prm, seat_out, g)
    seed_game_stream(seed, game_index, rng)
    winner, rounds, reason = play_game(players, st, rules, board, dist, sids, prm, rng, trace)
    game_out[g, WINNER] = winner
    game_out[g, TURNS] = rounds
    # The last round is the rulebook's time limit, which decides a winner (or a tie).
    if reason == END_TIME_LIMIT:
        game_out[g, ENDED_BY] = ENDED_TIME_LIMIT
    else:
        game_out[g, ENDED_BY] = ENDED_DRAW if winner < 0 else ENDED_RULES
    game_out[g, END_COLUMN] = reason
    game_out[g, FIRST_OFFICIAL_COLUMN] = st[FIRST_OFFICIAL]
    for seat in range(players):
        seat_out[g, seat, WON] = seat == winner
        for k in range(N_SEAT_STATS):
            seat_out[g, seat, N_STANDARD_SEAT_COLUMNS + k] = st[STATS + N_SEAT_STATS * seat + k]


@njit(parallel=True, cache=True)
def simulate_chunk(
    rules, board, dist, players, lineup_ids, lineup_params, seed, first_index, rotate, game_out,
    seat_out,
):  # fmt: skip
    n_games = game_out.shape[0]
    n_blocks = min(n_games, 64)
    for block in prange(n_blocks):
        # Each block owns its scratch state; games never share anything but read-only inputs.
        st = np.zeros(STATE_SIZE, dtype=np.int64)
        sids = np.zeros(players, dtype=np.int64)
        prm = np.zeros((players, lineup_params.shape[1]), dtype=np.float64)
        rng = np.zeros(4, dtype=np.uint64)
        no_trace = np.zeros((0, TRACE_WIDTH), dtype=np.int64)
        lo, hi = block_bounds(n_games, n_blocks, block)
        for g in range(lo, hi):
            play_indexed(
                players, lineup_ids, lineup_params, seed, first_index + g, rotate,
                st, rules, board, dist, sids, prm, rng, no_trace, g, game_out, seat_out,
            )  # fmt: skip


# --- the interface the runner and the CLI use ---------------------------------------------


def run_chunk(prepared, players, lineup_ids, lineup_params, seed, first_index, n_games, rotate):
    """Play ``n_games`` games from ``first_index`` on: (game_out, seat_out) int64 arrays."""
    chunk.check_lineup(players, lineup_ids, lineup_params)
    rules, board, dist = prepared
    game_out, seat_out = chunk.new_outputs(
        n_games,
        players,
        N_STANDARD_GAME_COLUMNS + len(GAME_COLUMNS),
        N_STANDARD_SEAT_COLUMNS + N_SEAT_STATS,
    )
    simulate_chunk(
        rules, board, dist, players, lineup_ids, lineup_params, np.uint64(seed), first_index,
        rotate, game_out, seat_out,
    )  # fmt: skip
    return game_out, seat_out


FIRST_TRACE_ROWS = 8192  # a longer game is played again with a bigger buffer


def trace_game(prepared, players, lineup_ids, lineup_params, seed, game_index, rotate):
    """The event trace of one game, exactly as the chunk kernel plays it."""
    chunk.check_lineup(players, lineup_ids, lineup_params)
    rules, board, dist = prepared
    sids, prm, rng, game_out, seat_out = chunk.one_game_scratch(
        players,
        lineup_params,
        N_STANDARD_GAME_COLUMNS + len(GAME_COLUMNS),
        N_STANDARD_SEAT_COLUMNS + N_SEAT_STATS,
    )

    def play(st, trace):
        play_indexed(
            players, lineup_ids, lineup_params, np.uint64(seed), game_index, rotate,
            st, rules, board, dist, sids, prm, rng, trace, 0, game_out, seat_out,
        )  # fmt: skip

    return chunk.trace_one_game(play, FIRST_TRACE_ROWS, STATE_SIZE, TRACE_LEN, TRACE_WIDTH)


def describe_trace(trace, seat_labels: list[str]) -> list[str]:
    """A readable round-by-round log of a trace.

    Node names come from the board whose fingerprint the trace's set-up row carries, as loaded by
    ``prepare`` in this process (the replay command always prepares first); a trace of a board
    not loaded here names nodes by number.
    """
    names: tuple[str, ...] = ()
    pads: dict[tuple[int, int], tuple[int, ...]] = {}

    def where(loc):
        if loc >= RESERVE:
            return f"RV{COUNTRIES[loc - RESERVE]}"
        return names[loc] if 0 <= loc < len(names) else f"node {loc}"

    def who(seat):
        return f"seat {seat} ({seat_labels[seat]})" if seat >= 0 else "the mercenary"

    def army_name(army):
        return COUNTRY_NAMES[army]

    def pieces(kind, n):
        return f"{n} {KIND_NAMES[kind]}"

    def command(army, op, kind, origin, target):
        if op == MOVE:
            return f"{KIND_CODES[kind]} {where(origin)} {where(target)}"
        if op == UPGRADE:
            return f"3{KIND_CODES[kind]} X{where(origin)} {KIND_CODES[kind + GROUP_II_OFFSET]}"
        if op == BUY:
            return f"{POWER_VALUE[kind]}P XRV {KIND_CODES[kind]}"
        if op == BUILD:
            return f"X{where(origin)} M"
        if op == LAUNCH:
            return f"M {where(origin)} -> {where(target)}"
        return f"op {op}"

    lines = []
    for row in trace:
        event, a, b, c, d, e, f, g = (int(x) for x in row)
        name = EVENT_NAMES[event]
        if name == "setup":
            names = _NAMES_BY_FINGERPRINT.get(c, ())
            lines.append(f"{a} players, {b} board nodes; seat {d} is the first official; "
                         f"{e} rounds at most, {f} commands per army")  # fmt: skip
        elif name == "army":
            lines.append(f"   {army_name(a)} army: {who(b)}, Headquarters {where(d)}")
        elif name == "round":
            lines.append(f"-- round {a + 1}: official seat {b}, {c} seats in")
        elif name == "pieces":
            lines.append(f"     {army_name(a)} at {where(b)}: {pieces(c, d)}")
        elif name == "army_state":
            if c or e:
                flag = "standing" if c else "lost"
                lines.append(f"   {army_name(a)}: {b} Power Units, Flag {flag}, {d} Flags held, "
                             f"power {e} in {f} pieces")  # fmt: skip
        elif name == "command":
            pads[(a, b)] = (c, d, e, f, g)
            lines.append(f"   seat {a} writes #{b + 1} [{army_name(c)}]: {command(c, d, e, f, g)}")
        elif name == "exec":
            text = command(*pads[(a, b)]) if (a, b) in pads else f"#{b + 1}"
            lines.append(f"   seat {a} #{b + 1} {text}: {RESULTS[c]} ({d})")
        elif name == "used":
            lines.append(f"     made of {pieces(c, d)} at {where(b)}")
        elif name == "destroyed":
            lines.append(f"     destroyed: {army_name(a)} {pieces(c, d)} at {where(b)}")
        elif name == "penalty":
            if b < 0:
                lines.append(f"   seat {a} has no legal command and nothing to pay with")
            elif c < 0:
                lines.append(f"   seat {a} has no legal command: {army_name(b)} loses a Power Unit")
            else:
                lines.append(f"   seat {a} has no legal command: {army_name(b)}'s "
                             f"{KIND_NAMES[c]} at {where(d)} is broken down, {e} Power Units "
                             "to the Reserve")  # fmt: skip
        elif name == "conflict":
            totals = ", ".join(f"side {s}: {p}" for s, p in enumerate((b, c, d, e)) if p >= 0)
            lines.append(f"   conflict at {where(a)} ({totals}): {OUTCOMES[f]} ({g})")
        elif name == "bounce":
            lines.append(f"     {army_name(a)} {KIND_NAMES[b]} retreats {where(c)} -> {where(d)}")
        elif name == "capture":
            lines.append(f"     {army_name(a)} captures {army_name(b)}'s {pieces(d, e)} at "
                         f"{where(c)}")  # fmt: skip
        elif name == "power_units":
            lines.append(f"   {army_name(a)} earns {b} Power Unit(s)")
        elif name == "flag":
            lines.append(f"   {army_name(a)} captures the {army_name(b)} Flag ({c} against {d})")
        elif name == "take":
            what = f"{e} Power Units" if d == POWER_UNIT else pieces(d, e)
            lines.append(f"     {army_name(a)} takes {what} from {where(c)}")
        elif name == "out":
            lines.append(f"   {who(a)} is out")
        elif name == "score":
            lines.append(f"   {who(a)}: power {b}, {c} Flags{'' if d else ' (out)'}")
        elif name == "standing":
            lines.append(f"   standing: {who(b)} power {c}, {d} Flags")
        elif name == "end":
            result = "no winner" if a < 0 else f"{who(a)} wins"
            lines.append(f"== after {b} rounds ({END_REASONS[c]}): {result}")
    return lines
