"""The game data files' models: the schema layer (``schemas``) for the files a rule parameter
names (docs/games/). Apart from ``schemas`` because they read each game's constants (its roles,
colours and limits) from the game's state module, which the workflows that only read run
directories need not import. Each game's loader checks a file against its model first, then
what the shape cannot say (a symmetric adjacency, one Headquarters a country)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, ConfigDict, Field, create_model

from simcore.games.power_barons import state as power_barons
from simcore.games.power_struggle import state as power_struggle
from simcore.games.power_the_game import state as power_the_game
from simcore.games.time_barons import state as time_barons
from simcore.workflows.schemas import Name, Table, Text, distinct, within

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


# --- Power Struggle's data file (docs/games/power-struggle.md) -------------------------------

PS_DIVISIONS = tuple(
    name.lower().replace(" & ", "_").replace(" ", "_") for name in power_struggle.DIVISIONS
)
PS_PRIVILEGES = (*PS_DIVISIONS, "chairman")
MAX_PINATS = 100_000_000  # a price or an amount of money: far beyond any table's
PowerStruggleTracks = create_model(
    "PowerStruggleTracks",
    __base__=Table,
    **{
        track: (
            within(int, power_struggle.VP_THRESHOLD[k], 1000, why="at least its VP threshold"),
            Field(description=f"the golden space of the {track} track"),
        )
        for k, track in enumerate(power_struggle.TRACKS)
    },
)
ShareRow = Annotated[
    list[within(int, 0, 100)],
    Field(min_length=power_struggle.N_SIZES, max_length=power_struggle.N_SIZES),
]
Pinats = within(int, 0, MAX_PINATS)


class PowerStruggleShares(Table):
    prices: Annotated[
        list[Pinats], Field(min_length=power_struggle.N_SIZES, max_length=power_struggle.N_SIZES)
    ] = Field(description="the price of a block of 1 to 7 shares")
    players_3: ShareRow = Field(description="blocks of each size in play at 3 players")
    players_4: ShareRow = Field(description="... at 4 players")
    players_5: ShareRow = Field(description="... at 5 players")


PowerStruggleBonus = create_model(
    "PowerStruggleBonus",
    __base__=Table,
    **{
        item: (Pinats, Field(description=f"Pinats per {item}"))
        for item in power_struggle.BONUS_ITEMS
    },
)


class CompetenceCard(Table):
    competences: Annotated[
        list[Literal[power_struggle.COMPETENCES]],
        Field(min_length=3, max_length=3),
        AfterValidator(distinct),
    ] = Field(description="three different competences")
    players: within(int, 3, power_struggle.MAX_PLAYERS) = Field(
        description="the smallest table the card is used at"
    )


class EventEffect(Table):
    kind: Literal[power_struggle.EFFECT_KINDS] = Field(description="what the effect does")
    amount: int | None = Field(None, description="how much (its range is the kind's)")
    who: Literal[power_struggle.EFFECT_WHO] = Field("all", description="whom it concerns")
    per: Literal[power_struggle.EFFECT_PER] = Field("flat", description="what it is counted per")
    division: Literal[PS_PRIVILEGES] | None = Field(None, description="which division")


class Event(Table):
    name: Name = Field(description="the card's name")
    count: within(int, 1, power_struggle.MAX_EVENTS) = Field(1, description="copies in the deck")
    effects: Annotated[
        list[EventEffect], Field(min_length=1, max_length=power_struggle.MAX_EFFECTS)
    ] = Field(description="what the card does, in order")


class PowerStruggleData(Table):
    tracks: PowerStruggleTracks = Field(description="each competence track's golden space")
    shares: PowerStruggleShares = Field(description="share blocks: prices and stock per table")
    bonus_payment: PowerStruggleBonus = Field(description="the Bonus Payment event's amounts")
    archenemy_competence: Annotated[
        list[CompetenceCard], Field(min_length=1, max_length=power_struggle.MAX_COMPETENCE_CARDS)
    ] = Field(description="`[[archenemy_competence]]`: the Archenemy Competence cards")
    events: Annotated[list[Event], Field(min_length=1)] = Field(
        description="`[[events]]`: the event cards"
    )


# --- Time Barons' card file (docs/games/time-barons.md) --------------------------------------

MAX_AMOUNT = 20  # Time Barons: most of a cost, an integrity, a follower count or an effect's
Amount = within(int, 0, MAX_AMOUNT)
Effects = Annotated[list[Text], Field(max_length=time_barons.MAX_EFFECTS)]


class Ability(Table):
    followers: Amount = Field(0, description="followers the site needs")
    cost: Amount = Field(0, description="actions it costs")
    infinite: bool = Field(False, description="usable every turn")
    trigger: Literal[time_barons.TRIGGERS] = Field("", description="an infinite one's trigger")
    effects: Effects | None = Field(None, description='what it does, like "damage 2"')


class Site(Table):
    """What a site has besides a card's keys (and all a Homeland has)."""

    integrity: within(int, 1, MAX_AMOUNT) | None = Field(None, description="a site's integrity")
    fortified: bool | None = Field(None, description="a site starts fortified")
    passives: Effects | None = Field(None, description="a site's passive effects")
    abilities: Annotated[list[Ability], Field(max_length=time_barons.MAX_ABILITIES)] | None = Field(
        None, description="a site's abilities"
    )


class Homeland(Site):
    name: Name = Field("Homeland", description="its name")


class Card(Site):
    name: Name = Field(description="its name")
    level: within(int, 1, time_barons.N_LEVELS) = Field(description="1 to 4")
    type: Literal[time_barons.TYPES] = Field(description="site, event, attachment or reaction")
    cost: Amount | None = Field(None, description="actions to play it (not a reaction's)")
    trigger: Literal[time_barons.TRIGGERS[1:]] | None = Field(None, description="a reaction's")
    effects: Effects | None = Field(None, description="what an event, attachment, reaction does")


class SetNotes(Table):
    """Free notes on a card set: its name, and any other key."""

    model_config = ConfigDict(extra="allow")
    name: Text = Field("", description="the set's name")


class TimeBaronsCards(Table):
    set: SetNotes = Field(SetNotes(), description="notes on the set (any keys)")
    homeland: Homeland = Field(description="the Homelands (each seat has one)")
    card: Annotated[list[Card], Field(min_length=1, max_length=time_barons.MAX_CARDS)] = Field(
        description="`[[card]]`: the level cards"
    )


# The shipped data files (simcore/data/) by name, with their models.
DATA_FILES = {
    "power_the_game_board.toml": BoardFile,
    "power_barons_default.toml": PowerBaronsComponents,
    "power_struggle_default.toml": PowerStruggleData,
    "time_barons_cards.toml": TimeBaronsCards,
}
