"""The balance file of `powerlab balance` (docs/balance.md) and the rules of its candidates.

A balance file (TOML, shaped as ``schemas.BalanceFile``) names the game, the player counts, the
lineup that plays, the rule parameters and data-file numbers that may change (numbers with their
ranges; a bool or choice rule among its values) and the objectives. ``load_balance`` checks it
whole into a ``BalanceSpec``, every mistake one line naming the key; ``candidate_rules`` turns a
candidate's searched values into rules, a changed data-file number through a copy of the data
file written under the balance directory.
"""

from __future__ import annotations

import copy
import hashlib
import re
import tomllib
from dataclasses import asdict, dataclass, field
from pathlib import Path

from simcore import registry
from simcore.registry import SpecError
from simcore.workflows import files, runner, schemas, storage, tuning
from simcore.workflows.meta import MAX_PROFILES, check_population
from simcore.workflows.study import _error, seated

SEARCH_KEYS = (
    "trials", "batch", "min_games", "rungs", "sampler", "finalists", "final_games",
    "max_final_games", "resamples",
)  # fmt: skip
CATEGORICAL = ("bool", "choice")  # rule kinds searched as one of their values, not in a range
REDUCTION = 3  # successive halving keeps the best third of a batch at each rung


# --- the file ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Knob:
    """A searched value: a rule parameter (``paths`` empty), or the numbers at ``paths`` inside
    the data file that the path rule ``rule`` names (every number the paths reach takes the
    value). ``kind`` is int or float (searched in [low, high]), or bool or choice (a house rule
    switched or chosen: one of ``choices``, (False, True) for a bool; no range); ``label`` the
    name reports show (default rule:paths)."""

    rule: str
    paths: tuple[str, ...]
    low: float | None
    high: float | None
    kind: str
    log: bool = False
    label: str = ""
    choices: tuple = ()

    @property
    def name(self) -> str:
        return self.label or (f"{self.rule}:{'|'.join(self.paths)}" if self.paths else self.rule)

    @property
    def categorical(self) -> bool:
        return self.kind in CATEGORICAL

    def dimension(self) -> tuning.Dimension:
        if self.categorical:
            return tuning.Dimension(self.name, "choice", choices=self.choices)
        return tuning.Dimension(self.name, self.kind, self.low, self.high, self.log)

    def moved(self, value, rulebook) -> float:
        """How far ``value`` is from the rulebook's: the change over the searched range, for a
        bool or choice 0 (the same) or 1 (another)."""
        if self.categorical:
            return float(value != rulebook)
        return abs(value - rulebook) / (self.high - self.low)


@dataclass(frozen=True)
class Objective:
    """One objective entry: ``kind`` (``schemas.OBJECTIVE_KEYS``), its player counts and
    settings."""

    kind: str
    players: tuple[int, ...]
    low: float | None = None
    high: float | None = None
    at_least: float | None = None
    focal: str = ""
    fixed: dict = field(default_factory=dict)
    measure: str = "entropy"
    population: tuple[dict, ...] = ()

    def names(self) -> list[str]:
        """The objective values this entry yields: seat fairness one per player count."""
        if self.kind == "seat_fairness":
            return [f"seat_fairness_{n}p" for n in self.players]
        return [self.kind]


@dataclass
class BalanceSpec:
    """Everything that fixes a balance search's result."""

    title: str
    question: str
    game: str
    players: list[int]
    strategies: list[dict]
    rules: dict
    seed: int
    knobs: list[Knob]
    objectives: list[Objective]
    trials: int = 30
    batch: int = 10
    min_games: int = 1000
    rungs: int = 3
    sampler: str = "nsga2"
    finalists: int = 5
    final_games: int = 20_000
    max_final_games: int = 80_000
    resamples: int = 100
    robust_tune: list[str] = field(default_factory=list)
    robust_params: list[str] = field(default_factory=list)
    robust_budget: int = 20_000
    robust_players: int = 0
    # SHA-256 of each designer's data file the rules name: editing one changes the spec.
    data_files: dict = field(default_factory=dict)
    source: str = ""

    def identity(self) -> dict:
        data = asdict(self)
        data.pop("source")
        # A number's knob as before bool and choice knobs: directories written then resume.
        for knob in data["knobs"]:
            if not knob["choices"]:
                del knob["choices"]
        return storage.as_stored(data)

    def rung_games(self) -> list[int]:
        """Cumulative games (per lineup and player count) of each rung."""
        return [self.min_games * REDUCTION**r for r in range(self.rungs)]

    def objective_names(self) -> list[str]:
        return [name for o in self.objectives for name in o.names()]

    def lineup(self, players: int, strategies: list[dict] | None = None) -> list[dict]:
        return copy.deepcopy(seated(strategies or self.strategies, players, max(self.players)))


