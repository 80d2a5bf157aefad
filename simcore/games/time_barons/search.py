"""ISMCTS for Time Barons: the generic search of simcore/kernel/ismcts.py, compiled here against
Time Barons' protocol (simcore/games/time_barons/rules.py) and scripted strategies (rollouts),
with its own cache entries (docs/protocol.md, "Generic code over the protocol")."""

import numpy as np
from numba import njit

from simcore.games.time_barons.rules import (
    apply,
    determinize,
    infoset_key,
    is_over,
    legal,
    new_game,
    returns,
    to_move,
)
from simcore.games.time_barons.state import (
    MAX_MOVES,
    MOVE_CODES,
    P_DECISIONS,
    STATE_SIZE,
    TRACE_WIDTH,
)
from simcore.kernel import ismcts
from simcore.kernel.chunk import N_STANDARD_SEAT_COLUMNS, seat_lineup
from simcore.kernel.rng import seed_game_stream
from simcore.registry import SEARCH_ID
from strategies.time_barons import PARAM_NAMES, decide

MAX_SEATS = 2
N_STRATEGY_PARAMS = len(PARAM_NAMES)
__all__ = ["apply", "decide", "determinize", "infoset_key", "is_over", "legal", "new_game"]
__all__ += ["returns", "to_move", "MAX_MOVES", "MAX_SEATS", "MOVE_CODES", "STATE_SIZE"]
__all__ += ["SEARCH_ID", "N_STRATEGY_PARAMS", "choose", "search"]

search = ismcts.specialise(globals())

choose = globals()["choose"]


@njit(cache=True, nogil=True)
def bench_protocol(game, lineup_ids, lineup_params, seed, n_games):
    """``n_games`` games through the protocol (``powerlab bench``): (decisions answered,
    searches run: decisions of a searching seat with more than one option)."""
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    sids = np.zeros(2, dtype=np.int64)
    prm = np.zeros((2, lineup_params.shape[1]), dtype=np.float64)
    rng = np.zeros(4, dtype=np.uint64)
    moves = np.zeros(MAX_MOVES, dtype=np.int64)
    no_trace = np.zeros((0, TRACE_WIDTH), dtype=np.int64)
    scratch = np.zeros((1, 2, N_STANDARD_SEAT_COLUMNS), dtype=np.int64)
    decisions = 0
    searches = 0
    for game_index in range(n_games):
        seat_lineup(lineup_ids, lineup_params, game_index, 2, True, sids, prm, scratch, 0)
        seed_game_stream(seed, game_index, rng)
        new_game(2, st, game, rng, no_trace)
        while not is_over(st):
            seat = to_move(st)
            searches += sids[seat] == SEARCH_ID and legal(st, game, moves) > 1
            apply(st, game, choose(sids, prm, seat, st, game, rng), rng, no_trace)
        decisions += st[P_DECISIONS]
    return decisions, searches
