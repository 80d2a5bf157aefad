"""Headline balance metrics named after the Ludii game-evaluation metrics."""

import polars as pl

from analyses.dataset import Run
from analyses.length import game_length
from analyses.winrates import by_seat


def ludii_metrics(run: Run) -> pl.DataFrame:
    """[metric, value, doc]: Balance, AdvantageP1, Timeouts and DurationTurns, named after the
    Ludii game-evaluation metrics."""
    seats = by_seat(run)
    length = game_length(run)
    fair = 1 / run.players
    rows = [
        (
            "Balance",
            1 - (seats["win_rate"].max() - seats["win_rate"].min()),
            "1 - (highest - lowest seat win rate); 1 means every seat wins equally often.",
        ),
        (
            "AdvantageP1",
            seats.filter(pl.col("seat") == 0)["win_rate"].item(),
            f"Win rate of seat 0, which moves first; a fair share is {fair:.3f}.",
        ),
        (
            "Timeouts",
            length.cut_off_share,
            "Share of games cut off by the simulation's turn cap instead of ended by the rules "
            "(they have no result).",
        ),
        ("DurationTurns", length.mean, "Mean number of turns per game with a result."),
    ]
    return pl.DataFrame(
        rows, schema={"metric": pl.String, "value": pl.Float64, "doc": pl.String}, orient="row"
    )
