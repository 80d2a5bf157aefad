"""The referee sweeps: every game of a set-up of a game's glue (``REFEREE``) traced by the kernel
and replayed by the game's own pure-Python referee (tests/<package>_referee.py, reached through
the glue's ``referee(sweep, trace, label)``), and the helpers of the tamper tests that prove a
referee can fail. tests/contract/test_referees.py runs the sweeps; each game's
tests/test_<package>_referee.py reads them for its own checks (corners met, chance, tampering).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

import numpy as np
import pytest

from simcore import registry
from tests.contract.common import Encoded, Setup, contract_make, modules, play_one


@dataclass
class Sweep:
    """One set-up's games as the kernel traced them: ``traces`` is [(label, trace), ...] and
    ``rows`` the (game row, seat rows) each traced game wrote, by game index."""

    game: registry.Game
    label: str
    setup: Setup
    encoded: Encoded
    traces: list[tuple[str, np.ndarray]]
    rows: list[tuple[np.ndarray, np.ndarray]]
    _chunk: tuple | None = field(default=None, repr=False)

    @property
    def rules(self) -> dict:
        return self.encoded.rules

    @property
    def players(self) -> int:
        return self.encoded.players

    @property
    def prepared(self):
        return self.encoded.prepared

    @property
    def spec(self):
        return self.encoded.spec

    def chunk(self) -> tuple[np.ndarray, np.ndarray]:
        """(game_out, seat_out) of the same games played by ``run_chunk``, without a trace."""
        if self._chunk is None:
            encoded, spec = self.encoded, self.encoded.spec
            self._chunk = self.game.kernel().run_chunk(
                encoded.prepared, spec.players, encoded.ids, encoded.params, spec.seed, 0,
                spec.games, spec.rotate_seats,
            )  # fmt: skip
        return self._chunk


def setups(game_id: str) -> dict[str, Setup]:
    """The game's sweep (empty without a referee)."""
    return modules(game_id).option("REFEREE", {})


@cache
def sweep(game_id: str, label: str) -> Sweep:
    """The games of a set-up, traced as ``trace_game`` traces them."""
    setup = setups(game_id)[label]
    encoded = setup.encoded(game_id)
    spec = encoded.spec
    searching = bool(np.any(encoded.ids == registry.SEARCH_ID))
    traces, rows = [], []
    for index in range(spec.games):
        game_row, seat_rows, trace, _ = play_one(game_id, encoded, index, searching)
        traces.append((f"{label} (seed {spec.seed}, game {index})", trace))
        rows.append((game_row[0], seat_rows[0]))
    return Sweep(contract_make(game_id), label, setup, encoded, traces, rows)


def traced(game_id: str, label: str) -> tuple:
    """(rules, players, [(label, trace), ...]) of a set-up."""
    games = sweep(game_id, label)
    return games.rules, games.players, games.traces


@cache
def refereed(game_id: str, label: str) -> list:
    """The referee's final table of every game of a set-up, by game index."""
    games = sweep(game_id, label)
    referee = modules(game_id).glue.referee
    return [referee(games, trace, where) for where, trace in games.traces]


def first(trace, event, condition=lambda row: True) -> int:
    """The index of the first row of ``event`` that meets ``condition``."""
    return next(i for i, row in enumerate(trace) if row[0] == event and condition(row))


def caught(replay, index: int) -> str:
    """The referee's message when ``replay()`` fails at trace row ``index``, as a referee
    reports a disagreement: what it expected and what the kernel wrote."""
    with pytest.raises(AssertionError, match=rf"trace row {index}: expected") as failure:
        replay()
    assert "the kernel wrote" in str(failure.value)
    return str(failure.value)
