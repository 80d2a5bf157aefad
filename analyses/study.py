"""A study directory (docs/studies.md): its cells as runs, the summary table, paired differences."""

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from analyses import AnalysisError
from analyses.dataset import Run, load_run
from analyses.length import cut_off_warning, game_length
from analyses.outcomes import category_columns, category_shares
from analyses.paired import compare_runs, default_focals, strategy_name
from analyses.seat_stats import seat_stat_means
from analyses.winrates import by_seat, by_strategy
from simcore.registry import SpecError
from simcore.workflows import storage
from simcore.workflows.study import swept_value

RATE_COLUMNS = ("games", "wins", "win_rate", "ci_low", "ci_high")


@dataclass(frozen=True)
class StudyCell:
    """``variant`` numbers the lineups of an opponent mix, ``weight`` is each one's share."""

    id: str
    arm: str
    values: dict[str, Any]
    run: Run
    variant: int = 0
    weight: float = 1.0

    def group(self) -> tuple:
        """Cells with the same group differ only in their arm: they are paired."""
        return (*sorted(self.values.items()), ("variant", self.variant))


@dataclass(frozen=True)
class StudyDir:
    path: Path
    info: dict[str, Any]
    cells: list[StudyCell]

    @property
    def arms(self) -> list[str]:
        return list(dict.fromkeys(cell.arm for cell in self.cells))

    @property
    def axes(self) -> list[str]:
        """The swept keys (``players`` first when swept), in file order."""
        return list(self.cells[0].values)


def load_study_dir(path: str | Path) -> StudyDir:
    """Open a study directory written by ``powerlab study run``: study.json through its
    validating loader, and each cell's run, read only from the study's own cells/ folder."""
    path = Path(path)
    if not (path / "study.json").exists():
        raise AnalysisError(f"{path}: no study.json, not a powerlab study directory")
    try:
        info = storage.read_study_json(path)
    except SpecError as error:
        raise AnalysisError(str(error)) from None
    cells = [
        StudyCell(
            c["id"],
            c["arm"],
            c["values"],
            load_run(_cell_folder(path, c["id"])),
            c["variant"],
            c["weight"],
        )  # fmt: skip
        for c in info["cells"]
    ]
    return StudyDir(path, info, cells)


def _cell_folder(path: Path, cell_id: str) -> Path:
    """``path/cells/<cell_id>``, refused if it leads out of the study (through a symlink)."""
    folder = path / "cells" / cell_id
    if not folder.resolve().is_relative_to((path / "cells").resolve()):
        raise AnalysisError(f"{folder}: leads out of the study directory {path}; not read")
    return folder


def summary_table(study: StudyDir) -> pl.DataFrame:
    """One row per cell and seat or strategy: [cell, arm, players, <swept keys>, cut_off_share,
    kind, label, name, games, wins, win_rate, ci_low, ci_high, mean_<stat>...] (rates over the
    cell's games with a result, cut_off_share of its games cut off); ``name`` is ``seat:K`` or the
    strategy name; a strategy row also carries the means of the game's per-seat statistics
    (analyses.seat_stats), e.g. Power Barons' flushes per game."""
    frames = []
    for cell in study.cells:
        swept = {key: value for key, value in cell.values.items() if key != "players"}
        head = {
            "cell": cell.id,
            "arm": cell.arm,
            "players": cell.run.players,
            **swept,
            "cut_off_share": game_length(cell.run).cut_off_share,
        }
        seats = by_seat(cell.run).select(
            *RATE_COLUMNS,
            kind=pl.lit("seat"),
            label=pl.format("seat {}", "seat"),
            name=pl.format("seat:{}", "seat"),
        )
        means = seat_stat_means(cell.run).drop("seat_games")
        means = means.rename({c: f"mean_{c}" for c in means.columns if c != "strategy"})
        strategies = (
            by_strategy(cell.run)
            .join(means, on="strategy", how="left")
            .select(
                *RATE_COLUMNS,
                *means.columns[1:],
                kind=pl.lit("strategy"),
                label="strategy",
                name=pl.col("strategy").str.split(":").list.first(),
            )
        )
        rows = pl.concat([seats, strategies], how="diagonal_relaxed")
        frames.append(
            rows.select(
                *(pl.lit(v).alias(k) for k, v in head.items()),
                "kind",
                "label",
                "name",
                *RATE_COLUMNS,
                *means.columns[1:],
            )
        )
    return pl.concat(frames, how="diagonal_relaxed")