def _players(path: Path, where: str, game: registry.Game, value) -> tuple[int, ...]:
    """A ``players`` key's counts, each one the game is for, each once."""
    values = schemas.player_counts(value)
    if len(set(values)) != len(values):
        raise _error(path, where + "players", f"expected distinct player counts, got {value!r}")
    for n in values:
        try:
            game.check_players(n)
        except SpecError as error:
            raise _error(path, where + "players", str(error)) from None
    return values


def _spec_of(path: Path, game: registry.Game, text: str, key: str) -> dict:
    try:
        return registry.parse_strategy(game, text)
    except SpecError as error:
        raise _error(path, key, str(error)) from None


def load_balance(path: str | Path) -> BalanceSpec:
    """Parse and check a balance file; every mistake is a one-line SpecError naming the key."""
    path = Path(path)
    source = files.read_text(path, "balance file")
    data = schemas.read_toml(path, "balance file", schemas.BalanceFile)
    if data.game not in registry.game_ids():
        raise _error(path, "game", f"unknown game {data.game!r} ({', '.join(registry.game_ids())})")
    game = registry.make(data.game)
    players = _players(path, "", game, data.players)
    strategies = [_spec_of(path, game, t, "strategies") for t in data.strategies]
    if len(strategies) not in (1, max(players)):
        raise _error(path, "strategies", f"expected 1 or {max(players)} specs (the largest "
                     f"table; smaller ones seat the first), got {len(strategies)}")  # fmt: skip
    try:
        rules = game.rules_with_defaults(dict(data.rules))
    except SpecError as error:
        raise _error(path, "rules", str(error)) from None
    search = data.search
    settings = {key: getattr(search, key) for key in SEARCH_KEYS}
    if search.max_final_games is None:
        settings["max_final_games"] = 4 * search.final_games
    knobs = [_knob(path, game, rules, table, k) for k, table in enumerate(data.params)]
    names = [knob.name for knob in knobs]
    twice = next((name for name in names if names.count(name) > 1), None)
    if twice:
        raise _error(path, "params", f"{twice!r} appears twice")
    objectives = [
        _objective(path, game, players, strategies, table, k)
        for k, table in enumerate(data.objectives)
    ]
    kinds = [o.kind for o in objectives]
    twice = next((kind for kind in kinds if kinds.count(kind) > 1), None)
    if twice:
        raise _error(path, "objectives", f"kind {twice!r} appears twice")
    robust = data.robust
    lineup_names = {s["name"] for s in strategies}
    for name in robust.tune:
        if name not in lineup_names:
            raise _error(path, "robust.tune", f"{name!r} is not a strategy of the lineup "
                         f"({', '.join(sorted(lineup_names))})")  # fmt: skip
    tuned = ", ".join(robust.tune) or "the strategies in robust.tune"
    for name in robust.params:
        if not any(game.strategy(s).param(name) for s in robust.tune):
            raise _error(path, "robust.params", f"{name!r} is not a parameter of {tuned}")
    storage.check_count(
        robust.budget, f"{path}: robust.budget", tuning.MAX_BUDGET, tuning.BUDGET_WHY
    )
    robust_players = _players(path, "robust.", game, robust.players or players[0])
    spec = BalanceSpec(
        title=path.stem if data.title is None else data.title,
        question=data.question,
        game=data.game, players=list(players), strategies=strategies, rules=rules,
        seed=data.seed, knobs=knobs, objectives=objectives, **settings,
        robust_tune=list(robust.tune), robust_params=list(robust.params),
        robust_budget=robust.budget, robust_players=robust_players[0], source=source,
    )  # fmt: skip
    for n in players:  # every lineup is a valid run (rules, data files, strategies)
        try:
            checked = runner.check_spec(run_spec(spec, spec.lineup(n), rules, n, data.seed, 1))
        except SpecError as error:
            raise _error(path, "strategies", str(error)) from None
        spec.data_files = checked.data_files
    return spec


