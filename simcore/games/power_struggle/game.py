"""Power Struggle (../shared/rules/power-struggle.md): the registry entry, the rule parameters,
``prepare``, the chunk glue and the readable log of a trace.

The non-standard Event cards, the competence tracks' golden spaces and the Archenemy Competence
cards are not in the rulebook: they come from a data file (TOML; the shipped one is
simcore/data/power_struggle_default.toml, a designer's own is the rule parameter ``data``).
Every choice the rulebook leaves open is a rule parameter below or a documented convention in
docs/games/power-struggle.md. Decisions come from ``strategies/power_struggle/``.

The package: state.py (codes, state layout, trace format, read-only queries), options.py (the
options of a decision and their move codes), components.py (the data file), transitions.py (the
rule helpers both flows call), meeting.py and turns.py (Stage I and Stage II as resumable steps),
rules.py (the decision-point protocol over those steps), scripted.py (the straight-line scripted
game), search.py (the search compiled for this game)."""

import numpy as np
from numba import njit

from simcore.games.power_struggle import state as ps
from simcore.games.power_struggle.components import load_data

# What the glue calls by name (simcore/kernel/glue.py, NEEDS).
from simcore.games.power_struggle.rules import apply, is_over, legal, new_game, to_move  # noqa: F401
from simcore.games.power_struggle.scripted import play_game  # noqa: F401
from simcore.games.power_struggle.search import choose  # noqa: F401
from simcore.games.power_struggle.state import (
    DEPT_TURNS,
    DIVISIONS,
    GAME_STATS,
    MAX_MOVES,  # noqa: F401  (the glue reads it by name)
    N_GAME_STATS,
    N_SEAT_STATS,
    P_DECISIONS,  # noqa: F401
    P_OUTCOME,
    P_WINNER,
    P_WINNERS,
    PRIVILEGES,
    STATE_SIZE,
    TRACE_LEN,
    TRACE_WIDTH,
)
from simcore.games.power_struggle.transitions import stat
from simcore.kernel import chunk, glue
from simcore.kernel.chunk import (
    ENDED_BY,
    ENDED_CAP,
    ENDED_RULES,
    N_STANDARD_GAME_COLUMNS,
    N_STANDARD_SEAT_COLUMNS,
    TURNS,
    WINNER,
    WON,
)
from simcore.registry import (
    SEARCH_PARAM_NAMES,
    Arcs,
    Column,
    DataComponents,
    Game,
    ImpactGroup,
    Param,
    search_strategy,
)
from strategies import power_struggle as strategy

# What each Privilege card's rule parameter switches off (PRIVILEGES order), as the docs say.
_CARD_OFF = (
    ("development", "Action G cannot use it to entice Employees"),
    ("human_resources", "no additional Employees"),
    (
        "communications",
        "nobody sorts the Event cards: they are stacked in a random order within the two "
        "ordering rules, and the Bribed half gives no extra action",
    ),
    ("accounting", "no larger Block of Shares"),
    ("legal_patents", "Action G cannot use it to dismiss Employees for Influence"),
    ("controlling", "no additional Bonus Payment"),
    ("chairman", "no Department or Main Department at the beginning of the Directors' Meeting"),
)

