"""Time Barons (../shared/rules/time-barons.md): a data-driven card kernel over plain state arrays.

The 50 level cards are not in the rulebook: they are data (a TOML card file, the rule parameter
``cards``), whose effects come from the vocabulary of ``simcore/games/time_barons/state.py`` and
docs/games/time-barons.md. Every choice the rulebook leaves open is a rule parameter below or a
documented convention there. Decisions come from ``strategies/time_barons.py``; this module only
applies rules.
"""

import hashlib
import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numba import njit

from simcore.games.time_barons.state import (
    A_COST,
    A_EFFECTS,
    A_FOLLOWERS,
    A_HARMFUL,
    A_INFINITE,
    A_N_EFFECTS,
    A_TRIGGER,
    ABILITY,
    ABILITY_SITES,
    ABILITY_SITES_N,
    ABILITY_WIDTH,
    ACTIONS,
    ACTIVE,
    ANSWERS,
    ARRANGE,
    ATTACHMENT,
    ATTACK,
    ATTACK_ABILITY,
    C_ABILITIES,
    C_COST,
    C_EFFECTS,
    C_FORTIFIED,
    C_HARMFUL,
    C_INTEGRITY,
    C_LEVEL,
    C_MAX_FOLLOWERS,
    C_N_ABILITIES,
    C_N_EFFECTS,
    C_TRIGGER,
    C_TYPE,
    CANCELLED,
    CARD_LEVEL,
    CARD_WIDTH,
    D_ARRANGE,
    D_MOVE,
    D_NONE,
    D_RECOVER,
    D_RESPONSE,
    D_SITE,
    D_STACK,
    DAMAGE,
    DECAY,
    DECK,
    DISABLE,
    DISCARD,
    DISCARD_N,
    DRAW,
    DRAW_ACTION,
    DRAW_EFFECT,
    DRAW_SETUP,
    E_ACTIONS,
    E_CANCEL,
    E_DAMAGE,
    E_DAMAGE_EACH,
    E_DECAY,
    E_DESTROY,
    E_DISABLE,
    E_DISCARD,
    E_DRAW,
    E_FORTIFY,
    E_GAIN,
    E_INTEGRITY,
    E_KILL,
    E_KILL_EVERYWHERE,
    E_RECOVER,
    E_RELOCATE,
    E_REPAIR,
    E_SACRIFICE,
    E_START_ACTIONS,
    E_START_GAIN,
    E_STEAL,
    END,
    END_REASONS,
    END_STACKS,
    END_TURN_CAP,
    END_WIPEOUT,
    EV_ARRANGE,
    EV_ATTACH,
    EV_CANCEL,
    EV_DAMAGE,
    EV_DESTROY,
    EV_DISCARD,
    EV_DRAW,
    EV_EFFECT,
    EV_END,
    EV_END_TURN,
    EV_KILL,
    EV_MOVE,
    EV_PLACE,
    EV_RECOVER,
    EV_REPAIR,
    EV_RESPONSE,
    EV_SETUP,
    EV_SNAPSHOT,
    EV_STANDING,
    EV_TABLE,
    EV_TARGET,
    EV_TURN,
    EVENT_NAMES,
    FIRST,
    FIRST_ATTACHMENT_OP,
    FIRST_PASSIVE_OP,
    FIRST_PLAYER_RANDOM,
    FOLLOW,
    FORTIFY,
    FROM_HAND,
    FROM_PLAY,
    GAIN,
    GONE,
    HAND,
    HAND_N,
    HARMFUL_OPS,
    HOMELAND,
    HOST,
    IN_DISCARD,
    IN_HAND,
    IN_PLAY,
    IN_STACK,
    INTEGRITY_MOD,
    LEVEL,
    LOC,
    MAX_ABILITIES,
    MAX_CARDS,
    MAX_EFFECTS,
    MAX_IDS,
    MAX_MOVES,
    MOVES,
    N_FOLLOWERS,
    N_LEVELS,
    N_MOVE_KINDS,
    N_SEAT_STATS,
    NO_ATTACK,
    NO_BOUND,
    NO_TARGET,
    NO_TYPE,
    ON_ATTACK,
    ON_RELOCATE,
    ON_SITE,
    ON_UPGRADE,
    OPS,
    OVER,
    OWNER,
    P_AMOUNT,
    P_ARR_AFTER,
    P_ARR_I,
    P_ARR_LEFT,
    P_ARR_SEAT,
    P_ARRANGE,
    P_ATTACK_AFTER,
    P_CANCELLED,
    P_DECISION,
    P_DECISIONS,
    P_DECLARE_K,
    P_MOVE_A,
    P_MOVE_B,
    P_MOVE_KIND,
    P_MOVES_LEFT,
    P_OP,
    P_PICK_N,
    P_PURPOSE,
    P_REACT_CARD,
    P_REASON,
    P_RES_AFTER,
    P_RES_BASE,
    P_RES_DECLARED,
    P_RES_K,
    P_RES_N,
    P_RES_SEAT,
    P_RES_SOURCE,
    P_SEAT,
    P_STEAL_FROM,
    P_STEP,
    P_TRIGGER,
    P_TURNS,
    P_UNITS,
    P_WINDOW_AFTER,
    P_WINDOW_LEFT,
    P_WINNER,
    PASS,
    PICK_DAMAGE,
    PICK_DESTROY,
    PICK_KILL,
    PICK_PLACE,
    PICK_REPAIR,
    PICK_SACRIFICE,
    PICK_STEAL,
    PLAY,
    POOL,
    PROTOCOL,
    R_ACTIONS,
    R_ATTACK_TARGETS,
    R_DAMAGE_COUNTERS,
    R_FIRST_PLAYER,
    R_FIRST_TURN_ACTIONS,
    R_FOLLOWERS,
    R_HAND,
    R_MAX_TURNS,
    R_STACKS_TO_END,
    R_STARTING_FOLLOWERS,
    REACT,
    RELOCATE,
    REQUIRE,
    RESPONDED,
    S_FINGERPRINT,
    S_LEVEL_COUNT,
    S_N_CARDS,
    SET_ROW,
    SHOWN,
    SITE,
    SITE_DISCOUNT,
    SITES,
    SITES_BOUND,
    SITES_N,
    SPARE,
    ST_DAMAGE,
    ST_DESTROYED,
    ST_DRAWN,
    ST_DRAWN_MASK,
    ST_FOLLOWERS,
    ST_KILLS,
    ST_LEVEL,
    ST_PLAYED,
    ST_PLAYED_MASK,
    ST_SITES,
    STACK_END,
    STACK_TOP,
    STATE_SIZE,
    STATS,
    SUPPLY,
    TARGETS,
    TARGETS_DECLARED,
    THREAT_N,
    TRACE_LEN,
    TRACE_WIDTH,
    TRIGGERED,
    TRIGGERS,
    TURN,
    TYPES,
    UNUSED,
    UPGRADE,
    UPGRADE_DISCOUNT,
    USED,
    VALUE_BOUND,
    answers,
    can_draw,
    decode,
    empty_stacks,
    followers,
    hand_card,
    hand_n,
    has_own_turn_ability,
    integrity,
    is_candidate,
    is_disabled,
    is_fortified,
    may_answer,
    move_code,
    move_cost,
    move_is_legal,
    nth_move,
    response_code,
    response_is_legal,
    site_at,
    site_discount,
    sites_n,
    spare_on,
    stack_left,
)
from simcore.kernel import chunk
from simcore.kernel.chunk import (
    ENDED_BY,
    ENDED_CAP,
    ENDED_DRAW,
    ENDED_RULES,
    N_STANDARD_GAME_COLUMNS,
    N_STANDARD_SEAT_COLUMNS,
    TURNS,
    WINNER,
    WON,
    record_event,
    seat_lineup,
)
from simcore.kernel.intrinsics import ix
from simcore.kernel.rng import _splitmix64_mix, rand_below, seed_game_stream
from simcore.registry import (
    SEARCH_PARAM_NAMES,
    Arcs,
    CardImpact,
    Column,
    Game,
    Param,
    SpecError,
    search_strategy,
)
from simcore.workflows import files
from strategies import time_barons as strategy

SHIPPED_CARDS = Path(__file__).parent / "data" / "time_barons_cards.toml"
MOVE_CAP = 200  # moves per turn, and responses per window: a card set that loops ends the turn

RULES = (
    Param(
        "cards",
        "path",
        "",
        "the card file (TOML, format in docs/games/time-barons.md); empty: the shipped sample set",
        shipped="time_barons_cards.toml",
    ),
    Param(
        "first_turn_actions",
        "int",
        2,
        "actions of the first player's first turn (the rulebook: 2)",
        0,
        20,
    ),
    Param("actions_per_turn", "int", 3, "actions at the start of every other turn", 1, 20),
    Param("starting_followers", "int", 10, "followers on each Homeland at set-up", 1, 100),
    Param(
        "followers",
        "int",
        35,
        "follower tokens in all (the rest of set-up is the limited supply)",
        2,
        1000,
    ),
    Param("hand_size", "int", 5, "Level I cards each player draws at set-up", 0, 30),
    Param("upgrade_cost_2", "int", 2, "actions to upgrade from Level I to Level II", 1, 20),
    Param("upgrade_cost_3", "int", 3, "actions to upgrade from Level II to Level III", 1, 20),
    Param("upgrade_cost_4", "int", 4, "actions to upgrade from Level III to Level IV", 1, 20),
    Param(
        "damage_counters",
        "int",
        20,
        "damage counters in the game: damage beyond what is left places none (kills still happen)",
        0,
        10_000,
    ),
    Param(
        "stacks_to_end",
        "int",
        3,
        "the game ends when this many of the 4 level stacks are empty at the end of a turn",
        1,
        4,
    ),
    Param(
        "first_player",
        "choice",
        "seat0",
        "who moves first: seat 0 (with seat rotation, each lineup entry moves first equally "
        "often) or a random seat per game",
        choices=("seat0", "random"),
    ),
    Param(
        "max_turns",
        "int",
        300,
        "turn cap: a game still running is recorded as truncated",
        1,
        100_000,
    ),
    Param(
        "attack_targets",
        "choice",
        "declared",
        "when an attack's sites (damage, destroy) are chosen: named when it is declared, before "
        "the attacked player's responses, or on resolution, after them",
        choices=("declared", "on_resolution"),
    ),
)

SEAT_COLUMNS = (
    Column("level", "tech level at the end (1-4)", "int8"),
    Column("followers", "followers on the seat's sites at the end", "int16"),
    Column("sites", "sites in play at the end (the Homeland included)", "int16"),
    Column("cards_drawn", "cards that entered the hand (dealt, drawn, recovered)", "int16"),
    Column("cards_played", "cards played from the hand (reactions included)", "int16"),
    Column("damage_dealt", "damage the seat's cards did to opponent sites", "int16"),
    Column("kills", "opponent followers the seat's cards killed", "int16"),
    Column("sites_destroyed", "opponent sites the seat's cards destroyed", "int16"),
    Column("drawn_mask", "bit k set: level card k entered the seat's hand", "int64"),
    Column("played_mask", "bit k set: the seat played level card k", "int64"),
)
assert len(SEAT_COLUMNS) == N_SEAT_STATS
GAME_COLUMNS = (
    Column("first_player", "seat that took the first turn", "int8"),
    Column("end", "what ended the game", "int8", END_REASONS),
)
FIRST_PLAYER_COLUMN = N_STANDARD_GAME_COLUMNS
END_COLUMN = N_STANDARD_GAME_COLUMNS + 1


def card_labels(rules: dict) -> tuple[str, ...]:
    """The level cards' names in id order, made unique (``Name (2)``) for the card-impact tables."""
    cards = load_cards(rules["cards"])
    labels = []
    for name in cards.names[: cards.table[SET_ROW, S_N_CARDS]]:
        count = sum(1 for label in labels if label == name or label.startswith(f"{name} ("))
        labels.append(name if count == 0 else f"{name} ({count + 1})")
    return tuple(labels)


# The standing per seat (game arcs, docs/arcs.md): recorded by ``record_standing``.
ARCS = Arcs(
    unit="turn",
    standing=(
        Column(
            "followers", "followers on the seat's sites (the most wins when the stacks run out)"
        ),
        Column("level", "tech level (1-4; the tie-break on followers)"),
    ),
    event=EV_STANDING,
)

