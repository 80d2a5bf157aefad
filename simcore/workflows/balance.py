"""`powerlab balance FILE --out DIR`: which values of the rules and components balance a game
(docs/balance.md).

A balance file (TOML) names the game, the player counts, the lineup that plays, the rule
parameters and data-file numbers that may change (with their ranges) and the objectives. Every
objective is a distance to minimise (0 = on target). The search is optuna's multi-objective
sampler (NSGA-II or TPE) in batches: each batch of candidates plays the first rung of games, the
best third by Pareto rank plays three times as many, and so on (successive halving); every
candidate plays the same game indices of the root seed (common random numbers). The finalists
(the non-dominated candidates of the last rung) and the rulebook's values are then measured on
fresh games (root seed + 1) with bootstrap 95% intervals, and again, with ``[robust]``, after the
lineup's strategies are re-tuned for each of them by ``powerlab tune``'s machinery.

A balance directory holds ``balance.json`` (the spec: another spec is refused),
``optuna.journal`` (rerunning resumes), ``games/`` (each candidate's per-game results, per rung:
a resumed search reads them instead of playing again), ``data/`` (the data files of the
candidates, named by their content), ``tuning/`` (the re-tunings), ``trials.parquet``,
``front.parquet``, ``summary.json``, ``rulesets/<candidate>.toml`` (a study file that reproduces
each proposed rule set's measurements) and ``report.pdf``.
"""

from __future__ import annotations

import copy
import hashlib
import itertools
import math
import re
import time
import tomllib
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from simcore import registry
from simcore.kernel.chunk import ENDED_BY, ENDED_CAP, ENDED_RULES, LINEUP_SLOT, TURNS, WON
from simcore.registry import SpecError
from simcore.workflows import files, runner, storage, tuning
from simcore.workflows import study as study_file
from simcore.workflows.study import _REQUIRED, seated
from simcore.workflows.study import _error as _error
from simcore.workflows.study import _unknown_keys as _unknown

TOP_KEYS = (
    "title", "question", "game", "players", "strategies", "rules", "seed", "search", "params",
    "objectives", "robust",
)  # fmt: skip
SEARCH_KEYS = (
    "trials", "batch", "min_games", "rungs", "sampler", "finalists", "final_games",
    "max_final_games", "resamples",
)  # fmt: skip
PARAM_KEYS = ("rule", "path", "name", "low", "high", "log")
ROBUST_KEYS = ("tune", "params", "budget", "players")
KINDS = {
    "seat_fairness": (),
    "length": ("low", "high"),
    "ended_by_rules": ("at_least",),
    "option_value": ("focal", "fixed", "low", "high"),
    "variety": ("measure", "population"),
}
MEASURES = ("entropy", "regret")
SAMPLERS = ("nsga2", "tpe")
REDUCTION = 3  # successive halving keeps the best third of a batch at each rung
VARIETY_RESAMPLES = 20  # an equilibrium per resample: gambit's solver, ~0.1 s each
FORMAT = storage.FORMAT


# --- the file ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Knob:
    """A searched value: a rule parameter (``paths`` empty), or the numbers at ``paths`` inside
    the data file that the path rule ``rule`` names (every number the paths reach takes the
    value). ``kind`` is int or float; ``label`` the name reports show (default rule:paths)."""

    rule: str
    paths: tuple[str, ...]
    low: float
    high: float
    kind: str
    log: bool = False
    label: str = ""

    @property
    def name(self) -> str:
        return self.label or (f"{self.rule}:{'|'.join(self.paths)}" if self.paths else self.rule)

    def dimension(self) -> tuning.Dimension:
        return tuning.Dimension(self.name, self.kind, self.low, self.high, self.log)


@dataclass(frozen=True)
class Objective:
    """One objective entry: ``kind`` (KINDS), its player counts and settings."""

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
        return storage.as_stored(data)

    def rung_games(self) -> list[int]:
        """Cumulative games (per lineup and player count) of each rung."""
        return [self.min_games * REDUCTION**r for r in range(self.rungs)]

    def objective_names(self) -> list[str]:
        return [name for o in self.objectives for name in o.names()]

    def lineup(self, players: int, strategies: list[dict] | None = None) -> list[dict]:
        return copy.deepcopy(seated(strategies or self.strategies, players, max(self.players)))


def _get(path: Path, table: dict, key: str, kinds: tuple, expected: str, default, where=""):
    """``table[key]`` checked as a study file's keys are (simcore/workflows/study.py)."""
    return study_file._get(path, table, key, where, kinds, expected, default)


def _players(path: Path, table: dict, where: str, game: registry.Game, default) -> tuple:
    value = _get(path, table, "players", (int, list), "a player count or a list", default, where)
    values = tuple(value) if isinstance(value, list) else (value,)
    if not values or not all(isinstance(n, int) and not isinstance(n, bool) for n in values):
        raise _error(path, where + "players", f"expected player counts, got {value!r}")
    if len(set(values)) != len(values):
        raise _error(path, where + "players", f"expected distinct player counts, got {value!r}")
    for n in values:
        try:
            game.check_players(n)
        except SpecError as error:
            raise _error(path, where + "players", str(error)) from None
    return values


def _number(path, table, key, where, default=_REQUIRED, low=-math.inf, high=math.inf) -> float:
    value = _get(path, table, key, (int, float), "a number", default, where)
    if value is not None and not (math.isfinite(value) and low <= value <= high):
        raise _error(path, where + key, f"expected a number in [{low}, {high}], got {value!r}")
    return value


