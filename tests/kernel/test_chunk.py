"""The chunk protocol's shared pieces: block split, seating, output layout, trace buffers."""

import hashlib
import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import numba
import numpy as np
import pytest

from simcore import registry
from simcore.kernel import chunk
from simcore.kernel.intrinsics import claim_next

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("n_games, n_blocks", [(1, 1), (10, 3), (100, 64), (64, 64)])
def test_blocks_cover_every_game_once(n_games, n_blocks):
    games = []
    for block in range(n_blocks):
        lo, hi = chunk.block_bounds(n_games, n_blocks, block)
        games.extend(range(lo, hi))
    assert games == list(range(n_games))


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("n_games", [1, 5, 64, 1000])
def test_play_blocks_plays_every_block_once_on_the_threads_asked(n_games, threads):
    calls, played = [], []
    lock = threading.Lock()

    def simulate_blocks(tag, next_block, n_blocks):
        assert tag == "args" and n_blocks == min(n_games, chunk.MAX_BLOCKS)
        calls.append(threading.get_ident())
        while True:
            # Compiled, claim_next is atomic (tests/kernel/test_intrinsics.py); Python is not.
            with lock:
                block = claim_next(next_block)
            if block >= n_blocks:
                return
            played.append(block)

    previous = numba.get_num_threads()
    used = min(threads, numba.config.NUMBA_NUM_THREADS)
    numba.set_num_threads(used)
    try:
        chunk.play_blocks(simulate_blocks, n_games, "args")
    finally:
        numba.set_num_threads(previous)
    assert sorted(played) == list(range(min(n_games, chunk.MAX_BLOCKS)))
    if used == 1 or n_games == 1:  # one call, on the calling thread
        assert calls == [threading.get_ident()]
    else:  # a call for each thread of a pool (a call that ends first may free its thread for
        # the next), which claim the blocks among them; the calling thread only waits
        assert len(calls) == used and len(set(calls)) <= used
        assert threading.get_ident() not in calls


def test_a_failing_call_stops_the_other_threads_after_their_block():
    # Ctrl-C reaches the waiting thread the same way: it ends the wait with an exception.
    played = []
    lock = threading.Lock()
    first_call = threading.Event()

    def simulate_blocks(next_block, n_blocks):
        with lock:
            failing = not first_call.is_set()
            first_call.set()
        while True:
            with lock:
                block = claim_next(next_block)
            if block >= n_blocks:
                return
            played.append(block)
            if failing:
                raise RuntimeError("block failed")
            time.sleep(0.02)

    previous = numba.get_num_threads()
    numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
    try:
        with pytest.raises(RuntimeError, match="block failed"):
            chunk.play_blocks(simulate_blocks, 1000)
    finally:
        numba.set_num_threads(previous)
    # Of 64 blocks (one thread: the failing call's first, on the calling thread).
    assert 1 <= len(played) < 10


def test_seat_lineup_rotates_every_entry_through_every_seat():
    players = 3
    lineup_ids = np.array([10, 11, 12], dtype=np.int64)
    lineup_params = np.arange(6, dtype=np.float64).reshape(3, 2)
    _, seat_out = chunk.new_outputs(players, players, 3, 2)
    sids = np.zeros(players, dtype=np.int64)
    prm = np.zeros((players, 2))
    seen = set()
    for game_index in range(players):
        chunk.seat_lineup(
            lineup_ids, lineup_params, game_index, players, True, sids, prm, seat_out, game_index
        )
        for seat in range(players):
            slot = (seat + game_index) % players
            assert seat_out[game_index, seat, chunk.LINEUP_SLOT] == slot
            assert sids[seat] == lineup_ids[slot]
            assert (prm[seat] == lineup_params[slot]).all()
            seen.add((seat, slot))
    assert len(seen) == players * players

    chunk.seat_lineup(lineup_ids, lineup_params, 5, players, False, sids, prm, seat_out, 0)
    assert sids.tolist() == [10, 11, 12]


@pytest.mark.parametrize("game_id", registry.game_ids())
@pytest.mark.parametrize("entries_off", [-1, 1])
def test_every_kernel_refuses_a_lineup_without_one_entry_per_seat(game_id, entries_off):
    # A lineup one entry short once let the POWER kernel read past its end: the games depended on
    # whatever memory followed, and differed between machines.
    game = registry.make(game_id)
    kernel = game.kernel()
    players = game.min_players
    prepared = kernel.prepare(game.rules_with_defaults({}), players)
    default = registry.parse_strategy(game, game.default_strategy)
    ids, params = game.encode_strategies([default] * (players + entries_off))
    with pytest.raises(ValueError, match=f"for {players} seats"):
        kernel.run_chunk(prepared, players, ids, params, 1, 0, 10, True)
    with pytest.raises(ValueError, match=f"for {players} seats"):
        kernel.trace_game(prepared, players, ids, params, 1, 0, True)
    ids, params = game.encode_strategies([default] * players)
    with pytest.raises(ValueError, match=f"for {players} seats"):
        kernel.run_chunk(prepared, players, ids, params[:-1], 1, 0, 10, True)


