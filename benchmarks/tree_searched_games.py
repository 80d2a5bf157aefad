"""CPU seconds a searched game in one source tree, and a digest of the games, for A/B runs of the
search (simcore/kernel/ismcts.py) against another tree in the same minutes.

    PYTHONPATH=TREE .venv/bin/python benchmarks/tree_searched_games.py GAME PLAYERS GAMES \\
        [STRATEGY]

Plays GAMES games with STRATEGY (default ``ismcts``, the search at its defaults) in every seat
(a mirror: every seat searches) through the kernel's ``run_chunk`` on one thread, after one
game to compile, and prints one JSON line: CPU seconds a game (the process's, so another load on
the machine counts less than in wall time) and a SHA-256 of the game and seat rows. Two trees
that must play the same games print the same digest. ``PYTHONPATH`` picks the tree (the
installed one otherwise); each tree keeps its own numba cache in its ``__pycache__``. Alternate
the trees round by round (docs/performance.md, "Measuring").
"""

import hashlib
import json
import sys
import time

import simcore
from simcore import registry
from simcore.workflows import runner


def main() -> None:
    game_id, players, games = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    strategy = sys.argv[4] if len(sys.argv) > 4 else registry.SEARCH
    game = registry.make(game_id)
    spec = runner.build_spec(game_id, players, [strategy], [], 7, games, True)
    kernel = game.kernel()
    prepared = kernel.prepare(spec.rules, players)
    ids, params = game.encode_strategies(spec.seat_strategies())
    runner.set_threads(1)
    kernel.run_chunk(prepared, players, ids, params, 7, 0, 1, True)  # compile (or load)
    started = time.process_time()
    game_out, seat_out = kernel.run_chunk(prepared, players, ids, params, 7, 0, games, True)
    seconds = time.process_time() - started
    digest = hashlib.sha256(game_out.tobytes() + seat_out.tobytes()).hexdigest()[:16]
    print(json.dumps({
        "game": game_id, "players": players, "games": games, "strategy": strategy,
        "cpu_s_a_game": round(seconds / games, 4), "rows": digest, "tree": simcore.__file__,
    }))  # fmt: skip


if __name__ == "__main__":
    main()
