"""Power Struggle's data file (TOML, format in docs/games/power-struggle.md): the event cards,
the competence tracks' golden spaces, the share blocks, the Bonus Payment amounts and the
Archenemy Competence cards, none of which the rulebook gives. ``load_data`` parses and checks one
(a one-line SpecError naming the file and the field) and encodes it as the table part of the
prepared vector (layout: state.py P_*)."""

import tomllib
from importlib import resources

import numpy as np

from simcore.games.power_struggle import state as ps
from simcore.games.power_struggle.state import EVENT_WIDTH
from simcore.registry import SpecError
from simcore.workflows import data_schemas, files, schemas

DEFAULT_DATA = "power_struggle_default.toml"
DIVISION_KEYS = data_schemas.PS_DIVISIONS
CARD_KEYS = data_schemas.PS_PRIVILEGES


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


def _choice(where: str, value, names: tuple[str, ...]) -> int:
    if value not in names:
        raise SpecError(f"{where}: {value!r} is not one of {', '.join(names)}")
    return names.index(value)


def _amount(where: str, value, low: int, high: int) -> int:
    if value is None:
        raise SpecError(f"{where}: missing")
    if not low <= value <= high:
        raise SpecError(f"{where}: {value} is not in [{low}, {high}]")
    return value


def _effect(where: str, effect: data_schemas.EventEffect) -> list[int]:
    """One effect (shaped by ``data_schemas.EventEffect``) as [kind, who, per, amount, division]."""
    kind = ps.EFFECT_KINDS.index(effect.kind)
    who = ps.EFFECT_WHO.index(effect.who)
    per = ps.EFFECT_PER.index(effect.per)
    division = -1
    if kind == ps.FX_FACE_DOWN:
        division = _choice(f"{where}.division", effect.division, CARD_KEYS)
    elif effect.division is not None:
        division = _choice(f"{where}.division", effect.division, DIVISION_KEYS)
    if kind == ps.FX_FACE_DOWN:
        amount = 0
    elif kind == ps.FX_MOTIVATION:
        amount = _amount(f"{where}.amount", effect.amount, -6, 6)
    elif kind == ps.FX_LOSE:
        amount = _amount(f"{where}.amount", effect.amount, 1, 36)
    else:
        amount = _amount(f"{where}.amount", effect.amount, 0, 10_000_000)
    if who == ps.WHO_HEAD and division < 0:
        raise SpecError(f'{where}.division: who = "head" needs the division whose head it is')
    if kind == ps.FX_LOSE and effect.given("per"):
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
    # The file's shape (keys, ranges, names, list lengths) is its model's; what follows is the rest.
    checked = schemas.check(data_schemas.PowerStruggleData, data, name)
    maxima = [getattr(checked.tracks, key) for key in ps.TRACKS]
    prices = checked.shares.prices
    stock = getattr(checked.shares, f"players_{players}")
    bonus = [getattr(checked.bonus_payment, key) for key in ps.BONUS_ITEMS]
    kept, kept_ids = [], []
    for k, card in enumerate(checked.archenemy_competence):
        if players >= card.players:
            kept.extend(ps.COMPETENCES.index(c) for c in card.competences)
            kept_ids.append(k)
    if len(kept_ids) < players:
        raise SpecError(
            f"{where}: archenemy_competence: {len(kept_ids)} cards are used at {players} "
            f"players, fewer than the {players} to deal"
        )
    names, rows = [], []
    for k, event in enumerate(checked.events):
        row = [len(event.effects)]
        for j, effect in enumerate(event.effects):
            row.extend(_effect(f"{where}: events[{k}].effects[{j}]", effect))
        row.extend([0] * (EVENT_WIDTH - len(row)))
        names.extend([event.name] * event.count)
        rows.extend([row] * event.count)
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
