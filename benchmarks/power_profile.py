"""Where a POWER game's time goes: decisions per game by kind, and ns per decision by kind.

    .venv/bin/python benchmarks/power_profile.py [GAMES]

Counts come from playing GAMES games (default 300) of the bench spec (4 players, ``counter``,
default rules) as plain Python (the kernel's own code, NUMBA_DISABLE_JIT=1, in a child process)
with a counter around each strategy decision. Times come from the compiled code, in CPU time (the
machine is shared): each decision asked a million times in a loop on a dealt 4-player state, and
whole games at 1 thread. A decision timed alone runs with warm caches and learnt branches, so
these are lower bounds of its cost inside a game.
"""

import json
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DECISIONS = ("choose_action", "wants_to_challenge", "choose_block", "choose_card_to_lose")
HELPERS = ("choose_target",)


def bench_spec():
    from simcore import registry
    from simcore.games.power import game as power
    from simcore.workflows import runner

    spec = runner.build_spec("power", 4, ["counter"], [], 1, 1, rotate_seats=True)
    ids, params = registry.make("power").encode_strategies(spec.seat_strategies())
    return power.prepare(spec.rules, 4), ids, params


def count_decisions(games: int) -> dict:
    """Run in a NUMBA_DISABLE_JIT=1 child: calls per game of each decision and rule step."""
    from simcore.games.power import game as power
    from simcore.games.power import scripted as power_turns
    from strategies import power as strategy

    counts = Counter()

    def counted(module, name):
        original = getattr(module, name)

        def wrapper(*args):
            counts[name] += 1
            return original(*args)

        setattr(module, name, wrapper)

    for name in DECISIONS + HELPERS:
        counted(strategy, name)
    for name in ("take_turn", "challenge_round", "offer_block", "lose_influence", "exchange"):
        counted(power_turns, name)
    rules, ids, params = bench_spec()
    game_out, _ = power.run_chunk(rules, 4, ids, params, 1, 0, games, True)
    per_game = {name: counts[name] / games for name in sorted(counts, key=lambda n: -counts[n])}
    return {"turns": float(game_out[:, 1].mean()), "per_game": per_game}


def time_decisions(repeat: int = 1_000_000) -> dict:
    from numba import njit

    from simcore.games.power import game as power
    from simcore.games.power.state import AID, FACE_UP, STATE_SIZE, TRACE_WIDTH
    from strategies import power as strategy

    rules, ids, params = bench_spec()
    st = np.zeros(STATE_SIZE, np.int64)
    rng = np.zeros(4, np.uint64)
    power.seed_game_stream(1, 0, rng)
    power.deal(4, st, rules, rng, np.zeros((0, TRACE_WIDTH), np.int64))
    st[FACE_UP] = 0
    sid = ids[0]

    # The loops cycle through seats and characters with counters, not ``%``: a division would
    # cost as much as some of the decisions.
    @njit
    def action_loop(n, st, rules, prm, rng):
        s = 0
        me = 0
        for _ in range(n):
            a, t = strategy.choose_action(sid, prm, me, 4, st, rules, False, rng)
            s += a + t
            me = 0 if me == 3 else me + 1
        return s

    @njit
    def challenge_loop(n, st, rules, prm, rng):
        s = 0
        me = 1
        character = 0
        for _ in range(n):
            odds = strategy.round_odds(0, character, st, rules)
            s += strategy.wants_to_challenge(sid, prm, me, character, odds, st, rng)
            me = 1 if me == 3 else me + 1
            character = 0 if character == 4 else character + 1
        return s

    @njit
    def block_loop(n, st, rules, prm, rng):
        s = 0
        me = 1
        for _ in range(n):
            s += strategy.choose_block(sid, prm, me, AID, 4, st, rules, rng)
            me = 1 if me == 3 else me + 1
        return s

    @njit
    def target_loop(n, st, rng):
        s = 0
        me = 0
        for _ in range(n):
            s += strategy.choose_target(0, me, 4, st, False, 0, rng)
            me = 0 if me == 3 else me + 1
        return s

    loops = {
        "choose_action": lambda n: action_loop(n, st, rules, params, rng),
        "wants_to_challenge": lambda n: challenge_loop(n, st, rules, params, rng),
        "choose_block (Aid)": lambda n: block_loop(n, st, rules, params, rng),
        "choose_target (leader)": lambda n: target_loop(n, st, rng),
    }
    ns = {}
    for name, loop in loops.items():
        loop(1000)
        best = float("inf")
        for _ in range(3):
            start = time.process_time()
            loop(repeat)
            best = min(best, time.process_time() - start)
        ns[name] = round(best / repeat * 1e9, 1)
    assert st[FACE_UP] == 0  # the decisions only read the state
    return ns


def time_games(games: int = 200_000) -> dict:
    from simcore.games.power import game as power

    rules, ids, params = bench_spec()
    power.run_chunk(rules, 4, ids, params, 1, 0, 1000, True)
    start = time.process_time()
    game_out, _ = power.run_chunk(rules, 4, ids, params, 1, 0, games, True)
    seconds = time.process_time() - start
    turns = game_out[:, 1].sum()
    return {"us_per_game": seconds / games * 1e6, "ns_per_turn": seconds / turns * 1e9}


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--count":
        print(json.dumps(count_decisions(int(sys.argv[2]))))
        return
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    child = subprocess.run(
        [sys.executable, __file__, "--count", str(games)],
        env={**os.environ, "NUMBA_DISABLE_JIT": "1", "PYTHONWARNINGS": "ignore"},
        capture_output=True,
        text=True,
        check=True,
    )
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")
    report = {
        "counts": json.loads(child.stdout),
        "ns_per_decision_alone": time_decisions(),
        "games_1_thread_cpu": time_games(),
    }
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
