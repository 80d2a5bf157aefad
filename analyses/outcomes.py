"""How games end: the share of games taking each value of the standard ``ended_by`` column and of
a game's own categorical result columns (Time Barons' and POWER: The Game's ``end``), with Wilson
95% intervals. Generic over games: it reads the game columns run.json declares and keeps those
stored as categories."""

import polars as pl

from analyses.dataset import Run
from analyses.stats import wilson_interval

ENDED_BY = {
    "name": "ended_by",
    "doc": "how the game ended: by the rules, by the rules' time limit, drawn, or cut off by the "
    "simulation's turn cap (no result)",
}


def category_columns(run: Run) -> list[dict[str, str]]:
    """``ended_by`` and the declared game columns ({name, doc}) whose values are labels."""
    schema = run.scan().collect_schema()
    return [
        column
        for column in [ENDED_BY, *run.info["columns"]["game"]]
        if column["name"] in schema
        and isinstance(schema[column["name"]], pl.Categorical | pl.Enum | pl.String)
    ]


def category_shares(run: Run, column: str) -> pl.DataFrame:
    """[value, games, total, share, ci_low, ci_high], most frequent value first."""
    counts = (
        run.scan()
        .group_by(pl.col(column).cast(pl.String).alias("value"))
        .agg(games=pl.len().cast(pl.Int64))
        .sort(["games", "value"], descending=[True, False])
        .collect()
    )
    total = int(counts["games"].sum())
    bounds = [wilson_interval(n, total) for n in counts["games"]]
    return counts.with_columns(
        total=pl.lit(total, dtype=pl.Int64),
        share=pl.col("games") / total,
        ci_low=pl.Series([low for low, _ in bounds], dtype=pl.Float64),
        ci_high=pl.Series([high for _, high in bounds], dtype=pl.Float64),
    )
