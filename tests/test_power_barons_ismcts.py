"""``ismcts`` as a strategy of Power Barons (docs/ismcts.md): spec parsing with the tuned rollout,
reproducibility across threads, chunk sizes and shards, a run from the CLI, and the
information-leak check on the searching seat."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from clitools import part_files, powerlab

from simcore import registry
from simcore.workflows import runner

ROOT = Path(__file__).resolve().parent.parent
GAME = registry.make("power-barons")
LINEUP = ["ismcts:iterations=8", "preset:baron-keep_best", "flusher", "baron"]
GAMES = 12


def test_spec_parses_with_the_tuned_rollout_by_default():
    parsed = registry.parse_strategy(GAME, "ismcts:iterations=50")
    assert parsed["params"]["rollout"] == "preset:baron-keep_best"
    ids, rows = GAME.encode_strategies([parsed])
    names = GAME.strategy_param_names
    assert ids[0] == registry.SEARCH_ID
    assert rows[0, names.index("rollout")] == GAME.strategy("baron").id
    assert rows[0, names.index("iterations")] == 50


def _table(out: Path) -> pa.Table:
    parts = [pq.read_table(path) for _, _, path in part_files(out)]
    return pa.concat_tables(parts).sort_by("game_index")


def test_search_games_are_identical_across_threads_chunks_and_shards(tmp_path):
    spec = runner.build_spec("power-barons", 4, LINEUP, [], 5, GAMES, True)
    runner.run(spec, tmp_path / "one", threads=1, chunk_size=GAMES)
    reference = _table(tmp_path / "one")
    assert reference.num_rows == GAMES
    runner.run(spec, tmp_path / "two", threads=2, chunk_size=5)
    assert _table(tmp_path / "two").equals(reference)
    for k in (1, 2):
        runner.run(spec, tmp_path / f"shard{k}", chunk_size=4, shard=(k, 2))
    shards = pa.concat_tables([_table(tmp_path / f"shard{k}") for k in (1, 2)])
    assert shards.sort_by("game_index").equals(reference)
    # and the searching seat really played: another exploration constant changes games
    other = runner.build_spec(
        "power-barons", 4, ["ismcts:iterations=8,c=3"] + LINEUP[1:], [], 5, GAMES, True
    )
    runner.run(other, tmp_path / "other", threads=1, chunk_size=GAMES)
    assert not _table(tmp_path / "other").equals(reference)


def test_a_searching_seat_runs_from_the_cli(tmp_path):
    out = tmp_path / "run"
    result = powerlab(
        "run", "power-barons", "-p", 3, "-s", "ismcts:iterations=6,rollout=flusher",
        "-s", "baron", "-s", "random", "--games", 6, "--seed", 2, "--out", out,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    table = _table(out)
    assert table.num_rows == 6
    labels = {label for k in range(3) for label in table.column(f"s{k}_strategy").to_pylist()}
    assert "ismcts:iterations=6,rollout=flusher" in labels


@pytest.mark.slow
def test_the_searching_seat_reads_only_what_it_may_know():
    result = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "leak_check.py"), "power-barons", "3", "1",
         "ismcts:iterations=3", "baron", "flusher"],
        capture_output=True, text=True, cwd=ROOT, timeout=1200,
        env={**os.environ, "NUMBA_DISABLE_JIT": "1"},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads(result.stdout.splitlines()[-1])
    assert report["leaks"] == 0, json.dumps(report["examples"], indent=1)
    assert report["checked"]["simcore.games.power_barons.search:search"] > 20, report
    assert report["informative"]["simcore.games.power_barons.search:search"] > 10, report