def _count(path, table, key, where, default, low=1, high=storage.MAX_GAMES) -> int:
    value = _get(path, table, key, (int,), "an integer", default, where)
    if not low <= value <= high:
        raise _error(path, where + key, f"expected an integer in [{low}, {high}], got {value}")
    return value


def _spec_of(path: Path, game: registry.Game, text, key: str) -> dict:
    if not isinstance(text, str):
        raise _error(path, key, f"expected a strategy spec, got {text!r}")
    try:
        return registry.parse_strategy(game, text)
    except SpecError as error:
        raise _error(path, key, str(error)) from None


def load_balance(path: str | Path) -> BalanceSpec:
    """Parse and check a balance file; every mistake is a one-line SpecError naming the key."""
    path = Path(path)
    source = files.read_text(path, "balance file")
    data = storage.read_toml(path, "balance file")
    _unknown(path, data, TOP_KEYS, "")
    game_id = _get(path, data, "game", (str,), "a game id", _REQUIRED)
    if game_id not in registry.game_ids():
        raise _error(path, "game", f"unknown game {game_id!r} ({', '.join(registry.game_ids())})")
    game = registry.make(game_id)
    players = _players(path, data, "", game, _REQUIRED)
    texts = _get(path, data, "strategies", (list,), "a list of strategy specs", _REQUIRED)
    strategies = [_spec_of(path, game, t, "strategies") for t in texts]
    if len(strategies) not in (1, max(players)):
        raise _error(path, "strategies", f"expected 1 or {max(players)} specs (the largest "
                     f"table; smaller ones seat the first), got {len(strategies)}")  # fmt: skip
    rules = _get(path, data, "rules", (dict,), "a table of rule parameters", {})
    try:
        rules = game.rules_with_defaults(rules)
    except SpecError as error:
        raise _error(path, "rules", str(error)) from None
    seed = _count(path, data, "seed", "", 0, 0, storage.MAX_SEED)
    search = _get(path, data, "search", (dict,), "a table", {})
    _unknown(path, search, SEARCH_KEYS, "search.")
    settings = {key: _count(path, search, key, "search.", default) for key, default in (
        ("trials", 30), ("batch", 10), ("min_games", 1000), ("rungs", 3), ("finalists", 5),
        ("final_games", 20_000), ("resamples", 100),
    )}  # fmt: skip
    settings["max_final_games"] = _count(
        path, search, "max_final_games", "search.", 4 * settings["final_games"],
        settings["final_games"],
    )  # fmt: skip
    if settings["rungs"] > 6:
        raise _error(path, "search.rungs", f"expected at most 6 rungs, got {settings['rungs']}")
    sampler = _get(path, search, "sampler", (str,), "nsga2 or tpe", "nsga2", "search.")
    if sampler not in SAMPLERS:
        raise _error(path, "search.sampler", f"expected nsga2 or tpe, got {sampler!r}")
    knob_tables = _get(path, data, "params", (list,), "[[params]] tables", _REQUIRED)
    if not knob_tables:
        raise _error(path, "params", "expected at least one [[params]] table")
    knobs = [_knob(path, game, rules, table, k) for k, table in enumerate(knob_tables)]
    names = [knob.name for knob in knobs]
    twice = next((name for name in names if names.count(name) > 1), None)
    if twice:
        raise _error(path, "params", f"{twice!r} appears twice")
    objective_tables = _get(path, data, "objectives", (list,), "[[objectives]] tables", _REQUIRED)
    if not objective_tables:
        raise _error(path, "objectives", "expected at least one [[objectives]] table")
    objectives = [
        _objective(path, game, players, strategies, table, k)
        for k, table in enumerate(objective_tables)
    ]
    kinds = [o.kind for o in objectives]
    twice = next((kind for kind in kinds if kinds.count(kind) > 1), None)
    if twice:
        raise _error(path, "objectives", f"kind {twice!r} appears twice")
    robust = _get(path, data, "robust", (dict,), "a table", {})
    _unknown(path, robust, ROBUST_KEYS, "robust.")
    tune = _get(path, robust, "tune", (list,), "strategy names of the lineup", [], "robust.")
    lineup_names = {s["name"] for s in strategies}
    for name in tune:
        if name not in lineup_names:
            raise _error(path, "robust.tune", f"{name!r} is not a strategy of the lineup "
                         f"({', '.join(sorted(lineup_names))})")  # fmt: skip
    robust_params = _get(path, robust, "params", (list,), "parameter names", [], "robust.")
    for name in robust_params:
        if not any(game.strategy(s).param(name) for s in tune):
            raise _error(path, "robust.params", f"{name!r} is not a parameter of "
                         f"{', '.join(tune) or 'the strategies in robust.tune'}")  # fmt: skip
    robust_players = _players(path, robust, "robust.", game, players[0])
    spec = BalanceSpec(
        title=_get(path, data, "title", (str,), "a text", path.stem),
        question=_get(path, data, "question", (str,), "a text", ""),
        game=game_id, players=list(players), strategies=strategies, rules=rules, seed=seed,
        knobs=knobs, objectives=objectives, sampler=sampler, **settings,
        robust_tune=list(tune), robust_params=list(robust_params),
        robust_budget=_count(path, robust, "budget", "robust.", 20_000),
        robust_players=robust_players[0], source=source,
    )  # fmt: skip
    for n in players:  # every lineup is a valid run (rules, data files, strategies)
        try:
            checked = runner.check_spec(_run_spec(spec, spec.lineup(n), rules, n, seed, 1))
        except SpecError as error:
            raise _error(path, "strategies", str(error)) from None
        spec.data_files = checked.data_files
    return spec


