"""A meta-game directory (simcore/workflows/meta.py): payoffs per lineup with 95% intervals, and
the game
solved with its sensitivity (docs/meta.md).

The payoff of strategy j in a lineup is its win share per seat: the wins of the seats it plays
over (its seats x the games with a result). Every lineup plays the same game indices, so the
resamples that give the intervals of the solution draw the same games for all lineups at once
(a bootstrap over game indices, which keeps the common random numbers' pairing).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from analyses import AnalysisError, gametheory
from analyses.dataset import CUT_OFF, load_run
from analyses.stats import with_win_rate
from simcore.registry import SpecError
from simcore.workflows.meta import read_meta_json

# OpenSpiel's fixation probability overflows to NaN once alpha x a payoff gap passes ~709, i.e.
# beyond alpha ~ 1000 for win shares; its infinite-alpha variant stands for the limit.
ALPHAS = (0.1, 1.0, 10.0, 100.0, math.inf)
HEADLINE_ALPHA = 100.0  # OpenSpiel's default; payoffs are win shares in [0, 1]
DEFAULT_RESAMPLES = 20


@dataclass(frozen=True)
class MetaGame:
    """Per lineup (in ``lineups`` order) and game: how many seats of each population strategy
    won (``wins[lineup, game, j]``) and whether the game had a result; ``seats[lineup, j]`` is
    how many seats strategy j fills in the lineup."""

    path: Path
    info: dict
    labels: list[str]
    players: int
    lineups: list[tuple[int, ...]]
    wins: np.ndarray
    seats: np.ndarray
    has_result: np.ndarray

    def payoffs(self, weights: np.ndarray | None = None) -> dict[tuple[int, ...], np.ndarray]:
        """Each lineup's per-seat win share of every strategy it holds (NaN for the others);
        ``weights`` counts each game (a bootstrap resample), default once."""
        if weights is None:
            weights = np.ones(self.wins.shape[1])
        wins = np.einsum("g,lgk->lk", weights, self.wins)
        results = self.has_result @ weights
        with np.errstate(invalid="ignore", divide="ignore"):
            rates = wins / (self.seats * results[:, None])
        rates[self.seats == 0] = np.nan
        return dict(zip(self.lineups, rates, strict=True))


def _listed(mass: np.ndarray | None) -> list[float] | None:
    return None if mass is None else mass.tolist()


def load_meta(path: str | Path) -> MetaGame:
    """Open a meta-game directory written by ``powerlab meta``."""
    path = Path(path)
    if not (path / "meta.json").exists():
        raise AnalysisError(f"{path}: no meta.json, not a powerlab meta-game directory")
    try:
        info = read_meta_json(path)
    except SpecError as error:
        raise AnalysisError(str(error)) from None
    labels = info["labels"]
    players = info["spec"]["players"]
    lineups = [tuple(int(j) for j in name.split("-")) for name in info["lineups"]]
    wins, has_result, indices = [], [], None
    for name in info["lineups"]:
        run = load_run(path / "lineups" / name)
        columns = ["game_index", "ended_by"]
        columns += [f"s{k}_{c}" for k in range(players) for c in ("strategy", "won")]
        games = run.scan().select(columns).sort("game_index").collect()
        if indices is None:
            indices = games["game_index"].to_numpy()
        elif not np.array_equal(indices, games["game_index"].to_numpy()):
            raise AnalysisError(f"{run.path}: other game indices than the first lineup's")
        counts = np.zeros((games.height, len(labels)), dtype=np.int8)
        for k in range(players):
            slot = (
                games[f"s{k}_strategy"]
                .cast(pl.String)
                .replace_strict({label: j for j, label in enumerate(labels)}, return_dtype=pl.Int64)
            )
            won = games[f"s{k}_won"].to_numpy()
            np.add.at(counts, (np.arange(games.height), slot.to_numpy()), won)
        wins.append(counts)
        has_result.append(games["ended_by"].cast(pl.String).to_numpy() != CUT_OFF)
    seats = np.array([[lineup.count(j) for j in range(len(labels))] for lineup in lineups])
    return MetaGame(
        path, info, labels, players, lineups, np.stack(wins), seats, np.stack(has_result)
    )


def payoff_table(meta: MetaGame) -> pl.DataFrame:
    """[lineup, strategy, seats, games, wins, win_rate, ci_low, ci_high]: every strategy in every
    lineup, ``games`` counting seat-games with a result (Wilson 95% intervals)."""
    rows = []
    for row, lineup in enumerate(meta.lineups):
        results = int(meta.has_result[row].sum())
        for j in sorted(set(lineup)):
            rows.append(
                {
                    "lineup": ", ".join(meta.labels[i] for i in lineup),
                    "strategy": meta.labels[j],
                    "seats": int(meta.seats[row, j]),
                    "games": int(meta.seats[row, j]) * results,
                    "wins": int(meta.wins[row, :, j].sum()),
                }
            )
    return with_win_rate(pl.DataFrame(rows))


def field_matrix(meta: MetaGame) -> np.ndarray:
    """[row strategy, field strategy]: the row strategy's win share when every other seat plays
    the field strategy (the diagonal is the mirror)."""
    payoffs = meta.payoffs()
    k, n = len(meta.labels), meta.players
    return np.array(
        [[payoffs[tuple(sorted((r,) + (c,) * (n - 1)))][r] for c in range(k)] for r in range(k)]
    )


def _interval(samples: np.ndarray) -> tuple[list[float], list[float]]:
    """2.5% and 97.5% percentiles of each column (NaN rows, failed solves, left out)."""
    kept = samples[~np.isnan(samples).any(axis=1)]
    if not len(kept):
        return [math.nan] * samples.shape[1], [math.nan] * samples.shape[1]
    return np.percentile(kept, 2.5, axis=0).tolist(), np.percentile(kept, 97.5, axis=0).tolist()


def solve(meta: MetaGame, resamples: int = DEFAULT_RESAMPLES, seed: int = 0) -> dict:
    """The game's symmetric equilibrium, regrets, dominance and alpha-rank, each with its spread
    over ``resamples`` bootstrap resamples of the games (seeded: the same answer every time)."""
    k, n = len(meta.labels), meta.players
    arrays = gametheory.normal_form(meta.payoffs(), k, n)
    equilibrium = gametheory.symmetric_equilibrium(arrays)
    dominant, strict = gametheory.dominant_strategy(arrays)
    masses = {str(alpha): _listed(gametheory.alpha_rank(arrays, alpha)) for alpha in ALPHAS}
    rng = np.random.default_rng(seed)
    games = meta.wins.shape[1]
    mixes, regrets, ranks, dominants = [], [], [], []
    for _ in range(resamples):
        weights = rng.multinomial(games, np.full(games, 1 / games)).astype(float)
        resampled = gametheory.normal_form(meta.payoffs(weights), k, n)
        found = gametheory.symmetric_equilibrium(resampled)
        mixes.append(found.mix if found else np.full(k, np.nan))
        if equilibrium:
            values = gametheory.deviation_values(resampled, equilibrium.mix)
            regrets.append(values - equilibrium.mix @ values)
        mass = gametheory.alpha_rank(resampled, HEADLINE_ALPHA)
        ranks.append(gametheory.ranks(mass) if mass is not None else np.full(k, np.nan))
        dominants.append(gametheory.dominant_strategy(resampled)[0])
    ranks = np.array(ranks, dtype=float).reshape(resamples, k)
    ranked = ~np.isnan(ranks[:, 0])
    result = {
        "labels": meta.labels,
        "players": n,
        "resamples": resamples,
        "equilibrium": None,
        "dominant": {
            "strategy": None if dominant is None else meta.labels[dominant],
            "strict": strict,
            "share_of_resamples": (
                None if dominant is None else sum(d == dominant for d in dominants) / resamples
            )
            if resamples
            else None,
        },
        "alpharank": {
            "headline_alpha": HEADLINE_ALPHA,
            "mass": masses,
            "ranks": {
                alpha: None if m is None else gametheory.ranks(np.array(m)).tolist()
                for alpha, m in masses.items()
            },
            "order": ranking_order(meta.labels, masses),
            "ranked_resamples": int(ranked.sum()),
            "first_share": [
                float(np.mean(ranks[ranked, j] == 1)) if ranked.any() else None for j in range(k)
            ],
            "rank_low": np.min(ranks[ranked], axis=0).tolist() if ranked.any() else None,
            "rank_high": np.max(ranks[ranked], axis=0).tolist() if ranked.any() else None,
        },
    }
    if equilibrium:
        mix_low, mix_high = _interval(np.array(mixes).reshape(resamples, k))
        regret_low, regret_high = _interval(np.array(regrets).reshape(resamples, k))
        result["equilibrium"] = {
            "method": equilibrium.method,
            "mix": equilibrium.mix.tolist(),
            "mix_ci_low": mix_low,
            "mix_ci_high": mix_high,
            "solved_resamples": int(sum(not np.isnan(m).any() for m in mixes)),
            "value": float(equilibrium.mix @ equilibrium.values),
            "values": equilibrium.values.tolist(),
            "regrets": equilibrium.regrets.tolist(),
            "regret_ci_low": regret_low,
            "regret_ci_high": regret_high,
            "max_regret": equilibrium.max_regret,
        }
    return result


def ranking_order(labels: list[str], masses: dict[str, list[float]]) -> list[str]:
    """Labels from the most alpha-rank mass to the least at the headline alpha, ties broken by
    the mass at the other alphas (infinite first); labels still tied are joined by ' = '."""
    keys = [str(HEADLINE_ALPHA), str(math.inf), *(str(a) for a in sorted(ALPHAS, reverse=True))]
    keys = [key for key in keys if masses[key] is not None]  # alphas without a unique ranking
    rows = {
        label: tuple(round(-masses[key][j], 9) for key in keys) for j, label in enumerate(labels)
    }
    groups: dict[tuple, list[str]] = {}
    for label in sorted(labels, key=lambda label: rows[label]):
        groups.setdefault(rows[label], []).append(label)
    return [" = ".join(group) for group in groups.values()]


def summary_lines(solution: dict) -> list[str]:
    """The solution in a few sentences, for the console and the report."""
    labels = solution["labels"]
    lines = []
    equilibrium = solution["equilibrium"]
    if equilibrium is None:
        lines.append("No symmetric equilibrium found (gambit's logit tracer and pure search).")
    else:
        support = [
            f"{labels[j]} {100 * p:.0f}% [{100 * lo:.0f}, {100 * hi:.0f}]"
            for j, (p, lo, hi) in enumerate(
                zip(
                    equilibrium["mix"],
                    equilibrium["mix_ci_low"],
                    equilibrium["mix_ci_high"],
                    strict=True,
                )
            )  # fmt: skip
            if p > 0
        ]
        lines.append(f"Equilibrium mix ({equilibrium['method']}): " + "; ".join(support) + ".")
    dominant = solution["dominant"]
    if dominant["strategy"]:
        kind = "strictly" if dominant["strict"] else "weakly"
        share = dominant["share_of_resamples"]
        lines.append(
            f"{dominant['strategy']} {kind} dominates every other strategy"
            + (f" (in {100 * share:.0f}% of resamples)." if share is not None else ".")
        )
    else:
        lines.append("No strategy dominates all others.")
    order = solution["alpharank"]["order"]
    alpha = solution["alpharank"]["headline_alpha"]
    note = "" if solution["alpharank"]["mass"][str(alpha)] else " (no unique ranking there)"
    lines.append(f"Alpha-rank (alpha {alpha:g}{note}): " + " > ".join(order))
    return lines