def _knob(path: Path, game: registry.Game, rules: dict, table: schemas.Param, k: int) -> Knob:
    where = f"params[{k}]."
    name = table.rule
    try:
        rule = game.rule(name)
    except SpecError as error:
        raise _error(path, where + "rule", str(error)) from None
    data_paths = table.path if isinstance(table.path, list) else filter(None, [table.path])
    data_paths = tuple(data_paths)
    if rule.kind in CATEGORICAL:
        ranged = next((key for key in ("path", "low", "high", "log") if table.given(key)), None)
        if ranged:
            raise _error(path, where + ranged, f"{name} is {rule.expected()}: each of its "
                         "values is searched, without path, low, high or log")  # fmt: skip
        choices = (False, True) if rule.kind == "bool" else tuple(rule.choices)
        return Knob(name, (), None, None, rule.kind, label=table.name, choices=choices)
    for key in ("low", "high"):
        if getattr(table, key) is None:
            raise _error(path, where + key, "missing, expected a number")
    low, high = table.low, table.high
    if rule.kind == "path":
        if not data_paths:
            raise _error(path, where + "path", f"{name} names a data file: give the path of "
                         'the numbers to change in it, e.g. "deck.*[0]"')  # fmt: skip
        document = data_document(game, rules, name)
        found = []
        for data_path in data_paths:
            try:
                found += set_numbers(copy.deepcopy(document), data_path, 0)
            except SpecError as error:
                raise _error(path, where + "path", str(error)) from None
        kind = "int" if all(isinstance(v, int) for v in found) else "float"
    elif data_paths:
        raise _error(path, where + "path", f"{name} is not a data file rule")
    elif rule.kind not in ("int", "float"):
        raise _error(
            path, where + "rule",
            f"{name} is {rule.expected()}: only numbers, true/false and choices are searched",
        )  # fmt: skip
    else:
        kind = rule.kind
        if kind == "int" and (low != int(low) or high != int(high)):
            raise _error(path, where + "low", f"expected whole numbers, got {low}, {high}")
        for bound in (low, high):
            try:
                rule.check(int(bound) if kind == "int" and bound == int(bound) else bound, "")
            except SpecError:
                raise _error(path, where + "low", f"[{low}, {high}] leaves {name}'s declared "
                             f"range [{rule.low}, {rule.high}]") from None  # fmt: skip
    if kind == "int" and (low != int(low) or high != int(high)):
        raise _error(path, where + "low", f"expected whole numbers for {name}, got {low}, {high}")
    if not low < high or table.log and low <= 0:
        raise _error(path, where + "low", f"expected low < high (and low > 0 for log), got "
                     f"{low}, {high}")  # fmt: skip
    return Knob(name, data_paths, low, high, kind, table.log, table.name)


def _objective(path, game, players, strategies, table: schemas.Objective, k: int) -> Objective:
    where = f"objectives[{k}]."
    kind = table.kind
    counts = _players(path, where, game, table.players or list(players))
    extra = sorted(set(counts) - set(players))
    if extra and kind != "variety":
        raise _error(path, where + "players", f"{extra} not among the file's players {players}")
    values: dict = {"kind": kind, "players": counts}
    if kind in ("length", "option_value"):
        values["low"], values["high"] = table.low, table.high
        if table.low > table.high:
            raise _error(path, where + "low", "expected low <= high")
    if kind == "ended_by_rules":
        values["at_least"] = table.at_least
    if kind == "option_value":
        focal = table.focal
        if focal not in {s["name"] for s in strategies}:
            raise _error(path, where + "focal", f"{focal!r} is not a strategy of the lineup")
        declared = game.strategy(focal)
        fixed = {}
        for name, value in table.fixed.items():
            param = declared.param(name)
            if param is None:
                raise _error(path, where + "fixed", f"{focal} has no parameter {name!r}")
            try:
                fixed[name] = param.check(value, where + "fixed")
            except SpecError as error:
                raise _error(path, where + "fixed", str(error)) from None
        if not fixed:
            raise _error(path, where + "fixed", "expected at least one parameter to hold")
        values.update(focal=focal, fixed=fixed)
    if kind == "variety":
        try:
            population = check_population(game, table.population, where.rstrip("."))
        except SpecError as error:
            raise _error(path, where + "population", str(error)) from None
        for n in counts:
            if len(population) ** n > MAX_PROFILES:
                too_many = f"{len(population)} strategies at {n} players: too many profiles"
                raise _error(path, where + "population", too_many)
        values.update(measure=table.measure, population=tuple(population))
    return Objective(**values)


# --- data files -------------------------------------------------------------------------------

_STEP = re.compile(r"([A-Za-z0-9_*-]+)((?:\[(?:\d+|\*)\])*)")


