"""Studies: a TOML file (docs/studies.md) expanded into cells, each cell a normal resumable run.

A cell is one arm × one sweep point × one player count. Every cell of a study uses the same seed,
so game i of any two cells starts from the same random stream (common random numbers). The file
is data only; every mistake is a one-line SpecError naming the file and the key.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import itertools
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from simcore import registry
from simcore.registry import SpecError
from simcore.workflows import files, runner, schemas, storage
from simcore.workflows import meta as meta_game

RESTRICT_ARMS = ("tuned", "tuned without")  # the focal tuned freely / with the option off
# With [restrict] search: the search player in the focal seat, its playouts by each tuned spec.
SEARCH_ARMS = ("search", "search without")
# Restricted play tunes on the study's seed + 2 (search) and + 3 (fresh games): the cells play
# the study's seed, so the tuned specs are measured on games their search never saw.
TUNING_SEED_OFFSET = 2
# A meta-game mix of opponents becomes one cell per lineup it can seat; lineups less likely than
# this are left out (and the others' weights scaled up to 1).
MIN_MIX_WEIGHT = 1e-3
# Each cell is a run directory and a line or a bar in the report, and planning checks every
# cell's rules with the game's own loader (up to 50 ms a cell for POWER: The Game's board): 1,000
# cells plan in under a minute. A larger grid is refused, counted before any cell is built.
MAX_CELLS = 1000


@dataclass(frozen=True)
class Arm:
    """A named strategy lineup (spec strings, as on the CLI) and rule overrides."""

    name: str
    strategies: tuple[str, ...]
    rules: dict


@dataclass(frozen=True)
class Sprt:
    """Stop two arms once arm ``arms[0]`` beats ``arms[1]`` by ``margin`` or surely does not."""

    arms: tuple[str, str]
    margin: float
    alpha: float
    beta: float


@dataclass(frozen=True)
class Stop:
    """Sequential stopping: looks every ``games`` games, at most ``max_games`` per cell."""

    focal: str
    max_games: int
    until_ci: float | None
    sprt: Sprt | None


@dataclass(frozen=True)
class Answer:
    """What the study answers: the focal's win rate in arm ``arms[0]`` minus in ``arms[1]``
    (paired), or without ``arms`` its win rate minus the fair share 1/players."""

    focal: str
    arms: tuple[str, str] | None
    pairs: tuple[tuple[str, str], ...] = ()  # further arm pairs, answered the same way


@dataclass(frozen=True)
class Opponents:
    """An opponent setting: the seats after the arm's focal entry (``seats = "others"``) or the
    whole table (``"all"``), as spec strings or the equilibrium mix of a meta directory, with
    rule overrides (an assumption that goes with these opponents, e.g. a neutral deck).
    ``games`` (0: the study's) is its cells' games, fewer where a seat searches."""

    name: str
    strategies: tuple[str, ...]
    rules: dict
    meta: str | None
    seats: str
    games: int = 0


@dataclass(frozen=True)
class Restrict:
    """Restricted play: the focal ``strategy`` tuned (``budget`` games, parameters ``params`` or
    all) with its options free, and again with ``fixed`` holding an option off; the two tuned
    specs are the arms ``RESTRICT_ARMS``, per opponent setting and player count. With ``search``
    (the search player's parameters, and ``games`` a cell), the arms ``SEARCH_ARMS`` seat the
    search player in the focal seat, its playouts by the free and by the restricted tuned spec."""

    strategy: str
    fixed: dict
    budget: int
    params: tuple[str, ...]
    min_games: int | None = None
    search: dict | None = None

    def arms(self) -> tuple[str, ...]:
        return RESTRICT_ARMS + (SEARCH_ARMS if self.search else ())

    def search_games(self, games: int) -> int:
        """Games a search cell plays when the others play ``games``."""
        return min(games, self.search.get("games", games))

    def search_spec(self, rollout: str) -> str:
        """The search player's spec with ``rollout`` (a tuned spec) playing its playouts."""
        items = [f"{k}={v}" for k, v in self.search.items() if k != "games"]
        return f"{registry.SEARCH}:" + ",".join([*items, f"rollout={rollout}"])


@dataclass(frozen=True)
class Study:
    path: Path
    title: str
    # What the study asks and what its answer rests on (opponents, invented components, caps),
    # in the designer's words: the report opens with them.
    question: str
    assumptions: tuple[str, ...]
    game: str
    players: tuple[int, ...]
    games: int
    seed: int
    rotate_seats: bool
    rules: dict
    arms: tuple[Arm, ...]
    sweep: dict[str, tuple]
    stop: Stop | None
    answer: Answer | None = None
    opponents: tuple[Opponents, ...] = ()
    restrict: Restrict | None = None
    # Share of each cell's games whose arcs are recorded (``arcs = "1%"``; docs/arcs.md).
    arcs: float = 0.0


@dataclass
class Cell:
    """One run of a study: ``values`` holds the swept keys (and ``players``, and ``opponents``)
    at this cell. An opponent setting that is a mix seats several lineups: ``variant`` numbers
    them and ``weight`` is each one's probability."""

    id: str
    arm: str
    values: dict
    spec: runner.RunSpec
    variant: int = 0
    weight: float = 1.0

    def group(self) -> tuple:
        """Cells with the same group differ only in their arm: they are paired."""
        return (*sorted(self.values.items()), ("variant", self.variant))


# --- parsing ----------------------------------------------------------------------------------


def _error(path: Path, key: str, message: str) -> SpecError:
    return SpecError(f"{path}: {key}: {message}")


def _two_arms(path: Path, key: str, arms: list[str], arm_names: list[str]) -> tuple[str, str]:
    if len(arms) != 2 or len(set(arms)) != 2 or not set(arms) <= set(arm_names):
        raise _error(path, key, f"expected two different arms of {arm_names}, got {arms!r}")
    return tuple(arms)


def _stop(path: Path, table: schemas.Stop, arm_names: list[str]) -> Stop:
    sprt = None
    if table.sprt is not None:
        arms = _two_arms(path, "stop.sprt.arms", table.sprt.arms, arm_names)
        sprt = Sprt(arms, table.sprt.margin, table.sprt.alpha, table.sprt.beta)
    return Stop(table.focal, table.max_games, table.until_ci, sprt)


def _restrict(path: Path, table: schemas.Restrict) -> Restrict:
    from simcore.workflows import tuning

    where = f"{path}: restrict."
    storage.check_count(table.budget, where + "budget", tuning.MAX_BUDGET, tuning.BUDGET_WHY)
    if table.min_games is not None:
        storage.check_count(
            table.min_games, where + "min_games", tuning.MAX_HELD_GAMES, tuning.HELD_WHY
        )
    return Restrict(
        table.strategy, dict(table.fixed), table.budget, tuple(table.params), table.min_games,
        table.search,
    )  # fmt: skip


def load_study(path: str | Path) -> Study:
    """Parse and check a study file's structure; cell specs are checked by ``cells``."""
    path = Path(path)
    data = schemas.read_toml(path, "study file", schemas.StudyFile)
    if data.game not in registry.game_ids():
        raise _error(path, "game", f"unknown game {data.game!r} ({', '.join(registry.game_ids())})")
    strategies = tuple(data.strategies or ())
    if data.arms is None:
        arms = (Arm("main", strategies, dict(data.rules)),)
    else:
        arms = tuple(
            Arm(arm.name, tuple(arm.strategies or strategies), {**data.rules, **arm.rules})
            for arm in data.arms
        )
    names = [arm.name for arm in arms]
    duplicate = next((name for name in names if names.count(name) > 1), None)
    if duplicate:
        raise _error(path, "arms", f"expected distinct names, {duplicate!r} appears twice")
    restrict = None if data.restrict is None else _restrict(path, data.restrict)
    if restrict:
        if data.arms is not None:
            raise _error(
                path, "restrict", "makes the arms (tuned, tuned without): give no [[arms]]"
            )
        # Before tuning, a search arm's rollout is the strategy as given: its cells then check the
        # search player's parameters before any tuning runs.
        arms = tuple(
            Arm(name, (restrict.search_spec(restrict.strategy),), dict(data.rules))
            if name in SEARCH_ARMS
            else Arm(name, (restrict.strategy,), dict(data.rules))
            for name in restrict.arms()
        )
        names = list(restrict.arms())
    opponents = tuple(
        Opponents(o.name, tuple(o.strategies or ()), dict(o.rules), o.meta, o.seats, o.games)
        for o in data.opponents
    )
    setting_names = [o.name for o in opponents]
    if len(set(setting_names)) != len(setting_names):
        raise _error(path, "opponents", "expected distinct names")
    if data.stop is not None and any(o.games for o in opponents):
        raise _error(path, "stop", "stops every cell alike: give no [[opponents]] games with it")
    answer = None
    if data.answer is not None:
        arms_pair = data.answer.arms
        pair = None if arms_pair is None else _two_arms(path, "answer.arms", arms_pair, names)
        answer = Answer(data.answer.focal, pair)
    if restrict and answer is None:
        answer = Answer("lineup:0", RESTRICT_ARMS, (SEARCH_ARMS,) if restrict.search else ())
    return Study(
        path=path,
        title=path.stem if data.title is None else data.title,
        question=data.question,
        assumptions=tuple(data.assumptions),
        game=data.game,
        players=schemas.player_counts(data.players),
        games=data.games,
        seed=data.seed,
        rotate_seats=data.rotate_seats,
        rules=dict(data.rules),
        arms=arms,
        sweep={key: tuple(values) for key, values in data.sweep.model_extra.items()},
        stop=None if data.stop is None else _stop(path, data.stop, names),
        answer=answer,
        opponents=opponents,
        restrict=restrict,
        arcs=0.0 if data.arcs is None else _checked(path, "arcs", runner.parse_arcs, data.arcs),
    )


# --- cells ------------------------------------------------------------------------------------


def _apply_sweep(path: Path, game: registry.Game, spec: runner.RunSpec, key: str, value) -> None:
    """Set swept ``key`` (a rule, or STRATEGY.PARAM for every seat of that strategy) in ``spec``."""
    where = f"{path}: sweep.{key}"
    strategy_name, dot, param_name = key.partition(".")
    if not dot:
        if all(p.name != key for p in game.rules):
            raise SpecError(f"{where}: unknown rule parameter or STRATEGY.PARAM of {game.id}")
        spec.rules[key] = game.rule(key).check(value, where)
        return
    # Any strategy the game offers, the search player included (its ``iterations`` swept make a
    # skill trace, docs/ismcts.md).
    strategy = next((s for s in game.all_strategies() if s.name == strategy_name), None)
    param = strategy.param(param_name) if strategy else None
    if param is None:
        raise SpecError(f"{where}: unknown strategy parameter (see `powerlab games {game.id}`)")
    seats = [s for s in spec.strategies if s["name"] == strategy_name]
    if not seats:
        raise SpecError(f"{where}: no {strategy_name} in the lineup {spec.lineup()}")
    for seat in seats:
        seat["params"][param_name] = param.check(value, where)


def swept_value(key: str, value) -> str:
    """A swept value as cell names and report labels show it: a data file by its name without
    folder and suffix (``""``, the game's shipped files, as ``shipped``), so that labels stay
    short; anything else as written."""
    if key == "data":
        return Path(value).stem if value else "shipped"
    return f"{value:g}" if isinstance(value, float) else str(value)


def _cell_id(values: dict, arm: str, with_arm: bool) -> str:
    """The cell's folder name: arm and swept values, other characters than A-Z a-z 0-9 ._=+-
    replaced by "-"."""
    parts = [
        f"{value}p"
        if key == "players"
        else f"{key}={swept_value(key, value) if key == 'data' else value}"
        for key, value in values.items()
    ]
    text = "_".join(([arm] if with_arm else []) + parts) or arm
    return re.sub(r"[^A-Za-z0-9._=+-]+", "-", text)


def _check_cell_ids(path: Path, study_cells: list[Cell]) -> None:
    """Every cell needs a folder of its own: refuse ids that are not a plain folder name, and
    ids that collide once cleaned (compared case-blind, as macOS and Windows disks compare)."""
    seen: dict[str, Cell] = {}
    for cell in study_cells:
        if not storage.CELL_ID.match(cell.id):
            raise _error(
                path, "arms", f"cell {cell.id!r} (arm {cell.arm!r}) is not a usable folder name: "
                "rename the arm or shorten the swept values"
            )  # fmt: skip
        other = seen.setdefault(cell.id.casefold(), cell)
        if other is not cell:
            raise _error(
                path, "cells", f"arm {other.arm!r} {other.values} and arm {cell.arm!r} "
                f"{cell.values} both make the folder cells/{cell.id} (names are cleaned to "
                "letters, digits and ._=+-); rename an arm or change a value"
            )  # fmt: skip


def seated(lineup: list, players: int, most_players: int) -> list:
    """The lineup for a table of ``players``: with several player counts, a lineup written for
    the largest table seats its first ``players`` entries at a smaller one."""
    if len(lineup) == most_players > players:
        return lineup[:players]
    return lineup


def cells(study: Study, games: int | None = None, tuned: dict | None = None) -> list[Cell]:
    """Every cell of the study with its checked spec (``games`` overrides games per cell).
    ``tuned`` maps (opponent setting, players, arm) to the tuned focal spec of a restricted-play
    study; without it the focal keeps ``restrict.strategy`` (to check the file before tuning)."""
    path = study.path
    game = registry.make(study.game)
    games = study.games if games is None else games
    if games < 1:
        raise _error(path, "games", f"expected at least 1, got {games}")
    axes = {"players": study.players} if len(study.players) > 1 else {}
    axes.update(study.sweep)
    count = len(study.arms) * len(study.opponents or (None,))
    count *= math.prod(len(values) for values in axes.values())
    if count > MAX_CELLS:
        raise _error(
            path, "sweep", f"{count:,} cells (arms x opponents x swept values x player counts), "
            f"more than the {MAX_CELLS:,} a study may have: split it or sweep fewer values"
        )  # fmt: skip
    result = []
    for arm in study.arms:
        arm_key = f"arms[{study.arms.index(arm)}]." if len(study.arms) > 1 else ""
        searching = study.restrict is not None and arm.name in SEARCH_ARMS
        arm_games = study.restrict.search_games(games) if searching else games
        texts = arm.strategies or (game.default_strategy,)
        for setting in study.opponents or (None,):
            overrides = {**arm.rules, **(setting.rules if setting else {})}
            rules = _checked(path, arm_key + "rules", game.rules_with_defaults, overrides)
            for point in itertools.product(*axes.values()):
                values = dict(zip(axes, point, strict=True))
                players = values.get("players", study.players[0])
                _checked(path, "players", game.check_players, players)
                parse = functools.partial(registry.parse_strategy, game, players=players)
                strategies = [  # a preset is the one tuned at this count
                    _checked(path, arm_key + "strategies", parse, t) for t in texts
                ]
                if setting:
                    values["opponents"] = setting.name
                    if tuned:
                        strategies = [
                            registry.parse_strategy(
                                game, tuned[setting.name, players, arm.name], players
                            )
                        ]
                lineups = _lineups(study, game, setting, strategies, players)
                for variant, (weight, lineup) in enumerate(lineups):
                    spec = runner.RunSpec(
                        game=study.game,
                        players=players,
                        strategies=copy.deepcopy(lineup),
                        rules=dict(rules),
                        seed=study.seed,
                        games=setting.games if setting and setting.games else arm_games,
                        rotate_seats=study.rotate_seats,
                        arcs=study.arcs,
                    )
                    for key in study.sweep:
                        _apply_sweep(path, game, spec, key, values[key])
                    cell_id = _cell_id(values, arm.name, len(study.arms) > 1)
                    if len(lineups) > 1:
                        cell_id += f"_mix{variant}"
                    cell = Cell(cell_id, arm.name, dict(values), spec, variant, weight)
                    _checked(path, f"cell {cell.id}", runner.check_spec, spec)
                    if study.stop:
                        _check_focal(study, study.stop.focal, cell)
                    if study.answer:
                        _check_focal(study, study.answer.focal, cell)
                    result.append(cell)
    _check_cell_ids(path, result)
    return result


def _lineups(study, game, setting, strategies, players) -> list[tuple[float, list[dict]]]:
    """The weighted lineups a cell seats: the arm's (several player counts: its first entries),
    or the arm's focal entry followed by the opponent setting's seats, or the setting's table."""
    most = max(study.players)
    if setting is None:
        return [(1.0, seated(strategies, players, most))]
    where = f"opponents {setting.name!r}"
    if setting.seats == "others" and len(strategies) != 1:
        raise _error(study.path, "arms", f"with {where}, an arm gives one strategy: the focal's")
    seats = players - 1 if setting.seats == "others" else players
    if setting.meta:
        mixes = _meta_mix(study, game, setting, players, seats)
    else:
        specs = [
            _checked(study.path, where, registry.parse_strategy, game, t, players)
            for t in setting.strategies
        ]
        written_for = most - 1 if setting.seats == "others" else most
        if len(specs) == 1:
            specs = specs * seats
        elif len(specs) == written_for > seats:  # several player counts: the first entries
            specs = specs[:seats]
        if len(specs) != seats:
            raise _error(study.path, where, f"expected 1 or {seats} strategies, got {len(specs)}")
        mixes = [(1.0, specs)]
    head = strategies if setting.seats == "others" else []
    return [(weight, [*head, *others]) for weight, others in mixes]


def _meta_mix(study, game, setting, players, seats) -> list[tuple[float, list[dict]]]:
    """The lineups of ``seats`` strategies drawn independently from the equilibrium mix of the
    meta directory ``setting.meta``, each with its probability (multinomial)."""
    folder = Path(setting.meta)
    where = f"opponents {setting.name!r}: meta {folder}"
    if not (folder / "solution.json").is_file():
        raise _error(study.path, where, "no solved meta-game there (run powerlab meta)")
    info = _checked(study.path, where, meta_game.read_meta_json, folder)
    if info["spec"]["game"] != game.id or info["spec"]["players"] != players:
        raise _error(
            study.path, where, f"is a {info['spec']['players']}-player meta-game of "
            f"{info['spec']['game']}, not of {game.id} at {players} players",
        )  # fmt: skip
    population = info["spec"]["population"]
    solution = _checked(study.path, where, _read_solution, folder, len(population))
    if solution.equilibrium is None:
        raise _error(study.path, where, "has no equilibrium mix")
    mix = solution.equilibrium.mix
    support = [j for j, share in enumerate(mix) if share > 0]
    lineups = []
    for combo in itertools.combinations_with_replacement(support, seats):
        counts = [combo.count(j) for j in support]
        weight = math.factorial(seats) * math.prod(
            mix[j] ** c / math.factorial(c) for j, c in zip(support, counts, strict=True)
        )
        if weight >= MIN_MIX_WEIGHT:
            lineups.append((weight, [copy.deepcopy(population[j]) for j in combo]))
    total = sum(weight for weight, _ in lineups)
    return [(weight / total, lineup) for weight, lineup in lineups]


def _read_solution(folder: Path, strategies: int) -> schemas.Solution:
    """A meta directory's solution.json, its mix one share for each of its ``strategies``."""
    path = folder / "solution.json"
    data = storage.read_json(path, "solution")
    return schemas.check(schemas.Solution, data, path, context={"strategies": strategies})


def _checked(path: Path, key: str, check: Callable, *args):
    """``check(*args)``, its SpecError rewritten to name the file and the key."""
    try:
        return check(*args)
    except SpecError as error:
        raise _error(path, key, str(error)) from None


def _check_focal(study: Study, focal: str, cell: Cell) -> None:
    from analyses.paired import focal_problem

    problem = focal_problem(focal, cell.spec.players, cell.spec.lineup())
    if problem:
        key = "stop.focal" if study.stop and focal == study.stop.focal else "answer.focal"
        raise _error(study.path, key, f"{problem} in cell {cell.id}")


# --- running ----------------------------------------------------------------------------------


def run_sequential(
    specs: list[runner.RunSpec],
    outs: list[Path],
    step: int,
    max_games: int,
    done: Callable[[], bool],
    run_one: Callable[[runner.RunSpec, Path], None],
) -> int:
    """Grow every spec by ``step`` games (resuming its run) until ``done()`` or ``max_games``;
    returns the final games per spec. The result equals a fixed run of that many games."""
    games = min(max(runner.first_look(out, step) for out in outs), max_games)
    while True:
        for spec, out in zip(specs, outs, strict=True):
            spec.games = games
            run_one(spec, out)
        if games >= max_games or done():
            return games
        games = min(games + step, max_games)


def until_ci_done(out: Path, focal: str, until_ci: float) -> Callable[[], bool]:
    """Stop rule: the focal's 95% interval half-width in the run at ``out`` is at most until_ci."""
    from analyses.dataset import load_run
    from analyses.paired import focal_half_width

    return lambda: focal_half_width(load_run(out), focal) <= until_ci


def run_until_ci(
    spec: runner.RunSpec,
    out: Path,
    focal: str,
    until_ci: float,
    step: int,
    max_games: int,
    run_one: Callable[[runner.RunSpec, Path], None],
) -> dict:
    """``powerlab run --until-ci``: ``run_sequential`` of one run, stopped by ``until_ci_done``,
    holding OUT's writer lock for every look, not only while a look's games run; returns the
    finished run.json."""
    with storage.locked(out):
        run_sequential([spec], [out], step, max_games, until_ci_done(out, focal, until_ci), run_one)
        return storage.read_run_json(out)


def sprt_llr(diffs, margin: float) -> float:
    """Log-likelihood ratio of mean difference ``margin`` against 0, for paired per-game
    differences under the normal approximation (the GSPRT of chess-engine testing)."""
    import numpy as np

    d = np.asarray(diffs, dtype=float)
    variance = d.var()
    if len(d) < 2 or variance == 0:
        return 0.0
    return len(d) * margin * (2 * d.mean() - margin) / (2 * variance)


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's (lower, upper) LLR bounds: below accepts 'no margin', above accepts 'margin'."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def sprt_verdict(out_a: Path, out_b: Path, focal: str, sprt: Sprt) -> tuple[float, str]:
    """(LLR, verdict) of the paired focal wins of two runs: verdict is 'a beats b by the margin',
    'no such margin' or 'undecided'."""
    from analyses.dataset import load_run
    from analyses.paired import paired_outcomes

    won_a, won_b, _ = paired_outcomes(load_run(out_a), load_run(out_b), focal)
    llr = sprt_llr(won_a.astype(int) - won_b.astype(int), sprt.margin)
    lower, upper = sprt_bounds(sprt.alpha, sprt.beta)
    if llr >= upper:
        return llr, f"{sprt.arms[0]} beats {sprt.arms[1]} by {sprt.margin:g}"
    if llr <= lower:
        return llr, f"{sprt.arms[0]} does not beat {sprt.arms[1]} by {sprt.margin:g}"
    return llr, "undecided"


# --- a study directory ------------------------------------------------------------------------


def cell_dir(out: Path, cell_id: str) -> Path:
    return Path(out) / "cells" / cell_id


def _identity(study_cells: list[Cell]) -> list[dict]:
    return [{"id": c.id, **c.spec.identity()} for c in study_cells]


def restricted_tunings(study: Study) -> dict:
    """The tuning spec of every (opponent setting, player count, arm) of a restricted-play study:
    its options free, and with ``restrict.fixed`` holding one off. Every one is built, and so
    checked, here: a bad ``[restrict]`` is refused before anything is written."""
    from simcore.workflows import tuning

    restrict = study.restrict
    game = registry.make(study.game)
    declared = game.strategy(registry.parse_strategy(game, restrict.strategy)["name"])
    fixed = []
    for key, value in restrict.fixed.items():
        param = declared.param(key)
        if param is not None:  # of the parameter's TOML kind: the text "0.5" is not the number
            value = param.check(value, f"{study.path}: restrict.fixed")
        fixed.append(f"{key}={str(value).lower() if isinstance(value, bool) else value}")
    specs = {}
    for setting in study.opponents or (None,):
        if setting and setting.seats == "all":
            raise _error(study.path, "restrict", f"opponents {setting.name!r} fill every seat: "
                         "restricted play tunes one seat against the others")  # fmt: skip
        for players in study.players:
            focal = [registry.parse_strategy(game, restrict.strategy, players)]
            fields = [
                (weight, lineup[1:])
                for weight, lineup in _lineups(study, game, setting, focal, players)
            ]
            rules = {**study.rules, **(setting.rules if setting else {})}
            for arm, held in zip(RESTRICT_ARMS, ([], fixed), strict=True):
                only = [p for p in restrict.params if not held or p not in restrict.fixed]
                build = functools.partial(
                    tuning.build_spec,
                    only=only,
                    fixed=held,
                    fields=fields,
                    rules=rules,
                    min_games=restrict.min_games,
                    from_start=True,
                )
                seed = (study.seed + TUNING_SEED_OFFSET) % (runner.MAX_SEED + 1)
                specs[setting.name if setting else "", players, arm] = _checked(
                    study.path, "restrict", build, study.game, players, restrict.strategy, [],
                    [], seed, restrict.budget,
                )  # fmt: skip
    return specs


def tune_restricted(study: Study, specs: dict, out: Path, threads, scheduler) -> dict:
    """Restricted play: run the tunings ``specs`` (``restricted_tunings``) in
    OUT/tuning/<setting>_<n>p/<arm>/ (resumable tune directories). Each search starts from the
    strategy as given and plays seeds the cells never play (``TUNING_SEED_OFFSET``); its winner
    replaces the start only if it beats the start on the tuning's fresh games (paired 95%
    interval above 0, the rule self-play uses), so a winner's-curse pick from a noisy search is
    not taken for skill. The free player may also play what the restricted arm chose (its
    options include it), so when that plays better on the free tuning's fresh games, the free
    arm takes it: a search that missed a region cannot make the option look harmful
    (``free_takes_restricted``). With ``restrict.search``, the search arms' specs: the search
    player with each tuned spec as its rollout. Returns {(setting, players, arm): tuned spec}."""
    from simcore.workflows import tuning

    restrict = study.restrict
    game = registry.make(study.game)
    tuned = {}
    for name, players in dict.fromkeys((name, players) for name, players, _ in specs):
        folder = Path(out) / "tuning" / _cell_id({"players": players}, name, bool(name))
        for arm in RESTRICT_ARMS:
            spec = specs[name, players, arm]
            summary = tuning.tune(spec, folder / arm.replace(" ", "-"), threads, scheduler)
            better = summary["fresh"]["diff_ci_low"] > 0
            tuned[name, players, arm] = summary["best"] if better else summary["baseline"]
        free_arm = RESTRICT_ARMS[0]
        free_spec, held_spec = (tuned[name, players, arm] for arm in RESTRICT_ARMS)
        free_tuning = specs[name, players, free_arm]
        if free_takes_restricted(game, free_tuning, free_spec, held_spec, threads, scheduler):
            tuned[name, players, free_arm] = held_spec
        if restrict.search:
            for search_arm, arm in zip(SEARCH_ARMS, RESTRICT_ARMS, strict=True):
                tuned[name, players, search_arm] = restrict.search_spec(tuned[name, players, arm])
    return tuned


def free_takes_restricted(game, free_tuning, free: str, held: str, threads, scheduler) -> bool:
    """Whether the restricted arm's spec ``held`` wins more than the free arm's ``free`` on the
    free tuning's fresh games (the games that measured the free winner)."""
    from simcore.workflows import tuning

    if held == free:
        return False
    with tuning.player(threads, scheduler) as play:
        raced = tuning.fresh_measure(
            free_tuning, play, registry.parse_strategy(game, held),
            registry.parse_strategy(game, free),
        )  # fmt: skip
    return raced["diff"] > 0


def check_study_dir(study: Study, study_cells: list[Cell], out: Path, identity=None) -> None:
    """Refuse, before anything is written, an OUT holding something other than this study.
    ``identity`` (default: the cells') is what study.json must hold: a restricted-play study's
    identity is that of its cells before tuning, which the tuning then fills in."""
    out = Path(out)
    identity = _identity(study_cells) if identity is None else identity
    if out.exists() and not out.is_dir():
        raise SpecError(f"--out {out} is a file, not a directory")
    if (out / "study.json").exists():
        if storage.read_study_json(out)["identity"] != identity:
            raise SpecError(f"--out {out} holds another study; use another --out")
    elif out.exists() and not storage.is_empty(out):
        raise SpecError(f"--out {out} is not empty and holds no powerlab study")
    for cell in study_cells:
        folder = cell_dir(out, cell.id)
        if study.stop:  # a sequential cell resumes at its stored games
            cell.spec.games = min(runner.first_look(folder, cell.spec.games), study.stop.max_games)
        runner.check_out_dir(cell.spec, folder)


def run_study(
    study: Study,
    out: Path,
    games: int | None = None,
    threads: int | None = None,
    scheduler: str | None = None,
    progress: Callable[[str, int, int], None] | None = None,
    notify: Callable[[str], None] = lambda line: None,
) -> dict:
    """Run every cell (all validated first) and write OUT/study.json; returns it.

    The study holds OUT's writer lock throughout, and each cell's while it grows. A restricted-play
    study first claims OUT (study.json with the untuned cells), then tunes (tune_restricted) and
    runs the tuned cells.
    ``progress(cell_id, done, total)`` is called as each cell's games are computed.
    """
    out = Path(out)
    study_cells = cells(study, games)
    step = study_cells[0].spec.games
    identity = _identity(study_cells)
    tunings = restricted_tunings(study) if study.restrict else {}
    check_study_dir(study, [] if study.restrict else study_cells, out, identity)
    with storage.locked(out):
        tuned = {}
        if study.restrict:
            check_study_dir(study, [], out, identity)  # again, now that no other writer can
            if not (out / "study.json").exists():  # claim OUT before the first tuning writes
                info = _study_info(study, study_cells, step, identity, tuned)
                storage.write_json(out / "study.json", info)
            tuned = tune_restricted(study, tunings, out, threads, scheduler)
            study_cells = cells(study, games, tuned)
        check_study_dir(study, study_cells, out, identity)
        info = _study_info(study, study_cells, step, identity, tuned)
        return _run_cells(study, study_cells, step, out, info, threads, scheduler, progress, notify)


def _study_info(study, study_cells, step, identity, tuned) -> dict:
    """study.json before its cells' stopping entries are filled in."""
    return {
        "format": storage.FORMAT,
        "title": study.title,
        "question": study.question,
        "assumptions": list(study.assumptions),
        "file": str(study.path),
        "source": files.read_text(study.path, "study file"),
        "games_per_cell": step,
        "cells": [
            {"id": c.id, "arm": c.arm, "values": c.values, "variant": c.variant, "weight": c.weight}
            for c in study_cells
        ],  # fmt: skip
        "answer": None if study.answer is None else vars(study.answer),
        "tuned": [
            {"opponents": setting, "players": players, "arm": arm, "spec": spec}
            for (setting, players, arm), spec in tuned.items()
        ],
        "identity": identity,
        "stopping": [],
    }


def _run_cells(study, study_cells, step, out, info, threads, scheduler, progress, notify) -> dict:
    storage.write_json(out / "study.json", info)

    def run_cell(spec: runner.RunSpec, folder: Path) -> None:
        report = functools.partial(progress, folder.name) if progress else None
        runner.run(
            spec, folder, threads=threads, progress=report, scheduler=scheduler, notify=notify
        )

    stop = study.stop
    sprt_arms = stop.sprt.arms if stop and stop.sprt else ()
    plain = [cell for cell in study_cells if cell.arm not in sprt_arms]
    if stop and stop.until_ci:
        # A cell's arms grow together, until every one of them is precise enough, so that they
        # keep the same games and stay paired.
        groups: dict[tuple, list[Cell]] = {}
        for cell in plain:
            groups.setdefault(cell.group(), []).append(cell)
        for group in groups.values():
            folders = [cell_dir(out, cell.id) for cell in group]
            with contextlib.ExitStack() as locks:
                for folder in folders:
                    locks.enter_context(storage.locked(folder))
                checks = [until_ci_done(folder, stop.focal, stop.until_ci) for folder in folders]
                done = functools.partial(_all_done, checks)
                specs = [cell.spec for cell in group]
                run_sequential(specs, folders, step, stop.max_games, done, run_cell)
                half_width = max(_half_width(folder, stop.focal) for folder in folders)
            info["stopping"].append(
                {
                    "cells": [cell.id for cell in group],
                    "games": group[0].spec.games,
                    "half_width": round(half_width, 6),
                }
            )
    else:
        for cell in plain:
            folder = cell_dir(out, cell.id)
            with storage.locked(folder):
                run_cell(cell.spec, folder)
    for first in (c for c in study_cells if sprt_arms and c.arm == sprt_arms[0]):
        second = next(
            c for c in study_cells if c.arm == sprt_arms[1] and c.group() == first.group()
        )
        folders = [cell_dir(out, first.id), cell_dir(out, second.id)]
        with storage.locked(folders[0]), storage.locked(folders[1]):
            done = functools.partial(_sprt_decided, *folders, stop.focal, stop.sprt)
            run_sequential([first.spec, second.spec], folders, step, stop.max_games, done, run_cell)
            llr, verdict = sprt_verdict(*folders, stop.focal, stop.sprt)
        info["stopping"].append(
            {
                "cells": [first.id, second.id],
                "games": first.spec.games,
                "llr": round(llr, 4),
                "verdict": verdict,
            }
        )
    storage.write_json(out / "study.json", info)
    return info


def _all_done(checks: list[Callable[[], bool]]) -> bool:
    return all(check() for check in checks)


def _sprt_decided(out_a: Path, out_b: Path, focal: str, sprt: Sprt) -> bool:
    return sprt_verdict(out_a, out_b, focal, sprt)[1] != "undecided"


def _half_width(folder: Path, focal: str) -> float:
    from analyses.dataset import load_run
    from analyses.paired import focal_half_width

    return focal_half_width(load_run(folder), focal)
