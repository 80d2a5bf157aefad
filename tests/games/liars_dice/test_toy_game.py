"""A sixth game costs one folder (docs/adding-a-game.md): the toy Liar's Dice of
tests/games/liars_dice/,
its package and strategies module registered by ``POWERLAB_GAMES`` alone, goes through the
CLI's run, summary, report, replay, a run with a searching seat and tune, each a process of its
own as a designer runs them. Its first run compiles it (about a minute on a quiet core, the
search another), later ones load it from numba's cache."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from analyses.dataset import load_run
from simcore import registry
from tests.games.liars_dice import REGISTRATION

ROOT = Path(__file__).resolve().parents[3]
TOY = REGISTRATION.partition("=")[0]
LINEUP = ("-s", "cautious", "-s", "bluffer", "-s", "random")


def powerlab(*args) -> str:
    """stdout of ``powerlab ARGS`` in a process that knows the toy game only from its
    environment; fails the test with its stderr if it fails."""
    done = subprocess.run(
        [sys.executable, "-m", "cli", *map(str, args)],
        capture_output=True, text=True, cwd=ROOT, timeout=900,
        env={**os.environ, registry.GAMES_VARIABLE: REGISTRATION},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.slow
def test_the_toy_game_goes_through_run_report_replay_search_and_tune(tmp_path, monkeypatch):
    monkeypatch.setenv(registry.GAMES_VARIABLE, REGISTRATION)
    assert TOY not in registry._GAME_MODULES
    assert "Liar's Dice (toy)" in powerlab("games")
    assert "threshold" in powerlab("games", TOY)

    run = tmp_path / "run"
    powerlab("run", TOY, "-p", 3, *LINEUP, "-n", 3000, "--seed", 1, "--arcs", "10%", "-o", run)
    summary = json.loads(powerlab("summary", run, "--json"))
    assert summary["games"] == 3000
    assert sum(row["wins"] for row in summary["by_seat"]) == 3000  # no game cut off
    assert "Report written" in powerlab("report", run)
    assert (run / "report.pdf").stat().st_size > 0

    games = load_run(run).scan().collect()
    for index in (0, 7):
        log = powerlab("replay", TOY, "-i", index, "-p", 3, *LINEUP, "--seed", 1).splitlines()
        row = games.filter(games["game_index"] == index)
        turns, winner = row["turns"].item(), row["winner"].item()
        assert re.match(rf"== after \d+ rounds, {turns} turns: seat {winner} \(", log[-1])

    searched = tmp_path / "searched"
    powerlab(
        "run", TOY, "-p", 3, "-s", "ismcts:iterations=40", "-s", "cautious", "-s", "random",
        "-n", 12, "--seed", 1, "-o", searched,
    )  # fmt: skip
    by_strategy = json.loads(powerlab("summary", searched, "--json"))["by_strategy"]
    assert [row["games"] for row in by_strategy] == [12, 12, 12]

    tune = tmp_path / "tune"
    powerlab(
        "tune", TOY, "-p", 3, "-s", "cautious", "-a", "bluffer", "-a", "random", "-n", 10_000,
        "--seed", 1, "-o", tune,
    )  # fmt: skip
    best = (tune / "best.txt").read_text().strip()
    assert best.startswith("cautious")
    powerlab("run", TOY, "-p", 3, "-s", best, *LINEUP[2:], "-n", 300, "-o", tmp_path / "best")
