"""Power Struggle (../shared/rules/power-struggle.md): the rules as a numba kernel over one state
array.

The non-standard Event cards, the competence tracks' golden spaces and the Archenemy Competence
cards are not in the rulebook: they come from a data file (TOML; the shipped one is
simcore/data/power_struggle_default.toml, a designer's own is the rule parameter ``data``).
Every choice the rulebook leaves open is a rule parameter below or a documented convention in
docs/games/power-struggle.md. Decisions come from ``strategies/power_struggle.py``; this module
only applies rules. State layout and trace format: ``simcore/games/power_struggle/state.py``.
"""

import tomllib
from importlib import resources

import numpy as np
from numba import njit

from simcore.games.power_struggle import state as ps
from simcore.games.power_struggle.state import (
    BOARD,
    BOARD_N,
    BONUS,
    CHAIRMAN,
    CHAIRS,
    COLOUR_CARD,
    COMMUNICATIONS,
    COMP_CARD,
    COMP_CARD_ID,
    COMP_OF,
    CONSULT,
    CONTROLLING,
    D_ACCEPT,
    D_ACTION,
    D_APPOINT,
    D_BRIBE,
    D_CHAIRMAN,
    D_DISPLACED,
    D_EMPLOYEE,
    D_ENTICE,
    D_FIRE,
    D_NONE,
    D_ORDER,
    D_SOURCE,
    D_VICTIM,
    DECLARED,
    DEPT_TURNS,
    DEVELOPMENT,
    DIVISIONS,
    EMP,
    ENDING,
    EVENT_FX,
    EVENT_WIDTH,
    FACE,
    GAME_STATS,
    HALF,
    HEAD,
    HEADS,
    HELD,
    HOLDER,
    HUMAN_RESOURCES,
    LEGAL,
    MAX_EMPLOYEES,
    MEETING_EVENT,
    MONEY,
    MOTIVATION,
    N_DIVISIONS,
    N_EVENTS,
    N_GAME_STATS,
    N_OFFICES,
    N_PRIVILEGES,
    N_SEAT_STATS,
    N_SIZES,
    N_TRACKS,
    ORDER,
    ORDER_SIZE,
    OWNER,
    P_ACCEPTED,
    P_ACTOR,
    P_AMOUNT,
    P_ATTEMPT,
    P_BY_CARD,
    P_CARD,
    P_CAUSE,
    P_DECISION,
    P_DECISIONS,
    P_DIVISION,
    P_EVENT,
    P_EXCLUDE,
    P_FIRST,
    P_FX,
    P_FX_SEAT,
    P_K,
    P_LIMIT,
    P_LOSER,
    P_N,
    P_NEW_HEAD,
    P_OFFICE,
    P_ORDER_POLICY,
    P_OUTCOME,
    P_POS,
    P_RESUME,
    P_SEAT,
    P_SECOND,
    P_STEP,
    P_TAKEN,
    P_TARGET,
    P_THEN,
    P_W,
    P_WINNER,
    P_WINNERS,
    P_X,
    P_Y,
    P_Z,
    PILE,
    PLAYERS,
    PRICE,
    PRIVILEGES,
    ROUND,
    ROWS,
    SCRATCH,
    STATE_SIZE,
    STATS,
    STOCK,
    TRACE_LEN,
    TRACE_WIDTH,
    TRACK,
    TRACK_MAX,
    action_move,
    action_of,
    action_ok,
    action_possible,
    archenemy_now,
    board_members,
    consultants,
    create_two_problem,
    departments,
    employees,
    enticeable,
    has_vacancy,
    main_departments,
    merge_problem,
    motivation_bonus,
    move_problem,
    occupied,
    office_ok,
    order_candidate,
    order_pick_ok,
    room,
    routes,
    share_blocks,
    share_option_ok,
    usable,
    victory_points,
)
from simcore.kernel import chunk
from simcore.kernel.chunk import (
    ENDED_BY,
    ENDED_CAP,
    ENDED_RULES,
    N_STANDARD_GAME_COLUMNS,
    N_STANDARD_SEAT_COLUMNS,
    TURNS,
    WINNER,
    WON,
    record_event,
    seat_lineup,
)
from simcore.kernel.rng import rand_below, seed_game_stream
from simcore.registry import (
    SEARCH_ID,
    SEARCH_PARAM_NAMES,
    Arcs,
    Column,
    Game,
    ImpactGroup,
    Param,
    SpecError,
    search_strategy,
)
from simcore.workflows import files
from strategies import power_struggle as strategy

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
)
assert len(RULES) == ps.N_RULES

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
(
    S_VP, S_VP_INFLUENCE, S_VP_SHARES, S_VP_MAIN, S_VP_CORRUPTION, S_VP_COUNSEL, S_VP_ARCHENEMY,
    S_MONEY, S_INFLUENCE, S_SHARES, S_MAIN, S_CORRUPTION, S_CONSULTANTS, S_COMM_ROUNDS,
    S_BRIBES_OFFERED, S_BRIBES_ACCEPTED, S_BRIBES_TAKEN, S_DECLARED, S_ACTIONS, S_EMPLOYEES,
    S_COMM_SHARE, S_DEALT_CARDS, S_DEALT_COMM,
) = range(len(SEAT_COLUMNS))  # fmt: skip
assert N_SEAT_STATS == len(SEAT_COLUMNS)

GAME_COLUMNS = (
    Column("rounds", "rounds begun (Directors' Meetings held)", "int16"),
    Column("rounds_4", "rounds whose events were sorted for 4 Department Turns", "int16"),
    Column("rounds_5", "rounds sorted for 5 Department Turns", "int16"),
    Column("rounds_6", "rounds sorted for 6 Department Turns", "int16"),
    Column("rounds_7", "rounds sorted for 7 Department Turns", "int16"),
    Column("winners", "players sharing the win (0 if truncated)", "int8"),
)
G_ROUNDS, G_ROUNDS_4, G_WINNERS = 0, 1, 5
assert N_GAME_STATS == len(GAME_COLUMNS)

# The standing per seat (game arcs, docs/arcs.md): recorded by ``record_standing``.
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


# --- the data file --------------------------------------------------------------------------

DEFAULT_DATA = "power_struggle_default.toml"
DIVISION_KEYS = ("development", "human_resources", "communications", "accounting",
                 "legal_patents", "controlling")  # fmt: skip
CARD_KEYS = (*DIVISION_KEYS, "chairman")


class EventSet:
    """The event cards' names by id (for readable traces) and their effect rows."""

    def __init__(self, names: list[str], rows: list[list[int]]):
        self.names = names
        self.rows = rows


def _data_text(path: str) -> tuple[str, str]:
    if path == "":
        shipped = resources.files("simcore").joinpath("data", DEFAULT_DATA)
        return f"simcore/data/{DEFAULT_DATA}", shipped.read_text()
    return path, files.read_text(path, "data file")


def _int(where: str, value, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SpecError(f"{where}: expected an integer, got {value!r}")
    if not low <= value <= high:
        raise SpecError(f"{where}: {value} is not in [{low}, {high}]")
    return value


def _table(where: str, data: dict, key: str, keys: tuple[str, ...]) -> dict:
    table = data.get(key)
    if not isinstance(table, dict):
        raise SpecError(f"{where}: [{key}]: missing, expected a table with {', '.join(keys)}")
    for name in table:
        if name not in keys:
            raise SpecError(f"{where}: {key}.{name}: unknown key (expected {', '.join(keys)})")
    for name in keys:
        if name not in table:
            raise SpecError(f"{where}: {key}.{name}: missing")
    return table


def _int_list(where: str, value, length: int, low: int, high: int) -> list[int]:
    if not isinstance(value, list) or len(value) != length:
        raise SpecError(f"{where}: expected a list of {length} integers, got {value!r}")
    return [_int(f"{where}[{k}]", v, low, high) for k, v in enumerate(value)]


def _choice(where: str, value, names: tuple[str, ...]) -> int:
    if value not in names:
        raise SpecError(f"{where}: {value!r} is not one of {', '.join(names)}")
    return names.index(value)


EFFECT_KEYS = ("kind", "amount", "who", "per", "division")


def _effect(where: str, effect) -> list[int]:
    """One effect as [kind, who, per, amount, division]."""
    if not isinstance(effect, dict):
        raise SpecError(f'{where}: expected a table like {{ kind = "motivation", amount = -1 }}')
    for key in effect:
        if key not in EFFECT_KEYS:
            raise SpecError(f"{where}.{key}: unknown key (expected {', '.join(EFFECT_KEYS)})")
    kind = _choice(f"{where}.kind", effect.get("kind"), ps.EFFECT_KINDS)
    who = _choice(f"{where}.who", effect.get("who", "all"), ps.EFFECT_WHO)
    per = _choice(f"{where}.per", effect.get("per", "flat"), ps.EFFECT_PER)
    division = -1
    if kind == ps.FX_FACE_DOWN:
        division = _choice(f"{where}.division", effect.get("division"), CARD_KEYS)
    elif "division" in effect:
        division = _choice(f"{where}.division", effect["division"], DIVISION_KEYS)
    if kind == ps.FX_FACE_DOWN:
        amount = 0
    elif kind == ps.FX_MOTIVATION:
        amount = _int(f"{where}.amount", effect.get("amount"), -6, 6)
    elif kind == ps.FX_LOSE:
        amount = _int(f"{where}.amount", effect.get("amount"), 1, 36)
    else:
        amount = _int(f"{where}.amount", effect.get("amount"), 0, 10_000_000)
    if who == ps.WHO_HEAD and division < 0:
        raise SpecError(f'{where}.division: who = "head" needs the division whose head it is')
    if kind == ps.FX_LOSE and "per" in effect:
        raise SpecError(f"{where}.per: lose_employees takes no per")
    return [kind, who, per, amount, division]


def load_data(path: str, players: int) -> tuple[np.ndarray, EventSet]:
    """The prepared table part (layout ps.P_*) for ``players`` and the event names, or a
    one-line SpecError naming the file and the field."""
    name, text = _data_text(path)
    where = f"power-struggle: data {name}"
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError) as error:
        raise SpecError(f"{where}: not valid TOML ({error})") from None
    top = ("tracks", "shares", "bonus_payment", "archenemy_competence", "events")
    for key in data:
        if key not in top:
            raise SpecError(f"{where}: {key}: unknown key (expected {', '.join(top)})")
    tracks = _table(where, data, "tracks", ps.TRACKS)
    maxima = [
        _int(f"{where}: tracks.{key}", tracks[key], ps.VP_THRESHOLD[k], 1000)
        for k, key in enumerate(ps.TRACKS)
    ]
    shares = _table(where, data, "shares", ("prices", "players_3", "players_4", "players_5"))
    prices = _int_list(f"{where}: shares.prices", shares["prices"], N_SIZES, 0, 100_000_000)
    stock_key = f"players_{players}"
    stock = _int_list(f"{where}: shares.{stock_key}", shares[stock_key], N_SIZES, 0, 100)
    bonus_table = _table(where, data, "bonus_payment", ps.BONUS_ITEMS)
    bonus = [
        _int(f"{where}: bonus_payment.{key}", bonus_table[key], 0, 100_000_000)
        for key in ps.BONUS_ITEMS
    ]
    cards = data.get("archenemy_competence")
    if not isinstance(cards, list) or not cards or len(cards) > ps.MAX_COMPETENCE_CARDS:
        raise SpecError(
            f"{where}: archenemy_competence: expected 1 to {ps.MAX_COMPETENCE_CARDS} "
            "[[archenemy_competence]] tables"
        )
    kept, kept_ids = [], []
    for k, card in enumerate(cards):
        at = f"{where}: archenemy_competence[{k}]"
        if not isinstance(card, dict) or set(card) != {"competences", "players"}:
            raise SpecError(f"{at}: expected exactly the keys competences and players")
        comps = card["competences"]
        if not isinstance(comps, list) or len(comps) != 3 or len(set(map(str, comps))) != 3:
            raise SpecError(f"{at}.competences: expected 3 different competences")
        codes = [_choice(f"{at}.competences[{j}]", c, ps.COMPETENCES) for j, c in enumerate(comps)]
        if players >= _int(f"{at}.players", card["players"], 3, ps.MAX_PLAYERS):
            kept.extend(codes)
            kept_ids.append(k)
    if len(kept_ids) < players:
        raise SpecError(
            f"{where}: archenemy_competence: {len(kept_ids)} cards are used at {players} "
            f"players, fewer than the {players} to deal"
        )
    events = data.get("events")
    if not isinstance(events, list) or not events:
        raise SpecError(f"{where}: events: expected [[events]] tables")
    names, rows = [], []
    for k, event in enumerate(events):
        at = f"{where}: events[{k}]"
        if not isinstance(event, dict):
            raise SpecError(f"{at}: expected a table")
        for key in event:
            if key not in ("name", "count", "effects"):
                raise SpecError(f"{at}.{key}: unknown key (expected name, count, effects)")
        title = event.get("name")
        if not isinstance(title, str) or not title.strip():
            raise SpecError(f"{at}.name: expected a non-empty name")
        count = _int(f"{at}.count", event.get("count", 1), 1, ps.MAX_EVENTS)
        effects = event.get("effects")
        if not isinstance(effects, list) or not 1 <= len(effects) <= ps.MAX_EFFECTS:
            raise SpecError(f"{at}.effects: expected a list of 1 to {ps.MAX_EFFECTS} effects")
        row = [len(effects)]
        for j, effect in enumerate(effects):
            row.extend(_effect(f"{at}.effects[{j}]", effect))
        row.extend([0] * (EVENT_WIDTH - len(row)))
        names.extend([title] * count)
        rows.extend([row] * count)
    if not ps.ORDER_SIZE - 2 <= len(rows) <= ps.MAX_EVENTS:
        raise SpecError(
            f"{where}: events: {len(rows)} cards, expected {ps.ORDER_SIZE - 2} to {ps.MAX_EVENTS}"
        )
    table = np.zeros(ps.PREPARED_SIZE - ps.N_RULES, dtype=np.float64)

    def put(at, values):
        table[at - ps.N_RULES : at - ps.N_RULES + len(values)] = values

    put(ps.P_TRACK_MAX, maxima)
    put(ps.P_STOCK, stock)
    put(ps.P_PRICE, prices)
    put(ps.P_BONUS, bonus)
    put(ps.P_N_CARDS, [len(kept_ids)])
    put(ps.P_CARDS, kept)
    put(ps.P_CARD_IDS, kept_ids)
    put(ps.P_N_EVENTS, [len(rows)])
    put(ps.P_EVENTS, [v for row in rows for v in row])
    return table, EventSet(names, rows)


