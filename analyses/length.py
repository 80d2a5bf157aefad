"""How long games last."""

from dataclasses import dataclass

import polars as pl

from analyses.dataset import Run


@dataclass(frozen=True)
class GameLength:
    """Turns per game: ``counts`` is [turns, games, truncated] per observed number of turns."""

    counts: pl.DataFrame
    games: int
    mean: float
    median: float
    p10: float
    p90: float
    truncated_share: float


def game_length(run: Run) -> GameLength:
    """Distribution and summary statistics of ``turns``; quantiles interpolate linearly."""
    games = run.scan()
    turns = pl.col("turns")
    stats = (
        games.select(
            games=pl.len(),
            mean=turns.mean(),
            median=turns.median(),
            p10=turns.quantile(0.1, interpolation="linear"),
            p90=turns.quantile(0.9, interpolation="linear"),
            truncated_share=pl.col("truncated").mean(),
        )
        .collect()
        .row(0, named=True)
    )
    counts = (
        games.group_by("turns")
        .agg(games=pl.len().cast(pl.Int64), truncated=pl.col("truncated").sum().cast(pl.Int64))
        .sort("turns")
        .collect()
    )
    return GameLength(counts=counts, **stats)
