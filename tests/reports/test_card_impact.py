"""Card impact (analyses/card_impact.py) against a slow brute-force count, and its report pages.

A synthetic run directory (any game: the analysis only reads run.json's ``card_impact`` entry and
the per-seat bitmask columns) with deliberate effects: a strong card, a card in bit 63 (the sign
bit), a card nobody draws. Then a real Time Barons run, end to end through the runner.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from analyses import AnalysisError
from analyses.card_impact import card_impact, newcombe_interval
from analyses.dataset import load_run
from analyses.stats import wilson_interval
from reports.pdf import write_report
from simcore.workflows import runner, storage
from tests.cli.fakerun import make_fake_run, write_run_dir

N_CARDS = 64
STRONG, NEVER, SIGN_BIT = 3, 10, 63


def make_card_run(tmp_path: Path, games: int = 3000, seed: int = 1) -> Path:
    """A 2-seat run whose seats draw random cards; drawing card STRONG helps win."""
    rng = np.random.default_rng(seed)
    drawn = rng.random((games, 2, N_CARDS)) < 0.3
    drawn[:, :, NEVER] = False
    played = drawn & (rng.random((games, 2, N_CARDS)) < 0.6)
    weight = 1.0 + 2.0 * drawn[:, :, STRONG]
    winner = np.where(rng.random(games) < weight[:, 0] / weight.sum(axis=1), 0, 1)
    winner[rng.random(games) < 0.05] = -1  # draws: nobody won

    def masks(bits: np.ndarray) -> np.ndarray:
        values = (bits.astype(np.uint64) << np.arange(N_CARDS, dtype=np.uint64)).sum(axis=-1)
        return values.astype(np.uint64).view(np.int64)

    columns = {
        "game_index": np.arange(games, dtype=np.int64),
        "winner": winner.astype(np.int8),
        "turns": np.full(games, 20, dtype=np.int32),
        "ended_by": pa.array(np.where(winner < 0, "draw", "rules")).dictionary_encode(),
    }
    lineup = ["a", "b"]
    for seat in range(2):
        slots = pa.array(((seat + np.arange(games)) % 2).astype(np.int32))
        columns[f"s{seat}_strategy"] = pa.DictionaryArray.from_arrays(slots, pa.array(lineup))
        columns[f"s{seat}_won"] = winner == seat
        columns[f"s{seat}_drawn"] = masks(drawn[:, seat])
        columns[f"s{seat}_played"] = masks(played[:, seat])
    info = {
        "format": storage.FORMAT,
        "spec": {
            "game": "cards",
            "players": 2,
            "strategies": [{"name": "a"}, {"name": "b"}],
            "seed": seed,
            "games": games,
            "rules": {},
            "rotate_seats": True,
        },
        "lineup": lineup,
        "columns": {"game": [], "seat": []},
        "impact": [],
        "card_impact": [
            {
                "title": "card",
                "drawn_column": "drawn",
                "played_column": "played",
                "labels": [f"c{k}" for k in range(N_CARDS)],
            }
        ],
    }
    return write_run_dir(tmp_path / "run", pa.table(columns), info)


def brute_force(run_dir: Path) -> list[dict]:
    """Per card, by plain loops over every (game, seat)."""
    games = pl.read_parquet(run_dir / "games").to_dicts()
    rows = []
    for k in range(N_CARDS):
        count = {"drawn": [0, 0], "played": [0, 0], "never_seen": [0, 0]}
        for game in games:
            for seat in range(2):
                won = int(game[f"s{seat}_won"])
                has_drawn = (int(game[f"s{seat}_drawn"]) >> k) & 1
                has_played = (int(game[f"s{seat}_played"]) >> k) & 1
                for outcome, yes in (
                    ("drawn", has_drawn),
                    ("played", has_played),
                    ("never_seen", not has_drawn),
                ):
                    if yes:
                        count[outcome][0] += 1
                        count[outcome][1] += won
        rows.append(count)
    return rows


def close(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or math.isclose(a, b, abs_tol=1e-12)


def test_card_impact_matches_brute_force(tmp_path):
    run_dir = make_card_run(tmp_path)
    [result] = card_impact(load_run(run_dir))
    expected = brute_force(run_dir)
    assert result.seat_rows == 2 * 3000 and result.table.height == N_CARDS
    for k, row in enumerate(result.table.iter_rows(named=True)):
        assert row["card"] == f"c{k}"
        for outcome, (seats, wins) in expected[k].items():
            assert row[f"{outcome}_seats"] == seats and row[f"{outcome}_wins"] == wins
            assert close(row[f"{outcome}_win_rate"], wins / seats if seats else math.nan)
            low, high = wilson_interval(wins, seats)
            assert close(row[f"{outcome}_ci_low"], low) and close(row[f"{outcome}_ci_high"], high)
        drawn, never = expected[k]["drawn"], expected[k]["never_seen"]
        if drawn[0]:
            assert close(row["iwd"], drawn[1] / drawn[0] - never[1] / never[0])
    table = result.table
    strong = table.row(STRONG, named=True)
    assert strong["iwd_ci_low"] > 0.1, "the strong card's improvement is found"
    assert table.row(SIGN_BIT, named=True)["drawn_seats"] > 0, "bit 63 counts like the others"
    never = table.row(NEVER, named=True)
    assert (
        never["drawn_seats"] == 0 and math.isnan(never["iwd"]) and math.isnan(never["iwd_ci_low"])
    )


def test_newcombe_interval_contains_the_difference_and_is_wider_than_its_parts():
    low, high = newcombe_interval(60, 100, 40, 100)
    assert low < 0.2 < high
    assert high - low > (wilson_interval(60, 100)[1] - wilson_interval(60, 100)[0])
    assert all(math.isnan(x) for x in newcombe_interval(0, 0, 5, 10))


def test_missing_card_columns_are_a_one_line_error(tmp_path):
    run_dir = make_card_run(tmp_path, games=100)
    info = json.loads((run_dir / "run.json").read_text())
    info["card_impact"][0]["drawn_column"] = "nope"
    (run_dir / "run.json").write_text(json.dumps(info))
    with pytest.raises(AnalysisError, match="lack card-impact columns s0_nope"):
        card_impact(load_run(run_dir))


def test_runs_without_card_impact_have_no_card_pages(tmp_path):
    run = load_run(make_fake_run(tmp_path, players=3, games=300))
    assert card_impact(run) == []
    titles = write_report(run.path, tmp_path / "report.pdf")
    assert not any(title.startswith("Card impact") for title in titles)


def test_report_ranks_cards_over_pages(tmp_path):
    run_dir = make_card_run(tmp_path, games=400)
    titles = write_report(run_dir, tmp_path / "report.pdf")
    pages = [title for title in titles if title.startswith("Card impact")]
    assert pages == [
        "Card impact: card (1 of 3)",
        "Card impact: card (2 of 3)",
        "Card impact: card (3 of 3)",
    ]


def test_time_barons_run_end_to_end(tmp_path):
    """The runner exports the card set; the analysis agrees with a direct count from Parquet."""
    spec = runner.build_spec("time-barons", 2, ["builder", "attacker"], [], 5, 3000, True)
    runner.run(spec, tmp_path / "run")
    run = load_run(tmp_path / "run")
    [result] = card_impact(run)
    assert result.table["card"][0] == "Catapult" and result.table.height == 50
    games = pq.read_table(tmp_path / "run" / "games")
    k = result.table["card"].to_list().index("Church")
    drawn = wins = 0
    for seat in range(2):
        has = (games[f"s{seat}_drawn_mask"].to_numpy() >> k) & 1
        drawn += has.sum()
        wins += (has * games[f"s{seat}_won"].to_numpy()).sum()
    assert result.table["drawn_seats"][k] == drawn and result.table["drawn_wins"][k] == wins
    titles = write_report(tmp_path / "run", tmp_path / "report.pdf")
    assert "Card impact: level card (1 of 2)" in titles