def prepare(rules: dict, players: int) -> np.ndarray:
    """The kernel's read-only input: the numeric rules in RULES order (the data path's slot is 0),
    then the data file's tables for this player count (layout: power_struggle_state P_*)."""
    table, _ = load_data(rules["data"], players)
    numbers = [0.0 if p.kind == "path" else p.encode(rules[p.name]) for p in RULES]
    return np.concatenate([np.array(numbers, dtype=np.float64), table])


# --- small transitions ------------------------------------------------------------------------
# Every function takes the game as (st, rules, sids, prm, rng, trace): the state, the prepared
# rules, each seat's strategy id and parameter row, the game's random stream, the trace buffer.


@njit(cache=True, _nrt=False)
def stat(seat, which):
    """Index of one of ``seat``'s statistics in ``st``."""
    return STATS + N_SEAT_STATS * seat + which


@njit(cache=True, _nrt=False)
def change_money(st, seat, amount, cause, event_id, from_bank, trace):
    st[MONEY + seat] += amount
    record_event(trace, st, TRACE_LEN, ps.EV_PAY, seat, amount, st[MONEY + seat], cause,
                 from_bank, event_id)  # fmt: skip


@njit(cache=True, _nrt=False)
def charge(st, seat, due, cause, event_id, trace):
    """``seat`` pays ``due`` to the Bank, or all it has when that is less; returns what it paid."""
    paid = min(due, st[MONEY + seat])
    if paid > 0:
        change_money(st, seat, -paid, cause, event_id, 0, trace)
    return paid


@njit(cache=True, _nrt=False)
def gain(st, seat, which, n, cause, trace):
    """Move ``seat``'s marker ``n`` points up ``which`` track, no further than its golden top
    space; returns the points gained."""
    at = TRACK + N_TRACKS * seat + which
    gained = min(n, st[TRACK_MAX + which] - st[at])
    st[at] += gained
    record_event(trace, st, TRACE_LEN, ps.EV_POINTS, seat, which, gained, st[at], cause)
    return gained


@njit(cache=True, _nrt=False)
def shifted(tracked, vacated):
    """Where the office ``tracked`` is after ``vacated`` (-1: none) emptied and the offices below
    it in its division moved up; -1 if ``tracked`` was the vacated one."""
    if vacated < 0 or tracked < 0 or tracked // ROWS != vacated // ROWS:
        return tracked
    if tracked == vacated:
        return -1
    return tracked - 1 if tracked > vacated else tracked


@njit(cache=True, _nrt=False)
def vacate(st, office, cause, trace):
    """Empty ``office`` (its Employees already gone or moved) and move the offices below it up."""
    division = office // ROWS
    row = office % ROWS
    record_event(trace, st, TRACE_LEN, ps.EV_OFFICE, st[OWNER + office], division, row, 0,
                 st[EMP + office], cause)  # fmt: skip
    for r in range(row, ROWS - 1):
        here = ROWS * division + r
        st[OWNER + here] = st[OWNER + here + 1]
        st[HEADS + here] = st[HEADS + here + 1]
        st[EMP + here] = st[EMP + here + 1]
    last = ROWS * division + ROWS - 1
    st[OWNER + last] = -1
    st[HEADS + last] = 0
    st[EMP + last] = 0


@njit(cache=True, _nrt=False)
def open_office(st, seat, division, heads, staff, cause, trace):
    """Put ``heads`` Managers of ``seat`` and ``staff`` Employees (at most 6; the excess goes back
    to the supply) in the topmost vacant office of ``division``; returns its id."""
    office = ROWS * division + occupied(st, division)
    st[OWNER + office] = seat
    st[HEADS + office] = heads
    st[EMP + office] = min(staff, MAX_EMPLOYEES)
    record_event(trace, st, TRACE_LEN, ps.EV_OFFICE, seat, division, office % ROWS, heads,
                 st[EMP + office], cause)  # fmt: skip
    return office


@njit(cache=True, _nrt=False)
def add_employee(st, office, cause, trace):
    """One Employee into ``office`` unless it has 6 (then it stays in the supply)."""
    if st[EMP + office] < MAX_EMPLOYEES:
        st[EMP + office] += 1
        record_event(trace, st, TRACE_LEN, ps.EV_EMPLOYEE, st[OWNER + office], office // ROWS,
                     office % ROWS, 1, st[EMP + office], cause)  # fmt: skip


@njit(cache=True, _nrt=False)
def remove_employees(st, office, n, cause, trace):
    """``n`` Employees of ``office`` back to the supply; a Department left without any closes
    (its Manager goes back to its owner). Returns the vacated office or -1."""
    st[EMP + office] -= n
    record_event(trace, st, TRACE_LEN, ps.EV_EMPLOYEE, st[OWNER + office], office // ROWS,
                 office % ROWS, -n, st[EMP + office], cause)  # fmt: skip
    if st[EMP + office] == 0 and st[HEADS + office] == 1:
        vacate(st, office, ps.O_CLOSED, trace)
        return office
    return -1


@njit(cache=True, _nrt=False)
def check_office(st, office, seat, need_staff, need_room):
    if not office_ok(st, office, seat, need_staff, need_room):
        if not 0 <= office < N_OFFICES or st[OWNER + office] != seat:
            raise ValueError("strategy chose an office its player does not own")
        if need_staff:
            raise ValueError("strategy chose an office without Employees")
        raise ValueError("strategy chose a full office")


@njit(cache=True, _nrt=False)
def board_add(st, seat, cause, trace):
    """A Manager of ``seat`` into the leftmost vacant chair; with all 5 taken, everyone moves a
    chair to the left first and the leftmost Manager goes back to its owner."""
    if st[BOARD_N] == CHAIRS:
        record_event(trace, st, TRACE_LEN, ps.EV_BOARD_OUT, st[BOARD])
        board_remove(st, 0)
    st[BOARD + st[BOARD_N]] = seat
    st[BOARD_N] += 1
    record_event(trace, st, TRACE_LEN, ps.EV_BOARD_IN, seat, st[BOARD_N] - 1, cause)


@njit(cache=True, _nrt=False)
def board_remove(st, chair):
    """Empty ``chair``; the members to its right move left to close the gap."""
    for c in range(chair, st[BOARD_N] - 1):
        st[BOARD + c] = st[BOARD + c + 1]
    st[BOARD_N] -= 1
    st[BOARD + st[BOARD_N]] = -1


@njit(cache=True, _nrt=False)
def add_consultant(st, seat, division, cause, trace):
    st[CONSULT + N_DIVISIONS * seat + division] += 1
    record_event(trace, st, TRACE_LEN, ps.EV_CONSULTANT, seat, division, consultants(st, seat),
                 cause)  # fmt: skip


@njit(cache=True, _nrt=False)
def turn_face_down(st, card, cause, trace):
    st[FACE + card] = 0
    record_event(trace, st, TRACE_LEN, ps.EV_FACE_DOWN, card, st[HOLDER + card], cause)


# --- actions ----------------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def move_offices(seat, a, b, target, st, trace):
    """C1) 1 or 2 Departments or 1 Main Department, Managers and Employees, to another division."""
    problem = move_problem(st, seat, a, b, target)
    if problem == 1:
        raise ValueError("strategy chose an office its player does not own")
    if problem == 2:
        raise ValueError("strategy moved two offices that are not two Departments")
    if problem == 3:
        raise ValueError("strategy moved an office within its own division")
    if problem == 4:
        raise ValueError("strategy moved offices to a division without room")
    heads_a = st[HEADS + a]
    staff_a = st[EMP + a]
    heads_b = st[HEADS + b] if b >= 0 else 0
    staff_b = st[EMP + b] if b >= 0 else 0
    vacate(st, a, ps.O_MOVE_OUT, trace)
    if b >= 0:
        vacate(st, shifted(b, a), ps.O_MOVE_OUT, trace)
    open_office(st, seat, target, heads_a, staff_a, ps.O_MOVE_IN, trace)
    if b >= 0:
        open_office(st, seat, target, heads_b, staff_b, ps.O_MOVE_IN, trace)


@njit(cache=True, _nrt=False)
def merge(seat, a, b, target, st, trace):
    """C2) two of its Departments become a Main Department, in a's office (target -1) or a new
    office of ``target``; 2 Employees and any over 6 are fired; 1 Main Department point."""
    problem = merge_problem(st, seat, a, b, target)
    if problem == 1:
        raise ValueError("strategy chose an office its player does not own")
    if problem == 2:
        raise ValueError("strategy merged offices that are not two of its Departments")
    if problem == 3:
        raise ValueError("strategy merged into a division without a vacant office")
    staff = st[EMP + a] + st[EMP + b]
    if target < 0:
        vacate(st, b, ps.O_MERGE_OUT, trace)
        office = shifted(a, b)
        st[HEADS + office] = 2
        st[EMP + office] = staff
        record_event(trace, st, TRACE_LEN, ps.EV_OFFICE, seat, office // ROWS, office % ROWS, 2,
                     staff, ps.O_MERGE)  # fmt: skip
    else:
        vacate(st, a, ps.O_MERGE_OUT, trace)
        vacate(st, shifted(b, a), ps.O_MERGE_OUT, trace)
        office = ROWS * target + occupied(st, target)
        st[OWNER + office] = seat
        st[HEADS + office] = 2
        st[EMP + office] = staff
        record_event(trace, st, TRACE_LEN, ps.EV_OFFICE, seat, target, office % ROWS, 2, staff,
                     ps.O_MERGE)  # fmt: skip
    fired = min(2, staff)
    if fired > 0:
        remove_employees(st, office, fired, ps.E_MERGE, trace)
    if st[EMP + office] > MAX_EMPLOYEES:
        remove_employees(st, office, st[EMP + office] - MAX_EMPLOYEES, ps.E_EXCESS, trace)
    gain(st, seat, ps.MAIN, 1, ps.P_MERGE, trace)


@njit(cache=True, _nrt=False)
def resign(seat, division, to_counsel, st, trace):
    """D) its Divisional Head of ``division`` resigns to the Board Room (with its Department
    Heads there) or to the Counsel track; its Employees there are fired, its other Departments
    there close; Main Departments stay; the division's Privilege card turns face down."""
    if not 0 <= division < N_DIVISIONS or st[HEAD + division] != seat:
        raise ValueError("strategy resigned a Divisional Head it does not have")
    st[HEAD + division] = -1
    turn_face_down(st, division, 0, trace)
    leaving = 0
    row = 0
    while row < ROWS:
        office = ROWS * division + row
        if st[OWNER + office] != seat:
            row += 1
            continue
        if st[EMP + office] > 0:
            fired = st[EMP + office]
            st[EMP + office] = 0
            record_event(trace, st, TRACE_LEN, ps.EV_EMPLOYEE, seat, division, row, -fired, 0,
                         ps.E_RESIGN)  # fmt: skip
        if st[HEADS + office] == 1:
            vacate(st, office, ps.O_RESIGN, trace)
            leaving += 1
        else:
            row += 1
    if to_counsel:
        add_consultant(st, seat, division, ps.C_RESIGN, trace)
    else:
        board_add(st, seat, ps.B_RESIGN_HEAD, trace)
        for _ in range(leaving):
            board_add(st, seat, ps.B_RESIGN_DEPARTMENT, trace)


@njit(cache=True, _nrt=False)
def buy_shares(seat, paid, received, st, trace):
    """F4) pay for a block of ``paid`` shares, take one of ``received`` (Accounting: larger)."""
    if not share_option_ok(st, seat, paid, received):
        raise ValueError("strategy bought a share block it may not")
    charge(st, seat, st[PRICE + paid], ps.PAY_SHARES, -1, trace)
    st[STOCK + received] -= 1
    st[HELD + (N_SIZES + 1) * seat + received] += 1
    record_event(trace, st, TRACE_LEN, ps.EV_SHARES, seat, paid, received, st[PRICE + paid],
                 st[STOCK + received])  # fmt: skip
    gain(st, seat, ps.SHARES, received, ps.P_SHARES, trace)


@njit(cache=True, _nrt=False)
def check_division(division):
    if not 0 <= division < N_DIVISIONS:
        raise ValueError("strategy chose a division that does not exist")


# --- events -----------------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def set_motivation(st, value, cause, trace):
    value = max(0, min(ps.MAX_MOTIVATION, value))
    change = value - st[MOTIVATION]
    st[MOTIVATION] = value
    record_event(trace, st, TRACE_LEN, ps.EV_MOTIVATION, value, change, cause)


