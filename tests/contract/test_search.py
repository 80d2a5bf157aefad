"""The search player ``ismcts`` of every game that offers one (docs/ismcts.md), through the game's
search module:

- a run with a searching seat gives the same games on one thread and on two, in other chunk sizes
  and as two shards; and the searching seat really plays (another exploration constant, other
  games);
- a searching seat runs from ``powerlab run`` and its games replay (``powerlab replay``);
- at every decision of a searching seat the search answers one of ``legal``'s options, and reads
  only what its seat may know: asked again on a copy whose hidden information is redrawn for the
  seat (``determinize``), it gives the same answer, draws the same random numbers and writes
  alike into every field the redraw left alone (the leak check's question,
  tests/contract/leak_check.py, asked of the compiled search).

Set-ups: the game's glue (``SEARCH_RUN``, ``SEARCH_CLI``, ``SEARCH_LEAK``), else built here.
"""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pyarrow as pa
import pytest

from simcore import registry
from simcore.kernel.rng import seed_game_stream
from simcore.workflows import runner
from tests.cli.clitools import in_process
from tests.contract.common import (
    Games,
    SearchLeak,
    SearchRun,
    Setup,
    contract_games,
    modules,
    table,
)


def search_games() -> list[str]:
    return [game.id for game in contract_games() if game.search is not None]


def _field(game: registry.Game, players: int) -> tuple[str, ...]:
    """The seats beside the search: the game's strategies but ``random``, cycling."""
    others = [s.name for s in game.strategies if s.name != "random"]
    return tuple(others[k % len(others)] for k in range(players - 1))


def search_run(game_id: str) -> SearchRun:
    m = modules(game_id)
    players = m.game.min_players
    setup = Setup(players, ("ismcts:iterations=4", *_field(m.game, players)), seed=5, games=6)
    return m.option("SEARCH_RUN", SearchRun(setup, two_threads_chunk=4, shards_chunk=2))


def search_cli(game_id: str) -> Setup:
    m = modules(game_id)
    players = m.game.min_players
    default = Setup(players, ("ismcts:iterations=3", *_field(m.game, players)), games=2)
    return m.option("SEARCH_CLI", default)


def search_leak(game_id: str) -> SearchLeak:
    m = modules(game_id)
    players = m.game.min_players
    setup = Setup(players, ("ismcts:iterations=3", *_field(m.game, players)), seed=7, games=1)
    return m.option("SEARCH_LEAK", SearchLeak(setup, checked=1))


@pytest.mark.parametrize("game_id", search_games())
def test_search_games_are_identical_across_threads_chunks_and_shards(game_id, tmp_path):
    run = search_run(game_id)
    setup = run.setup
    spec = setup.spec(game_id)
    runner.run(spec, tmp_path / "one", threads=1, chunk_size=setup.games)
    reference = table(tmp_path / "one")
    assert reference.num_rows == setup.games
    runner.run(spec, tmp_path / "two", threads=2, chunk_size=run.two_threads_chunk)
    assert table(tmp_path / "two").equals(reference)
    for k in (1, 2):
        runner.run(spec, tmp_path / f"shard{k}", chunk_size=run.shards_chunk, shard=(k, 2))
    shards = pa.concat_tables([table(tmp_path / f"shard{k}") for k in (1, 2)])
    assert shards.sort_by("game_index").equals(reference)
    # and the searching seat really played: another exploration constant changes games
    other = replace(setup, lineup=(setup.lineup[0] + ",c=3", *setup.lineup[1:]))
    runner.run(other.spec(game_id), tmp_path / "other", threads=1, chunk_size=setup.games)
    assert not table(tmp_path / "other").equals(reference)


@pytest.mark.parametrize("game_id", search_games())
def test_a_searching_seat_runs_from_the_cli_and_replays(game_id, tmp_path):
    setup = search_cli(game_id)
    strategies = [arg for text in setup.lineup for arg in ("-s", text)]
    spec = ["-p", setup.players, *strategies, "--seed", setup.seed]
    code, _, err = in_process("run", game_id, *spec, "--games", setup.games, "-o", tmp_path / "r")
    assert code == 0, err
    assert json.loads((tmp_path / "r" / "run.json").read_text())["lineup"][0] == setup.lineup[0]
    games = table(tmp_path / "r")
    assert games.num_rows == setup.games
    labels = {
        label for k in range(setup.players) for label in games.column(f"s{k}_strategy").to_pylist()
    }
    assert setup.lineup[0] in labels
    code, out, err = in_process("replay", game_id, *spec, "--game-index", setup.games - 1)
    assert code == 0, err
    assert registry.SEARCH in out


def _leak_cases():
    return [
        pytest.param(game_id, marks=[pytest.mark.slow] if search_leak(game_id).slow else [])
        for game_id in search_games()
    ]


@pytest.mark.parametrize("game_id", _leak_cases())
def test_the_searching_seat_answers_legal_options_and_reads_only_what_it_may_know(game_id):
    search = modules(game_id).search
    leak = search_leak(game_id)
    games = Games(game_id, leak.setup)
    redraw = np.zeros(4, dtype=np.uint64)  # a stream of its own: the games stay the games
    seed_game_stream(np.uint64(leak.setup.seed + 1), 0, redraw)
    checked = informative = 0
    for index in range(leak.setup.games):
        st, rng, sids, prm = games.start(index)
        while not search.is_over(st):
            seat = search.to_move(st)
            if sids[seat] != registry.SEARCH_ID:
                games.apply(st, games.choose(sids, prm, seat, st, rng), rng)
                continue
            options = games.legal(st)
            before, twin, twin_rng = st.copy(), st.copy(), rng.copy()
            search.determinize(twin, seat, redraw)
            redrawn = twin.copy()
            answer = games.choose(sids, prm, seat, twin, twin_rng)
            move = games.choose(sids, prm, seat, st, rng)
            assert move in options, (move, options)
            assert move == answer and np.array_equal(rng, twin_rng)
            kept = before == redrawn
            assert np.array_equal(st[kept], twin[kept]), "wrote differently into the state"
            checked += 1
            informative += not np.array_equal(redrawn, before)
            games.apply(st, move, rng)
    assert checked > leak.checked, checked
    assert informative > leak.informative and informative > leak.informative_share * checked
