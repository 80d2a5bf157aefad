"""The game registry: what each game offers, described as plain data.

A game module (``simcore/games/<game>/game.py``) exposes ``GAME``, a :class:`Game`, and the rest
of the game contract (simcore/contract.py). The CLI, the runner, the analyses and the reports
only ever see these descriptions, so adding a game means adding its package, its strategies
module, its docs page and one line in ``_GAME_MODULES`` (docs/adding-a-game.md). A game outside
the tree (a designer's own package, the tests' toy game) is registered by ``POWERLAB_GAMES``
instead, or within one process by ``register``.
"""

from __future__ import annotations

import importlib
import math
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

import numpy as np

from simcore.errors import SpecError

_GAME_MODULES = {
    "power": "simcore.games.power.game",
    "power-barons": "simcore.games.power_barons.game",
    "power-struggle": "simcore.games.power_struggle.game",
    "power-the-game": "simcore.games.power_the_game.game",
    "time-barons": "simcore.games.time_barons.game",
}
# Games outside the tree, for this process and every process it starts (the CLI's, a local Dask
# cluster's workers): "ID=MODULE,ID=MODULE", each MODULE a game module's dotted name, importable
# (installed, or on PYTHONPATH).
GAMES_VARIABLE = "POWERLAB_GAMES"
# Games ``register`` added in this process.
_REGISTERED: dict[str, str] = {}


# The search player every game on the decision-point protocol offers (docs/ismcts.md): its
# strategy name and id, and the parameter columns it adds after the game's own. Its row also
# carries the rollout strategy's own parameters in the game's columns.
SEARCH = "ismcts"
SEARCH_ID = 99
SEARCH_PARAM_NAMES = ("iterations", "c", "rollout", "trust", "margin", "opponents")
ROLLOUT_KEY = "rollout="
# How the other seats choose inside the search tree (docs/ismcts.md, "Opponents"); the kernel
# reads a choice's index (simcore/kernel/ismcts.py).
OPPONENT_CHOICES = ("search", "rollout", "own-view")
# The search's default belief in claims (docs/ismcts.md, "Beliefs": measured against tuned fields).
TRUST_DEFAULT = 0.8
# The search plays another option than its rollout strategy's only when clearly better
# (docs/ismcts.md, "The margin").
MARGIN_DEFAULT = 2.0

# Named strategy specs per game, e.g. tuned ones: ``--strategy preset:NAME`` (docs/tuning.md).
PRESETS_DIR = Path(__file__).resolve().parent / "data" / "presets"
PRESET_PREFIX = "preset:"