GAME = Game(
    id="time-barons",
    title="Time Barons",
    min_players=2,
    max_players=2,
    rules=RULES,
    strategies=strategy.STRATEGIES,
    strategy_param_names=strategy.PARAM_NAMES + SEARCH_PARAM_NAMES,
    default_strategy="builder",
    game_columns=GAME_COLUMNS,
    seat_columns=SEAT_COLUMNS,
    card_impact=(CardImpact("level card", "drawn_mask", "played_mask", card_labels),),
    arcs=ARCS,
    module=__name__,
    doc="two time-travelling barons build sites, grow followers and tear each other down; "
    "the cards are data",
    rulebook="time-barons.md",
    # Rollouts by the 2-player meta-game's equilibrium (docs/games/time-barons.md).
    search=search_strategy("time-barons", strategy.STRATEGIES, "preset:swarm-vs-builder"),
)


# --- the card file --------------------------------------------------------------------------

CARD_KEYS = ("name", "level", "type", "cost", "integrity", "fortified", "trigger", "effects")
SITE_KEYS = ("passives", "abilities")
ABILITY_KEYS = ("followers", "cost", "infinite", "trigger", "effects")
WHERE_OPS = {
    "action": "an effect of an event, ability or reaction",
    "attachment": "an attachment's effect",
    "passive": "a site's passive",
}
NO_AMOUNT_OPS = ("destroy", "relocate", "cancel", "fortify", "disable")
MAX_AMOUNT = 20


@dataclass(frozen=True)
class CardSet:
    """A parsed card file: ``names[card id]`` ("" for unused ids) and the card table."""

    path: str
    names: tuple[str, ...]
    table: np.ndarray

    @property
    def fingerprint(self) -> int:
        return int(self.table[SET_ROW, S_FINGERPRINT])


_NAMES_BY_FINGERPRINT: dict[int, tuple[str, ...]] = {}  # for describe_trace (see there)


def load_cards(path_text: str) -> CardSet:
    """Read and check a card file ("" = the shipped sample); every mistake is one SpecError line
    naming the file, the card and the field."""
    path = Path(path_text) if path_text else SHIPPED_CARDS
    try:
        data = tomllib.loads(files.read_text(path, "card file"))
    except (tomllib.TOMLDecodeError, RecursionError) as error:
        raise SpecError(f"{path}: not a valid TOML card file ({error})") from None
    unknown = sorted(set(data) - {"set", "homeland", "card"})
    if unknown:
        raise SpecError(
            f"{path}: unknown top-level key {unknown[0]!r} (expected set, homeland, card)"
        )
    if not isinstance(data.get("homeland"), dict):
        raise SpecError(f"{path}: no [homeland] table")
    entries = data.get("card", [])
    if not isinstance(entries, list) or not entries:
        raise SpecError(f"{path}: no [[card]] entries")
    if len(entries) > MAX_CARDS:
        raise SpecError(f"{path}: {len(entries)} cards, at most {MAX_CARDS} are supported")
    table = np.zeros((MAX_IDS + 1, CARD_WIDTH), dtype=np.int64)
    table[:, C_TYPE] = NO_TYPE
    names = []
    for card_id, entry in enumerate(entries):
        names.append(_card_row(path, f"card {card_id + 1}", entry, table[card_id], False))
    homeland = dict(data["homeland"], level=0, type="site", cost=0)
    homeland.setdefault("name", "Homeland")
    name = _card_row(path, "[homeland]", homeland, table[HOMELAND], True)
    table[HOMELAND + 1] = table[HOMELAND]
    names += [""] * (HOMELAND - len(entries)) + [f"{name} of seat 0", f"{name} of seat 1"]
    table[SET_ROW, S_N_CARDS] = len(entries)
    for level in range(1, N_LEVELS + 1):
        table[SET_ROW, S_LEVEL_COUNT + level - 1] = int(np.sum(table[:MAX_CARDS, C_LEVEL] == level))
    digest = hashlib.blake2b(table.tobytes(), digest_size=8).digest()
    table[SET_ROW, S_FINGERPRINT] = int.from_bytes(digest, "little") >> 2
    cards = CardSet(str(path), tuple(names), table)
    _NAMES_BY_FINGERPRINT[cards.fingerprint] = cards.names
    return cards


def _card_row(path: Path, where: str, entry, row: np.ndarray, homeland: bool) -> str:
    """Fill one card's table row from its TOML entry; return its name."""
    if not isinstance(entry, dict):
        raise SpecError(f"{path}: {where} is not a table")
    name = entry.get("name")
    if not isinstance(name, str) or not name.strip():
        raise SpecError(f"{path}: {where}: field name: missing or not a text")
    where = f"card {name!r}" if not homeland else f"homeland {name!r}"

    def fail(field: str, problem: str):
        raise SpecError(f"{path}: {where}: field {field}: {problem}")

    kind = entry.get("type")
    if kind not in TYPES:
        fail("type", f"{kind!r} is not one of {', '.join(TYPES)}")
    allowed = CARD_KEYS + (SITE_KEYS if kind == "site" else ())
    for key in entry:
        if key not in allowed:
            fail(key, f"unknown for a {kind} (allowed: {', '.join(allowed)})")
    level = entry.get("level")
    if not homeland and (not _is_int(level) or not 1 <= level <= N_LEVELS):
        fail("level", f"{level!r} is not 1, 2, 3 or 4")
    if kind != "reaction" and "cost" not in entry:
        fail("cost", "missing")
    cost = entry.get("cost", 0)
    if not _is_int(cost) or not 0 <= cost <= MAX_AMOUNT:
        fail("cost", f"{cost!r} is not an integer in [0, {MAX_AMOUNT}]")
    row[C_LEVEL] = level
    row[C_TYPE] = TYPES.index(kind)
    row[C_COST] = cost
    if kind == "site":
        value = entry.get("integrity")
        if not _is_int(value) or not 1 <= value <= MAX_AMOUNT:
            fail("integrity", f"{value!r} is not an integer in [1, {MAX_AMOUNT}]")
        row[C_INTEGRITY] = value
        fortified = entry.get("fortified", False)
        if not isinstance(fortified, bool):
            fail("fortified", f"{fortified!r} is not true or false")
        row[C_FORTIFIED] = fortified
        row[C_N_EFFECTS] = _effects(
            entry.get("passives", []), "passives", "passive", row, C_EFFECTS, fail
        )
        abilities = entry.get("abilities", [])
        if not isinstance(abilities, list) or len(abilities) > MAX_ABILITIES:
            fail("abilities", f"expected a list of at most {MAX_ABILITIES} abilities")
        row[C_N_ABILITIES] = len(abilities)
        for k, ability in enumerate(abilities):
            _ability(ability, f"abilities[{k + 1}]", row, C_ABILITIES + ABILITY_WIDTH * k, fail)
            row[C_MAX_FOLLOWERS] = max(
                row[C_MAX_FOLLOWERS], row[C_ABILITIES + ABILITY_WIDTH * k + A_FOLLOWERS]
            )
        for key in ("trigger", "effects"):
            if key in entry:
                fail(key, "a site has passives and abilities, not effects or a trigger")
        return name
    for key in ("integrity", "fortified"):
        if key in entry:
            fail(key, f"only sites have {key}")
    trigger = entry.get("trigger", "")
    if kind == "reaction":
        if trigger not in TRIGGERS[1:]:
            fail("trigger", f"{trigger!r} is not one of {', '.join(TRIGGERS[1:])}")
        row[C_TRIGGER] = TRIGGERS.index(trigger)
    elif "trigger" in entry:
        fail("trigger", "only reactions (and infinite site abilities) have a trigger")
    context = "attachment" if kind == "attachment" else "action"
    n = _effects(entry.get("effects"), "effects", context, row, C_EFFECTS, fail, trigger)
    if n == 0:
        fail("effects", "missing or empty")
    row[C_N_EFFECTS] = n
    row[C_HARMFUL] = _harmful(row, C_EFFECTS, n)
    return name


def _ability(ability, field: str, row: np.ndarray, base: int, fail) -> None:
    if not isinstance(ability, dict):
        fail(field, "not a table")
    for key in ability:
        if key not in ABILITY_KEYS:
            fail(f"{field}.{key}", f"unknown (allowed: {', '.join(ABILITY_KEYS)})")
    for key, low in (("followers", 0), ("cost", 0)):
        value = ability.get(key, 0)
        if not _is_int(value) or not low <= value <= MAX_AMOUNT:
            fail(f"{field}.{key}", f"{value!r} is not an integer in [{low}, {MAX_AMOUNT}]")
        row[base + (A_FOLLOWERS if key == "followers" else A_COST)] = value
    infinite = ability.get("infinite", False)
    if not isinstance(infinite, bool):
        fail(f"{field}.infinite", f"{infinite!r} is not true or false")
    trigger = ability.get("trigger", "")
    if trigger not in TRIGGERS:
        fail(f"{field}.trigger", f"{trigger!r} is not one of {', '.join(TRIGGERS[1:])}")
    if trigger and not infinite:
        fail(f"{field}.trigger", "only infinite abilities work on the opponent's turn")
    if trigger and row[base + A_COST] > 0:
        fail(f"{field}.cost", "a triggered ability cannot cost actions (it is used off-turn)")
    if infinite and not trigger and row[base + A_COST] == 0:
        fail(f"{field}.cost", "an infinite ability without a trigger must cost at least 1 action")
    row[base + A_INFINITE] = infinite
    row[base + A_TRIGGER] = TRIGGERS.index(trigger)
    n = _effects(
        ability.get("effects"), f"{field}.effects", "action", row, base + A_EFFECTS, fail, trigger
    )
    if n == 0:
        fail(f"{field}.effects", "missing or empty")
    row[base + A_N_EFFECTS] = n
    row[base + A_HARMFUL] = _harmful(row, base + A_EFFECTS, n)


def _effects(texts, field: str, context: str, row, base: int, fail, trigger: str = "") -> int:
    """Parse ``["op n", ...]`` into (op, n) pairs at ``row[base:]``; return how many."""
    if texts is None:
        return 0
    if not isinstance(texts, list) or len(texts) > MAX_EFFECTS:
        fail(field, f'expected a list of at most {MAX_EFFECTS} effects like "damage 2"')
    first, stop = {
        "action": (1, FIRST_ATTACHMENT_OP),
        "attachment": (FIRST_ATTACHMENT_OP, FIRST_PASSIVE_OP),
        "passive": (FIRST_PASSIVE_OP, len(OPS)),
    }[context]
    allowed = OPS[first:stop]
    for k, text in enumerate(texts):
        parts = text.split() if isinstance(text, str) else []
        if not parts or parts[0] not in allowed:
            fail(field, f"{text!r}: {WHERE_OPS[context]} is one of {', '.join(allowed)}")
        op = parts[0]
        if op == "cancel" and trigger != "attack":
            fail(field, "'cancel' only works in a response to an attack (trigger = \"attack\")")
        if op in NO_AMOUNT_OPS:
            if len(parts) != 1:
                fail(field, f"{text!r}: {op} takes no number")
            amount = 1
        else:
            low = -MAX_AMOUNT if op == "integrity" else 1
            try:
                (amount,) = (int(part) for part in parts[1:])
            except ValueError:
                amount = None
            if amount is None or not low <= amount <= MAX_AMOUNT or amount == 0:
                fail(field, f"{text!r}: {op} needs a whole number in [{low}, {MAX_AMOUNT}], not 0")
        row[base + 2 * k] = OPS.index(op)
        row[base + 2 * k + 1] = amount
    return len(texts)


def _harmful(row: np.ndarray, base: int, n: int) -> int:
    return int(any(row[base + 2 * k] in HARMFUL_OPS for k in range(n)))


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_rules(rules: dict, players: int, cards: CardSet) -> None:
    """Rule combinations the kernel cannot play, as one-line errors."""
    if rules["followers"] < players * rules["starting_followers"]:
        raise SpecError(
            f"time-barons: followers={rules['followers']} cannot put starting_followers="
            f"{rules['starting_followers']} on {players} Homelands"
        )
    level_one = int(cards.table[SET_ROW, S_LEVEL_COUNT])
    if level_one < players * rules["hand_size"]:
        raise SpecError(
            f"{cards.path}: {level_one} Level I cards cannot deal hand_size={rules['hand_size']} "
            f"to {players} players"
        )


