"""Who wins: per seat, per strategy, per matchup, the seat-advantage test and convergence."""

import math
from typing import Any

import numpy as np
import polars as pl
from scipy.stats import chisquare

from analyses.dataset import Run, seats_long
from analyses.stats import with_win_rate


def _rates(run: Run, key: str, keys: pl.Series) -> pl.DataFrame:
    """Seat-rows and wins of each of ``keys`` (in that order), with rates and intervals; a key
    with no games with a result (all cut off) has 0 games and no rate."""
    counted = (
        seats_long(run)
        .group_by(key)
        .agg(games=pl.len().cast(pl.Int64), wins=pl.col("won").sum().cast(pl.Int64))
        .collect()
    )
    table = keys.to_frame(key).join(counted, on=key, how="left", maintain_order="left")
    return with_win_rate(table.fill_null(0))


def _lineup_order(run: Run) -> pl.Expr:
    """Sort key that lists strategy labels in lineup order rather than alphabetically."""
    order = {label: i for i, label in enumerate(run.strategy_labels)}
    return pl.col("strategy").replace_strict(order, default=len(order))


def by_seat(run: Run) -> pl.DataFrame:
    """[seat, games, wins, win_rate, ci_low, ci_high]; a shared win counts for each winning seat."""
    return _rates(run, "seat", pl.Series(range(run.players), dtype=pl.Int64))


def by_strategy(run: Run) -> pl.DataFrame:
    """[strategy, games, wins, win_rate, ci_low, ci_high] in lineup order; ``games`` counts
    seat-rows, so a strategy seated twice in a game plays two games there."""
    return _rates(run, "strategy", pl.Series(run.strategy_labels, dtype=pl.String))


def seat_advantage(run: Run) -> dict[str, Any]:
    """Chi-square goodness-of-fit of wins per seat against equal shares.

    Counts only games with a single winner (not cut off, not drawn or shared), so every counted
    game adds exactly one win. Returns statistic, p_value, dof, games, wins (per seat) and expected
    (per seat); statistic and p_value are NaN when no game had a winner.
    """
    counts = (
        run.scan_results().filter(pl.col("winner") >= 0).group_by("winner").agg(pl.len()).collect()
    )
    wins = [0] * run.players
    for seat, count in counts.iter_rows():
        wins[seat] = count
    games = sum(wins)
    statistic, p_value = (math.nan, math.nan)
    if games > 0:
        result = chisquare(wins)
        statistic, p_value = float(result.statistic), float(result.pvalue)
    return {
        "statistic": statistic,
        "p_value": p_value,
        "dof": run.players - 1,
        "games": games,
        "wins": wins,
        "expected": [games / run.players] * run.players,
    }


def matchup_matrix(run: Run, groups: dict[str, str] | None = None) -> pl.DataFrame:
    """[strategy, opponent, games, wins, win_rate, ci_low, ci_high] for each ordered pair of
    distinct labels seated together: ``games`` counts games holding both, ``wins`` those won by
    any seat of ``strategy``. Pairs never seated together are left out.

    ``groups`` maps labels to group names (e.g. "others" for the labels a page cannot show one
    by one); a group then counts as one strategy: seated when any of its labels is, winning
    when any of its seats wins. Labels it does not name stay themselves."""
    groups = groups or {}
    names = list(dict.fromkeys(groups.get(label, label) for label in run.strategy_labels))
    members = {
        name: [label for label in run.strategy_labels if groups.get(label, label) == name]
        for name in names
    }
    seats = range(run.players)

    def holds(k: int, name: str) -> pl.Expr:
        return pl.col(f"s{k}_strategy").cast(pl.String).is_in(members[name])

    seated = [
        pl.any_horizontal([holds(k, name) for k in seats]).alias(f"seated{i}")
        for i, name in enumerate(names)
    ]
    won = [
        pl.any_horizontal([holds(k, name) & pl.col(f"s{k}_won") for k in seats]).alias(f"won{i}")
        for i, name in enumerate(names)
    ]
    labels = names
    pairs = [(a, b) for a in range(len(labels)) for b in range(len(labels)) if a != b]
    both = {(a, b): pl.col(f"seated{a}") & pl.col(f"seated{b}") for a, b in pairs}
    sums = [
        *(both[a, b].sum().alias(f"games{a}_{b}") for a, b in pairs),
        *((both[a, b] & pl.col(f"won{a}")).sum().alias(f"wins{a}_{b}") for a, b in pairs),
    ]
    # A lineup of a single label has no pairs, and polars cannot select nothing into one row.
    totals = (
        run.scan_results().select(*seated, *won).select(sums).collect().row(0, named=True)
        if sums
        else {}
    )
    table = pl.DataFrame(
        {
            "strategy": [labels[a] for a, _ in pairs],
            "opponent": [labels[b] for _, b in pairs],
            "games": [totals[f"games{a}_{b}"] for a, b in pairs],
            "wins": [totals[f"wins{a}_{b}"] for a, b in pairs],
        },
        schema={"strategy": pl.String, "opponent": pl.String, "games": pl.Int64, "wins": pl.Int64},
    )
    return with_win_rate(table.filter(pl.col("games") > 0))


def matchup_pivot(matchups: pl.DataFrame, value: str = "win_rate") -> pl.DataFrame:
    """Square form of ``matchup_matrix``: a ``strategy`` column, then one column per opponent in
    the same order as the rows; the diagonal and pairs never seated together are null."""
    labels = matchups["strategy"].unique(maintain_order=True).to_list()
    wide = matchups.pivot(on="opponent", index="strategy", values=value)
    # Pivot orders columns by first appearance as opponent; rows follow the strategies instead.
    return wide.select("strategy", *labels)


def convergence(run: Run, checkpoints: int = 20) -> pl.DataFrame:
    """How a strategy's win-rate interval narrows as games accumulate, in game_index order.

    Returns [strategy, games_played, games, wins, win_rate, ci_low, ci_high, half_width] at about
    ``checkpoints`` log-spaced numbers of games: ``games_played`` counts games of the run with
    game_index below the checkpoint, ``games`` the strategy's seat-rows among those with a
    result.
    """
    last_index = run.scan().select(pl.col("game_index").max()).collect().item()
    ends = np.geomspace(min(10, last_index + 1), last_index + 1, checkpoints)
    bounds = sorted({int(end) for end in ends.round()})
    before = [pl.col("game_index") < bound for bound in bounds]
    played = run.scan().select(*(b.sum().alias(str(i)) for i, b in enumerate(before))).collect()
    per_strategy = (
        seats_long(run)
        .group_by("strategy")
        .agg(
            *(b.sum().alias(f"games{i}") for i, b in enumerate(before)),
            *((b & pl.col("won")).sum().alias(f"wins{i}") for i, b in enumerate(before)),
        )
        .collect()
    )
    table = pl.DataFrame(
        [
            {
                "strategy": row["strategy"],
                "games_played": played[str(i)].item(),
                "games": row[f"games{i}"],
                "wins": row[f"wins{i}"],
            }
            for row in per_strategy.iter_rows(named=True)
            for i in range(len(bounds))
        ],
        schema={
            "strategy": pl.String,
            "games_played": pl.Int64,
            "games": pl.Int64,
            "wins": pl.Int64,
        },
    )
    return (
        with_win_rate(table)
        .with_columns(half_width=(pl.col("ci_high") - pl.col("ci_low")) / 2)
        .sort(_lineup_order(run), "games_played")
    )
