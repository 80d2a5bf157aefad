"""POWER wrapped as an OpenSpiel game over the decision-point protocol (tools/openspiel_power.py)
passes OpenSpiel's own random-simulation consistency test, and OpenSpiel's ISMCTSBot plays it
with our determinize as its resampler (docs/ismcts.md)."""

from __future__ import annotations

import sys
from pathlib import Path

import pyspiel
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

import openspiel_power  # noqa: E402


@pytest.mark.parametrize("players", [3, 4, 6])
def test_power_passes_openspiels_random_simulation_test(players):
    game = pyspiel.load_game("python_powerlab_power", {"players": players, "seed": players})
    pyspiel.random_sim_test(game, num_sims=20, serialize=False, verbose=False)


def test_both_searches_play_whole_games():
    for arm in ("ours", "openspiel"):
        results = openspiel_power.play(arm, 2, 8, 0.7)
        assert len(results) == 2 and set(results) <= {0, 1}
