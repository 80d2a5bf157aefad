"""Card impact (run.json ``card_impact``): how a seat's chance to win moves with each card.

As card-game analytics sites report it (17lands' "games in hand", "games played", "games not
seen", "improvement when drawn"), over seat-rows (one per game and seat): the win rate of the
seats that drew a card, of those that played it, and of those that never drew it, each with its
Wilson 95% interval, and the improvement when drawn = drawn win rate - never-seen win rate, with
Newcombe's hybrid score interval (the Wilson intervals of the two rates combined).

The run declares, per card set, two per-seat int64 bitmask columns (bit k: card k drawn /
played) and the card labels in bit order; nothing here knows any game.
"""

import math
from dataclasses import dataclass

import polars as pl

from analyses import AnalysisError
from analyses.dataset import Run, seats_long
from analyses.stats import wilson_interval

OUTCOMES = ("drawn", "played", "never_seen")


@dataclass(frozen=True)
class CardImpactTable:
    """One run.json card_impact entry. ``table`` has one row per card: ``card``, then for each
    outcome in OUTCOMES ``<outcome>_seats``, ``<outcome>_wins``, ``<outcome>_win_rate``,
    ``<outcome>_ci_low``, ``<outcome>_ci_high``, then ``iwd``, ``iwd_ci_low``, ``iwd_ci_high``
    (improvement when drawn); rows in card order."""

    title: str
    seat_rows: int
    win_rate: float
    table: pl.DataFrame


def bit(k: int) -> pl.Expr:
    """The int64 with only bit ``k`` set (bit 63 is the sign bit)."""
    return pl.lit(-(2**63) if k == 63 else 1 << k, dtype=pl.Int64)


def newcombe_interval(wins1: int, n1: int, wins2: int, n2: int) -> tuple[float, float]:
    """95% interval of p1 - p2 for independent proportions: Newcombe's method 10 (hybrid
    score), from the two Wilson intervals; (nan, nan) when either sample is empty."""
    if n1 == 0 or n2 == 0:
        return math.nan, math.nan
    p1, p2 = wins1 / n1, wins2 / n2
    low1, high1 = wilson_interval(wins1, n1)
    low2, high2 = wilson_interval(wins2, n2)
    diff = p1 - p2
    return (
        diff - math.sqrt((p1 - low1) ** 2 + (high2 - p2) ** 2),
        diff + math.sqrt((high1 - p1) ** 2 + (p2 - low2) ** 2),
    )


def _counts(run: Run, drawn: str, played: str, n_cards: int) -> dict[str, int]:
    """One pass over the seat-rows: totals and, per card, seats and wins drawn / played."""
    missing = [f"s0_{name}" for name in (drawn, played) if f"s0_{name}" not in run.columns]
    if missing:
        raise AnalysisError(f"{run.path}: games lack card-impact columns {', '.join(missing)}")
    won = pl.col("won")
    sums = [pl.len().alias("seats"), won.sum().alias("wins")]
    for k in range(n_cards):
        for outcome, column in (("drawn", drawn), ("played", played)):
            has = (pl.col(column) & bit(k)) != 0
            sums += [
                has.sum().alias(f"{outcome}_seats_{k}"),
                (has & won).sum().alias(f"{outcome}_wins_{k}"),
            ]
    return seats_long(run).select(sums).collect().row(0, named=True)


def _rates(seats: int, wins: int) -> dict[str, float]:
    low, high = wilson_interval(wins, seats)
    return {"win_rate": wins / seats if seats else math.nan, "ci_low": low, "ci_high": high}


def card_impact(run: Run) -> list[CardImpactTable]:
    """Per card-impact entry of the run, the per-card table described in CardImpactTable."""
    tables = []
    for entry in run.info.get("card_impact", []):
        labels = list(entry["labels"])
        counts = _counts(run, entry["drawn_column"], entry["played_column"], len(labels))
        rows = []
        for k, label in enumerate(labels):
            row = {"card": label}
            drawn_seats, drawn_wins = counts[f"drawn_seats_{k}"], counts[f"drawn_wins_{k}"]
            by_outcome = {
                "drawn": (drawn_seats, drawn_wins),
                "played": (counts[f"played_seats_{k}"], counts[f"played_wins_{k}"]),
                "never_seen": (counts["seats"] - drawn_seats, counts["wins"] - drawn_wins),
            }
            for outcome, (seats, wins) in by_outcome.items():
                row[f"{outcome}_seats"] = seats
                row[f"{outcome}_wins"] = wins
                row.update({f"{outcome}_{key}": v for key, v in _rates(seats, wins).items()})
            never_seats, never_wins = by_outcome["never_seen"]
            row["iwd"] = row["drawn_win_rate"] - row["never_seen_win_rate"]
            row["iwd_ci_low"], row["iwd_ci_high"] = newcombe_interval(
                drawn_wins, drawn_seats, never_wins, never_seats
            )
            rows.append(row)
        seats = counts["seats"]
        win_rate = counts["wins"] / seats if seats else math.nan
        tables.append(CardImpactTable(entry["title"], seats, win_rate, pl.DataFrame(rows)))
    return tables
