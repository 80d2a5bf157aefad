"""Studies: file parsing and errors, cell expansion, paired statistics, sequential stopping,
and a shipped study end to end (tiny game counts)."""

from pathlib import Path

import numpy as np
import polars as pl
import pytest
from scipy.stats import norm

from analyses.dataset import load_run
from analyses.paired import compare_runs, paired_difference
from analyses.ratings import ELO_PER_LOGIT, bradley_terry
from analyses.study import load_study_dir
from reports.study import report_pages, write_study_report
from simcore.registry import SpecError
from simcore.workflows import runner, study
from tests.cli.clitools import powerlab

ROOT = Path(__file__).resolve().parents[2]
LINEUP = ["counter", "bluffer", "honest", "random"]
BASE = """
game = "power"
players = 4
games = 100
seed = 7
strategies = ["counter", "bluffer", "honest", "random"]
"""


def write_study(tmp_path: Path, text: str, name: str = "s.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def games_table(out: Path) -> pl.DataFrame:
    return pl.read_parquet(list((out / "games").glob("part-*.parquet"))).sort("game_index")


def test_sweep_grid_expands_arms_points_and_players(tmp_path):
    path = write_study(
        tmp_path,
        BASE.replace("players = 4", "players = [3, 4]").replace(
            'strategies = ["counter", "bluffer", "honest", "random"]', 'strategies = ["bluffer"]'
        )
        + '[[arms]]\nname = "a"\n[[arms]]\nname = "b"\nrules = { overthrow_cost = 6 }\n'
        + '[sweep]\nincome = [1, 2]\n"bluffer.p_bluff" = [0.1, 0.2, 0.4]\n',
    )
    expanded = study.cells(study.load_study(path))
    assert len(expanded) == 2 * 2 * 2 * 3
    assert len({cell.id for cell in expanded}) == len(expanded)
    last = expanded[-1]
    assert last.arm == "b" and last.values == {"players": 4, "income": 2, "bluffer.p_bluff": 0.4}
    assert last.spec.rules["overthrow_cost"] == 6 and last.spec.rules["income"] == 2
    assert last.spec.strategies[0]["params"]["p_bluff"] == 0.4
    assert {c.spec.seed for c in expanded} == {7}


def test_paired_ci_matches_numpy():
    rng = np.random.default_rng(1)
    a = rng.random(500) < 0.3
    b = (rng.random(500) < 0.2) | a & (rng.random(500) < 0.5)
    result = paired_difference(a, b)
    d = a.astype(float) - b.astype(float)
    half = norm.ppf(0.975) * d.std(ddof=1) / np.sqrt(len(d))
    assert result["diff"] == pytest.approx(d.mean())
    assert result["ci_low"] == pytest.approx(d.mean() - half)
    assert result["ci_high"] == pytest.approx(d.mean() + half)
    unpaired = a.var(ddof=1) / 500 + b.var(ddof=1) / 500
    assert result["variance_reduction"] == pytest.approx(unpaired / (d.var(ddof=1) / 500))


def _power_run(out: Path, games: int, settings=(), chunk_size: int = 1000) -> Path:
    spec = runner.build_spec("power", 4, LINEUP, list(settings), 11, games, True)
    runner.run(spec, out, chunk_size=chunk_size)
    return out


def test_common_random_numbers_reduce_variance(tmp_path):
    a = load_run(_power_run(tmp_path / "a", 3000, ["overthrow_cost=7"]))
    b = load_run(_power_run(tmp_path / "b", 3000, ["overthrow_cost=8"]))
    result = compare_runs(a, b, "bluffer")
    # The pairs are the games with a result in both runs: a game cut off in either compares
    # nothing.
    assert result["games"] + result["cut_off"] == 3000
    assert result["games"] == sum(
        1
        for x, y in zip(
            games_table(a.path)["ended_by"], games_table(b.path)["ended_by"], strict=True
        )
        if "cap" not in (str(x), str(y))
    )
    assert result["variance_reduction"] > 1.5


def test_sequential_stop_equals_fixed_run_of_same_size(tmp_path):
    spec = runner.build_spec("power", 4, LINEUP, [], 11, 500, True)
    out = tmp_path / "seq"
    done = study.until_ci_done(out, "bluffer", 0.02)

    def run_one(spec, out):
        runner.run(spec, out, chunk_size=300)

    games = study.run_sequential([spec], [out], 500, 20_000, done, run_one)
    assert 500 < games < 20_000 and games % 500 == 0
    fixed = _power_run(tmp_path / "fixed", games, chunk_size=1000)
    assert games_table(out).equals(games_table(fixed))
    # Resuming the stopped run looks at the same total and stops at once.
    assert study.run_sequential([spec], [out], 500, 20_000, done, run_one) == games


def test_sprt_llr_crosses_bounds():
    lower, upper = study.sprt_bounds(0.05, 0.05)
    assert study.sprt_llr(np.ones(50) - (np.arange(50) % 5 == 0), 0.05) > upper
    assert study.sprt_llr(np.arange(6000) % 2 * 2 - 1, 0.05) < lower


BAD_STUDIES = [
    ("\nbogus = 1\n", "bogus", "unknown key"),
    ("\nrules = { nope = 3 }\n", "rules", "unknown rule parameter"),
    ("\nrules = { overthrow_cost = 99 }\n", "rules", "overthrow_cost=99"),
    ('\nrules = { overthrow_cost = "x" }\n', "rules", "overthrow_cost='x'"),
    ("\n[sweep]\noverthrow_cost = []\n", "sweep.overthrow_cost", "non-empty list"),
    ("\n[sweep]\noverthrow_cost = [6, 99]\n", "sweep.overthrow_cost", "overthrow_cost=99"),
    ('\n[sweep]\n"bluffer.nope" = [1]\n', "sweep.bluffer.nope", "unknown strategy parameter"),
    ("\n[sweep]\nnope = [1]\n", "sweep.nope", "unknown rule parameter"),
    ("\n[stop]\nuntil_ci = 2\n", "stop.until_ci", "(0, 0.5]"),
    ('\n[stop]\nuntil_ci = 0.01\nfocal = "nobody"\n', "stop.focal", "nobody"),
    ('\n[stop]\nsprt = { margin = 0.02, arms = ["x", "y"] }\n', "stop.sprt.arms", "two"),
    ('\n[[arms]]\nname = "a"\nstrategies = ["wizard"]\n', "strategies", "wizard"),
    ('\n[[arms]]\nname = "a"\ncolour = 1\n', "arms[0].colour", "unknown key"),
]


@pytest.mark.parametrize(("extra", "key", "needle"), BAD_STUDIES)
def test_study_errors_name_file_and_key(tmp_path, extra, key, needle):
    path = write_study(tmp_path, BASE + extra)
    with pytest.raises(SpecError) as error:
        study.cells(study.load_study(path))
    message = str(error.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: {key}") and needle in message, message


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        (BASE.replace("games = 100", 'games = "many"'), "games: expected"),
        (BASE.replace('game = "power"', 'game = "chess"'), "game: unknown game"),
        (BASE.replace("players = 4", "players = 9"), "players: power is for"),
        (BASE + "\n[sweep\n", "not valid TOML"),
    ],
)
def test_cli_study_errors_exit_2_and_write_nothing(tmp_path, text, needle):
    path = write_study(tmp_path, text)
    out = tmp_path / "out"
    result = powerlab("study", "run", path, "--out", out)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and str(path) in lines[0] and needle in lines[0], result.stderr
    assert not out.exists()


