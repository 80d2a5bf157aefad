"""Time Barons' card set: the TOML card file read, checked and encoded as the card table.

The 50 level cards are not in the rulebook: they are data (the rule parameter ``cards``; the
shipped sample is ``simcore/data/time_barons_cards.toml``), written in the effect vocabulary of
``simcore/games/time_barons/state.py`` and docs/games/time-barons.md. The card file is read here,
by ``prepare`` (simcore/games/time_barons/game.py), never inside the kernel; every mistake in it is
one SpecError line naming the file, the card and the field.
"""

import hashlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simcore.games.time_barons.state import (
    A_COST,
    A_EFFECTS,
    A_FOLLOWERS,
    A_HARMFUL,
    A_INFINITE,
    A_N_EFFECTS,
    A_TRIGGER,
    ABILITY_WIDTH,
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
    CARD_WIDTH,
    FIRST_ATTACHMENT_OP,
    FIRST_PASSIVE_OP,
    HARMFUL_OPS,
    HOMELAND,
    MAX_CARDS,
    MAX_IDS,
    N_LEVELS,
    NO_TYPE,
    OPS,
    S_FINGERPRINT,
    S_LEVEL_COUNT,
    S_N_CARDS,
    SET_ROW,
    TRIGGERS,
    TYPES,
)
from simcore.registry import SpecError
from simcore.workflows import data_schemas, schemas

SHIPPED_CARDS = Path(__file__).parents[2] / "data" / "time_barons_cards.toml"
CARD_KEYS = ("name", "level", "type", "cost", "integrity", "fortified", "trigger", "effects")
SITE_KEYS = ("passives", "abilities")
WHERE_OPS = {
    "action": "an effect of an event, ability or reaction",
    "attachment": "an attachment's effect",
    "passive": "a site's passive",
}
NO_AMOUNT_OPS = ("destroy", "relocate", "cancel", "fortify", "disable")
MAX_AMOUNT = data_schemas.MAX_AMOUNT  # also the effect texts' amounts


@dataclass(frozen=True)
class CardSet:
    """A parsed card file: ``names[card id]`` ("" for unused ids) and the card table."""

    path: str
    names: tuple[str, ...]
    table: np.ndarray

    @property
    def fingerprint(self) -> int:
        return int(self.table[SET_ROW, S_FINGERPRINT])


_NAMES_BY_FINGERPRINT: dict[int, tuple[str, ...]] = {}  # for describe_trace (``card_names``)


def card_names(fingerprint: int) -> tuple[str, ...]:
    """The names of the card set with this fingerprint if ``load_cards`` read it in this process,
    else ()."""
    return _NAMES_BY_FINGERPRINT.get(fingerprint, ())


def load_cards(path_text: str) -> CardSet:
    """Read and check a card file ("" = the shipped sample); every mistake is one SpecError line
    naming the file, the card and the field."""
    path = Path(path_text) if path_text else SHIPPED_CARDS
    # The file's shape (keys, types, ranges, list lengths) is its model's; what follows is the
    # rest: which keys a card of each type takes, and the effect texts. The rows read the keys
    # the file gives.
    checked = schemas.read_toml(path, "card file", data_schemas.TimeBaronsCards)
    entries = [card.model_dump(exclude_unset=True) for card in checked.card]
    table = np.zeros((MAX_IDS + 1, CARD_WIDTH), dtype=np.int64)
    table[:, C_TYPE] = NO_TYPE
    names = []
    for card_id, entry in enumerate(entries):
        names.append(_card_row(path, f"card {card_id + 1}", entry, table[card_id], False))
    homeland = dict(checked.homeland.model_dump(), level=0, type="site", cost=0)
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
    """Fill one card's table row from its entry (shaped by ``data_schemas.Card``, the keys the
    file gives); return its name."""
    name = entry["name"]
    where = f"card {name!r}" if not homeland else f"homeland {name!r}"

    def fail(field: str, problem: str):
        raise SpecError(f"{path}: {where}: field {field}: {problem}")

    kind = entry["type"]
    allowed = CARD_KEYS + (SITE_KEYS if kind == "site" else ())
    for key in entry:
        if key not in allowed:
            fail(key, f"unknown for a {kind} (allowed: {', '.join(allowed)})")
    if kind != "reaction" and "cost" not in entry:
        fail("cost", "missing")
    row[C_LEVEL] = entry["level"]
    row[C_TYPE] = TYPES.index(kind)
    row[C_COST] = entry.get("cost") or 0
    if kind == "site":
        if entry.get("integrity") is None:
            fail("integrity", "missing (a site has one)")
        row[C_INTEGRITY] = entry["integrity"]
        row[C_FORTIFIED] = bool(entry.get("fortified"))
        row[C_N_EFFECTS] = _effects(
            entry.get("passives") or [], "passives", "passive", row, C_EFFECTS, fail
        )
        abilities = entry.get("abilities") or []
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


def _ability(ability: dict, field: str, row: np.ndarray, base: int, fail) -> None:
    """Fill one ability's slots (shaped by ``data_schemas.Ability``)."""
    row[base + A_FOLLOWERS] = ability.get("followers", 0)
    row[base + A_COST] = ability.get("cost", 0)
    infinite = ability.get("infinite", False)
    trigger = ability.get("trigger", "")
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
    first, stop = {
        "action": (1, FIRST_ATTACHMENT_OP),
        "attachment": (FIRST_ATTACHMENT_OP, FIRST_PASSIVE_OP),
        "passive": (FIRST_PASSIVE_OP, len(OPS)),
    }[context]
    allowed = OPS[first:stop]
    for k, text in enumerate(texts):
        parts = text.split()
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
    if 0 < rules["hand_limit"] < rules["hand_size"]:
        raise SpecError(
            f"time-barons: hand_limit={rules['hand_limit']} is below the hand_size="
            f"{rules['hand_size']} cards dealt at set-up"
        )


def card_labels(rules: dict) -> tuple[str, ...]:
    """The level cards' names in id order, made unique (``Name (2)``) for the card-impact tables."""
    cards = load_cards(rules["cards"])
    labels = []
    for name in cards.names[: cards.table[SET_ROW, S_N_CARDS]]:
        count = sum(1 for label in labels if label == name or label.startswith(f"{name} ("))
        labels.append(name if count == 0 else f"{name} ({count + 1})")
    return tuple(labels)
