"""POWER: The Game (../shared/rules/power-the-game.md): a board-graph kernel with simultaneous
orders, over plain state arrays.

The board is not in the rulebook: it is data (a TOML board file, the rule parameter ``board``),
checked against the rulebook's constraints by tests/test_power_the_game_board.py. Every choice the
rulebook leaves open is a rule parameter below or a convention in docs/games/power-the-game.md.
Codes, the state layout, the trace format and command legality are in
``simcore/games/power_the_game/state.py``; the rules and the decision-point protocol are in
``simcore/games/power_the_game/rules.py``; decisions come from ``strategies/power_the_game.py``.
This
module loads the board, plays whole games (scripted ones straight through the rules' helpers,
those with an ``ismcts`` seat through the protocol) and describes traces.
"""

import functools
import hashlib
import re
import tomllib
from collections import deque
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numba import njit

from simcore.games.power_the_game import search as power_the_game_search
from simcore.games.power_the_game.rules import (  # noqa: F401  (tests reach the rules from here too)
    apply,
    change,
    determinize,
    end_round,
    finish_game,
    goes_on,
    hide_pads,
    implement,
    infoset_key,
    is_over,
    legal,
    new_game,
    play_round,
    resolve,
    returns,
    setup,
    to_move,
    winner_at_time,
)
from simcore.games.power_the_game.state import (
    AIR,
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
    BUILD,
    BUY,
    COUNTRIES,
    COUNTRY_NAMES,
    END_REASONS,
    END_TIME_LIMIT,
    EV_STANDING,
    EVENT_NAMES,
    FILE_WIDTH,
    FIRST_OFFICIAL,
    GROUND,
    GROUP_II_OFFSET,
    HEADQUARTERS,
    I_FINGERPRINT,
    I_HQ,
    I_NODES,
    I_SECTORS,
    INFO,
    ISLAND,
    KIND_CODES,
    KIND_NAMES,
    LAND,
    LAUNCH,
    MAX_DEGREE,
    MAX_MISSILE_COST,
    MAX_MOVES,
    MAX_NODES,
    MAX_OPTIONS,
    MAX_PLANNERS,
    MAX_PLAYERS,
    MISSILE,
    MOVE,
    MOVE_CLASS,
    N_ARMIES,
    N_CLASSES,
    N_RULES,
    N_SEAT_STATS,
    OUTCOMES,
    P_DECISIONS,
    P_REASON,
    P_WINNER,
    POWER_UNIT,
    POWER_VALUE,
    RESERVE,
    RESULTS,
    ROLES,
    ROUND,
    SEA,
    SECTOR,
    STATE_SIZE,
    STATS,
    TERRAINS,
    TRACE_LEN,
    TRACE_WIDTH,
    UNREACHABLE,
    UPGRADE,
    WATER,
    hq_of,  # noqa: F401  (tests reach it from here)
)
from simcore.kernel import chunk
from simcore.kernel.chunk import (
    ENDED_BY,
    ENDED_DRAW,
    ENDED_RULES,
    ENDED_TIME_LIMIT,
    N_STANDARD_GAME_COLUMNS,
    N_STANDARD_SEAT_COLUMNS,
    TURNS,
    WINNER,
    WON,
    seat_lineup,
)
from simcore.kernel.rng import seed_game_stream
from simcore.registry import (
    PRESET_PREFIX,
    SEARCH_ID,
    SEARCH_PARAM_NAMES,
    Arcs,
    Column,
    Game,
    Param,
    SpecError,
    parse_strategy,
    presets,
    search_strategy,
)
from simcore.workflows import files
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
    strategy_param_names=strategy.PARAM_NAMES + SEARCH_PARAM_NAMES,
    default_strategy="balanced",
    game_columns=GAME_COLUMNS,
    seat_columns=SEAT_COLUMNS,
    arcs=ARCS,
    # Rollouts by the tuned blitz: first of the tuned presets in the meta-game's alpha-rank
    # (docs/games/power-the-game.md), and the fastest to play out (its games end soonest).
    # Its options are whole plans, and the search's most visited plan beats the rollout's on
    # average even when the playouts cannot tell them apart (docs/ismcts.md, "The margin").
    search=search_strategy(
        "power-the-game", strategy.STRATEGIES, "preset:blitz-vs-mixed", margin=0.0
    ),
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