def data_document(game: registry.Game, rules: dict, rule: str) -> dict:
    """The TOML document of the data file that ``rule`` names (the shipped one for "")."""
    param = game.rule(rule)
    where = rules[rule] or param.shipped_path()
    if not rules[rule] and not param.shipped:
        raise SpecError(f"{game.id} names no shipped file for {rule}: give rules.{rule}")
    try:
        return tomllib.loads(files.read_text(where, "data file"))
    except tomllib.TOMLDecodeError as error:
        raise SpecError(f"{where}: not valid TOML ({error})") from None


def set_numbers(document, path: str, value) -> list:
    """Set every number that ``path`` reaches in ``document`` to ``value``; returns the numbers
    that were there. A path is dotted keys with list indexes: ``deck.finance[0]``, ``*`` for every
    key of a table, ``[*]`` for every item of a list (``deck.*[0]``: the first card of every
    colour). A path that reaches nothing, or anything but numbers, is a SpecError."""
    steps = []
    for part in path.split("."):
        match = _STEP.fullmatch(part)
        if not match:
            raise SpecError(f"{path!r}: {part!r} is not a key with optional [index]")
        steps.append(("key", match.group(1)))
        steps += [("index", i) for i in re.findall(r"\[(\d+|\*)\]", match.group(2))]
    reached = [document]
    places: list[tuple] = []
    for kind, step in steps:
        places = []
        for node in reached:
            if kind == "key":
                if not isinstance(node, dict):
                    raise SpecError(f"{path!r}: {step!r} looks into something that is not a table")
                keys = list(node) if step == "*" else [step]
                if step != "*" and step not in node:
                    raise SpecError(f"{path!r}: no key {step!r} (has: {', '.join(node)})")
            else:
                if not isinstance(node, list):
                    raise SpecError(f"{path!r}: [{step}] indexes something that is not a list")
                keys = range(len(node)) if step == "*" else [int(step)]
                if step != "*" and int(step) >= len(node):
                    raise SpecError(f"{path!r}: [{step}] is past the list's {len(node)} items")
            places += [(node, key) for key in keys]
        reached = [node[key] for node, key in places]
    if not places or not all(
        isinstance(v, int | float) and not isinstance(v, bool) for v in reached
    ):
        raise SpecError(f"{path!r} reaches {reached!r}, not numbers")
    for node, key in places:
        node[key] = value
    return reached


def write_data_file(out: Path, game: registry.Game, rules: dict, rule: str, changes) -> str:
    """The data file ``rule`` names with ``changes`` ((path, value) pairs) applied, written as
    OUT/data/<rule>-<content digest>.toml (once: a resumed search finds it); returns its path."""
    import tomli_w

    document = data_document(game, rules, rule)
    for data_path, value in changes:
        set_numbers(document, data_path, value)
    text = tomli_w.dumps(document)
    target = Path(out) / "data" / f"{rule}-{hashlib.sha256(text.encode()).hexdigest()[:12]}.toml"
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        storage.atomic_write_bytes(target, lambda tmp: tmp.write_text(text))
    return str(target)


def candidate_rules(spec: BalanceSpec, values: dict, out: Path) -> dict:
    """The rules of a candidate: the file's rules with each searched value set (a data-file
    number through a written copy of the file)."""
    game = registry.make(spec.game)
    rules = dict(spec.rules)
    changes: dict[str, list] = {}
    for knob in spec.knobs:
        value = values[knob.name]
        if knob.paths:
            changes.setdefault(knob.rule, []).extend((p, value) for p in knob.paths)
        else:
            rules[knob.rule] = value
    for rule, pairs in changes.items():
        rules[rule] = write_data_file(out, game, spec.rules, rule, pairs)
    return rules


def rulebook_values(spec: BalanceSpec) -> dict:
    """Each searched value as the file's rules have it (for a data-file path: the first number
    the path reaches)."""
    game = registry.make(spec.game)
    values = {}
    for knob in spec.knobs:
        if knob.paths:
            document = data_document(game, spec.rules, knob.rule)
            values[knob.name] = set_numbers(document, knob.paths[0], 0)[0]
        else:
            values[knob.name] = spec.rules[knob.rule]
    return values


def run_spec(spec: BalanceSpec, lineup, rules, players, seed, games) -> runner.RunSpec:
    """The run spec of one lineup of a candidate: its rules, seats rotated."""
    return runner.RunSpec(
        game=spec.game, players=players, strategies=copy.deepcopy(lineup), rules=dict(rules),
        seed=seed, games=games, rotate_seats=True,
    )  # fmt: skip
