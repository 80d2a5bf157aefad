"""``ismcts`` through the designer's tools (docs/ismcts.md): a study sweeping its iterations (the
skill trace), a run with two search strengths, a tuning whose field holds a searching seat, and
a meta-game whose population names one; each small, right-shaped and reproducible (tiny
iterations and few games)."""

import polars as pl
import pytest

from analyses.dataset import load_run
from analyses.meta import load_meta, payoff_table, solve
from analyses.study import load_study_dir, summary_table
from reports.skill import SKILL_AXIS, run_skill_trace, run_skill_trace_pages
from reports.study import report_pages
from simcore.workflows import meta, runner, study, tuning

SKILL_STUDY = """
game = "power"
players = [3, 4]
games = 16
seed = 3
rotate_seats = true
strategies = ["ismcts", "counter", "bluffer", "honest"]
[sweep]
"ismcts.iterations" = [2, 8]
[answer]
focal = "ismcts"
"""


def test_a_study_sweeps_the_search_iterations_and_reports_a_skill_trace(tmp_path):
    path = tmp_path / "skill.toml"
    path.write_text(SKILL_STUDY)
    loaded = study.load_study(path)
    expanded = study.cells(loaded)
    assert [c.id for c in expanded] == [f"{n}p_{SKILL_AXIS}={k}" for n in (3, 4) for k in (2, 8)]
    assert [c.spec.strategies[0]["params"]["iterations"] for c in expanded] == [2, 8, 2, 8]
    for k in (1, 2):
        study.run_study(loaded, tmp_path / f"out{k}", threads=1)
    first, second = (load_study_dir(tmp_path / f"out{k}") for k in (1, 2))
    rows = summary_table(first)
    search = rows.filter((pl.col("kind") == "strategy") & (pl.col("name") == "ismcts"))
    assert search.height == 4 and (search["games"] == 16).all()
    assert (
        (search["ci_low"] <= search["win_rate"]) & (search["win_rate"] <= search["ci_high"])
    ).all()
    titles = [page.title for page in report_pages(second)]
    assert titles[0].startswith("Answer:")
    assert any(t.startswith("Skill trace: the ismcts seat's win rate") for t in titles)
    assert summary_table(second).equals(rows)  # reproducible


def test_a_field_with_a_searching_seat_tunes_reproducibly(tmp_path):
    spec = tuning.build_spec(
        "power", 3, "bluffer", ["ismcts:iterations=3", "counter"], [], 1, 900, only=["p_bluff"],
        min_games=6, final_games=120,
    )  # fmt: skip
    summaries = [tuning.tune(spec, tmp_path / f"t{k}") for k in (1, 2)]
    for summary in summaries:
        summary.pop("timings")
    assert summaries[0] == summaries[1]
    fresh = summaries[0]["fresh"]
    assert 0 <= fresh["ci_low"] <= fresh["win_rate"] <= fresh["ci_high"] <= 1
    assert 0 <= summaries[0]["best_params"]["p_bluff"] <= 1
    trials = [pl.read_parquet(tmp_path / f"t{k}" / "trials.parquet") for k in (1, 2)]
    assert trials[0].equals(trials[1]) and trials[0].height >= 2


def test_a_population_with_a_search_spec_makes_a_reproducible_meta_game(tmp_path):
    population = tmp_path / "population.toml"
    population.write_text(
        'game = "power"\nstrategies = ["counter", "bluffer", "ismcts:iterations=3"]\n'
    )
    spec = meta.build_spec("power", 3, population, [], 4, 12)
    for k in (1, 2):
        meta.run_meta(spec, tmp_path / f"m{k}", threads=1)
    games = [load_meta(tmp_path / f"m{k}") for k in (1, 2)]
    assert games[0].wins.shape == (10, 12, 3)  # C(3 + 3 - 1, 3) lineups, games, strategies
    assert (games[0].wins <= games[0].seats[:, None, :]).all()
    assert (games[0].wins == games[1].wins).all()
    payoffs = payoff_table(games[0])
    assert payoffs.equals(payoff_table(games[1]))
    mirror = payoffs.filter(pl.col("lineup").str.count_matches("ismcts") == 3)
    assert mirror["seats"].to_list() == [3]
    solution = solve(games[0], resamples=2, seed=5)
    assert solution["labels"][2] == "ismcts:iterations=3"
    assert sum(solution["equilibrium"]["mix"]) == pytest.approx(1)


@pytest.mark.parametrize("key", ["ismcts.depth", "ismcts.iterations"])
def test_bad_search_sweeps_are_one_line_errors(tmp_path, key):
    path = tmp_path / "bad.toml"
    values = "[0, 8]" if key == "ismcts.iterations" else "[1, 2]"
    path.write_text(SKILL_STUDY.replace('"ismcts.iterations" = [2, 8]', f'"{key}" = {values}'))
    with pytest.raises(study.SpecError) as error:
        study.cells(study.load_study(path))
    assert key in str(error.value) and "\n" not in str(error.value)


def test_a_run_with_two_search_strengths_reports_its_skill_trace(tmp_path):
    lineup = ["ismcts:iterations=2", "ismcts:iterations=8", "counter", "bluffer"]
    runner.run(runner.build_spec("power", 4, lineup, [], 2, 16, True), tmp_path / "r", threads=1)
    run = load_run(tmp_path / "r")
    rows = run_skill_trace(run)
    assert rows[SKILL_AXIS].to_list() == [2, 8] and (rows["players"] == 4).all()
    assert rows["games"].is_between(12, 16).all()  # each search seat sits in every game
    assert [p.title for p in run_skill_trace_pages(run)] == [
        "Skill trace: the ismcts seat's win rate as its iterations grow"
    ]
    one = ["ismcts:iterations=2", "counter", "bluffer", "honest"]
    runner.run(runner.build_spec("power", 4, one, [], 2, 4, True), tmp_path / "one", threads=1)
    assert run_skill_trace_pages(load_run(tmp_path / "one")) == []  # one strength: no trace
