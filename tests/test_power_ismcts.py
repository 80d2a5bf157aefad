"""``ismcts`` as a strategy of POWER (docs/ismcts.md): spec parsing, reproducibility across
threads, chunk sizes and shards, and the information-leak check on the searching seat."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from clitools import part_files

from simcore import registry
from simcore.workflows import runner

ROOT = Path(__file__).resolve().parent.parent
GAME = registry.make("power")
LINEUP = ["ismcts:iterations=12", "counter", "preset:bluffer-vs-mixed", "honest"]
GAMES = 24


def test_spec_parses_with_the_tuned_rollout_by_default():
    parsed = registry.parse_strategy(GAME, "ismcts:iterations=50,c=1.2")
    assert parsed == {
        "name": "ismcts",
        "params": {
            "iterations": 50,
            "rollout": "preset:counter-vs-mixed",
            "c": 1.2,
            "margin": 2.0,
            "opponents": "own-view",
            "trust": 0.8,
        },
    }
    assert GAME.strategy("ismcts").label(parsed["params"]) == "ismcts:iterations=50,c=1.2"
    ids, rows = GAME.encode_strategies([registry.parse_strategy(GAME, "ismcts:rollout=bluffer")])
    names = GAME.strategy_param_names
    assert ids[0] == registry.SEARCH_ID
    assert rows[0, names.index("rollout")] == GAME.strategy("bluffer").id
    assert rows[0, names.index("p_bluff")] == 0.3  # the rollout's own defaults ride along
    assert rows[0, names.index("iterations")] == 200
    assert rows[0, names.index("trust")] == registry.TRUST_DEFAULT
    assert rows[0, names.index("opponents")] == 2.0  # own-view, the third choice


def test_a_rollout_may_carry_parameters_of_its_own_last_in_the_spec():
    text = "ismcts:iterations=50,rollout=bluffer:p_bluff=0.1,targeting=richest"
    parsed = registry.parse_strategy(GAME, text)
    assert parsed["params"]["rollout"] == "bluffer:p_bluff=0.1,targeting=richest"
    assert GAME.strategy("ismcts").label(parsed["params"]) == text  # reads back
    ids, rows = GAME.encode_strategies([parsed])
    names = GAME.strategy_param_names
    assert rows[0, names.index("rollout")] == GAME.strategy("bluffer").id
    assert rows[0, names.index("p_bluff")] == 0.1
    # A name or preset alone still ends at the next comma.
    plain = registry.parse_strategy(GAME, "ismcts:rollout=preset:bluffer-vs-mixed,iterations=5")
    assert plain["params"]["rollout"] == "preset:bluffer-vs-mixed"
    data = {"name": "ismcts", "params": {"rollout": "bluffer:p_bluff=0.1"}}  # study files, run.json
    assert registry.check_strategy(GAME, data, "x")["params"]["rollout"] == "bluffer:p_bluff=0.1"


@pytest.mark.parametrize(
    "text",
    [
        "ismcts:rollout=nobody", "ismcts:iterations=0", "ismcts:c=-1", "ismcts:depth=3",
        "ismcts:rollout=ismcts", "ismcts:rollout=bluffer:p_bluff=2",
        "ismcts:rollout=bluffer:nope=1", "ismcts:iterations=5rollout=bluffer:p_bluff=0",
        "ismcts:opponents=bogus", "ismcts:opponents=1",
    ],
)  # fmt: skip
def test_bad_search_specs_are_one_line_errors(text):
    with pytest.raises(registry.SpecError) as error:
        registry.parse_strategy(GAME, text)
    assert "\n" not in str(error.value)


def _table(out: Path) -> pa.Table:
    parts = [pq.read_table(path) for _, _, path in part_files(out)]
    return pa.concat_tables(parts).sort_by("game_index")


def test_search_games_are_identical_across_threads_chunks_and_shards(tmp_path):
    spec = runner.build_spec("power", 4, LINEUP, [], 5, GAMES, True)
    runner.run(spec, tmp_path / "one", threads=1, chunk_size=GAMES)
    reference = _table(tmp_path / "one")
    assert reference.num_rows == GAMES
    runner.run(spec, tmp_path / "two", threads=2, chunk_size=5)
    assert _table(tmp_path / "two").equals(reference)
    for k in (1, 2):
        runner.run(spec, tmp_path / f"shard{k}", chunk_size=7, shard=(k, 2))
    shards = pa.concat_tables([_table(tmp_path / f"shard{k}") for k in (1, 2)])
    assert shards.sort_by("game_index").equals(reference)
    # and the searching seat really played: another exploration constant changes games
    other = runner.build_spec(
        "power", 4, ["ismcts:iterations=12,c=3"] + LINEUP[1:], [], 5, GAMES, True
    )
    runner.run(other, tmp_path / "other", threads=1, chunk_size=GAMES)
    assert not _table(tmp_path / "other").equals(reference)


@pytest.mark.slow
def test_the_searching_seat_reads_only_what_it_may_know():
    result = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "leak_check.py"), "power", "3", "3",
         "ismcts:iterations=3", "counter", "bluffer"],
        capture_output=True, text=True, cwd=ROOT, timeout=1200,
        env={**os.environ, "NUMBA_DISABLE_JIT": "1"},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads(result.stdout.splitlines()[-1])
    assert report["leaks"] == 0, json.dumps(report["examples"], indent=1)
    assert report["checked"]["simcore.games.power.search:search"] > 20, report
    assert report["informative"]["simcore.games.power.search:search"] > 10, report