@dataclass(frozen=True)
class Param:
    """A rule or strategy parameter: kind is 'int', 'float', 'bool', 'choice' or 'path'.

    A 'path' names a data file (a designer's deck, board or card set); its default "" means the
    file the game ships, ``shipped`` (its name under simcore/data/). The game's ``prepare`` reads
    it: paths are never encoded as numbers.

    ``component`` names the kind of component a 'bool' rule switches on ("character", "privilege
    card"): its default (True) is the rulebook's, and ``powerlab impact`` measures each such
    component by switching it off.
    """

    name: str
    kind: str
    default: float | int | bool | str
    doc: str
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()
    shipped: str = ""
    component: str = ""

    def shipped_path(self) -> Path:
        """The data file the game plays when this path parameter is "" (the shipped one)."""
        return Path(__file__).resolve().parent / "data" / self.shipped

    def parse(self, text: str, where: str) -> float | int | bool | str:
        """Value of ``text`` for this parameter, or SpecError naming ``where``."""
        text = text.strip()
        if self.kind in ("path", "strategy"):
            return self.check(text, where)
        try:
            if self.kind == "bool":
                lowered = text.lower()
                if lowered in ("1", "true", "yes", "on"):
                    return True
                if lowered in ("0", "false", "no", "off"):
                    return False
                raise ValueError
            if self.kind == "choice":
                if text not in self.choices:
                    raise ValueError
                return text
            value = int(text) if self.kind == "int" else float(text)
        except ValueError:
            raise SpecError(f"{where}: {self.name}={text!r} is not {self.expected()}") from None
        return self.check(value, where)

    def check(self, value, where: str):
        """``value`` if it is of this parameter's kind and in range, else SpecError."""
        if self.kind == "path":
            if not isinstance(value, str):
                raise SpecError(f"{where}: {self.name}={value!r} is not {self.expected()}")
            return value
        if self.kind == "choice":
            if value not in self.choices:
                raise SpecError(f"{where}: {self.name}={value!r} is not {self.expected()}")
            return value
        if self.kind == "strategy":  # its own parameters are checked where the game is known
            if not isinstance(value, str) or (
                value not in self.choices and value.partition(":")[0].strip() not in self.choices
            ):
                raise SpecError(f"{where}: {self.name}={value!r} is not {self.expected()}")
            return value.strip()
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise SpecError(f"{where}: {self.name}={value!r} is not {self.expected()}")
            return value
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise SpecError(f"{where}: {self.name}={value!r} is not {self.expected()}")
        if isinstance(value, float) and not math.isfinite(value):  # NaN and inf: TOML has both
            raise SpecError(f"{where}: {self.name}={value!r} is not {self.expected()}")
        if self.kind == "int":
            if value != int(value):
                raise SpecError(f"{where}: {self.name}={value!r} is not {self.expected()}")
            value = int(value)
        if self.low is not None and value < self.low:
            raise SpecError(f"{where}: {self.name}={value!r} is not {self.expected()}")
        if self.high is not None and value > self.high:
            raise SpecError(f"{where}: {self.name}={value!r} is not {self.expected()}")
        return float(value) if self.kind == "float" else value

    def expected(self) -> str:
        if self.kind == "bool":
            return "true or false"
        if self.kind == "choice":
            return "one of " + ", ".join(self.choices)
        if self.kind == "path":
            return 'a file path ("" = the shipped file)'
        if self.kind == "strategy":
            return "one of " + ", ".join(self.choices) + ", or NAME:key=value,... (last)"
        return f"{'an integer' if self.kind == 'int' else 'a number'} in [{self.low}, {self.high}]"

    def encode(self, value) -> float:
        """The value as the kernel reads it: a float64 (a choice becomes its index)."""
        if self.kind == "choice":
            return float(self.choices.index(value))
        return float(value)


@dataclass(frozen=True)
class Strategy:
    """A scripted player: ``id`` is the integer the kernel dispatches on."""

    name: str
    id: int
    doc: str
    params: tuple[Param, ...] = ()

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)

    def defaults(self) -> dict:
        return {p.name: p.default for p in self.params}

    def label(self, params: dict) -> str:
        """``name`` plus ``:key=value,...`` for every parameter that differs from its default."""
        changed = [f"{p.name}={params[p.name]}" for p in self.params if params[p.name] != p.default]
        return self.name + (":" + ",".join(changed) if changed else "")


@dataclass(frozen=True)
class Column:
    """A result column the kernel fills; ``labels`` makes it a categorical (code → label)."""

    name: str
    doc: str
    dtype: str = "int32"
    labels: tuple[str, ...] = ()


@dataclass(frozen=True)
class ImpactGroup:
    """Per-seat categorical columns whose values an impact analysis compares (e.g. dealt cards).

    ``observational`` is empty when chance alone sets the value (a dealt card), else it says why
    the comparison is not an experiment: a value a strategy chooses or that goes with the length
    of the game. Reports print it on the page."""

    title: str
    columns: tuple[str, ...]
    observational: str = ""