def prepare(rules: dict, players: int) -> tuple[np.ndarray, np.ndarray]:
    """(encoded rules, card table): the card file is read here, never inside the kernel."""
    cards = load_cards(rules["cards"])
    check_rules(rules, players, cards)
    encoded = np.array(
        [0.0 if p.kind == "path" else p.encode(rules[p.name]) for p in RULES], dtype=np.float64
    )
    return encoded, cards.table


# --- where cards are ------------------------------------------------------------------------
# Every function takes the game as (st, cards, rules, sids, prm, rng, trace) or a part of it: the
# state, the card table, the encoded rules, each seat's strategy id and parameter row, the game's
# random stream, the trace buffer.


@njit(cache=True, _nrt=False)
def stat_add(st, seat, stat, amount):
    st[ix(STATS + N_SEAT_STATS * seat + stat)] += amount


@njit(cache=True, _nrt=False)
def mark_card(st, seat, stat, mask_stat, card):
    """Count a level card as drawn or played by ``seat`` and set its bit in the seat's mask."""
    stat_add(st, seat, stat, 1)
    if card < MAX_CARDS:
        st[ix(STATS + N_SEAT_STATS * seat + mask_stat)] |= np.int64(1) << np.int64(card)


@njit(cache=True, _nrt=False)
def hand_add(st, seat, card):
    st[HAND + MAX_IDS * seat + st[ix(HAND_N + seat)]] = card
    st[ix(HAND_N + seat)] += 1
    st[ix(LOC + card)] = IN_HAND
    st[ix(OWNER + card)] = seat
    st[ix(VALUE_BOUND + card)] = NO_BOUND  # it may have been another seat's
    st[ix(SHOWN + card)] = 0
    mark_card(st, seat, ST_DRAWN, ST_DRAWN_MASK, card)


# Inlined: a hand card or site leaves its list on most moves, and the call cost as much as the
# few steps of the search.
@njit(cache=True, _nrt=False, inline="always")
def list_remove(st, base, count_at, item):
    """Take ``item`` out of the list st[base : base + st[count_at]], keeping the others' order."""
    n = st[ix(count_at)]
    i = 0
    while i < n and st[ix(base + i)] != item:
        i += 1
    for j in range(base + i, base + n - 1):  # the items after it move up one place
        st[ix(j)] = st[ix(j + 1)]
    st[ix(count_at)] = n - 1


@njit(cache=True, _nrt=False)
def hand_remove(st, seat, card):
    """Take ``card`` out of ``seat``'s hand, keeping the order of the others."""
    list_remove(st, HAND + MAX_IDS * seat, HAND_N + seat, card)
    st[ix(OWNER + card)] = -1
    st[ix(SHOWN + card)] = 0


@njit(cache=True, _nrt=False)
def reset_card_facts(st, cards, card):
    """The card's cached facts (REQUIRE, SITE_DISCOUNT, ANSWERS) as the card table gives them,
    for a site with no attachments."""
    st[ix(REQUIRE + card)] = cards[ix(card), C_MAX_FOLLOWERS]
    st[ix(SITE_DISCOUNT + card)] = site_discount(cards, card)
    st[ix(ANSWERS + card)] = answers(cards, card)


@njit(cache=True, _nrt=False)
def site_add(st, seat, site):
    """Put a site into play under ``seat``, with no followers, damage or attachments."""
    st[ix(UPGRADE_DISCOUNT + seat)] += st[ix(SITE_DISCOUNT + site)]
    st[SITES + MAX_IDS * seat + st[ix(SITES_N + seat)]] = site
    st[ix(SITES_N + seat)] += 1
    if has_own_turn_ability(st, site):
        st[ABILITY_SITES + MAX_IDS * seat + st[ix(ABILITY_SITES_N + seat)]] = site
        st[ix(ABILITY_SITES_N + seat)] += 1
        st[ix(SITES_BOUND + seat)] = NO_BOUND
    st[ix(LOC + site)] = IN_PLAY
    st[ix(OWNER + site)] = seat
    st[ix(FOLLOW + site)] = 0
    st[ix(DAMAGE + site)] = 0
    st[ix(USED + site)] = 0
    st[ix(RESPONDED + site)] = 0
    st[ix(INTEGRITY_MOD + site)] = 0
    st[ix(FORTIFY + site)] = 0
    st[ix(DISABLE + site)] = 0
    st[ix(DECAY + site)] = 0
    st[ix(VALUE_BOUND + site)] = NO_BOUND  # its owner may differ from the last time it was in play


@njit(cache=True, _nrt=False)
def site_remove(st, seat, site):
    list_remove(st, SITES + MAX_IDS * seat, SITES_N + seat, site)
    if has_own_turn_ability(st, site):
        list_remove(st, ABILITY_SITES + MAX_IDS * seat, ABILITY_SITES_N + seat, site)
        st[ix(SITES_BOUND + seat)] = NO_BOUND


@njit(cache=True, _nrt=False)
def discard_add(st, card):
    st[DISCARD + st[DISCARD_N]] = card
    st[DISCARD_N] += 1
    st[ix(LOC + card)] = IN_DISCARD
    st[ix(OWNER + card)] = -1
    st[ix(HOST + card)] = -1


@njit(cache=True, _nrt=False)
def discard_take(st, i):
    """Remove the ``i``-th card of the discard pile (oldest first) and return it."""
    card = st[ix(DISCARD + i)]
    for j in range(i + 1, st[DISCARD_N]):
        st[ix(DISCARD + j - 1)] = st[ix(DISCARD + j)]
    st[DISCARD_N] -= 1
    return card


@njit(cache=True, _nrt=False)
def draw_card(seat, level, cause, st, trace):
    """The top card of the ``level`` stack into ``seat``'s hand."""
    card = st[DECK + st[ix(STACK_TOP + level - 1)]]
    st[ix(STACK_TOP + level - 1)] += 1
    hand_add(st, seat, card)
    record_event(trace, st, TRACE_LEN, EV_DRAW, seat, card, level, cause)


# --- what a seat cannot see ------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def hidden_slot(st, seat, level, k):
    """Where the ``k``-th hidden card of ``level`` is, in the deck and then the hand of the
    opponent of ``seat``: an index into ``st``. The hidden cards of a level are those left in
    its stack, then the cards of that level in the opponent's hand that were not shown."""
    top = st[ix(STACK_TOP + level - 1)]
    in_stack = st[ix(STACK_END + level - 1)] - top
    if k < in_stack:
        return DECK + top + k
    k -= in_stack
    other = 1 - seat
    for i in range(hand_n(st, other)):
        card = hand_card(st, other, i)
        if st[ix(SHOWN + card)] == 0 and st[ix(CARD_LEVEL + card)] == level:
            if k == 0:
                return HAND + MAX_IDS * other + i
            k -= 1
    return -1


@njit(cache=True, _nrt=False)
def redraw_unseen(st, seat, rng):
    """Redraw, uniformly among the states consistent with what ``seat`` has seen, everything
    hidden from it: which unseen card of each level is in which place of that level's stack
    and of the opponent's hand. ``seat`` sees its own hand, everything in play and in the
    discard pile, the size of each stack, and of each card in the opponent's hand the level
    (a card is drawn from the stack of its level, in view) and, if it was taken back from the
    discard pile (SHOWN), the card itself. So per level, the cards left in its stack and the
    opponent's unshown cards of that level are shuffled over the same places. Nothing else is
    hidden, and no earlier sight needs remembering: every card once seen is now in play, in
    the pile, in the seat's hand or shown. The cards that change place get their whereabouts,
    the opponent's drawn-card statistic (a card now in its hand was drawn, one now in a stack
    was not) and a forgotten value bound, as a draw would leave them. The result depends only
    on the state as ``seat`` sees it and the stream. The protocol's
    ``determinize`` (docs/protocol.md)."""
    other = 1 - seat
    for level in range(1, N_LEVELS + 1):
        count = 0
        while hidden_slot(st, seat, level, count) >= 0:
            count += 1
        # In card id order first, so that the redraw depends only on which cards are unseen,
        # not on where they are (the search's leak check redraws twins and compares).
        for i in range(count - 1):
            a = hidden_slot(st, seat, level, i)
            for j in range(i + 1, count):
                b = hidden_slot(st, seat, level, j)
                if st[ix(b)] < st[ix(a)]:
                    swap = st[ix(a)]
                    st[ix(a)] = st[ix(b)]
                    st[ix(b)] = swap
        for i in range(count - 1, 0, -1):  # Fisher-Yates over the level's hidden places
            j = rand_below(rng, i + 1)
            a = hidden_slot(st, seat, level, i)
            b = hidden_slot(st, seat, level, j)
            swap = st[ix(a)]
            st[ix(a)] = st[ix(b)]
            st[ix(b)] = swap
        for k in range(count):
            where = hidden_slot(st, seat, level, k)
            card = st[ix(where)]
            in_hand = where >= HAND
            st[ix(LOC + card)] = IN_HAND if in_hand else IN_STACK
            st[ix(OWNER + card)] = other if in_hand else -1
            st[ix(VALUE_BOUND + card)] = NO_BOUND
            mask = STATS + N_SEAT_STATS * other + ST_DRAWN_MASK
            if in_hand:
                st[ix(mask)] |= np.int64(1) << np.int64(card)
            else:
                st[ix(mask)] &= ~(np.int64(1) << np.int64(card))


@njit(cache=True, _nrt=False)
def determinize(st, cards, seat, rng):
    """``redraw_unseen`` with the game's arguments (the fair-play leak check's redraw)."""
    redraw_unseen(st, seat, rng)


# --- followers, damage, destruction ---------------------------------------------------------


@njit(cache=True, _nrt=False)
def set_spare_input(st, site, field, value):
    """Set ``st[field + site]`` of the site in play, where ``field`` is FOLLOW or REQUIRE (the
    two inputs of ``spare_on``), keeping its owner's SPARE."""
    owner = st[ix(OWNER + site)]
    st[ix(SPARE + owner)] -= spare_on(st, site)
    st[ix(field + site)] = value
    st[ix(SPARE + owner)] += spare_on(st, site)


@njit(cache=True, _nrt=False)
def set_followers(st, site, count):
    """Put ``count`` followers on the site in play, keeping its owner's SPARE."""
    set_spare_input(st, site, FOLLOW, count)


@njit(cache=True, _nrt=False)
def move_followers(site, amount, st):
    """Add ``amount`` (negative: remove) followers to ``site``; a seat left with none ends the
    game (checked wherever followers leave, so the game stops at once)."""
    owner = st[ix(OWNER + site)]
    set_followers(st, site, st[ix(FOLLOW + site)] + amount)
    st[ix(N_FOLLOWERS + owner)] += amount
    if st[ix(N_FOLLOWERS + owner)] == 0:
        st[OVER] = 1


@njit(cache=True, _nrt=False)
def place_from_supply(seat, site, amount, st, trace):
    """Up to ``amount`` followers from the supply onto ``site`` (what the supply has)."""
    amount = min(amount, st[SUPPLY])
    if amount > 0:
        st[SUPPLY] -= amount
        move_followers(site, amount, st)
        record_event(trace, st, TRACE_LEN, EV_PLACE, seat, site, amount, -1)


@njit(cache=True, _nrt=False)
def credit(st, by, victim, stat, amount):
    """Count harm done by ``by`` (a seat, or -1 for nobody) to the other seat's things."""
    if by >= 0 and by != victim:
        stat_add(st, by, stat, amount)


@njit(cache=True, _nrt=False)
def kill_on(site, amount, by, st, trace):
    """Kill up to ``amount`` followers on ``site`` (they return to the supply)."""
    amount = min(amount, st[ix(FOLLOW + site)])
    if amount > 0:
        owner = st[ix(OWNER + site)]
        move_followers(site, -amount, st)
        st[SUPPLY] += amount
        credit(st, by, owner, ST_KILLS, amount)
        record_event(trace, st, TRACE_LEN, EV_KILL, site, owner, amount)


