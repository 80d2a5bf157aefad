"""Impact of categorical per-seat features (run.json ``impact``) on a seat's chance to win."""

from dataclasses import dataclass

import polars as pl

from analyses.dataset import Run, seats_long
from analyses.stats import with_win_rate


@dataclass(frozen=True)
class ImpactGroup:
    """One run.json impact entry. ``table`` is [value, seat_rows, wins, win_rate, ci_low, ci_high,
    diff] per category value; ``diff`` is win_rate minus ``overall_win_rate``, the win rate of
    all seat-rows. ``observational`` says why the comparison is not an experiment, if it is not.
    ``by_strategy`` is the same table per strategy label ([strategy, value, ...]) when the lineup
    has several: a value's pooled win rate mixes the strategies that happened to hold it."""

    title: str
    columns: list[str]
    overall_win_rate: float
    table: pl.DataFrame
    observational: str = ""
    by_strategy: pl.DataFrame | None = None


def _distinct_values(long: pl.LazyFrame, columns: list[str]) -> pl.LazyFrame:
    """[value, won, strategy], one row per seat-row and distinct non-null value among ``columns``.

    A value is taken from the first column holding it, so a seat-row with the same value in two
    columns counts once, without materialising row ids for a unique().
    """
    parts = []
    for j, column in enumerate(columns):
        first_holder = pl.all_horizontal(
            pl.lit(True), *(pl.col(column).ne_missing(pl.col(earlier)) for earlier in columns[:j])
        )
        parts.append(
            long.filter(pl.col(column).is_not_null() & first_holder).select(
                value=pl.col(column).cast(pl.String), won="won", strategy="strategy"
            )
        )
    return pl.concat(parts)


def impact(run: Run) -> list[ImpactGroup]:
    """For each impact group and category value: the seat-rows where any of the group's columns
    holds the value, their wins, win rate with Wilson interval, and the difference to the
    overall win rate; with several strategies in the lineup, also per strategy."""
    long = seats_long(run)
    overall = long.select(pl.col("won").mean()).collect().item()
    groups = []
    several = len(set(run.lineup)) > 1
    for entry in run.info.get("impact", []):
        values = _distinct_values(long, entry["columns"])
        by_strategy = _rates(values, ["strategy", "value"], overall) if several else None
        groups.append(
            ImpactGroup(
                entry["title"],
                list(entry["columns"]),
                overall,
                _rates(values, ["value"], overall),
                entry.get("observational", ""),
                by_strategy,
            )
        )
    return groups


def _rates(values: pl.LazyFrame, keys: list[str], overall: float) -> pl.DataFrame:
    counts = (
        values.group_by(keys)
        .agg(seat_rows=pl.len().cast(pl.Int64), wins=pl.col("won").sum().cast(pl.Int64))
        .sort(keys)
        .collect()
    )
    return with_win_rate(counts, trials="seat_rows").with_columns(diff=pl.col("win_rate") - overall)
