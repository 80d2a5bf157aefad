"""Time Barons (../shared/rules/time-barons.md): a data-driven card kernel over plain state arrays.

The 50 level cards are not in the rulebook: they are data (a TOML card file, the rule parameter
``cards``), whose effects come from the vocabulary of ``simcore/time_barons_state.py`` and
docs/games/time-barons.md. Every choice the rulebook leaves open is a rule parameter below or a
documented convention there. Decisions come from ``strategies/time_barons.py``; this module only
applies rules.
"""

import hashlib
import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numba import njit, prange

from simcore import chunk, files
from simcore.chunk import (
    ENDED_BY,
    ENDED_CAP,
    ENDED_DRAW,
    ENDED_RULES,
    N_STANDARD_GAME_COLUMNS,
    N_STANDARD_SEAT_COLUMNS,
    TURNS,
    WINNER,
    WON,
    block_bounds,
    record_event,
    seat_lineup,
)
from simcore.intrinsics import ix
from simcore.registry import Arcs, CardImpact, Column, Game, Param, SpecError
from simcore.rng import rand_below, seed_game_stream
from simcore.time_barons_state import (
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
    CARD_WIDTH,
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
    MOVES,
    N_FOLLOWERS,
    N_LEVELS,
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
    TRACE_LEN,
    TRACE_WIDTH,
    TRIGGERS,
    TURN,
    TYPES,
    UNUSED,
    UPGRADE,
    UPGRADE_DISCOUNT,
    USED,
    VALUE_BOUND,
    answers,
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
    move_cost,
    move_is_legal,
    response_is_legal,
    site_at,
    site_discount,
    sites_n,
    spare_on,
    stack_left,
)
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
    strategy_param_names=strategy.PARAM_NAMES,
    default_strategy="builder",
    game_columns=GAME_COLUMNS,
    seat_columns=SEAT_COLUMNS,
    card_impact=(CardImpact("level card", "drawn_mask", "played_mask", card_labels),),
    arcs=ARCS,
    module=__name__,
    doc="two time-travelling barons build sites, grow followers and tear each other down; "
    "the cards are data",
    rulebook="time-barons.md",
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
def hidden_slot(st, cards, seat, level, k):
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
        if st[ix(SHOWN + card)] == 0 and cards[ix(card), C_LEVEL] == level:
            if k == 0:
                return HAND + MAX_IDS * other + i
            k -= 1
    return -1