@njit(cache=True, _nrt=False)
def destroy_site(site, by, st, cards, trace):
    """Kill its followers, return its counters, discard it and its attachments (a Homeland is
    removed from the game instead of discarded)."""
    owner = st[ix(OWNER + site)]
    killed = st[ix(FOLLOW + site)]
    counters = st[ix(DAMAGE + site)]
    if killed > 0:
        move_followers(site, -killed, st)
    st[SUPPLY] += killed
    st[POOL] += counters
    st[ix(DAMAGE + site)] = 0
    credit(st, by, owner, ST_KILLS, killed)
    credit(st, by, owner, ST_DESTROYED, 1)
    record_event(trace, st, TRACE_LEN, EV_DESTROY, site, owner, killed, counters)
    for card in range(MAX_IDS):
        if st[ix(LOC + card)] == IN_PLAY and st[ix(HOST + card)] == site:
            holder = st[ix(OWNER + card)]
            discard_add(st, card)
            record_event(trace, st, TRACE_LEN, EV_DISCARD, card, holder, FROM_PLAY)
    site_remove(st, owner, site)
    st[ix(UPGRADE_DISCOUNT + owner)] -= st[ix(SITE_DISCOUNT + site)]
    reset_card_facts(st, cards, site)
    if site >= HOMELAND:
        st[ix(LOC + site)] = GONE
        st[ix(OWNER + site)] = -1
    else:
        discard_add(st, site)
        record_event(trace, st, TRACE_LEN, EV_DISCARD, site, owner, FROM_PLAY)


@njit(cache=True, _nrt=False)
def check_destroyed(site, by, st, cards, trace):
    """A site whose damage counters reach its integrity is destroyed."""
    if st[ix(LOC + site)] == IN_PLAY and st[ix(DAMAGE + site)] >= integrity(st, cards, site):
        destroy_site(site, by, st, cards, trace)


@njit(cache=True, _nrt=False)
def damage_site(site, amount, by, st, cards, trace):
    """Kill ``amount`` followers on the site (none if it is fortified) and place ``amount``
    damage counters (as many as the pool has); destroy it if they reach its integrity."""
    owner = st[ix(OWNER + site)]
    killed = 0
    if not is_fortified(st, cards, site):
        killed = min(amount, st[ix(FOLLOW + site)])
        if killed > 0:
            move_followers(site, -killed, st)
            st[SUPPLY] += killed
    placed = min(amount, st[POOL])
    st[POOL] -= placed
    st[ix(DAMAGE + site)] += placed
    credit(st, by, owner, ST_DAMAGE, amount)
    credit(st, by, owner, ST_KILLS, killed)
    record_event(trace, st, TRACE_LEN, EV_DAMAGE, site, owner, amount, placed, killed)
    check_destroyed(site, by, st, cards, trace)


@njit(cache=True, _nrt=False)
def attach(card, site, seat, st, cards, trace):
    """``seat``'s attachment onto ``site`` (either player's): its effects apply while attached."""
    st[ix(LOC + card)] = IN_PLAY
    st[ix(OWNER + card)] = seat
    st[ix(HOST + card)] = site
    for k in range(cards[ix(card), C_N_EFFECTS]):
        op = cards[ix(card), ix(C_EFFECTS + 2 * k)]
        n = cards[ix(card), ix(C_EFFECTS + 2 * k + 1)]
        if op == E_INTEGRITY:
            st[ix(INTEGRITY_MOD + site)] += n
        elif op == E_FORTIFY:
            st[ix(FORTIFY + site)] += 1
        elif op == E_DISABLE:
            st[ix(DISABLE + site)] += 1
            set_spare_input(st, site, REQUIRE, 0)
            st[UPGRADE_DISCOUNT + st[ix(OWNER + site)]] -= st[ix(SITE_DISCOUNT + site)]
            st[ix(SITE_DISCOUNT + site)] = 0
        elif op == E_DECAY:
            st[ix(DECAY + site)] += n
    record_event(trace, st, TRACE_LEN, EV_ATTACH, card, site, seat)
    check_destroyed(site, seat, st, cards, trace)


# --- effects --------------------------------------------------------------------------------
# Every rule below is one helper that both flows call: the scripted games' straight-line turn
# (take_turn ... apply_effect), which asks the strategies directly, and the decision-point
# protocol's steps (``step``, further down), which pose the same questions as decisions.


@njit(cache=True, _nrt=False)
def check_site(st, seat, purpose, site):
    """A site chosen for ``purpose`` must be a candidate."""
    if not is_candidate(st, seat, purpose, site):
        raise ValueError("strategy chose a site it cannot choose")


@njit(cache=True, _nrt=False)
def pick_site(seat, purpose, n, st, cards, rules, sids, prm, rng):
    """The site ``seat`` chooses for ``purpose``, checked (there is always a candidate)."""
    site = strategy.choose_site(sids[seat], prm, seat, purpose, n, st, cards, rules, rng)
    check_site(st, seat, purpose, site)
    return site


@njit(cache=True, _nrt=False)
def has_candidate(st, seat, purpose):
    owner = 1 - seat if purpose <= PICK_STEAL else seat
    for i in range(sites_n(st, owner)):
        if is_candidate(st, seat, purpose, site_at(st, owner, i)):
            return True
    return False


@njit(cache=True, _nrt=False)
def arrange(seat, base, st, trace):
    """Put st[base + i] followers on the seat's i-th site (a checked relocation)."""
    for i in range(sites_n(st, seat)):
        site = site_at(st, seat, i)
        set_followers(st, site, st[ix(base + i)])
        record_event(trace, st, TRACE_LEN, EV_ARRANGE, seat, site, st[ix(base + i)])


@njit(cache=True, _nrt=False)
def relocate(seat, st, cards, rules, sids, prm, rng, trace):
    """``seat`` rearranges all its followers over its sites, as its strategy chooses."""
    n = sites_n(st, seat)
    strategy.choose_arrangement(sids[seat], prm, seat, st, cards, rules, rng)
    total = 0
    for i in range(n):
        if st[ix(ARRANGE + i)] < 0:
            raise ValueError("strategy arranged a negative number of followers")
        total += st[ix(ARRANGE + i)]
    if total != followers(st, seat):
        raise ValueError("strategy's arrangement does not hold all its followers")
    arrange(seat, ARRANGE, st, trace)


CHOOSE_NOW = -2  # apply_effect's target: the owner chooses the site as the effect resolves


@njit(cache=True, _nrt=False)
def site_purpose(op):
    """What an effect chooses sites for (PICK_*), -1 for an effect that chooses none."""
    if op == E_DAMAGE:
        return PICK_DAMAGE
    if op == E_DESTROY:
        return PICK_DESTROY
    if op == E_KILL:
        return PICK_KILL
    if op == E_STEAL:
        return PICK_STEAL
    if op == E_GAIN:
        return PICK_PLACE
    if op == E_REPAIR:
        return PICK_REPAIR
    if op == E_SACRIFICE:
        return PICK_SACRIFICE
    return -1


@njit(cache=True, _nrt=False)
def takes_units(op):
    """Effects that take, place or draw n things one at a time, a choice each."""
    return (
        op == E_KILL or op == E_STEAL or op == E_GAIN or op == E_DRAW or op == E_REPAIR
        or op == E_RECOVER or op == E_SACRIFICE
    )  # fmt: skip


@njit(cache=True, _nrt=False)
def unit_possible(seat, op, st):
    """Can such an effect take its next one? When not, it ends (the game may have ended, or
    nothing is left to take)."""
    if op == E_KILL or op == E_STEAL or op == E_SACRIFICE:
        return st[OVER] == 0 and has_candidate(st, seat, site_purpose(op))
    if op == E_GAIN:
        return st[SUPPLY] > 0 and sites_n(st, seat) > 0
    if op == E_DRAW:
        return can_draw(st, seat)
    if op == E_REPAIR:
        return has_candidate(st, seat, PICK_REPAIR)
    return st[DISCARD_N] > 0  # E_RECOVER


@njit(cache=True, _nrt=False)
def check_unit_choice(seat, op, choice, st):
    """The choice for one unit of such an effect: a stack (draw), a pile index (recover) or a
    site, one the effect may take."""
    if op == E_DRAW:
        if choice < 1 or choice > st[ix(LEVEL + seat)] or stack_left(st, choice) == 0:
            raise ValueError("strategy drew from a stack it cannot draw from")
    elif op == E_RECOVER:
        if choice < 0 or choice >= st[DISCARD_N]:
            raise ValueError("strategy recovered a card that is not in the discard pile")
    else:
        check_site(st, seat, site_purpose(op), choice)


@njit(cache=True, _nrt=False)
def unit_apply(seat, op, choice, to_site, st, cards, trace):
    """One unit of such an effect on the chosen stack, pile index or site (a steal: from
    ``choice`` to ``to_site``)."""
    if op == E_KILL or op == E_SACRIFICE:
        kill_on(choice, 1, seat, st, trace)
    elif op == E_STEAL:
        move_followers(choice, -1, st)
        move_followers(to_site, 1, st)
        record_event(trace, st, TRACE_LEN, EV_PLACE, seat, to_site, 1, choice)
    elif op == E_GAIN:
        place_from_supply(seat, choice, 1, st, trace)
    elif op == E_DRAW:
        draw_card(seat, choice, DRAW_EFFECT, st, trace)
    elif op == E_REPAIR:
        st[ix(DAMAGE + choice)] -= 1
        st[POOL] += 1
        record_event(trace, st, TRACE_LEN, EV_REPAIR, choice, seat, 1)
    else:  # E_RECOVER
        card = discard_take(st, choice)
        hand_add(st, seat, card)
        st[ix(SHOWN + card)] = 1  # taken from the public pile: both players know it
        record_event(trace, st, TRACE_LEN, EV_RECOVER, seat, card)


@njit(cache=True, _nrt=False)
def named_site(seat, purpose, target, st):
    """The site an attack named for a damage or destroy effect, if the effect may still hit it,
    else -1."""
    return target if is_candidate(st, seat, purpose, target) else -1


@njit(cache=True, _nrt=False)
def hit_site(seat, op, n, site, st, cards, trace):
    """A damage or destroy effect on its site."""
    if op == E_DAMAGE:
        damage_site(site, n, seat, st, cards, trace)
    else:
        destroy_site(site, seat, st, cards, trace)


@njit(cache=True, _nrt=False)
def effect_now(seat, op, n, st, cards, rng, trace):
    """The effects nobody chooses anything for (the discarded cards are random)."""
    other = 1 - seat
    if op == E_DAMAGE_EACH:
        # Backwards: a destroyed site only shifts the sites after it, already done.
        for i in range(sites_n(st, other) - 1, -1, -1):
            if st[OVER] == 1:
                return
            damage_site(site_at(st, other, i), n, seat, st, cards, trace)
    elif op == E_KILL_EVERYWHERE:
        for owner in (seat, other):
            for i in range(sites_n(st, owner)):
                kill_on(site_at(st, owner, i), n, seat, st, trace)
    elif op == E_ACTIONS:
        if st[ACTIVE] == seat:  # actions gained on the opponent's turn are lost
            st[ACTIONS] += n
    elif op == E_DISCARD:
        for _ in range(n):  # the discarded cards are random: the hand is hidden from the owner
            if hand_n(st, other) == 0:
                return
            card = hand_card(st, other, rand_below(rng, hand_n(st, other)))
            hand_remove(st, other, card)
            discard_add(st, card)
            record_event(trace, st, TRACE_LEN, EV_DISCARD, card, other, FROM_HAND)
    elif op == E_CANCEL:
        st[CANCELLED] = 1


@njit(cache=True, _nrt=False)
def apply_effect(seat, op, n, target, st, cards, rules, sids, prm, rng, trace):
    """One effect of a card or ability owned by ``seat``; the owner makes every choice. A damage
    or destroy effect hits ``target``, the site its attack named (NO_TARGET: none), or with
    CHOOSE_NOW the site the owner chooses now."""
    if op == E_DAMAGE or op == E_DESTROY:
        purpose = site_purpose(op)
        if target != CHOOSE_NOW:
            site = named_site(seat, purpose, target, st)
        elif has_candidate(st, seat, purpose):
            site = pick_site(seat, purpose, n, st, cards, rules, sids, prm, rng)
        else:
            site = -1
        if site >= 0:
            hit_site(seat, op, n, site, st, cards, trace)
    elif takes_units(op):
        for _ in range(n):
            if not unit_possible(seat, op, st):
                return
            to_site = -1
            if op == E_DRAW:
                choice = strategy.choose_stack(sids[seat], prm, seat, st, cards, rng)
            elif op == E_RECOVER:
                choice = strategy.choose_recover(sids[seat], prm, seat, st, cards, rng)
            else:
                choice = strategy.choose_site(
                    sids[seat], prm, seat, site_purpose(op), 1, st, cards, rules, rng
                )
            check_unit_choice(seat, op, choice, st)
            if op == E_STEAL:
                to_site = pick_site(seat, PICK_PLACE, 1, st, cards, rules, sids, prm, rng)
            unit_apply(seat, op, choice, to_site, st, cards, trace)
    elif op == E_RELOCATE:
        relocate(seat, st, cards, rules, sids, prm, rng, trace)
    else:
        effect_now(seat, op, n, st, cards, rng, trace)


