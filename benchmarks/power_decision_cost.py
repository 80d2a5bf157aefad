"""POWER's cost per decision, scripted and through the protocol, in one source tree's kernel.

    PYTHONPATH=TREE NUMBA_CACHE_DIR=CACHE taskset -c 0 .venv/bin/python \\
        benchmarks/power_decision_cost.py REPEATS [DECISIONS_PER_GAME]

Plays the same 20,000 games of the bench spec (4 × ``counter``, default rules, seed 1) as scripted
games (``run_chunk``) and, where the tree has the protocol (``bench_protocol``, since bed1d58),
one decision at a time through it; prints one JSON line with the CPU time per decision of each,
best and median of REPEATS, at 1 thread. Decisions are counted by the protocol
(``P_DECISIONS``); for an older tree without it, give DECISIONS_PER_GAME from a newer tree's run:
every tree plays the same games (tests/contract/test_reference.py). docs/performance.md, issue 22,
"The protocol's 4× against the scripted game".
"""

import json
import sys
import time

from simcore import registry
from simcore.workflows import runner

GAMES = 20_000


def ns_per_decision(play, decisions: float, repeats: int) -> list[float]:
    """Best and median CPU nanoseconds per decision of ``play()`` over ``repeats`` runs."""
    seconds = []
    for _ in range(repeats):
        started = time.process_time()
        play()
        seconds.append(time.process_time() - started)
    seconds.sort()
    return [round(1e9 * s / decisions, 2) for s in (seconds[0], seconds[len(seconds) // 2])]


def main() -> None:
    repeats = int(sys.argv[1])
    game = registry.make("power")
    spec = runner.build_spec("power", 4, [], [], 1, GAMES, True)
    kernel = game.kernel()
    prepared = kernel.prepare(spec.rules, 4)
    ids, params = game.encode_strategies(spec.seat_strategies())
    runner.set_threads(1)
    kernel.run_chunk(prepared, 4, ids, params, 1, 0, 100, True)  # warm-up: compile
    result = {}
    if hasattr(kernel, "bench_protocol"):
        decisions, _ = kernel.bench_protocol(prepared, 4, ids, params, 1, GAMES)
        result["protocol_ns"] = ns_per_decision(
            lambda: kernel.bench_protocol(prepared, 4, ids, params, 1, GAMES), decisions, repeats
        )
    else:
        decisions = float(sys.argv[2]) * GAMES
    result["scripted_ns"] = ns_per_decision(
        lambda: kernel.run_chunk(prepared, 4, ids, params, 1, 0, GAMES, True), decisions, repeats
    )
    result["decisions_per_game"] = decisions / GAMES
    print(json.dumps(result))


if __name__ == "__main__":
    main()