@njit(cache=True, _nrt=False)
def determinize(st, cards, seat, rng):
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
    was not) and a forgotten value bound, as a draw would leave them."""
    other = 1 - seat
    for level in range(1, N_LEVELS + 1):
        count = 0
        while hidden_slot(st, cards, seat, level, count) >= 0:
            count += 1
        for i in range(count - 1, 0, -1):  # Fisher-Yates over the level's hidden places
            j = rand_below(rng, i + 1)
            a = hidden_slot(st, cards, seat, level, i)
            b = hidden_slot(st, cards, seat, level, j)
            swap = st[ix(a)]
            st[ix(a)] = st[ix(b)]
            st[ix(b)] = swap
        for k in range(count):
            where = hidden_slot(st, cards, seat, level, k)
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


@njit(cache=True, _nrt=False)
def pick_site(seat, purpose, n, st, cards, rules, sids, prm, rng):
    """The site ``seat`` chooses for ``purpose``, checked (there is always a candidate)."""
    site = strategy.choose_site(sids[seat], prm, seat, purpose, n, st, cards, rules, rng)
    if not is_candidate(st, seat, purpose, site):
        raise ValueError("strategy chose a site it cannot choose")
    return site


@njit(cache=True, _nrt=False)
def has_candidate(st, seat, purpose):
    owner = 1 - seat if purpose <= PICK_STEAL else seat
    for i in range(sites_n(st, owner)):
        if is_candidate(st, seat, purpose, site_at(st, owner, i)):
            return True
    return False


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
    for i in range(n):
        site = site_at(st, seat, i)
        set_followers(st, site, st[ix(ARRANGE + i)])
        record_event(trace, st, TRACE_LEN, EV_ARRANGE, seat, site, st[ix(ARRANGE + i)])


CHOOSE_NOW = -2  # apply_effect's target: the owner chooses the site as the effect resolves


@njit(cache=True, _nrt=False)
def effect_site(seat, purpose, n, target, st, cards, rules, sids, prm, rng):
    """The site a damage or destroy effect hits: the one named when the attack was declared, if
    it is still one the effect may hit; else, if none was named (CHOOSE_NOW), the owner's choice
    now; -1 for none."""
    if target != CHOOSE_NOW:
        return target if is_candidate(st, seat, purpose, target) else -1
    if has_candidate(st, seat, purpose):
        return pick_site(seat, purpose, n, st, cards, rules, sids, prm, rng)
    return -1


@njit(cache=True, _nrt=False)
def apply_effect(seat, op, n, target, st, cards, rules, sids, prm, rng, trace):
    """One effect of a card or ability owned by ``seat``; the owner makes every choice. A damage
    or destroy effect hits ``target``, the site its attack named (NO_TARGET: none), or with
    CHOOSE_NOW the site the owner chooses now."""
    other = 1 - seat
    if op == E_DAMAGE:
        site = effect_site(seat, PICK_DAMAGE, n, target, st, cards, rules, sids, prm, rng)
        if site >= 0:
            damage_site(site, n, seat, st, cards, trace)
    elif op == E_DAMAGE_EACH:
        # Backwards: a destroyed site only shifts the sites after it, already done.
        for i in range(sites_n(st, other) - 1, -1, -1):
            if st[OVER] == 1:
                return
            damage_site(site_at(st, other, i), n, seat, st, cards, trace)
    elif op == E_KILL:
        for _ in range(n):
            if st[OVER] == 1 or not has_candidate(st, seat, PICK_KILL):
                return
            kill_on(
                pick_site(seat, PICK_KILL, 1, st, cards, rules, sids, prm, rng), 1, seat, st, trace
            )
    elif op == E_KILL_EVERYWHERE:
        for owner in (seat, other):
            for i in range(sites_n(st, owner)):
                kill_on(site_at(st, owner, i), n, seat, st, trace)
    elif op == E_DESTROY:
        site = effect_site(seat, PICK_DESTROY, 1, target, st, cards, rules, sids, prm, rng)
        if site >= 0:
            destroy_site(site, seat, st, cards, trace)
    elif op == E_STEAL:
        for _ in range(n):
            if st[OVER] == 1 or not has_candidate(st, seat, PICK_STEAL):
                return
            source = pick_site(seat, PICK_STEAL, 1, st, cards, rules, sids, prm, rng)
            to_site = pick_site(seat, PICK_PLACE, 1, st, cards, rules, sids, prm, rng)
            move_followers(source, -1, st)
            move_followers(to_site, 1, st)
            record_event(trace, st, TRACE_LEN, EV_PLACE, seat, to_site, 1, source)
    elif op == E_GAIN:
        for _ in range(n):
            if st[SUPPLY] == 0 or sites_n(st, seat) == 0:
                return
            place_from_supply(
                seat, pick_site(seat, PICK_PLACE, 1, st, cards, rules, sids, prm, rng), 1, st, trace
            )
    elif op == E_ACTIONS:
        if st[ACTIVE] == seat:  # actions gained on the opponent's turn are lost
            st[ACTIONS] += n
    elif op == E_DRAW:
        for _ in range(n):
            level = strategy.choose_stack(sids[seat], prm, seat, st, cards, rng)
            if level == 0:
                return
            if level < 0 or level > st[ix(LEVEL + seat)] or stack_left(st, level) == 0:
                raise ValueError("strategy drew from a stack it cannot draw from")
            draw_card(seat, level, DRAW_EFFECT, st, trace)
    elif op == E_REPAIR:
        for _ in range(n):
            if not has_candidate(st, seat, PICK_REPAIR):
                return
            site = pick_site(seat, PICK_REPAIR, 1, st, cards, rules, sids, prm, rng)
            st[ix(DAMAGE + site)] -= 1
            st[POOL] += 1
            record_event(trace, st, TRACE_LEN, EV_REPAIR, site, seat, 1)
    elif op == E_RECOVER:
        for _ in range(n):
            if st[DISCARD_N] == 0:
                return
            i = strategy.choose_recover(sids[seat], prm, seat, st, cards, rng)
            if i < 0 or i >= st[DISCARD_N]:
                raise ValueError("strategy recovered a card that is not in the discard pile")
            card = discard_take(st, i)
            hand_add(st, seat, card)
            st[ix(SHOWN + card)] = 1  # taken from the public pile: both players know it
            record_event(trace, st, TRACE_LEN, EV_RECOVER, seat, card)
    elif op == E_SACRIFICE:
        for _ in range(n):
            if st[OVER] == 1 or not has_candidate(st, seat, PICK_SACRIFICE):
                return
            kill_on(
                pick_site(seat, PICK_SACRIFICE, 1, st, cards, rules, sids, prm, rng),
                1,
                seat,
                st,
                trace,
            )
    elif op == E_DISCARD:
        for _ in range(n):  # the discarded cards are random: the hand is hidden from the owner
            if hand_n(st, other) == 0:
                return
            card = hand_card(st, other, rand_below(rng, hand_n(st, other)))
            hand_remove(st, other, card)
            discard_add(st, card)
            record_event(trace, st, TRACE_LEN, EV_DISCARD, card, other, FROM_HAND)
    elif op == E_RELOCATE:
        relocate(seat, st, cards, rules, sids, prm, rng, trace)
    elif op == E_CANCEL:
        st[CANCELLED] = 1


@njit(cache=True, _nrt=False)
def resolve(seat, source, base, n_effects, declared, st, cards, rules, sids, prm, rng, trace):
    """The effects at ``cards[source, base:]`` in order, stopping if the game ends; ``declared``:
    the sites of the attack's damage and destroy effects were named (st[TARGETS + k])."""
    for k in range(n_effects):
        if st[OVER] == 1:
            return
        op = cards[ix(source), ix(base + 2 * k)]
        n = cards[ix(source), ix(base + 2 * k + 1)]
        target = st[ix(TARGETS + k)] if declared else CHOOSE_NOW
        record_event(trace, st, TRACE_LEN, EV_EFFECT, seat, source, op, n)
        apply_effect(seat, op, n, target, st, cards, rules, sids, prm, rng, trace)