@njit(cache=True, _nrt=False)
def bonus_payment(st, trace):
    """The standard event: Pinats per share block, Department, Main Department, Board member and
    for the Chairman, plus the Controlling card's amount per (Main) Department."""
    for seat in range(st[PLAYERS]):
        offices = departments(st, seat, -1)
        mains = main_departments(st, seat, -1)
        total = (
            st[BONUS + 0] * share_blocks(st, seat)
            + st[BONUS + 1] * offices
            + st[BONUS + 2] * mains
            + st[BONUS + 3] * board_members(st, seat)
            + st[BONUS + 4] * (st[HEAD + CHAIRMAN] == seat)
            + motivation_bonus(st, seat, CONTROLLING) * (offices + mains)
        )
        if total > 0:
            change_money(st, seat, total, ps.PAY_BONUS, -1, 0, trace)


# --- the Directors' Meeting -------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def appoint_chairman(st, trace):
    """Step 2: the player with the most Board members (tie: the leftmost of them) moves its
    leftmost member to the Chairman's office; an empty Board: the Chairman card's holder."""
    if st[BOARD_N] == 0:
        seat = st[HOLDER + CHAIRMAN]
        st[HEAD + CHAIRMAN] = seat
        record_event(trace, st, TRACE_LEN, ps.EV_CHAIRMAN, seat, 1, -1)
        return
    best = -1
    best_count = 0
    for chair in range(st[BOARD_N]):
        seat = st[BOARD + chair]
        count = board_members(st, seat)
        if count > best_count:
            best = seat
            best_count = count
    chair = 0
    while st[BOARD + chair] != best:
        chair += 1
    board_remove(st, chair)
    st[HEAD + CHAIRMAN] = best
    record_event(trace, st, TRACE_LEN, ps.EV_CHAIRMAN, best, 0, chair)


@njit(cache=True, _nrt=False)
def head_claim(st, division, seat):
    """(Department Heads with a Main Department counting 2, Employees, topmost row or ROWS) of
    ``seat`` in ``division``."""
    heads = 0
    staff = 0
    top = ROWS
    for row in range(ROWS):
        office = ROWS * division + row
        if st[OWNER + office] == seat:
            heads += st[HEADS + office]
            staff += st[EMP + office]
            top = min(top, row)
    return heads, staff, top


@njit(cache=True, _nrt=False)
def trace_event_id(st, event):
    if event == st[ps.BONUS_EVENT]:
        return ps.EV_BONUS_CARD
    if event == st[MEETING_EVENT]:
        return ps.EV_MEETING_CARD
    return event


@njit(cache=True, _nrt=False)
def snapshot(st, trace):
    if trace.shape[0] == 0:
        return
    for seat in range(st[PLAYERS]):
        t = TRACK + N_TRACKS * seat
        record_event(trace, st, TRACE_LEN, ps.EV_SNAP_SEAT, seat, st[MONEY + seat], st[t],
                     st[t + 1], st[t + 2], st[t + 3], consultants(st, seat))  # fmt: skip
    for office in range(N_OFFICES):
        if st[OWNER + office] >= 0:
            record_event(trace, st, TRACE_LEN, ps.EV_SNAP_OFFICE, office // ROWS, office % ROWS,
                         st[OWNER + office], st[HEADS + office], st[EMP + office])  # fmt: skip
    for chair in range(st[BOARD_N]):
        record_event(trace, st, TRACE_LEN, ps.EV_SNAP_BOARD, chair, st[BOARD + chair])
    record_event(trace, st, TRACE_LEN, ps.EV_SNAP_BOARD, -1, st[HEAD + CHAIRMAN])
    for card in range(N_PRIVILEGES):
        record_event(trace, st, TRACE_LEN, ps.EV_SNAP_CARD, card, st[HOLDER + card],
                     st[HALF + card], st[FACE + card])  # fmt: skip


@njit(cache=True, _nrt=False)
def record_standing(st, trace):
    """After a Department Turn: one standing row per seat when tracing; nothing otherwise."""
    if trace.shape[0] == 0:
        return
    for seat in range(st[PLAYERS]):
        record_event(trace, st, TRACE_LEN, ps.EV_STANDING, st[DEPT_TURNS], seat,
                     victory_points(st, seat), st[MONEY + seat])  # fmt: skip


@njit(cache=True, _nrt=False, inline="always")
def declare_if_due(st, seat, rules, trace):
    """At the end of its own action a player with the Victory Points declares."""
    if st[DECLARED + seat] == 0 and victory_points(st, seat) >= np.int64(
        rules[ps.R_VICTORY_POINTS]
    ):
        declare(st, seat, trace)


@njit(cache=True, _nrt=False)
def declare(st, seat, trace):
    """``seat`` announces its Victory Points on its own turn: its Archenemy point, if it has it
    now, can no longer be lost; the game ends with this Department Turn."""
    st[ps.ARCH_LOCKED + seat] = archenemy_now(st, seat)
    st[DECLARED + seat] = 1
    st[ENDING] = 1
    st[stat(seat, S_DECLARED)] = 1
    record_event(trace, st, TRACE_LEN, ps.EV_DECLARE, seat, victory_points(st, seat),
                 st[ps.ARCH_LOCKED + seat], routes(st, seat))  # fmt: skip


@njit(cache=True, _nrt=False)
def shuffle_into(st, at, n, rng):
    """A uniformly random permutation of 0 .. n-1 into st[at : at + n]."""
    for i in range(n):
        st[at + i] = i
    shuffle_slice(st, at, n, rng)


@njit(cache=True, _nrt=False)
def shuffle_slice(st, at, n, rng):
    """Shuffle st[at : at + n] in place, uniformly."""
    for i in range(n - 1, 0, -1):
        j = rand_below(rng, i + 1)
        held = st[at + i]
        st[at + i] = st[at + j]
        st[at + j] = held


@njit(cache=True, _nrt=False, inline="always")
def sort_slice(st, at, n):
    """Sort st[at : at + n] in place (insertion sort: a few dozen event ids)."""
    for i in range(1, n):
        held = st[at + i]
        j = i
        while j > 0 and st[at + j - 1] > held:
            st[at + j] = st[at + j - 1]
            j -= 1
        st[at + j] = held


