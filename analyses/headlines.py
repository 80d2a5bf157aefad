"""The numbers a report page's takeaway sentence states, from the same tables the page draws.

Each function reads an analysis table (win rates, paired differences, study summaries, ...) and
returns the few facts a designer reads first: which row is furthest from fair and whether its
interval clears the reference, how far a curve moves over a sweep, how many differences are
clearly positive. The words are the report's (reports/takeaways.py); the numbers are here.
"""

import math

import polars as pl


def side(low: float, high: float, reference: float = 0.0) -> str:
    """Where a 95% interval lies against ``reference``: "above", "below" or "includes"
    (also for a missing interval)."""
    if math.isnan(low) or math.isnan(high):
        return "includes"
    if low > reference:
        return "above"
    if high < reference:
        return "below"
    return "includes"


def fair_share_gaps(table: pl.DataFrame, fair: float | None = None) -> pl.DataFrame:
    """``table`` (win_rate, ci_low, ci_high per row) with gap, gap_low, gap_high: the win rate and
    its interval minus the fair share (``fair``, or 1 / the row's ``players``), and ``side`` of
    the interval against it; sorted by the size of the gap, largest first (rows without a rate
    last)."""
    share = pl.lit(fair) if fair is not None else 1 / pl.col("players")
    return (
        table.with_columns(
            gap=pl.col("win_rate") - share,
            gap_low=pl.col("ci_low") - share,
            gap_high=pl.col("ci_high") - share,
        )
        .with_columns(
            side=pl.struct("gap_low", "gap_high").map_elements(
                lambda row: side(row["gap_low"], row["gap_high"]), return_dtype=pl.String
            )
        )
        .sort(pl.col("gap").abs(), descending=True, nulls_last=True)
    )


def relative_spread(high: float, low: float) -> float:
    """How different two means are, on a scale from 0 (equal) to 1 (one of them is zero or they
    have opposite signs): (high - low) / max(|high|, |low|)."""
    scale = max(abs(high), abs(low))
    return 0.0 if scale == 0 else (high - low) / scale


def strategy_contrasts(means: pl.DataFrame) -> pl.DataFrame:
    """For ``seat_stats.seat_stat_means`` ([strategy, seat_games, <stat>...]): per statistic the
    strategy with the highest and with the lowest mean, and their ``relative_spread``; the
    statistics where strategies differ most first."""
    stats = [name for name in means.columns if name not in ("strategy", "seat_games")]
    rows = []
    for stat in stats:
        ranked = means.select("strategy", stat).drop_nulls().sort(stat, descending=True)
        if ranked.height < 2:
            continue
        high, low = ranked.row(0), ranked.row(-1)
        rows.append(
            {
                "statistic": stat,
                "highest": high[0],
                "high": float(high[1]),
                "lowest": low[0],
                "low": float(low[1]),
                "spread": relative_spread(float(high[1]), float(low[1])),
            }
        )
    schema = {
        "statistic": pl.String,
        "highest": pl.String,
        "high": pl.Float64,
        "lowest": pl.String,
        "low": pl.Float64,
        "spread": pl.Float64,
    }
    return pl.DataFrame(rows, schema=schema).sort("spread", descending=True)


def winner_contrasts(means: pl.DataFrame) -> pl.DataFrame:
    """For ``seat_stats.winner_stat_means`` ([statistic, winning_seats, other_seats]): the
    ``relative_spread`` between winners and the others (positive: winners have more), the
    statistics where winners stand out most first."""
    return (
        means.drop_nulls()
        .with_columns(
            spread=pl.struct("winning_seats", "other_seats").map_elements(
                lambda row: relative_spread(row["winning_seats"], row["other_seats"]),
                return_dtype=pl.Float64,
            )
        )
        .sort(pl.col("spread").abs(), descending=True)
    )


def response_ranges(
    rows: pl.DataFrame,
    axis: str,
    series: list[str],
    value: str = "win_rate",
    interval: tuple[str, str] | None = None,
) -> pl.DataFrame:
    """How far each series (a line of a response page: one combination of ``series`` columns)
    moves over the swept ``axis``: [*series, low_at, low, high_at, high, change, apart], where
    low/high are its smallest and largest ``value`` and where they occur, ``change`` is
    high - low, and ``apart`` says the two points' 95% intervals (the ``interval`` columns) do
    not overlap (False without an interval). Series that move most first."""
    result = []
    for key, line in rows.drop_nulls(value).group_by(series, maintain_order=True):
        if line.height == 0:
            continue
        low = line.row(int(line[value].arg_min()), named=True)
        high = line.row(int(line[value].arg_max()), named=True)
        apart = interval is not None and high[interval[0]] > low[interval[1]]
        result.append(
            {
                **dict(zip(series, key, strict=True)),
                "low_at": low[axis],
                "low": float(low[value]),
                "high_at": high[axis],
                "high": float(high[value]),
                "change": float(high[value] - low[value]),
                "apart": bool(apart),
            }
        )
    return pl.DataFrame(result).sort("change", descending=True) if result else pl.DataFrame()


def paired_overview(paired: pl.DataFrame) -> dict:
    """Counts of paired differences (``study.paired_table`` or compare rows: diff, ci_low,
    ci_high) whose interval is clearly above zero, clearly below, or includes it, and the rows
    with the largest positive and negative differences (None when there is none)."""
    sides = [side(lo, hi) for lo, hi in zip(paired["ci_low"], paired["ci_high"], strict=True)]
    ranked = paired.sort("diff", descending=True)
    return {
        "rows": paired.height,
        "above": sides.count("above"),
        "below": sides.count("below"),
        "includes": sides.count("includes"),
        "largest": ranked.row(0, named=True) if ranked.height else None,
        "smallest": ranked.row(-1, named=True) if ranked.height else None,
    }


def category_ranges(table: pl.DataFrame) -> pl.DataFrame:
    """For ``study.category_table`` rows of one column: per value, its smallest and largest
    share over the cells (a cell where the value never occurs counts as 0), the most common
    value first: [value, low, high, mean]."""
    cells = table["cell"].unique(maintain_order=True)
    values = table["value"].unique(maintain_order=True)
    full = (
        pl.DataFrame({"cell": cells})
        .join(pl.DataFrame({"value": values}), how="cross")
        .join(table.select("cell", "value", "share"), on=["cell", "value"], how="left")
        .fill_null(0.0)
    )
    return (
        full.group_by("value", maintain_order=True)
        .agg(low=pl.col("share").min(), high=pl.col("share").max(), mean=pl.col("share").mean())
        .sort("mean", descending=True)
    )


def matchup_edges(matchups: pl.DataFrame, fair: float) -> pl.DataFrame:
    """``fair_share_gaps`` of a matchup table ([strategy, opponent, ...]): the pairs where the
    row strategy is furthest from its fair share, furthest first."""
    return fair_share_gaps(matchups, fair)


def rating_lead(ratings: pl.DataFrame) -> dict | None:
    """The top-rated strategy of ``ratings.bradley_terry`` and the runner-up, and whether the
    top one is clearly ahead (its interval above the runner-up's); None with fewer than two."""
    if ratings.height < 2:
        return None
    first, second = ratings.row(0, named=True), ratings.row(1, named=True)
    return {"first": first, "second": second, "clear": first["ci_low"] > second["ci_high"]}