# --- responses on the opponent's turn -------------------------------------------------------


# Inlined into its callers: most windows have nothing that answers the trigger, and then the
# call of response_window with all the game's arrays would cost more than the test.
@njit(cache=True, _nrt=False, inline="always")
def respond(trigger, st, cards, rules, sids, prm, rng, trace):
    """The player not on turn may answer ``trigger`` with reactions from its hand (no action
    cost) and its sites' infinite abilities with that trigger (each once per trigger)."""
    if may_answer(st, 1 - st[ACTIVE], trigger):  # otherwise the strategy could only pass
        response_window(trigger, st, cards, rules, sids, prm, rng, trace)


@njit(cache=True, _nrt=False)
def response_window(trigger, st, cards, rules, sids, prm, rng, trace):
    """``respond`` when the player not on turn has something that answers ``trigger``."""
    seat = 1 - st[ACTIVE]
    for i in range(sites_n(st, seat)):
        st[ix(RESPONDED + site_at(st, seat, i))] = 0
    for _ in range(MOVE_CAP):
        if st[OVER] == 1:
            return
        kind, a, b = strategy.choose_response(sids[seat], prm, seat, trigger, st, cards, rules, rng)
        if kind == PASS:
            return
        if not response_is_legal(st, cards, seat, trigger, kind, a, b):
            raise ValueError("strategy chose an illegal response")
        record_event(trace, st, TRACE_LEN, EV_RESPONSE, seat, kind, a, b, trigger)
        if kind == REACT:
            hand_remove(st, seat, a)
            mark_card(st, seat, ST_PLAYED, ST_PLAYED_MASK, a)
            resolve(
                seat,
                a,
                C_EFFECTS,
                cards[ix(a), C_N_EFFECTS],
                False,
                st,
                cards,
                rules,
                sids,
                prm,
                rng,
                trace,
            )
            discard_add(st, a)
            record_event(trace, st, TRACE_LEN, EV_DISCARD, a, seat, FROM_PLAY)
        else:
            st[ix(RESPONDED + a)] |= np.int64(1) << np.int64(b)
            base = C_ABILITIES + ABILITY_WIDTH * b
            resolve(
                seat,
                a,
                base + A_EFFECTS,
                cards[ix(a), ix(base + A_N_EFFECTS)],
                False,
                st,
                cards,
                rules,
                sids,
                prm,
                rng,
                trace,
            )


