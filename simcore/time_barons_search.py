"""ISMCTS for Time Barons: the generic search of simcore/ismcts.py, compiled here against Time
Barons' protocol (simcore/time_barons.py) and scripted strategies (rollouts), with its own cache
entries (docs/protocol.md, "Generic code over the protocol"); and the games with a searching seat,
played through the protocol (the kernel's run_chunk and trace_game hand such lineups here)."""

import numpy as np
from numba import njit

from simcore import ismcts
from simcore.chunk import N_STANDARD_SEAT_COLUMNS, block_bounds, block_scratch, seat_lineup
from simcore.registry import SEARCH_ID
from simcore.rng import seed_game_stream
from simcore.time_barons import (
    apply,
    infoset_key,
    is_over,
    legal,
    new_game,
    returns,
    to_move,
    write_row,
)
from simcore.time_barons import redraw_unseen as determinize
from simcore.time_barons_state import (
    END_TURN_CAP,
    MAX_MOVES,
    MOVE_CODES,
    P_DECISIONS,
    P_REASON,
    P_TURNS,
    P_WINNER,
    STATE_SIZE,
    TRACE_WIDTH,
)
from strategies.time_barons import PARAM_NAMES, decide

MAX_SEATS = 2
N_STRATEGY_PARAMS = len(PARAM_NAMES)
__all__ = ["apply", "decide", "determinize", "infoset_key", "is_over", "legal", "new_game"]
__all__ += ["returns", "to_move", "MAX_MOVES", "MAX_SEATS", "MOVE_CODES", "STATE_SIZE"]
__all__ += ["SEARCH_ID", "N_STRATEGY_PARAMS", "choose", "search"]

search = ismcts.specialise(globals())

choose = globals()["choose"]


@njit(cache=True)
def play_protocol_game(st, game, sids, prm, rng, trace):
    """One game through the decision-point protocol, each decision answered by ``choose``:
    (winner or -1, turns, truncated, end reason)."""
    new_game(2, st, game, rng, trace)
    while not is_over(st):
        seat = to_move(st)
        apply(st, game, choose(sids, prm, seat, st, game, rng), rng, trace)
    return st[P_WINNER], st[P_TURNS], st[P_REASON] == END_TURN_CAP, st[P_REASON]


@njit(cache=True)
def play_indexed_protocol(
    lineup_ids, lineup_params, seed, game_index, rotate,
    st, game, sids, prm, rng, trace, g, game_out, seat_out,
):  # fmt: skip
    """The kernel's ``play_indexed`` through the protocol (same seating, stream and row)."""
    seat_lineup(lineup_ids, lineup_params, game_index, 2, rotate, sids, prm, seat_out, g)
    seed_game_stream(seed, game_index, rng)
    winner, turns, truncated, reason = play_protocol_game(st, game, sids, prm, rng, trace)
    write_row(winner, turns, truncated, reason, st, g, game_out, seat_out)


@njit(cache=True, nogil=True)
def simulate_blocks(
    game, lineup_ids, lineup_params, seed, first_index, rotate, game_out, seat_out, first_block,
    end_block, n_blocks,
):  # fmt: skip
    """The kernel's ``simulate_blocks`` for lineups with a searching seat (the search allocates
    its tree; the scripted path stays allocation-free)."""
    for block in range(first_block, end_block):
        st, sids, prm, rng, no_trace = block_scratch(STATE_SIZE, 2, lineup_params, TRACE_WIDTH)
        lo, hi = block_bounds(game_out.shape[0], n_blocks, block)
        for g in range(lo, hi):
            play_indexed_protocol(
                lineup_ids, lineup_params, seed, first_index + g, rotate,
                st, game, sids, prm, rng, no_trace, g, game_out, seat_out,
            )  # fmt: skip


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
