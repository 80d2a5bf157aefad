"""``ismcts`` as a strategy of Time Barons (docs/ismcts.md): spec parsing, reproducibility across
threads, chunk sizes and shards, a run from the CLI, and the information-leak question on the
searching seat."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from clitools import part_files

from simcore import registry
from simcore.games.time_barons import game as kernel
from simcore.games.time_barons import search as search_module
from simcore.games.time_barons.rules import apply, determinize, is_over, new_game, to_move
from simcore.games.time_barons.state import STATE_SIZE, TRACE_WIDTH
from simcore.kernel.rng import seed_game_stream
from simcore.workflows import runner

ROOT = Path(__file__).resolve().parent.parent
GAME = registry.make("time-barons")
LINEUP = ["ismcts:iterations=4", "preset:builder-vs-attacker"]
GAMES = 6


def test_spec_parses_with_the_tuned_rollout_by_default():
    parsed = registry.parse_strategy(GAME, "ismcts:iterations=50")
    assert parsed["params"] == {
        "iterations": 50,
        "rollout": "preset:swarm-vs-builder",
        "c": 0.7,
        "margin": 2.0,
        "opponents": "search",
    }
    ids, rows = GAME.encode_strategies([registry.parse_strategy(GAME, "ismcts:rollout=attacker")])
    names = GAME.strategy_param_names
    assert ids[0] == registry.SEARCH_ID
    assert rows[0, names.index("rollout")] == GAME.strategy("attacker").id
    assert rows[0, names.index("w_attack")] == 3.0  # the rollout's own defaults ride along


def _table(out: Path) -> pa.Table:
    parts = [pq.read_table(path) for _, _, path in part_files(out)]
    return pa.concat_tables(parts).sort_by("game_index")


def test_search_games_are_identical_across_threads_chunks_and_shards(tmp_path):
    spec = runner.build_spec("time-barons", 2, LINEUP, [], 5, GAMES, True)
    runner.run(spec, tmp_path / "one", threads=1, chunk_size=GAMES)
    reference = _table(tmp_path / "one")
    assert reference.num_rows == GAMES
    runner.run(spec, tmp_path / "two", threads=2, chunk_size=4)
    assert _table(tmp_path / "two").equals(reference)
    for k in (1, 2):
        runner.run(spec, tmp_path / f"shard{k}", chunk_size=2, shard=(k, 2))
    shards = pa.concat_tables([_table(tmp_path / f"shard{k}") for k in (1, 2)])
    assert shards.sort_by("game_index").equals(reference)
    # and the searching seat really played: another exploration constant changes games
    other = runner.build_spec("time-barons", 2, ["ismcts:iterations=4,c=3"] + LINEUP[1:], [], 5,
                              GAMES, True)  # fmt: skip
    runner.run(other, tmp_path / "other", threads=1, chunk_size=GAMES)
    assert not _table(tmp_path / "other").equals(reference)


def test_runs_from_the_cli(tmp_path):
    out = tmp_path / "run"
    result = subprocess.run(
        [sys.executable, "-m", "cli", "run", "time-barons", "-p", "2", "-s",
         "ismcts:iterations=3", "-s", "builder", "-n", "2", "-o", str(out)],
        capture_output=True, text=True, cwd=ROOT, timeout=900,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    table = _table(out)
    assert table.num_rows == 2
    assert set(table.column("s0_strategy").to_pylist()) | set(
        table.column("s1_strategy").to_pylist()
    ) >= {"ismcts:iterations=3"}


def test_the_searching_seat_reads_only_what_it_may_know():
    """The leak check's question (tests/leak_check.py), asked in-process of the compiled search
    (the plain-Python check would take hours here): at every decision of the searching seat, the
    same answer and the same random draws after everything it cannot see was redrawn."""
    prepared = kernel.prepare(GAME.rules_with_defaults({}), 2)
    ids, params = GAME.encode_strategies(
        [registry.parse_strategy(GAME, s) for s in ("ismcts:iterations=3", "builder")]
    )
    no_trace = np.zeros((0, TRACE_WIDTH), dtype=np.int64)
    checked = informative = 0
    for index in range(2):
        st = np.zeros(STATE_SIZE, dtype=np.int64)
        rng = np.zeros(4, dtype=np.uint64)
        seed_game_stream(np.uint64(3), index, rng)
        new_game(2, st, prepared, rng, no_trace)
        while not is_over(st):
            seat = to_move(st)
            if ids[seat] == registry.SEARCH_ID:
                twin, twin_rng, redraw = st.copy(), rng.copy(), rng.copy()
                determinize(twin, seat, redraw)
                informative += not np.array_equal(twin, st)
                answer = search_module.choose(ids, params, seat, twin, prepared, twin_rng)
            move = search_module.choose(ids, params, seat, st, prepared, rng)
            if ids[seat] == registry.SEARCH_ID:
                assert move == answer and np.array_equal(rng, twin_rng)
                checked += 1
            apply(st, prepared, move, rng, no_trace)
    assert checked > 20 and informative > 10, (checked, informative)
