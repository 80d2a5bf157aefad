"""The game data files' models: the schema layer (``schemas``) for the files a rule parameter
names (docs/games/). Apart from ``schemas`` because they read each game's constants (its roles,
colours and limits) from the game's state module, which the workflows that only read run
directories need not import. Each game's loader checks a file against its model first, then
what the shape cannot say (a symmetric adjacency, one Headquarters a country)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, create_model

from simcore.games.power_barons import state as power_barons
from simcore.games.power_the_game import state as power_the_game
from simcore.workflows.schemas import Table, within

# --- POWER: The Game's board (docs/games/power-the-game.md, "The board") ---------------------


class BoardNode(Table):
    role: Literal[power_the_game.ROLES] = Field(description="what the node is")
    terrain: Literal[power_the_game.TERRAINS] = Field(
        description="land, coastal or water (a sea lane is water, and only a sea lane)"
    )
    country: Literal[power_the_game.COUNTRIES] | None = Field(
        None, description="a sector's or Headquarters' country"
    )
    adjacent: Annotated[list[str], Field(min_length=1, max_length=power_the_game.MAX_DEGREE)] = (
        Field(description="the nodes one move away (each lists this one too)")
    )


class BoardFile(Table):
    nodes: Annotated[
        dict[str, BoardNode], Field(min_length=1, max_length=power_the_game.MAX_NODES)
    ] = Field(description="`[nodes]`: each node by its name, in the traces' order")


# --- Power Barons' components (docs/games/power-barons.md) -----------------------------------

CardValues = list[within(int, 1, power_barons.MAX_CARD_VALUE)]
PowerBaronsDeck = create_model(
    "PowerBaronsDeck",
    __base__=Table,
    **{
        colour.lower().replace(" ", "_"): (CardValues, Field(description=f"the {colour} cards"))
        for colour in power_barons.COLOURS
    },
)
_NAMED_SPACES = tuple(
    f"{power_barons.SPACES[power_barons.INVESTMENTS]}:{territory.lower()}"
    for territory in power_barons.TERRITORIES
)
_OTHER_SPACES = tuple(s for k, s in enumerate(power_barons.SPACES) if k != power_barons.INVESTMENTS)
Space = Literal[_NAMED_SPACES + _OTHER_SPACES]


class PowerBaronsBoard(Table):
    spaces: Annotated[
        list[Space],
        Field(min_length=power_barons.N_TERRITORIES, max_length=power_barons.MAX_SPACES),
    ] = Field(description="the spaces in order round the board")


class PowerBaronsComponents(Table):
    deck: PowerBaronsDeck = Field(description="each colour's card values")
    board: PowerBaronsBoard = Field(description="the board's spaces")


# The shipped data files (simcore/data/) by name, with their models.
DATA_FILES = {
    "power_the_game_board.toml": BoardFile,
    "power_barons_default.toml": PowerBaronsComponents,
}