RULES = (
    Param(
        "data",
        "path",
        "",
        "TOML file with the event cards, track maxima, share blocks, bonus amounts and Archenemy "
        'Competence cards (format in docs/games/power-struggle.md); "" = the shipped '
        "simcore/data/power_struggle_default.toml",
        shipped="power_struggle_default.toml",
    ),
    Param(
        "victory_points",
        "int",
        4,
        "Victory Points a player must declare to end the game (the rulebook's longer variant: 5)",
        1,
        6,
    ),
    Param(
        "max_turns",
        "int",
        300,
        "Department Turn cap: a game still running is recorded as truncated",
        1,
        100_000,
    ),
    Param(
        "starting_money",
        "int",
        ps.START_MONEY,
        'Pinats each player starts with (Set Up 5: "give each player 800,000 Pinats")',
        0,
        100_000_000,
    ),
    Param(
        "bribes_allowed",
        "bool",
        True,
        'Action E, "Bribing other players for Privilege Cards", may be taken (false: no bribes)',
    ),
    Param(
        "bribe_cap",
        "int",
        0,
        'Pinats one bribe offer may hold at most, in 50,000s (the rulebook: "50,000 Pinats or '
        'more", no cap = 0); below 50,000 no bribe can be offered',
        0,
        100_000_000,
    ),
    Param(
        "second_bribe",
        "bool",
        True,
        'E: "A second attempt can be made ... if the first attempt is unsuccessful"',
    ),
    Param(
        "refusal_costs_employee",
        "bool",
        True,
        'E: "Each player who declined a bribe attempt during this Action loses 1 Employee"',
    ),
    *(
        Param(
            f"{name}_card",
            "bool",
            True,
            f"the {title} Privilege card's power is in play (false: {off}; the card is still "
            "handed out and can be bribed for)",
            component="privilege card",
        )
        for title, (name, off) in zip(ps.PRIVILEGES, _CARD_OFF, strict=True)
    ),
    Param(
        "chairman_influence",
        "int",
        2,
        'meeting step 5: "The Chairman now earns 2 points ... on the Influence track"',
        0,
        10,
    ),
    Param(
        "board_influence",
        "int",
        1,
        'meeting step 5: "each Manager on the Board of Directors earns 1 point"',
        0,
        10,
    ),
    Param(
        "motivation_reset",
        "bool",
        True,
        'meeting step 6: "Place the Motivation Marker on space 6" (false: Motivation carries '
        "over from round to round)",
    ),
    Param(
        "hired_employees",
        "int",
        2,
        'Action A: "take 2 Employees from the supply" (before the Human Resources card\'s)',
        1,
        12,
    ),
    Param(
        "main_department_price",
        "int",
        ps.MAIN_PRICE,
        'Action F2: "pays 1,500,000 Pinats to the Bank" for a new Main Department',
        0,
        100_000_000,
    ),
    Param(
        "consultant_price",
        "int",
        ps.CONSULTANT_PRICE,
        'Action F3: "pays 2,000,000 Pinats to the Bank" for an External Consultant',
        0,
        100_000_000,
    ),
    Param(
        "influence_cost",
        "int",
        3,
        'Action F1: "dismisses 3 Employees ... and, in exchange, gains 1 point on the Influence '
        'track"',
        1,
        36,
    ),
    Param(
        "influence_scoring",
        "choice",
        ps.INFLUENCE_SCORING[0],
        'when meeting step 5 ("Score Influence Points") happens: "new board" after the new '
        'Chairman (the rulebook), "outgoing board" moved before step 1, so the Chairman and Board '
        "of the round just played score",
        choices=ps.INFLUENCE_SCORING,
    ),
)
assert len(RULES) == ps.N_RULES
assert [RULES[r].name for r in (ps.R_STARTING_MONEY, ps.R_CARD_ON, ps.R_INFLUENCE_COST)] == [
    "starting_money", "development_card", "influence_cost"
]  # fmt: skip

COMM_SHARES = ("never", "under half", "half or more")
DEALT_CARDS = ("1 card", "2 cards", "3 cards")  # code: cards - 1
DEALT_COMM = ("no", "yes")

