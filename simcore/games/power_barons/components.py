"""Power Barons' components file: the deck and the board, which the rulebook leaves to the
game (../shared/rules/power-barons.md).

A TOML file (format in docs/games/power-barons.md): the card values of each colour and the board's
spaces, each territory's INVESTMENTS PAY OFF space once. The shipped one is
simcore/data/power_barons_default.toml, a designer's own the rule parameter ``components``.
``load_components`` reads and checks one (a one-line SpecError naming the file and the field) and
encodes it as the code arrays that ``prepare`` (simcore/games/power_barons/game.py) lays out for
the kernel.
"""

import tomllib
from importlib import resources

import numpy as np

from simcore.games.power_barons.state import (
    COLOURS,
    INVESTMENTS,
    MAX_CARD_VALUE,
    MAX_CARDS,
    MAX_SPACES,
    N_TERRITORIES,
    SPACES,
    TERRITORIES,
)
from simcore.registry import SpecError
from simcore.workflows import files

DEFAULT_COMPONENTS = "power_barons_default.toml"
DECK_KEYS = tuple(name.lower().replace(" ", "_") for name in COLOURS)
TERRITORY_KEYS = tuple(name.lower() for name in TERRITORIES)


def _components_text(path: str) -> tuple[str, str]:
    """(name for messages, TOML text) of the components file (the shipped one for "")."""
    if path == "":
        shipped = resources.files("simcore").joinpath("data", DEFAULT_COMPONENTS)
        return f"simcore/data/{DEFAULT_COMPONENTS}", shipped.read_text()
    return path, files.read_text(path, "components file")


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


def load_components(path: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(card colours, card values, space kinds, space territories) of a components file, or a
    one-line SpecError naming the file and the field."""
    name, text = _components_text(path)
    where = f"power-barons: components {name}"
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError) as error:
        raise SpecError(f"{where}: not valid TOML ({error})") from None
    for key in data:
        if key not in ("deck", "board"):
            raise SpecError(f"{where}: {key}: unknown key (expected deck, board)")
    deck = _table(where, data, "deck", DECK_KEYS)
    colours, values = [], []
    for card_colour, key in enumerate(DECK_KEYS):
        cards = deck[key]
        if not isinstance(cards, list):
            raise SpecError(f"{where}: deck.{key}: expected a list of card values")
        for k, credits in enumerate(cards):
            if isinstance(credits, bool) or not isinstance(credits, int):
                raise SpecError(f"{where}: deck.{key}[{k}]: expected an integer, got {credits!r}")
            if not 1 <= credits <= MAX_CARD_VALUE:
                raise SpecError(
                    f"{where}: deck.{key}[{k}]: {credits} is not in [1, {MAX_CARD_VALUE}]"
                )
            colours.append(card_colour)
            values.append(credits)
    if not 1 <= len(values) <= MAX_CARDS:
        raise SpecError(f"{where}: deck: {len(values)} cards, expected 1 to {MAX_CARDS}")
    spaces = _table(where, data, "board", ("spaces",))["spaces"]
    if not isinstance(spaces, list) or not N_TERRITORIES <= len(spaces) <= MAX_SPACES:
        raise SpecError(
            f"{where}: board.spaces: expected a list of {N_TERRITORIES} to {MAX_SPACES} spaces"
        )
    kinds, territories = [], []
    for k, space in enumerate(spaces):
        kind, _, territory = str(space).partition(":")
        if not isinstance(space, str) or kind not in SPACES:
            raise SpecError(
                f"{where}: board.spaces[{k}]: {space!r} is not one of {', '.join(SPACES)}"
            )
        if (kind == SPACES[INVESTMENTS]) != (territory in TERRITORY_KEYS):
            raise SpecError(
                f"{where}: board.spaces[{k}]: {space!r}: only investments_pay_off names a "
                f"territory, as investments_pay_off:TERRITORY ({', '.join(TERRITORY_KEYS)})"
            )
        kinds.append(SPACES.index(kind))
        territories.append(TERRITORY_KEYS.index(territory) if territory else -1)
    for territory, key in enumerate(TERRITORY_KEYS):
        if territories.count(territory) != 1:
            raise SpecError(
                f"{where}: board.spaces: investments_pay_off:{key} appears "
                f"{territories.count(territory)} times, expected once (a starting space)"
            )
    as_array = np.array
    return (
        as_array(colours, np.int64),
        as_array(values, np.int64),
        as_array(kinds, np.int64),
        as_array(territories, np.int64),
    )
