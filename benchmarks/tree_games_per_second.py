"""Games/s of one source tree's kernel, for A/B runs against another tree in the same minutes.

    PYTHONPATH=TREE NUMBA_CACHE_DIR=CACHE .venv/bin/python benchmarks/tree_games_per_second.py \\
        GAME GAMES REPEATS [busy]

Plays GAMES games of the game's bench spec (its default strategy in every seat, 4 players or the
nearest allowed count, default rules) through the kernel's ``run_chunk`` of the tree first on
``PYTHONPATH``, at 1 and at 2 threads, after a warm-up; prints one JSON line with the best of
REPEATS in wall time. With ``busy``, a Python thread counts in a loop throughout the measurements:
the interpreter's lock is then always wanted, as in a process whose other threads run Python
(a Dask worker, a notebook). Only the kernel API that every tree since 4d8bb25 has is used
(``runner.build_spec``, ``kernel.prepare``, ``kernel.run_chunk``, ``runner.set_threads``), so an
older tree extracted with ``git archive REV | tar -x -C /tmp/old`` runs it unchanged. Give each
tree its own NUMBA_CACHE_DIR, and alternate the trees round by round (docs/performance.md).
"""

import json
import sys
import threading
import time

import simcore
from simcore import registry
from simcore.workflows import runner


def main() -> None:
    game_id, games, repeats = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    busy = sys.argv[4:] == ["busy"]
    game = registry.make(game_id)
    players = registry.table_players(game)
    spec = runner.build_spec(game_id, players, [], [], 1, games, True)
    kernel = game.kernel()
    prepared = kernel.prepare(spec.rules, players)
    ids, params = game.encode_strategies(spec.seat_strategies())
    kernel.run_chunk(prepared, players, ids, params, 1, 0, 1000, True)  # warm-up: compile
    done = threading.Event()

    def count():
        while not done.is_set():
            pass

    if busy:
        threading.Thread(target=count, daemon=True).start()
    rates = {}
    for threads in (1, 2):
        runner.set_threads(threads)
        best = float("inf")
        for _ in range(repeats):
            started = time.perf_counter()
            kernel.run_chunk(prepared, players, ids, params, 1, 0, games, True)
            best = min(best, time.perf_counter() - started)
        rates[threads] = round(games / best)
    done.set()
    tree = simcore.__file__
    print(json.dumps({"game": game_id, "tree": tree, "busy": busy, "games_per_s": rates}))


if __name__ == "__main__":
    main()