# Inlined into its callers (like respond, whose test it mostly is): a call passing all the
# game's arrays costs more than the test.
@njit(cache=True, _nrt=False, inline="always")
def attack_cancelled(st, cards, rules, sids, prm, rng, trace):
    """The attacked player's response window, before an attack resolves (st[ATTACK] says what
    the attack is): cancelled?"""
    st[CANCELLED] = 0
    respond(ON_ATTACK, st, cards, rules, sids, prm, rng, trace)
    cancelled = st[CANCELLED] == 1
    st[CANCELLED] = 0
    if cancelled:
        record_event(trace, st, TRACE_LEN, EV_CANCEL, st[ACTIVE])
    return cancelled


@njit(cache=True, _nrt=False)
def open_attack(source, ability, st):
    """Make the attack public for the response window: its card or site, its ability (-1: the
    card's own effects), no site named yet."""
    st[ATTACK] = source
    st[ATTACK_ABILITY] = ability
    for k in range(MAX_EFFECTS):
        st[TARGETS + k] = NO_TARGET


@njit(cache=True, _nrt=False)
def attack(seat, source, ability, st, cards, rules, sids, prm, rng, trace):
    """An event (``ability`` -1) or ability with a harmful op: with attack_targets "declared"
    the attacker names the site of each damage and destroy effect first; then the attacked
    player answers; then, unless cancelled, the effects resolve (on the named sites)."""
    if ability < 0:
        base = C_EFFECTS
        n_effects = cards[ix(source), C_N_EFFECTS]
    else:
        base = C_ABILITIES + ABILITY_WIDTH * ability + A_EFFECTS
        n_effects = cards[ix(source), ix(base - A_EFFECTS + A_N_EFFECTS)]
    open_attack(source, ability, st)
    declared = rules[R_ATTACK_TARGETS] == TARGETS_DECLARED
    if declared:
        for k in range(n_effects):
            op = cards[ix(source), ix(base + 2 * k)]
            n = cards[ix(source), ix(base + 2 * k + 1)]
            purpose = PICK_DAMAGE if op == E_DAMAGE else PICK_DESTROY
            if (op == E_DAMAGE or op == E_DESTROY) and has_candidate(st, seat, purpose):
                site = pick_site(seat, purpose, n, st, cards, rules, sids, prm, rng)
                st[ix(TARGETS + k)] = site
                record_event(trace, st, TRACE_LEN, EV_TARGET, seat, source, k, site)
    if not attack_cancelled(st, cards, rules, sids, prm, rng, trace):
        resolve(seat, source, base, n_effects, declared, st, cards, rules, sids, prm, rng, trace)
    st[ATTACK] = NO_ATTACK


# --- a turn and a game ----------------------------------------------------------------------