def _knob(path: Path, game: registry.Game, rules: dict, table, k: int) -> Knob:
    where = f"params[{k}]."
    if not isinstance(table, dict):
        raise _error(path, f"params[{k}]", "expected a table ([[params]])")
    _unknown(path, table, PARAM_KEYS, where)
    name = _get(path, table, "rule", (str,), "a rule parameter", _REQUIRED, where)
    try:
        rule = game.rule(name)
    except SpecError as error:
        raise _error(path, where + "rule", str(error)) from None
    data_paths = _get(path, table, "path", (str, list), "a path or a list of paths", "", where)
    data_paths = tuple(data_paths if isinstance(data_paths, list) else filter(None, [data_paths]))
    label = _get(path, table, "name", (str,), "a name", "", where)
    low, high = _number(path, table, "low", where), _number(path, table, "high", where)
    log = _get(path, table, "log", (bool,), "true or false", False, where)
    if rule.kind == "path":
        if not data_paths:
            raise _error(path, where + "path", f"{name} names a data file: give the path of "
                         'the numbers to change in it, e.g. "deck.*[0]"')  # fmt: skip
        document = _data_document(game, rules, name)
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
            path, where + "rule", f"{name} is {rule.expected()}: only numbers are searched"
        )
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
    if not low < high or log and low <= 0:
        raise _error(path, where + "low", f"expected low < high (and low > 0 for log), got "
                     f"{low}, {high}")  # fmt: skip
    return Knob(name, data_paths, low, high, kind, log, label)


def _objective(path, game, players, strategies, table, k: int) -> Objective:
    where = f"objectives[{k}]."
    if not isinstance(table, dict):
        raise _error(path, f"objectives[{k}]", "expected a table ([[objectives]])")
    kind = _get(path, table, "kind", (str,), "one of " + ", ".join(KINDS), _REQUIRED, where)
    if kind not in KINDS:
        raise _error(path, where + "kind", f"expected one of {', '.join(KINDS)}, got {kind!r}")
    _unknown(path, table, ("kind", "players", *KINDS[kind]), where)
    counts = _players(path, table, where, game, list(players))
    extra = sorted(set(counts) - set(players))
    if extra and kind != "variety":
        raise _error(path, where + "players", f"{extra} not among the file's players {players}")
    values: dict = {"kind": kind, "players": counts}
    if kind in ("length", "option_value"):
        values["low"], values["high"] = (_number(path, table, k_, where) for k_ in ("low", "high"))
        if values["low"] > values["high"]:
            raise _error(path, where + "low", "expected low <= high")
    if kind == "ended_by_rules":
        values["at_least"] = _number(path, table, "at_least", where, 1.0, 0.0, 1.0)
    if kind == "option_value":
        focal = _get(path, table, "focal", (str,), "a strategy of the lineup", _REQUIRED, where)
        if focal not in {s["name"] for s in strategies}:
            raise _error(path, where + "focal", f"{focal!r} is not a strategy of the lineup")
        fixed = _get(path, table, "fixed", (dict,), "a table of parameters", _REQUIRED, where)
        declared = game.strategy(focal)
        for name, value in fixed.items():
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
        measure = _get(path, table, "measure", (str,), "entropy or regret", "entropy", where)
        if measure not in MEASURES:
            raise _error(path, where + "measure", f"expected entropy or regret, got {measure!r}")
        texts = _get(path, table, "population", (list,), "strategy specs", _REQUIRED, where)
        from simcore.workflows.meta import MAX_PROFILES, check_population

        try:
            population = check_population(game, texts, where.rstrip("."))
        except SpecError as error:
            raise _error(path, where + "population", str(error)) from None
        for n in counts:
            if len(population) ** n > MAX_PROFILES:
                too_many = f"{len(population)} strategies at {n} players: too many profiles"
                raise _error(path, where + "population", too_many)
        values.update(measure=measure, population=tuple(population))
    return Objective(**values)


# --- data files -------------------------------------------------------------------------------

_STEP = re.compile(r"([A-Za-z0-9_*-]+)((?:\[(?:\d+|\*)\])*)")


def _data_document(game: registry.Game, rules: dict, rule: str) -> dict:
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

    document = _data_document(game, rules, rule)
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
            document = _data_document(game, spec.rules, knob.rule)
            values[knob.name] = set_numbers(document, knob.paths[0], 0)[0]
        else:
            values[knob.name] = spec.rules[knob.rule]
    return values


# --- playing a candidate ----------------------------------------------------------------------


def _run_spec(spec: BalanceSpec, lineup, rules, players, seed, games) -> runner.RunSpec:
    return runner.RunSpec(
        game=spec.game, players=players, strategies=copy.deepcopy(lineup), rules=dict(rules),
        seed=seed, games=games, rotate_seats=True,
    )  # fmt: skip


def game_records(spec: runner.RunSpec, start: int, n: int) -> np.ndarray:
    """Per game: [turns, ended_by, won of each seat, lineup slot of each seat] as int32[n, 2 +
    2 * players]: what the objectives read of a chunk (the Dask path ships nothing else)."""
    game_out, seat_out = runner.play_arrays(spec, start, n)
    return np.concatenate(
        [game_out[:, [TURNS, ENDED_BY]], seat_out[:, :, WON], seat_out[:, :, LINEUP_SLOT]], axis=1
    ).astype(np.int32)


