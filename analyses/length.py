"""How long games last, and how they end."""

from dataclasses import dataclass

import polars as pl

from analyses.dataset import CUT_OFF, Run

# Above this share of games cut off by the simulation's cap, every summary and report warns: the
# strategies, not the game, may be deciding who wins (loops, stand-offs).
CUT_OFF_WARNING_SHARE = 0.01


@dataclass(frozen=True)
class GameLength:
    """Turns per game. ``counts`` is [turns, games, cut_off] per observed number of turns, over
    all games; the statistics are over the games with a result (a cut-off game's length is the
    cap's, not the game's)."""

    counts: pl.DataFrame
    games: int
    mean: float | None
    median: float | None
    p10: float | None
    p90: float | None
    cut_off_share: float


def game_length(run: Run) -> GameLength:
    """Distribution and summary statistics of ``turns``; quantiles interpolate linearly."""
    turns = pl.col("turns")
    stats = (
        run.scan_results()
        .select(
            mean=turns.mean(),
            median=turns.median(),
            p10=turns.quantile(0.1, interpolation="linear"),
            p90=turns.quantile(0.9, interpolation="linear"),
        )
        .collect()
        .row(0, named=True)
    )
    cut_off = pl.col("ended_by").cast(pl.String) == CUT_OFF
    counts = (
        run.scan()
        .group_by("turns")
        .agg(games=pl.len().cast(pl.Int64), cut_off=cut_off.sum().cast(pl.Int64))
        .sort("turns")
        .collect()
    )
    games = int(counts["games"].sum())
    return GameLength(
        counts=counts, games=games, cut_off_share=counts["cut_off"].sum() / games, **stats
    )


def cut_off_warning(cut_off_share: float) -> str | None:
    """The warning a summary or report prints when too many games were cut off, else None."""
    if cut_off_share <= CUT_OFF_WARNING_SHARE:
        return None
    return (
        f"warning: {100 * cut_off_share:.1f}% of games were cut off by the simulation's turn cap "
        "(more than 1%); they count for nobody and win rates use the other games, but the "
        "strategies may be stuck in loops that a real player would break"
    )