SEAT_COLUMNS = (
    Column("vp", "Victory Points at the end", "int8"),
    Column("vp_influence", "1 if it holds the Influence Victory Point (>= 7) at the end", "int8"),
    Column("vp_shares", "1 if it holds the Shares Victory Point (>= 18)", "int8"),
    Column("vp_main", "1 if it holds the Main Departments Victory Point (>= 4)", "int8"),
    Column("vp_corruption", "1 if it holds the Corruption Victory Point (>= 9)", "int8"),
    Column("vp_counsel", "1 if it has Consultants in >= 3 Divisions", "int8"),
    Column("vp_archenemy", "1 if it holds the Archenemy Victory Point", "int8"),
    Column("money", "Pinats at the end", "int32"),
    Column("influence", "Influence track at the end", "int8"),
    Column("shares", "Shares track at the end", "int8"),
    Column("main_departments", "Main Department track at the end", "int8"),
    Column("corruption", "Corruption track at the end", "int8"),
    Column("consultants", "Consultants on the Counsel track at the end", "int8"),
    Column("comm_rounds", "rounds in which it sorted the events (Head of Communications)", "int16"),
    Column("bribes_offered", "bribe offers it made (first and second attempts)", "int16"),
    Column("bribes_accepted", "of its offers, accepted", "int16"),
    Column("bribes_taken", "offers it accepted from others", "int16"),
    Column("declared", "1 if it declared its Victory Points (which ends the game)", "int8"),
    Column("actions", "actions it took (not passes)", "int16"),
    Column("employees", "Employees on the board at the end", "int8"),
    Column(
        "comm_share",
        "share of the rounds in which it sorted the events as Head of Communications",
        labels=COMM_SHARES,
    ),
    Column(
        "dealt_cards",
        "Privilege cards dealt to it at set-up (chance: 7 cards as evenly as possible)",
        labels=DEALT_CARDS,
    ),
    Column(
        "dealt_comm",
        "1 if it was dealt the Communications card at set-up (chance: it starts the game)",
        labels=DEALT_COMM,
    ),
)
assert N_SEAT_STATS == len(SEAT_COLUMNS)

GAME_COLUMNS = (
    Column("rounds", "rounds begun (Directors' Meetings held)", "int16"),
    Column("rounds_4", "rounds whose events were sorted for 4 Department Turns", "int16"),
    Column("rounds_5", "rounds sorted for 5 Department Turns", "int16"),
    Column("rounds_6", "rounds sorted for 6 Department Turns", "int16"),
    Column("rounds_7", "rounds sorted for 7 Department Turns", "int16"),
    Column("winners", "players sharing the win (0 if truncated)", "int8"),
)
assert N_GAME_STATS == len(GAME_COLUMNS)

# The standing per seat (game arcs, docs/arcs.md): recorded by ``record_standing``
# (transitions.py).
ARCS = Arcs(
    unit="Department Turn",
    standing=(
        Column(
            "vp",
            "Victory Points it would score if the game ended now (the Archenemy point "
            "included, which the table does not see until it is declared)",
        ),
        Column("money", "Pinats in hand (players may keep them secret)"),
    ),  # fmt: skip
    event=ps.EV_STANDING,
)


GAME = Game(
    id="power-struggle",
    title="Power Struggle",
    min_players=3,
    max_players=ps.MAX_PLAYERS,
    rules=RULES,
    strategies=strategy.STRATEGIES,
    strategy_param_names=strategy.PARAM_NAMES + SEARCH_PARAM_NAMES,
    # Rollouts by the tuned corrupter: the meta-game's alpha-rank puts it first
    # (docs/games/power-struggle.md).
    search=search_strategy("power-struggle", strategy.STRATEGIES, "preset:corrupter-vs-mixed"),
    default_strategy="builder",
    game_columns=GAME_COLUMNS,
    seat_columns=SEAT_COLUMNS,
    data_components=(DataComponents("data", "events", "event"),),
    impact=(
        ImpactGroup(
            "Dealt the Communications card at set-up (the starting player)", ("dealt_comm",)
        ),
        ImpactGroup("Privilege cards dealt at set-up", ("dealt_cards",)),
        ImpactGroup(
            "Rounds as Head of Communications",
            ("comm_share",),
            observational="who heads Communications is chosen at the meetings, and a longer "
            "game gives every seat more rounds there, so the groups differ in more than the "
            "post. The chance-set pages (dealt the Communications card, cards dealt) are "
            "experiments.",
        ),
    ),
    arcs=ARCS,
    module=__name__,
    doc="managers, departments, bribes and shares: the first to declare 4 Victory Points ends it",
    rulebook="power-struggle.md",
)


