"""Every kernel runs as plain Python (``NUMBA_DISABLE_JIT=1``) and plays exactly the games it plays
compiled.

Plain Python is how a kernel is stepped through in a debugger and how `powerlab bench
--python-ratio` measures the JIT speed-up; a construct only numba can run (an intrinsic, say)
would break both without any compiled test noticing.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from simcore import registry
from simcore.kernel import chunk

ROOT = Path(__file__).resolve().parents[2]
GAMES_EACH = 3
SEED = 2718

PLAY = """
import json, sys
from simcore import registry
game = registry.make(sys.argv[1])
players, seed, n_games = (int(a) for a in sys.argv[2:])
kernel = game.kernel()
rules = game.rules_with_defaults({})
default = registry.parse_strategy(game, game.default_strategy)
ids, params = game.encode_strategies([default] * players)
game_out, seat_out = kernel.run_chunk(
    kernel.prepare(rules, players), players, ids, params, seed, 0, n_games, True
)
json.dump([game_out.tolist(), seat_out.tolist()], sys.stdout)
"""


def play(game_id: str, players: int, plain_python: bool) -> list:
    """The games' rows as lists, played in a child process compiled or as plain Python."""
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1" if plain_python else "0"}
    child = subprocess.run(
        [sys.executable, "-c", PLAY, game_id, str(players), str(SEED), str(GAMES_EACH)],
        env=env,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=900,
    )
    assert child.returncode == 0, child.stderr.strip().splitlines()[-1:]
    return json.loads(child.stdout)


@pytest.mark.parametrize("game_id", registry.game_ids())
def test_plain_python_plays_the_compiled_games(game_id):
    game = registry.make(game_id)
    compiled = play(game_id, game.min_players, plain_python=False)
    columns = chunk.N_STANDARD_GAME_COLUMNS + len(game.game_columns)
    assert np.array(compiled[0]).shape == (GAMES_EACH, columns), "no games were played"
    assert play(game_id, game.min_players, plain_python=True) == compiled
