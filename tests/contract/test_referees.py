"""Every game with a referee (tests/<package>_referee.py) against it: each trace of the game's
sweep (its glue's ``REFEREE``: at least 1,000 games, every player count, every strategy) is
replayed by the referee, which checks each decision and chance outcome and computes every
consequence itself, so a kernel transition it disagrees with fails here. The chunk kernel plays
the same games without a trace (the same rows), and the game's own end checks hold (glue
``referee_agrees``).
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.contract.common import contract_game_ids, contract_make, modules
from tests.contract.referees import refereed, setups, sweep


def refereed_games() -> list[str]:
    return [game_id for game_id in contract_game_ids() if setups(game_id)]


@pytest.mark.parametrize("game_id", refereed_games())
def test_the_sweep_covers_1000_games_every_player_count_and_every_strategy(game_id):
    game = contract_make(game_id)
    configs = setups(game_id).values()
    assert sum(setup.games for setup in configs) >= 1000
    assert {setup.players for setup in configs} == set(
        range(game.min_players, game.max_players + 1)
    )
    used = {text.split(":")[0] for setup in configs for text in setup.lineup}
    assert used == {s.name for s in game.strategies}


def _cases():
    return [
        pytest.param(game_id, label, id=f"{game_id}-{label}")
        for game_id in refereed_games()
        for label in setups(game_id)
    ]


@pytest.mark.parametrize(("game_id", "label"), _cases())
def test_the_referee_agrees_with_every_kernel_transition(game_id, label):
    tables = refereed(game_id, label)
    games = sweep(game_id, label)
    agrees = modules(game_id).option("referee_agrees", lambda *args: None)
    game_out, seat_out = games.chunk()
    for index, (table, (where, trace)) in enumerate(zip(tables, games.traces, strict=True)):
        traced_game, traced_seats = games.rows[index]
        np.testing.assert_array_equal(traced_game, game_out[index], err_msg=where)
        np.testing.assert_array_equal(traced_seats, seat_out[index], err_msg=where)
        try:
            agrees(games, index, table, trace)
        except AssertionError as error:
            raise AssertionError(f"{where}: {error}") from error