@njit(cache=True, _nrt=False)
def play_game(players, st, rules, board, dist, sids, prm, rng, trace):
    """Set up and play one game, each seat's pads by its own strategy: (winner or -1, rounds,
    end reason). The protocol's steps (simcore/games/power_the_game/rules.py) run the same
    helpers."""
    setup(players, st, rules, board, rng, trace)
    while goes_on(st, rules):
        play_round(st, rules, board, dist, sids, prm, rng, trace)
        end_round(st, trace)
    winner, reason = finish_game(st, board, trace)
    return winner, st[ROUND], reason


# A parameter row: the strategy's columns, then the search's (registry.SEARCH_PARAM_NAMES).
N_PARAMS = len(strategy.PARAM_NAMES)
ROLLOUT = N_PARAMS + SEARCH_PARAM_NAMES.index("rollout")


@njit(cache=True)
def play_protocol_game(players, st, game, sids, prm, rng, trace):
    """The same game through the decision-point protocol: each seat's orders answered by its
    ``strategies.power_the_game.decide`` or searched. Games with a searching seat are played this
    way; tests/test_power_the_game_protocol.py plays scripted ones too (the same games as
    ``play_game``)."""
    new_game(players, st, game, rng, trace)
    while not is_over(st):
        seat = to_move(st)
        apply(st, game, power_the_game_search.choose(sids, prm, seat, st, game, rng), rng, trace)
    return st[P_WINNER], st[ROUND], st[P_REASON]


def bench_protocol(prepared, players, lineup_ids, lineup_params, seed, n_games):
    """``n_games`` games through the protocol (``powerlab bench``): (decisions answered,
    searches run: decisions of a searching seat with more than one option)."""
    game = protocol_game(prepared, lineup_ids, lineup_params)
    return bench_protocol_games(game, players, lineup_ids, lineup_params, seed, n_games)


@njit(cache=True, nogil=True)
def bench_protocol_games(game, players, lineup_ids, lineup_params, seed, n_games):
    """``bench_protocol`` on the protocol's ``game`` tuple."""
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    sids = np.zeros(players, dtype=np.int64)
    prm = np.zeros((players, lineup_params.shape[1]), dtype=np.float64)
    rng = np.zeros(4, dtype=np.uint64)
    moves = np.zeros(MAX_OPTIONS, dtype=np.int64)
    no_trace = np.zeros((0, TRACE_WIDTH), dtype=np.int64)
    scratch = np.zeros((1, players, N_STANDARD_SEAT_COLUMNS), dtype=np.int64)
    decisions = 0
    searches = 0
    for game_index in range(n_games):
        seat_lineup(lineup_ids, lineup_params, game_index, players, True, sids, prm, scratch, 0)
        seed_game_stream(seed, game_index, rng)
        new_game(players, st, game, rng, no_trace)
        while not is_over(st):
            seat = to_move(st)
            searches += sids[seat] == SEARCH_ID and legal(st, game, moves) > 1
            move = power_the_game_search.choose(sids, prm, seat, st, game, rng)
            apply(st, game, move, rng, no_trace)
        decisions += st[P_DECISIONS]
    return decisions, searches


@njit(cache=True, _nrt=False)
def play_indexed(
    players, lineup_ids, lineup_params, seed, game_index, rotate,
    st, game, sids, prm, rng, trace, g, game_out, seat_out,
):  # fmt: skip
    """Seat the lineup for ``game_index``, play it from its own stream, write row ``g`` (of
    ``game``, the protocol's tuple, it reads the rules, the board and the distances)."""
    seat_lineup(lineup_ids, lineup_params, game_index, players, rotate, sids, prm, seat_out, g)
    seed_game_stream(seed, game_index, rng)
    rules, board, dist = game[0], game[1], game[2]
    winner, rounds, reason = play_game(players, st, rules, board, dist, sids, prm, rng, trace)
    write_row(players, winner, rounds, reason, st, g, game_out, seat_out)


