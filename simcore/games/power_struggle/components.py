"""Power Struggle's data file (TOML, format in docs/games/power-struggle.md): the event cards,
the competence tracks' golden spaces, the share blocks, the Bonus Payment amounts and the
Archenemy Competence cards, none of which the rulebook gives. ``load_data`` parses and checks one
(a one-line SpecError naming the file and the field) and encodes it as the table part of the
prepared vector (layout: state.py P_*)."""

import tomllib
from importlib import resources

import numpy as np

from simcore.games.power_struggle import state as ps
from simcore.games.power_struggle.state import EVENT_WIDTH, N_SIZES
from simcore.registry import SpecError
from simcore.workflows import files

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
