"""Games identical to a stored reference, for every game whose glue names reference set-ups
(``REFERENCE``: set-up and how many games to trace).

``tests/data/<package>_reference.json`` holds SHA-256 digests of every game's row, every seat's
row and a few full traces (game indices 0, ``REFERENCE_TRACE_STEP``, twice that, ...) of each
set-up, written by the kernel at the commit its game's docs name, for every strategy alone and
in mixed lineups, every player count, parameter and rule variants and fixed seats. A change of
how a kernel computes must never change what it computes: any difference in any game fails here.
Trace rows of the events ``REFERENCE_SKIPPED_EVENTS`` (added after the reference was written,
and only reading the state) are left out.

Regenerate (only for a deliberate change of results, and say so in the commit):
``.venv/bin/python -m tests.contract.test_reference GAME``.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.contract.common import contract_game_ids, contract_make, modules

DATA = Path(__file__).resolve().parent.parent / "data"


def reference_setups(game_id: str) -> dict:
    return modules(game_id).option("REFERENCE", {})


def data_file(game_id: str) -> Path:
    package = contract_make(game_id).module.split(".")[-2]
    return DATA / f"{package}_reference.json"


def digest(*arrays: np.ndarray) -> str:
    h = hashlib.sha256()
    for a in arrays:
        h.update(np.ascontiguousarray(a, dtype=np.int64).tobytes())
    return h.hexdigest()


def config_digests(game_id: str, label: str) -> dict:
    """Digests of the games, the seats and the traced games of one set-up."""
    m = modules(game_id)
    setup, traced = reference_setups(game_id)[label]
    encoded = setup.encoded(game_id)
    spec = encoded.spec
    game_out, seat_out = m.kernel.run_chunk(
        encoded.prepared, spec.players, encoded.ids, encoded.params, spec.seed, 0, spec.games,
        spec.rotate_seats,
    )  # fmt: skip
    step = m.option("REFERENCE_TRACE_STEP", 1)
    skipped = m.option("REFERENCE_SKIPPED_EVENTS", ())
    traces = []
    for i in range(traced):
        trace = m.kernel.trace_game(
            encoded.prepared, spec.players, encoded.ids, encoded.params, spec.seed, step * i,
            spec.rotate_seats,
        )  # fmt: skip
        traces.append(trace[~np.isin(trace[:, 0], skipped)])
    return {
        "games": digest(game_out),
        "seats": digest(seat_out),
        "traces": digest(*traces) if traces else "",
        "winners": [int(np.sum(game_out[:, 0] == s)) for s in range(-1, spec.players)],
    }


def reference(game_id: str) -> dict:
    return json.loads(data_file(game_id).read_text())


def _games() -> list[str]:
    return [game_id for game_id in contract_game_ids() if reference_setups(game_id)]


@pytest.mark.parametrize("game_id", _games())
def test_reference_covers_every_strategy_player_count_and_fixed_seats(game_id):
    game = contract_make(game_id)
    setups = [setup for setup, _ in reference_setups(game_id).values()]
    assert set(reference(game_id)) == set(reference_setups(game_id))
    assert {s.players for s in setups} == set(range(game.min_players, game.max_players + 1))
    names = {text.split(":")[0] for s in setups for text in s.lineup} - {"preset"}
    assert names == {s.name for s in game.strategies}
    assert any(not s.rotate for s in setups)


def _cases():
    return [
        pytest.param(game_id, label, id=f"{game_id}-{label}")
        for game_id in _games()
        for label in reference_setups(game_id)
    ]


@pytest.mark.parametrize(("game_id", "label"), _cases())
def test_games_identical_to_the_reference(game_id, label):
    assert config_digests(game_id, label) == reference(game_id)[label]


if __name__ == "__main__":
    game_id = sys.argv[1]
    path = data_file(game_id)
    digests = {label: config_digests(game_id, label) for label in reference_setups(game_id)}
    path.write_text(json.dumps(digests, indent=1) + "\n")
    print(f"wrote {path}")