def lineups_needed(spec: BalanceSpec, strategies=None, held_strategies=None) -> dict:
    """{key: (players, lineup)} of every lineup a candidate's objectives read: ``main-<n>`` (the
    file's lineup, or ``strategies``), ``without-<n>`` (the option held, or ``held_strategies``:
    restricted play re-tunes the focal with the option held) and ``variety-<n>-<i-j-..>`` (a
    meta-game lineup of the population)."""
    needed = {}
    for objective in spec.objectives:
        for n in objective.players:
            if objective.kind != "variety":
                needed[f"main-{n}"] = (n, spec.lineup(n, strategies))
            if objective.kind == "option_value":
                lineup = spec.lineup(n, held_strategies or strategies)
                needed[f"without-{n}"] = (n, held(lineup, objective))
            if objective.kind == "variety":
                from analyses.gametheory import lineups

                for combo in lineups(len(objective.population), n):
                    key = f"variety-{n}-{'-'.join(map(str, combo))}"
                    needed[key] = (n, [copy.deepcopy(objective.population[j]) for j in combo])
    return needed


def held(lineup: list[dict], objective: Objective) -> list[dict]:
    """The lineup with the option held: every seat of the focal strategy with ``fixed``."""
    return [
        {**s, "params": {**s["params"], **objective.fixed}} if s["name"] == objective.focal else s
        for s in lineup
    ]


def play(spec: BalanceSpec, player: tuning.Player, rules, seed, first, stop, lineups=None):
    """{lineup key: game records of games [first, stop)} of a candidate's rules (``lineups``:
    ``lineups_needed``'s, default the file's)."""
    return {
        key: player.outcomes(_run_spec(spec, lineup, rules, n, seed, stop), first, stop,
                             game_records)
        for key, (n, lineup) in (lineups or lineups_needed(spec)).items()
    }  # fmt: skip


def _save(path: Path, records: dict) -> None:
    def write(tmp: Path) -> None:
        with open(tmp, "wb") as handle:
            np.savez(handle, **records)

    path.parent.mkdir(parents=True, exist_ok=True)
    storage.atomic_write_bytes(path, write)


def _load(path: Path) -> dict:
    with np.load(path) as data:
        return {key: data[key] for key in data.files}


def played(path: Path, make: Callable[[], dict]) -> dict:
    """The records stored at ``path``, or ``make()``'s, stored there first (resume unit)."""
    if path.exists():
        return _load(path)
    records = make()
    _save(path, records)
    return records


# --- objectives -------------------------------------------------------------------------------


def _mean(values: np.ndarray, mask: np.ndarray, weights: np.ndarray) -> float:
    total = (weights * mask).sum()
    return float((weights * mask * values).sum() / total) if total else math.nan


def measure(spec: BalanceSpec, records: dict, weights: np.ndarray | None = None) -> dict:
    """{objective name: (measured value, objective value)} of a candidate's records, each game
    counted ``weights`` times (a bootstrap resample; default once). The measured value is what
    the designer reads (a seat's deviation, mean turns, a share, an option's value in win-rate
    points, the normalised entropy or the regret); the objective value its distance to target."""
    games = next(iter(records.values())).shape[0]
    weights = np.ones(games) if weights is None else weights
    result = {}
    for objective in spec.objectives:
        per_count = []
        for n in objective.players:
            main = records.get(f"main-{n}")
            if objective.kind == "seat_fairness":
                has_result = main[:, 1] != ENDED_CAP
                rates = [_mean(main[:, 2 + s], has_result, weights) for s in range(n)]
                deviation = max(abs(rate - 1 / n) for rate in rates)
                result[f"seat_fairness_{n}p"] = (deviation, deviation)
            elif objective.kind == "length":
                per_count.append(_mean(main[:, 0], main[:, 1] != ENDED_CAP, weights))
            elif objective.kind == "ended_by_rules":
                per_count.append(_mean(main[:, 1] == ENDED_RULES, np.ones(games), weights))
            elif objective.kind == "option_value":
                per_count.append(_option_value(spec, records, n, objective, weights))
            else:
                per_count.append(_variety(records, n, objective, weights))
        if objective.kind == "seat_fairness":
            continue
        value = float(np.mean(per_count))
        if objective.kind == "ended_by_rules":
            distance = max(0.0, objective.at_least - value)
        elif objective.kind == "variety":
            distance = value
        else:
            distance = max(0.0, objective.low - value, value - objective.high)
        result[objective.kind] = (value, distance)
    return result


def _focal_won(records: np.ndarray, lineup: list[dict], focal: str) -> np.ndarray:
    """Per game: whether a seat of the ``focal`` strategy won (any of them, if several)."""
    n = len(lineup)
    won, slots = records[:, 2 : 2 + n], records[:, 2 + n : 2 + 2 * n]
    is_focal = np.isin(slots, [k for k, s in enumerate(lineup) if s["name"] == focal])
    return (won * is_focal).any(axis=1)


def _option_value(spec, records, n, objective, weights) -> float:
    """The focal's win rate with the option minus with it held, on the same games (paired)."""
    with_, without = records[f"main-{n}"], records[f"without-{n}"]
    lineup = spec.lineup(n)
    both = (with_[:, 1] != ENDED_CAP) & (without[:, 1] != ENDED_CAP)
    diff = _focal_won(with_, lineup, objective.focal).astype(float)
    diff -= _focal_won(without, lineup, objective.focal)
    return _mean(diff, both, weights)