# Inlined into take_turn: a call passing all the game's arrays costs as much as a simple move.
@njit(cache=True, _nrt=False, inline="always")
def apply_move(seat, kind, a, b, st, cards, rules, sids, prm, rng, trace):
    """Pay for and carry out a legal move of the player on turn."""
    paid = move_cost(st, cards, rules, seat, kind, a, b)
    st[ACTIONS] -= paid
    record_event(trace, st, TRACE_LEN, EV_MOVE, seat, kind, a, b, paid, st[ACTIONS])
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
        base = C_ABILITIES + ABILITY_WIDTH * b
        if cards[ix(a), ix(base + A_INFINITE)] == 0:
            st[ix(USED + a)] = 1
        if cards[ix(a), ix(base + A_HARMFUL)] == 1:
            attack(seat, a, b, st, cards, rules, sids, prm, rng, trace)
            return
        resolve(
            seat,
            a,
            base + A_EFFECTS,
            cards[ix(a), ix(base + A_N_EFFECTS)],
            False,
            st,
            cards,
            rules,
            sids,
            prm,
            rng,
            trace,
        )
    elif kind == PLAY:
        hand_remove(st, seat, a)
        mark_card(st, seat, ST_PLAYED, ST_PLAYED_MASK, a)
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
            # Discarded if cancelled, or if a response destroyed its site (nothing to attach to).
            if cancelled or st[ix(LOC + b)] != IN_PLAY:
                discard_add(st, a)
                record_event(trace, st, TRACE_LEN, EV_DISCARD, a, seat, FROM_PLAY)
            else:
                attach(a, b, seat, st, cards, trace)
            return
        if cards[ix(a), C_HARMFUL] == 1:
            attack(seat, a, -1, st, cards, rules, sids, prm, rng, trace)
        else:
            resolve(
                seat,
                a,
                C_EFFECTS,
                cards[ix(a), C_N_EFFECTS],
                False,
                st,
                cards,
                rules,
                sids,
                prm,
                rng,
                trace,
            )
        discard_add(st, a)
        record_event(trace, st, TRACE_LEN, EV_DISCARD, a, seat, FROM_PLAY)


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


@njit(cache=True, _nrt=False)
def take_turn(seat, turn, st, cards, rules, sids, prm, rng, trace):
    st[ACTIVE] = seat
    st[TURN] = turn
    actions = rules[R_FIRST_TURN_ACTIONS] if turn == 0 else rules[R_ACTIONS]
    st[ACTIONS] = np.int64(actions)
    record_event(trace, st, TRACE_LEN, EV_TURN, seat, turn, st[ACTIONS])
    start_of_turn(seat, st, cards, trace)
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
def play_game(st, cards, rules, sids, prm, rng, trace):
    """Set up and play one game: (winner or -1, turns, truncated, end reason)."""
    setup(st, cards, rules, rng, trace)
    seat = st[FIRST]
    turns = 0
    reason = -1
    max_turns = np.int64(rules[R_MAX_TURNS])
    while reason < 0 and turns < max_turns:
        take_turn(seat, turns, st, cards, rules, sids, prm, rng, trace)
        turns += 1
        if trace.shape[0] > 0:
            snapshot(st, trace)
        reason = end_reason(st, rules)
        seat = 1 - seat
        record_standing(turns, st, trace)
    if reason < 0:
        reason = END_TURN_CAP
    winner = winner_of(st, reason)
    for s in range(2):
        st[STATS + N_SEAT_STATS * s + ST_LEVEL] = st[LEVEL + s]
        st[STATS + N_SEAT_STATS * s + ST_FOLLOWERS] = followers(st, s)
        st[STATS + N_SEAT_STATS * s + ST_SITES] = sites_n(st, s)
    truncated = reason == END_TURN_CAP
    record_event(trace, st, TRACE_LEN, EV_END, winner, turns, truncated, reason)
    return winner, turns, truncated, reason


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
    lineup_ids, lineup_params, seed, game_index, rotate,
    st, cards, rules, sids, prm, rng, trace, g, game_out, seat_out,
):  # fmt: skip
    """Seat the lineup for ``game_index``, play it from its own stream, write row ``g``."""
    seat_lineup(lineup_ids, lineup_params, game_index, 2, rotate, sids, prm, seat_out, g)
    seed_game_stream(seed, game_index, rng)
    winner, turns, truncated, reason = play_game(st, cards, rules, sids, prm, rng, trace)
    game_out[g, WINNER] = winner
    game_out[g, TURNS] = turns
    game_out[g, ENDED_BY] = ENDED_CAP if truncated else (ENDED_DRAW if winner < 0 else ENDED_RULES)
    game_out[g, FIRST_PLAYER_COLUMN] = st[FIRST]
    game_out[g, END_COLUMN] = reason
    for seat in range(2):
        seat_out[g, seat, WON] = seat == winner
        for k in range(N_SEAT_STATS):
            seat_out[g, seat, N_STANDARD_SEAT_COLUMNS + k] = st[STATS + N_SEAT_STATS * seat + k]


