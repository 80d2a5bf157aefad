"""Nim (tests/nim_protocol.py) with the protocol's optional ``stage``: the stones taken, which
the key holds (the heap left, from the same start) and play never lowers. Its search, compiled
here, must answer as Nim's own, which looks up every key (tests/test_ismcts.py)."""

from numba import njit

from simcore import ismcts
from tests.nim_protocol import (
    HEAP,
    MAX_MOVES,
    MAX_SEATS,
    START,
    STATE_SIZE,
    apply,
    decide,
    determinize,
    infoset_key,
    is_over,
    legal,
    new_game,
    returns,
    to_move,
)

__all__ = ["apply", "decide", "determinize", "infoset_key", "is_over", "legal", "new_game"]
__all__ += ["returns", "to_move", "MAX_MOVES", "MAX_SEATS", "STATE_SIZE", "search"]


@njit(cache=True)
def stage(st):
    return st[START] - st[HEAP]


search = ismcts.specialise(globals())
