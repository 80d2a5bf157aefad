"""Every game on the decision-point protocol, wrapped as an OpenSpiel game
(tools/openspiel_games.py), passes OpenSpiel's own random-simulation consistency test, and
OpenSpiel's ISMCTSBot plays it with our determinize as its resampler (docs/ismcts.md)."""

from __future__ import annotations

import sys
from pathlib import Path

import pyspiel
import pytest

from simcore import registry

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import openspiel_games  # noqa: E402

CASES = [
    (game_id, players)
    for game_id in openspiel_games.protocol_games()
    for players in sorted({registry.make(game_id).min_players, registry.make(game_id).max_players})
]


@pytest.mark.parametrize("game_id,players", CASES)
def test_passes_openspiels_random_simulation_test(game_id, players):
    # 5 whole games each: a game of POWER: The Game or Time Barons costs seconds through Python
    game = pyspiel.load_game(
        openspiel_games.openspiel_name(game_id), {"players": players, "seed": players}
    )
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)


@pytest.mark.parametrize("game_id", openspiel_games.protocol_games())
def test_both_searches_play_whole_games(game_id):
    for arm in ("ours", "openspiel"):
        results = openspiel_games.play(game_id, arm, 2, 8, 0.7)
        assert len(results) == 2 and set(results) <= {0, 1}
