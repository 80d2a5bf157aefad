"""The schema layer: one typed model per file format (docs/architecture.md, "The schema layer").

Every file powerlab reads is checked here for its shape before a loader looks at its meaning:
the files a designer writes (study, balance and population files: ``Table`` models, unknown keys
refused) and the files powerlab writes and reads back (run.json, study.json, manifest.json,
meta.json, solution.json: ``Stored`` models, which keep keys a newer powerlab added). A wrong
shape anywhere is one line, ``FILE: key.path: expected ..., got ...`` (``check``). What a value
means for a game (a rule parameter's range, a strategy spec, an arm's name) is the loaders'.
The game data files' models are in ``data_schemas`` (they import the games' constants); the
docs' key tables are rendered from both (``schema_docs``).
"""

from __future__ import annotations

import math
import re
import tomllib
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    RootModel,
    ValidationError,
    ValidationInfo,
    WrapValidator,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from simcore.errors import SpecError
from simcore.workflows import files

# Game indices are int64 in the kernels and in Parquet; 2**62 leaves room for index arithmetic
# (seat rotation adds the seat to the index).
MAX_GAMES = 2**62
GAMES_WHY = "game indices are 64-bit"
MAX_PLAYERS = 64
MAX_SEED = 2**63 - 1
# A cell id is a folder name: these characters only, never "." or "..".
CELL_ID = re.compile(r"^(?!\.{1,2}$)[A-Za-z0-9._=+-]{1,200}$")


# --- checking: one line per wrong shape --------------------------------------------------------


def refusal(message: str, *at) -> PydanticCustomError:
    """A validator's refusal, ``message`` the whole text after the key path; ``at`` the keys
    below the validated value that the message is about."""
    return PydanticCustomError("powerlab", "{message}", {"message": message, "at": at})


def check(model: type[BaseModel], data, path: Path | str, context: dict | None = None):
    """``data`` (a file's content) as ``model``, or a one-line SpecError naming the file, the key
    path and what was expected there."""
    try:
        return model.model_validate(data, strict=True, context=context)
    except ValidationError as error:
        raise SpecError(error_line(path, error, data)) from None


def read_toml(path: Path | str, what: str, model: type[BaseModel]):
    """The TOML file ``path`` (read bounded, regular files only) checked as ``model``."""
    try:
        data = tomllib.loads(files.read_text(path, what))
    except (tomllib.TOMLDecodeError, RecursionError) as error:
        raise SpecError(f"{path}: not valid TOML ({error})") from None
    return check(model, data, path)


_EXPECTED = {
    "int_type": "an integer",
    "float_type": "a number",
    "string_type": "a text",
    "bool_type": "true or false",
    "list_type": "a list",
    "tuple_type": "a list",
    "dict_type": "a table",
    "model_type": "a table",
    "model_attributes_type": "a table",
    "finite_number": "a finite number",
    "literal_error": "one of {expected}",
    "greater_than_equal": "a number >= {ge}",
    "greater_than": "a number > {gt}",
    "less_than_equal": "a number <= {le}",
    "less_than": "a number < {lt}",
    "too_short": "at least {min_length} item(s)",
    "too_long": "at most {max_length} item(s)",
    "string_pattern_mismatch": "a text matching {pattern}",
}


def error_line(path: Path | str, error: ValidationError, data) -> str:
    """The first problem of ``error`` as ``PATH: key.path: expected ..., got ...``."""
    first = error.errors(include_url=False)[0]
    context = first.get("ctx", {})
    where = key_path(data, first["loc"] + tuple(context.get("at", ())))
    if first["type"] == "powerlab":
        message = context["message"]
    elif first["type"] == "missing":
        message = "missing"
    else:
        template = _EXPECTED.get(first["type"], first["msg"])
        if first["type"] == "too_short" and context.get("min_length") == 1:
            template = "a non-empty list"
        expected = template.format(**{k: str(v).replace("'", "") for k, v in context.items()})
        message = f"expected {expected}, got {shown(first['input'])}"
    return f"{path}: {where or 'top level'}: {message}"


