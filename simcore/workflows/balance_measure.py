"""A balance candidate's games and objectives (`powerlab balance`, docs/balance.md).

A candidate plays every lineup its objectives read (``lineups_needed``) on the same game indices;
per game only what the objectives read is kept (``game_records``) and stored once per block
(``played``: a resumed search reads it instead of playing again). ``measure`` turns the records
into each objective's measured value and its distance to target; ``intervals`` adds bootstrap
95% intervals over the games.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from pathlib import Path

import numpy as np

from simcore.kernel.chunk import ENDED_BY, ENDED_CAP, ENDED_RULES, LINEUP_SLOT, TURNS, WON
from simcore.workflows import runner, storage, tuning
from simcore.workflows.balance_spec import BalanceSpec, Objective, run_spec

VARIETY_RESAMPLES = 20  # an equilibrium per resample: gambit's solver, ~0.1 s each


# --- playing a candidate ----------------------------------------------------------------------


def game_records(spec: runner.RunSpec, start: int, n: int) -> np.ndarray:
    """Per game: [turns, ended_by, won of each seat, lineup slot of each seat] as int32[n, 2 +
    2 * players]: what the objectives read of a chunk (the Dask path ships nothing else)."""
    game_out, seat_out = runner.play_arrays(spec, start, n)
    return np.concatenate(
        [game_out[:, [TURNS, ENDED_BY]], seat_out[:, :, WON], seat_out[:, :, LINEUP_SLOT]], axis=1
    ).astype(np.int32)


def lineups_needed(spec: BalanceSpec, strategies=None, held_strategies=None) -> dict:
    """{key: (players, lineup)} of every lineup a candidate's objectives read: ``main-<n>`` (the
    file's lineup, or ``strategies``), ``without-<n>`` (the option held, or ``held_strategies``:
    restricted play re-tunes the focal with the option held) and ``variety-<n>-<i-j-..>`` (a
    meta-game lineup of the population)."""
    needed = {}
    for objective in spec.objectives:
        for n in objective.players:
            if objective.kind != "variety":
                needed[f"main-{n}"] = (n, spec.lineup(n, strategies))
            if objective.kind == "option_value":
                lineup = spec.lineup(n, held_strategies or strategies)
                needed[f"without-{n}"] = (n, held(lineup, objective))
            if objective.kind == "variety":
                from analyses.gametheory import lineups

                for combo in lineups(len(objective.population), n):
                    key = f"variety-{n}-{'-'.join(map(str, combo))}"
                    needed[key] = (n, [copy.deepcopy(objective.population[j]) for j in combo])
    return needed


def held(lineup: list[dict], objective: Objective) -> list[dict]:
    """The lineup with the option held: every seat of the focal strategy with ``fixed``."""
    return [
        {**s, "params": {**s["params"], **objective.fixed}} if s["name"] == objective.focal else s
        for s in lineup
    ]


def play(spec: BalanceSpec, player: tuning.Player, rules, seed, first, stop, lineups=None):
    """{lineup key: game records of games [first, stop)} of a candidate's rules (``lineups``:
    ``lineups_needed``'s, default the file's)."""
    return {
        key: player.outcomes(run_spec(spec, lineup, rules, n, seed, stop), first, stop,
                             game_records)
        for key, (n, lineup) in (lineups or lineups_needed(spec)).items()
    }  # fmt: skip


def _save(path: Path, records: dict) -> None:
    def write(tmp: Path) -> None:
        with open(tmp, "wb") as handle:
            np.savez(handle, **records)

    path.parent.mkdir(parents=True, exist_ok=True)
    storage.atomic_write_bytes(path, write)


def _load(path: Path) -> dict:
    with np.load(path) as data:
        return {key: data[key] for key in data.files}


def played(path: Path, make: Callable[[], dict]) -> dict:
    """The records stored at ``path``, or ``make()``'s, stored there first (resume unit)."""
    if path.exists():
        return _load(path)
    records = make()
    _save(path, records)
    return records


# --- objectives -------------------------------------------------------------------------------


def _mean(values: np.ndarray, mask: np.ndarray, weights: np.ndarray) -> float:
    total = (weights * mask).sum()
    return float((weights * mask * values).sum() / total) if total else math.nan


