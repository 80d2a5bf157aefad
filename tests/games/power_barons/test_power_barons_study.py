"""The hand-set Power Barons flush study (studies/power-barons-flush-threshold.toml) end to end
at tiny game counts: every cell runs, the summary and the report PDF are written with the paired
differences and the response curves, and the cells hold the flush columns, with the opponents'
banking swept both ways."""

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from reports.study import write_study_report
from simcore.workflows import study

ROOT = Path(__file__).resolve().parents[3]
STUDY = ROOT / "studies" / "power-barons-flush-threshold.toml"
THRESHOLDS = [0.8, 0.9, 1.0, 1.1, 1.2]
BANKINGS = ["keep_best", "lowest"]  # the barons'


def powerlab(*args):
    return subprocess.run(
        [sys.executable, "-m", "cli", *map(str, args)], capture_output=True, text=True, cwd=ROOT
    )


PLAYERS = 4


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


def test_the_study_file_expands_to_both_arms_at_every_threshold_and_banking():
    loaded = study.load_study(STUDY)
    assert loaded.question and any("baron.banking" in a for a in loaded.assumptions)
    cells = study.cells(loaded)
    keys = ("flusher.flush_below", "baron.banking")
    assert [(c.arm, *(c.values[k] for k in keys)) for c in cells] == [
        (arm, t, b) for arm in ("never flush", "flush") for t in THRESHOLDS for b in BANKINGS
    ]
    assert all(c.spec.games <= 200_000 for c in cells)
    for cell in cells:
        assert cell.spec.players == PLAYERS
        names = [s["name"] for s in cell.spec.strategies]
        assert names == ["flusher", "baron", "baron", "baron"]
        banking = {s["name"]: s["params"]["banking"] for s in cell.spec.strategies}
        assert banking == {"flusher": "keep_best", "baron": cell.values["baron.banking"]}


def test_the_report_pairs_the_arms_and_draws_the_response_curves(flush_study):
    out, result = flush_study
    pdf = (out / "report.pdf").read_bytes()
    pages = int(result.stdout.split("(")[-1].split()[0])
    assert pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages") == pages
    titles = write_study_report(out)
    assert len(titles) == pages
    # Long pages are split "(1 of n)": match the titles' beginnings.
    assert any(t.startswith("Paired differences: flush − never flush") for t in titles)
    for key in ("flusher.flush_below", "baron.banking"):
        assert any(t.startswith(f"Win rate by strategy against {key}") for t in titles), key
    summary = pl.read_parquet(out / "summary.parquet")
    rows = summary.filter((pl.col("kind") == "strategy") & (pl.col("name") == "flusher"))
    assert rows.height == 2 * len(THRESHOLDS) * len(BANKINGS)
    assert set(rows["arm"]) == {"never flush", "flush"}
    assert set(rows["players"]) == {PLAYERS}
    assert sorted(set(rows["flusher.flush_below"])) == THRESHOLDS
    assert set(rows["baron.banking"]) == set(BANKINGS)


def test_cells_hold_the_flush_columns(flush_study):
    out, _ = flush_study
    cell = "{arm}_flusher.flush_below={t}_baron.banking={b}"
    labels = [f"s{k}_strategy" for k in range(PLAYERS)]  # these name the threshold
    for b in BANKINGS:
        never = [cell_games(out, cell.format(arm="never-flush", t=t, b=b)) for t in THRESHOLDS]
        flush = [cell_games(out, cell.format(arm="flush", t=t, b=b)) for t in THRESHOLDS]
        for games in never:
            assert flusher_total(games, "flush_attempts") == 0
            assert games.drop(labels).equals(never[0].drop(labels))  # the same games everywhere
        attempts = [flusher_total(games, "flush_attempts") for games in flush]
        assert attempts[0] < attempts[-1]  # more flushes as the threshold rises
        done = flusher_total(flush[-1], "flushes")
        assert 0 < done <= attempts[-1]
        assert flusher_total(flush[-1], "flush_credits_given") > 0


