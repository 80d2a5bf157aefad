"""Solving a symmetric empirical game with field libraries: pygambit for equilibria, regrets and
dominance, OpenSpiel's alpha-rank for the ranking (docs/meta.md).

The game is given by lineups: ``payoffs[lineup][j]`` is the expected payoff (win share per seat)
of strategy j in the multiset ``lineup`` of strategy indices. ``normal_form`` expands it to the
n-player normal form both libraries read: every ordered profile of strategies, each player's
payoff taken from the profile's multiset.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

# An equilibrium is accepted when no strategy gains more than this share of the game's payoff
# range by deviating (gambit's own criterion for its logit tracer is 1e-8 of the range).
MAX_REGRET = 1e-6
MIN_SHARE = 1e-6  # a strategy played less often than this is out of the mix
SUPPORT_SHARE = 1e-3  # liap_solve's answer plays a strategy at least this often to polish it
LIAP_ITERATIONS = 100_000
OPENSPIEL_POPULATION = 50  # alpha-rank's finite population size m (OpenSpiel's default)


def lineups(strategies: int, players: int) -> list[tuple[int, ...]]:
    """Every multiset of ``players`` strategy indices: C(k + n - 1, n) lineups, sorted."""
    return list(itertools.combinations_with_replacement(range(strategies), players))


def normal_form(payoffs: dict[tuple[int, ...], np.ndarray], strategies: int, players: int):
    """The n-player normal form of a symmetric game: one payoff array of shape (k,) * n per
    player, entry [s_1, ..., s_n] being player i's payoff when player p plays s_p."""
    profiles = np.array(list(itertools.product(range(strategies), repeat=players)))
    index = {lineup: row for row, lineup in enumerate(sorted(payoffs))}
    table = np.array([payoffs[lineup] for lineup in sorted(payoffs)], dtype=float)
    rows = np.array([index[tuple(p)] for p in np.sort(profiles, axis=1)])
    shape = (strategies,) * players
    return [table[rows, profiles[:, i]].reshape(shape) for i in range(players)]


def _gambit_game(arrays):
    import pygambit as gbt

    return gbt.StrategicGame.from_arrays(*arrays)


def _symmetric_profile(game, mix: np.ndarray):
    profile = game.mixed_strategy_profile()
    for player in game.players:
        profile[player] = {str(k + 1): float(p) for k, p in enumerate(mix)}
    return profile


def deviation_values(arrays, mix: np.ndarray) -> np.ndarray:
    """Each strategy's expected payoff against ``players - 1`` opponents drawn from ``mix``
    (gambit's strategy values of one player when every player plays ``mix``)."""
    game = _gambit_game(arrays)
    values = _symmetric_profile(game, mix).strategy_values
    first = next(iter(game.players))
    return np.array([float(v) for v in dict(values[first]).values()])


@dataclass(frozen=True)
class Equilibrium:
    """A symmetric Nash equilibrium: every player plays ``mix``. ``regrets[j]`` is what a player
    gains by switching from the mix to strategy j (at most ~0 at an equilibrium); ``method``
    says which gambit solver found it."""

    mix: np.ndarray
    values: np.ndarray
    regrets: np.ndarray
    max_regret: float
    method: str


def symmetric_equilibrium(arrays) -> Equilibrium | None:
    """A symmetric equilibrium by gambit: the limit of the logit quantal-response path
    (``logit_solve``), which starts at the uniform mix and so stays symmetric in a symmetric
    game; when the tracer fails (it stops at a branch point of the path, as in games whose best
    responses cycle), a symmetric pure equilibrium from ``enumpure_solve``; failing that, gambit's
    Lyapunov minimisation (``liap_solve``) from the uniform mix, whose gradient keeps a symmetric
    profile symmetric, polished on its support (``_polished``). None when none of them finds one
    (reported as such, never replaced by a guess): every candidate must pass the regret check."""
    spread = max(float(np.ptp(a)) for a in arrays) or 1.0
    for mix, method in _candidates(arrays):
        mix = np.where(mix < MIN_SHARE, 0.0, mix)  # the tracer's limit leaves ~1e-9 crumbs
        mix = mix / mix.sum()
        values = deviation_values(arrays, mix)
        regrets = values - mix @ values
        if regrets.max() <= MAX_REGRET * spread:
            return Equilibrium(mix, values, regrets, float(regrets.max()), method)
    return None


def _candidates(arrays) -> Iterator[tuple[np.ndarray, str]]:
    """Symmetric mixes to check, cheapest solver first (each is only run if the ones before it
    gave nothing that passed)."""
    import pygambit as gbt

    game = _gambit_game(arrays)
    result = gbt.nash.logit_solve(game)
    if result.equilibrium is not None:
        yield _mean_mix(game, result.equilibrium), "logit"
    for profile in gbt.nash.enumpure_solve(game).equilibria:
        mixes = _mixes(game, profile)
        if all(np.array_equal(mixes[0], m) for m in mixes):
            yield np.array(mixes[0]), "pure"
    uniform = np.full(arrays[0].shape[0], 1 / arrays[0].shape[0])
    result = gbt.nash.liap_solve(_symmetric_profile(game, uniform), maxiter=LIAP_ITERATIONS)
    if result.equilibrium is not None:
        yield _polished(arrays, _mean_mix(game, result.equilibrium)), "liap"


