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
    MAX_CARDS,
    SPACES,
    TERRITORIES,
)
from simcore.registry import SpecError
from simcore.workflows import data_schemas, files, schemas

DEFAULT_COMPONENTS = "power_barons_default.toml"
DECK_KEYS = tuple(name.lower().replace(" ", "_") for name in COLOURS)
TERRITORY_KEYS = tuple(name.lower() for name in TERRITORIES)


def _components_text(path: str) -> tuple[str, str]:
    """(name for messages, TOML text) of the components file (the shipped one for "")."""
    if path == "":
        shipped = resources.files("simcore").joinpath("data", DEFAULT_COMPONENTS)
        return f"simcore/data/{DEFAULT_COMPONENTS}", shipped.read_text()
    return path, files.read_text(path, "components file")


def load_components(path: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(card colours, card values, space kinds, space territories) of a components file, or a
    one-line SpecError naming the file and the field."""
    name, text = _components_text(path)
    where = f"power-barons: components {name}"
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError) as error:
        raise SpecError(f"{where}: not valid TOML ({error})") from None
    # The file's shape (keys, card values, space names) is its model's; what follows is the rest.
    components = schemas.check(data_schemas.PowerBaronsComponents, data, name)
    colours, values = [], []
    for card_colour, key in enumerate(DECK_KEYS):
        for credits in getattr(components.deck, key):
            colours.append(card_colour)
            values.append(credits)
    if not 1 <= len(values) <= MAX_CARDS:
        raise SpecError(f"{where}: deck: {len(values)} cards, expected 1 to {MAX_CARDS}")
    kinds, territories = [], []
    for space in components.board.spaces:
        kind, _, territory = space.partition(":")
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
