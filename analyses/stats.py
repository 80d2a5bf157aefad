"""The one place where win counts become rates with Wilson 95% confidence intervals."""

import math

import numpy as np
import polars as pl
from scipy.stats import binomtest, norm

CONFIDENCE = 0.95


def wilson_interval(wins: int, trials: int) -> tuple[float, float]:
    """Wilson score interval of wins / trials; (nan, nan) when there were no trials."""
    if trials == 0:
        return math.nan, math.nan
    interval = binomtest(int(wins), int(trials)).proportion_ci(
        confidence_level=CONFIDENCE, method="wilson"
    )
    return float(interval.low), float(interval.high)


def score_interval(scores) -> tuple[float, float, float]:
    """Mean of per-game scores in [0, 1] (a win, or wins weighted over fields) with the Wilson
    95% interval of their sum out of the games: a proportion's interval, always inside [0, 1];
    (nan, nan, nan) without games. A score in [0, 1] with mean p varies no more than a win
    with chance p, so the interval is at least as wide as the score's own."""
    x = np.asarray(scores, dtype=float)
    if not len(x):
        return math.nan, math.nan, math.nan
    low, high = wilson_interval(round(float(x.sum())), len(x))
    return float(x.mean()), low, high


def paired_score_difference(scores_a, scores_b) -> tuple[float, float, float]:
    """Mean of a - b over paired per-game scores in [0, 1] with Newcombe's hybrid score
    interval for paired proportions (method 10, Statistics in Medicine 17:2635, 1998): built
    from each mean's Wilson interval (``score_interval``) and the correlation of the pairs, so
    that it lies inside [-1, 1] however few the games, narrows as common random numbers make the
    scores move together, and is the paired normal interval when the games are many;
    (nan, nan, nan) for fewer than two games."""
    a, b = np.asarray(scores_a, dtype=float), np.asarray(scores_b, dtype=float)
    if len(a) < 2:
        return math.nan, math.nan, math.nan
    rate_a, low_a, high_a = score_interval(a)
    rate_b, low_b, high_b = score_interval(b)
    # A constant side has no correlation with the other: its interval adds to the other's.
    phi = float(np.corrcoef(a, b)[0, 1]) if a.std() > 0 and b.std() > 0 else 0.0
    below_a, above_a = rate_a - low_a, high_a - rate_a
    below_b, above_b = rate_b - low_b, high_b - rate_b
    diff = rate_a - rate_b
    low = diff - math.sqrt(max(0.0, below_a**2 - 2 * phi * below_a * above_b + above_b**2))
    high = diff + math.sqrt(max(0.0, above_a**2 - 2 * phi * above_a * below_b + below_b**2))
    return diff, low, high


def with_win_rate(table: pl.DataFrame, trials: str = "games") -> pl.DataFrame:
    """Add win_rate, ci_low and ci_high computed from the ``wins`` and ``trials`` columns."""
    bounds = [wilson_interval(w, n) for w, n in zip(table["wins"], table[trials], strict=True)]
    return table.with_columns(
        # 0 / 0 is NaN in polars, matching the interval of an empty cell.
        win_rate=pl.col("wins") / pl.col(trials),
        ci_low=pl.Series([low for low, _ in bounds], dtype=pl.Float64),
        ci_high=pl.Series([high for _, high in bounds], dtype=pl.Float64),
    )


def mean_interval(values) -> tuple[float, float, float]:
    """Mean of per-game ``values`` with its normal 95% interval (central limit theorem): for
    values that are not scores in [0, 1] (``score_interval``), e.g. paired differences;
    (nan, nan, nan) for fewer than two values."""
    x = np.asarray(values, dtype=float)
    if len(x) < 2:
        return math.nan, math.nan, math.nan
    half = norm.ppf(0.5 + CONFIDENCE / 2) * math.sqrt(x.var(ddof=1) / len(x))
    return float(x.mean()), float(x.mean() - half), float(x.mean() + half)