@njit(cache=True)
def play_indexed_protocol(
    players, lineup_ids, lineup_params, seed, game_index, rotate,
    st, game, sids, prm, rng, trace, g, game_out, seat_out,
):  # fmt: skip
    """``play_indexed`` through the decision-point protocol: for lineups with a searching seat
    (the search allocates its tree, so this one may allocate: the scripted path may not)."""
    seat_lineup(lineup_ids, lineup_params, game_index, players, rotate, sids, prm, seat_out, g)
    seed_game_stream(seed, game_index, rng)
    winner, rounds, reason = play_protocol_game(players, st, game, sids, prm, rng, trace)
    write_row(players, winner, rounds, reason, st, g, game_out, seat_out)


@njit(cache=True, _nrt=False, inline="always")
def write_row(players, winner, rounds, reason, st, g, game_out, seat_out):
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


# --- the orders decision's options -------------------------------------------------------------


@functools.cache
def _shipped_planners() -> tuple[tuple[int, tuple[float, ...]], ...]:
    """The game's planners as (strategy id, parameter row): every scripted strategy but
    ``random`` at its defaults, in the strategies' order, then the tuned presets in the presets
    file's order."""
    specs = [s.name for s in strategy.STRATEGIES if s.id != strategy.RANDOM]
    specs += [PRESET_PREFIX + name for name in presets(GAME.id)]
    ids, rows = GAME.encode_strategies([parse_strategy(GAME, spec) for spec in specs])
    return tuple((int(i), tuple(row[:N_PARAMS])) for i, row in zip(ids, rows, strict=True))


def planner_table(lineup_ids, lineup_params) -> tuple[np.ndarray, np.ndarray]:
    """(planner ids, parameter rows) of the orders decision's options (docs/games/
    power-the-game.md): the game's planners (``_shipped_planners``), then each scripted seat's
    own strategy and each searching seat's rollout strategy that is not among them, in lineup
    order (so that every seat of the lineup answers with an option of the table)."""
    planners = list(_shipped_planners())
    for sid, row in zip(lineup_ids, lineup_params, strict=True):
        own = (int(row[ROLLOUT]), tuple(row[:N_PARAMS])) if sid == SEARCH_ID else None
        own = own or (int(sid), tuple(row[:N_PARAMS]))
        if own not in planners:
            planners.append(own)
    if len(planners) > MAX_PLANNERS:
        raise SpecError(
            f"power-the-game: {len(planners)} planners (the game's {len(_shipped_planners())} "
            f"and the lineup's own), more than the orders decision holds ({MAX_PLANNERS})"
        )
    ids = np.array([sid for sid, _ in planners], dtype=np.int64)
    rows = np.zeros((len(planners), lineup_params.shape[1]), dtype=np.float64)
    for k, (_, row) in enumerate(planners):
        rows[k, :N_PARAMS] = row
    return ids, rows


def protocol_game(prepared, lineup_ids=None, lineup_params=None) -> tuple:
    """The protocol's ``game`` tuple for a lineup (simcore/games/power_the_game/rules.py); without
    one,
    the game's own planners only (tools over the protocol: their seats must play one of them)."""
    if lineup_ids is None:
        lineup_ids = np.zeros(0, dtype=np.int64)
        lineup_params = np.zeros((0, len(GAME.strategy_param_names)))
    rules, board, dist = prepared
    return (rules, board, dist, *planner_table(lineup_ids, lineup_params))


FIRST_TRACE_ROWS = 8192  # a longer game is played again with a bigger buffer

CHUNKS = chunk.GameChunks(
    __name__,
    play=play_indexed,
    play_searching=play_indexed_protocol,
    state_size=STATE_SIZE,
    trace_width=TRACE_WIDTH,
    trace_len_at=TRACE_LEN,
    game_columns=N_STANDARD_GAME_COLUMNS + len(GAME_COLUMNS),
    seat_columns=N_STANDARD_SEAT_COLUMNS + N_SEAT_STATS,
    first_trace_rows=lambda prepared, players: FIRST_TRACE_ROWS,
    game_of=protocol_game,
)
run_chunk = CHUNKS.run_chunk
trace_game = CHUNKS.trace_game


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