def _variety(records, n, objective, weights) -> float:
    """1 - the normalised entropy of the symmetric equilibrium mix (``entropy``: 0 when every
    strategy is played equally, 1 when one is played alone), or the regret of the uniform mix
    (``regret``: what the best strategy gains over the average one against opponents drawn
    uniformly from the population; 0 when none is better)."""
    from analyses import gametheory

    k = len(objective.population)
    payoffs = {}
    for combo in gametheory.lineups(k, n):
        games = records[f"variety-{n}-{'-'.join(map(str, combo))}"]
        has_result = games[:, 1] != ENDED_CAP
        won, slots = games[:, 2 : 2 + n], games[:, 2 + n : 2 + 2 * n]
        shares = np.full(k, np.nan)
        for j in set(combo):
            seats = combo.count(j)
            wins = (won * np.isin(slots, [s for s, c in enumerate(combo) if c == j])).sum(axis=1)
            shares[j] = _mean(wins / seats, has_result, weights)
        payoffs[combo] = shares
    arrays = gametheory.normal_form(payoffs, k, n)
    if objective.measure == "regret":
        values = gametheory.deviation_values(arrays, np.full(k, 1 / k))
        return float(values.max() - values.mean())
    equilibrium = gametheory.symmetric_equilibrium(arrays)
    if equilibrium is None:
        return math.nan
    mix = equilibrium.mix[equilibrium.mix > 0]
    return float(1 + (mix * np.log(mix)).sum() / math.log(k))


def intervals(spec: BalanceSpec, records: dict, seed: int) -> dict:
    """{name: {value, low, high, objective, objective_low, objective_high, draws}}: the measured
    values and objectives with bootstrap 95% intervals over game indices (the same resampled games
    in every lineup, and in every candidate measured on as many games: ``draws``, the objective's
    resamples, pair two candidates)."""
    point = measure(spec, records)
    games = next(iter(records.values())).shape[0]
    rng = np.random.default_rng([seed, games])
    count = spec.resamples
    if any(o.kind == "variety" for o in spec.objectives):
        count = min(count, VARIETY_RESAMPLES)
    resamples = [
        measure(spec, records, rng.poisson(1.0, games).astype(float)) for _ in range(count)
    ]
    result = {}
    for name, (value, objective) in point.items():
        draws = np.array([r[name] for r in resamples], dtype=float).reshape(-1, 2)
        low, high = np.nanpercentile(draws, [2.5, 97.5], axis=0)
        result[name] = {
            "value": value, "low": float(low[0]), "high": float(high[0]),
            "objective": objective, "objective_low": float(low[1]),
            "objective_high": float(high[1]), "draws": draws[:, 1],
        }  # fmt: skip
    return result


# --- the search -------------------------------------------------------------------------------


def _stored_identity(spec: BalanceSpec) -> dict:
    return {"format": FORMAT, **spec.identity()}


def check_dir(spec: BalanceSpec, out: Path) -> None:
    """Refuse, before anything is written, an OUT holding something other than this search."""
    identity = _stored_identity(spec)
    storage.check_owned(out, "balance.json", lambda stored: stored == identity, "balance search")


def _sampler(spec: BalanceSpec, number: int):
    """The sampler for trial ``number``, seeded from (seed, number): a resumed search draws the
    same candidates as an uninterrupted one."""
    import optuna

    seed = (spec.seed * 1_000_003 + number) % 2**32
    if spec.sampler == "tpe":
        return optuna.samplers.TPESampler(seed=seed)
    return optuna.samplers.NSGAIISampler(population_size=spec.batch, seed=seed)


def _study(spec: BalanceSpec, out: Path):
    return tuning.journal_study(
        out, "balance", directions=["minimize"] * len(spec.objective_names())
    )


def pareto_ranks(values: np.ndarray) -> np.ndarray:
    """Non-dominated sorting of the rows of ``values`` (every column minimised; NaN is worst):
    0 for the front, 1 for the front of the rest, and so on."""
    values = np.where(np.isnan(values), np.inf, values)
    ranks = np.full(len(values), -1)
    rank = 0
    while (ranks < 0).any():
        left = np.flatnonzero(ranks < 0)
        for i in left:
            others = values[left]
            dominated = ((others <= values[i]).all(axis=1) & (others < values[i]).any(axis=1)).any()
            if not dominated:
                ranks[i] = rank
        rank += 1
    return ranks


def best_first(values: np.ndarray) -> list[int]:
    """Row order: Pareto rank, then the sum of the objectives (every one a distance to target)."""
    ranks = pareto_ranks(values)
    totals = np.where(np.isnan(values), np.inf, values).sum(axis=1)
    return sorted(range(len(values)), key=lambda i: (ranks[i], totals[i], i))


def _records_at(spec, out, player, number, rules, rung) -> dict:
    """A trial's search records up to ``rung`` (each rung's games stored once)."""
    games = spec.rung_games()
    parts = []
    for r in range(rung + 1):
        first = games[r - 1] if r else 0
        path = out / "games" / f"trial-{number}-r{r}.npz"
        parts.append(played(path, lambda f=first, s=games[r]: play(
            spec, player, rules, spec.seed, f, s)))  # fmt: skip
    return {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}


def _objective_values(spec: BalanceSpec, records: dict) -> list[float]:
    measured = measure(spec, records)
    return [measured[name][1] for name in spec.objective_names()]


