"""Bradley–Terry ratings of a pool of strategies from their head-to-head records.

With more than two players, a game won by A counts as A beating every other strategy seated in
it, as in ``winrates.matchup_matrix``; the ratings say who tends to beat whom.
"""

import math

import numpy as np
import polars as pl
from scipy.optimize import minimize
from scipy.special import expit, log_expit
from scipy.stats import norm

from analyses.dataset import Run
from analyses.stats import CONFIDENCE, with_win_rate
from analyses.winrates import matchup_matrix

ELO_PER_LOGIT = 400 / math.log(10)


def pooled_matchups(runs: list[Run], groups: dict[str, str] | None = None) -> pl.DataFrame:
    """``matchup_matrix`` (with its label ``groups``) summed over several runs (e.g. a study's
    arms with the same rules)."""
    tables = [
        matchup_matrix(run, groups).select("strategy", "opponent", "games", "wins") for run in runs
    ]
    pooled = pl.concat(tables).group_by("strategy", "opponent", maintain_order=True).sum()
    return with_win_rate(pooled)


def bradley_terry(matchups: pl.DataFrame) -> pl.DataFrame:
    """[strategy, rating, ci_low, ci_high, games] on the Elo scale (mean 0), best first.

    Maximum likelihood with scipy.optimize; intervals from the observed information (its
    pseudo-inverse, which fixes the mean rating at 0).
    """
    labels = list(dict.fromkeys([*matchups["strategy"], *matchups["opponent"]]))
    index = {label: k for k, label in enumerate(labels)}
    wins = np.zeros((len(labels), len(labels)))
    for row in matchups.iter_rows(named=True):
        wins[index[row["strategy"]], index[row["opponent"]]] += row["wins"]

    def negative_log_likelihood(free: np.ndarray) -> float:
        theta = np.concatenate([[0.0], free])
        return -float((wins * log_expit(theta[:, None] - theta[None, :])).sum())

    fit = minimize(negative_log_likelihood, np.zeros(len(labels) - 1), method="BFGS")
    theta = np.concatenate([[0.0], fit.x])
    theta -= theta.mean()
    p = expit(theta[:, None] - theta[None, :])
    weight = (wins + wins.T) * p * (1 - p)
    information = np.diag(weight.sum(axis=1)) - weight
    error = np.sqrt(np.clip(np.diag(np.linalg.pinv(information)), 0, None))
    half = norm.ppf(0.5 + CONFIDENCE / 2) * error
    table = pl.DataFrame(
        {
            "strategy": labels,
            "rating": ELO_PER_LOGIT * theta,
            "ci_low": ELO_PER_LOGIT * (theta - half),
            "ci_high": ELO_PER_LOGIT * (theta + half),
            "games": (wins + wins.T).sum(axis=1).astype(np.int64),
        }
    )
    return table.sort("rating", descending=True)