def prepare(rules: dict, players: int) -> np.ndarray:
    """The kernel's read-only input: the numeric rules in RULES order (the data path's slot is 0),
    then the data file's tables for this player count (layout: state.py P_*)."""
    table, _ = load_data(rules["data"], players)
    numbers = [0.0 if p.kind == "path" else p.encode(rules[p.name]) for p in RULES]
    return np.concatenate([np.array(numbers, dtype=np.float64), table])


# --- lineups with a searching seat (``ismcts``, docs/ismcts.md) --------------------------------


@njit(cache=True, _nrt=False, forceinline=False)
def protocol_result(st):
    """(winner, winners, Department Turns, truncated) of a game the protocol played to its end,
    as ``play_game`` returns them."""
    return st[P_WINNER], st[P_WINNERS], st[DEPT_TURNS], st[P_OUTCOME] == 2


@njit(cache=True, _nrt=False, forceinline=False)
def write_row(players, result, st, g, game_out, seat_out):
    winner, winners, turns, truncated = result
    game_out[g, WINNER] = winner
    game_out[g, TURNS] = turns
    # A shared win is an ending by the rules too: every sharer's seat is marked won.
    game_out[g, ENDED_BY] = ENDED_CAP if truncated else ENDED_RULES
    for k in range(N_GAME_STATS):
        game_out[g, N_STANDARD_GAME_COLUMNS + k] = st[GAME_STATS + k]
    for seat in range(players):
        seat_out[g, seat, WON] = (winners >> seat) & 1
        for k in range(N_SEAT_STATS):
            seat_out[g, seat, N_STANDARD_SEAT_COLUMNS + k] = st[stat(seat, k)]


# The glue written once (simcore/kernel/glue.py), compiled here.
GLUE = glue.specialise(globals())
bench_protocol = GLUE.bench_protocol

FIRST_TRACE_ROWS = 8192  # a longer game is played again with a bigger buffer

CHUNKS = chunk.GameChunks(
    __name__,
    play=GLUE.play_indexed,
    play_searching=GLUE.play_indexed_protocol,
    state_size=STATE_SIZE,
    trace_width=TRACE_WIDTH,
    trace_len_at=TRACE_LEN,
    game_columns=N_STANDARD_GAME_COLUMNS + N_GAME_STATS,
    seat_columns=N_STANDARD_SEAT_COLUMNS + N_SEAT_STATS,
    first_trace_rows=lambda prepared, players: FIRST_TRACE_ROWS,
)
run_chunk = CHUNKS.run_chunk
trace_game = CHUNKS.trace_game


def _office(division: int, row: int) -> str:
    return f"{DIVISIONS[division]} row {row}"