@njit(cache=True, _nrt=False)
def effect_of(st, cards, source, base, k, declared):
    """(op, n, target) of the k-th effect at ``cards[source, base:]``; the target is the site
    the attack named (``declared``) or CHOOSE_NOW."""
    op = cards[ix(source), ix(base + 2 * k)]
    n = cards[ix(source), ix(base + 2 * k + 1)]
    return op, n, st[ix(TARGETS + k)] if declared else CHOOSE_NOW


@njit(cache=True, _nrt=False)
def resolve(seat, source, base, n_effects, declared, st, cards, rules, sids, prm, rng, trace):
    """The effects at ``cards[source, base:]`` in order, stopping if the game ends; ``declared``:
    the sites of the attack's damage and destroy effects were named (st[TARGETS + k])."""
    for k in range(n_effects):
        if st[OVER] == 1:
            return
        op, n, target = effect_of(st, cards, source, base, k, declared)
        record_event(trace, st, TRACE_LEN, EV_EFFECT, seat, source, op, n)
        apply_effect(seat, op, n, target, st, cards, rules, sids, prm, rng, trace)


# --- responses on the opponent's turn -------------------------------------------------------


@njit(cache=True, _nrt=False)
def open_window(seat, st):
    """A response window opens for ``seat``: each triggered ability once per window."""
    for i in range(sites_n(st, seat)):
        st[ix(RESPONDED + site_at(st, seat, i))] = 0


@njit(cache=True, _nrt=False)
def start_response(seat, kind, a, b, trigger, st, cards, trace):
    """A legal answer is made: a reaction card leaves the hand, a triggered ability is used for
    this window. Returns where its effects are: (column, how many)."""
    record_event(trace, st, TRACE_LEN, EV_RESPONSE, seat, kind, a, b, trigger)
    if kind == REACT:
        hand_remove(st, seat, a)
        mark_card(st, seat, ST_PLAYED, ST_PLAYED_MASK, a)
        return C_EFFECTS, cards[ix(a), C_N_EFFECTS]
    st[ix(RESPONDED + a)] |= np.int64(1) << np.int64(b)
    base = C_ABILITIES + ABILITY_WIDTH * b
    return base + A_EFFECTS, cards[ix(a), ix(base + A_N_EFFECTS)]


@njit(cache=True, _nrt=False)
def discard_played(card, seat, st, trace):
    """A played event or reaction (or an attachment that could not attach) is discarded."""
    discard_add(st, card)
    record_event(trace, st, TRACE_LEN, EV_DISCARD, card, seat, FROM_PLAY)


# Inlined into its callers: most windows have nothing that answers the trigger, and then the
# call of response_window with all the game's arrays would cost more than the test.
@njit(cache=True, _nrt=False, inline="always")
def respond(trigger, st, cards, rules, sids, prm, rng, trace):
    """The player not on turn may answer ``trigger`` with reactions from its hand (no action
    cost) and its sites' infinite abilities with that trigger (each once per trigger)."""
    if may_answer(st, 1 - st[ACTIVE], trigger):  # otherwise the strategy could only pass
        # int64: each call site's literal trigger would compile the window once more
        response_window(np.int64(trigger), st, cards, rules, sids, prm, rng, trace)


@njit(cache=True, _nrt=False)
def response_window(trigger, st, cards, rules, sids, prm, rng, trace):
    """``respond`` when the player not on turn has something that answers ``trigger``."""
    seat = 1 - st[ACTIVE]
    open_window(seat, st)
    for _ in range(MOVE_CAP):
        if st[OVER] == 1:
            return
        kind, a, b = strategy.choose_response(sids[seat], prm, seat, trigger, st, cards, rules, rng)
        if kind == PASS:
            return
        if not response_is_legal(st, cards, seat, trigger, kind, a, b):
            raise ValueError("strategy chose an illegal response")
        base, n_effects = start_response(seat, kind, a, b, trigger, st, cards, trace)
        resolve(seat, a, base, n_effects, False, st, cards, rules, sids, prm, rng, trace)
        if kind == REACT:
            discard_played(a, seat, st, trace)


@njit(cache=True, _nrt=False)
def window_closed(st, trace):
    """After an attack's response window: was it cancelled?"""
    cancelled = st[CANCELLED] == 1
    st[CANCELLED] = 0
    if cancelled:
        record_event(trace, st, TRACE_LEN, EV_CANCEL, st[ACTIVE])
    return cancelled


# Inlined into its callers (like respond, whose test it mostly is): a call passing all the
# game's arrays costs more than the test.
@njit(cache=True, _nrt=False, inline="always")
def attack_cancelled(st, cards, rules, sids, prm, rng, trace):
    """The attacked player's response window, before an attack resolves (st[ATTACK] says what
    the attack is): cancelled?"""
    st[CANCELLED] = 0
    respond(ON_ATTACK, st, cards, rules, sids, prm, rng, trace)
    return window_closed(st, trace)


@njit(cache=True, _nrt=False)
def open_attack(source, ability, st):
    """Make the attack public for the response window: its card or site, its ability (-1: the
    card's own effects), no site named yet."""
    st[ATTACK] = source
    st[ATTACK_ABILITY] = ability
    for k in range(MAX_EFFECTS):
        st[TARGETS + k] = NO_TARGET


@njit(cache=True, _nrt=False)
def effects_at(cards, source, ability):
    """(column, how many) of the effects of a card (``ability`` -1) or of a site's ability."""
    if ability < 0:
        return C_EFFECTS, cards[ix(source), C_N_EFFECTS]
    base = C_ABILITIES + ABILITY_WIDTH * ability
    return base + A_EFFECTS, cards[ix(source), ix(base + A_N_EFFECTS)]


@njit(cache=True, _nrt=False)
def to_name(seat, source, base, k, st, cards):
    """The purpose (PICK_DAMAGE, PICK_DESTROY) of the site the attacker names for the attack's
    k-th effect, -1 if that effect names none or has no candidate."""
    op = cards[ix(source), ix(base + 2 * k)]
    purpose = site_purpose(op)
    if (op == E_DAMAGE or op == E_DESTROY) and has_candidate(st, seat, purpose):
        return purpose
    return -1


@njit(cache=True, _nrt=False)
def name_site(seat, k, site, st, trace):
    st[ix(TARGETS + k)] = site
    record_event(trace, st, TRACE_LEN, EV_TARGET, seat, st[ATTACK], k, site)


@njit(cache=True, _nrt=False)
def attack(seat, source, ability, st, cards, rules, sids, prm, rng, trace):
    """An event (``ability`` -1) or ability with a harmful op: with attack_targets "declared"
    the attacker names the site of each damage and destroy effect first; then the attacked
    player answers; then, unless cancelled, the effects resolve (on the named sites)."""
    base, n_effects = effects_at(cards, source, ability)
    open_attack(source, ability, st)
    declared = rules[R_ATTACK_TARGETS] == TARGETS_DECLARED
    if declared:
        for k in range(n_effects):
            purpose = to_name(seat, source, base, k, st, cards)
            if purpose >= 0:
                n = cards[ix(source), ix(base + 2 * k + 1)]
                site = pick_site(seat, purpose, n, st, cards, rules, sids, prm, rng)
                name_site(seat, k, site, st, trace)
    if not attack_cancelled(st, cards, rules, sids, prm, rng, trace):
        resolve(seat, source, base, n_effects, declared, st, cards, rules, sids, prm, rng, trace)
    st[ATTACK] = NO_ATTACK


@njit(cache=True, _nrt=False)
def attachment_lands(card, site, seat, cancelled, st, cards, trace):
    """An attachment after its attack (if any): discarded if cancelled, or if a response
    destroyed its site (nothing to attach to); else attached."""
    if cancelled or st[ix(LOC + site)] != IN_PLAY:
        discard_played(card, seat, st, trace)
    else:
        attach(card, site, seat, st, cards, trace)


# --- a turn and a game ----------------------------------------------------------------------


# Inlined: once per move in both flows.
@njit(cache=True, _nrt=False, inline="always")
def pay_move(seat, kind, a, b, st, cards, rules, trace):
    """The player on turn pays for a legal move."""
    paid = move_cost(st, cards, rules, seat, kind, a, b)
    st[ACTIONS] -= paid
    record_event(trace, st, TRACE_LEN, EV_MOVE, seat, kind, a, b, paid, st[ACTIONS])


@njit(cache=True, _nrt=False, inline="always")
def use_ability(site, ability, st, cards):
    """A once-per-turn ability is used up; is it an attack?"""
    base = C_ABILITIES + ABILITY_WIDTH * ability
    if cards[ix(site), ix(base + A_INFINITE)] == 0:
        st[ix(USED + site)] = 1
    return cards[ix(site), ix(base + A_HARMFUL)] == 1


@njit(cache=True, _nrt=False, inline="always")
def play_from_hand(seat, card, st):
    hand_remove(st, seat, card)
    mark_card(st, seat, ST_PLAYED, ST_PLAYED_MASK, card)


# Inlined into take_turn: a call passing all the game's arrays costs as much as a simple move.
@njit(cache=True, _nrt=False, inline="always")
def apply_move(seat, kind, a, b, st, cards, rules, sids, prm, rng, trace):
    """Pay for and carry out a legal move of the player on turn."""
    pay_move(seat, kind, a, b, st, cards, rules, trace)
    if kind == DRAW:
        draw_card(seat, a, DRAW_ACTION, st, trace)
    elif kind == GAIN:
        place_from_supply(seat, a, 1, st, trace)
    elif kind == RELOCATE:
        relocate(seat, st, cards, rules, sids, prm, rng, trace)
        respond(ON_RELOCATE, st, cards, rules, sids, prm, rng, trace)
    elif kind == UPGRADE:
        st[ix(LEVEL + seat)] += 1
        respond(ON_UPGRADE, st, cards, rules, sids, prm, rng, trace)
    elif kind == ABILITY:
        if use_ability(a, b, st, cards):
            attack(seat, a, b, st, cards, rules, sids, prm, rng, trace)
            return
        base, n_effects = effects_at(cards, a, b)
        resolve(seat, a, base, n_effects, False, st, cards, rules, sids, prm, rng, trace)
    elif kind == PLAY:
        play_from_hand(seat, a, st)
        kind_of_card = cards[ix(a), C_TYPE]
        if kind_of_card == SITE:
            site_add(st, seat, a)
            respond(ON_SITE, st, cards, rules, sids, prm, rng, trace)
            return
        if kind_of_card == ATTACHMENT:
            cancelled = False
            if st[ix(OWNER + b)] != seat:  # an attack on the site it names
                open_attack(a, -1, st)
                st[TARGETS] = b
                cancelled = attack_cancelled(st, cards, rules, sids, prm, rng, trace)
                st[ATTACK] = NO_ATTACK
            attachment_lands(a, b, seat, cancelled, st, cards, trace)
            return
        if cards[ix(a), C_HARMFUL] == 1:
            attack(seat, a, -1, st, cards, rules, sids, prm, rng, trace)
        else:
            resolve(seat, a, C_EFFECTS, cards[ix(a), C_N_EFFECTS], False, st, cards, rules,
                    sids, prm, rng, trace)  # fmt: skip
        discard_played(a, seat, st, trace)


