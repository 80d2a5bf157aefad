"""`powerlab tune`: the strongest parameters of a strategy against a field (docs/tuning.md).

The search is optuna's (TPE or CMA-ES sampler). Every candidate plays the same game indices of the
search seed (common random numbers), on rungs of growing size: optuna's successive-halving pruner
stops a candidate at a rung where it is not among the best third, so games go to the promising
ones. The best few candidates that survived every rung then play a further block of the same games,
and the best of them over all its games wins: one lucky rung does not pick the winner. The search
counts a game cut off by the simulation's cap as lost, so no candidate gains by stalling a game it
would lose. The reported figure comes from fresh games the search never saw (another root seed),
for the winner and for the strategy's starting parameters on the same games, so their difference is
paired.

A tune directory holds ``tune.json`` (the spec: a different spec is refused), ``optuna.journal``
(optuna's journal storage: rerunning resumes, continuing an interrupted trial where it stopped, so
a resumed search equals an uninterrupted one), ``trials.parquet`` (every trial), ``finalists.json``,
``summary.json``, ``best.txt`` (the winner as a ``--strategy`` spec) and ``report.pdf``.

Self-play (``self_play``) iterates best responses: round r tunes against every other seat playing
the incumbent, in ``round-<r>/``, with every earlier incumbent among its first candidates; the
winner replaces the incumbent only if, on fresh games, it beats the incumbent in the incumbent's
field (paired 95% interval above zero). The first round whose winner does not is the last: the
incumbent is then a best response to itself within the measurement's precision. A winner that is
an earlier incumbent ends it too: the best responses cycle, and no one parameter set is a best
response to itself. Otherwise ``rounds`` rounds are the most.

Several starts (``starts``, the CLI's ``--seeds``) run independent searches from root seeds
seed, seed + 2, seed + 4, ... in ``start-<k>/`` (a landscape with several basins can hold a search
in the worse one), race their winners on the same games of seed + 2 * starts, and measure the
race's winner against the starting parameters on the fresh games of the seed after that: no game
that chose the winner measures it, and each search's own fresh games (the odd seed after its
root) are no other search's.
"""

from __future__ import annotations

import contextlib
import copy
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from simcore import registry
from simcore.kernel.chunk import ENDED_BY, ENDED_CAP, LINEUP_SLOT, WON
from simcore.registry import SpecError
from simcore.workflows import cluster, result_schemas, runner, storage

SAMPLERS = ("tpe", "cmaes")
REDUCTION = 3  # successive halving keeps the best third of the candidates at each rung
RUNGS = 4  # rungs of min_games x 1, 3, 9, 27 games
FINALISTS = 3
SEARCH_SHARE = 0.75  # of the budget; the finalists play the rest
MIN_FINISHERS = 4  # the budget must let at least this many candidates play every rung
FRESH_SEED_OFFSET = 1  # the fresh games use root seed + 1: the search never plays them
# A tuning holds the scores of a racing rung, of a finalist's block and of the fresh games in
# memory, with their copies while they are combined and paired: about 50 bytes a game.
MAX_HELD_GAMES = 50_000_000
HELD_WHY = "the games' scores are held in memory, about 50 bytes a game"
MAX_BUDGET = 4 * MAX_HELD_GAMES
BUDGET_WHY = "a quarter of it, the fresh games, is held in memory at about 50 bytes a game"
MAX_SEARCHES = 64  # --seeds and --rounds
SEARCHES_WHY = "each is a whole search of --budget games"
MAX_CHUNK = runner.DEFAULT_CHUNK_SIZE
JOURNAL_LOCK = "optuna.journal.lock"  # optuna's lock of the journal while it writes


@dataclass(frozen=True)
class Dimension:
    """One searched parameter: a float or int range (``log``: searched on a log scale) or a
    choice (a bool is the choice of false and true)."""

    name: str
    kind: str
    low: float | None = None
    high: float | None = None
    log: bool = False
    choices: tuple = ()

    def suggest(self, trial):
        if self.kind == "choice":
            return trial.suggest_categorical(self.name, list(self.choices))
        if self.kind == "int":
            return trial.suggest_int(self.name, int(self.low), int(self.high), log=self.log)
        return trial.suggest_float(self.name, self.low, self.high, log=self.log)


