"""Per-game random streams: SplitMix64 seeding xoshiro256**.

Every game owns a stream derived from (root seed, game index) alone, so a game's dice and shuffles
never depend on which thread, chunk or machine played it. The stream state is a ``uint64[4]``
array passed explicitly to every helper; numba's global ``np.random`` is never used.
"""

import numpy as np
from numba import njit

_GOLDEN_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX_1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX_2 = np.uint64(0x94D049BB133111EB)
_INDEX_SALT = np.uint64(0xD1B54A32D192ED03)
_TO_UNIT = 1.0 / 9007199254740992.0  # 2**-53


@njit(cache=True, _nrt=False)
def _splitmix64_mix(z):
    z = (z ^ (z >> np.uint64(30))) * _MIX_1
    z = (z ^ (z >> np.uint64(27))) * _MIX_2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, _nrt=False)
def seed_game_stream(seed, game_index, state):
    """Fill ``state`` (uint64[4]) with the stream of game ``game_index`` under root ``seed``."""
    x = _splitmix64_mix(np.uint64(seed) ^ _splitmix64_mix(np.uint64(game_index) * _INDEX_SALT))
    for i in range(4):
        x = x + _GOLDEN_GAMMA
        state[i] = _splitmix64_mix(x)


@njit(cache=True, _nrt=False)
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(cache=True, _nrt=False)
def next_u64(state):
    result = _rotl(state[1] * np.uint64(5), 7) * np.uint64(9)
    t = state[1] << np.uint64(17)
    state[2] ^= state[0]
    state[3] ^= state[1]
    state[1] ^= state[2]
    state[0] ^= state[3]
    state[2] ^= t
    state[3] = _rotl(state[3], 45)
    return result


@njit(cache=True, _nrt=False)
def rand_float(state):
    """Uniform float64 in [0, 1) from the top 53 bits."""
    return np.float64(next_u64(state) >> np.uint64(11)) * _TO_UNIT


@njit(cache=True, _nrt=False)
def rand_below(state, n):
    """Uniform int64 in [0, n) for n >= 1 (bias below n / 2**53: far under any test's power)."""
    return np.int64(rand_float(state) * n)


@njit(cache=True, _nrt=False)
def rand_bool(state, p):
    """True with probability ``p``."""
    return rand_float(state) < p


def new_stream() -> np.ndarray:
    return np.zeros(4, dtype=np.uint64)