RESTRICTED = ROOT / "studies" / "power-barons-flush.toml"
SETTINGS = ["barons keep_best", "barons lowest", "tuned barons keep_best", "tuned barons lowest"]


def test_the_restricted_play_flush_study_tunes_per_setting_and_answers_each(tmp_path):
    """The shipped restricted-play study at a tiny tuning budget: both arms tuned against each
    opponent setting (tuned presets among them), the tuned-without flusher never flushes, and
    the answer page has one answer per setting."""
    from analyses.answers import answers
    from analyses.study import load_study_dir

    loaded = study.load_study(RESTRICTED)
    assert loaded.restrict.fixed == {"p_flush": 0.0}
    assert [setting.name for setting in loaded.opponents] == SETTINGS
    assert loaded.restrict.search == {"iterations": 100, "games": 500}
    tiny = dataclasses.replace(
        loaded.restrict, budget=1200, min_games=4, search={"iterations": 3, "games": 8}
    )
    info = study.run_study(dataclasses.replace(loaded, restrict=tiny), tmp_path, games=200)
    tuned = {(e["opponents"], e["arm"]): e["spec"] for e in info["tuned"]}
    arms = study.RESTRICT_ARMS + study.SEARCH_ARMS
    assert set(tuned) == {(s, arm) for s in SETTINGS for arm in arms}
    assert all("p_flush=0," in tuned[s, "tuned without"] for s in SETTINGS)
    for s in SETTINGS:  # the search arms' playouts: the two tuned specs
        for search_arm, arm in zip(study.SEARCH_ARMS, study.RESTRICT_ARMS, strict=True):
            assert tuned[s, search_arm] == f"ismcts:iterations=3,rollout={tuned[s, arm]}"
    for (setting, arm), spec in tuned.items():  # the winner only where it beat the start
        if arm in study.SEARCH_ARMS:
            continue
        folder = tmp_path / "tuning" / f"{setting.replace(' ', '-')}_4p" / arm.replace(" ", "-")
        summary = json.loads((folder / "summary.json").read_text())
        assert summary["search"]["seed"] == loaded.seed + study.TUNING_SEED_OFFSET
        own = summary["best"] if summary["fresh"]["diff_ci_low"] > 0 else summary["baseline"]
        if arm == "tuned" and spec != own:  # the free player plays the restricted arm's choice
            assert spec == tuned[setting, "tuned without"]
        else:
            assert spec == own
    cell = "tuned-without_opponents=tuned-barons-lowest"
    games = cell_games(tmp_path, cell)
    assert flusher_total(games, "flush_attempts") == 0
    search_cell = "search-without_opponents=tuned-barons-lowest"
    assert cell_games(tmp_path, search_cell).height == 8  # the search arms' own games a cell
    rows = answers(load_study_dir(tmp_path))
    assert rows["opponents"].to_list() == SETTINGS * 2
    assert rows["key"].to_list() == ["tuned − tuned without"] * 4 + ["search − search without"] * 4
    assert rows["games"].to_list()[4:] == [8] * 4
    from reports.study import write_study_report

    titles = write_study_report(tmp_path)  # the search arms pair with each other, not "tuned"
    assert "Paired differences" in titles and (tmp_path / "report.pdf").exists()


def test_the_free_arm_takes_the_restricted_choice_only_when_it_plays_better():
    """Restricted play: the free player's options include the restricted arm's choice, so a
    free search that missed it must not make the option look harmful. The race compares the two
    specs on the free tuning's fresh games, in the right direction."""
    from simcore import registry
    from simcore.workflows import tuning

    game = registry.make("power-barons")
    free_tuning = tuning.build_spec(
        "power-barons", 4, "flusher", ["baron"] * 3, [], 7, 1200, min_games=4, final_games=1000
    )
    weak, strong = "random", "preset:flusher-vs-barons"
    assert study.free_takes_restricted(game, free_tuning, weak, strong, None, None)
    assert not study.free_takes_restricted(game, free_tuning, strong, weak, None, None)
    assert not study.free_takes_restricted(game, free_tuning, weak, weak, None, None)