def key_path(data, loc: tuple) -> str:
    """``loc`` as the file spells it (``arms[0].name``): keys of tables and indexes of lists
    walked through ``data``; the names pydantic gives the alternatives of a union are left out."""
    text, node = "", data
    for k, part in enumerate(loc):
        if isinstance(node, dict) and (part in node or k == len(loc) - 1):
            text += f".{part}" if text else str(part)
            node = node.get(part)
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            text += f"[{part}]"
            node = node[part]
    return text


def shown(value) -> str:
    """``value`` as a message shows it: its repr, cut to 60 characters."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def expecting(phrase: str) -> WrapValidator:
    """A type whose every wrong value is one error, ``expected PHRASE, got VALUE``: for unions
    and constrained values, whose pydantic errors would name each alternative."""

    def validate(value, handler):
        try:
            return handler(value)
        except ValidationError as error:
            infinite = any(e["type"] == "finite_number" for e in error.errors())
            expected = "a finite number" if infinite else phrase
            raise refusal(f"expected {expected}, got {shown(value)}") from None

    return WrapValidator(validate)


def within(kind: type, low, high, low_open=False, high_open=False, why: str = ""):
    """``kind`` (int or float) in [low, high] (or open ends), refused as one line naming the
    interval and ``why`` the bound is there."""
    interval = f"{'(' if low_open else '['}{low:,}, {high:,}{')' if high_open else ']'}"
    noun = "an integer" if kind is int else "a number"
    bounds = {"gt" if low_open else "ge": low, "lt" if high_open else "le": high}
    phrase = f"{noun} in {interval}" + (f" ({why})" if why else "")
    return Annotated[kind, Field(**bounds), expecting(phrase)]


def distinct(values: list) -> list:
    """A list whose values differ (compared as written)."""
    if len(set(map(repr, values))) != len(values):
        raise refusal(f"expected distinct values, got {shown(values)}")
    return values


class Table(BaseModel):
    """A table of a file a designer writes: types as written (no "5" for 5), no NaN or
    infinity, and every key known (``_known_keys``: the refusal names the keys there are)."""

    model_config = ConfigDict(strict=True, extra="forbid", allow_inf_nan=False, frozen=True)

    @model_validator(mode="before")
    @classmethod
    def _known_keys(cls, data):
        if isinstance(data, dict) and cls.model_config.get("extra") == "forbid":
            known = [field.alias or name for name, field in cls.model_fields.items()]
            unknown = next((key for key in data if key not in known), None)
            if unknown is not None:
                raise refusal(f"unknown key (expected one of {', '.join(known)})", unknown)
        return data

    def given(self, key: str) -> bool:
        """Whether the file gives ``key`` (rather than leaving it to its default)."""
        return key in self.model_fields_set


class Stored(BaseModel):
    """A JSON file powerlab writes and reads back: strict types, and keys a newer powerlab
    added are kept."""

    model_config = ConfigDict(strict=True, extra="allow")


Text = str
Name = Annotated[str, Field(pattern=r"\S"), expecting("a non-empty name")]
Specs = Annotated[list[str], Field(min_length=1)]
# A value a rule or a strategy parameter takes: the game's own check reads its meaning.
Scalar = Annotated[int | float | str | bool, expecting("a number, a text or true/false")]
PlayerCount = within(int, 1, MAX_PLAYERS)
PlayerCounts = Annotated[
    PlayerCount | Annotated[list[PlayerCount], Field(min_length=1)],
    expecting(f"a player count in [1, {MAX_PLAYERS}] or a non-empty list of them"),
]
GameCount = within(int, 0, MAX_GAMES, why=GAMES_WHY)
Games = within(int, 1, MAX_GAMES, why=GAMES_WHY)
Seed = within(int, 0, MAX_SEED)
Rules = dict[str, Scalar]


def player_counts(value: int | list[int]) -> tuple[int, ...]:
    """A ``PlayerCounts`` value as a tuple."""
    return tuple(value) if isinstance(value, list) else (value,)


# --- study files (docs/studies.md) ----------------------------------------------------------


class Arm(Table):
    name: Name = Field(description="the arm's name (its cells' folders and the report's labels)")
    strategies: Specs | None = Field(
        None, description="the arm's lineup, as on the command line (default: the file's)"
    )
    rules: Rules = Field({}, description="rule parameters over the file's `rules`")


class Sprt(Table):
    margin: within(float, 0, 1, True, True) = Field(
        description="the win-rate difference the test is to find"
    )
    alpha: within(float, 0, 0.5, True, True) = Field(0.05, description="false-positive rate")
    beta: within(float, 0, 0.5, True, True) = Field(0.05, description="false-negative rate")
    arms: list[Text] = Field(description="the two arms compared, the better one first")


class Stop(Table):
    until_ci: within(float, 0, 0.5, low_open=True) | None = Field(
        None, description="stop a cell once its focal's 95% interval is at most this wide"
    )
    max_games: Games = Field(10_000_000, description="games per cell at most")
    focal: Text = Field("seat:0", description="whose win rate: a strategy name or seat:K")
    sprt: Sprt | None = Field(None, description="stop two arms by Wald's sequential test")

    @model_validator(mode="after")
    def _a_rule(self):
        if self.until_ci is None and self.sprt is None:
            raise refusal("expected until_ci or sprt (or leave out [stop])")
        return self


class Answer(Table):
    focal: Text = Field(description="whose win rate: lineup:K, seat:K or a strategy name")
    arms: list[Text] | None = Field(
        None, description="two arms: the paired difference of the first minus the second"
    )


class Opponents(Table):
    name: Name = Field(description="the setting's name (its cells' folders and labels)")
    strategies: Specs | None = Field(None, description="the opponents' specs (or `meta`)")
    meta: Text | None = Field(None, description="a meta directory: its equilibrium mix plays")
    seats: Literal["others", "all"] = Field(
        "others", description="the seats after the arm's focal entry, or the whole table"
    )
    rules: Rules = Field({}, description="rule parameters that go with these opponents")
    games: GameCount = Field(0, description="games per cell (0: the study's)")

    @model_validator(mode="after")
    def _one_source(self):
        if (self.meta is None) == (self.strategies is None):
            raise refusal("expected strategies or meta (one of them)")
        return self


class Restrict(Table):
    strategy: Text = Field(description="the focal strategy's spec, tuned with and without")
    fixed: Annotated[dict[str, Scalar], Field(min_length=1)] = Field(
        description="the parameters held in the restricted tuning (the option off)"
    )
    budget: int = Field(description="tuning games of each tuning")
    params: list[Text] = Field([], description="the parameters tuned (default: all)")
    min_games: int | None = Field(None, description="games of a tuning's first rung")
    search: dict[str, Scalar] | None = Field(
        None, description="the search player's parameters and `games` per search cell"
    )

    @field_validator("search")
    @classmethod
    def _search(cls, search):
        games = search.get("games", 1) if search else 1
        whole = isinstance(games, int) and not isinstance(games, bool)
        if search and ("rollout" in search or not whole or games < 1):
            raise refusal(
                "expected the search player's parameters but rollout (the tuned specs play the "
                "playouts) and games, a positive integer"
            )
        return search


SweepValues = Annotated[list[Scalar], Field(min_length=1), AfterValidator(distinct)]


class Sweep(Table):
    """Each key a rule parameter, STRATEGY.PARAM or ``players``, with its values, in the file's
    order (the cells' folder names follow it)."""

    model_config = ConfigDict(extra="allow")
    __pydantic_extra__: dict[str, SweepValues]

    @model_validator(mode="before")
    @classmethod
    def _player_counts(cls, data):
        counts = data.get("players") if isinstance(data, dict) else None
        for k, value in enumerate(counts if isinstance(counts, list) else ()):
            if (
                isinstance(value, bool)
                or not isinstance(value, int)
                or not 0 < value <= MAX_PLAYERS
            ):
                raise refusal(f"expected a player count in [1, {MAX_PLAYERS}], got {shown(value)}",
                              "players", k)  # fmt: skip
        return data


class StudyFile(Table):
    title: Text | None = Field(None, description="the report's title (default: the file name)")
    question: Text = Field("", description="what the study asks, in the designer's words")
    assumptions: list[Text] = Field([], description="what the answer rests on")
    game: Text = Field(description="the game's id (`powerlab games`)")
    players: PlayerCounts = Field(description="a player count or a list of them")
    games: Games = Field(description="games per cell")
    seed: Seed = Field(0, description="every cell's seed (common random numbers)")
    rotate_seats: bool = Field(True, description="rotate the lineup over the seats")
    rules: Rules = Field({}, description="rule parameters of every cell")
    strategies: Specs | None = Field(None, description="the lineup (default: the game's)")
    arms: Annotated[list[Arm], Field(min_length=1)] | None = Field(
        None, description="`[[arms]]`: named lineups and rules, compared cell by cell"
    )
    sweep: Sweep = Field(Sweep(), description="values to sweep: one cell per combination")
    stop: Stop | None = Field(None, description="sequential stopping")
    answer: Answer | None = Field(None, description="what the study answers (paired)")
    opponents: list[Opponents] = Field([], description="`[[opponents]]` settings")
    restrict: Restrict | None = Field(None, description="restricted play: arms made by tuning")
    arcs: Text | None = Field(None, description='the share of games whose arcs are kept: "1%"')


# --- balance files (docs/balance.md) --------------------------------------------------------


class Search(Table):
    trials: Games = Field(30, description="candidates tried")
    batch: Games = Field(10, description="candidates per batch (the sampler learns between)")
    min_games: Games = Field(1000, description="games a candidate plays at the first rung")
    rungs: within(int, 1, 6) = Field(3, description="successive-halving rungs")
    sampler: Literal["nsga2", "tpe"] = Field("nsga2", description="optuna's sampler")
    finalists: Games = Field(5, description="candidates measured again on fresh games")
    final_games: Games = Field(20_000, description="fresh games a finalist plays")
    max_final_games: Games | None = Field(
        None, description="fresh games at most, when a finalist's measure is unclear (4x)"
    )
    resamples: Games = Field(100, description="bootstrap resamples of the fresh measures")

    @model_validator(mode="after")
    def _enough_final_games(self):
        if self.max_final_games is not None and self.max_final_games < self.final_games:
            raise refusal(
                f"expected at least final_games ({self.final_games}), got "
                f"{self.max_final_games}", "max_final_games",
            )  # fmt: skip
        return self


Number = Annotated[float, expecting("a finite number")]


class Param(Table):
    rule: Text = Field(description="the rule parameter searched (or the data-file rule)")
    path: Annotated[Text | list[Text], expecting("a path or a list of paths")] = Field(
        "", description='with a data-file rule: the numbers changed, e.g. "deck.*[0]"'
    )
    name: Text = Field("", description="the name reports show (default: rule:path)")
    low: Number | None = Field(None, description="the searched range's low end (numbers)")
    high: Number | None = Field(None, description="the searched range's high end (numbers)")
    log: bool = Field(False, description="search the range on a log scale")


OBJECTIVE_KEYS = {
    "seat_fairness": ((), ()),
    "length": (("low", "high"), ()),
    "ended_by_rules": ((), ("at_least",)),
    "option_value": (("focal", "fixed", "low", "high"), ()),
    "variety": (("population",), ("measure",)),
}  # kind: (keys it needs, keys it may have), besides kind and players


class Objective(Table):
    kind: Literal[tuple(OBJECTIVE_KEYS)] = Field(description="what is measured (table above)")
    players: PlayerCounts | None = Field(None, description="player counts (default: the file's)")
    low: Number | None = Field(None, description="`length`, `option_value`: the target's low")
    high: Number | None = Field(None, description="`length`, `option_value`: the target's high")
    at_least: within(float, 0, 1) = Field(1.0, description="`ended_by_rules`: the target share")
    focal: Text | None = Field(None, description="`option_value`: the strategy with the option")
    fixed: dict[str, Scalar] | None = Field(
        None, description="`option_value`: its parameters that hold the option off"
    )
    measure: Literal["entropy", "regret"] = Field("entropy", description="`variety`: which")
    population: list[Text] | None = Field(None, description="`variety`: the strategy specs")

    @model_validator(mode="after")
    def _keys_of_its_kind(self):
        needed, optional = OBJECTIVE_KEYS[self.kind]
        allowed = ("kind", "players", *needed, *optional)
        extra = next((key for key in self.model_fields_set if key not in allowed), None)
        if extra:
            expected = ", ".join(allowed)
            raise refusal(f"unknown key for kind {self.kind} (expected one of {expected})", extra)
        missing = next((key for key in needed if key not in self.model_fields_set), None)
        if missing:
            raise refusal("missing", missing)
        return self


class Robust(Table):
    tune: list[Text] = Field([], description="strategies of the lineup re-tuned per finalist")
    params: list[Text] = Field([], description="their parameters tuned (default: all)")
    budget: int = Field(20_000, description="tuning games of each re-tuning")
    players: PlayerCounts | None = Field(None, description="the player count re-tuned at")


class BalanceFile(Table):
    title: Text | None = Field(None, description="the report's title (default: the file name)")
    question: Text = Field("", description="what the search asks, in the designer's words")
    game: Text = Field(description="the game's id (`powerlab games`)")
    players: PlayerCounts = Field(description="a player count or a list of them")
    strategies: list[Text] = Field(description="the lineup: 1 spec or one per seat")
    rules: Rules = Field({}, description="rule parameters every candidate starts from")
    seed: Seed = Field(0, description="the search's seed")
    search: Search = Field(Search(), description="the search's size")
    params: Annotated[list[Param], Field(min_length=1)] = Field(
        description="`[[params]]`: the values searched"
    )
    objectives: Annotated[list[Objective], Field(min_length=1)] = Field(
        description="`[[objectives]]`: what a candidate is judged by"
    )
    robust: Robust = Field(Robust(), description="re-tune the lineup against each finalist")


# --- presets files (docs/tuning.md) ---------------------------------------------------------


class PresetTuning(Table):
    spec: Text = Field(description="the strategy spec the tuning found")
    doc: Text = Field("", description="what the spec does at this count")
    command: Text = Field(description="the `powerlab tune` command that made it (reproduces it)")
    measured: Text = Field(description="what that command measured on fresh games")


class Preset(Table):
    doc: Text = Field(description="the strategy and the field it is tuned against")
    players: Annotated[
        dict[Annotated[str, Field(pattern=r"^[1-9][0-9]?$")], PresetTuning], Field(min_length=1)
    ] = Field(description="`[NAME.players.N]`: its tuning at N players, one per count")


class PresetsFile(RootModel[dict[str, Preset]]):
    """A game's presets file: a table per preset name (``preset:NAME``)."""

    model_config = ConfigDict(strict=True)


# --- population files and meta directories (docs/meta.md) ----------------------------------


class PopulationFile(Table):
    game: Text | None = Field(None, description="the game, to guard against the wrong file")
    strategies: Annotated[list[str], expecting('a list of specs, e.g. ["counter", ...]')] = Field(
        description="the strategy specs, at least 2"
    )


class StrategyEntry(Stored):
    name: str
    params: dict[str, Any] = {}


class MetaSpecEntry(Stored):
    game: str
    players: PlayerCount
    population: Annotated[list[StrategyEntry], Field(min_length=2)]
    rules: dict[str, Any] = {}
    seed: Seed = 0
    games: GameCount = 0


class MetaInfo(Stored):
    format: int
    spec: MetaSpecEntry
    labels: list[str]
    lineups: list[Annotated[str, Field(pattern=r"^[0-9]{1,4}(-[0-9]{1,4}){0,63}$")]]

    @model_validator(mode="after")
    def _a_label_each(self):
        if len(self.labels) != len(self.spec.population):
            raise refusal("expected one label per strategy of spec.population", "labels")
        return self


Share = Annotated[float, Field(ge=0, le=1, allow_inf_nan=False)]


class Equilibrium(Stored):
    mix: list[Share]

    @field_validator("mix")
    @classmethod
    def _a_mix(cls, mix: list[float], info: ValidationInfo) -> list[float]:
        strategies = (info.context or {}).get("strategies")
        if strategies is not None and len(mix) != strategies:
            raise refusal(
                f"expected one share per strategy of the population ({strategies}), got {len(mix)}"
            )
        if not math.isclose(sum(mix), 1, abs_tol=1e-6):
            raise refusal(f"expected shares that add up to 1, got {shown(mix)}")
        return mix


class Solution(Stored):
    """solution.json as a study's opponents read it (``context``: the population's size)."""

    equilibrium: Equilibrium | None


# --- run.json, study.json, manifest.json (docs/architecture.md) ----------------------------


Sha256 = Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]


