"""The Power Barons flush study (studies/power-barons-flush.toml) end to end at tiny game counts:
every cell runs, the summary and the report PDF are written with the paired differences and the
response curves, and the cells hold the flush columns, at 3 and at 4 players."""

import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from reports.study import write_study_report
from simcore import study

ROOT = Path(__file__).resolve().parent.parent
STUDY = ROOT / "studies" / "power-barons-flush.toml"
THRESHOLDS = [160.0, 180.0, 200.0, 220.0, 240.0, 260.0, 280.0, 300.0]


def powerlab(*args):
    return subprocess.run(
        [sys.executable, "-m", "cli", *map(str, args)], capture_output=True, text=True, cwd=ROOT
    )


PLAYERS = (3, 4)


def cell_games(out: Path, cell_id: str) -> pl.DataFrame:
    return pl.read_parquet(out / "cells" / cell_id / "games" / "*.parquet").sort("game_index")


def flusher_total(games: pl.DataFrame, column: str) -> int:
    """Sum of a per-seat column over the seats the flusher sat in."""
    seats = sum(1 for name in games.columns if name.endswith("_strategy"))
    return sum(
        games.filter(pl.col(f"s{k}_strategy").cast(pl.String).str.starts_with("flusher"))[
            f"s{k}_{column}"
        ].sum()
        for k in range(seats)
    )


@pytest.fixture(scope="module")
def flush_study(tmp_path_factory):
    out = tmp_path_factory.mktemp("flush") / "out"
    result = powerlab("study", "run", STUDY, "--games", 200, "--out", out)
    assert result.returncode == 0, result.stderr
    return out, result


def test_the_study_file_expands_to_both_arms_at_every_threshold():
    cells = study.cells(study.load_study(STUDY))
    assert [(c.arm, c.values["players"], c.values["flusher.flush_below"]) for c in cells] == [
        (arm, n, t) for arm in ("never flush", "flush") for n in PLAYERS for t in THRESHOLDS
    ]
    assert all(c.spec.games <= 200_000 for c in cells)
    three = [c.spec for c in cells if c.spec.players == 3]
    assert all(
        [s["name"] for s in spec.strategies] == ["flusher", "baron", "baron"] for spec in three
    )


def test_the_report_pairs_the_arms_and_draws_the_response_curves(flush_study):
    out, result = flush_study
    pdf = (out / "report.pdf").read_bytes()
    pages = int(result.stdout.split("(")[-1].split()[0])
    assert pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages") == pages
    titles = write_study_report(out)
    assert len(titles) == pages
    # 14 comparisons a page: "(1 of 2)" when there are more
    assert any(title.startswith("Paired differences: flush − never flush") for title in titles)
    assert "Win rate by strategy against flusher.flush_below" in titles
    summary = pl.read_parquet(out / "summary.parquet")
    rows = summary.filter((pl.col("kind") == "strategy") & (pl.col("name") == "flusher"))
    assert rows.height == 32 and set(rows["arm"]) == {"never flush", "flush"}
    assert set(rows["players"]) == set(PLAYERS)
    assert sorted(set(rows["flusher.flush_below"])) == THRESHOLDS


def test_cells_hold_the_flush_columns(flush_study):
    out, _ = flush_study
    for n in PLAYERS:
        cell = "{arm}_{n}p_flusher.flush_below={t}"
        never = [cell_games(out, cell.format(arm="never-flush", n=n, t=t)) for t in THRESHOLDS]
        flush = [cell_games(out, cell.format(arm="flush", n=n, t=t)) for t in THRESHOLDS]
        labels = [f"s{k}_strategy" for k in range(n)]  # these name the threshold
        for games in never:
            assert flusher_total(games, "flush_attempts") == 0
            assert games.drop(labels).equals(never[0].drop(labels))  # the same games everywhere
        attempts = [flusher_total(games, "flush_attempts") for games in flush]
        assert attempts == sorted(attempts) and attempts[-1] > 0  # more flushes as it rises
        done = flusher_total(flush[-1], "flushes")
        before = flusher_total(flush[-1], "flush_hand_before")
        assert 0 < done <= attempts[-1] and before < THRESHOLDS[-1] * done
        assert flusher_total(flush[-1], "flush_credits_given") > 0