# Inlined into take_turn, its only caller in a game: one call per turn saved.
@njit(cache=True, _nrt=False, inline="always")
def start_of_turn(seat, st, cards, trace):
    """Once-per-turn abilities become usable again, decay attachments damage their sites, then
    the sites' passives apply."""
    # Backwards: a destroyed site only shifts the sites after it, already done (so each site is
    # visited once, and the reset of USED can share the pass: no decay reads it).
    for i in range(sites_n(st, seat) - 1, -1, -1):
        site = site_at(st, seat, i)
        st[ix(USED + site)] = 0
        if st[ix(DECAY + site)] == 0:
            continue
        for card in range(MAX_IDS):
            if st[ix(LOC + site)] != IN_PLAY or st[OVER] == 1:
                break
            if st[ix(LOC + card)] != IN_PLAY or st[ix(HOST + card)] != site:
                continue
            for k in range(cards[ix(card), C_N_EFFECTS]):
                if (
                    cards[ix(card), ix(C_EFFECTS + 2 * k)] == E_DECAY
                    and st[ix(LOC + site)] == IN_PLAY
                ):
                    n = cards[ix(card), ix(C_EFFECTS + 2 * k + 1)]
                    record_event(
                        trace, st, TRACE_LEN, EV_EFFECT, st[ix(OWNER + card)], card, E_DECAY, n
                    )
                    damage_site(site, n, st[ix(OWNER + card)], st, cards, trace)
    for i in range(sites_n(st, seat)):
        site = site_at(st, seat, i)
        if is_disabled(st, site) or st[OVER] == 1:
            continue
        for k in range(cards[ix(site), C_N_EFFECTS]):
            op = cards[ix(site), ix(C_EFFECTS + 2 * k)]
            n = cards[ix(site), ix(C_EFFECTS + 2 * k + 1)]
            if op == E_START_ACTIONS or op == E_START_GAIN:
                record_event(trace, st, TRACE_LEN, EV_EFFECT, seat, site, op, n)
            if op == E_START_ACTIONS:
                st[ACTIONS] += n
            elif op == E_START_GAIN:
                place_from_supply(seat, site, n, st, trace)


# Inlined: once per turn in both flows.
@njit(cache=True, _nrt=False, inline="always")
def begin_turn(seat, turn, st, cards, rules, trace):
    """The seat's turn starts: its actions, then the start of turn."""
    st[ACTIVE] = seat
    st[TURN] = turn
    actions = rules[R_FIRST_TURN_ACTIONS] if turn == 0 else rules[R_ACTIONS]
    st[ACTIONS] = np.int64(actions)
    record_event(trace, st, TRACE_LEN, EV_TURN, seat, turn, st[ACTIONS])
    start_of_turn(seat, st, cards, trace)


@njit(cache=True, _nrt=False)
def take_turn(seat, turn, st, cards, rules, sids, prm, rng, trace):
    begin_turn(seat, turn, st, cards, rules, trace)
    for _ in range(MOVE_CAP):
        if st[OVER] == 1:
            break
        kind, a, b = strategy.choose_move(sids[seat], prm, seat, st, cards, rules, rng)
        if kind == END:
            break
        if not move_is_legal(st, cards, rules, seat, kind, a, b):
            raise ValueError("strategy chose an illegal move")
        apply_move(seat, kind, a, b, st, cards, rules, sids, prm, rng, trace)
    record_event(trace, st, TRACE_LEN, EV_END_TURN, seat, st[ACTIONS])


@njit(cache=True, _nrt=False)
def setup(st, cards, rules, rng, trace):
    """Homelands with their followers, the four shuffled stacks, the supply, the hands."""
    st[:] = 0
    st[ATTACK] = NO_ATTACK
    for card in range(MAX_IDS):
        st[LOC + card] = UNUSED
        st[OWNER + card] = -1
        st[HOST + card] = -1
        reset_card_facts(st, cards, card)
        st[CARD_LEVEL + card] = cards[card, C_LEVEL]
    # Each stack in card id order (one pass over the ids, STACK_END growing), then shuffled.
    pos = 0
    for level in range(1, N_LEVELS + 1):
        st[STACK_TOP + level - 1] = pos
        st[STACK_END + level - 1] = pos
        pos += cards[SET_ROW, S_LEVEL_COUNT + level - 1]
    for card in range(MAX_CARDS):
        if cards[card, C_TYPE] != NO_TYPE:
            end = STACK_END + cards[card, C_LEVEL] - 1
            st[DECK + st[end]] = card
            st[end] += 1
            st[LOC + card] = IN_STACK
    for level in range(1, N_LEVELS + 1):
        start = st[STACK_TOP + level - 1]
        for i in range(st[STACK_END + level - 1] - 1, start, -1):  # Fisher-Yates
            j = start + rand_below(rng, i - start + 1)
            swap = st[DECK + i]
            st[DECK + i] = st[DECK + j]
            st[DECK + j] = swap
    starting = np.int64(rules[R_STARTING_FOLLOWERS])
    st[SUPPLY] = np.int64(rules[R_FOLLOWERS]) - 2 * starting
    st[POOL] = np.int64(rules[R_DAMAGE_COUNTERS])
    st[FIRST] = rand_below(rng, 2) if rules[R_FIRST_PLAYER] == FIRST_PLAYER_RANDOM else 0
    record_event(
        trace,
        st,
        TRACE_LEN,
        EV_SETUP,
        st[FIRST],
        st[SUPPLY],
        st[POOL],
        cards[SET_ROW, S_FINGERPRINT],
    )
    for seat in range(2):
        st[LEVEL + seat] = 1
        site_add(st, seat, HOMELAND + seat)
        move_followers(HOMELAND + seat, starting, st)
    for seat in range(2):
        for _ in range(np.int64(rules[R_HAND])):
            draw_card(seat, 1, DRAW_SETUP, st, trace)


@njit(cache=True, _nrt=False)
def snapshot(st, trace):
    for seat in range(2):
        counters = 0
        for i in range(sites_n(st, seat)):
            counters += st[DAMAGE + site_at(st, seat, i)]
        record_event(
            trace, st, TRACE_LEN, EV_SNAPSHOT, seat, st[LEVEL + seat], followers(st, seat),
            hand_n(st, seat), sites_n(st, seat), counters,
        )  # fmt: skip
    record_event(
        trace, st, TRACE_LEN, EV_TABLE, st[SUPPLY], st[POOL], st[DISCARD_N],
        stack_left(st, 1), stack_left(st, 2), stack_left(st, 3), stack_left(st, 4),
    )  # fmt: skip


@njit(cache=True, _nrt=False)
def end_reason(st, rules):
    """Checked at the end of every turn: END_WIPEOUT when a seat has no followers left,
    END_STACKS when ``stacks_to_end`` stacks are empty, else -1 (the game goes on)."""
    if st[OVER] == 1:
        return END_WIPEOUT
    if empty_stacks(st) >= rules[R_STACKS_TO_END]:
        return END_STACKS
    return -1


@njit(cache=True, _nrt=False)
def winner_of(st, reason):
    """After a wipeout, the seat that still has followers; after the stacks ran out, the most
    followers, then the higher level; otherwise (a tie, the turn cap) -1."""
    if reason == END_WIPEOUT:
        for seat in range(2):
            if followers(st, seat) > 0:
                return seat
    elif reason == END_STACKS:
        for key in (N_FOLLOWERS, LEVEL):
            if st[key] != st[key + 1]:
                return 0 if st[key] > st[key + 1] else 1
    return -1


@njit(cache=True, _nrt=False)
def after_turn(turns, st, rules, trace):
    """After the ``turns``-th turn: snapshot and standing rows when tracing; the end reason, or
    -1 when the game goes on (``end_reason``)."""
    if trace.shape[0] > 0:
        snapshot(st, trace)
    reason = end_reason(st, rules)
    record_standing(turns, st, trace)
    return reason


@njit(cache=True, _nrt=False)
def game_over(turns, reason, st, trace):
    """The game ends after ``turns`` turns (``reason`` -1: cut off by the cap): the per-seat
    statistics and the end row; (winner or -1, end reason)."""
    if reason < 0:
        reason = END_TURN_CAP
    winner = winner_of(st, reason)
    for s in range(2):
        st[STATS + N_SEAT_STATS * s + ST_LEVEL] = st[LEVEL + s]
        st[STATS + N_SEAT_STATS * s + ST_FOLLOWERS] = followers(st, s)
        st[STATS + N_SEAT_STATS * s + ST_SITES] = sites_n(st, s)
    record_event(trace, st, TRACE_LEN, EV_END, winner, turns, reason == END_TURN_CAP, reason)
    return winner, reason


@njit(cache=True, _nrt=False)
def play_game(st, cards, rules, sids, prm, rng, trace):
    """Set up and play one game: (winner or -1, turns, truncated, end reason)."""
    setup(st, cards, rules, rng, trace)
    seat = st[FIRST]
    turns = np.int64(0)  # not the literal 0, which would compile take_turn twice
    reason = -1
    max_turns = np.int64(rules[R_MAX_TURNS])
    while reason < 0 and turns < max_turns:
        take_turn(seat, turns, st, cards, rules, sids, prm, rng, trace)
        turns += 1
        reason = after_turn(turns, st, rules, trace)
        seat = 1 - seat
    winner, reason = game_over(turns, reason, st, trace)
    return winner, turns, reason == END_TURN_CAP, reason


# --- the standing per seat (game arcs, docs/arcs.md) -------------------------------------------


@njit(cache=True, _nrt=False)
def record_standing(turns, st, trace):
    """After a turn: one standing row per seat when tracing; nothing otherwise."""
    if trace.shape[0] == 0:
        return
    for seat in range(2):
        record_event(trace, st, TRACE_LEN, EV_STANDING, turns, seat, followers(st, seat),
                     st[LEVEL + seat])  # fmt: skip


@njit(cache=True, _nrt=False)
def play_indexed(
    players, lineup_ids, lineup_params, seed, game_index, rotate,
    st, game, sids, prm, rng, trace, g, game_out, seat_out,
):  # fmt: skip
    """Seat the lineup for ``game_index``, play it from its own stream, write row ``g``
    (``game``: the prepared rules and card table)."""
    seat_lineup(lineup_ids, lineup_params, game_index, players, rotate, sids, prm, seat_out, g)
    seed_game_stream(seed, game_index, rng)
    rules, cards = game
    winner, turns, truncated, reason = play_game(st, cards, rules, sids, prm, rng, trace)
    write_row(winner, turns, truncated, reason, st, g, game_out, seat_out)


@njit(cache=True, _nrt=False)
def write_row(winner, turns, truncated, reason, st, g, game_out, seat_out):
    game_out[g, WINNER] = winner
    game_out[g, TURNS] = turns
    game_out[g, ENDED_BY] = ENDED_CAP if truncated else (ENDED_DRAW if winner < 0 else ENDED_RULES)
    game_out[g, FIRST_PLAYER_COLUMN] = st[FIRST]
    game_out[g, END_COLUMN] = reason
    for seat in range(2):
        seat_out[g, seat, WON] = seat == winner
        for k in range(N_SEAT_STATS):
            seat_out[g, seat, N_STANDARD_SEAT_COLUMNS + k] = st[STATS + N_SEAT_STATS * seat + k]


# --- the decision-point protocol (docs/protocol.md) -----------------------------------------
# The same rules as resumable steps over ``st``: a step either asks a decision (``ask``: the kind
# in st[P_DECISION], the seat in st[P_SEAT], the step that takes the answer in st[P_STEP]) or
# names the next step. The in-progress fields of a turn (the move, the open window, the attack,
# the effects resolving, a relocation) are the P_* fields of simcore/games/time_barons/state.py; all
# are public. ``game`` is the prepared (encoded rules, card table) pair. Search
# (simcore/games/time_barons/search.py) and the random-play tests drive a game through these; the
# scripted games keep the straight-line turn above (tests/test_time_barons_protocol.py proves the
# two flows play the same games).

(
    S_TURN, S_MOVE, S_MOVED, S_RELOCATED, S_WINDOW, S_ANSWERED, S_REACTED, S_DECLARE, S_NAMED,
    S_ATTACK_WINDOW, S_ATTACK_CHECK, S_ATTACK_DONE, S_ATTACHED, S_EVENT_DONE, S_EFFECT,
    S_EFFECT_SITE, S_UNIT, S_UNIT_CHOSEN, S_STOLEN, S_ARRANGE, S_ARRANGED, S_TURN_END, S_OVER,
) = range(23)  # fmt: skip


@njit(cache=True, _nrt=False)
def ask(st, kind, seat, then):
    st[P_DECISION] = kind
    st[P_SEAT] = seat
    st[P_STEP] = then


@njit(cache=True, _nrt=False)
def ask_site(st, seat, purpose, n, then):
    st[P_PURPOSE] = purpose
    st[P_PICK_N] = n
    ask(st, D_SITE, seat, then)


@njit(cache=True, _nrt=False)
def window(trigger, after, st):
    """``respond`` as a step: the window opens (then S_WINDOW) only if the player not on turn
    has something that answers ``trigger``; else the rules go on with ``after``."""
    seat = 1 - st[ACTIVE]
    if may_answer(st, seat, trigger):
        open_window(seat, st)
        st[P_TRIGGER] = trigger
        st[P_WINDOW_LEFT] = MOVE_CAP
        st[P_WINDOW_AFTER] = after
        st[P_STEP] = S_WINDOW
    else:
        st[P_STEP] = after