class ArcsEntry(Stored):
    rows: Annotated[int, Field(ge=0)]
    sha256: Sha256


class PartEntry(Stored):
    file: str
    first: GameCount
    count: Annotated[int, Field(ge=1, le=MAX_GAMES)]
    rows: GameCount
    sha256: Sha256
    arcs: ArcsEntry | None = None


class Manifest(Stored):
    format: int
    parts: list[PartEntry]


class SpecEntry(Stored):
    game: str
    players: PlayerCount
    strategies: Annotated[list[StrategyEntry], Field(min_length=1, max_length=MAX_PLAYERS)]
    rules: dict[str, Any]
    seed: Seed
    games: GameCount
    rotate_seats: bool
    data_files: dict[str, str] = {}
    arcs: Annotated[float, Field(ge=0, le=1)] = 0.0


class ColumnDoc(Stored):
    name: str
    doc: str


class Columns(Stored):
    game: list[ColumnDoc] = []
    seat: list[ColumnDoc] = []


class ImpactEntry(Stored):
    title: str
    columns: list[str]


class CardImpactEntry(Stored):
    title: str
    drawn_column: str
    played_column: str
    labels: Annotated[list[str], Field(max_length=64)]


class ArcsInfo(Stored):
    share: Annotated[float, Field(gt=0, le=1)]
    unit: str
    standing: Annotated[list[ColumnDoc], Field(min_length=1)]