@dataclass
class TuneSpec:
    """Everything that fixes a tuning's result. ``fields`` are weighted opponent lineups (the
    seats other than the candidate's, ``players - 1`` specs each); the objective is the weighted
    win rate of the candidate, which sits in lineup slot 0 and rotates over the seats."""

    game: str
    players: int
    strategy: dict
    fields: list[tuple[float, list[dict]]]
    rules: dict
    seed: int
    budget: int
    space: list[Dimension]
    sampler: str = "tpe"
    min_games: int = 0
    final_games: int = 0
    self_play: bool = False
    rounds: int = 4
    from_start: bool = False  # the first candidate is the strategy's starting parameters
    # Candidates raced before the sampler's (after the start): self-play's earlier incumbents.
    earlier: list[dict] = field(default_factory=list)
    starts: int = 1  # independent searches, their winners raced (see the module's docstring)

    def rungs(self) -> list[int]:
        """Cumulative games of each racing rung (multiples of the player count, so every seat
        is played equally often)."""
        return [self.min_games * REDUCTION**r for r in range(RUNGS)]

    def finalist_games(self) -> int:
        """Further games each finalist plays after the last rung."""
        share = self.budget * (1 - SEARCH_SHARE) / FINALISTS
        return _whole_tables(share, self.players)

    def identity(self) -> dict:
        data = asdict(self)
        data["space"] = [asdict(d) for d in self.space]
        # Tune directories written before these options resume.
        for option in ("from_start", "earlier"):
            if not data[option]:
                del data[option]
        if data["starts"] == 1:
            del data["starts"]
        return data

    def start_params(self) -> dict:
        """The starting parameters that lie in the search space (a value outside a narrowed
        range is left to the sampler)."""
        return self.inside(self.strategy["params"])

    def inside(self, params: dict) -> dict:
        """The searched parameters of ``params`` whose values lie in the search space."""
        kept = {}
        for d in self.space:
            value = params[d.name]
            if value in d.choices if d.kind == "choice" else d.low <= value <= d.high:
                kept[d.name] = value
        return kept

    def spec_text(self, params: dict) -> str:
        """``name:key=value,...`` of the candidate with these parameters (all of them listed, so
        the text stays the same if a default changes)."""
        merged = {**self.strategy["params"], **params}
        return self.strategy["name"] + "".join(
            f"{':' if k == 0 else ','}{key}={_text(value)}"
            for k, (key, value) in enumerate(merged.items())
        )

    def candidate(self, params: dict) -> dict:
        return {"name": self.strategy["name"], "params": {**self.strategy["params"], **params}}

    def run_spec(self, candidate: dict, opponents: list[dict], seed: int, games: int):
        return runner.RunSpec(
            game=self.game,
            players=self.players,
            strategies=copy.deepcopy([candidate, *opponents]),
            rules=dict(self.rules),
            seed=seed,
            games=games,
            rotate_seats=True,
        )