def test_outputs_are_zeroed_and_columns_contiguous():
    game_out, seat_out = chunk.new_outputs(7, 4, 5, 3)
    assert game_out.shape == (7, 5) and seat_out.shape == (7, 4, 3)
    assert not game_out.any() and not seat_out.any()
    assert game_out[:, 2].flags.c_contiguous and seat_out[:, 1, 2].flags.c_contiguous


def test_a_trace_that_fills_its_buffer_is_played_again_bigger():
    events = 100
    trace_len_at = 0
    plays = []

    def play(st, trace):
        plays.append(trace.shape[0])
        for event in range(events):
            chunk.record_event(trace, st, trace_len_at, 1, event)

    trace = chunk.trace_one_game(play, 8, 1, trace_len_at, 8)
    assert plays == [8, 32, 128]
    assert trace.shape == (events, 8)
    assert trace[:, 1].tolist() == list(range(events))


def test_recording_into_an_empty_trace_costs_nothing():
    st = np.zeros(1, dtype=np.int64)
    chunk.record_event(np.zeros((0, 8), dtype=np.int64), st, 0, 1, 2)
    assert st[0] == 0


def test_outputs_of_one_game_have_the_types_of_many():
    # A one-game chunk (chunk size 1, a run's last chunk) must not compile the kernels again.
    from numba import typeof

    one, many = chunk.new_outputs(1, 3, 5, 2), chunk.new_outputs(9, 3, 5, 2)
    assert [typeof(a) for a in one] == [typeof(a) for a in many]


# Plays 50 games of POWER and of Power Barons, default strategies at 3 players, through each
# game's generic block loop; prints each game's output digest and the loop's cache hits and misses.
CHUNK_PROBE = """
import json, sys
sys.path.insert(0, {root!r})
from tests.kernel.test_chunk import scripted_chunk_digest
from simcore import registry
out = {{}}
for game_id in ("power", "power-barons"):
    digest = scripted_chunk_digest(game_id)
    loop = registry.make(game_id).kernel().CHUNKS.simulate_blocks
    hits, misses = loop.stats.cache_hits.values(), loop.stats.cache_misses.values()
    out[game_id] = [digest, sum(hits), sum(misses)]
print(json.dumps(out))
"""


def scripted_chunk_digest(game_id: str) -> str:
    game = registry.make(game_id)
    kernel = game.kernel()
    prepared = kernel.prepare(game.rules_with_defaults({}), 3)
    ids, params = game.encode_strategies([registry.parse_strategy(game, game.default_strategy)] * 3)
    game_out, seat_out = kernel.run_chunk(prepared, 3, ids, params, 11, 0, 50, True)
    digest = hashlib.sha256(np.ascontiguousarray(game_out).tobytes())
    digest.update(np.ascontiguousarray(seat_out).tobytes())
    return digest.hexdigest()


def test_each_games_block_loop_is_cached_apart_and_loads_in_a_second_process():
    # One source compiled per game (chunk.compile_in): numba names cache files by file, name and
    # line, so each game's loop must carry its own module's file name, or one game would load
    # another's compiled loop.
    loops = [registry.make(g).kernel().CHUNKS.simulate_blocks for g in ("power", "power-barons")]
    # Both games' loops are compiled in a file named game.py: numba keeps their caches apart by
    # the folder of that file (its cache locator's subpath), not by the file's name.
    index_files = [Path(loop._cache._cache_file._index_path) for loop in loops]
    assert all(path.name.startswith("game.simulate_blocks-") for path in index_files)
    assert index_files[0].parent != index_files[1].parent

    def probe():
        out = subprocess.run(
            [sys.executable, "-c", CHUNK_PROBE.format(root=str(ROOT))],
            capture_output=True, text=True, cwd=ROOT, check=True,
        )  # fmt: skip
        return json.loads(out.stdout.strip().splitlines()[-1])

    probe()  # compiles what is not cached yet
    second = probe()
    for game_id, (digest, hits, misses) in second.items():
        assert (hits, misses) == (1, 0), second
        assert digest == scripted_chunk_digest(game_id)  # this process's games, its own rules