def test_other_study_in_out_dir_is_refused(tmp_path):
    out = tmp_path / "out"
    first = write_study(tmp_path, BASE.replace("games = 100", "games = 30"), "a.toml")
    assert powerlab("study", "run", first, "--out", out).returncode == 0
    other = write_study(tmp_path, BASE.replace("seed = 7", "seed = 8"), "b.toml")
    before = sorted(p.stat().st_mtime_ns for p in out.rglob("*"))
    result = powerlab("study", "run", other, "--out", out)
    assert result.returncode == 2 and "another study" in result.stderr
    assert sorted(p.stat().st_mtime_ns for p in out.rglob("*")) == before


def test_run_until_ci_rejects_unknown_focal(tmp_path):
    out = tmp_path / "out"
    result = powerlab("run", "power", "--until-ci", 0.01, "--focal", "wizard", "--out", out)
    assert result.returncode == 2 and "--focal" in result.stderr and not out.exists()


def test_compare_refuses_different_seeds(tmp_path):
    a = _power_run(tmp_path / "a", 200)
    spec = runner.build_spec("power", 4, LINEUP, [], 12, 200, True)
    runner.run(spec, tmp_path / "b")
    result = powerlab("compare", a, tmp_path / "b", "--focal", "bluffer")
    assert result.returncode == 2 and "same seed" in result.stderr


@pytest.mark.parametrize(
    "name",
    [
        "power-overthrow-cost.toml",
        "power-seat-advantage.toml",
        "power-struggle-event-order.toml",
        "power-the-game-openings.toml",
    ],
)
def test_shipped_study_runs_end_to_end(tmp_path, name):
    """From the command line, as the README shows. The pages each report must have are checked
    in tests/reports/test_report_legibility.py, on the same studies run in-process."""
    out = tmp_path / "out"
    # The event-order study has 90 cells: at 200 games a cell it was 160 s of the suite.
    games = 50 if name == "power-struggle-event-order.toml" else 200
    result = powerlab("study", "run", ROOT / "studies" / name, "--games", games, "--out", out)
    assert result.returncode == 0, result.stderr
    summary = pl.read_parquet(out / "summary.parquet")
    assert {"cell", "arm", "players", "kind", "name", "win_rate", "ci_low"} <= set(summary.columns)
    pdf = (out / "report.pdf").read_bytes()
    pages = int(result.stdout.split("(")[-1].split()[0])
    assert pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages") == pages >= 2