@njit(cache=True, _nrt=False)
def begin_resolve(seat, source, base, n_effects, declared, after, st):
    """``resolve`` as steps (S_EFFECT), then ``after``."""
    st[P_RES_SEAT] = seat
    st[P_RES_SOURCE] = source
    st[P_RES_BASE] = base
    st[P_RES_N] = n_effects
    st[P_RES_K] = 0
    st[P_RES_DECLARED] = 1 if declared else 0
    st[P_RES_AFTER] = after
    st[P_STEP] = S_EFFECT


@njit(cache=True, _nrt=False)
def begin_attack(seat, source, ability, after, st, rules):
    """``attack`` as steps: the sites named (S_DECLARE), the window, the effects; then
    ``after``."""
    open_attack(source, ability, st)
    st[P_ATTACK_AFTER] = after
    st[P_DECLARE_K] = 0
    st[P_STEP] = S_DECLARE if rules[R_ATTACK_TARGETS] == TARGETS_DECLARED else S_ATTACK_WINDOW


@njit(cache=True, _nrt=False)
def begin_relocation(seat, after, st):
    """``relocate`` as steps: one D_ARRANGE per site of the seat, then ``after``."""
    st[P_ARR_SEAT] = seat
    st[P_ARR_I] = 0
    st[P_ARR_LEFT] = followers(st, seat)
    st[P_ARR_AFTER] = after
    st[P_STEP] = S_ARRANGE


@njit(cache=True, _nrt=False)
def start_move(move, st, cards, rules, trace):
    """S_MOVED: the player on turn's move (a D_MOVE code) is paid and begun."""
    seat = st[ACTIVE]
    kind, a, b = decode(move, N_MOVE_KINDS)
    if kind == END:
        st[P_STEP] = S_TURN_END
        return
    if not move_is_legal(st, cards, rules, seat, kind, a, b):
        raise ValueError("strategy chose an illegal move")
    pay_move(seat, kind, a, b, st, cards, rules, trace)
    st[P_MOVE_KIND] = kind
    st[P_MOVE_A] = a
    st[P_MOVE_B] = b
    st[P_STEP] = S_MOVE
    if kind == DRAW:
        draw_card(seat, a, DRAW_ACTION, st, trace)
    elif kind == GAIN:
        place_from_supply(seat, a, 1, st, trace)
    elif kind == RELOCATE:
        begin_relocation(seat, S_RELOCATED, st)
    elif kind == UPGRADE:
        st[ix(LEVEL + seat)] += 1
        window(ON_UPGRADE, S_MOVE, st)
    elif kind == ABILITY:
        if use_ability(a, b, st, cards):
            begin_attack(seat, a, b, S_MOVE, st, rules)
        else:
            base, n_effects = effects_at(cards, a, b)
            begin_resolve(seat, a, base, n_effects, False, S_MOVE, st)
    else:  # PLAY
        play_from_hand(seat, a, st)
        kind_of_card = cards[ix(a), C_TYPE]
        if kind_of_card == SITE:
            site_add(st, seat, a)
            window(ON_SITE, S_MOVE, st)
        elif kind_of_card == ATTACHMENT:
            st[P_CANCELLED] = 0
            st[P_STEP] = S_ATTACHED
            if st[ix(OWNER + b)] != seat:  # an attack on the site it names
                open_attack(a, -1, st)
                st[TARGETS] = b
                st[P_ATTACK_AFTER] = S_ATTACHED
                st[P_STEP] = S_ATTACK_WINDOW
        elif cards[ix(a), C_HARMFUL] == 1:
            begin_attack(seat, a, -1, S_EVENT_DONE, st, rules)
        else:
            begin_resolve(seat, a, C_EFFECTS, cards[ix(a), C_N_EFFECTS], False, S_EVENT_DONE, st)


@njit(cache=True, _nrt=False)
def next_effect(st, cards, rng, trace):
    """S_EFFECT: the next effect resolving starts (or the effects are done)."""
    k = st[P_RES_K]
    if k >= st[P_RES_N] or st[OVER] == 1:
        st[P_STEP] = st[P_RES_AFTER]
        return
    seat = st[P_RES_SEAT]
    source = st[P_RES_SOURCE]
    op, n, target = effect_of(st, cards, source, st[P_RES_BASE], k, st[P_RES_DECLARED] == 1)
    st[P_RES_K] = k + 1
    st[P_OP] = op
    st[P_AMOUNT] = n
    record_event(trace, st, TRACE_LEN, EV_EFFECT, seat, source, op, n)
    if op == E_DAMAGE or op == E_DESTROY:
        purpose = site_purpose(op)
        if target != CHOOSE_NOW:
            site = named_site(seat, purpose, target, st)
            if site >= 0:
                hit_site(seat, op, n, site, st, cards, trace)
        elif has_candidate(st, seat, purpose):
            ask_site(st, seat, purpose, n, S_EFFECT_SITE)
    elif takes_units(op):
        st[P_UNITS] = n
        st[P_STEP] = S_UNIT
    elif op == E_RELOCATE:
        begin_relocation(seat, S_EFFECT, st)
    else:
        effect_now(seat, op, n, st, cards, rng, trace)


@njit(cache=True, _nrt=False)
def next_unit(st):
    """S_UNIT: the effect taking things one at a time asks for its next one, or ends."""
    seat = st[P_RES_SEAT]
    op = st[P_OP]
    if st[P_UNITS] == 0 or not unit_possible(seat, op, st):
        st[P_STEP] = S_EFFECT
        return
    st[P_UNITS] -= 1
    if op == E_DRAW:
        ask(st, D_STACK, seat, S_UNIT_CHOSEN)
    elif op == E_RECOVER:
        ask(st, D_RECOVER, seat, S_UNIT_CHOSEN)
    else:
        ask_site(st, seat, site_purpose(op), 1, S_UNIT_CHOSEN)


@njit(cache=True, _nrt=False)
def step(st, rules, cards, move, rng, trace):
    """Run the step st[P_STEP]; ``move`` is the answer of the decision it asked (if it did)."""
    s = st[P_STEP]
    seat = st[ACTIVE]
    if s == S_TURN:
        begin_turn(st[FIRST] ^ (st[P_TURNS] & 1), st[P_TURNS], st, cards, rules, trace)
        st[P_MOVES_LEFT] = MOVE_CAP
        st[P_STEP] = S_MOVE
    elif s == S_MOVE:
        if st[OVER] == 1 or st[P_MOVES_LEFT] == 0:
            st[P_STEP] = S_TURN_END
        else:
            st[P_MOVES_LEFT] -= 1
            ask(st, D_MOVE, seat, S_MOVED)
    elif s == S_MOVED:
        start_move(move, st, cards, rules, trace)
    elif s == S_RELOCATED:
        window(ON_RELOCATE, S_MOVE, st)
    elif s == S_WINDOW:
        if st[OVER] == 1 or st[P_WINDOW_LEFT] == 0:
            st[P_STEP] = st[P_WINDOW_AFTER]
        else:
            st[P_WINDOW_LEFT] -= 1
            ask(st, D_RESPONSE, 1 - seat, S_ANSWERED)
    elif s == S_ANSWERED:
        kind, a, b = decode(move, 3)
        if kind == PASS:
            st[P_STEP] = st[P_WINDOW_AFTER]
            return
        other = 1 - seat
        if not response_is_legal(st, cards, other, st[P_TRIGGER], kind, a, b):
            raise ValueError("strategy chose an illegal response")
        base, n_effects = start_response(other, kind, a, b, st[P_TRIGGER], st, cards, trace)
        st[P_REACT_CARD] = a
        after = S_REACTED if kind == REACT else S_WINDOW
        begin_resolve(other, a, base, n_effects, False, after, st)
    elif s == S_REACTED:
        discard_played(st[P_REACT_CARD], 1 - seat, st, trace)
        st[P_STEP] = S_WINDOW
    elif s == S_DECLARE:
        base, n_effects = effects_at(cards, st[ATTACK], st[ATTACK_ABILITY])
        st[P_STEP] = S_ATTACK_WINDOW
        for k in range(st[P_DECLARE_K], n_effects):
            purpose = to_name(seat, st[ATTACK], base, k, st, cards)
            if purpose >= 0:
                st[P_DECLARE_K] = k
                ask_site(st, seat, purpose, cards[ix(st[ATTACK]), ix(base + 2 * k + 1)], S_NAMED)
                return
    elif s == S_NAMED:
        check_site(st, seat, st[P_PURPOSE], move)
        name_site(seat, st[P_DECLARE_K], move, st, trace)
        st[P_DECLARE_K] += 1
        st[P_STEP] = S_DECLARE
    elif s == S_ATTACK_WINDOW:
        st[CANCELLED] = 0
        window(ON_ATTACK, S_ATTACK_CHECK, st)
    elif s == S_ATTACK_CHECK:
        cancelled = window_closed(st, trace)
        source = st[ATTACK]
        if cards[ix(source), C_TYPE] == ATTACHMENT:
            st[P_CANCELLED] = 1 if cancelled else 0
            st[ATTACK] = NO_ATTACK
            st[P_STEP] = st[P_ATTACK_AFTER]
        elif cancelled:
            st[P_STEP] = S_ATTACK_DONE
        else:
            base, n_effects = effects_at(cards, source, st[ATTACK_ABILITY])
            declared = rules[R_ATTACK_TARGETS] == TARGETS_DECLARED
            begin_resolve(seat, source, base, n_effects, declared, S_ATTACK_DONE, st)
    elif s == S_ATTACK_DONE:
        st[ATTACK] = NO_ATTACK
        st[P_STEP] = st[P_ATTACK_AFTER]
    elif s == S_ATTACHED:
        attachment_lands(st[P_MOVE_A], st[P_MOVE_B], seat, st[P_CANCELLED] == 1, st, cards, trace)
        st[P_STEP] = S_MOVE
    elif s == S_EVENT_DONE:
        discard_played(st[P_MOVE_A], seat, st, trace)
        st[P_STEP] = S_MOVE
    elif s == S_EFFECT:
        next_effect(st, cards, rng, trace)
    elif s == S_EFFECT_SITE:
        check_site(st, st[P_RES_SEAT], st[P_PURPOSE], move)
        hit_site(st[P_RES_SEAT], st[P_OP], st[P_AMOUNT], move, st, cards, trace)
        st[P_STEP] = S_EFFECT
    elif s == S_UNIT:
        next_unit(st)
    elif s == S_UNIT_CHOSEN:
        owner = st[P_RES_SEAT]
        check_unit_choice(owner, st[P_OP], move, st)
        st[P_STEP] = S_UNIT
        if st[P_OP] == E_STEAL:
            st[P_STEAL_FROM] = move
            ask_site(st, owner, PICK_PLACE, 1, S_STOLEN)
        else:
            unit_apply(owner, st[P_OP], move, -1, st, cards, trace)
    elif s == S_STOLEN:
        check_site(st, st[P_RES_SEAT], PICK_PLACE, move)
        unit_apply(st[P_RES_SEAT], E_STEAL, st[P_STEAL_FROM], move, st, cards, trace)
        st[P_STEP] = S_UNIT
    elif s == S_ARRANGE:
        owner = st[P_ARR_SEAT]
        if st[P_ARR_I] < sites_n(st, owner):
            ask(st, D_ARRANGE, owner, S_ARRANGED)
        else:
            arrange(owner, P_ARRANGE, st, trace)
            st[P_STEP] = st[P_ARR_AFTER]
    elif s == S_ARRANGED:
        i = st[P_ARR_I]
        left = st[P_ARR_LEFT]
        if move < 0 or move > left:
            raise ValueError("strategy arranged a negative number of followers")
        if i == sites_n(st, st[P_ARR_SEAT]) - 1 and move != left:
            raise ValueError("strategy's arrangement does not hold all its followers")
        st[ix(P_ARRANGE + i)] = move
        st[P_ARR_LEFT] = left - move
        st[P_ARR_I] = i + 1
        st[P_STEP] = S_ARRANGE
    elif s == S_TURN_END:
        record_event(trace, st, TRACE_LEN, EV_END_TURN, seat, st[ACTIONS])
        st[P_TURNS] += 1
        reason = after_turn(st[P_TURNS], st, rules, trace)
        if reason < 0 and st[P_TURNS] < np.int64(rules[R_MAX_TURNS]):
            st[P_STEP] = S_TURN
        else:
            winner, reason = game_over(st[P_TURNS], reason, st, trace)
            st[P_WINNER] = winner
            st[P_REASON] = reason
            st[P_SEAT] = -1
            st[P_STEP] = S_OVER