def search(spec: BalanceSpec, out: Path, player: tuning.Player, progress=None):
    """Batches of candidates raced by successive halving; returns the optuna study."""
    import optuna

    study = _study(spec, out)
    dimensions = [knob.dimension() for knob in spec.knobs]
    for start in range(0, spec.trials, spec.batch):
        numbers = range(start, min(spec.trials, start + spec.batch))
        known = study.get_trials(deepcopy=False)
        while len(known) < numbers.stop:  # ask the whole batch before playing any of it
            study.sampler = _sampler(spec, len(known))
            trial = study.ask()
            for d in dimensions:
                d.suggest(trial)
            known = study.get_trials(deepcopy=False)
        open_ = [
            t for t in known[numbers.start : numbers.stop]
            if t.state == optuna.trial.TrialState.RUNNING
        ]  # fmt: skip
        if not open_:
            continue
        rules = {t.number: candidate_rules(spec, t.params, out) for t in open_}
        alive, values, reached = [t.number for t in open_], {}, {}
        for rung in range(spec.rungs):
            for number in alive:
                records = _records_at(spec, out, player, number, rules[number], rung)
                values[number], reached[number] = _objective_values(spec, records), rung
                if progress:
                    progress(number, rung)
            if rung < spec.rungs - 1:
                order = best_first(np.array([values[n] for n in alive]))
                alive = [alive[i] for i in order[: max(1, math.ceil(len(alive) / REDUCTION))]]
        lineups = len(lineups_needed(spec))
        for frozen in open_:
            trial = optuna.trial.Trial(study, frozen._trial_id)  # as optuna's own ask() does
            trial.set_user_attr("rung", reached[frozen.number])
            trial.set_user_attr("games", spec.rung_games()[reached[frozen.number]] * lineups)
            finite = [v if math.isfinite(v) else 1e9 for v in values[frozen.number]]
            study.tell(trial, finite)
    return study


def trials_table(spec: BalanceSpec, study):
    """One row per trial: number, batch, rung reached, games, each searched value, each
    objective at its last rung."""
    import polars as pl

    rows = []
    for trial in study.get_trials(deepcopy=False):
        row = {
            "number": trial.number,
            "batch": trial.number // spec.batch,
            "state": trial.state.name.lower(),
            "rung": trial.user_attrs.get("rung"),
            "games": trial.user_attrs.get("games", 0),
        }
        row.update({f"param_{k.name}": trial.params.get(k.name) for k in spec.knobs})
        values = trial.values or [None] * len(spec.objective_names())
        row.update({f"obj_{n}": v for n, v in zip(spec.objective_names(), values, strict=True)})
        rows.append(row)
    return pl.DataFrame(rows, infer_schema_length=None)


def finalists(spec: BalanceSpec, study) -> list:
    """The non-dominated candidates among those that played every rung, best first, distinct
    values only, at most ``spec.finalists``."""
    import optuna

    top = [
        t for t in study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,))
        if t.user_attrs.get("rung") == spec.rungs - 1
    ]  # fmt: skip
    if not top:
        return []
    values = np.array([t.values for t in top])
    ranks = pareto_ranks(values)
    rulebook = rulebook_values(spec)

    def changes(i: int) -> tuple:
        """How far from the rulebook: values changed, then the changes over the ranges."""
        moved = [
            abs(top[i].params[k.name] - rulebook[k.name]) / (k.high - k.low) for k in spec.knobs
        ]
        return sum(m > 0 for m in moved), sum(moved)

    chosen, seen = [], set()
    # Candidates with the same objectives on the same games play alike (a value that never
    # binds): the one that changes the rulebook least stands for them.
    for i in sorted(best_first(values), key=lambda i: (tuple(values[i]), changes(i))):
        key = tuple(values[i])
        if ranks[i] == 0 and key not in seen:
            seen.add(key)
            chosen.append(i)
    order = best_first(values)
    return [top[i] for i in sorted(chosen, key=order.index)][: spec.finalists]


# --- robustness, fresh measures and outputs ----------------------------------------------------


def retuned(spec, out: Path, player, name: str, rules: dict) -> tuple[list, list | None, list]:
    """The lineup with each ``[robust] tune`` strategy re-tuned for these rules (powerlab tune's
    search at ``robust.players`` against the rest of the lineup, in OUT/tuning/<name>/), and the
    lineup of the option held (its focal re-tuned with the option held: restricted play), or
    None without an option value objective. A tuned spec replaces the given one only if it beats
    it on the tuning's fresh games (paired 95% interval above 0, as self-play accepts a round):
    a small budget's noisy winner does not stand for skilled play. Also returns the tunings."""
    game = registry.make(spec.game)
    players = spec.robust_players
    lineup = spec.lineup(players)
    option = next((o for o in spec.objectives if o.kind == "option_value"), None)
    full = copy.deepcopy(spec.strategies)
    held_full = None if option is None else held(full, option)
    summaries = []
    for strategy in spec.robust_tune:
        seat = next(k for k, s in enumerate(lineup) if s["name"] == strategy)
        only = [p for p in spec.robust_params if game.strategy(strategy).param(p)]
        variants = [("free", {})]
        if option and option.focal == strategy:
            variants.append(("held", option.fixed))
        for variant, fixed in variants:
            if not _tunable(game, strategy, only, fixed):
                continue  # the option was all there was to tune: the held lineup stands
            tune_spec = tuning.build_spec(
                spec.game, players, game.strategy(strategy).label(lineup[seat]["params"]),
                lineup[:seat] + lineup[seat + 1 :], [], spec.seed, spec.robust_budget,
                only=[p for p in only if p not in fixed],
                fixed=[f"{k}={_text(v)}" for k, v in fixed.items()], rules=rules,
            )  # fmt: skip
            folder = out / "tuning" / name / f"{strategy}-{variant}"
            summary = tuning.tune_once(tune_spec, folder, player)
            accepted = summary["fresh"]["diff_ci_low"] > 0
            chosen = registry.parse_strategy(game, summary["best"]) if accepted else None
            summaries.append({"candidate": name, "strategy": strategy, "variant": variant,
                              "best": summary["best"], "accepted": accepted,
                              "fresh": summary["fresh"]})  # fmt: skip
            if chosen is None:
                continue
            if variant == "free":
                full = [chosen if s["name"] == strategy else s for s in full]
                if held_full is not None and strategy != option.focal:
                    held_full = [chosen if s["name"] == strategy else s for s in held_full]
                elif held_full is not None:  # held with the re-tuned focal, unless re-tuned held
                    held_full = held(full, option)
            else:
                held_full = [chosen if s["name"] == strategy else s for s in held_full]
    return full, held_full, summaries


