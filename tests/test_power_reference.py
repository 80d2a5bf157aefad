"""POWER plays exactly the games it played before the speed-ups of issue 22.

``tests/data/power_reference.json`` holds SHA-256 digests of every game's row, every seat's row
and a few full traces, written by the kernel at commit cd4d246 (before any speed-up), for every
strategy alone and in mixed lineups, every player count, targeting and parameter variants, rule
variants and fixed seats. A speed-up may change how the kernel computes, never what it computes:
any difference in any game fails here.

Regenerate (only for a deliberate change of results, and say so in the commit):
``.venv/bin/python tests/test_power_reference.py``.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from simcore import registry
from simcore.games.power import game as kernel
from simcore.workflows import runner

DATA = Path(__file__).parent / "data" / "power_reference.json"
MIXED = ["random", "honest", "bluffer", "counter"]
# id: (players, lineup, rule settings, seed, games, rotate seats, traced game indices)
CONFIGS = {
    "3p random": (3, ["random"], [], 101, 2000, True, 4),
    "4p random": (4, ["random"], [], 102, 2000, True, 0),
    "6p random": (6, ["random"], [], 103, 1000, True, 4),
    "3p honest": (3, ["honest"], [], 104, 2000, True, 0),
    "4p honest": (4, ["honest"], [], 105, 2000, True, 4),
    "5p honest, richest": (5, ["honest:targeting=richest"], [], 106, 2000, True, 0),
    "4p bluffer": (4, ["bluffer"], [], 107, 2000, True, 4),
    "6p bluffer, bold": (
        6, ["bluffer:p_bluff=0.7,p_challenge=0.5,p_block_bluff=0.6"], [], 108, 1000, True, 0,
    ),
    "3p counter": (3, ["counter"], [], 109, 3000, True, 4),
    "4p counter (bench spec)": (4, ["counter"], [], 110, 4000, True, 4),
    "5p counter": (5, ["counter"], [], 111, 2000, True, 0),
    "6p counter": (6, ["counter"], [], 112, 2000, True, 4),
    "4p counter, bluffing, most influence": (
        4, ["counter:threshold=0.35,p_bluff=0.25,targeting=most_influence"], [], 113, 2000, True, 0,
    ),
    "4p counter, random targets": (4, ["counter:targeting=random"], [], 114, 2000, True, 0),
    "3p mixed": (3, ["counter", "bluffer", "honest"], [], 115, 2000, True, 4),
    "4p mixed": (4, MIXED, [], 116, 4000, True, 4),
    "4p mixed, fixed seats": (4, MIXED, [], 117, 2000, False, 4),
    "5p mixed": (5, MIXED + ["counter:threshold=0.3"], [], 118, 2000, True, 0),
    "6p mixed, fixed seats": (
        6, MIXED + ["counter:targeting=richest", "bluffer:targeting=random"], [], 119, 2000,
        False, 4,
    ),
    "4p mixed, random challenge order": (
        4, MIXED, ["challenge_order=random"], 120, 2000, True, 4,
    ),
    "5p mixed, 2 copies, no refunds, coins kept": (
        5,
        MIXED + ["counter"],
        ["copies_per_character=2", "refund_failed_action=false", "eliminated_coins_to_safe=false"],
        121, 2000, True, 4,
    ),
    "4p counter, Safe of 12, 4 copies": (
        4, ["counter"], ["safe_size=12", "copies_per_character=4"], 122, 2000, True, 0,
    ),
    "6p mixed, cheap and rich, capped": (
        6,
        MIXED + ["counter", "bluffer"],
        [
            "starting_coins=5", "overthrow_cost=5", "forced_overthrow_at=8", "ceo_cost=1",
            "banker_take=4", "steal=3", "aid=3", "max_turns=30",
        ],
        123, 1000, True, 4,
    ),
    "3p random, nothing to take": (
        3, ["random", "counter", "honest"],
        ["income=0", "aid=0", "banker_take=0", "steal=0", "starting_coins=0", "safe_size=3",
         "max_turns=60"],
        124, 1000, True, 0,
    ),
}  # fmt: skip


def _digest(*arrays: np.ndarray) -> str:
    h = hashlib.sha256()
    for a in arrays:
        h.update(np.ascontiguousarray(a, dtype=np.int64).tobytes())
    return h.hexdigest()


def without_standing(trace: np.ndarray) -> np.ndarray:
    """The trace without its standing rows (docs/arcs.md): added after the reference was
    written, they only read the state, so every other row must stay as it was."""
    return trace[trace[:, 0] != kernel.EV_STANDING]


def config_digests(config: str) -> dict:
    """Digests of the games, the seats and the traced games of one configuration."""
    players, lineup, settings, seed, games, rotate, n_traces = CONFIGS[config]
    spec = runner.build_spec("power", players, lineup, settings, seed, games, rotate_seats=rotate)
    game = registry.make("power")
    prepared = kernel.prepare(spec.rules, spec.players)
    ids, params = game.encode_strategies(spec.seat_strategies())
    game_out, seat_out = kernel.run_chunk(
        prepared, players, ids, params, spec.seed, 0, games, spec.rotate_seats
    )
    traces = [
        without_standing(
            kernel.trace_game(prepared, players, ids, params, spec.seed, 7 * i, spec.rotate_seats)
        )
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
    assert {players for players, *_ in CONFIGS.values()} == {3, 4, 5, 6}
    names = {entry.split(":")[0] for _, lineup, *_ in CONFIGS.values() for entry in lineup}
    assert names == {s.name for s in registry.make("power").strategies}
    assert any(not rotate for *_, rotate, _ in CONFIGS.values())


@pytest.mark.parametrize("config", list(CONFIGS))
def test_games_identical_to_the_reference(config):
    assert config_digests(config) == reference()[config]


if __name__ == "__main__":
    DATA.parent.mkdir(exist_ok=True)
    DATA.write_text(json.dumps({c: config_digests(c) for c in CONFIGS}, indent=1) + "\n")
    print(f"wrote {DATA}")
