"""Power Struggle plays exactly the games it played before the decision-point protocol (issue 18).

``tests/data/power_struggle_reference.json`` holds SHA-256 digests of every game's row, every
seat's row and a few full traces, written by the kernel at commit 4d8bb25 (before the scripted
path was driven through ``new_game``/``apply`` + ``strategies.power_struggle.decide``), for every
strategy alone and mixed, every player count, parameter and rule variants and fixed seats. A
change of how the kernel computes must never change what it computes.

Regenerate (only for a deliberate change of results, and say so in the commit):
``.venv/bin/python tests/test_power_struggle_reference.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from simcore import registry
from simcore.games.power_struggle import game as kernel
from simcore.workflows import runner
from tests.test_power_reference import _digest

DATA = Path(__file__).parent / "data" / "power_struggle_reference.json"
NEUTRAL = "data=simcore/data/power_struggle_neutral.toml"
MIXED = ["builder", "investor", "corrupter", "board"]
# id: (players, lineup, rule settings, seed, games, rotate seats, traced game indices)
CONFIGS = {
    "3p random": (3, ["random"], [], 201, 300, True, 2),
    "4p builder (bench spec)": (4, ["builder"], [], 202, 300, True, 2),
    "5p consultant": (5, ["consultant"], [], 203, 200, True, 0),
    "4p mixed": (4, MIXED, [], 204, 400, True, 2),
    "4p mixed, fixed seats": (4, MIXED, [], 205, 200, False, 0),
    "5p mixed with random": (5, [*MIXED, "random"], [], 206, 300, True, 2),
    # The tuned presets of 4d8bb25 spelled out, so that re-tuning a preset keeps these games.
    "3p presets and orders": (
        3, ["builder:order=max,offer_extra=-114097,ask_extra=42895.2,p_bribe=0.721619,"
            "departments=6",
            "corrupter:order=self,offer_extra=43027.3,ask_extra=2362.82,p_bribe=0.719784,"
            "departments=5",
            "investor:order=adversarial,ask_extra=300000"], [], 207, 300, True, 2,
    ),
    "4p self and min orders, generous": (
        4, ["builder:order=self", "corrupter:order=min,offer_extra=250000", "board",
            "consultant:departments=8"], [], 208, 300, True, 0,
    ),
    "4p mixed, 5 victory points, neutral deck": (
        4, MIXED, ["victory_points=5", NEUTRAL], 209, 200, True, 2,
    ),
    "5p random and builders, capped": (
        5, ["random", "builder", "random", "builder", "random"], ["max_turns=12"], 210, 200,
        True, 2,
    ),
}  # fmt: skip


def config_digests(config: str) -> dict:
    """Digests of the games, the seats and the traced games of one configuration."""
    players, lineup, settings, seed, games, rotate, n_traces = CONFIGS[config]
    spec = runner.build_spec(
        "power-struggle", players, lineup, settings, seed, games, rotate_seats=rotate
    )
    game = registry.make("power-struggle")
    prepared = kernel.prepare(spec.rules, spec.players)
    ids, params = game.encode_strategies(spec.seat_strategies())
    game_out, seat_out = kernel.run_chunk(
        prepared, players, ids, params, spec.seed, 0, games, spec.rotate_seats
    )
    traces = [
        kernel.trace_game(prepared, players, ids, params, spec.seed, 5 * i, spec.rotate_seats)
        for i in range(n_traces)
    ]
    return {
        "games": _digest(game_out),
        "seats": _digest(seat_out),
        "traces": _digest(*traces) if traces else "",
        "winners": [int(np.sum(game_out[:, 0] == s)) for s in range(-1, players)],
    }


def reference() -> dict:
    return json.loads(DATA.read_text())


def test_reference_covers_every_strategy_player_count_and_fixed_seats():
    assert set(reference()) == set(CONFIGS)
    assert {players for players, *_ in CONFIGS.values()} == {3, 4, 5}
    names = {entry.split(":")[0] for _, lineup, *_ in CONFIGS.values() for entry in lineup}
    assert names - {"preset"} == {s.name for s in registry.make("power-struggle").strategies}
    assert any(not rotate for *_, rotate, _ in CONFIGS.values())


@pytest.mark.parametrize("config", list(CONFIGS))
def test_games_identical_to_the_reference(config):
    assert config_digests(config) == reference()[config]


if __name__ == "__main__":
    DATA.parent.mkdir(exist_ok=True)
    DATA.write_text(json.dumps({c: config_digests(c) for c in CONFIGS}, indent=1) + "\n")
    print(f"wrote {DATA}")