def measure(spec: BalanceSpec, records: dict, weights: np.ndarray | None = None) -> dict:
    """{objective name: (measured value, objective value)} of a candidate's records, each game
    counted ``weights`` times (a bootstrap resample; default once). The measured value is what
    the designer reads (a seat's deviation, mean turns, a share, an option's value in win-rate
    points, the normalised entropy or the regret); the objective value its distance to target."""
    games = next(iter(records.values())).shape[0]
    weights = np.ones(games) if weights is None else weights
    result = {}
    for objective in spec.objectives:
        per_count = []
        for n in objective.players:
            main = records.get(f"main-{n}")
            if objective.kind == "seat_fairness":
                has_result = main[:, 1] != ENDED_CAP
                rates = [_mean(main[:, 2 + s], has_result, weights) for s in range(n)]
                deviation = max(abs(rate - 1 / n) for rate in rates)
                result[f"seat_fairness_{n}p"] = (deviation, deviation)
            elif objective.kind == "length":
                per_count.append(_mean(main[:, 0], main[:, 1] != ENDED_CAP, weights))
            elif objective.kind == "ended_by_rules":
                per_count.append(_mean(main[:, 1] == ENDED_RULES, np.ones(games), weights))
            elif objective.kind == "option_value":
                per_count.append(_option_value(spec, records, n, objective, weights))
            else:
                per_count.append(_variety(records, n, objective, weights))
        if objective.kind == "seat_fairness":
            continue
        value = float(np.mean(per_count))
        if objective.kind == "ended_by_rules":
            distance = max(0.0, objective.at_least - value)
        elif objective.kind == "variety":
            distance = value
        else:
            distance = max(0.0, objective.low - value, value - objective.high)
        result[objective.kind] = (value, distance)
    return result


def _focal_won(records: np.ndarray, lineup: list[dict], focal: str) -> np.ndarray:
    """Per game: whether a seat of the ``focal`` strategy won (any of them, if several)."""
    n = len(lineup)
    won, slots = records[:, 2 : 2 + n], records[:, 2 + n : 2 + 2 * n]
    is_focal = np.isin(slots, [k for k, s in enumerate(lineup) if s["name"] == focal])
    return (won * is_focal).any(axis=1)


def _option_value(spec, records, n, objective, weights) -> float:
    """The focal's win rate with the option minus with it held, on the same games (paired)."""
    with_, without = records[f"main-{n}"], records[f"without-{n}"]
    lineup = spec.lineup(n)
    both = (with_[:, 1] != ENDED_CAP) & (without[:, 1] != ENDED_CAP)
    diff = _focal_won(with_, lineup, objective.focal).astype(float)
    diff -= _focal_won(without, lineup, objective.focal)
    return _mean(diff, both, weights)


def _variety(records, n, objective, weights) -> float:
    """1 - the normalised entropy of the symmetric equilibrium mix (``entropy``: 0 when every
    strategy is played equally, 1 when one is played alone), or the regret of the uniform mix
    (``regret``: what the best strategy gains over the average one against opponents drawn
    uniformly from the population; 0 when none is better)."""
    from analyses import gametheory

    k = len(objective.population)
    payoffs = {}
    for combo in gametheory.lineups(k, n):
        games = records[f"variety-{n}-{'-'.join(map(str, combo))}"]
        has_result = games[:, 1] != ENDED_CAP
        won, slots = games[:, 2 : 2 + n], games[:, 2 + n : 2 + 2 * n]
        shares = np.full(k, np.nan)
        for j in set(combo):
            seats = combo.count(j)
            wins = (won * np.isin(slots, [s for s, c in enumerate(combo) if c == j])).sum(axis=1)
            shares[j] = _mean(wins / seats, has_result, weights)
        payoffs[combo] = shares
    arrays = gametheory.normal_form(payoffs, k, n)
    if objective.measure == "regret":
        values = gametheory.deviation_values(arrays, np.full(k, 1 / k))
        return float(values.max() - values.mean())
    equilibrium = gametheory.symmetric_equilibrium(arrays)
    if equilibrium is None:
        return math.nan
    mix = equilibrium.mix[equilibrium.mix > 0]
    return float(1 + (mix * np.log(mix)).sum() / math.log(k))


def intervals(spec: BalanceSpec, records: dict, seed: int) -> dict:
    """{name: {value, low, high, objective, objective_low, objective_high, draws}}: the measured
    values and objectives with bootstrap 95% intervals over game indices (the same resampled games
    in every lineup, and in every candidate measured on as many games: ``draws``, the objective's
    resamples, pair two candidates)."""
    point = measure(spec, records)
    games = next(iter(records.values())).shape[0]
    rng = np.random.default_rng([seed, games])
    count = spec.resamples
    if any(o.kind == "variety" for o in spec.objectives):
        count = min(count, VARIETY_RESAMPLES)
    resamples = [
        measure(spec, records, rng.poisson(1.0, games).astype(float)) for _ in range(count)
    ]
    result = {}
    for name, (value, objective) in point.items():
        draws = np.array([r[name] for r in resamples], dtype=float).reshape(-1, 2)
        low, high = np.nanpercentile(draws, [2.5, 97.5], axis=0)
        result[name] = {
            "value": value, "low": float(low[0]), "high": float(high[0]),
            "objective": objective, "objective_low": float(low[1]),
            "objective_high": float(high[1]), "draws": draws[:, 1],
        }  # fmt: skip
    return result
