"""``ismcts`` as a strategy of POWER: The Game (docs/ismcts.md): spec parsing, a run from the CLI,
reproducibility across threads, chunk sizes and shards, and the information-leak check on the
searching seat."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
from clitools import part_files, powerlab

from simcore import registry
from simcore.games.power_the_game import game as kernel
from simcore.workflows import runner

ROOT = Path(__file__).resolve().parent.parent
GAME = registry.make("power-the-game")
LINEUP = ["ismcts:iterations=6", "balanced", "preset:raider-vs-mixed", "missile:guard=2"]
GAMES = 12


def test_spec_parses_with_the_tuned_rollout_by_default():
    parsed = registry.parse_strategy(GAME, "ismcts:iterations=50")
    assert parsed["params"] == {
        "iterations": 50,
        "rollout": "preset:blitz-vs-mixed",
        "c": 0.7,
        "margin": 0.0,  # plans: the most visited one (docs/ismcts.md, "The margin")
        "opponents": "search",
    }
    ids, rows = GAME.encode_strategies([parsed, registry.parse_strategy(GAME, "turtle")])
    names = GAME.strategy_param_names
    assert ids[0] == registry.SEARCH_ID
    assert rows[0, names.index("rollout")] == GAME.strategy("blitz").id
    assert rows[0, names.index("advance")] == 7  # the preset's own parameters ride along
    # Every seat answers with an option of the planner table: the rollout preset and a seat's
    # own parameters are rows of it.
    planner_ids, planner_rows = kernel.planner_table(ids, rows)
    n = len(strategy_names := [s.name for s in GAME.strategies if s.name != "random"])
    assert n == 6 and [GAME.strategies[i].name for i in planner_ids[:n]] == strategy_names
    assert len(planner_ids) == n + len(registry.presets("power-the-game"))


def _table(out: Path) -> pa.Table:
    parts = [pq.read_table(path) for _, _, path in part_files(out)]
    return pa.concat_tables(parts).sort_by("game_index")


def test_search_games_are_identical_across_threads_chunks_and_shards(tmp_path):
    spec = runner.build_spec("power-the-game", 4, LINEUP, [], 5, GAMES, True)
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
        "power-the-game", 4, ["ismcts:iterations=6,c=3"] + LINEUP[1:], [], 5, GAMES, True
    )
    runner.run(other, tmp_path / "other", threads=1, chunk_size=GAMES)
    assert not _table(tmp_path / "other").equals(reference)


def test_a_search_seat_runs_from_the_cli(tmp_path):
    out = tmp_path / "run"
    result = powerlab(
        "run", "power-the-game", "-p", 3, "-s", "ismcts:iterations=4,rollout=balanced",
        "-s", "blitz", "-s", "preset:turtle-vs-mixed", "--games", 6, "--seed", 2, "--out", out,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    info = json.loads((out / "run.json").read_text())
    assert info["lineup"][0] == "ismcts:iterations=4,rollout=balanced"
    assert _table(out).num_rows == 6
    replay = powerlab(
        "replay", "power-the-game", "-p", 3, "-s", "ismcts:iterations=4,rollout=balanced",
        "-s", "blitz", "-s", "preset:turtle-vs-mixed", "--seed", 2, "--game-index", 1,
    )  # fmt: skip
    assert replay.returncode == 0, replay.stderr
    assert "ismcts" in replay.stdout


def test_the_searching_seat_reads_only_what_it_may_know():
    result = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "leak_check.py"), "power-the-game", "3", "2",
         "ismcts:iterations=2", "balanced", "blitz"],
        capture_output=True, text=True, cwd=ROOT, timeout=1200,
        env={**os.environ, "NUMBA_DISABLE_JIT": "1"},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads(result.stdout.splitlines()[-1])
    assert report["leaks"] == 0, json.dumps(report["examples"], indent=1)
    search = "simcore.games.power_the_game.search:search"
    assert report["checked"][search] > 20, report
    assert report["informative"][search] > 10, report
