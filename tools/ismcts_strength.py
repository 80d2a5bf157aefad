"""A game's skill trace: ``ismcts`` against a field of its tuned presets as its iterations grow,
with 95% Wilson intervals, and its cost per game on one core (docs/ismcts.md).

    .venv/bin/python tools/ismcts_strength.py [GAME] GAMES ITERATIONS...

GAME (default ``power``): ``ismcts:iterations=N`` (rollout: the game's default tuned preset)
against the presets of ``FIELDS`` (one seat each: 4 players, Time Barons 2), seats rotated game
by game (seed 1, games 0..GAMES-1), at 1 thread; prints one JSON line per N: the search seat's
wins, win rate and interval (fair share 1/players), and CPU seconds per game.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np
from scipy.stats import binomtest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from simcore import registry  # noqa: E402
from simcore.workflows import runner

FIELDS = {
    "power": ["preset:counter-vs-mixed", "preset:bluffer-vs-mixed", "preset:honest-vs-mixed"],
    "power-barons": ["preset:baron-keep_best", "preset:flusher-vs-barons", "preset:baron-lowest"],
    # the three strongest tuned presets (the meta-game's alpha-rank, docs/games/power-struggle.md)
    "power-struggle": [
        "preset:corrupter-vs-mixed", "preset:builder-vs-mixed", "preset:investor-vs-mixed",
    ],
    # the first three tuned presets of the meta-game's alpha-rank (docs/games/power-the-game.md)
    "power-the-game": [
        "preset:blitz-vs-mixed", "preset:balanced-vs-mixed", "preset:missile-vs-mixed",
    ],
    # the 2-player meta-game's equilibrium (docs/games/time-barons.md)
    "time-barons": ["preset:swarm-vs-builder"],
}  # fmt: skip


def measure(game_id: str, games: int, iterations: int) -> dict:
    game = registry.make(game_id)
    lineup = [f"ismcts:iterations={iterations}", *FIELDS[game_id]]
    players = len(lineup)
    spec = runner.build_spec(game_id, players, lineup, [], 1, games, rotate_seats=True)
    kernel = game.kernel()
    prepared = kernel.prepare(spec.rules, players)
    ids, params = game.encode_strategies(spec.seat_strategies())
    runner.set_threads(1)
    kernel.run_chunk(prepared, players, ids, params, spec.seed, games, 1, True)  # compile / load
    started = time.process_time()
    game_out, seat_out = kernel.run_chunk(prepared, players, ids, params, spec.seed, 0, games, True)
    seconds = time.process_time() - started
    decided = game_out[:, 2] != 3  # games the turn cap cut off have no result
    search_seat_won = (seat_out[:, :, 0] == 0) & (seat_out[:, :, 1] == 1)
    wins = int(np.sum(search_seat_won[decided]))
    n = int(np.sum(decided))
    ci = binomtest(wins, n).proportion_ci(method="wilson")
    return {
        "game": game_id, "iterations": iterations, "games": n, "wins": wins, "rate": wins / n,
        "ci95": [round(ci.low, 4), round(ci.high, 4)], "cpu_s_per_game": seconds / games,
    }  # fmt: skip


def main() -> None:
    args = sys.argv[1:]
    game_id = args.pop(0) if args and not args[0].isdigit() else "power"
    games = int(args[0])
    for iterations in (int(a) for a in args[1:]):
        print(json.dumps(measure(game_id, games, iterations)), flush=True)


if __name__ == "__main__":
    main()
