"""A synthetic run directory that follows docs/architecture.md, for the analysis and report tests.

The outcomes are drawn with numpy from a fixed seed, with deliberate effects (strategy strength,
a first-seat advantage, a strong starting card) so that the analyses have something to find, and
with the edge cases they must survive: cut_off games (winner -1, nobody won), shared wins
(winner -1, several seats won) and a strategy that never wins.
"""

import json
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from simcore.workflows import storage

STRATEGY_NAMES = ["counter", "bluffer", "honest", "greedy", "cautious", "random"]
CARDS = ["duke", "assassin", "captain", "ambassador", "contessa"]
TURN_CAP = 60


def default_lineup(players: int) -> list[str]:
    """The first `players` strategy labels; the last one (``random``) never wins when present."""
    return STRATEGY_NAMES[: players - 1] + ["random"]


def strength(label: str) -> float:
    """Relative chance of winning; ``random`` is hopeless so that zero-win cases are exercised."""
    return 0.0 if label == "random" else 1.0 + 0.25 * STRATEGY_NAMES.index(label.split(":")[0])


def make_fake_run(
    tmp_path: Path,
    players: int = 4,
    games: int = 2000,
    rotate: bool = True,
    seed: int = 0,
    lineup: list[str] | None = None,
    cut_off_share: float = 0.05,
    shared_share: float = 0.02,
) -> Path:
    """Write run.json and two part files under ``tmp_path / "run"``; return that directory."""
    lineup = lineup if lineup is not None else default_lineup(players)
    assert len(lineup) == players
    rng = np.random.default_rng(seed)
    game_index = np.arange(games, dtype=np.int64)
    seats = np.arange(players)
    # Lineup entry of seat k in game i, per the rotation rule of docs/architecture.md.
    entry = (
        (seats[None, :] + game_index[:, None]) % players if rotate else np.tile(seats, (games, 1))
    )
    labels = np.array(lineup, dtype=object)[entry]

    card0 = rng.integers(0, len(CARDS), size=(games, players))
    card1 = rng.integers(0, len(CARDS), size=(games, players))
    weight = np.vectorize(strength)(labels) * (1.0 + 0.3 * (seats == 0))
    weight *= np.where((card0 == 0) | (card1 == 0), 1.5, 1.0)  # holding a duke helps
    total = weight.sum(axis=1, keepdims=True)
    # A game where every seated strategy is hopeless falls back to a uniform draw.
    probability = np.where(total > 0, weight / np.where(total > 0, total, 1.0), 1.0 / players)
    cumulative = probability.cumsum(axis=1)
    winner = (rng.random((games, 1)) > cumulative).sum(axis=1).clip(0, players - 1)

    kind = rng.random(games)
    cut_off = kind < cut_off_share
    shared = ~cut_off & (kind < cut_off_share + shared_share)
    won = seats[None, :] == winner[:, None]
    won[cut_off] = False
    # A shared win: the drawn winner and the next seat both win, and no single winner is recorded;
    # a hopeless next seat never shares, so that a hopeless strategy keeps zero wins.
    partner = (winner + 1) % players
    shared &= weight[game_index, partner] > 0
    won[shared, partner[shared]] = True
    winner = np.where(cut_off | shared, -1, winner).astype(np.int8)
    turns = np.where(cut_off, TURN_CAP, rng.integers(5, TURN_CAP, size=games)).astype(np.int32)

    columns: dict[str, pa.Array] = {
        "game_index": pa.array(game_index, pa.int64()),
        "winner": pa.array(winner, pa.int8()),
        "turns": pa.array(turns, pa.int32()),
        "ended_by": pa.array(np.where(cut_off, "cap", "rules").tolist()).dictionary_encode(),
    }
    coins = rng.integers(0, 12, size=(games, players)).astype(np.int32)
    for k in range(players):
        columns[f"s{k}_strategy"] = pa.array(labels[:, k].tolist()).dictionary_encode()
        columns[f"s{k}_won"] = pa.array(won[:, k], pa.bool_())
        columns[f"s{k}_coins"] = pa.array(coins[:, k], pa.int32())
        columns[f"s{k}_start_card0"] = pa.array([CARDS[c] for c in card0[:, k]]).dictionary_encode()
        columns[f"s{k}_start_card1"] = pa.array([CARDS[c] for c in card1[:, k]]).dictionary_encode()
    columns["challenges"] = pa.array(rng.integers(0, 9, size=games).astype(np.int32), pa.int32())
    ending = np.where(cut_off, "turn cap", np.where(rng.random(games) < 0.7, "wipe-out", "race"))
    columns["end"] = pa.array(ending.tolist()).dictionary_encode()
    table = pa.table(columns)

    info = {
        "format": storage.FORMAT,
        "powerlab_version": "0.1.0",
        "spec": {
            "game": "fake",
            "players": players,
            "strategies": [{"name": label, "params": {"threshold": 0.5}} for label in lineup],
            "rules": {"starting_coins": 2, "turn_cap": TURN_CAP, "deck_copies": 3},
            "seed": seed,
            "games": games,
            "rotate_seats": rotate,
        },
        "lineup": lineup,
        "columns": {
            "game": [
                {"name": "challenges", "doc": "challenges made in the game"},
                {"name": "end", "doc": "what ended the game"},
            ],
            "seat": [{"name": "coins", "doc": "coins held at the end"}],
        },
        "impact": [{"title": "starting character", "columns": ["start_card0", "start_card1"]}],
        "created": "2026-01-01T12:00:00+00:00",
        "finished": "2026-01-01T12:00:02+00:00",
        "timings": {
            "seconds": 2.0,
            "games_computed": games,
            "games_per_s": games / 2.0,
            "threads": 2,
        },
    }
    return write_run_dir(tmp_path / "run", table, info)


def write_run_dir(run_dir: Path, table: pa.Table, info: dict) -> Path:
    """A run directory as the runner writes one: run.json, and ``table`` in two parts listed in
    the manifest."""
    (run_dir / "games").mkdir(parents=True)
    (run_dir / "run.json").write_text(json.dumps(info, indent=2))
    parts: list[storage.Part] = []
    half = table.num_rows // 2
    for first, count in [(0, half), (half, table.num_rows - half)]:
        rows = table.slice(first, count)
        write = lambda tmp, rows=rows: pq.write_table(rows, tmp)  # noqa: E731
        storage.add_part(run_dir, parts, first, count, write)
    return run_dir