@dataclass(frozen=True)
class CardImpact:
    """Per-seat int64 bitmask columns over a game's cards: bit k of ``drawn_column`` is set when
    the seat drew card k, of ``played_column`` when it played it. ``labels(rules)`` names the
    cards in bit order; it takes the rules because a card set may be a rule (a data file)."""

    title: str
    drawn_column: str
    played_column: str
    labels: Callable[[dict], tuple[str, ...]]


@dataclass(frozen=True)
class DataComponents:
    """Components a data file lists, one entry each, that ``powerlab impact`` removes one at a
    time: the array of tables ``table`` (e.g. "card") in the file the path rule ``rule`` names,
    each entry named by its ``name`` key and called a ``kind`` (e.g. "event"); ``group`` names the
    key whose value groups them for comparison (e.g. "level"), "" for none."""

    rule: str
    table: str
    kind: str
    group: str = ""


@dataclass(frozen=True)
class Arcs:
    """A game's *standing*: what a player at the table reads off to see who is ahead, per seat,
    recorded after every ``unit`` (a turn or a round) for the games ``--arcs`` samples
    (docs/arcs.md says what a game adds to declare it).

    The kernel's ``trace_game`` records, at the end of each unit, one trace row per seat
    ``[event, unit number (1, 2, ...), seat, standing[0], standing[1], ...]``; nothing is recorded
    in normal runs (their trace has no rows). ``standing`` is in order of precedence: the leader
    is the seat ahead on the first value, ties broken by the next, as the game's own tie-break.
    """

    unit: str
    standing: tuple[Column, ...]
    event: int