def _text(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def _whole_tables(games: float, players: int) -> int:
    return max(players, int(games) // players * players)


# --- building a spec ---------------------------------------------------------------------------


def parse_range(text: str) -> tuple[str, str, str, bool]:
    """``NAME=LOW:HIGH`` or ``NAME=LOW:HIGH:log`` → (name, low text, high text, log)."""
    name, eq, rest = text.partition("=")
    parts = rest.split(":")
    if not eq or len(parts) not in (2, 3) or parts[2:] not in ([], ["log"]):
        expected = "NAME=LOW:HIGH or NAME=LOW:HIGH:log"
        raise SpecError(f"--range expects {expected}, not {text!r}")
    return name.strip(), parts[0], parts[1], len(parts) == 3


def search_space(
    game: registry.Game,
    strategy: dict,
    only: list[str],
    fixed: list[str],
    ranges: list[str],
) -> list[Dimension]:
    """The dimensions to search: the strategy's numeric, choice and bool parameters (or ``only``
    those), less the ``fixed`` ones, over the registry's ranges unless ``ranges`` narrows them."""
    declared = game.strategy(strategy["name"])
    for name in [*only, *fixed]:
        if declared.param(name) is None:
            known = ", ".join(p.name for p in declared.params) or "none"
            raise SpecError(f"{declared.name} has no parameter {name!r} (has: {known})")
    narrowed = {}
    for text in ranges:
        name, low_text, high_text, log = parse_range(text)
        param = declared.param(name)
        if param is None or param.kind not in ("int", "float"):
            raise SpecError(f"--range {text!r}: {declared.name} has no numeric parameter {name!r}")
        low, high = param.parse(low_text, "--range"), param.parse(high_text, "--range")
        if not low < high or log and low <= 0:
            raise SpecError(f"--range {text!r}: expected LOW < HIGH (and LOW > 0 for log)")
        narrowed[name] = (low, high, log)
    space = []
    for param in declared.params:
        if param.name in fixed or only and param.name not in only or param.kind == "path":
            continue
        if param.kind in ("int", "float"):
            low, high, log = narrowed.get(param.name, (param.low, param.high, False))
            space.append(Dimension(param.name, param.kind, low, high, log))
        else:
            choices = (False, True) if param.kind == "bool" else param.choices
            space.append(Dimension(param.name, "choice", choices=tuple(choices)))
    if not space:
        raise SpecError(f"{declared.name} has no parameter left to tune")
    return space


def build_spec(
    game_id: str,
    players: int,
    strategy_text: str,
    against: list[str],
    set_texts: list[str],
    seed: int,
    budget: int,
    *,
    self_play: bool = False,
    only: list[str] = (),
    fixed: list[str] = (),
    ranges: list[str] = (),
    sampler: str = "tpe",
    min_games: int | None = None,
    final_games: int | None = None,
    rounds: int = 4,
    fields: list[tuple[float, list[str | dict]]] | None = None,
    rules: dict | None = None,
    from_start: bool = False,
    starts: int = 1,
) -> TuneSpec:
    """A checked TuneSpec from CLI-style texts. ``fixed`` texts are ``NAME=VALUE``: the candidate
    keeps that value and it is not searched (restricted play). ``fields`` (weighted opponent
    lineups, specs as texts or dicts) replaces ``against`` when given: the way to tune against a
    mix; ``rules`` (a dict) adds rule values to ``set_texts``. ``from_start``: the search's first
    candidate is the strategy as given, racing like any other (a small search in many
    dimensions may otherwise never sample a region as good as a hand-set start). ``starts``:
    independent searches whose winners are raced (the CLI's ``--seeds``)."""
    game = registry.make(game_id)
    game.check_players(players)
    strategy = registry.parse_strategy(game, strategy_text, players)
    fixed_names = []
    for text in fixed:
        name, eq, value = text.partition("=")
        param = game.strategy(strategy["name"]).param(name.strip())
        if not eq or param is None:
            raise SpecError(f"--fix expects NAME=VALUE with a parameter of {strategy['name']}")
        strategy["params"][param.name] = param.parse(value, "--fix")
        fixed_names.append(param.name)
    space = search_space(game, strategy, list(only), fixed_names, list(ranges))
    if sampler not in SAMPLERS:
        raise SpecError(f"--sampler must be one of {', '.join(SAMPLERS)}, not {sampler!r}")
    if self_play and (against or fields):
        raise SpecError("--self-play plays the candidate in every seat: give no --against")
    if self_play:
        weighted = [(1.0, [strategy] * (players - 1))]
    else:
        weighted = [
            (float(weight), _opponents(game, players, texts))
            for weight, texts in (fields or [(1.0, list(against))])
        ]
        if not weighted[0][1] and players > 1:
            raise SpecError("give --against (the other seats' strategies) or --self-play")
        total = sum(weight for weight, _ in weighted)
        if total <= 0 or any(weight < 0 for weight, _ in weighted):
            raise SpecError("field weights must be non-negative and not all zero")
        weighted = [(weight / total, lineup) for weight, lineup in weighted]
    storage.check_count(budget, "--budget", MAX_BUDGET, BUDGET_WHY)
    storage.check_count(rounds, "--rounds", MAX_SEARCHES, SEARCHES_WHY)
    storage.check_count(starts, "--seeds", MAX_SEARCHES, SEARCHES_WHY)
    for option, games in (("--min-games", min_games), ("--final-games", final_games)):
        if games is not None:
            storage.check_count(games, option, MAX_HELD_GAMES, HELD_WHY)
    if starts > 1 and self_play:
        raise SpecError(
            "--seeds with --self-play is not supported: run the self-play with each --seed "
            "and compare the rounds' winners with powerlab meta"
        )
    first_rung = _whole_tables(min_games or max(25 * players, budget // 1000), players)
    top_rung = first_rung * REDUCTION ** (RUNGS - 1)
    if top_rung * MIN_FINISHERS > budget:
        raise SpecError(
            f"--budget {budget} is too small: a candidate that survives every rung from "
            f"{first_rung} games plays {top_rung}; give at least {MIN_FINISHERS} times that, "
            "or a smaller --min-games"
        )
    spec = TuneSpec(
        game=game_id,
        players=players,
        strategy=strategy,
        fields=weighted,
        rules={**registry.parse_settings(game, list(set_texts)), **(rules or {})},
        seed=seed,
        budget=budget,
        space=space,
        sampler=sampler,
        min_games=first_rung,
        final_games=_whole_tables(final_games or budget // 4, players),
        self_play=self_play,
        rounds=rounds,
        from_start=from_start,
        starts=starts,
    )
    # Every lineup the search will play is a valid run spec (rules, data files, seed range).
    for _, opponents in spec.fields:
        checked = runner.check_spec(spec.run_spec(spec.strategy, opponents, seed, 1))
        spec.rules = checked.rules
    return spec


def _opponents(game: registry.Game, players: int, texts: list[str]) -> list[dict]:
    """The other seats' specs: one text fills every other seat, or one text per other seat."""
    specs = [
        registry.check_strategy(game, text, "field") if isinstance(text, dict)
        else registry.parse_strategy(game, text, players)
        for text in texts
    ]  # fmt: skip
    if len(specs) == 1:
        return specs * (players - 1)
    if len(specs) != players - 1:
        raise SpecError(
            f"--against: give one strategy for every other seat or one per other seat "
            f"({players - 1}), not {len(specs)}"
        )
    return specs


# --- playing games -----------------------------------------------------------------------------


def slot_outcomes(spec: runner.RunSpec, start: int, n: int) -> np.ndarray:
    """Per game of ``start .. start + n - 1``: [lineup slot 0 won, the game has a result] as an
    int8[n, 2] array; what a tuning needs of a chunk (the Dask path ships nothing else)."""
    game_out, seat_out = runner.play_arrays(spec, start, n)
    focal = seat_out[:, :, LINEUP_SLOT] == 0
    won = (focal & (seat_out[:, :, WON] == 1)).any(axis=1)
    has_result = game_out[:, ENDED_BY] != ENDED_CAP
    return np.stack([won, has_result], axis=1).astype(np.int8)


class Player:
    """Plays game ranges of run specs here (numba threads) or as Dask tasks; counts the games
    and the seconds spent playing them."""

    def __init__(self, client=None, threads: int | None = None):
        self.client = client
        self.threads = threads
        self.games = 0
        self.seconds = 0.0

    def outcomes(
        self, spec: runner.RunSpec, first: int, stop: int, reduce: Callable = slot_outcomes
    ) -> np.ndarray:
        """``reduce(spec, start, n)`` (a module-level function: Dask workers import it) of every
        chunk of games [first, stop), concatenated in game order."""
        started = time.perf_counter()
        if self.client is None:
            runner.set_threads(self.threads)
            parts = [
                (start, reduce(spec, start, n))
                for start, n in runner.chunk_plan([(first, stop)], MAX_CHUNK)
            ]
        else:
            workers = max(1, len(self.client.nthreads()))
            size = max(1_000, -(-(stop - first) // (2 * workers)))
            chunks = runner.chunk_plan([(first, stop)], min(size, MAX_CHUNK))
            parts = list(cluster.play_chunks(spec, chunks, self.client, self.threads or 1, reduce))
        self.seconds += time.perf_counter() - started
        self.games += stop - first
        return np.concatenate([part for _, part in sorted(parts, key=lambda p: p[0])])


@contextlib.contextmanager
def player(threads: int | None, scheduler: str | None) -> Iterator[Player]:
    if scheduler is None:
        yield Player(threads=threads)
        return
    with cluster.connect(scheduler) as client:
        yield Player(client, threads)


def field_scores(spec: TuneSpec, play: Player, candidate: dict, seed: int, first: int, stop: int):
    """Per game in [first, stop): the candidate's weighted win over the fields, and whether every
    field's game had a result (a game cut off by the cap counts for nobody)."""
    score = np.zeros(stop - first)
    has_result = np.ones(stop - first, dtype=bool)
    for weight, opponents in spec.fields:
        outcome = play.outcomes(spec.run_spec(candidate, opponents, seed, stop), first, stop)
        score += weight * outcome[:, 0]
        has_result &= outcome[:, 1] == 1
    return score, has_result


# --- the search --------------------------------------------------------------------------------


def check_dir(spec: TuneSpec, out: Path) -> None:
    """Refuse, before anything is written, an OUT holding something other than this tuning."""
    identity = _stored_identity(spec)
    storage.check_owned(out, "tune.json", lambda stored: stored == identity, "tuning")


def _stored_identity(spec: TuneSpec) -> dict:
    """tune.json: the spec as it reads back, with the directory format."""
    return {"format": storage.FORMAT, **storage.as_stored(spec.identity())}


def _sampler(spec: TuneSpec, number: int):
    """The sampler for trial ``number``, seeded from (seed, number): a resumed search draws the
    same candidates as an uninterrupted one."""
    import optuna

    seed = (spec.seed * 1_000_003 + number) % 2**32
    if spec.sampler == "cmaes":
        return optuna.samplers.CmaEsSampler(
            seed=seed,
            consider_pruned_trials=True,
            warn_independent_sampling=False,
            independent_sampler=optuna.samplers.RandomSampler(seed=seed),
        )
    return optuna.samplers.TPESampler(seed=seed)


def journal_study(out: Path, name: str, **options):
    """The optuna study ``name`` in OUT/optuna.journal (created, or loaded to resume)."""
    import optuna
    from optuna.storages.journal import JournalFileBackend, JournalStorage

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    # Only the holder of OUT's writer lock gets here, so a journal lock is a killed writer's:
    # remove it (optuna's own release of a stale lock stats the lock's symlink target, which a
    # relative path breaks, and then spins forever).
    out = Path(out)
    (out / JOURNAL_LOCK).unlink(missing_ok=True)
    journal = JournalStorage(JournalFileBackend(str((out / "optuna.journal").resolve())))
    return optuna.create_study(study_name=name, storage=journal, load_if_exists=True, **options)


def _study(spec: TuneSpec, out: Path):
    import optuna

    return journal_study(
        out,
        "tune",
        direction="maximize",
        pruner=optuna.pruners.SuccessiveHalvingPruner(
            min_resource=spec.min_games, reduction_factor=REDUCTION
        ),
    )


def _race(spec: TuneSpec, study, trial, play: Player, params: dict) -> None:
    """Play the trial's candidate rung by rung on the search games (resuming after its last
    reported rung), reporting each rung's win rate; tell optuna it was pruned or completed."""
    import optuna

    candidate = spec.candidate(params)
    done = max(study.get_trials(deepcopy=False)[trial.number].intermediate_values, default=0)
    score, has_result = (np.zeros(0), np.zeros(0, dtype=bool))
    if done:  # an interrupted trial: replay its games (same results) to continue the sums
        score, has_result = field_scores(spec, play, candidate, spec.seed, 0, done)
    for rung in spec.rungs():
        if rung <= done:
            continue
        more = field_scores(spec, play, candidate, spec.seed, len(score), rung)
        score, has_result = np.concatenate([score, more[0]]), np.concatenate([has_result, more[1]])
        trial.set_user_attr("games", int(rung * len(spec.fields)))
        trial.report(float(score.mean()), rung)
        if trial.should_prune():
            study.tell(trial, state=optuna.trial.TrialState.PRUNED)
            return
    study.tell(trial, float(score.mean()))


def games_used(study) -> int:
    return sum(t.user_attrs.get("games", 0) for t in study.get_trials(deepcopy=False))


def search(spec: TuneSpec, out: Path, play: Player, progress: Callable | None = None):
    """Race candidates until the search share of the budget is spent; returns the optuna study."""
    import optuna

    study = _study(spec, out)
    running = study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.RUNNING,))
    for frozen in running:  # interrupted: continue it where it stopped (optuna has no public
        # way to reopen a trial; Trial(study, trial_id) is how optuna's own ask() builds one)
        _race(spec, study, optuna.trial.Trial(study, frozen._trial_id), play, frozen.params)
    distributions = {d.name: d for d in spec.space}
    if not study.get_trials(deepcopy=False):  # enqueued in the journal: a resume asks them once
        if spec.from_start:
            study.enqueue_trial(spec.start_params())
        for params in spec.earlier:
            study.enqueue_trial(spec.inside(params))

    def searching() -> bool:
        used = games_used(study)
        if used < spec.budget * SEARCH_SHARE:
            return True
        # Past the search share only while no candidate has played every rung yet.
        return used < spec.budget and not study.get_trials(
            deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,)
        )

    while searching():
        study.sampler = _sampler(spec, len(study.get_trials(deepcopy=False)))
        trial = study.ask()
        params = {name: d.suggest(trial) for name, d in distributions.items()}
        _race(spec, study, trial, play, params)
        if progress:
            progress(games_used(study), spec.budget)
    return study


def trials_table(spec: TuneSpec, study):
    """One row per trial: number, state, win rate at its last rung, games, each parameter, and
    the win rate at each rung (``rung_<games>``)."""
    import polars as pl

    rows = []
    for trial in study.get_trials(deepcopy=False):
        last = max(trial.intermediate_values, default=None)
        row = {
            "number": trial.number,
            "state": trial.state.name.lower(),
            "win_rate": trial.intermediate_values[last] if last else None,
            "games": trial.user_attrs.get("games", 0),
            "spec": spec.spec_text(trial.params),
        }
        row.update(
            {f"param_{name}": trial.params.get(name) for name in (d.name for d in spec.space)}
        )
        row.update({f"rung_{r}": trial.intermediate_values.get(r) for r in spec.rungs()})
        rows.append(row)
    return pl.DataFrame(rows, infer_schema_length=None)


# A search has settled when the last third of the candidates that played every rung found none
# better than the first two thirds' best; fewer finishers than this cannot tell.
MIN_SETTLING_FINISHERS = 6


def settling(table, budget: int) -> dict:
    """Whether the search was still improving when its budget ran out: the best win rate at the
    last rung among the first two thirds of the finished candidates (in trial order) against the
    last third's, and the budget that would tell (twice this one) when it was."""
    finished = table.filter(table["state"] == "complete")["win_rate"].to_list()
    entry = {"finished": len(finished), "budget": budget}
    if len(finished) < MIN_SETTLING_FINISHERS:
        return {**entry, "verdict": "too few", "suggested_budget": 2 * budget}
    split = -(-2 * len(finished) // 3)  # ceil
    early, late = max(finished[:split]), max(finished[split:])
    improving = late > early
    return {
        **entry,
        "best_at": finished.index(max(finished)) + 1,
        "last_third_gain": late - early,
        "verdict": "improving" if improving else "settled",
        "suggested_budget": 2 * budget if improving else budget,
    }


def finalists(spec: TuneSpec, study, play: Player, out: Path) -> list[dict]:
    """The best ``FINALISTS`` candidates that survived every rung, each played on a further block
    of search games; sorted best first by the win rate over all its games (and written to
    finalists.json, which a resumed search reads back: ``stored_finalists``)."""
    import optuna

    completed = sorted(
        study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,)),
        key=lambda t: (-t.value, t.number),
    )
    top, extra = spec.rungs()[-1], spec.finalist_games()
    result = []
    seen = set()
    for trial in completed:
        text = spec.spec_text(trial.params)
        if text in seen:
            continue
        seen.add(text)
        score, has_result = field_scores(
            spec, play, spec.candidate(trial.params), spec.seed, top, top + extra
        )
        combined = (trial.value * top + score.sum()) / (top + extra)
        result.append(
            {"number": trial.number, "params": trial.params, "spec": text,
             "race_win_rate": trial.value, "extra_win_rate": float(score.mean()),
             "win_rate": float(combined), "games": top + extra}
        )  # fmt: skip
        if len(result) == FINALISTS:
            break
    if not result:
        raise SpecError("no candidate survived every rung: raise --budget")
    result.sort(key=lambda f: (-f["win_rate"], f["number"]))
    storage.write_json(out / "finalists.json", {"finalists": result})
    return result


def stored_finalists(out: Path) -> list[dict] | None:
    """finalists.json of an interrupted search that had chosen them, checked, or None."""
    path = out / "finalists.json"
    if not path.exists():
        return None
    return storage.read_stored(path, "finalists", result_schemas.Finalists)["finalists"]


def fresh_measure(spec: TuneSpec, play: Player, best: dict, baseline: dict) -> dict:
    """The winner and the baseline on the same fresh games (root seed + 1): each one's win rate
    over the games with a result, with its Wilson 95% interval (a proportion's, inside [0, 1]
    however few the games), their paired difference (Newcombe's interval, inside [-1, 1]), and
    each one's share of games cut off by the simulation's cap (which the search counted as
    lost)."""
    from analyses.stats import paired_score_difference, score_interval

    seed = fresh_seed(spec.seed)
    a, result_a = field_scores(spec, play, best, seed, 0, spec.final_games)
    b, result_b = field_scores(spec, play, baseline, seed, 0, spec.final_games)
    both = result_a & result_b
    diff, diff_low, diff_high = paired_score_difference(a[both], b[both])
    rate, low, high = score_interval(a[both])
    base_rate, base_low, base_high = score_interval(b[both])
    return {
        "seed": seed,
        "games": int(both.sum()),
        "cut_off": int((~both).sum()),
        "cut_off_share": float(1 - result_a.mean()),
        "baseline_cut_off_share": float(1 - result_b.mean()),
        "win_rate": rate, "ci_low": low, "ci_high": high,
        "baseline_win_rate": base_rate, "baseline_ci_low": base_low,
        "baseline_ci_high": base_high,
        "diff": diff, "diff_ci_low": diff_low, "diff_ci_high": diff_high,
        "fair_share": 1 / spec.players,
    }  # fmt: skip


def fresh_seed(seed: int) -> int:
    return (seed + FRESH_SEED_OFFSET) % (runner.MAX_SEED + 1)


def start_seed(seed: int, start: int) -> int:
    """The root seed of search ``start`` (from 0) of a multi-start tuning; ``start = starts`` is
    the race's. Even offsets, so that every fresh seed (the odd one after) is no search's."""
    return (seed + 2 * start) % (runner.MAX_SEED + 1)


def tune_once(spec: TuneSpec, out: Path, play: Player, progress: Callable | None = None) -> dict:
    """One search against ``spec.fields`` in ``out`` (holding its writer lock); returns (and
    writes) summary.json."""
    out = Path(out)
    check_dir(spec, out)
    with storage.locked(out):
        check_dir(spec, out)  # again, now that no other writer can
        storage.write_json(out / "tune.json", _stored_identity(spec))
        if (out / "summary.json").exists():
            return storage.read_tune_summary(out)
        return _search_and_measure(spec, out, play, progress)


def _search_and_measure(spec: TuneSpec, out: Path, play: Player, progress) -> dict:
    summary_path = out / "summary.json"
    started, played, seconds = time.perf_counter(), play.games, play.seconds
    chosen = stored_finalists(out)  # a damaged file is refused before the search resumes
    study = search(spec, out, play, progress)
    table = trials_table(spec, study)
    storage.atomic_write_bytes(out / "trials.parquet", table.write_parquet)
    final = chosen or finalists(spec, study, play, out)
    best = final[0]
    measured = fresh_measure(spec, play, spec.candidate(best["params"]), spec.strategy)
    wall = time.perf_counter() - started
    games, play_seconds = play.games - played, play.seconds - seconds
    summary = {
        **_summary_head(spec, best),
        "search": {
            "sampler": spec.sampler,
            "trials": table.height,
            "completed": int((table["state"] == "complete").sum()),
            "pruned": int((table["state"] == "pruned").sum()),
            "rungs": spec.rungs(),
            "finalist_games": spec.finalist_games(),
            "games": games_used(study)
            + sum(f["games"] - spec.rungs()[-1] for f in final) * len(spec.fields),
            "seed": spec.seed,
        },
        "finalists": final,
        "fresh": measured,
        "settling": settling(table, spec.budget),
        "timings": {
            "seconds": round(wall, 3),
            "games_played_now": games,
            "games_per_s_playing": round(games / play_seconds, 1) if play_seconds else None,
            "games_per_s_overall": round(games / wall, 1) if wall and games else None,
        },
    }
    storage.write_json(summary_path, summary)
    (out / "best.txt").write_text(best["spec"] + "\n")
    return summary


def _summary_head(spec: TuneSpec, best: dict) -> dict:
    """What every summary.json of a search starts with: the game, the strategy, the starting
    parameters, the winner (``best``: its spec text and parameters) and the fields."""
    return {
        "game": spec.game,
        "players": spec.players,
        "strategy": spec.strategy["name"],
        "baseline": spec.spec_text({}),
        "best": best["spec"],
        "best_params": best["params"],
        "fields": [
            {"weight": w, "lineup": [_label(spec.game, s) for s in lineup]}
            for w, lineup in spec.fields
        ],
    }


def _label(game_id: str, strategy: dict) -> str:
    return registry.make(game_id).strategy(strategy["name"]).label(strategy["params"])


def tune(
    spec: TuneSpec,
    out: Path,
    threads: int | None = None,
    scheduler: str | None = None,
    progress: Callable | None = None,
) -> dict:
    """Tune ``spec`` into ``out`` (resumable); self-play iterates rounds. Returns summary.json."""
    out = Path(out)
    if scheduler is None:  # a bad thread count is refused before tune.json and the journal
        runner.set_threads(threads)
    check_dir(spec, out)
    if not spec.self_play and spec.starts == 1:
        with player(threads, scheduler) as play:
            return tune_once(spec, out, play, progress)
    with storage.locked(out):
        check_dir(spec, out)  # again, now that no other writer can
        storage.write_json(out / "tune.json", _stored_identity(spec))
        if spec.self_play:
            return _self_play(spec, out, threads, scheduler, progress)
        with player(threads, scheduler) as play:
            return _multi_start(spec, out, play, progress)


def _multi_start(spec: TuneSpec, out: Path, play: Player, progress) -> dict:
    summary_path = out / "summary.json"
    if summary_path.exists():
        return storage.read_tune_summary(out)
    started, played, seconds = time.perf_counter(), play.games, play.seconds
    starts = []
    for k in range(spec.starts):
        one = copy.deepcopy(spec)
        one.starts, one.seed = 1, start_seed(spec.seed, k)
        summary = tune_once(one, out / f"start-{k + 1}", play, progress)
        starts.append(
            {"start": k + 1, "seed": one.seed, "best": summary["best"],
             "best_params": summary["best_params"], "own_fresh": summary["fresh"],
             "search_games": summary["search"]["games"]}
        )  # fmt: skip
    race = race_winners(spec, play, starts)
    best = race["candidates"][0]
    measuring = copy.deepcopy(spec)
    measuring.seed = race["seed"]  # the fresh games: the seed after the race's
    measured = fresh_measure(measuring, play, spec.candidate(best["params"]), spec.strategy)
    wall = time.perf_counter() - started
    games, play_seconds = play.games - played, play.seconds - seconds
    result = {
        **_summary_head(spec, best),
        "starts": starts,
        "race": race,
        "search": {
            "starts": spec.starts,
            "seed": spec.seed,
            "games": sum(s["search_games"] for s in starts)
            + spec.final_games * len(race["candidates"]) * len(spec.fields),
        },
        "fresh": measured,
        "timings": {
            "seconds": round(wall, 3),
            "games_played_now": games,
            "games_per_s_playing": round(games / play_seconds, 1) if play_seconds else None,
        },
    }
    storage.write_json(summary_path, result)
    (out / "best.txt").write_text(best["spec"] + "\n")
    return result


def race_winners(spec: TuneSpec, play: Player, starts: list[dict]) -> dict:
    """The searches' winners (each distinct spec once) on the same ``final_games`` games of the
    race seed: win rates over the games where every one had a result (Wilson 95% intervals),
    best first, and the runner-up's paired difference to the best (how far apart the searches'
    basins are)."""
    from analyses.stats import paired_score_difference, score_interval

    seed = start_seed(spec.seed, spec.starts)
    distinct: dict[str, dict] = {}
    for entry in starts:
        distinct.setdefault(entry["best"], {"params": entry["best_params"], "starts": []})
        distinct[entry["best"]]["starts"].append(entry["start"])
    scores, has_result = {}, np.ones(spec.final_games, dtype=bool)
    for text, entry in distinct.items():
        score, result = field_scores(
            spec, play, spec.candidate(entry["params"]), seed, 0, spec.final_games
        )
        scores[text] = score
        has_result &= result
    candidates = []
    for text, entry in distinct.items():
        rate, low, high = score_interval(scores[text][has_result])
        candidates.append(
            {"spec": text, "params": entry["params"], "starts": entry["starts"],
             "win_rate": rate, "ci_low": low, "ci_high": high}
        )  # fmt: skip
    candidates.sort(key=lambda c: (-c["win_rate"], c["starts"][0]))
    runner_up = None
    if len(candidates) > 1:
        diff, low, high = paired_score_difference(
            scores[candidates[1]["spec"]][has_result], scores[candidates[0]["spec"]][has_result]
        )
        runner_up = {"diff": diff, "ci_low": low, "ci_high": high}
    return {
        "seed": seed,
        "games": int(has_result.sum()),
        "candidates": candidates,
        "runner_up": runner_up,
    }


def _self_play(spec: TuneSpec, out: Path, threads, scheduler, progress) -> dict:
    rounds = []
    incumbents = [spec.strategy]
    stopped = f"the {spec.rounds} rounds ran out"
    with player(threads, scheduler) as play:
        for number in range(1, spec.rounds + 1):
            round_spec = copy.deepcopy(spec)
            round_spec.self_play = False
            round_spec.fields = [(1.0, [incumbents[-1]] * (spec.players - 1))]
            round_spec.strategy = incumbents[-1]
            # Every earlier incumbent races too: a search that misses the region of an earlier
            # round's strategy cannot then report the incumbent as a best response to itself.
            round_spec.earlier = [s["params"] for s in incumbents[:-1]]
            summary = tune_once(round_spec, out / f"round-{number}", play, progress)
            fresh = summary["fresh"]
            improved = fresh["diff_ci_low"] > 0
            rounds.append(
                {"round": number, "incumbent": round_spec.spec_text({}), "best": summary["best"],
                 "diff": fresh["diff"], "diff_ci_low": fresh["diff_ci_low"],
                 "diff_ci_high": fresh["diff_ci_high"], "improved": improved}
            )  # fmt: skip
            if not improved:
                stopped = "a best response did not beat the incumbent on fresh games"
                break
            texts = [round_spec.spec_text(s["params"]) for s in incumbents]
            if summary["best"] in texts:
                first = texts.index(summary["best"])
                stopped = (
                    f"the best responses cycle: round {number}'s winner was round {first + 1}'s "
                    "incumbent, so no one parameter set is a best response to itself (powerlab "
                    "meta over the rounds' winners gives the equilibrium mix)"
                )
                rounds[-1]["cycle_to_round"] = first + 1
                break
            incumbents.append(round_spec.candidate(summary["best_params"]))
    incumbent = incumbents[-1]
    result = {
        "game": spec.game,
        "players": spec.players,
        "strategy": spec.strategy["name"],
        "self_play": True,
        "baseline": spec.spec_text({}),
        "best": spec.spec_text(incumbent["params"]),
        "rounds": rounds,
        "stopped": stopped,
        "cycle": "cycle_to_round" in rounds[-1],
        "last_round": str(out / f"round-{len(rounds)}"),
    }
    storage.write_json(out / "summary.json", result)
    (out / "best.txt").write_text(result["best"] + "\n")
    return result
