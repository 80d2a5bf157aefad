"""Headline balance metrics named after the Ludii game-evaluation metrics."""

import polars as pl

from analyses.dataset import Run
from analyses.length import game_length
from analyses.winrates import by_seat, by_strategy


def ludii_metrics(run: Run) -> pl.DataFrame:
    """[metric, value, doc]: Balance, AdvantageP1, Timeouts and DurationTurns, named after the
    Ludii game-evaluation metrics, and StrategyBalance (the same as Balance between the
    strategies, when the lineup has several)."""
    seats = by_seat(run)
    strategies = by_strategy(run).drop_nulls("win_rate")
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
    if strategies.height > 1:
        rows.insert(1, (
            "StrategyBalance",
            1 - (strategies["win_rate"].max() - strategies["win_rate"].min()),
            "1 - (highest - lowest strategy win rate); 1 means every strategy wins equally often "
            "against these players.",
        ))  # fmt: skip
    return pl.DataFrame(
        rows, schema={"metric": pl.String, "value": pl.Float64, "doc": pl.String}, orient="row"
    )