@njit(cache=True, _nrt=False)
def advance(st, rules, cards, rng, trace):
    """Run the rules to the next decision or the end."""
    while st[P_DECISION] == D_NONE and st[P_STEP] != S_OVER:
        step(st, rules, cards, np.int64(-1), rng, trace)  # -1 as int64 compiles step once


@njit(cache=True, _nrt=False)
def new_game(players, st, game, rng, trace):
    """Set up (``players`` is always 2) and run the rules to the first decision."""
    rules, cards = game
    setup(st, cards, rules, rng, trace)
    st[P_SEAT] = -1
    st[P_REASON] = -1
    st[P_WINNER] = -1
    st[P_STEP] = S_TURN
    advance(st, rules, cards, rng, trace)


@njit(cache=True, _nrt=False)
def apply(st, game, move, rng, trace):
    """Answer the pending decision with ``move`` and run the rules to the next one."""
    rules, cards = game
    st[P_DECISION] = D_NONE
    st[P_DECISIONS] += 1
    step(st, rules, cards, move, rng, trace)
    advance(st, rules, cards, rng, trace)


@njit(cache=True, _nrt=False)
def to_move(st):
    return st[P_SEAT]


@njit(cache=True, _nrt=False)
def is_over(st):
    return st[P_STEP] == S_OVER


@njit(cache=True, _nrt=False)
def returns(st, out):
    """1.0 for the winner, 0.0 otherwise (a draw or a game cut off by the cap: 0 for both)."""
    out[0] = 0.0
    out[1] = 0.0
    if st[P_WINNER] >= 0:
        out[st[P_WINNER]] = 1.0


@njit(cache=True, _nrt=False)
def listed(moves, n, code):
    """Add ``code`` to the options (at most MAX_MOVES of them)."""
    if n < MAX_MOVES:
        moves[n] = code
        return n + 1
    return n


@njit(cache=True, _nrt=False)
def legal(st, game, moves):
    """The pending decision's options as move codes in ``moves[:n]``, in a fixed order; n."""
    rules, cards = game
    kind = st[P_DECISION]
    seat = st[P_SEAT]
    n = 0
    if kind == D_MOVE:  # in nth_move's order, END first
        total, _, _, _ = nth_move(st, cards, rules, seat, -1)
        for pick in range(min(total, MAX_MOVES)):
            _, move, a, b = nth_move(st, cards, rules, seat, pick)
            n = listed(moves, n, move_code(move, a, b))
    elif kind == D_RESPONSE:  # pass, reaction cards in hand order, abilities in site order
        trigger = st[P_TRIGGER]
        n = listed(moves, n, response_code(PASS, -1, -1))
        for i in range(hand_n(st, seat)):
            card = hand_card(st, seat, i)
            if response_is_legal(st, cards, seat, trigger, REACT, card, -1):
                n = listed(moves, n, response_code(REACT, card, -1))
        for i in range(sites_n(st, seat)):
            site = site_at(st, seat, i)
            for ability in range(cards[ix(site), C_N_ABILITIES]):
                if response_is_legal(st, cards, seat, trigger, TRIGGERED, site, ability):
                    n = listed(moves, n, response_code(TRIGGERED, site, ability))
    elif kind == D_SITE:  # the candidates in their owner's play order
        purpose = st[P_PURPOSE]
        owner = 1 - seat if purpose <= PICK_STEAL else seat
        for i in range(sites_n(st, owner)):
            if is_candidate(st, seat, purpose, site_at(st, owner, i)):
                n = listed(moves, n, site_at(st, owner, i))
    elif kind == D_STACK:
        for level in range(1, st[ix(LEVEL + seat)] + 1):
            if stack_left(st, level) > 0:
                n = listed(moves, n, level)
    elif kind == D_RECOVER:
        for i in range(st[DISCARD_N]):
            n = listed(moves, n, i)
    elif kind == D_ARRANGE:  # followers for this site: the last site takes those left
        left = st[P_ARR_LEFT]
        if st[P_ARR_I] == sites_n(st, seat) - 1:
            n = listed(moves, n, left)
        else:
            for count in range(left + 1):
                n = listed(moves, n, count)
    return n


@njit(cache=True, _nrt=False, inline="always")
def _mix(h, value):
    return _splitmix64_mix(h ^ np.uint64(value + 0x100))


@njit(cache=True, _nrt=False)
def _mix_range(h, st, start, stop):
    for i in range(start, stop):
        h = _mix(h, st[ix(i)])
    return h


@njit(cache=True, _nrt=False)
def infoset_key(st, seat):
    """A 64-bit hash of what ``seat`` observes now: every field of ``st`` but those
    ``redraw_unseen(st, seat, ...)`` may change (the stacks' order, the opponent's unshown
    cards, where those are, the opponent's drawn-card mask) and the strategies' scratch and
    caches (value bounds, arrangements, expected attacks); for each card of the opponent's hand
    its level, or the card itself if shown. Two states get the same key iff they differ only in
    what ``redraw_unseen`` redraws (up to hash collisions)."""
    other = 1 - seat
    h = _mix(np.uint64(0x9E3779B97F4A7C15), seat)
    h = _mix_range(h, st, 0, TRACE_LEN)
    h = _mix_range(h, st, TRACE_LEN + 1, DECK)
    h = _mix_range(h, st, HAND_N, HAND)
    h = _mix_range(h, st, HAND + MAX_IDS * seat, HAND + MAX_IDS * seat + hand_n(st, seat))
    for i in range(hand_n(st, other)):
        card = hand_card(st, other, i)
        h = _mix(h, card if st[ix(SHOWN + card)] == 1 else -1 - st[ix(CARD_LEVEL + card)])
    h = _mix_range(h, st, SITES_N, LOC)
    for card in range(MAX_IDS):
        hidden = st[ix(LOC + card)] == IN_STACK or (
            st[ix(LOC + card)] == IN_HAND and st[ix(OWNER + card)] == other
        )
        if not hidden:
            h = _mix(h, st[ix(LOC + card)])
            h = _mix(h, st[ix(OWNER + card)])
    h = _mix_range(h, st, FOLLOW, VALUE_BOUND)
    for k in range(2 * N_SEAT_STATS):
        if k != N_SEAT_STATS * other + ST_DRAWN_MASK:
            h = _mix(h, st[ix(STATS + k)])
    h = _mix_range(h, st, ATTACK, THREAT_N)
    return _mix_range(h, st, PROTOCOL, P_ARRANGE + st[P_ARR_I])


# The search is compiled against the protocol functions above (simcore/games/time_barons/search.py
# imports them), so it can only be imported once they exist.
from simcore.games.time_barons import search as time_barons_search  # noqa: E402


@njit(cache=True)
def play_protocol_game(st, game, sids, prm, rng, trace):
    """One game through the decision-point protocol, each decision answered by the search
    module's ``choose``: (winner or -1, turns, truncated, end reason)."""
    new_game(2, st, game, rng, trace)
    while not is_over(st):
        seat = to_move(st)
        apply(st, game, time_barons_search.choose(sids, prm, seat, st, game, rng), rng, trace)
    return st[P_WINNER], st[P_TURNS], st[P_REASON] == END_TURN_CAP, st[P_REASON]


@njit(cache=True)
def play_indexed_protocol(
    players, lineup_ids, lineup_params, seed, game_index, rotate,
    st, game, sids, prm, rng, trace, g, game_out, seat_out,
):  # fmt: skip
    """``play_indexed`` through the decision-point protocol: for lineups with a searching seat
    (the search allocates its tree, so this one may allocate: the scripted path may not)."""
    seat_lineup(lineup_ids, lineup_params, game_index, players, rotate, sids, prm, seat_out, g)
    seed_game_stream(seed, game_index, rng)
    winner, turns, truncated, reason = play_protocol_game(st, game, sids, prm, rng, trace)
    write_row(winner, turns, truncated, reason, st, g, game_out, seat_out)


def bench_protocol(prepared, players, lineup_ids, lineup_params, seed, n_games):
    """``n_games`` games through the protocol (``powerlab bench``): (decisions answered,
    searches run)."""
    return time_barons_search.bench_protocol(
        prepared, lineup_ids, lineup_params, np.uint64(seed), n_games
    )


FIRST_TRACE_ROWS = 4096  # a longer game is played again with a bigger buffer

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
)
run_chunk = CHUNKS.run_chunk
trace_game = CHUNKS.trace_game


def describe_trace(trace, seat_labels: list[str]) -> list[str]:
    """A readable turn-by-turn log of a trace.

    Card names come from the card set whose fingerprint the trace's set-up row carries, as loaded
    by ``prepare`` in this process (the replay command always prepares first); a trace of a set
    not loaded here names cards by id.
    """
    names: tuple[str, ...] = ()

    def card(card_id):
        return names[card_id] if 0 <= card_id < len(names) else f"card #{card_id}"

    def who(seat):
        return f"seat {seat} ({seat_labels[seat]})"

    def level_name(level):
        return "I II III IV".split()[level - 1]

    lines = []
    for row in trace:
        event, a, b, c, d, e, f, g = (int(x) for x in row)
        name = EVENT_NAMES[event]
        if name == "setup":
            names = _NAMES_BY_FINGERPRINT.get(d, ())
            lines.append(f"{who(a)} moves first; supply {b} followers, {c} damage counters")
        elif name == "draw":
            how = ("is dealt", "draws", "draws (effect)")[d]
            lines.append(f"   seat {a} {how} {card(b)} from stack {level_name(c)}")
        elif name == "turn":
            lines.append(f"-- turn {b}: {who(a)} with {c} actions")
        elif name == "move":
            move = MOVES[b]
            if move == "draw":
                detail = f" from stack {level_name(c)}"
            elif move == "gain":
                detail = f" onto {card(c)}"
            elif move == "play":
                detail = f" {card(c)}" + (
                    f" onto {card(d)}" if d >= 0 and c >= 0 and d != c else ""
                )
            elif move == "ability":
                detail = f" of {card(c)} (#{d + 1})"
            else:
                detail = ""
            lines.append(f"   seat {a}: {move}{detail} [{e} action(s), {f} left]")
        elif name == "response":
            what = card(c) if b == REACT else f"{card(c)} ability #{d + 1}"
            lines.append(f"   seat {a} responds to {TRIGGERS[e]} with {what}")
        elif name == "effect":
            lines.append(f"     {card(b)}: {OPS[c]} {d}")
        elif name == "place":
            source = "the supply" if d < 0 else card(d)
            lines.append(f"     {c} follower(s) from {source} onto {card(b)} (seat {a})")
        elif name == "damage":
            lines.append(f"     {card(a)} takes {c} damage ({d} counters placed, {e} killed)")
        elif name == "kill":
            lines.append(f"     {c} follower(s) killed on {card(a)}")
        elif name == "destroy":
            lines.append(f"     {card(a)} is destroyed ({c} followers killed)")
        elif name == "discard":
            lines.append(f"     {card(a)} goes to the discard pile")
        elif name == "attach":
            lines.append(f"     {card(a)} attached to {card(b)}")
        elif name == "arrange":
            lines.append(f"     {card(b)}: {c} follower(s)")
        elif name == "repair":
            lines.append(f"     {card(a)} repaired by {c}")
        elif name == "recover":
            lines.append(f"     seat {a} takes {card(b)} back from the discard pile")
        elif name == "cancel":
            lines.append(f"     seat {a}'s attack is cancelled")
        elif name == "target":
            lines.append(f"     {card(b)} targets {card(d)} (its effect #{c + 1})")
        elif name == "snapshot":
            lines.append(
                f"   seat {a}: level {level_name(b)}, {c} followers, {d} cards in hand, "
                f"{e} sites, {f} damage"
            )
        elif name == "table":
            lines.append(f"   supply {a}, pool {b}, discard {c}, stacks {d}/{e}/{f}/{g}")
        elif name == "standing":
            lines.append(f"   standing: {who(b)} {c} followers, level {level_name(d)}")
        elif name == "end":
            reason = END_REASONS[d]
            result = "a draw" if a < 0 else f"{who(a)} wins"
            lines.append(f"== after {b} turns ({reason}): {result}")
    return lines