class ShardEntry(Stored):
    index: Annotated[int, Field(ge=1)]
    count: Annotated[int, Field(ge=1)]
    first: GameCount
    stop: GameCount


class RunInfo(Stored):
    format: int
    spec: SpecEntry
    lineup: Annotated[list[str], Field(min_length=1, max_length=MAX_PLAYERS)]
    columns: Columns = Columns()
    impact: list[ImpactEntry] = []
    card_impact: list[CardImpactEntry] = []
    shard: ShardEntry | None = None
    arcs: ArcsInfo | None = None
    created: str | None = None
    finished: str | None = None
    timings: dict[str, Any] = {}

    @model_validator(mode="after")
    def _consistent(self):
        strategies = len(self.spec.strategies)
        if strategies not in (1, self.spec.players):
            raise refusal(
                f"expected {strategies}, one per seat of spec.strategies, got {self.spec.players}",
                "spec", "players",
            )  # fmt: skip
        if len(self.lineup) != strategies:
            raise refusal("expected one label per spec.strategies entry", "lineup")
        if self.shard and not self.shard.first <= self.shard.stop <= self.spec.games:
            raise refusal("expected first <= stop <= spec.games", "shard")
        if (self.arcs and self.arcs.share) != (self.spec.arcs or None):
            raise refusal("expected the share of spec.arcs", "arcs")
        return self


class CellEntry(Stored):
    id: str
    arm: str
    values: dict[str, Any]
    variant: Annotated[int, Field(ge=0)] = 0  # the lineups of an opponent mix, numbered
    weight: Annotated[float, Field(gt=0, le=1)] = 1.0  # each one's share of the mix

    @field_validator("id")
    @classmethod
    def _folder_name(cls, value: str) -> str:
        if not CELL_ID.match(value):
            raise refusal("expected a folder name of letters, digits and ._=+- (not . or ..)")
        return value


class StoppingEntry(Stored):
    cells: list[str]
    games: GameCount


class StudyInfo(Stored):
    format: int
    title: str
    file: str
    source: str
    games_per_cell: Annotated[int, Field(ge=1, le=MAX_GAMES)]
    cells: Annotated[list[CellEntry], Field(min_length=1)]
    identity: list[dict[str, Any]]
    stopping: list[StoppingEntry]
    answer: dict[str, Any] | None = None
    tuned: list[dict[str, Any]] = []
