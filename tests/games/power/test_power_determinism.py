"""A run directory's identity through ``simcore.workflows.runner`` (with POWER's games), and the
random streams behind every game.

An interrupted run resumes to the same content, and a different spec is refused on an existing
run directory without touching it. That a game's result is a pure function of (game, rules, seat
strategies, seed, game index), whatever the thread count, the chunk size or the number of
invocations, is every game's (tests/contract/test_determinism.py).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import chisquare

from simcore import registry
from simcore.kernel.rng import next_u64, rand_below, rand_bool, rand_float, seed_game_stream
from simcore.workflows import runner, storage
from tests.cli.clitools import part_files
from tests.contract.common import table

LINEUP = ["counter", "bluffer", "honest", "random"]
GAMES = 20_000
SEED = 424_242


def spec(games: int = GAMES, seed: int = SEED, lineup=None, settings=(), players: int = 4):
    return runner.build_spec(
        "power", players, list(lineup or LINEUP), list(settings), seed, games, True
    )


def file_hashes(out: Path) -> dict[str, str]:
    return {
        str(path.relative_to(out)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(Path(out).rglob("*"))
        if path.is_file()
    }


def test_interrupted_run_resumes_to_identical_content(tmp_path):
    runner.run(spec(), tmp_path, chunk_size=1000)
    whole = table(tmp_path)
    parts = part_files(tmp_path)
    first, count, path = parts[len(parts) // 2]
    path.unlink()
    # a leftover temporary file of an interrupted write is not a part
    (storage.games_dir(tmp_path) / f".{path.name}.abc.tmp").write_bytes(b"partial")
    info = runner.run(spec(), tmp_path, chunk_size=1000)
    assert info["timings"]["games_computed"] == count
    assert [p[:2] for p in part_files(tmp_path)] == [p[:2] for p in parts]
    assert table(tmp_path).equals(whole)


@pytest.mark.parametrize(
    "other",
    [
        {"seed": SEED + 1},
        {"lineup": ["counter", "bluffer", "honest", "counter"]},
        {"lineup": ["counter:threshold=0.5", "bluffer", "honest", "random"]},
        {"settings": ["max_turns=400"]},
        {"players": 5, "lineup": ["counter", "bluffer", "honest", "random", "random"]},
        {"games": GAMES // 4},  # same spec, but OUT already holds more games
    ],
    ids=["seed", "strategies", "strategy-params", "rules", "players", "fewer-games"],
)
def test_a_different_spec_on_the_same_out_is_refused_and_changes_nothing(tmp_path, other):
    runner.run(spec(games=GAMES // 2), tmp_path, chunk_size=2500)
    before = file_hashes(tmp_path)
    with pytest.raises(registry.SpecError):
        runner.run(spec(**{"games": GAMES // 2, **other}), tmp_path, chunk_size=1000)
    assert file_hashes(tmp_path) == before


def test_rotation_flag_is_part_of_the_identity(tmp_path):
    runner.run(spec(games=100), tmp_path)
    before = file_hashes(tmp_path)
    fixed = runner.build_spec("power", 4, LINEUP, [], SEED, 100, False)
    with pytest.raises(registry.SpecError):
        runner.run(fixed, tmp_path)
    assert file_hashes(tmp_path) == before


# --- random streams -------------------------------------------------------------------------


def draws(seed: int, index: int, n: int = 256) -> list[int]:
    state = np.zeros(4, np.uint64)
    seed_game_stream(seed, index, state)
    return [int(next_u64(state)) for _ in range(n)]


def test_same_seed_and_index_give_the_same_stream():
    assert draws(7, 123) == draws(7, 123)
    assert draws(0, 0) == draws(0, 0)


def test_different_index_or_seed_gives_a_different_stream():
    streams = [tuple(draws(7, index, 16)) for index in range(200)]
    assert len(set(streams)) == 200
    assert draws(7, 5) != draws(8, 5)
    # nor a shifted copy of a neighbour
    assert not set(draws(7, 1, 64)) & set(draws(7, 2, 64))


def test_stream_state_is_not_degenerate():
    state = np.zeros(4, np.uint64)
    seed_game_stream(0, 0, state)
    assert (state != 0).any()


@pytest.mark.parametrize("n", [1, 2, 3, 5, 7, 10, 1000])
def test_rand_below_stays_in_range(n):
    state = np.zeros(4, np.uint64)
    seed_game_stream(99, n, state)
    values = [rand_below(state, n) for _ in range(5000)]
    assert min(values) >= 0 and max(values) <= n - 1
    if n <= 10:
        assert set(values) == set(range(n))


@pytest.mark.parametrize("n", [2, 5, 6, 10])
def test_rand_below_is_roughly_uniform(n):
    state = np.zeros(4, np.uint64)
    seed_game_stream(2026, 1, state)
    counts = np.bincount([rand_below(state, n) for _ in range(60_000)], minlength=n)
    assert chisquare(counts).pvalue > 1e-3


def test_rand_float_and_rand_bool():
    state = np.zeros(4, np.uint64)
    seed_game_stream(5, 5, state)
    values = np.array([rand_float(state) for _ in range(20_000)])
    assert values.min() >= 0.0 and values.max() < 1.0
    assert abs(values.mean() - 0.5) < 0.01
    hits = sum(rand_bool(state, 0.3) for _ in range(20_000))
    assert abs(hits / 20_000 - 0.3) < 0.015
    assert not any(rand_bool(state, 0.0) for _ in range(1000))
    assert all(rand_bool(state, 1.0) for _ in range(1000))