@dataclass(frozen=True)
class Game:
    id: str
    title: str
    min_players: int
    max_players: int
    rules: tuple[Param, ...]
    strategies: tuple[Strategy, ...]
    strategy_param_names: tuple[str, ...]
    default_strategy: str
    game_columns: tuple[Column, ...]
    seat_columns: tuple[Column, ...]
    impact: tuple[ImpactGroup, ...] = ()
    card_impact: tuple[CardImpact, ...] = ()
    data_components: tuple[DataComponents, ...] = ()
    arcs: Arcs | None = None
    # The ``ismcts`` strategy (``search_strategy``) of a game on the decision-point protocol.
    search: Strategy | None = None
    module: str = ""
    doc: str = ""
    rulebook: str = ""
    extra: dict = field(default_factory=dict)

    def kernel(self) -> ModuleType:
        return importlib.import_module(self.module)

    def check_arcs(self) -> Arcs:
        """The game's standing declaration, or SpecError if it has none yet."""
        if self.arcs is None:
            raise SpecError(f"{self.id} does not record arcs yet")
        return self.arcs

    def rule(self, name: str) -> Param:
        for p in self.rules:
            if p.name == name:
                return p
        raise SpecError(
            f"{self.id}: unknown rule parameter {name!r} (see `powerlab games {self.id}`)"
        )

    def strategy(self, name: str) -> Strategy:
        for s in self.strategies:
            if s.name == name:
                return s
        if self.search is not None and name == self.search.name:
            return self.search
        known = ", ".join(s.name for s in self.all_strategies())
        raise SpecError(f"{self.id}: unknown strategy {name!r} (known: {known})")

    def all_strategies(self) -> tuple[Strategy, ...]:
        """The scripted strategies, and the search player if the game has one."""
        return self.strategies + ((self.search,) if self.search is not None else ())

    def player_counts(self) -> str:
        """The allowed player counts as a designer writes them: "2" or "3-6"."""
        if self.min_players == self.max_players:
            return str(self.min_players)
        return f"{self.min_players}-{self.max_players}"

    def check_players(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            raise SpecError(f"{self.id} is for {self.player_counts()} players, not {players}")

    def rules_with_defaults(self, overrides: dict) -> dict:
        rules = {p.name: p.default for p in self.rules}
        for name, value in overrides.items():
            rules[name] = self.rule(name).check(value, f"{self.id} rule")
        return rules

    def encode_rules(self, rules: dict) -> np.ndarray:
        return np.array([p.encode(rules[p.name]) for p in self.rules], dtype=np.float64)

    def encode_strategies(self, strategies: list[dict]) -> tuple[np.ndarray, np.ndarray]:
        """Strategy ids and the ``float64[seats, n_params]`` parameter rows the kernel reads. A
        search seat's rollout preset is the one tuned at the lineup's count of seats (a list that
        is no table, such as one spec alone, takes ``table_players``')."""
        seats = len(strategies)
        players = seats if self.min_players <= seats <= self.max_players else None
        ids = np.array([self.strategy(s["name"]).id for s in strategies], dtype=np.int64)
        rows = np.zeros((len(strategies), len(self.strategy_param_names)), dtype=np.float64)
        for seat, s in enumerate(strategies):
            strategy = self.strategy(s["name"])
            params = s["params"]
            if strategy.id == SEARCH_ID:
                # The rollout strategy's own parameters fill the game's columns; its id the
                # ``rollout`` column.
                rollout = parse_strategy(self, params["rollout"], players)
                self._encode_params(self.strategy(rollout["name"]), rollout["params"], rows[seat])
                params = {k: v for k, v in params.items() if k != "rollout"}
                rows[seat, self.strategy_param_names.index("rollout")] = self.strategy(
                    rollout["name"]
                ).id
            self._encode_params(strategy, params, rows[seat])
        return ids, rows

    def _encode_params(self, strategy: Strategy, params: dict, row: np.ndarray) -> None:
        for name, value in params.items():
            row[self.strategy_param_names.index(name)] = strategy.param(name).encode(value)


def search_strategy(
    game_id: str,
    scripted: tuple[Strategy, ...],
    rollout: str,
    believes_claims: bool = False,
    margin: float = MARGIN_DEFAULT,
    opponents: str = "search",
) -> Strategy:
    """The ``ismcts`` strategy of a game on the decision-point protocol (docs/ismcts.md): its
    rollouts may be any scripted strategy (defaults) or preset of the game; ``rollout`` is the
    default, the game's best tuned preset. A game whose players make public claims that may be
    bluffs (``believes_claims``; its protocol offers ``believe``) gets the ``trust`` parameter;
    for the others that column stays 0 (uniform deals). ``margin`` and ``opponents`` are the
    game's defaults (docs/ismcts.md, "The margin" and "Opponents": measured per game)."""
    trust = (
        Param(
            "trust", "float", TRUST_DEFAULT,
            "probability that an opponent's unrefuted claim is taken as true when the search "
            "deals the cards it cannot see (0: every consistent deal equally likely)", 0.0, 1.0,
        ),
    ) if believes_claims else ()  # fmt: skip
    choices = tuple(s.name for s in scripted) + tuple(PRESET_PREFIX + n for n in presets(game_id))
    return Strategy(
        SEARCH,
        SEARCH_ID,
        "information-set Monte Carlo tree search (SO-ISMCTS): each decision searched by "
        "`iterations` playouts from deals consistent with what the seat has seen, opponents "
        "choosing from their own information (searched, or by the `rollout` strategy), "
        "playouts by the `rollout` strategy",
        (
            Param("iterations", "int", 200, "search iterations per decision", 1, 1_000_000),
            Param("c", "float", 0.7, "UCB exploration constant", 0.0, 100.0),
            Param(
                "margin",
                "float",
                margin,
                "standard errors by which the search's most visited option must beat the "
                "rollout strategy's own answer to be played instead (0: the most visited)",
                0.0,
                10.0,
            ),  # fmt: skip
            Param(
                "opponents",
                "choice",
                opponents,
                "how the other seats choose inside the search tree: search (by UCB at their own "
                "information sets, learning from deals that hold the searcher's true cards), "
                "rollout (by the rollout strategy, a model of them) or own-view (searched, "
                "learning from deals of their own view)",
                choices=OPPONENT_CHOICES,
            ),
        )
        + trust
        # Last, so that a rollout with parameters of its own reads back from the label.
        + (
            Param(
                "rollout",
                "strategy",
                rollout,
                "the strategy or preset that plays the playouts; given with parameters of its own "
                "(rollout=NAME:key=value,...) it must come last in the spec",
                choices=choices,
            ),
        ),
    )


def register(game_id: str, module: str) -> None:
    """Register the game module ``module`` (a dotted name) as ``game_id`` in this process; the
    processes it starts see only the games of ``POWERLAB_GAMES``."""
    _REGISTERED[game_id] = _checked_entry(game_id, module, "register")


def _game_modules() -> dict[str, str]:
    """Every game's module by id: the tree's, ``POWERLAB_GAMES``', ``register``'s."""
    modules = dict(_GAME_MODULES)
    for item in os.environ.get(GAMES_VARIABLE, "").split(","):
        if item.strip():
            game_id, eq, module = item.partition("=")
            if not eq:
                raise SpecError(f"{GAMES_VARIABLE}: expected ID=MODULE, got {item.strip()!r}")
            modules[game_id.strip()] = _checked_entry(game_id.strip(), module, GAMES_VARIABLE)
    return modules | _REGISTERED


def _checked_entry(game_id: str, module: str, where: str) -> str:
    """``module``, stripped, unless the entry would hide a game of the tree or is empty."""
    module = module.strip()
    if not game_id or not module:
        raise SpecError(f"{where}: a game needs an id and a module, got {game_id!r}={module!r}")
    if _GAME_MODULES.get(game_id, module) != module:
        raise SpecError(f"{where}: {game_id!r} is a game of the tree ({_GAME_MODULES[game_id]})")
    return module


def game_ids() -> list[str]:
    return list(_game_modules())


def make(game_id: str) -> Game:
    """The registry entry of ``game_id`` (imports its game module)."""
    modules = _game_modules()
    if game_id not in modules:
        raise SpecError(f"unknown game {game_id!r} (known: {', '.join(modules)})")
    try:
        module = importlib.import_module(modules[game_id])
    except ModuleNotFoundError as error:
        name = modules[game_id]
        if error.name is None or not (name == error.name or name.startswith(error.name + ".")):
            raise  # the game's module was found: one of its own imports was not
        raise SpecError(f"{game_id}: no module {modules[game_id]!r} to import") from None
    game = module.GAME
    if game.id != game_id:
        raise SpecError(f"{modules[game_id]} is the game {game.id!r}, registered as {game_id!r}")
    return game


def presets(game_id: str) -> dict[str, dict]:
    """The game's presets file as {name: {"doc", "players": {N: {"spec", "command", "measured",
    maybe "doc"}}}}: a preset is tuned at each player count the game allows (empty without a
    file)."""
    from simcore.workflows import schemas  # it imports this module

    path = PRESETS_DIR / f"{game_id}.toml"
    if not path.exists():
        return {}
    read = schemas.read_toml(path, "presets file", schemas.PresetsFile).root
    return {
        name: {"doc": preset.doc, "players": {
            int(n): tuned.model_dump(exclude_defaults=True) for n, tuned in preset.players.items()
        }}
        for name, preset in read.items()
    }  # fmt: skip


def table_players(game: Game) -> int:
    """The count a command plays when none is given: 4, or the game's nearest."""
    return min(max(4, game.min_players), game.max_players)


def preset_tuning(game: Game, name: str, players: int | None = None) -> dict:
    """Preset ``name``'s tuning at ``players`` (default: ``table_players``): its spec, command
    and measurement there."""
    known = presets(game.id)
    if name not in known:
        raise SpecError(f"{game.id}: unknown preset {name!r} (known: {', '.join(known) or 'none'})")
    players = players or table_players(game)
    tunings = known[name]["players"]
    if players not in tunings:
        counts = ", ".join(map(str, sorted(tunings))) or "none"
        raise SpecError(
            f"{game.id}: preset {name!r} is tuned at {counts} players, not {players} (tune one "
            "there: docs/tuning.md)"
        )
    return tunings[players]


def parse_strategy(game: Game, text: str, players: int | None = None) -> dict:
    """``name``, ``name:key=value,key=value``, ``preset:NAME`` (the spec the game's presets file
    holds for NAME at ``players``, default ``table_players``) or ``preset:NAME:key=value,...``
    (that spec with those values changed) → {"name", "params"} with defaults filled in."""
    if text.strip().startswith(PRESET_PREFIX):
        name, _, overrides = text.strip().removeprefix(PRESET_PREFIX).partition(":")
        preset = parse_strategy(game, preset_tuning(game, name, players)["spec"])
        if overrides.strip():
            changed = parse_strategy(game, f"{preset['name']}:{overrides}")
            keys = {item.partition("=")[0].strip() for item in overrides.split(",")}
            preset["params"].update({key: changed["params"][key] for key in keys})
        return preset
    name, _, rest = text.strip().partition(":")
    strategy = game.strategy(name.strip())
    params = strategy.defaults()
    where = f"strategy {text!r}"
    rollout = None
    if strategy.id == SEARCH_ID and ROLLOUT_KEY in rest:
        # A rollout with parameters of its own (NAME:key=value,...) holds commas: it is the rest
        # of the text. A name or preset alone ends at the next comma like any value.
        at = rest.index(ROLLOUT_KEY)
        value = rest[at + len(ROLLOUT_KEY) :]
        if ":" in value.split(",")[0] and not value.startswith(PRESET_PREFIX):
            if at and rest[:at].rstrip()[-1:] != ",":
                raise SpecError(f"{where}: expected key=value, got {rest[:at].strip()!r}")
            rest, rollout = rest[:at], value
    given = set()
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, eq, value = item.partition("=")
        if not eq:
            raise SpecError(f"{where}: expected key=value, got {item!r}")
        param = strategy.param(key.strip())
        if param is None:
            known = ", ".join(p.name for p in strategy.params) or "none"
            raise SpecError(
                f"{where}: {strategy.name} has no parameter {key.strip()!r} (has: {known})"
            )
        if param.name in given:  # which value was meant is not ours to guess
            raise SpecError(f"{where}: {param.name} is given twice")
        given.add(param.name)
        params[param.name] = param.parse(value, where)
    if rollout is not None:
        params["rollout"] = strategy.param("rollout").parse(rollout, where)
    return _checked_rollout(game, {"name": strategy.name, "params": params})


def _checked_rollout(game: Game, entry: dict) -> dict:
    """``entry``, after checking a search player's rollout spec with its own parameters (the
    ``rollout`` parameter itself admits only the game's scripted strategies and presets)."""
    if game.strategy(entry["name"]).id == SEARCH_ID:
        parse_strategy(game, entry["params"]["rollout"])
    return entry


def check_strategy(game: Game, entry: dict, where: str) -> dict:
    """A strategy given as data (study files, run.json): defaults filled in, values checked."""
    strategy = game.strategy(entry.get("name", ""))
    params = strategy.defaults()
    for key, value in entry.get("params", {}).items():
        param = strategy.param(key)
        if param is None:
            raise SpecError(f"{where}: {strategy.name} has no parameter {key!r}")
        params[key] = param.check(value, where)
    return _checked_rollout(game, {"name": strategy.name, "params": params})


def parse_settings(game: Game, texts: list[str]) -> dict:
    """``--set key=value`` texts → {rule name: value}."""
    rules = {}
    for text in texts:
        key, eq, value = text.partition("=")
        if not eq:
            raise SpecError(f"--set expects key=value, got {text!r}")
        param = game.rule(key.strip())
        if param.name in rules:
            raise SpecError(f"--set: {param.name} is given twice")
        rules[param.name] = param.parse(value, "--set")
    return rules
