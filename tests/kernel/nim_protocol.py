"""A toy game on the decision-point protocol (docs/protocol.md), for tests/kernel/test_ismcts.py:
Nim
with one heap. Two players take turns removing 1 to ``rules[1]`` stones from a heap of
``rules[0]``; whoever takes the last stone wins. Perfect information, so ``determinize`` changes
nothing. Its search is the generic one (simcore/kernel/ismcts.py), compiled here by
``specialise``."""

import numpy as np
from numba import njit

from simcore.kernel import ismcts
from simcore.kernel.rng import _splitmix64_mix, rand_below

HEAP, TO_MOVE, WINNER, OVER = range(4)
STATE_SIZE = 4
MAX_SEATS = 2
MAX_MOVES = 8
TAKE_ONE, RANDOM = range(2)  # scripted strategies
N_STRATEGY_PARAMS = 0  # they have no parameters


@njit(cache=True)
def new_game(st, rules):
    st[HEAP] = np.int64(rules[0])
    st[TO_MOVE] = 0
    st[WINNER] = -1
    st[OVER] = 0


@njit(cache=True)
def to_move(st):
    return st[TO_MOVE]


@njit(cache=True)
def is_over(st):
    return st[OVER] != 0


@njit(cache=True)
def legal(st, rules, moves):
    n = min(np.int64(rules[1]), st[HEAP])
    for i in range(n):
        moves[i] = i + 1
    return n


@njit(cache=True)
def apply(st, rules, move, rng, trace):
    st[HEAP] -= move
    if st[HEAP] == 0:
        st[WINNER] = st[TO_MOVE]
        st[OVER] = 1
        st[TO_MOVE] = -1
    else:
        st[TO_MOVE] = 1 - st[TO_MOVE]


@njit(cache=True)
def returns(st, out):
    for seat in range(2):
        out[seat] = 1.0 if seat == st[WINNER] else 0.0


@njit(cache=True)
def determinize(st, seat, rng):
    pass


@njit(cache=True)
def infoset_key(st, seat):
    return _splitmix64_mix(np.uint64(st[HEAP] * 4 + st[TO_MOVE] * 2 + seat))


@njit(cache=True)
def decide(sid, prm, seat, st, rules, rng):
    if sid == TAKE_ONE:
        return 1
    return 1 + rand_below(rng, min(np.int64(rules[1]), st[HEAP]))


search = ismcts.specialise(globals())
