"""Every game's runs are reproducible: a game's row is a pure function of (game, rules, seat
strategies, seed, game index), through ``simcore.workflows.runner`` and the chunk kernel.

- The same spec gives the same table again, on one thread or on two, in any chunk size, as
  shards, and after half a run resumed; games recomputed on their own in odd-sized chunks equal
  those of the whole run; another seed gives other games.
- The traced game is the chunk game: played with its trace (``trace_game``'s) it writes the
  chunk's rows, and ``describe_trace`` reads the trace to its end.
- The standard columns hold together: the winner in range and the only seat marked won (none,
  or several sharing a win, without one); capped games and draws without a winner, games ended
  by the rules with one; turns within the turn cap, the cap exactly when cut off; seats rotated
  as the lineup says.

Sizes: the game's glue (``DETERMINISM``), else 1,000 games of every strategy at the table.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from pathlib import Path

import numba
import numpy as np
import pyarrow as pa
import pytest

from simcore.kernel import chunk
from simcore.workflows import runner, storage
from tests.contract.common import (
    Setup,
    contract_game_ids,
    default_lineup,
    lineup_slot,
    modules,
    play_one,
    table,
)


def determinism_setup(game_id: str) -> Setup:
    m = modules(game_id)
    players = m.game.min_players
    default = Setup(players, default_lineup(m.game, players), seed=11, games=1000)
    return m.option("DETERMINISM", default)


def file_hashes(out: Path) -> dict[str, str]:
    return {
        str(path.relative_to(out)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(Path(out).rglob("*"))
        if path.is_file() and path.name != "run.json"
    }


@pytest.fixture(scope="module", params=contract_game_ids())
def reference(request, tmp_path_factory):
    """(game id, set-up, table) of the reference run: 1 thread, chunks of 1000."""
    game_id = request.param
    setup = determinism_setup(game_id)
    out = tmp_path_factory.mktemp("reference")
    runner.run(setup.spec(game_id), out, threads=1, chunk_size=1000)
    result = table(out)
    assert result.num_rows == setup.games
    assert result.column("game_index").to_pylist() == list(range(setup.games))
    return game_id, setup, result


def test_thread_count_does_not_change_results(reference, tmp_path):
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("needs 2 numba threads")
    game_id, setup, games = reference
    info = runner.run(setup.spec(game_id), tmp_path, threads=2, chunk_size=1000)
    assert info["timings"]["threads"] == 2
    assert table(tmp_path).equals(games)


def test_chunk_size_does_not_change_results(reference, tmp_path):
    """The same spec run again, in chunks of another size, gives the same table."""
    game_id, setup, games = reference
    size = setup.games // 3 + 7  # parts of another size, the last a remainder
    runner.run(setup.spec(game_id), tmp_path, chunk_size=size)
    assert table(tmp_path).equals(games)


def test_half_run_then_resume_equals_one_run(reference, tmp_path):
    """Half the games in chunks of one size, then the rest in chunks of another."""
    game_id, setup, games = reference
    half = setup.games // 2
    first = runner.run(setup.spec(game_id, half), tmp_path, chunk_size=setup.games // 8 + 1)
    assert first["timings"]["games_computed"] == half
    assert table(tmp_path).equals(games.slice(0, half))
    second = runner.run(setup.spec(game_id), tmp_path, chunk_size=1000)
    assert second["timings"]["games_computed"] == setup.games - half
    assert second["spec"]["games"] == setup.games
    assert table(tmp_path).equals(games)
    # A third run of the complete spec computes nothing and changes nothing.
    before = file_hashes(tmp_path)
    third = runner.run(setup.spec(game_id), tmp_path, chunk_size=1000)
    assert third["timings"]["games_computed"] == 0
    assert file_hashes(tmp_path) == before


def test_results_depend_on_the_game_index_alone(reference, tmp_path):
    """The second half of a run's first games, recomputed on their own in odd-sized chunks,
    equals the whole run's."""
    game_id, setup, games = reference
    total = setup.games * 2 // 5
    size = max(1, total // 8)
    spec = setup.spec(game_id, total)
    runner.run(spec, tmp_path, chunk_size=size)
    half = total // 2
    parts = storage.parts(tmp_path, storage.read_run_json(tmp_path))
    removed = [part for part in parts if part.first >= half]
    for part in removed:
        part.path(tmp_path).unlink()
    odd = max(1, size // 3)
    info = runner.run(spec, tmp_path, chunk_size=odd)
    assert info["timings"]["games_computed"] == sum(part.count for part in removed) > 0
    parts = storage.parts(tmp_path, storage.read_run_json(tmp_path))
    assert max(part.count for part in parts if part.first >= removed[0].first) == odd
    assert table(tmp_path).equals(games.slice(0, total))


def test_shards_together_are_the_run(reference, tmp_path):
    game_id, setup, games = reference
    first = min(setup.games, 2000)
    spec = setup.spec(game_id, first)
    for k in (1, 2):
        runner.run(spec, tmp_path / f"shard{k}", chunk_size=first // 5 + 1, shard=(k, 2))
    shards = pa.concat_tables([table(tmp_path / f"shard{k}") for k in (1, 2)])
    assert shards.sort_by("game_index").equals(games.slice(0, first))


def test_different_seeds_give_different_games(reference, tmp_path):
    game_id, setup, games = reference
    first = min(setup.games, 2000)
    runner.run(replace(setup, seed=setup.seed + 1).spec(game_id, first), tmp_path)
    other = table(tmp_path)
    assert not other.equals(games.slice(0, first))
    turns = games.column("turns").to_numpy()[:first]
    assert np.mean(other.column("turns").to_numpy() == turns) < 0.5


# --- the chunk kernel ------------------------------------------------------------------------

KERNEL_GAMES = 2000  # of the set-up, for the standard columns
TRACED_GAMES = 20


def _kernel_run(game_id: str, games: int):
    setup = determinism_setup(game_id)
    encoded = setup.encoded(game_id)
    kernel = modules(game_id).kernel
    game_out, seat_out = kernel.run_chunk(
        encoded.prepared, setup.players, encoded.ids, encoded.params, setup.seed, 0,
        min(games, setup.games), setup.rotate,
    )  # fmt: skip
    return setup, encoded, game_out, seat_out


@pytest.mark.parametrize("game_id", contract_game_ids())
def test_the_traced_game_is_the_chunk_game(game_id):
    setup, encoded, game_out, seat_out = _kernel_run(game_id, TRACED_GAMES)
    kernel = modules(game_id).kernel
    labels = list(setup.spec(game_id).lineup()) * (setup.players if len(setup.lineup) == 1 else 1)
    for index in range(len(game_out)):
        traced_game, traced_seats, trace, _ = play_one(game_id, encoded, index)
        np.testing.assert_array_equal(traced_game[0], game_out[index])
        np.testing.assert_array_equal(traced_seats[0], seat_out[index])
        np.testing.assert_array_equal(
            trace,
            kernel.trace_game(
                encoded.prepared, setup.players, encoded.ids, encoded.params, setup.seed, index,
                setup.rotate,
            ),
        )  # fmt: skip
        seats = [labels[lineup_slot(index, s, setup.players, setup.rotate)]
                 for s in range(setup.players)]  # fmt: skip
        assert kernel.describe_trace(trace, seats)[-1].startswith("== after")


@pytest.mark.parametrize("game_id", contract_game_ids())
def test_the_standard_columns_hold_together(game_id):
    setup, encoded, game_out, seat_out = _kernel_run(game_id, KERNEL_GAMES)
    players, games = setup.players, len(game_out)
    winner, turns = game_out[:, chunk.WINNER], game_out[:, chunk.TURNS]
    ended_by = game_out[:, chunk.ENDED_BY]
    won = seat_out[:, :, chunk.WON]
    assert ((winner >= -1) & (winner < players)).all() and (turns >= 1).all()
    assert np.isin(ended_by, range(len(chunk.ENDINGS))).all()
    assert np.isin(won, (0, 1)).all()
    rows = np.flatnonzero(winner >= 0)
    assert (won[rows, winner[rows]] == 1).all() and (won[rows].sum(axis=1) == 1).all()
    assert (won[winner < 0].sum(axis=1) != 1).all()  # nobody, or a shared win
    without = np.isin(ended_by, (chunk.ENDED_CAP, chunk.ENDED_DRAW))
    assert (winner[without] == -1).all() and (won[without].sum(axis=1) == 0).all()
    assert (won[ended_by == chunk.ENDED_RULES].sum(axis=1) >= 1).all()
    if "max_turns" in encoded.rules:
        cap = encoded.rules["max_turns"]
        assert (turns <= cap).all() and (turns[ended_by == chunk.ENDED_CAP] == cap).all()
    slots = np.array([[lineup_slot(g, s, players, setup.rotate) for s in range(players)]
                      for g in range(games)])  # fmt: skip
    assert (seat_out[:, :, chunk.LINEUP_SLOT] == slots).all()