def _mixes(game, profile) -> list[list[float]]:
    return [[float(p) for p in dict(profile[player]).values()] for player in game.players]


def _mean_mix(game, profile) -> np.ndarray:
    return np.mean(_mixes(game, profile), axis=0)


def _polished(arrays, mix: np.ndarray) -> np.ndarray:
    """``mix`` made exact on its support: the strategies it plays (share above SUPPORT_SHARE) are
    made to earn the same against it, by scipy's root finder on those indifference conditions
    (liap_solve stops at a regret near 1e-5, above MAX_REGRET). ``mix`` itself when that fails."""
    from scipy.optimize import root

    support = np.flatnonzero(mix > SUPPORT_SHARE)

    def indifference(shares: np.ndarray) -> np.ndarray:
        full = np.zeros(len(mix))
        full[support] = shares
        values = arrays[0]
        for _ in range(len(arrays) - 1):  # player 0's payoff, the others playing ``full``
            values = values @ full
        return np.append(values[support[1:]] - values[support[0]], shares.sum() - 1)

    solution = root(indifference, mix[support])
    if not solution.success or solution.x.min() < 0:
        return mix
    polished = np.zeros(len(mix))
    polished[support] = solution.x
    return polished


def dominant_strategy(arrays) -> tuple[int | None, bool]:
    """(index, strict) of a strategy that dominates every other one, by gambit's elimination of
    dominated strategies (one round, strict first), or (None, False)."""
    from pygambit import supports

    game = _gambit_game(arrays)
    first = next(iter(game.players))
    labels = game.get_strategies(first)
    for strict in (True, False):
        kept = supports.undominated_strategies_solve(game, strict=strict)
        left = list(list(kept)[0])  # the first player's surviving strategy labels
        if len(left) == 1:
            return labels.index(left[0]), strict
    return None, False


def stationary(transitions: np.ndarray) -> np.ndarray:
    """The stationary distribution pi = pi C of an irreducible Markov chain, by a linear solve
    (one balance equation replaced by sum(pi) = 1)."""
    import warnings

    from scipy.linalg import LinAlgWarning, solve

    size = transitions.shape[0]
    system = transitions.T - np.eye(size)
    system[-1, :] = 1.0
    rhs = np.zeros(size)
    rhs[-1] = 1.0
    # A strongly selective chain is nearly absorbing, so the system is ill-conditioned, yet the
    # solution matches OpenSpiel's eigenvector to 5 decimals (tests/workflows/test_meta.py).
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LinAlgWarning)
        pi = np.clip(solve(system, rhs), 0.0, None)
    return pi / pi.sum()


def alpha_rank(arrays, alpha: float) -> np.ndarray | None:
    """Alpha-rank mass of each strategy: OpenSpiel's multi-population alpha-rank chain over the
    n-player profiles (one population per seat), its stationary distribution summed over the
    other seats. ``alpha = math.inf`` is OpenSpiel's infinite-alpha variant. The chain comes from
    ``open_spiel.python.egt.alpharank``; its stationary distribution is solved linearly here
    because OpenSpiel's full eigendecomposition takes ~60 s for 1,296 profiles on 2 shared cores
    against under a second (tests check both agree). None when the chain has no unique
    stationary distribution at this alpha."""
    from open_spiel.python.egt import alpharank

    infinite = math.isinf(alpha)
    with np.errstate(over="ignore"):  # exp(m * alpha * gap) overflows harmlessly to 0 or 1
        transitions, _ = alpharank._get_multipop_transition_matrix(
            list(arrays), False, OPENSPIEL_POPULATION, 1.0 if infinite else alpha,
            use_inf_alpha=infinite, inf_alpha_eps=0.01,
        )  # fmt: skip
    players, strategies = len(arrays), arrays[0].shape[0]
    try:
        pi = stationary(transitions).reshape((strategies,) * players)
    except np.linalg.LinAlgError:
        # Strong selection underflows some fixation probabilities to 0: the chain falls apart
        # into several closed classes and has no unique stationary distribution (OpenSpiel's
        # own solver raises then too). No ranking at this alpha.
        return None
    return pi.sum(axis=tuple(range(1, players)))


def ranks(mass: np.ndarray) -> np.ndarray:
    """Rank of each strategy by mass, 1 = most (ties share the better rank)."""
    return np.array([1 + int((mass > m + 1e-12).sum()) for m in mass])