def describe_trace(trace, seat_labels: list[str]) -> list[str]:
    """A readable log of a trace: set-up, meetings, Department Turns, actions and their results."""

    def who(seat):
        return f"seat {seat} ({seat_labels[seat]})" if seat >= 0 else "nobody"

    def event_name(event):
        if event == ps.EV_BONUS_CARD:
            return "Bonus Payment"
        if event == ps.EV_MEETING_CARD:
            return "Directors' Meeting"
        return f"event card {event}"

    lines = []
    for row in trace:
        event, a, b, c, d, e, f, g = (int(x) for x in row)
        name = ps.EVENT_NAMES[event]
        if name == "setup":
            comps = ", ".join(ps.COMPETENCES[k] for k in (d, e, f))
            enemy = "its own colour" if b == a else f"seat {b}"
            lines.append(f"{who(a)}: {g:,} Pinats, Archenemy {enemy}, competence card {c} "
                         f"({comps})")  # fmt: skip
        elif name == "stock":
            lines.append(f"   {b} blocks of {a} shares at {c:,}")
        elif name == "deal":
            lines.append(f"   {PRIVILEGES[a]} card dealt to {who(b)}")
        elif name == "appoint":
            where = "the Board Room" if c == 0 else f"{_office(d, e)} with 3 Employees"
            lines.append(f"-- appointment {b + 1}: {who(a)} to {where}")
        elif name == "board_out":
            lines.append(f"   seat {a}'s leftmost Board member is pushed out")
        elif name == "board_in":
            lines.append(f"   seat {a} takes Board chair {b} ({ps.BOARD_CAUSES[c]})")
        elif name == "meeting":
            lines.append(f"== round {a}: Directors' Meeting; the Chairman of seat {b} is dismissed"
                         if b >= 0 else f"== round {a}: Directors' Meeting")  # fmt: skip
        elif name == "chairman_use":
            what = "a Department" if b == 0 else "a Main Department"
            lines.append(f"   {who(a)} uses the Chairman card: {what} in {_office(c, d)}, "
                         f"{e} Employees")  # fmt: skip
        elif name == "extra_action":
            lines.append(f"   {who(a)} takes an extra action (bribed Communications)")
        elif name == "chairman":
            source = "from the Board Room" if b == 0 else "from its supply (empty Board)"
            lines.append(f"   Chairman: {who(a)} {source}")
        elif name == "head":
            text = f"   {DIVISIONS[a]}: Divisional Head {who(b)}"
            if d == 2:
                text += f", displacing seat {c} to the " + ("Board Room" if e == 0 else "Counsel")
            if f:
                text += " (by its Privilege card)"
            lines.append(text)
        elif name == "privilege":
            half = "Division" if c == 0 else "Bribed"
            face = "face up" if d else "face down"
            lines.append(f"   {PRIVILEGES[a]} card to seat {b}, {half} half, {face}")
        elif name == "influence":
            lines.append(f"   seat {a} scores {b} Influence ({c})")
        elif name == "motivation":
            lines.append(f"   Motivation {a} ({b:+d})")
        elif name == "order":
            # -1: no policy (a search sorted them, or nobody: the Communications card is off).
            policy = ps.ORDER_POLICIES[c] if c >= 0 else "no policy"
            lines.append(f"   seat {a} sorts the events ({policy}): {b} Department Turns")
        elif name == "turn":
            lines.append(f"-- Department Turn {a} (game turn {b}), seat {c} starts")
        elif name == "event":
            lines.append(f"   {event_name(a)}")
        elif name == "pay":
            bank = f", {e:,} of it from the Bank" if e else ""
            lines.append(f"   seat {a} {'receives' if b > 0 else 'pays'} {abs(b):,} "
                         f"({ps.PAY_CAUSES[d]}{bank}): {c:,}")  # fmt: skip
        elif name == "face_down":
            lines.append(f"   {PRIVILEGES[a]} card (seat {b}) turned face down")
        elif name == "action":
            lines.append(f"   {who(a)}: {ps.ACTIONS[b]} {c} {d} {e} {f}")
        elif name == "employee":
            lines.append(f"      seat {a} {_office(b, c)}: {d:+d} Employees -> {e} "
                         f"({ps.EMPLOYEE_CAUSES[f]})")  # fmt: skip
        elif name == "office":
            state = ("vacated", "Department", "Main Department")[d]
            lines.append(f"      seat {a} {_office(b, c)}: {state}, {e} Employees "
                         f"({ps.OFFICE_CAUSES[f]})")  # fmt: skip
        elif name == "consultant":
            lines.append(f"      seat {a}: Consultant in {DIVISIONS[b]} ({c} in all)")
        elif name == "points":
            lines.append(f"      seat {a}: +{c} {ps.TRACKS[b]} -> {d}")
        elif name == "bribe":
            answer = "accepts" if f else "declines"
            lines.append(f"      seat {a} offers seat {b} {d:,} for {PRIVILEGES[c]}: {answer}")
        elif name == "shares":
            lines.append(f"      seat {a} pays {d:,} for {b} shares, takes a block of {c}")
        elif name == "declare":
            lines.append(f"   {who(a)} declares {b} Victory Points")
        elif name == "standing":
            lines.append(f"   standing: {who(b)} {c} Victory Points, {d:,} Pinats")
        elif name == "end":
            result = "truncated by the turn cap" if c else (
                f"{who(a)} wins" if a >= 0 else f"shared win (seats mask {e})")  # fmt: skip
            lines.append(f"== after {d} rounds, {b} Department Turns: {result}")
    return lines
