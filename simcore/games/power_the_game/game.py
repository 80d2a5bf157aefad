"""POWER: The Game (../shared/rules/power-the-game.md): a board-graph kernel with simultaneous
orders, over plain state arrays. The registry's entry (``GAME``), the rule parameters, ``prepare``
(the board file loaded, the rules encoded), the chunk glue, the orders decision's planner table,
and ``describe_trace``.

Every choice the rulebook leaves open is a rule parameter below or a convention in
docs/games/power-the-game.md. The package's other modules: ``state.py`` (codes, the state layout,
the trace format, command legality), ``components.py`` (the board file), ``pieces.py``,
``conflicts.py`` and ``rules.py`` (the rules and the decision-point protocol), ``scripted.py``
(the straight-line scripted game), ``search.py`` (the search compiled for this game); decisions
come from ``strategies/power_the_game/``. Scripted games are played straight through the rules'
helpers, those with an ``ismcts`` seat through the protocol.
"""

import functools

import numpy as np

from simcore.games.power_the_game.components import NAMES_BY_FINGERPRINT, load_board

# What the glue calls by name (simcore/kernel/glue.py, NEEDS).
from simcore.games.power_the_game.rules import apply, is_over, legal, new_game, to_move  # noqa: F401
from simcore.games.power_the_game.scripted import play_game  # noqa: F401
from simcore.games.power_the_game.search import MAX_MOVES, choose  # noqa: F401
from simcore.games.power_the_game.state import (
    BUILD,
    BUY,
    COUNTRIES,
    COUNTRY_NAMES,
    DESTROYER,
    END_REASONS,
    END_TIME_LIMIT,
    EV_STANDING,
    EVENT_NAMES,
    FIGHTER,
    FIRST_OFFICIAL,
    GROUP_II_OFFSET,
    INFANTRY,
    KIND_CODES,
    KIND_NAMES,
    LAUNCH,
    MAX_MISSILE_COST,
    MAX_PIECE_POWER,
    MAX_PLANNERS,
    MAX_PLAYERS,
    MISSILE,
    MOVE,
    N_RULES,
    N_SEAT_STATS,
    OUTCOMES,
    P_DECISIONS,  # noqa: F401
    P_REASON,
    P_WINNER,
    POWER_UNIT,
    POWER_VALUE,
    R_MOVES,
    R_PRICE,
    R_UPGRADE_PIECES,
    RESERVE,
    RESULTS,
    ROUND,
    STATE_SIZE,
    STATS,
    TANK,
    TRACE_LEN,
    TRACE_WIDTH,
    UPGRADE,
)
from simcore.games.power_the_game.state import MAX_MOVES as RULEBOOK_MOVES
from simcore.kernel import chunk, glue
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
)
from simcore.kernel.intrinsics import inline_njit
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
    Param(
        "mega_missiles",
        "bool",
        True,
        "Mega-Missiles are in the game: off, nobody may make (exchange for) or launch one",
        component="piece",
    ),
    *(
        Param(
            f"power_{KIND_NAMES[kind].lower().replace(' ', '_')}",
            "int",
            int(POWER_VALUE[kind]),
            f"{KIND_NAMES[kind]} power value (the rulebook's table: {POWER_VALUE[kind]})",
            1,
            MAX_PIECE_POWER,
        )
        for kind in range(MISSILE)
    ),
    *(
        Param(
            f"price_{KIND_NAMES[kind].lower()}",
            "int",
            int(POWER_VALUE[kind]),
            f"Power Units a new {KIND_NAMES[kind]} costs in Reserve (rulebook: "
            f'"equal to its power value", {POWER_VALUE[kind]})',
            1,
            MAX_PIECE_POWER,
        )
        for kind in range(GROUP_II_OFFSET)
    ),
    Param(
        "upgrade_pieces",
        "int",
        3,
        "like Group I pieces in one Sector exchanged for one Group II piece (rulebook: three)",
        2,
        6,
    ),
    Param(
        "units_per_country",
        "int",
        1,
        "Power Units earned per enemy Country occupied at the end of a round (rulebook: one)",
        0,
        3,
    ),
    Param(
        "idle_penalty",
        "bool",
        True,
        "a player none of whose commands is carried out forfeits a Power Unit (or breaks down "
        "its smallest piece)",
    ),
    Param(
        "flag_needs_infantry",
        "bool",
        True,
        "only a force with an Infantry or a Regiment captures a Flag (off: any stronger force)",
    ),
    Param(
        "initial_pieces",
        "int",
        2,
        "Infantry, Tanks, Fighters and Destroyers each army starts with in its Headquarters "
        "(rulebook: two of each)",
        1,
        6,
    ),
    *(
        Param(
            f"moves_{name}",
            "int",
            int(RULEBOOK_MOVES[kind]),
            f"most Sectors {pieces} move in one round (rulebook: {RULEBOOK_MOVES[kind]})",
            1,
            10,
        )
        for kind, name, pieces in (
            (INFANTRY, "infantry", "Infantry and Regiments"),
            (TANK, "tank", "Tanks and Heavy Tanks"),
            (FIGHTER, "plane", "Fighters and Bombers"),
            (DESTROYER, "ship", "Destroyers and Cruisers"),
        )
    ),
    Param(
        "bounces",
        "bool",
        True,
        "tied pieces that moved into a Sector retreat where they came from, a bounce (off: "
        "every tie stands off)",
    ),
    Param(
        "units_before_flags",
        "bool",
        True,
        "Power Units are collected before Flag captures, as the rulebook orders the round (off: "
        "Flags first, and a Country whose Flag falls pays nothing that round)",
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


def prepare(rules: dict, players: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(encoded rules, board table, move tables): the board file is read here, never in a kernel."""
    encoded = np.array(
        [0.0 if p.kind == "path" else p.encode(rules[p.name]) for p in RULES], dtype=np.float64
    )
    moves = np.zeros(MISSILE + 1, dtype=np.int64)  # a Mega-Missile never moves
    for kind in range(MISSILE):
        moves[kind] = encoded[R_MOVES + kind % GROUP_II_OFFSET]
    board = load_board(rules["board"], moves)
    LOG_NUMBERS["prices"] = tuple(int(x) for x in encoded[R_PRICE : R_PRICE + GROUP_II_OFFSET])
    LOG_NUMBERS["upgrade"] = int(encoded[R_UPGRADE_PIECES])
    return encoded, board.table, board.dist


# The Power Units a buy costs and the pieces an exchange takes, as the last ``prepare`` in this
# process set them (``describe_trace`` writes them on the pad; the replay command always
# prepares first, as for the board's node names).
LOG_NUMBERS = {"prices": tuple(int(v) for v in POWER_VALUE[:GROUP_II_OFFSET]), "upgrade": 3}


# A parameter row: the strategy's columns, then the search's (registry.SEARCH_PARAM_NAMES).
N_PARAMS = len(strategy.PARAM_NAMES)
ROLLOUT = N_PARAMS + SEARCH_PARAM_NAMES.index("rollout")


@inline_njit()
def protocol_result(st):
    """(winner or -1, rounds, end reason) of a game the protocol played to its end, as
    ``play_game`` returns them."""
    return st[P_WINNER], st[ROUND], st[P_REASON]


@inline_njit()
def write_row(players, result, st, g, game_out, seat_out):
    winner, rounds, reason = result
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
    one, the game's own planners only (tools over the protocol: their seats must play one of
    them)."""
    if lineup_ids is None:
        lineup_ids = np.zeros(0, dtype=np.int64)
        lineup_params = np.zeros((0, len(GAME.strategy_param_names)))
    rules, board, dist = prepared
    return (rules, board, dist, *planner_table(lineup_ids, lineup_params))


# The glue written once (simcore/kernel/glue.py), compiled here; its games read the protocol's
# tuple (``protocol_game``).
GLUE = glue.specialise(globals(), game_of=protocol_game)
bench_protocol = GLUE.bench_protocol

FIRST_TRACE_ROWS = 8192  # a longer game is played again with a bigger buffer

CHUNKS = chunk.GameChunks(
    __name__,
    play=GLUE.play_indexed,
    play_searching=GLUE.play_indexed_protocol,
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
            made = KIND_CODES[kind + GROUP_II_OFFSET]
            return f"{LOG_NUMBERS['upgrade']}{KIND_CODES[kind]} X{where(origin)} {made}"
        if op == BUY:
            return f"{LOG_NUMBERS['prices'][kind]}P XRV {KIND_CODES[kind]}"
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
            names = NAMES_BY_FINGERPRINT.get(c, ())
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