def cut_off_warnings(study: StudyDir) -> list[str]:
    """``cell: warning`` for each cell with too many games cut off by the cap."""
    warnings = (
        (cell.id, cut_off_warning(game_length(cell.run).cut_off_share)) for cell in study.cells
    )
    return [f"{cell_id}: {warning}" for cell_id, warning in warnings if warning]


def category_table(study: StudyDir) -> pl.DataFrame:
    """How games end in each cell: [cell, arm, players, column, doc, value, games, total, share,
    ci_low, ci_high] for every categorical game column (analyses.outcomes); empty if none."""
    frames = [
        category_shares(cell.run, column["name"]).select(
            pl.lit(cell.id).alias("cell"),
            pl.lit(cell.arm).alias("arm"),
            pl.lit(cell.run.players).alias("players"),
            pl.lit(column["name"]).alias("column"),
            pl.lit(column["doc"]).alias("doc"),
            pl.all(),
        )
        for cell in study.cells
        for column in category_columns(cell.run)
    ]
    return pl.concat(frames) if frames else pl.DataFrame()


def paired_table(study: StudyDir) -> pl.DataFrame:
    """Every arm against the first arm, cell by cell, for each focal the two lineups share:
    [group, arm, baseline, focal, games, rate_a, rate_b, diff, ci_low, ci_high,
    variance_reduction]; empty for a single arm. An arm that plays another number of games a
    cell (restricted play's search arms) is compared with the first arm that plays as many."""
    rows = []
    for cell in study.cells:
        base = next(
            c for c in study.cells
            if c.group() == cell.group() and c.run.spec["games"] == cell.run.spec["games"]
        )  # fmt: skip
        if base.arm == cell.arm:
            continue
        baseline = base.arm
        focals = [
            focal
            for focal in default_focals(cell.run.lineup, cell.run.players)
            if focal in default_focals(base.run.lineup, base.run.players)
        ]
        group = ", ".join(f"{k}={swept_value(k, v)}" for k, v in cell.values.items())
        for focal in focals:
            result = compare_runs(cell.run, base.run, focal)
            rows.append({"group": group, "arm": cell.arm, "baseline": baseline, **result})
    return pl.DataFrame(rows)


@dataclass(frozen=True)
class Pool:
    """Cells that share players and rules, pooled for matchups and ratings. ``name`` is short:
    the player count, and the rules that set the pool apart from the study's other pools."""

    name: str
    cell_ids: list[str]
    runs: list[Run]


def rating_pools(study: StudyDir) -> list[Pool]:
    """Cells that share players and rules, pooled when one of them seats two or more strategy
    labels (mirrors alone, one arm per strategy filling the table, have no head-to-head record),
    in cell order."""
    pools: dict[str, list[StudyCell]] = {}
    for cell in study.cells:
        key = json.dumps([cell.run.players, cell.run.spec["rules"]], sort_keys=True)
        pools.setdefault(key, []).append(cell)
    rules = [cells[0].run.spec["rules"] for cells in pools.values()]
    differing = [name for name in rules[0] if len({json.dumps(r.get(name)) for r in rules}) > 1]
    return [
        Pool(
            ", ".join(
                [f"{cells[0].run.players} players"]
                + [f"{name}={cells[0].run.spec['rules'][name]}" for name in differing]
            ),
            [cell.id for cell in cells],
            [cell.run for cell in cells],
        )
        for cells in pools.values()
        if any(len(set(cell.run.lineup)) > 1 for cell in cells)
    ]


def varied_strategies(study: StudyDir) -> set[str]:
    """The strategy names whose label (parameters) differs between cells: what the study varies,
    the focal strategies of its report."""
    labels: dict[str, set[str]] = {}
    for cell in study.cells:
        for label in cell.run.lineup:
            labels.setdefault(strategy_name(label), set()).add(label)
    return {name for name, seen in labels.items() if len(seen) > 1}