@njit(parallel=True, cache=True)
def simulate_chunk(
    rules, cards, lineup_ids, lineup_params, seed, first_index, rotate, game_out, seat_out
):
    n_games = game_out.shape[0]
    n_blocks = min(n_games, 64)
    for block in prange(n_blocks):
        # Each block owns its scratch state; games never share anything but read-only inputs.
        st = np.zeros(STATE_SIZE, dtype=np.int64)
        sids = np.zeros(2, dtype=np.int64)
        prm = np.zeros((2, lineup_params.shape[1]), dtype=np.float64)
        rng = np.zeros(4, dtype=np.uint64)
        no_trace = np.zeros((0, TRACE_WIDTH), dtype=np.int64)
        lo, hi = block_bounds(n_games, n_blocks, block)
        for g in range(lo, hi):
            play_indexed(
                lineup_ids, lineup_params, seed, first_index + g, rotate,
                st, cards, rules, sids, prm, rng, no_trace, g, game_out, seat_out,
            )  # fmt: skip


# --- the interface the runner and the CLI use ---------------------------------------------


def run_chunk(prepared, players, lineup_ids, lineup_params, seed, first_index, n_games, rotate):
    """Play ``n_games`` games from ``first_index`` on: (game_out, seat_out) int64 arrays."""
    chunk.check_lineup(players, lineup_ids, lineup_params)
    rules, cards = prepared
    game_out, seat_out = chunk.new_outputs(
        n_games,
        players,
        N_STANDARD_GAME_COLUMNS + len(GAME_COLUMNS),
        N_STANDARD_SEAT_COLUMNS + N_SEAT_STATS,
    )
    simulate_chunk(
        rules, cards, lineup_ids, lineup_params, np.uint64(seed), first_index, rotate,
        game_out, seat_out,
    )  # fmt: skip
    return game_out, seat_out


FIRST_TRACE_ROWS = 4096  # a longer game is played again with a bigger buffer


def trace_game(prepared, players, lineup_ids, lineup_params, seed, game_index, rotate):
    """The event trace of one game, exactly as the chunk kernel plays it."""
    chunk.check_lineup(players, lineup_ids, lineup_params)
    rules, cards = prepared
    sids, prm, rng, game_out, seat_out = chunk.one_game_scratch(
        players,
        lineup_params,
        N_STANDARD_GAME_COLUMNS + len(GAME_COLUMNS),
        N_STANDARD_SEAT_COLUMNS + N_SEAT_STATS,
    )

    def play(st, trace):
        play_indexed(
            lineup_ids, lineup_params, np.uint64(seed), game_index, rotate,
            st, cards, rules, sids, prm, rng, trace, 0, game_out, seat_out,
        )  # fmt: skip

    return chunk.trace_one_game(play, FIRST_TRACE_ROWS, STATE_SIZE, TRACE_LEN, TRACE_WIDTH)


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
