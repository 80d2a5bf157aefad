"""Shared pieces of the fair-play tests (tests/contract/test_fair_play.py and each game's
relabelling test): lineups every strategy must handle, games played in memory, and comparisons of
win rates with confidence intervals."""

from __future__ import annotations

import itertools

import numpy as np
import polars as pl
from scipy.stats import norm

from analyses.stats import wilson_interval
from simcore import registry
from simcore.workflows import runner

SEED = 11


def player_counts(game: registry.Game) -> list[int]:
    return list(range(game.min_players, game.max_players + 1))


def mirrors_and_pairings(game: registry.Game, players: int) -> list[list[str]]:
    """Every strategy alone at the table, and every pair alternating seats (a, b, a, b, ...)."""
    names = [s.name for s in game.strategies]
    mirrors = [[name] * players for name in names]
    pairings = [
        [(a, b)[seat % 2] for seat in range(players)] for a, b in itertools.combinations(names, 2)
    ]
    return mirrors + pairings


def play(
    game_id: str, players: int, strategies: list[str], games: int, settings: list[str] = ()
) -> pl.DataFrame:
    """``games`` games of a rotated lineup from game index 0, as the runner stores them."""
    spec = runner.build_spec(game_id, players, strategies, list(settings), SEED, games, True)
    return pl.from_arrow(runner.play_chunk(spec, 0, games).games)


def ending_shares(games: pl.DataFrame) -> dict[str, float]:
    """Share of games per ``ended_by`` value."""
    counts = games["ended_by"].cast(pl.String).value_counts()
    return {row["ended_by"]: row["count"] / games.height for row in counts.iter_rows(named=True)}


def strategy_wins(games: pl.DataFrame, players: int, name: str) -> tuple[int, int]:
    """(wins, seat-games) of the seats playing strategy ``name`` (any parameters), over the games
    with a result."""
    finished = games.filter(pl.col("ended_by").cast(pl.String) != "cap")
    wins = seats = 0
    for seat in range(players):
        mine = finished[f"s{seat}_strategy"].cast(pl.String).str.split(":").list.first() == name
        seats += int(mine.sum())
        wins += int((mine & finished[f"s{seat}_won"]).sum())
    return wins, seats


def seat_and_strategy_rates(games: pl.DataFrame, players: int) -> dict[str, tuple[int, int]]:
    """(wins, trials) of every seat and every strategy label, over the games with a result."""
    finished = games.filter(pl.col("ended_by").cast(pl.String) != "cap")
    rates = {}
    for seat in range(players):
        rates[f"seat {seat}"] = (int(finished[f"s{seat}_won"].sum()), finished.height)
    labels = {
        label for seat in range(players) for label in finished[f"s{seat}_strategy"].cast(pl.String)
    }
    for label in sorted(labels):
        wins = trials = 0
        for seat in range(players):
            mine = finished[f"s{seat}_strategy"].cast(pl.String) == label
            trials += int(mine.sum())
            wins += int((mine & finished[f"s{seat}_won"]).sum())
        rates[label] = (wins, trials)
    return rates


def rate_differences(
    a: dict[str, tuple[int, int]], b: dict[str, tuple[int, int]], confidence: float = 0.95
) -> list[str]:
    """The keys whose win rates differ between ``a`` and ``b`` beyond chance: the normal interval
    of each difference, Bonferroni-corrected over the keys so that the family of comparisons is
    wrong at most 5% of the time, must contain 0. Returns one line per difference found."""
    keys = sorted(set(a) | set(b))
    z = norm.ppf(1 - (1 - confidence) / (2 * len(keys)))
    found = []
    for key in keys:
        (wins_a, n_a), (wins_b, n_b) = a.get(key, (0, 0)), b.get(key, (0, 0))
        if n_a == 0 or n_b == 0:
            found.append(f"{key}: present in only one of the runs")
            continue
        p_a, p_b = wins_a / n_a, wins_b / n_b
        se = np.sqrt(p_a * (1 - p_a) / n_a + p_b * (1 - p_b) / n_b)
        if abs(p_a - p_b) > z * se:
            found.append(f"{key}: {100 * p_a:.1f}% vs {100 * p_b:.1f}% (n = {n_a}, {n_b})")
    return found


def wilson_low(wins: int, trials: int) -> float:
    return wilson_interval(wins, trials)[0]