def _tunable(game: registry.Game, strategy: str, only: list[str], fixed: dict) -> bool:
    """Whether the strategy has a parameter left to tune (of ``only``, if given) once ``fixed``
    ones are held."""
    return any(
        p.kind != "path" and p.name not in fixed and (not only or p.name in only)
        for p in game.strategy(strategy).params
    )


def _text(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def fresh_blocks(spec: BalanceSpec, games: int) -> list[tuple[int, int]]:
    """The fresh games [0, games) as blocks final_games x 1, 1, 2, 4, ...: the stored ones are
    reused when the measurement grows."""
    blocks, first = [], 0
    while first < games:
        stop = max(spec.final_games, 2 * first)
        blocks.append((first, stop))
        first = stop
    return blocks


def _fresh(spec, out, player, name, rules, lineups, games) -> dict:
    """A candidate's records of fresh games [0, games) (root seed + 1), each block stored once."""
    seed = tuning.fresh_seed(spec.seed)
    parts = [
        played(out / "games" / f"fresh-{name}-{first}-{stop}.npz",
               lambda f=first, s=stop: play(spec, player, rules, seed, f, s, lineups))
        for first, stop in fresh_blocks(spec, games)
    ]  # fmt: skip
    return {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}


def unseparated(spec: BalanceSpec, measured: dict) -> list[tuple[str, str]]:
    """Pairs of non-dominated candidates that no objective tells apart: on none of them does the
    paired 95% interval of their difference exclude 0."""
    names = list(measured)
    objectives = spec.objective_names()
    values = np.array([[measured[n][o]["objective"] for o in objectives] for n in names])
    front = [n for n, rank in zip(names, pareto_ranks(values), strict=True) if rank == 0]
    pairs = []
    for a, b in itertools.combinations(front, 2):
        apart = False
        for o in objectives:
            low, high = np.nanpercentile(measured[a][o]["draws"] - measured[b][o]["draws"],
                                         [2.5, 97.5])  # fmt: skip
            apart |= bool(low > 0 or high < 0)
        if not apart:
            pairs.append((a, b))
    return pairs


def _row(spec, name, trial, values, setting, measured, rulebook) -> dict:
    row = {"candidate": name, "trial": trial, "setting": setting}
    row.update({f"param_{k}": v for k, v in values.items()})
    for objective, entry in measured.items():
        row.update({f"{objective}_{key}": value for key, value in entry.items() if key != "draws"})
        if rulebook is not None:  # paired: the same resampled games
            other = rulebook[objective]
            low, high = np.nanpercentile(entry["draws"] - other["draws"], [2.5, 97.5])
            row[f"{objective}_vs_rulebook"] = entry["objective"] - other["objective"]
            row[f"{objective}_vs_rulebook_low"] = float(low)
            row[f"{objective}_vs_rulebook_high"] = float(high)
    return row


def balance(spec: BalanceSpec, out: Path, threads=None, scheduler=None, progress=None) -> dict:
    """Run the search into ``out`` (resumable); returns (and writes) summary.json."""
    out = Path(out)
    check_dir(spec, out)
    with storage.locked(out):
        check_dir(spec, out)  # again, now that no other writer can
        storage.write_json(out / "balance.json", _stored_identity(spec))
        if (out / "summary.json").exists():
            return storage.read_json(out / "summary.json", "balance summary")
        with tuning.player(threads, scheduler) as player:
            return _search_and_measure(spec, out, player, progress)


def _search_and_measure(spec: BalanceSpec, out: Path, player, progress) -> dict:
    import polars as pl

    started, games_before = time.perf_counter(), player.games
    study = search(spec, out, player, progress)
    table = trials_table(spec, study)
    storage.atomic_write_bytes(out / "trials.parquet", table.write_parquet)
    chosen = finalists(spec, study)
    candidates = [("rulebook", None, rulebook_values(spec), dict(spec.rules))]
    candidates += [
        (f"trial-{t.number}", t.number, t.params, candidate_rules(spec, t.params, out))
        for t in chosen
    ]
    seed = tuning.fresh_seed(spec.seed)
    games = spec.final_games
    while True:  # more fresh games until the front's candidates are told apart (or the cap)
        measured_by = {
            name: intervals(spec, _fresh(spec, out, player, name, rules, None, games), seed)
            for name, _, _, rules in candidates
        }
        apart = unseparated(spec, measured_by)
        if not apart or 2 * games > spec.max_final_games:
            break
        games *= 2
    rows, tunings = [], []
    for name, number, values, rules in candidates:
        rows.append(_row(spec, name, number, values, "as given", measured_by[name],
                         measured_by["rulebook"]))  # fmt: skip
        if spec.robust_tune:
            full, held_full, summaries = retuned(spec, out, player, name, rules)
            tunings += summaries
            lineups = lineups_needed(spec, full, held_full)
            records = _fresh(spec, out, player, f"{name}-retuned", rules, lineups, games)
            measured_by[f"{name}-retuned"] = intervals(spec, records, seed)
            rows.append(_row(spec, name, number, values, "re-tuned", measured_by[f"{name}-retuned"],
                             measured_by["rulebook-retuned"]))  # fmt: skip
            if number is not None:
                write_ruleset(spec, out, name, rules, values, measured_by[f"{name}-retuned"],
                              games, (full, held_full))  # fmt: skip
        if number is not None:
            write_ruleset(spec, out, name, rules, values, measured_by[name], games)
    front = pl.DataFrame(rows, infer_schema_length=None)
    columns = [f"{name}_objective" for name in spec.objective_names()]
    given = front.filter(pl.col("setting") == "as given")
    ranks = pareto_ranks(given.select(columns).to_numpy())
    # The proposals in order of their robust measurement (re-tuned, with [robust]): Pareto rank
    # among the proposals, then the sum of the distances.
    robust = front.filter(
        (pl.col("setting") == ("re-tuned" if spec.robust_tune else "as given"))
        & pl.col("trial").is_not_null()
    )
    order = best_first(robust.select(columns).to_numpy())
    proposal = {robust["candidate"][i]: k + 1 for k, i in enumerate(order)}
    front = front.join(
        given.select("candidate").with_columns(
            on_front=pl.Series(ranks == 0),
            proposal=pl.Series([proposal.get(c) for c in given["candidate"]], dtype=pl.Int64),
        ),
        on="candidate",
    ).sort(pl.col("proposal").fill_null(0), maintain_order=True)
    storage.atomic_write_bytes(out / "front.parquet", front.write_parquet)
    wall = time.perf_counter() - started
    summary = {
        "title": spec.title,
        "question": spec.question,
        "game": spec.game,
        "players": spec.players,
        "lineup": [
            registry.make(spec.game).strategy(s["name"]).label(s["params"]) for s in spec.strategies
        ],  # fmt: skip
        "objectives": spec.objective_names(),
        "targets": [asdict(o) | {"population": None} for o in spec.objectives],
        "params": [asdict(k) | {"name": k.name} for k in spec.knobs],
        "rulebook": candidates[0][2],
        "finalists": sorted(proposal, key=proposal.get),
        "search": {
            "sampler": spec.sampler,
            "trials": table.height,
            "batch": spec.batch,
            "rung_games": spec.rung_games(),
            "lineups_per_candidate": len(lineups_needed(spec)),
            "games": int(table["games"].sum()),
            "final_games": spec.final_games,
            "fresh_games": games,
            "unseparated": [list(pair) for pair in apart],
            "seed": spec.seed,
            "fresh_seed": seed,
        },
        "tunings": tunings,
        "timings": {
            "seconds": round(wall, 3),
            "games_played_now": player.games - games_before,
        },
    }
    storage.write_json(out / "summary.json", summary)
    return summary


def write_ruleset(
    spec, out: Path, name: str, rules: dict, values, measured, games: int, lineups=None
) -> Path:
    """OUT/rulesets/<name>.toml: a study file that plays this rule set on the fresh games the
    balance search measured it on (same seed, games, lineup), so `powerlab study run` reproduces
    its seat win rates, lengths and endings, and (with an option value objective) the option's
    value as the paired answer of its two arms."""
    import tomli_w

    game = registry.make(spec.game)
    changed = {k: v for k, v in rules.items() if v != game.rule(k).default}
    strategies, held_strategies = lineups or (spec.strategies, None)
    texts = [game.strategy(s["name"]).label(s["params"]) for s in strategies]
    summary = ", ".join(f"{k} = {v}" for k, v in values.items())
    headline = "; ".join(
        f"{objective} {entry['value']:.4g} [{entry['low']:.4g}, {entry['high']:.4g}]"
        for objective, entry in measured.items()
    )
    study = {
        "title": f"{spec.title}: {name} ({summary})",
        "question": spec.question or f"How does {spec.game} play with {summary}?",
        "assumptions": [
            f"A rule set proposed by powerlab balance ({name}): {summary}"
            + (", with the strategies re-tuned for it ([robust])." if lineups else "."),
            f"Its balance measurement on these games (95% intervals): {headline}.",
            "Data files are named as the search wrote them (under its --out): run from the "
            "folder the search ran in.",
        ],
        "game": spec.game,
        "players": spec.players,
        "games": games,
        "seed": tuning.fresh_seed(spec.seed),
        "rotate_seats": True,
        "rules": changed,
        "strategies": texts,
    }
    option = next((o for o in spec.objectives if o.kind == "option_value"), None)
    if option:
        held_texts = [
            game.strategy(s["name"]).label(s["params"])
            for s in held(held_strategies or strategies, option)
        ]
        study["arms"] = [
            {"name": "as proposed", "strategies": texts},
            {"name": "option held", "strategies": held_texts},
        ]
        study["answer"] = {"focal": option.focal, "arms": ["as proposed", "option held"]}
    path = out / "rulesets" / f"{name}{'-retuned' if lineups else ''}.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    text = tomli_w.dumps(study)
    storage.atomic_write_bytes(path, lambda tmp: tmp.write_text(text))
    return path
