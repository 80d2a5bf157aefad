"""Paired comparisons of two runs that share seed and game indices (common random numbers).

Game i of run A and game i of run B start from the same random stream, so per-game differences
cancel most of the luck both runs share. A focal is ``seat:K`` (seat K won), a strategy name
(the share of the seats played by a strategy of that name that won: a strategy's win rate is a
seat's, as in summary and every report) or ``lineup:K`` (the same share for the seats holding
lineup entry K's label: the entry as one player, even where identical specs fill several seats).
"""

import math
import re

import numpy as np
import polars as pl

from analyses import AnalysisError
from analyses.dataset import CUT_OFF, Run
from analyses.stats import mean_interval, score_interval


def strategy_name(label: str) -> str:
    """The strategy name of a lineup label ``name:key=value,...``."""
    return label.partition(":")[0]


def focal_index(kind: str, focal: str) -> int | None:
    """K of a focal ``seat:K`` or ``lineup:K`` (``kind``) written in ASCII digits, else None."""
    match = re.fullmatch(rf"{kind}:([0-9]{{1,3}})", focal)
    return int(match.group(1)) if match else None


def focal_problem(focal: str, players: int, lineup: list[str]) -> str | None:
    """Why ``focal`` cannot be measured in a run with this lineup, or None if it can."""
    for kind, count in (("seat", players), ("lineup", len(lineup))):
        if focal.startswith(f"{kind}:"):
            k = focal_index(kind, focal)
            if k is None or k >= count:
                return f"focal {focal!r} is not {kind}:K with K in [0, {count - 1}]"
            return None
    names = sorted({strategy_name(label) for label in lineup})
    if focal not in names:
        return f"focal {focal!r} is not seat:K nor a strategy of the lineup ({', '.join(names)})"
    return None


def default_focals(lineup: list[str], players: int) -> list[str]:
    """The strategy names of a lineup in order, or every seat when one strategy fills the table."""
    names = list(dict.fromkeys(strategy_name(label) for label in lineup))
    return names if len(names) > 1 else [f"seat:{k}" for k in range(players)]


def focal_outcomes(run: Run, focal: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(game_index, won, has_result) per game in game_index order: did the focal seat or strategy
    win, and did the game have a result (it was not cut off by the simulation's cap)."""
    problem = focal_problem(focal, run.players, run.lineup)
    if problem:
        raise AnalysisError(f"{run.path}: {problem}")
    if focal.startswith("seat:"):
        won = pl.col(f"s{focal_index('seat', focal)}_won")
    else:
        # The share of the seats it holds that won (a strategy's win rate is a seat's, as in
        # summary and every report): the seats holding lineup entry K's label, or a strategy name.
        if focal.startswith("lineup:"):
            label = run.lineup[focal_index("lineup", focal)]
            held = [pl.col(f"s{k}_strategy").cast(pl.String) == label for k in range(run.players)]
        else:
            held = [
                pl.col(f"s{k}_strategy").cast(pl.String).str.split(":").list.first() == focal
                for k in range(run.players)
            ]
        won = pl.sum_horizontal(h & pl.col(f"s{k}_won") for k, h in enumerate(held))
        won = won / pl.sum_horizontal(held)
    has_result = pl.col("ended_by").cast(pl.String) != CUT_OFF
    games = (
        run.scan().select("game_index", won=won, has_result=has_result).sort("game_index").collect()
    )
    won = games["won"].to_numpy()
    return (
        games["game_index"].to_numpy(),
        won.astype(np.int8) if focal.startswith("seat:") else won.astype(float),
        games["has_result"].to_numpy(),
    )


def focal_half_width(run: Run, focal: str) -> float:
    """Half the width of the Wilson 95% interval of the focal's win rate over games with a
    result."""
    _, won, has_result = focal_outcomes(run, focal)
    _, low, high = score_interval(won[has_result])
    return (high - low) / 2


def paired_difference(won_a: np.ndarray, won_b: np.ndarray) -> dict:
    """Mean of d_i = won_a[i] - won_b[i] with its normal 95% interval, and the variance-reduction
    factor: the variance of the unpaired difference of means over that of the paired one."""
    a = np.asarray(won_a, dtype=float)
    b = np.asarray(won_b, dtype=float)
    d = a - b
    n = len(d)
    var_paired = d.var(ddof=1) / n
    var_unpaired = a.var(ddof=1) / n + b.var(ddof=1) / n
    diff, low, high = mean_interval(d)
    return {
        "games": n,
        "rate_a": a.mean(),
        "rate_b": b.mean(),
        "diff": diff,
        "ci_low": low,
        "ci_high": high,
        "variance_reduction": var_unpaired / var_paired if var_paired > 0 else math.nan,
    }


# What two runs must share to be compared game by game; rules and strategies are what differs.
PAIRED_FIELDS = ("game", "players", "seed", "games", "rotate_seats")


def check_pairable(run_a: Run, run_b: Run) -> None:
    """AnalysisError unless the two runs share game, players, seed, games and seat rotation,
    and hold the same game indices."""
    changed = [key for key in PAIRED_FIELDS if run_a.spec[key] != run_b.spec[key]]
    if changed:
        values = "; ".join(f"{key} {run_a.spec[key]!r} vs {run_b.spec[key]!r}" for key in changed)
        raise AnalysisError(
            f"{run_a.path} and {run_b.path} differ in {values}: paired comparisons need the same "
            f"{', '.join(changed)}"
        )
    extent = [
        run.scan().select(pl.len(), pl.col("game_index").max()).collect().row(0)
        for run in (run_a, run_b)
    ]
    if extent[0] != extent[1]:
        raise AnalysisError(
            f"{run_a.path} and {run_b.path} hold different games (count, last index: "
            f"{extent[0]} vs {extent[1]}): paired comparisons need the same game indices"
        )


def paired_outcomes(run_a: Run, run_b: Run, focal: str) -> tuple[np.ndarray, np.ndarray, int]:
    """The focal's per-game wins in two pairable runs, over the games that have a result in both
    (a game cut off in either run has nothing to compare), and how many games were left out."""
    check_pairable(run_a, run_b)
    index_a, won_a, result_a = focal_outcomes(run_a, focal)
    index_b, won_b, result_b = focal_outcomes(run_b, focal)
    if not np.array_equal(index_a, index_b):
        raise AnalysisError(f"{run_a.path} and {run_b.path} hold different game indices")
    both = result_a & result_b
    return won_a[both], won_b[both], int((~both).sum())


def compare_runs(run_a: Run, run_b: Run, focal: str) -> dict:
    """``paired_difference`` of the focal's per-game wins in two pairable runs; ``cut_off`` games
    (cut off by the cap in either run) are left out."""
    won_a, won_b, cut_off = paired_outcomes(run_a, run_b, focal)
    return {"focal": focal, **paired_difference(won_a, won_b), "cut_off": cut_off}