@njit(cache=True, _nrt=False)
def determinize(st, seat, rng):
    """Redraw everything hidden from ``seat``, uniformly among the states consistent with what it
    sees now, and nothing else (the information-leak check and tree search use it):

    - the Archenemy cards of every other player who has not declared (Set Up 7; a declaring
      player shows his): their Colour cards are the colours that neither ``seat`` holds nor a
      declared player showed, dealt among them anew; their Competence cards are drawn from the
      cards kept at this table that ``seat`` has not seen (unused ones included);
    - money (Set Up 5): a bribe's amount is known only to the briber and the bribed player, so
      for each pair of other players the total of the accepted bribes from one to the other is
      redrawn (a multiple of 50,000, at least 50,000 a bribe, their number is public) and both
      players' money moves with it, neither's below 0;
    - the event cards (Sort Event Cards: only the player who sorted them may look at the stack):
      unless ``seat`` sorted this round's cards, the places not yet turned up get the Directors'
      Meeting card at a legal place (5th or later), the Bonus Payment before it if it has not
      come up, and cards drawn from the ones not turned up this round elsewhere, every legal
      completion equally likely; the rest of the deck is shuffled for everyone.

    What it does not keep: a player who has not declared with target - 1 visible Victory Points
    is known to lack the Archenemy point at the end of his last action, and a past shortfall or
    "richest pays" event tells something of someone's money; the redraw keeps only the present
    (cards dealt, money never negative, the ordering rules)."""
    players = st[PLAYERS]
    hidden = 0  # bit p: p's Archenemy cards are hidden from seat
    for p in range(players):
        if p != seat and st[DECLARED + p] == 0:
            hidden |= 1 << p
    # Colour cards: the hidden players hold exactly the colours seat has not seen; Competence
    # cards: any of the kept cards seat has not seen (unused ones included).
    colours = 0  # bit: a colour seat has seen, or already dealt in this redraw
    cards = 0
    for p in range(players):
        if not (hidden >> p) & 1:
            colours |= 1 << st[COLOUR_CARD + p]
            cards |= 1 << st[COMP_OF + p]
    for p in range(players):
        if (hidden >> p) & 1:
            st[COLOUR_CARD + p] = draw_unseen(colours, players, rng)
            colours |= 1 << st[COLOUR_CARD + p]
            st[COMP_OF + p] = draw_unseen(cards, st[ps.N_COMP_CARDS], rng)
            cards |= 1 << st[COMP_OF + p]
    # Bribe amounts between two other players.
    for a in range(players):
        for b in range(players):
            pair = ps.MAX_PLAYERS * a + b
            count = st[ps.BRIBE_COUNT + pair]
            if a == seat or b == seat or count == 0:
                continue
            paid = st[ps.BRIBE_PAID + pair]
            step = ps.BRIBE_STEP
            least = max(count * ps.MIN_BRIBE, -((st[MONEY + b] - paid) // step) * step)
            most = (st[MONEY + a] + paid) // step * step
            redrawn = least + step * rand_below(rng, (most - least) // step + 1)
            st[ps.BRIBE_PAID + pair] = redrawn
            st[MONEY + a] += paid - redrawn
            st[MONEY + b] += redrawn - paid
    redraw_events(st, seat, rng)


@njit(cache=True, _nrt=False)
def draw_unseen(seen, n, rng):
    """One of 0 .. n-1 not in the bitmask ``seen``, uniformly."""
    k = rand_below(rng, n - ps.count_bits(seen, n))
    for value in range(n):
        if not (seen >> value) & 1:
            if k == 0:
                return value
            k -= 1
    return -1


@njit(cache=True, _nrt=False)
def redraw_events(st, seat, rng):
    """The event-card part of ``determinize``."""
    n_events = st[N_EVENTS]
    sorter = st[ps.SORTER]
    drawn = ORDER_SIZE - 2
    # The deck's order is unknown: shuffled from a canonical (sorted) order, so the redraw does
    # not depend on the order it replaces.
    if sorter < 0:  # no round sorted yet: only the deck, in an order nobody knows
        shuffle_into(st, PILE, n_events, rng)
        return
    if sorter == seat:  # it knows the round's cards (st[PILE + 0..5]); the deck is unknown
        sort_slice(st, PILE + drawn, n_events - drawn)
        shuffle_slice(st, PILE + drawn, n_events - drawn, rng)
        return
    revealed = st[ps.REVEALED]
    meeting_up = False
    bonus_up = False
    for position in range(revealed):
        meeting_up = meeting_up or st[ORDER + position] == st[MEETING_EVENT]
        bonus_up = bonus_up or st[ORDER + position] == st[ps.BONUS_EVENT]
    # The cards not turned up this round, in random order, into st[PILE + ...] after the
    # turned-up ones.
    k = 0
    for event in range(n_events):
        up = False
        for position in range(revealed):
            up = up or st[ORDER + position] == event
        if up:
            st[PILE + k] = event
            k += 1
    shown = k
    for event in range(n_events):
        up = False
        for position in range(revealed):
            up = up or st[ORDER + position] == event
        if not up:
            st[PILE + k] = event
            k += 1
    shuffle_slice(st, PILE + shown, n_events - shown, rng)
    meeting_at = -1
    bonus_at = -1
    if not meeting_up:
        # P(meeting at m) proportional to the bonus's places before it (1 if it came up).
        total = 0
        for m in range(max(ps.MIN_TURNS, revealed), ORDER_SIZE):
            total += 1 if bonus_up else m - revealed
        r = rand_below(rng, total)
        for m in range(max(ps.MIN_TURNS, revealed), ORDER_SIZE):
            weight = 1 if bonus_up else m - revealed
            if meeting_at < 0 and r < weight:
                meeting_at = m
                if not bonus_up:
                    bonus_at = revealed + r
            r -= weight
    k = shown
    for position in range(revealed, ORDER_SIZE):
        if position == meeting_at:
            st[ORDER + position] = st[MEETING_EVENT]
        elif position == bonus_at:
            st[ORDER + position] = st[ps.BONUS_EVENT]
        else:
            st[ORDER + position] = st[PILE + k]
            k += 1
    # The round's six drawn cards first in the pile, as sort_events leaves them.
    k = 0
    for position in range(ORDER_SIZE):
        event = st[ORDER + position]
        if event != st[MEETING_EVENT] and event != st[ps.BONUS_EVENT]:
            for i in range(k, n_events):
                if st[PILE + i] == event:
                    st[PILE + i] = st[PILE + k]
                    st[PILE + k] = event
            k += 1
    shuffle_slice(st, PILE + drawn, n_events - drawn, rng)


@njit(cache=True, _nrt=False)
def set_up(players, st, rules, rng, trace):
    """The table from the prepared data; money, Archenemy cards, Privilege cards."""
    st[:] = 0
    st[PLAYERS] = players
    for office in range(N_OFFICES):
        st[OWNER + office] = -1
    for k in range(N_PRIVILEGES):
        st[HEAD + k] = -1
    for chair in range(CHAIRS):
        st[BOARD + chair] = -1
    for which in range(N_TRACKS):
        st[TRACK_MAX + which] = np.int64(rules[ps.P_TRACK_MAX + which])
    for size in range(1, N_SIZES + 1):
        st[PRICE + size] = np.int64(rules[ps.P_PRICE + size - 1])
        st[STOCK + size] = np.int64(rules[ps.P_STOCK + size - 1])
        record_event(trace, st, TRACE_LEN, ps.EV_STOCK, size, st[STOCK + size], st[PRICE + size])
    for item in range(len(ps.BONUS_ITEMS)):
        st[BONUS + item] = np.int64(rules[ps.P_BONUS + item])
    n_cards = np.int64(rules[ps.P_N_CARDS])
    st[ps.N_COMP_CARDS] = n_cards
    for k in range(3 * n_cards):
        st[COMP_CARD + k] = np.int64(rules[ps.P_CARDS + k])
    for k in range(n_cards):
        st[COMP_CARD_ID + k] = np.int64(rules[ps.P_CARD_IDS + k])
    n_events = np.int64(rules[ps.P_N_EVENTS])
    st[N_EVENTS] = n_events
    st[ps.BONUS_EVENT] = n_events
    st[MEETING_EVENT] = n_events + 1
    for k in range(EVENT_WIDTH * n_events):
        st[EVENT_FX + k] = np.int64(rules[ps.P_EVENTS + k])
    for k in range(n_events):
        st[PILE + k] = k
    st[MOTIVATION] = ps.MAX_MOTIVATION
    # Archenemy Colour cards of the players' colours, then Competence cards: scratch permutations.
    shuffle_into(st, SCRATCH, players, rng)
    for seat in range(players):
        st[COLOUR_CARD + seat] = st[SCRATCH + seat]
    shuffle_into(st, SCRATCH, n_cards, rng)
    for seat in range(players):
        st[COMP_OF + seat] = st[SCRATCH + seat]
        st[MONEY + seat] = ps.START_MONEY
        card = st[COMP_OF + seat]
        record_event(trace, st, TRACE_LEN, ps.EV_SETUP, seat, st[COLOUR_CARD + seat],
                     st[COMP_CARD_ID + card], st[COMP_CARD + 3 * card],
                     st[COMP_CARD + 3 * card + 1], st[COMP_CARD + 3 * card + 2],
                     st[MONEY + seat])  # fmt: skip
    # Privilege cards shuffled and dealt "randomly ... as equally as possible" (Set Up 8), face
    # up, Division half: one at a time round a random order of the seats, so which players get
    # the extra cards is the game's chance, not their seats.
    st[ps.SORTER] = -1
    shuffle_into(st, SCRATCH, N_PRIVILEGES, rng)
    shuffle_into(st, SCRATCH + N_PRIVILEGES, players, rng)
    for seat in range(players):
        st[stat(seat, S_DEALT_CARDS)] = -1  # the column's code is cards - 1
    for k in range(N_PRIVILEGES):
        card = st[SCRATCH + k]
        seat = st[SCRATCH + N_PRIVILEGES + k % players]
        st[HOLDER + card] = seat
        st[FACE + card] = 1
        st[stat(seat, S_DEALT_CARDS)] += 1
        record_event(trace, st, TRACE_LEN, ps.EV_DEAL, card, seat)
    st[stat(st[HOLDER + COMMUNICATIONS], S_DEALT_COMM)] = 1


@njit(cache=True, _nrt=False)
def winners_of(st, target, ended):
    """(bitmask of the winners, their Victory Points): among the players with at least
    ``target`` Victory Points when the game ``ended`` by a declaration, the most Victory Points,
    then the most money; still tied, they share the win. (0, 0) when it did not end."""
    winners = 0
    best_vp = 0
    best_money = -1
    if not ended:
        return winners, best_vp
    for seat in range(st[PLAYERS]):
        vp = victory_points(st, seat)
        if vp < target:
            continue
        money = st[MONEY + seat]
        if vp > best_vp or (vp == best_vp and money > best_money):
            winners = 1 << seat
            best_vp = vp
            best_money = money
        elif vp == best_vp and money == best_money:
            winners |= 1 << seat
    return winners, best_vp


# --- the rules as steps: the decision-point protocol (docs/protocol.md) -------------------------
# The rules run step by step (st[P_STEP], one of ST_*) until a seat must decide: the step asks
# (st[P_DECISION], st[P_SEAT]) and returns; ``apply`` answers it and runs on. Scripted games
# answer with strategies.power_struggle.decide (``play_game``), the search and the tests with
# any option ``legal`` lists. A step that loops (Employees one by one, the event cards place by
# place, the players of an event or a turn) keeps its counters in st (P_*), so a copy of st is
# a game in the middle of a meeting, a turn or an action.

(ST_APPOINT, ST_MEETING, ST_CHAIRMAN_CARD, ST_CHAIRMAN_DONE, ST_EXTRA, ST_HEADS_START, ST_HEADS,
 ST_MEETING_END, ST_SORT, ST_ORDER, ST_SNAPSHOT, ST_TURN, ST_EVENT, ST_EFFECT, ST_ACTIONS,
 ST_ACTION, ST_AFTER_ACTION, ST_HIRE, ST_CREATE_TWO, ST_FOUND, ST_INFLUENCE, ST_LEGAL,
 ST_DEVELOP, ST_DEVELOP_PLACE, ST_BRIBE, ST_ACCEPT, ST_BRIBE_LOSERS, ST_END,
 ST_STOP) = range(29)  # fmt: skip


@njit(cache=True, _nrt=False)
def ask(st, kind, seat):
    """Stop the rules: ``seat`` must answer a decision of ``kind``."""
    st[P_DECISION] = kind
    st[P_SEAT] = seat
    return True


@njit(cache=True, _nrt=False)
def action_done(st):
    st[P_STEP] = st[P_RESUME]
    return False


@njit(cache=True, _nrt=False)
def step_appoint(st):
    """Three Managers each: clockwise from the starting player, counter-clockwise from the player
    to its right, clockwise again; each to the Board Room or as a Department Head with 3
    Employees (D_APPOINT)."""
    players = st[PLAYERS]
    k = st[P_K]
    if k == 3 * players:
        st[P_STEP] = ST_MEETING
        return False
    return ask(st, D_APPOINT, appointing_seat(st, k))


@njit(cache=True, _nrt=False, inline="always")
def appointing_seat(st, k):
    """Who makes appointment ``k`` (0 .. 3 * players - 1): clockwise from the starting player,
    counter-clockwise from the player to its right, clockwise again."""
    players = st[PLAYERS]
    start = st[HOLDER + COMMUNICATIONS]
    i = k % players
    return (start + i) % players if k // players != 1 else (start - 1 - i) % players


@njit(cache=True, _nrt=False)
def answer_appoint(st, move, trace):
    """Move 0: the Board Room; else a Department in division move - 1."""
    appoint(st, st[P_SEAT], st[P_K] // st[PLAYERS], move - 1, trace)
    st[P_K] += 1


@njit(cache=True, _nrt=False, inline="always")
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


@njit(cache=True, _nrt=False)
def step_meeting(st, trace):
    """Stage I, step 1: a new round; from round 2 on the Chairman is dismissed, then the Chairman
    card and the Bribed Communications card (face up) act, in that order."""
    st[P_STEP] = ST_CHAIRMAN_CARD if meeting_begins(st, trace) else ST_HEADS_START
    return False


@njit(cache=True, _nrt=False, inline="always")
def meeting_begins(st, trace):
    """A new round; from round 2 on the Chairman is dismissed (True: the cards act next)."""
    st[ROUND] += 1
    st[GAME_STATS + G_ROUNDS] += 1
    record_event(trace, st, TRACE_LEN, ps.EV_MEETING, st[ROUND], st[HEAD + CHAIRMAN])
    if st[ROUND] > 1:
        st[HEAD + CHAIRMAN] = -1
        return True
    return False


@njit(cache=True, _nrt=False)
def step_chairman_card(st):
    """The face-up Chairman card's holder may found a Department (Division half: 1 Manager, 1 new
    Employee, any of its own Employees) or a Main Department (Bribed half: 2 Managers, 1 Main
    Department point): D_CHAIRMAN."""
    holder = st[HOLDER + CHAIRMAN]
    if holder < 0 or st[FACE + CHAIRMAN] == 0:
        st[P_STEP] = ST_EXTRA
        return False
    return ask(st, D_CHAIRMAN, holder)


@njit(cache=True, _nrt=False)
def answer_chairman(st, move, trace):
    """Move 0: not used; else 1 + division + 6 * Employees it moves in (Division half)."""
    holder = st[P_SEAT]
    st[P_STEP] = ST_EXTRA
    if move == 0:
        return
    division = (move - 1) % N_DIVISIONS if move > 0 else -1
    office = chairman_card_office(st, holder, division, trace)
    st[P_X] = division
    st[P_OFFICE] = office
    st[P_STEP] = ST_CHAIRMAN_DONE
    if st[HALF + CHAIRMAN] == 0:
        found(st, holder, office, (move - 1) // N_DIVISIONS, ST_CHAIRMAN_DONE)


@njit(cache=True, _nrt=False, inline="always")
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


@njit(cache=True, _nrt=False, inline="always")
def chairman_card_used(st, division, office, trace):
    record_event(trace, st, TRACE_LEN, ps.EV_CHAIRMAN_USE, st[HOLDER + CHAIRMAN],
                 st[HALF + CHAIRMAN], division, office % ROWS, st[EMP + office])  # fmt: skip


@njit(cache=True, _nrt=False)
def step_chairman_done(st, trace):
    chairman_card_used(st, st[P_X], st[P_OFFICE], trace)
    st[P_STEP] = ST_EXTRA
    return False


@njit(cache=True, _nrt=False, inline="always")
def found(st, seat, office, moved, then):
    """``seat``'s new Department ``office`` takes up to ``moved`` of its Employees from its other
    offices, one by one (D_SOURCE), while it has room; then step ``then``."""
    st[P_ACTOR] = seat
    st[P_OFFICE] = office
    st[P_EXCLUDE] = office
    st[P_N] = 0
    st[P_LIMIT] = moved
    st[P_THEN] = then
    st[P_STEP] = ST_FOUND


@njit(cache=True, _nrt=False)
def step_found(st):
    seat = st[P_ACTOR]
    if st[P_N] >= st[P_LIMIT] or not can_move_in(st, seat, st[P_OFFICE]):
        st[P_STEP] = st[P_THEN]
        return False
    return ask(st, D_SOURCE, seat)


@njit(cache=True, _nrt=False, inline="always")
def can_move_in(st, seat, office):
    """The new Department ``office`` has room and ``seat`` has Employees elsewhere."""
    return st[EMP + office] < MAX_EMPLOYEES and employees(st, seat, -1) != st[EMP + office]


@njit(cache=True, _nrt=False, inline="always")
def move_in(st, seat, office, source, trace):
    """One of ``seat``'s Employees from ``source`` into its new Department ``office``; returns
    where that Department is now (offices below a closed one move up)."""
    if source == office:
        raise ValueError("strategy moved Employees from the new Department into itself")
    check_office(st, source, seat, True, False)
    office = shifted(office, remove_employees(st, source, 1, ps.E_TRANSFER_OUT, trace))
    add_employee(st, office, ps.E_TRANSFER_IN, trace)
    return office


@njit(cache=True, _nrt=False)
def answer_source(st, move, trace):
    """An Employee of office ``move`` into the new Department (or, creating two Departments,
    taken from its office)."""
    seat = st[P_SEAT]
    if st[P_STEP] == ST_FOUND:
        st[P_OFFICE] = move_in(st, seat, st[P_OFFICE], move, trace)
        st[P_EXCLUDE] = st[P_OFFICE]
    else:
        dismiss(st, seat, -1, move, ps.E_TRANSFER_OUT, trace)
    st[P_N] += 1


@njit(cache=True, _nrt=False)
def step_extra(st, trace):
    """The face-up Bribed Communications card: one extra action for its holder."""
    st[P_STEP] = ST_HEADS_START
    holder = extra_action_holder(st, trace)
    if holder >= 0:
        start_action(st, holder, ST_HEADS_START)
    return False


@njit(cache=True, _nrt=False, inline="always")
def extra_action_holder(st, trace):
    """The holder of the face-up Bribed Communications card, who takes an extra action now, or
    -1."""
    if st[FACE + COMMUNICATIONS] == 1 and st[HALF + COMMUNICATIONS] == 1:
        holder = st[HOLDER + COMMUNICATIONS]
        record_event(trace, st, TRACE_LEN, ps.EV_EXTRA_ACTION, holder)
        return holder
    return -1


@njit(cache=True, _nrt=False)
def step_heads_start(st, trace):
    """Step 2 (a new Chairman), then step 3 from the left."""
    appoint_chairman(st, trace)
    st[P_K] = 0
    st[P_STEP] = ST_HEADS
    return False


@njit(cache=True, _nrt=False, inline="always")
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


@njit(cache=True, _nrt=False)
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
    st[P_STEP] = ST_MEETING_END
    return False


@njit(cache=True, _nrt=False, inline="always")
def seat_head(st, division, new, old, case, displaced_to, by_card, trace):
    st[HEAD + division] = new
    record_event(trace, st, TRACE_LEN, ps.EV_HEAD, division, new, old, case, displaced_to,
                 by_card)  # fmt: skip


@njit(cache=True, _nrt=False)
def answer_displaced(st, move, trace):
    """Move 0: the displaced Divisional Head to the Board Room; 1: to the Counsel track."""
    old = st[P_SEAT]
    division = st[P_K]
    displace(st, old, division, move, trace)
    seat_head(st, division, st[P_NEW_HEAD], old, 2, move, st[P_BY_CARD], trace)
    st[P_K] += 1


@njit(cache=True, _nrt=False, inline="always")
def displace(st, old, division, to, trace):
    """``old``'s Divisional Head of ``division`` to the Board Room (0) or the Counsel track (1)."""
    if to == 1:
        add_consultant(st, old, division, ps.C_DISPLACED, trace)
    elif to == 0:
        board_add(st, old, ps.B_DISPLACED, trace)
    else:
        raise ValueError("strategy sent a displaced Divisional Head nowhere")


@njit(cache=True, _nrt=False)
def step_meeting_end(st, trace):
    meeting_ends(st, trace)
    st[P_STEP] = ST_SORT
    return False


@njit(cache=True, _nrt=False, inline="always")
def meeting_ends(st, trace):
    """Steps 4 to 6."""
    # 4. Privilege cards, face up, Division half.
    for card in range(N_PRIVILEGES):
        st[HOLDER + card] = st[HEAD + card]
        st[HALF + card] = 0
        st[FACE + card] = 1
        record_event(trace, st, TRACE_LEN, ps.EV_PRIVILEGE, card, st[HOLDER + card], 0, 1)
    # 5. Influence: the Chairman 2, each Board member 1.
    for seat in range(st[PLAYERS]):
        points = board_members(st, seat) + 2 * (st[HEAD + CHAIRMAN] == seat)
        if points > 0:
            at = TRACK + N_TRACKS * seat + ps.INFLUENCE
            gained = min(points, st[TRACK_MAX + ps.INFLUENCE] - st[at])
            st[at] += gained
            record_event(trace, st, TRACE_LEN, ps.EV_INFLUENCE, seat, gained, st[at])
    # 6. Motivation back to 6.
    set_motivation(st, ps.MAX_MOTIVATION, -1, trace)


@njit(cache=True, _nrt=False)
def step_sort(st, rng):
    """Step 7: the Divisional Head of Communications draws 6 of the shuffled non-standard events
    and orders them with the 2 standard ones, place by place (D_ORDER: bonus before meeting,
    meeting 5th or later)."""
    draw_events(st, rng)
    st[P_ORDER_POLICY] = -1
    st[P_N] = 0
    st[P_STEP] = ST_ORDER
    return False


@njit(cache=True, _nrt=False, inline="always")
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


@njit(cache=True, _nrt=False)
def step_order(st, trace):
    if st[P_N] < ORDER_SIZE:
        return ask(st, D_ORDER, st[ps.SORTER])
    order_recorded(st, st[P_ORDER_POLICY], trace)
    st[P_STEP] = ST_SNAPSHOT
    return False


@njit(cache=True, _nrt=False, inline="always")
def order_recorded(st, policy, trace):
    """The round's order is sorted: its statistics and trace rows."""
    sorter = st[ps.SORTER]
    meeting_at = 0
    while st[ORDER + meeting_at] != st[MEETING_EVENT]:
        meeting_at += 1
    st[stat(sorter, S_COMM_ROUNDS)] += 1
    st[GAME_STATS + G_ROUNDS_4 + meeting_at - ps.MIN_TURNS] += 1
    record_event(trace, st, TRACE_LEN, ps.EV_ORDER, sorter, meeting_at, policy)
    for position in range(ORDER_SIZE):
        record_event(trace, st, TRACE_LEN, ps.EV_ORDER_CARD, position,
                     trace_event_id(st, st[ORDER + position]))  # fmt: skip


@njit(cache=True, _nrt=False)
def answer_order(st, move):
    """The event card ``move`` takes the next place."""
    if not order_pick_ok(st, move):
        raise ValueError("strategy's event order breaks the two ordering rules")
    st[ORDER + st[P_N]] = move
    st[P_N] += 1


@njit(cache=True, _nrt=False)
def step_turn(st, trace):
    """Stage II: the next event card turns up; the meeting card ends the round, any other is a
    Department Turn: its event step, then one action each clockwise from the starting player."""
    event = turn_begins(st, st[P_POS], trace)
    st[P_K] = 0
    if event == st[MEETING_EVENT]:
        st[P_STEP] = ST_MEETING
    elif event == st[ps.BONUS_EVENT]:
        st[P_STEP] = ST_ACTIONS
    else:
        st[P_EVENT] = event
        st[P_STEP] = ST_EVENT
    return False


@njit(cache=True, _nrt=False, inline="always")
def turn_begins(st, position, trace):
    """The card at ``position`` turns up: the meeting card ends the round; any other begins a
    Department Turn (the Bonus Payment paid at once). Returns the card."""
    event = st[ORDER + position]
    st[ps.REVEALED] = position + 1
    if event == st[MEETING_EVENT]:
        record_event(trace, st, TRACE_LEN, ps.EV_EVENT, ps.EV_MEETING_CARD, position, 0)
        return event
    if position == 0:
        st[ps.START_SEAT] = st[HEAD + COMMUNICATIONS]
    st[DEPT_TURNS] += 1
    record_event(trace, st, TRACE_LEN, ps.EV_TURN, position + 1, st[DEPT_TURNS],
                 st[ps.START_SEAT])  # fmt: skip
    if event == st[ps.BONUS_EVENT]:
        record_event(trace, st, TRACE_LEN, ps.EV_EVENT, ps.EV_BONUS_CARD, position, 0)
        bonus_payment(st, trace)
    return event


@njit(cache=True, _nrt=False)
def step_event(st, trace):
    event = st[P_EVENT]
    record_event(trace, st, TRACE_LEN, ps.EV_EVENT, event, st[P_POS],
                 st[EVENT_FX + EVENT_WIDTH * event])  # fmt: skip
    st[P_FX] = 0
    st[P_FX_SEAT] = 0
    st[P_N] = 0
    st[P_STEP] = ST_EFFECT
    return False


@njit(cache=True, _nrt=False)
def step_effect(st, trace):
    """The event step: the effects of the non-standard event, in the card's order; a player
    losing Employees chooses each one (D_FIRE)."""
    event = st[P_EVENT]
    base = EVENT_FX + EVENT_WIDTH * event
    players = st[PLAYERS]
    while st[P_FX] < st[base]:
        fx = base + 1 + ps.FX_FIELDS * st[P_FX]
        if st[fx] != ps.FX_LOSE:
            effect_without_choice(st, event, fx, trace)
        else:
            # Dismissing Employees moves no money: the richest and poorest stay as they were.
            richest, poorest = money_range(st)
            while st[P_FX_SEAT] < players:
                seat = st[P_FX_SEAT]
                division = st[fx + 4]
                if ps.matches(st, seat, st[fx + 1], division, st[MONEY + seat], richest, poorest):
                    if st[P_N] < st[fx + 3] and employees(st, seat, division) > 0:
                        st[P_DIVISION] = division
                        st[P_CAUSE] = ps.E_EVENT
                        return ask(st, D_FIRE, seat)
                st[P_FX_SEAT] += 1
                st[P_N] = 0
            st[P_FX_SEAT] = 0
        st[P_FX] += 1
    st[P_STEP] = ST_ACTIONS
    return False


@njit(cache=True, _nrt=False, inline="always")
def money_range(st):
    """(the most, the least money a player has)."""
    richest = st[MONEY]
    poorest = st[MONEY]
    for seat in range(st[PLAYERS]):
        richest = max(richest, st[MONEY + seat])
        poorest = min(poorest, st[MONEY + seat])
    return richest, poorest


@njit(cache=True, _nrt=False, inline="always")
def effect_without_choice(st, event, fx, trace):
    """An effect (at ``fx`` of the event's row) other than losing Employees: Motivation, a card
    face down, the Moron, a payment to or from the Bank for each player it names."""
    kind = st[fx]
    who = st[fx + 1]
    per = st[fx + 2]
    amount = st[fx + 3]
    division = st[fx + 4]
    players = st[PLAYERS]
    if kind == ps.FX_MOTIVATION:
        set_motivation(st, st[MOTIVATION] + amount, event, trace)
    elif kind == ps.FX_FACE_DOWN:
        turn_face_down(st, division, 1, trace)
    elif kind == ps.FX_MORON:
        head = st[HEAD + COMMUNICATIONS]
        if head < 0:
            return  # the Divisional Head of Communications has resigned
        for j in range(1, players):
            other = (head + j) % players
            paid = min(amount, st[MONEY + head])
            if paid > 0:
                change_money(st, head, -paid, ps.PAY_MORON, event, 0, trace)
            change_money(st, other, amount, ps.PAY_MORON, event, amount - paid, trace)
    else:
        richest, poorest = money_range(st)
        for seat in range(players):
            if not ps.matches(st, seat, who, division, st[MONEY + seat], richest, poorest):
                continue
            due = amount * ps.units(st, seat, per)
            if due <= 0:
                continue
            if kind == ps.FX_RECEIVE:
                change_money(st, seat, due, ps.PAY_EVENT, event, 0, trace)
            else:
                charge(st, seat, due, ps.PAY_EVENT, event, trace)


@njit(cache=True, _nrt=False, inline="always")
def dismiss(st, seat, division, office, cause, trace):
    """One of ``seat``'s Employees in ``office`` (in ``division`` unless -1) back to the supply."""
    check_office(st, office, seat, True, False)
    if division >= 0 and office // ROWS != division:
        raise ValueError("strategy dismissed an Employee outside the division")
    remove_employees(st, office, 1, cause, trace)


@njit(cache=True, _nrt=False)
def answer_fire(st, move, trace):
    """One of the deciding player's Employees in office ``move`` back to the supply."""
    dismiss(st, st[P_SEAT], st[P_DIVISION], move, st[P_CAUSE], trace)
    st[P_N] += 1


@njit(cache=True, _nrt=False)
def step_actions(st, rules, trace):
    """The action step: the next player's action, or the Department Turn is over: the game ends
    if somebody declared (or at the turn cap), else the next card turns up."""
    players = st[PLAYERS]
    if st[P_K] < players:
        start_action(st, (st[ps.START_SEAT] + st[P_K]) % players, ST_AFTER_ACTION)
        return False
    st[P_OUTCOME] = turn_ends(st, rules, trace)
    st[P_STEP] = ST_END
    if st[P_OUTCOME] == 0:
        st[P_POS] += 1
        st[P_STEP] = ST_TURN
    return False


@njit(cache=True, _nrt=False, inline="always")
def turn_ends(st, rules, trace):
    """After a Department Turn: 1 if somebody declared (the game ends), 2 at the turn cap, else
    0."""
    record_standing(st, trace)
    if st[ENDING] == 1:
        return 1
    if st[DEPT_TURNS] >= np.int64(rules[ps.R_MAX_TURNS]):
        return 2
    return 0


@njit(cache=True, _nrt=False)
def step_after_action(st, rules, trace):
    """A player with the Victory Points at the end of its own action declares."""
    declare_if_due(st, (st[ps.START_SEAT] + st[P_K]) % st[PLAYERS], rules, trace)
    st[P_K] += 1
    st[P_STEP] = ST_ACTIONS
    return False


@njit(cache=True, _nrt=False)
def start_action(st, seat, resume):
    """``seat`` takes an action (D_ACTION); the rules go on with step ``resume``."""
    st[P_ACTOR] = seat
    st[P_RESUME] = resume
    st[P_STEP] = ST_ACTION


@njit(cache=True, _nrt=False)
def answer_action(st, move, trace):
    """Action move (``action_move``: kind and options), carried out; those with further
    decisions go on in their steps."""
    seat = st[P_ACTOR]
    kind, x, y, z, w = action_of(move)
    x, z = action_begins(seat, kind, x, y, z, w, st, trace)
    st[P_X] = x
    st[P_Y] = y
    st[P_Z] = z
    st[P_W] = w
    st[P_N] = 0
    st[P_LIMIT] = x
    st[P_STEP] = st[P_RESUME]
    if action_without_choices(seat, kind, x, y, z, st, trace):
        return
    if kind == ps.A_HIRE:
        st[P_STEP] = ST_HIRE
    elif kind == ps.A_CREATE_TWO:
        st[P_LIMIT] = z + w
        st[P_EXCLUDE] = -1
        st[P_STEP] = ST_CREATE_TWO
    elif kind == ps.A_CREATE_ONE:
        found(st, seat, create_one_office(seat, x, y, z, st, trace), y, st[P_RESUME])
    elif kind == ps.A_BRIBE:
        st[P_ATTEMPT] = 1
        st[P_STEP] = ST_BRIBE
    elif kind == ps.A_INFLUENCE:
        st[P_LIMIT] = 3
        st[P_DIVISION] = -1
        st[P_CAUSE] = ps.E_INFLUENCE
        st[P_STEP] = ST_INFLUENCE
    elif kind == ps.A_DEVELOPMENT:
        st[P_TAKEN] = 0
        st[P_STEP] = ST_DEVELOP
    elif kind == ps.A_LEGAL:
        st[P_DIVISION] = -1
        st[P_CAUSE] = ps.E_LEGAL
        st[P_STEP] = ST_LEGAL


@njit(cache=True, _nrt=False, inline="always")
def action_begins(seat, kind, x, y, z, w, st, trace):
    """Action ``kind`` with its options (ACTION_ARGS), checked and recorded; the kernel fills in
    the Employees a hire, a Human Resources bonus, Development or Legal & Patents give: returns
    (x, z) as filled in. Two Departments from its Employees are checked here too."""
    if not 0 <= kind < ps.N_ACTIONS or not action_possible(st, seat, kind):
        raise ValueError("strategy chose an action it cannot take")
    if kind == ps.A_HIRE:
        x = 2 + motivation_bonus(st, seat, HUMAN_RESOURCES)
    elif kind == ps.A_CREATE_ONE:
        z = motivation_bonus(st, seat, HUMAN_RESOURCES)
    elif kind == ps.A_DEVELOPMENT:
        x = 1 if usable(st, seat, DEVELOPMENT)[1] == 0 else 3
    elif kind == ps.A_LEGAL:
        x = 1 if usable(st, seat, LEGAL)[1] == 0 else 2
    record_event(trace, st, TRACE_LEN, ps.EV_ACTION, seat, kind, x, y, z, w)
    if kind != ps.A_PASS:
        st[stat(seat, S_ACTIONS)] += 1
    if kind == ps.A_CREATE_TWO:
        problem = create_two_problem(st, seat, x, y, z, w)
        if problem == 1:
            raise ValueError("strategy created Departments outside the divisions")
        if problem == 2:
            raise ValueError("strategy created Departments in a division without vacant offices")
        if problem == 3:
            raise ValueError("strategy placed fewer than 2 or more than 7 Employees")
        if problem == 4:
            raise ValueError("strategy placed more Employees than it has")
    return x, z


@njit(cache=True, _nrt=False, inline="always")
def action_without_choices(seat, kind, x, y, z, st, trace):
    """Carry out an action that asks nothing more (move, merge, resign, buy, pass); False for
    the others."""
    if kind == ps.A_MOVE:
        move_offices(seat, x, y, z, st, trace)
    elif kind == ps.A_MERGE:
        merge(seat, x, y, z, st, trace)
    elif kind == ps.A_RESIGN:
        resign(seat, x, y == 1, st, trace)
    elif kind == ps.A_BUY_MAIN:
        check_division(x)
        if not has_vacancy(st, x):
            raise ValueError("strategy bought a Main Department where no office is vacant")
        charge(st, seat, ps.MAIN_PRICE, ps.PAY_MAIN, -1, trace)
        open_office(st, seat, x, 2, 0, ps.O_BUY_MAIN, trace)
        gain(st, seat, ps.MAIN, 1, ps.P_BUY_MAIN, trace)
    elif kind == ps.A_BUY_CONSULTANT:
        check_division(x)
        charge(st, seat, ps.CONSULTANT_PRICE, ps.PAY_CONSULTANT, -1, trace)
        add_consultant(st, seat, x, ps.C_BOUGHT, trace)
    elif kind == ps.A_BUY_SHARES:
        buy_shares(seat, x, y, st, trace)
    else:
        return kind == ps.A_PASS
    return True


@njit(cache=True, _nrt=False, inline="always")
def create_one_office(seat, division, moved, extra, st, trace):
    """B2) a new Department with 1 + ``extra`` (Human Resources) new Employees; ``moved`` of its
    own may follow."""
    check_division(division)
    if not has_vacancy(st, division) or moved < 0:
        raise ValueError("strategy created a Department where no office is vacant")
    return open_office(st, seat, division, 1, 1 + extra, ps.O_CREATE, trace)


@njit(cache=True, _nrt=False, inline="always")
def open_two(seat, first, second, n1, n2, st, trace):
    """B1) the 2 Departments, once their Employees are taken: 1 in each replaced by a Manager."""
    open_office(st, seat, first, 1, n1 - 1, ps.O_CREATE, trace)
    open_office(st, seat, second, 1, n2 - 1, ps.O_CREATE, trace)


@njit(cache=True, _nrt=False)
def step_hire(st):
    """A) the hired Employees (2 plus the Human Resources card's) one by one into offices of its
    choice (D_EMPLOYEE); without room the rest stay in the supply."""
    seat = st[P_ACTOR]
    if st[P_N] < st[P_LIMIT] and room(st, seat) > 0:
        return ask(st, D_EMPLOYEE, seat)
    return action_done(st)


@njit(cache=True, _nrt=False)
def answer_employee(st, move, trace):
    """A new or enticed Employee into office ``move``."""
    st[P_N] += 1
    if st[P_STEP] == ST_HIRE:
        place(st, st[P_SEAT], move, ps.E_HIRE, trace)
    else:
        place(st, st[P_SEAT], move, ps.E_ENTICE_IN, trace)
        st[P_STEP] = ST_DEVELOP


@njit(cache=True, _nrt=False, inline="always")
def place(st, seat, office, cause, trace):
    """A new or enticed Employee into ``seat``'s office ``office``."""
    check_office(st, office, seat, False, True)
    add_employee(st, office, cause, trace)


@njit(cache=True, _nrt=False)
def step_create_two(st, trace):
    """B1) n1 + n2 of its Employees taken one by one (D_SOURCE), then the 2 Departments, 1
    Employee in each replaced by its Manager."""
    seat = st[P_ACTOR]
    if st[P_N] < st[P_LIMIT]:
        return ask(st, D_SOURCE, seat)
    open_two(seat, st[P_X], st[P_Y], st[P_Z], st[P_W], st, trace)
    return action_done(st)


@njit(cache=True, _nrt=False)
def step_influence(st, trace):
    """F1) 3 of its Employees of its choice back to the supply (D_FIRE), 1 Influence point."""
    seat = st[P_ACTOR]
    if st[P_N] < 3:
        return ask(st, D_FIRE, seat)
    gain(st, seat, ps.INFLUENCE, 1, ps.P_INFLUENCE, trace)
    return action_done(st)


@njit(cache=True, _nrt=False)
def step_legal(st, trace):
    """G) Legal & Patents: 1 (Bribed: 2) of its Employees back to the supply while it has any
    (D_FIRE), as many Influence points."""
    seat = st[P_ACTOR]
    if st[P_N] < st[P_LIMIT] and employees(st, seat, -1) > 0:
        return ask(st, D_FIRE, seat)
    gain(st, seat, ps.INFLUENCE, st[P_N], ps.P_LEGAL, trace)
    return action_done(st)


@njit(cache=True, _nrt=False)
def step_develop(st):
    """G) Development: entice 1 (Bribed: 3) Employees, each from another player (at most 1 from
    each) or from the supply (D_ENTICE), into its own offices (D_EMPLOYEE), while it has room."""
    seat = st[P_ACTOR]
    if st[P_N] < st[P_LIMIT] and room(st, seat) > 0:
        return ask(st, D_ENTICE, seat)
    return action_done(st)


@njit(cache=True, _nrt=False)
def answer_entice(st, move, trace):
    """Move 0: from the supply; else from office move - 1."""
    st[P_TAKEN] = entice(st, st[P_SEAT], st[P_TAKEN], move - 1, trace)
    st[P_STEP] = ST_DEVELOP_PLACE


@njit(cache=True, _nrt=False, inline="always")
def entice(st, seat, taken, office, trace):
    """Development takes an Employee of ``office`` (-1: from the supply) for ``seat``; returns
    the players taken from (bit p)."""
    if office < 0:
        return taken
    victim = st[OWNER + office] if office < N_OFFICES else -1
    if victim < 0 or victim == seat or st[EMP + office] == 0:
        raise ValueError("strategy enticed an Employee from an office it may not")
    if (taken >> victim) & 1:
        raise ValueError("strategy enticed twice from the same player")
    remove_employees(st, office, 1, ps.E_ENTICE_OUT, trace)
    return taken | (1 << victim)


@njit(cache=True, _nrt=False)
def step_bribe(st):
    """E) a bribe attempt (D_BRIBE: a card another player holds and Pinats; a second attempt may
    be skipped)."""
    return ask(st, D_BRIBE, st[P_ACTOR])


@njit(cache=True, _nrt=False)
def answer_bribe(st, move, trace):
    """Move 0: no second attempt; else 1 + card + 7 * (Pinats / 50,000 - 1)."""
    seat = st[P_ACTOR]
    attempt = st[P_ATTEMPT]
    if move == 0 and attempt == 2:
        st[P_SECOND] = -1
        st[P_ACCEPTED] = 0
        st[P_N] = 0
        st[P_STEP] = ST_BRIBE_LOSERS
        return
    card = (move - 1) % N_PRIVILEGES if move > 0 else -1
    amount = ((move - 1) // N_PRIVILEGES + 1) * ps.BRIBE_STEP
    st[P_TARGET] = offer_made(seat, attempt, card, amount, st, trace)
    st[P_CARD] = card
    st[P_AMOUNT] = amount
    st[P_STEP] = ST_ACCEPT


@njit(cache=True, _nrt=False, inline="always")
def offer_made(seat, attempt, card, amount, st, trace):
    """A bribe attempt for ``card`` with ``amount`` Pinats, checked; the first gives the briber
    its Corruption point. Returns the target (the card's holder)."""
    if not 0 <= card < N_PRIVILEGES or st[HOLDER + card] == seat:
        raise ValueError("strategy bribed for a Privilege card it holds or that does not exist")
    if amount < ps.MIN_BRIBE or amount % ps.BRIBE_STEP != 0 or amount > st[MONEY + seat]:
        raise ValueError("strategy offered a bribe it cannot pay or below 50,000")
    if attempt == 1:
        gain(st, seat, ps.CORRUPTION, 1, ps.P_BRIBE, trace)
    st[stat(seat, S_BRIBES_OFFERED)] += 1
    return st[HOLDER + card]


@njit(cache=True, _nrt=False)
def answer_accept(st, move, trace):
    """The target accepts the offer (move 1) or declines it (0)."""
    target = st[P_TARGET]
    attempt = st[P_ATTEMPT]
    accepted = move == 1
    offer_answered(st[P_ACTOR], target, st[P_CARD], st[P_AMOUNT], attempt, accepted, st, trace)
    if attempt == 1:
        st[P_FIRST] = target
        st[P_ATTEMPT] = 2
        st[P_STEP] = st[P_RESUME] if accepted else ST_BRIBE
    else:
        st[P_SECOND] = target
        st[P_ACCEPTED] = accepted
        st[P_N] = 0
        st[P_STEP] = ST_BRIBE_LOSERS


@njit(cache=True, _nrt=False, inline="always")
def offer_answered(seat, target, card, amount, attempt, accepted, st, trace):
    """The target's answer; an accepted bribe moves the Pinats and the card (Bribed half) and
    gives the target its Corruption point."""
    record_event(trace, st, TRACE_LEN, ps.EV_BRIBE, seat, target, card, amount, attempt,
                 accepted)  # fmt: skip
    if accepted:
        change_money(st, seat, -amount, ps.PAY_BRIBE, -1, 0, trace)
        change_money(st, target, amount, ps.PAY_BRIBE, -1, 0, trace)
        gain(st, target, ps.CORRUPTION, 1, ps.P_BRIBE, trace)
        st[HOLDER + card] = seat
        st[HALF + card] = 1
        record_event(trace, st, TRACE_LEN, ps.EV_PRIVILEGE, card, seat, 1, st[FACE + card])
        st[stat(seat, S_BRIBES_ACCEPTED)] += 1
        st[stat(target, S_BRIBES_TAKEN)] += 1
        st[ps.BRIBE_COUNT + ps.MAX_PLAYERS * seat + target] += 1
        st[ps.BRIBE_PAID + ps.MAX_PLAYERS * seat + target] += amount


@njit(cache=True, _nrt=False)
def step_bribe_losers(st):
    """Each player who declined (and did not accept the second attempt) loses an Employee of the
    briber's choice (D_VICTIM); declining twice costs one."""
    while st[P_N] < 2:
        loser = bribe_loser(st[P_N], st[P_FIRST], st[P_SECOND], st[P_ACCEPTED] == 1)
        st[P_N] += 1
        if loser >= 0 and employees(st, loser, -1) > 0:
            st[P_LOSER] = loser
            return ask(st, D_VICTIM, st[P_ACTOR])
    return action_done(st)


@njit(cache=True, _nrt=False, inline="always")
def bribe_loser(k, first, second, accepted):
    """The player losing an Employee for the k-th refusal (0: the first attempt's target, 1: the
    second's), or -1: whoever declined and did not accept the second loses one; declining twice
    costs one."""
    loser = first if k == 0 else second
    if loser < 0 or (k == 0 and accepted and second == first) or (k == 1 and accepted):
        return -1
    if k == 1 and loser == first:
        return -1
    return loser


@njit(cache=True, _nrt=False)
def answer_victim(st, move, trace):
    dismiss(st, st[P_LOSER], -1, move, ps.E_BRIBE_LOSS, trace)


@njit(cache=True, _nrt=False)
def step_end(st, rules, trace):
    """The game is over: winners, the seats' statistics, the last snapshot."""
    st[P_WINNER], st[P_WINNERS] = game_over(st, rules, st[P_OUTCOME], trace)
    st[P_STEP] = ST_STOP
    st[P_DECISION] = D_NONE
    st[P_SEAT] = -1
    return True


@njit(cache=True, _nrt=False, inline="always")
def game_over(st, rules, outcome, trace):
    """Winners, the seats' statistics, the last snapshot and the end row: (winner or -1, winners
    bitmask)."""
    players = st[PLAYERS]
    winners, best_vp = winners_of(st, np.int64(rules[ps.R_VICTORY_POINTS]), outcome == 1)
    winner = -1
    n_winners = 0
    for seat in range(players):
        if (winners >> seat) & 1:
            n_winners += 1
            winner = seat
    if n_winners != 1:
        winner = -1
    st[GAME_STATS + G_WINNERS] = n_winners
    for seat in range(players):
        mask = routes(st, seat)
        st[stat(seat, S_VP)] = victory_points(st, seat)
        for r in range(ps.N_ROUTES):
            st[stat(seat, S_VP_INFLUENCE + r)] = (mask >> r) & 1
        st[stat(seat, S_MONEY)] = st[MONEY + seat]
        for which in range(N_TRACKS):
            st[stat(seat, S_INFLUENCE + which)] = st[TRACK + N_TRACKS * seat + which]
        st[stat(seat, S_CONSULTANTS)] = consultants(st, seat)
        st[stat(seat, S_EMPLOYEES)] = employees(st, seat, -1)
        held = st[stat(seat, S_COMM_ROUNDS)]
        st[stat(seat, S_COMM_SHARE)] = 0 if held == 0 else (2 if 2 * held >= st[ROUND] else 1)
    snapshot(st, trace)
    record_event(trace, st, TRACE_LEN, ps.EV_END, winner, st[DEPT_TURNS], outcome == 2,
                 st[ROUND], winners, best_vp)  # fmt: skip
    return winner, winners


@njit(cache=True, _nrt=False)
def run_step(st, rules, rng, trace):
    """Carry out the rules' next step; True once a decision is pending or the game is over."""
    step = st[P_STEP]
    if step == ST_ACTION:
        return ask(st, D_ACTION, st[P_ACTOR])
    if step == ST_AFTER_ACTION:
        return step_after_action(st, rules, trace)
    if step == ST_ACTIONS:
        return step_actions(st, rules, trace)
    if step == ST_HIRE:
        return step_hire(st)
    if step == ST_BRIBE:
        return step_bribe(st)
    if step == ST_ACCEPT:
        return ask(st, D_ACCEPT, st[P_TARGET])
    if step == ST_BRIBE_LOSERS:
        return step_bribe_losers(st)
    if step == ST_TURN:
        return step_turn(st, trace)
    if step == ST_EVENT:
        return step_event(st, trace)
    if step == ST_EFFECT:
        return step_effect(st, trace)
    if step == ST_FOUND:
        return step_found(st)
    if step == ST_CREATE_TWO:
        return step_create_two(st, trace)
    if step == ST_INFLUENCE:
        return step_influence(st, trace)
    if step == ST_LEGAL:
        return step_legal(st, trace)
    if step == ST_DEVELOP:
        return step_develop(st)
    if step == ST_DEVELOP_PLACE:
        return ask(st, D_EMPLOYEE, st[P_ACTOR])
    if step == ST_ORDER:
        return step_order(st, trace)
    if step == ST_SORT:
        return step_sort(st, rng)
    if step == ST_SNAPSHOT:
        snapshot(st, trace)
        st[P_POS] = 0
        st[P_STEP] = ST_TURN
        return False
    if step == ST_MEETING:
        return step_meeting(st, trace)
    if step == ST_CHAIRMAN_CARD:
        return step_chairman_card(st)
    if step == ST_CHAIRMAN_DONE:
        return step_chairman_done(st, trace)
    if step == ST_EXTRA:
        return step_extra(st, trace)
    if step == ST_HEADS_START:
        return step_heads_start(st, trace)
    if step == ST_HEADS:
        return step_heads(st, trace)
    if step == ST_MEETING_END:
        return step_meeting_end(st, trace)
    if step == ST_APPOINT:
        return step_appoint(st)
    if step == ST_END:
        return step_end(st, rules, trace)
    raise ValueError("the rules have no such step")


@njit(cache=True, _nrt=False)
def answer(st, move, trace):
    """Carry out ``move`` for the pending decision (the rules go on with ``run_step``)."""
    st[P_DECISIONS] += 1
    kind = st[P_DECISION]
    if kind == D_ACTION:
        answer_action(st, move, trace)
    elif kind == D_EMPLOYEE:
        answer_employee(st, move, trace)
    elif kind == D_SOURCE:
        answer_source(st, move, trace)
    elif kind == D_FIRE:
        answer_fire(st, move, trace)
    elif kind == D_BRIBE:
        answer_bribe(st, move, trace)
    elif kind == D_ACCEPT:
        answer_accept(st, move, trace)
    elif kind == D_VICTIM:
        answer_victim(st, move, trace)
    elif kind == D_ENTICE:
        answer_entice(st, move, trace)
    elif kind == D_ORDER:
        answer_order(st, move)
    elif kind == D_DISPLACED:
        answer_displaced(st, move, trace)
    elif kind == D_CHAIRMAN:
        answer_chairman(st, move, trace)
    elif kind == D_APPOINT:
        answer_appoint(st, move, trace)
    else:
        raise ValueError("no decision is pending")


# --- the protocol's functions (docs/protocol.md) -----------------------------------------------


@njit(cache=True, _nrt=False)
def new_game(players, st, rules, rng, trace):
    """Set up from the game's stream and run the rules to the first decision."""
    set_up(players, st, rules, rng, trace)
    st[P_K] = 0
    st[P_STEP] = ST_APPOINT
    while not run_step(st, rules, rng, trace):
        pass


@njit(cache=True, _nrt=False)
def apply(st, rules, move, rng, trace):
    """Answer the pending decision with ``move``, then run the rules to the next decision or the
    end (chance from ``rng``)."""
    answer(st, move, trace)
    while not run_step(st, rules, rng, trace):
        pass


@njit(cache=True, _nrt=False)
def to_move(st):
    return st[P_SEAT] if st[P_DECISION] != D_NONE else -1


@njit(cache=True, _nrt=False)
def is_over(st):
    return st[P_DECISION] == D_NONE


@njit(cache=True, _nrt=False)
def returns(st, out):
    """1.0 for each winner (a shared win: each sharer), 0.0 otherwise; all 0 at the turn cap."""
    for seat in range(st[PLAYERS]):
        out[seat] = np.float64((st[P_WINNERS] >> seat) & 1)


@njit(cache=True, _nrt=False)
def push(moves, n, move):
    if n >= moves.shape[0]:
        raise ValueError("more options than the move buffer holds (MAX_MOVES)")
    moves[n] = move
    return n + 1


@njit(cache=True, _nrt=False)
def legal(st, rules, moves):
    """The options of the pending decision (move codes, DECISION_KINDS in
    docs/games/power-struggle.md) into ``moves``; their number."""
    kind = st[P_DECISION]
    seat = st[P_SEAT]
    n = 0
    if kind == D_ACTION:
        return action_moves(st, seat, moves)
    if kind == D_EMPLOYEE or kind == D_SOURCE or kind == D_FIRE or kind == D_VICTIM:
        owner = st[P_LOSER] if kind == D_VICTIM else seat
        for office in range(N_OFFICES):
            if not office_ok(st, office, owner, kind != D_EMPLOYEE, kind == D_EMPLOYEE):
                continue
            if kind == D_SOURCE and office == st[P_EXCLUDE]:
                continue
            if kind == D_FIRE and st[P_DIVISION] >= 0 and office // ROWS != st[P_DIVISION]:
                continue
            n = push(moves, n, office)
        return n
    if kind == D_BRIBE:
        if st[P_ATTEMPT] == 2:
            n = push(moves, n, 0)
        for card in range(N_PRIVILEGES):
            if st[HOLDER + card] != seat:
                for k in range(st[MONEY + seat] // ps.BRIBE_STEP):
                    n = push(moves, n, 1 + card + N_PRIVILEGES * k)
        return n
    if kind == D_ACCEPT or kind == D_DISPLACED:
        n = push(moves, n, 0)
        return push(moves, n, 1)
    if kind == D_ENTICE:
        n = push(moves, n, 0)
        for office in range(N_OFFICES):
            if enticeable(st, office, seat, st[P_TAKEN]):
                n = push(moves, n, office + 1)
        return n
    if kind == D_ORDER:
        for i in range(ORDER_SIZE):
            if order_pick_ok(st, order_candidate(st, i)):
                n = push(moves, n, order_candidate(st, i))
        return n
    if kind == D_APPOINT or kind == D_CHAIRMAN:
        n = push(moves, n, 0)
        most = 0
        if kind == D_CHAIRMAN and st[HALF + CHAIRMAN] == 0:
            most = min(employees(st, seat, -1), MAX_EMPLOYEES - 1)
        for moved in range(most + 1):
            for division in range(N_DIVISIONS):
                if has_vacancy(st, division):
                    n = push(moves, n, 1 + division + N_DIVISIONS * moved)
        return n
    return n


@njit(cache=True, _nrt=False)
def action_moves(st, seat, moves):
    """Every legal action with its options (``action_ok``), in the order of ACTIONS."""
    n = 0
    for kind in range(ps.N_ACTIONS):
        if not action_possible(st, seat, kind):
            continue
        if kind == ps.A_CREATE_TWO:
            for x in range(N_DIVISIONS):
                for y in range(N_DIVISIONS):
                    for z in range(2, MAX_EMPLOYEES + 2):
                        for w in range(2, MAX_EMPLOYEES + 2):
                            if create_two_problem(st, seat, x, y, z, w) == 0:
                                n = push(moves, n, action_move(kind, x, y, z, w))
        elif kind == ps.A_CREATE_ONE:
            for x in range(N_DIVISIONS):
                if has_vacancy(st, x):
                    for y in range(min(employees(st, seat, -1), MAX_EMPLOYEES - 1) + 1):
                        n = push(moves, n, action_move(kind, x, y, 0, 0))
        elif kind == ps.A_MOVE or kind == ps.A_MERGE:
            for x in range(N_OFFICES):
                if st[OWNER + x] != seat:
                    continue
                for y in range(-1 if kind == ps.A_MOVE else 0, N_OFFICES):
                    if y >= 0 and (st[OWNER + y] != seat or st[HEADS + y] != 1):
                        continue
                    for z in range(-1 if kind == ps.A_MERGE else 0, N_DIVISIONS):
                        if kind == ps.A_MOVE:
                            ok = move_problem(st, seat, x, y, z) == 0
                        else:
                            ok = merge_problem(st, seat, x, y, z) == 0
                        if ok:
                            n = push(moves, n, action_move(kind, x, y, z, 0))
        elif kind == ps.A_BUY_SHARES:
            for x in range(N_SIZES + 1):
                for y in range(1, N_SIZES + 1):
                    if share_option_ok(st, seat, x, y):
                        n = push(moves, n, action_move(kind, x, y, 0, 0))
        elif kind == ps.A_RESIGN or kind == ps.A_BUY_MAIN or kind == ps.A_BUY_CONSULTANT:
            for x in range(N_DIVISIONS):
                for y in range(2 if kind == ps.A_RESIGN else 1):
                    if action_ok(st, seat, kind, x, y, 0, 0):
                        n = push(moves, n, action_move(kind, x, y, 0, 0))
        else:
            n = push(moves, n, action_move(kind, 0, 0, 0, 0))
    return n


@njit(cache=True, _nrt=False)
def mix(h, value):
    """FNV-1a step over one int64 (its low 63 bits)."""
    return (h ^ np.uint64(value & 0x7FFFFFFFFFFFFFFF)) * np.uint64(1099511628211)


@njit(cache=True, _nrt=False)
def order_known(st, seat):
    """How many places of the round's event order ``seat`` knows."""
    if st[ps.SORTER] != seat:
        return st[ps.REVEALED]
    return st[P_N] if st[P_STEP] == ST_ORDER else ORDER_SIZE


@njit(cache=True, _nrt=False)
def infoset_key(st, seat):
    """A hash of what ``seat`` observes now: everything but what ``determinize`` redraws for it
    (other undeclared players' Archenemy cards, the Pinats of bribes it was not party to, the
    event cards it has not seen, the deck's order) and the strategies' scratch. Other players'
    money enters as ``money_seen``. The data file's tables are constant in a game: left out."""
    h = mix(np.uint64(14695981039346656037), seat)
    for i in range(TRACK_MAX):
        h = mix(h, st[i])
    players = st[PLAYERS]
    for p in range(players):
        h = mix(h, ps.money_seen(st, seat, p))
    for i in range(TRACK, COLOUR_CARD):
        h = mix(h, st[i])
    for p in range(players):
        if p == seat or st[DECLARED + p] == 1:
            h = mix(h, st[COLOUR_CARD + p])
            h = mix(h, st[COMP_OF + p])
    for i in range(DECLARED, PILE):
        h = mix(h, st[i])
    if st[ps.SORTER] == seat:
        for i in range(ORDER_SIZE - 2):
            h = mix(h, st[PILE + i])
    for position in range(order_known(st, seat)):
        h = mix(h, st[ORDER + position])
    for i in range(ps.SORTER, ps.BRIBE_PAID):
        h = mix(h, st[i])
    for a in range(players):
        for b in range(players):
            if a == seat or b == seat:
                h = mix(h, st[ps.BRIBE_PAID + ps.MAX_PLAYERS * a + b])
    for i in range(GAME_STATS, P_AMOUNT):
        h = mix(h, st[i])
    if seat == st[P_ACTOR] or seat == st[P_TARGET]:
        h = mix(h, st[P_AMOUNT])
    for i in range(P_AMOUNT + 1, P_ORDER_POLICY):
        h = mix(h, st[i])
    for i in range(P_OUTCOME, P_DECISIONS):
        h = mix(h, st[i])
    return mix(h, st[P_THEN])


# --- scripted play: the same rules as a straight line --------------------------------------------
# The steps above stop at every decision; played through them, scripted games ran at 0.66x the
# games/s of this straight-line flow (docs/performance.md). So scripted games ask the
# strategies directly, in loops over the very same rule helpers the steps call (appoint,
# move_in, dismiss, place, entice, offer_made, offer_answered, action_begins, ...);
# tests/test_power_struggle_protocol.py proves the two flows play the same games.


@njit(cache=True, _nrt=False)
def initial_appointments(st, sids, prm, rng, trace):
    for k in range(3 * st[PLAYERS]):
        seat = appointing_seat(st, k)
        division = strategy.choose_appointment(sids[seat], prm, seat, st, rng)
        appoint(st, seat, k // st[PLAYERS], division, trace)


@njit(cache=True, _nrt=False, inline="always")
def fill_new_department(st, seat, office, moved, sids, prm, rng, trace):
    """Up to ``moved`` of ``seat``'s Employees into its new Department ``office``."""
    for _ in range(moved):
        if not can_move_in(st, seat, office):
            break
        source = strategy.choose_source_office(sids[seat], prm, seat, office, st, rng)
        office = move_in(st, seat, office, source, trace)
    return office


@njit(cache=True, _nrt=False)
def chairman_privilege(st, rules, sids, prm, rng, trace):
    holder = st[HOLDER + CHAIRMAN]
    if holder < 0 or st[FACE + CHAIRMAN] == 0:
        return
    half = st[HALF + CHAIRMAN]
    st[SCRATCH + 1] = 0
    division = strategy.choose_chairman_privilege(sids[holder], prm, holder, half, st, rng)
    if division < 0:
        return
    office = chairman_card_office(st, holder, division, trace)
    if half == 0:
        office = fill_new_department(st, holder, office, st[SCRATCH + 1], sids, prm, rng, trace)
    chairman_card_used(st, division, office, trace)


@njit(cache=True, _nrt=False)
def appoint_heads(st, sids, prm, rng, trace):
    for division in range(N_DIVISIONS):
        new, by_card = new_head(st, division)
        old = st[HEAD + division]
        if old >= 0 and old != new:
            to = strategy.choose_displaced(sids[old], prm, old, division, st, rng)
            displace(st, old, division, to, trace)
            seat_head(st, division, new, old, 2, to, by_card, trace)
        else:
            seat_head(st, division, new, old, 0 if old < 0 else 1, -1, by_card, trace)


@njit(cache=True, _nrt=False)
def sort_events(st, rules, sids, prm, rng, trace):
    draw_events(st, rng)
    sorter = st[ps.SORTER]
    policy = strategy.order_events(sids[sorter], prm, sorter, st, rng)
    for position in range(ORDER_SIZE):  # the order the steps would take place by place
        st[P_N] = position
        if not order_pick_ok(st, st[ORDER + position]):
            raise ValueError("strategy's event order breaks the two ordering rules")
    st[P_N] = ORDER_SIZE
    order_recorded(st, policy, trace)


@njit(cache=True, _nrt=False)
def meeting(st, rules, sids, prm, rng, trace):
    """Stage I: the Directors' Meeting's 7 steps."""
    if meeting_begins(st, trace):
        chairman_privilege(st, rules, sids, prm, rng, trace)
        holder = extra_action_holder(st, trace)
        if holder >= 0:
            take_action(holder, st, sids, prm, rng, trace)
    appoint_chairman(st, trace)
    appoint_heads(st, sids, prm, rng, trace)
    meeting_ends(st, trace)
    sort_events(st, rules, sids, prm, rng, trace)
    snapshot(st, trace)


@njit(cache=True, _nrt=False)
def apply_event(event, position, st, sids, prm, rng, trace):
    """The event step of the non-standard event ``event``."""
    base = EVENT_FX + EVENT_WIDTH * event
    record_event(trace, st, TRACE_LEN, ps.EV_EVENT, event, position, st[base])
    for k in range(st[base]):
        fx = base + 1 + ps.FX_FIELDS * k
        if st[fx] != ps.FX_LOSE:
            effect_without_choice(st, event, fx, trace)
            continue
        richest, poorest = money_range(st)
        division = st[fx + 4]
        for seat in range(st[PLAYERS]):
            if not ps.matches(st, seat, st[fx + 1], division, st[MONEY + seat], richest, poorest):
                continue
            for _ in range(st[fx + 3]):
                if employees(st, seat, division) == 0:
                    break
                office = strategy.choose_fire_office(sids[seat], prm, seat, division, st, rng)
                dismiss(st, seat, division, office, ps.E_EVENT, trace)


@njit(cache=True, _nrt=False)
def take_action(seat, st, sids, prm, rng, trace):
    """One action of ``seat`` (its strategy's choice, checked, then carried out)."""
    for k in range(5):
        st[SCRATCH + k] = 0
    kind = strategy.choose_action(sids[seat], prm, seat, st, rng)
    x = st[SCRATCH + 1]
    y = st[SCRATCH + 2]
    z = st[SCRATCH + 3]
    w = st[SCRATCH + 4]
    carry_out(seat, kind, x, y, z, w, st, sids, prm, rng, trace)


@njit(cache=True, _nrt=False)
def carry_out(seat, kind, x, y, z, w, st, sids, prm, rng, trace):
    """Action ``kind`` of ``seat`` with its options; its further choices by the strategies."""
    x, z = action_begins(seat, kind, x, y, z, w, st, trace)
    if action_without_choices(seat, kind, x, y, z, st, trace):
        return
    if kind == ps.A_HIRE or kind == ps.A_DEVELOPMENT:
        taken = 0
        for _ in range(x):
            if room(st, seat) == 0:
                break  # the rest stay in the supply
            cause = ps.E_HIRE
            if kind == ps.A_DEVELOPMENT:
                office = strategy.choose_entice(sids[seat], prm, seat, taken, st, rng)
                taken = entice(st, seat, taken, office, trace)
                cause = ps.E_ENTICE_IN
            office = strategy.choose_employee_office(sids[seat], prm, seat, st, rng)
            place(st, seat, office, cause, trace)
    elif kind == ps.A_CREATE_TWO:
        for _ in range(z + w):
            source = strategy.choose_source_office(sids[seat], prm, seat, -1, st, rng)
            dismiss(st, seat, -1, source, ps.E_TRANSFER_OUT, trace)
        open_two(seat, x, y, z, w, st, trace)
    elif kind == ps.A_CREATE_ONE:
        office = create_one_office(seat, x, y, z, st, trace)
        fill_new_department(st, seat, office, y, sids, prm, rng, trace)
    elif kind == ps.A_BRIBE:
        bribe(seat, st, sids, prm, rng, trace)
    else:  # Influence (3 Employees for a point), Legal & Patents (1 or 2, a point each)
        dismissed = 0
        cause = ps.E_INFLUENCE if kind == ps.A_INFLUENCE else ps.E_LEGAL
        for _ in range(3 if kind == ps.A_INFLUENCE else x):
            if employees(st, seat, -1) == 0:
                break
            office = strategy.choose_fire_office(sids[seat], prm, seat, -1, st, rng)
            dismiss(st, seat, -1, office, cause, trace)
            dismissed += 1
        if kind == ps.A_INFLUENCE:
            gain(st, seat, ps.INFLUENCE, 1, ps.P_INFLUENCE, trace)
        else:
            gain(st, seat, ps.INFLUENCE, dismissed, ps.P_LEGAL, trace)


@njit(cache=True, _nrt=False)
def bribe(seat, st, sids, prm, rng, trace):
    """E) up to two attempts, then the Employees lost for refusals."""
    first = -1
    second = -1
    accepted = False
    for attempt in range(1, 3):
        card, amount = strategy.choose_bribe(sids[seat], prm, seat, attempt, st, rng)
        if card < 0 and attempt == 2:
            break
        target = offer_made(seat, attempt, card, amount, st, trace)
        accepted = strategy.accept_bribe(sids[target], prm, target, seat, card, amount, st, rng)
        offer_answered(seat, target, card, amount, attempt, accepted, st, trace)
        if attempt == 1:
            first = target
            if accepted:
                return
        else:
            second = target
    for k in range(2):
        loser = bribe_loser(k, first, second, accepted)
        if loser >= 0 and employees(st, loser, -1) > 0:
            office = strategy.choose_victim_office(sids[seat], prm, seat, loser, st, rng)
            dismiss(st, loser, -1, office, ps.E_BRIBE_LOSS, trace)


@njit(cache=True, _nrt=False)
def department_turns(st, rules, sids, prm, rng, trace):
    """Stage II until the meeting card (0), a declaration ends the game (1) or the turn cap
    (2)."""
    players = st[PLAYERS]
    for position in range(ORDER_SIZE):
        event = turn_begins(st, position, trace)
        if event == st[MEETING_EVENT]:
            return 0
        if event != st[ps.BONUS_EVENT]:
            apply_event(event, position, st, sids, prm, rng, trace)
        for k in range(players):
            seat = (st[ps.START_SEAT] + k) % players
            take_action(seat, st, sids, prm, rng, trace)
            declare_if_due(st, seat, rules, trace)
        outcome = turn_ends(st, rules, trace)
        if outcome != 0:
            return outcome
    return 0


@njit(cache=True, _nrt=False)
def play_game(players, st, rules, sids, prm, rng, trace):
    """Set up and play one game: (winner or -1, winners bitmask, Department Turns, truncated)."""
    set_up(players, st, rules, rng, trace)
    initial_appointments(st, sids, prm, rng, trace)
    outcome = 0
    while outcome == 0:
        meeting(st, rules, sids, prm, rng, trace)
        outcome = department_turns(st, rules, sids, prm, rng, trace)
    winner, winners = game_over(st, rules, outcome, trace)
    return winner, winners, st[DEPT_TURNS], outcome == 2


# --- lineups with a searching seat (``ismcts``, docs/ismcts.md) --------------------------------
# The search is compiled against the protocol functions above
# (simcore/games/power_struggle/search.py
# imports them from here), so it is imported after them.
from simcore.games.power_struggle import search as power_struggle_search  # noqa: E402


@njit(cache=True)
def play_searching_game(players, st, rules, sids, prm, rng, trace):
    """``play_game`` for a lineup with a searching seat (the search allocates its tree, so this
    one may allocate: the scripted path may not)."""
    new_game(players, st, rules, rng, trace)
    while st[P_DECISION] != D_NONE:
        seat = st[P_SEAT]
        move = power_struggle_search.choose(sids, prm, seat, st, rules, rng)
        apply(st, rules, move, rng, trace)
    return st[P_WINNER], st[P_WINNERS], st[DEPT_TURNS], st[P_OUTCOME] == 2


@njit(cache=True, nogil=True)
def bench_protocol(rules, players, lineup_ids, lineup_params, seed, n_games):
    """``n_games`` games through the protocol (``powerlab bench``): (decisions answered,
    searches run: decisions of a searching seat with more than one option)."""
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    sids = np.zeros(players, dtype=np.int64)
    prm = np.zeros((players, lineup_params.shape[1]), dtype=np.float64)
    rng = np.zeros(4, dtype=np.uint64)
    moves = np.zeros(ps.MAX_MOVES, dtype=np.int64)
    no_trace = np.zeros((0, TRACE_WIDTH), dtype=np.int64)
    labels = np.zeros((1, players, N_STANDARD_SEAT_COLUMNS), dtype=np.int64)
    decisions = 0
    searches = 0
    for game_index in range(n_games):
        seat_lineup(lineup_ids, lineup_params, game_index, players, True, sids, prm, labels, 0)
        seed_game_stream(seed, game_index, rng)
        new_game(players, st, rules, rng, no_trace)
        while st[P_DECISION] != D_NONE:
            seat = st[P_SEAT]
            searches += sids[seat] == SEARCH_ID and legal(st, rules, moves) > 1
            apply(st, rules, power_struggle_search.choose(sids, prm, seat, st, rules, rng), rng,
                  no_trace)  # fmt: skip
        decisions += st[P_DECISIONS]
    return decisions, searches


@njit(cache=True, _nrt=False)
def write_row(players, winner, winners, turns, truncated, st, g, game_out, seat_out):
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


@njit(cache=True, _nrt=False)
def play_indexed(
    players, lineup_ids, lineup_params, seed, game_index, rotate,
    st, rules, sids, prm, rng, trace, g, game_out, seat_out,
):  # fmt: skip
    """Seat the lineup for ``game_index``, play it from its own stream, write row ``g``."""
    seat_lineup(lineup_ids, lineup_params, game_index, players, rotate, sids, prm, seat_out, g)
    seed_game_stream(seed, game_index, rng)
    winner, winners, turns, truncated = play_game(players, st, rules, sids, prm, rng, trace)
    write_row(players, winner, winners, turns, truncated, st, g, game_out, seat_out)


@njit(cache=True)
def play_indexed_searching(
    players, lineup_ids, lineup_params, seed, game_index, rotate,
    st, rules, sids, prm, rng, trace, g, game_out, seat_out,
):  # fmt: skip
    """``play_indexed`` for a lineup with a searching seat."""
    seat_lineup(lineup_ids, lineup_params, game_index, players, rotate, sids, prm, seat_out, g)
    seed_game_stream(seed, game_index, rng)
    winner, winners, turns, truncated = play_searching_game(
        players, st, rules, sids, prm, rng, trace
    )
    write_row(players, winner, winners, turns, truncated, st, g, game_out, seat_out)


FIRST_TRACE_ROWS = 8192  # a longer game is played again with a bigger buffer

CHUNKS = chunk.GameChunks(
    __name__,
    play=play_indexed,
    play_searching=play_indexed_searching,
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
            lines.append(f"   seat {a} sorts the events ({ps.ORDER_POLICIES[c]}): {b} "
                         "Department Turns")  # fmt: skip
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
