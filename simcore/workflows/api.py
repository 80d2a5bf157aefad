"""powerlab from Python (docs/api.md): run, load, tune and analyse the meta-game, with polars
DataFrames out. Each function does what the CLI command of the same name does, with the same
directories on disk (so a notebook and the CLI can resume each other's work) and the same checks:
bad input raises ``SpecError`` (or ``AnalysisError`` for a directory that is not what it should
be) with a one-line message.

    from simcore.workflows import api
    api.run("power", players=4, strategies=["counter", "bluffer", "honest", "random"],
            games=20_000, out="out/nb-run")
    api.win_rates("out/nb-run")
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import polars as pl

from simcore import registry
from simcore.registry import SpecError
from simcore.workflows import meta as meta_game
from simcore.workflows import runner, tuning

__all__ = [
    "MetaResult", "SpecError", "TuneResult", "compare", "games", "load", "meta", "presets",
    "run", "strategy_table", "study", "tune", "win_rates",
]  # fmt: skip


def _settings(rules: dict | None) -> list[str]:
    """A rules dict as ``--set`` texts (the same parsing and checks as the CLI)."""
    return [f"{key}={str(value).lower() if isinstance(value, bool) else value}"
            for key, value in (rules or {}).items()]  # fmt: skip


def games() -> pl.DataFrame:
    """[game, title, min_players, max_players, default_strategy, strategies]: what is playable."""
    rows = []
    for game_id in registry.game_ids():
        game = registry.make(game_id)
        rows.append(
            {"game": game.id, "title": game.title, "min_players": game.min_players,
             "max_players": game.max_players, "default_strategy": game.default_strategy,
             "strategies": [s.name for s in game.all_strategies()]}
        )  # fmt: skip
    return pl.DataFrame(rows)


def presets(game: str) -> pl.DataFrame:
    """[preset, players, spec, doc, command, measured] of the game's tuned presets (``preset:NAME``
    specs), a row per player count each is tuned at."""
    rows = [
        {"preset": name, "players": players, "spec": tuned["spec"],
         "doc": tuned.get("doc", entry["doc"]), "command": tuned["command"],
         "measured": tuned["measured"]}
        for name, entry in registry.presets(game).items()
        for players, tuned in entry["players"].items()
    ]  # fmt: skip
    schema = {"preset": pl.String, "players": pl.Int64, "spec": pl.String, "doc": pl.String,
              "command": pl.String, "measured": pl.String}  # fmt: skip
    return pl.DataFrame(rows, schema=schema)


def run(
    game: str,
    out: str | Path,
    players: int = 4,
    strategies: list[str] | None = None,
    games: int = 100_000,
    seed: int = 0,
    rules: dict | None = None,
    rotate_seats: bool = True,
    threads: int | None = None,
    scheduler: str | None = None,
) -> dict:
    """Play ``games`` games into the run directory ``out`` (resumable); returns its run.json."""
    spec = runner.build_spec(
        game, players, list(strategies or []), _settings(rules), seed, games, rotate_seats
    )
    return runner.run(spec, Path(out), threads=threads, scheduler=scheduler)


def load(run_dir: str | Path, with_cut_off: bool = False) -> pl.DataFrame:
    """The games of a run directory, one row each (columns in docs/architecture.md); without
    ``with_cut_off``, only games with a result (not cut off by the simulation's cap)."""
    from analyses.dataset import load_run

    loaded = load_run(run_dir)
    frame = loaded.scan() if with_cut_off else loaded.scan_results()
    return frame.sort("game_index").collect()


def win_rates(run_dir: str | Path, by: str = "strategy") -> pl.DataFrame:
    """Win rate per ``strategy`` or per ``seat`` with Wilson 95% intervals."""
    from analyses.dataset import load_run
    from analyses.winrates import by_seat, by_strategy

    if by not in ("strategy", "seat"):
        raise SpecError(f"by must be 'strategy' or 'seat', not {by!r}")
    loaded = load_run(run_dir)
    return by_strategy(loaded) if by == "strategy" else by_seat(loaded)


def compare(run_a: str | Path, run_b: str | Path, focal: str) -> dict:
    """Paired difference A - B of the focal's win rate over the same games, with its 95% CI."""
    from analyses.dataset import load_run
    from analyses.paired import compare_runs

    return compare_runs(load_run(run_a), load_run(run_b), focal)


@dataclass(frozen=True)
class TuneResult:
    """``best``: the winner as a ``--strategy`` spec; ``summary``: summary.json (fresh-seed
    figures under "fresh"); ``trials``: one row per candidate tried."""

    best: str
    summary: dict
    trials: pl.DataFrame
    out: Path


def tune(
    game: str,
    strategy: str,
    out: str | Path,
    players: int = 4,
    against: list[str] | None = None,
    budget: int = 100_000,
    seed: int = 0,
    rules: dict | None = None,
    self_play: bool = False,
    params: list[str] | None = None,
    fixed: dict | None = None,
    ranges: dict[str, tuple[float, float]] | None = None,
    sampler: str = "tpe",
    min_games: int | None = None,
    final_games: int | None = None,
    rounds: int = 4,
    fields: list[tuple[float, list[str]]] | None = None,
    from_start: bool = False,
    starts: int = 1,
    threads: int | None = None,
    scheduler: str | None = None,
) -> TuneResult:
    """Search ``strategy``'s parameters against ``against`` (the other seats) or a weighted mix
    of ``fields`` [(weight, other seats' specs), ...], or in self-play; see docs/tuning.md.
    ``fixed`` {param: value} holds parameters (restricted play), ``ranges`` {param: (low,
    high)} narrows the searched ranges; ``from_start`` races the starting parameters first;
    ``starts`` runs that many independent searches and races their winners (their trials then
    carry a ``start`` column)."""
    spec = tuning.build_spec(
        game, players, strategy, list(against or []), _settings(rules), seed, budget,
        self_play=self_play, only=list(params or []),
        fixed=[f"{k}={v}" for k, v in _pairs(fixed)],
        ranges=[f"{k}={low}:{high}" for k, (low, high) in _pairs(ranges)],
        sampler=sampler, min_games=min_games, final_games=final_games, rounds=rounds,
        fields=fields, from_start=from_start, starts=starts,
    )  # fmt: skip
    summary = tuning.tune(spec, Path(out), threads=threads, scheduler=scheduler)
    if "starts" in summary:
        tables = [
            pl.read_parquet(Path(out) / f"start-{k}" / "trials.parquet").with_columns(start=k)
            for k in range(1, starts + 1)
        ]
        trials = pl.concat(tables, how="diagonal_relaxed")
    else:
        folder = Path(summary["last_round"]) if self_play else Path(out)
        trials = pl.read_parquet(folder / "trials.parquet")
    return TuneResult(summary["best"], summary, trials, Path(out))


def _pairs(mapping: dict | None):
    return [(key, str(value).lower() if isinstance(value, bool) else value)
            for key, value in (mapping or {}).items()]  # fmt: skip


@dataclass(frozen=True)
class MetaResult:
    """``payoffs``: every strategy in every lineup with its Wilson 95% interval;
    ``strategies``: per strategy its equilibrium share (with the resamples' 2.5-97.5%), its
    regret against the equilibrium and its alpha-rank mass and rank; ``solution``: all of it as
    written to solution.json (dominance, alpha-rank at every alpha, ...)."""

    payoffs: pl.DataFrame
    strategies: pl.DataFrame
    solution: dict
    out: Path


def meta(
    game: str,
    population: list[str] | str | Path,
    out: str | Path,
    players: int = 4,
    games: int = 20_000,
    seed: int = 0,
    rules: dict | None = None,
    resamples: int = 20,
    threads: int | None = None,
    scheduler: str | None = None,
) -> MetaResult:
    """Play every lineup of ``population`` (a list of specs or a population file) and solve the
    meta-game; see docs/meta.md."""
    from reports.meta import write_meta_report

    meta_game.check_resamples(resamples)
    source = population if isinstance(population, list) else Path(population)
    spec = meta_game.build_spec(game, players, source, _settings(rules), seed, games)
    meta_game.run_meta(spec, Path(out), threads=threads, scheduler=scheduler)
    solution = write_meta_report(out, resamples)
    return MetaResult(
        pl.read_parquet(Path(out) / "payoffs.parquet"), strategy_table(solution), solution,
        Path(out),
    )  # fmt: skip


def strategy_table(solution: dict) -> pl.DataFrame:
    """Per strategy: equilibrium share and interval, regret, alpha-rank mass and rank."""
    from analyses.meta import HEADLINE_ALPHA

    equilibrium = solution["equilibrium"] or {}
    k = len(solution["labels"])
    missing = [None] * k
    alpha = str(HEADLINE_ALPHA)
    return pl.DataFrame(
        {
            "strategy": solution["labels"],
            "mix": equilibrium.get("mix", missing),
            "mix_ci_low": equilibrium.get("mix_ci_low", missing),
            "mix_ci_high": equilibrium.get("mix_ci_high", missing),
            "regret": equilibrium.get("regrets", missing),
            "alpharank_mass": solution["alpharank"]["mass"][alpha] or missing,
            "alpharank_rank": solution["alpharank"]["ranks"][alpha] or missing,
        },
        strict=False,
    )


def study(file: str | Path, out: str | Path, games: int | None = None) -> pl.DataFrame:
    """Run a study file (docs/studies.md) into ``out`` (resumable), write its report, and return
    its summary table (one row per cell and seat or strategy)."""
    from reports.study import write_study_report
    from simcore.workflows.study import load_study, run_study

    run_study(load_study(file), Path(out), games=games)
    write_study_report(out)
    return pl.read_parquet(Path(out) / "summary.parquet")