def test_all_shipped_studies_are_valid():
    for path in sorted((ROOT / "studies").glob("*.toml")):
        expanded = study.cells(study.load_study(path))
        assert all(cell.spec.games <= 200_000 for cell in expanded)


def test_bradley_terry_two_strategies_matches_closed_form():
    matchups = pl.DataFrame(
        {"strategy": ["a", "b"], "opponent": ["b", "a"], "games": [100, 100], "wins": [75, 25]}
    )
    ratings = bradley_terry(matchups)
    assert ratings["strategy"].to_list() == ["a", "b"]
    gap = ratings["rating"][0] - ratings["rating"][1]
    assert gap == pytest.approx(ELO_PER_LOGIT * np.log(3), rel=1e-4)
    assert (ratings["ci_low"] < ratings["rating"]).all()


def test_sprt_study_grows_both_arms_together(tmp_path):
    text = BASE.replace("games = 100", "games = 500") + (
        '[[arms]]\nname = "a"\nrules = { overthrow_cost = 6 }\n[[arms]]\nname = "b"\n'
        '[stop]\nfocal = "honest"\nmax_games = 3000\n'
        'sprt = { margin = 0.02, arms = ["a", "b"] }\n'
    )
    info = study.run_study(study.load_study(write_study(tmp_path, text)), tmp_path / "out")
    [entry] = info["stopping"]
    assert entry["cells"] == ["a", "b"] and entry["verdict"]
    runs = [load_run(tmp_path / "out" / "cells" / cell) for cell in entry["cells"]]
    assert [run.spec["games"] for run in runs] == [entry["games"]] * 2


def test_until_ci_grows_a_cells_arms_together_so_they_stay_paired(tmp_path):
    # Seat 0 wins most games as counter against random players, fewer as honest: alone, the
    # second arm would need about twice the games of the first.
    arms = "".join(
        f'[[arms]]\nname = "{name}"\nstrategies = ["{name}", "random", "random", "random"]\n'
        for name in ("counter", "honest")
    )
    text = BASE + arms + '[stop]\nfocal = "seat:0"\nuntil_ci = 0.04\nmax_games = 3000\n'
    out = tmp_path / "out"
    info = study.run_study(study.load_study(write_study(tmp_path, text)), out)
    [entry] = info["stopping"]
    assert entry["cells"] == ["counter", "honest"] and entry["half_width"] <= 0.04
    runs = [load_run(out / "cells" / cell) for cell in entry["cells"]]
    assert [run.spec["games"] for run in runs] == [entry["games"]] * 2
    stored = [run.scan().select(pl.len()).collect().item() for run in runs]
    assert stored == [entry["games"]] * 2
    assert "Paired differences: honest − counter" in write_study_report(out)


def test_a_lineup_for_the_largest_table_seats_its_first_entries_at_smaller_ones(tmp_path):
    text = BASE.replace("players = 4", "players = [3, 4]")
    expanded = study.cells(study.load_study(write_study(tmp_path, text)))
    lineups = {cell.spec.players: [s["name"] for s in cell.spec.strategies] for cell in expanded}
    assert len(lineups[4]) == 4 and lineups[3] == lineups[4][:3]


def test_study_report_opens_with_its_answer_page_and_writes_a_png_per_page(tmp_path):
    question = "Is a cheaper overthrow better for the bluffer?"
    text = (
        f'title = "Cheaper overthrow"\nquestion = "{question}"\n'
        'assumptions = ["the field: counter, bluffer, honest, random", "$5 coins, literally"]\n'
        + BASE.replace("games = 100", "games = 300")
        + '[[arms]]\nname = "cost 7"\n[[arms]]\nname = "cost 6"\nrules = { overthrow_cost = 6 }\n'
    )
    out = tmp_path / "out"
    slides = tmp_path / "slides"
    result = powerlab("study", "run", write_study(tmp_path, text), "--out", out, "--png", slides)
    assert result.returncode == 0, result.stderr
    pdf = (out / "report.pdf").read_bytes()
    assert f"/Subject ({question})".encode() in pdf
    assert b"/Title (powerlab study: Cheaper overthrow)" in pdf
    pages = int(result.stdout.split("(")[-1].split()[0])
    pngs = sorted(path.name for path in slides.iterdir())
    assert len(pngs) == pages and pngs[:2] == [
        "01-answer-cheaper-overthrow.png", "02-powerlab-study-cheaper-overthrow.png",
    ]  # fmt: skip
    assert pngs[-1].endswith("-the-study-file.png")
    first = report_pages(load_study_dir(out))[0]
    shown = " ".join(" ".join(text.get_text().split()) for text in first.texts)
    assert f"Question: {question}" in shown and r"\$5 coins, literally" in shown
