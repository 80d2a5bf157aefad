"""Counts bounded where they are parsed, nonsense refused, intervals that are intervals (issue
45). A count past its bound (memory, or time at today's speed), a count below its floor, a key
given twice in a strategy spec and a number written as text in a study's ``[restrict]`` table are
each one line and exit code 2, with nothing written and no game played: the workflows that would
play are replaced by one that fails the test if it is reached (bench: before any game is
compiled or measured). The tuning's headline win rate is a proportion, so its interval lies
inside [0, 100]%; its gain is a difference of two, so its interval lies inside [-100, +100]
points."""

import itertools

import numpy as np
import pytest

from analyses.stats import paired_score_difference, wilson_interval
from reports.takeaways import tuning as tuning_headline
from simcore import registry
from simcore.registry import SpecError
from simcore.workflows import bench, meta, runner, tuning
from tests.cli.clitools import in_process, one_error_line
from tests.cli.fakerun import make_fake_run

HUGE = 10**30
TUNE = ["tune", "power", "-p", 3, "-s", "bluffer", "-a", "honest", "-n", 10_000]
STUDY = (
    'game = "power"\nplayers = 4\ngames = 50\n'
    '[[opponents]]\nname = "x"\nstrategies = ["counter"]\n'
    '[restrict]\nstrategy = "bluffer"\n'
)


@pytest.fixture(autouse=True)
def nothing_is_played(monkeypatch):
    """Every refusal here comes before a game: reaching a workflow that plays fails the test."""

    def reached(*args, **kwargs):
        raise AssertionError("the input was accepted and the workflow started")

    monkeypatch.setattr(tuning, "tune", reached)
    monkeypatch.setattr(meta, "run_meta", reached)
    monkeypatch.setattr(runner, "run", reached)


def refused(tmp_path, *args) -> str:
    """The one error line of ``powerlab ARGS -o OUT``, asserting exit code 2 and no OUT."""
    out = tmp_path / "out"
    code, _, stderr = in_process(*args, "-o", out)
    line = one_error_line(stderr)
    assert code == 2, stderr
    assert not out.exists()
    return line


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        # Before: accepted, and the search ran until killed.
        (["--budget", HUGE], ["--budget must be in [1, ", "memory"]),
        # Before: numpy's "Maximum allowed dimension exceeded" once the fresh games began.
        (["--final-games", 10**14], ["--final-games must be in [1, ", "memory"]),
        # Before: each ran with exit code 0 (-5 and -100 became one table, 0 the default).
        (["--min-games", -5], ["--min-games must be in [1, ", "not -5"]),
        (["--final-games", -100], ["--final-games must be in [1, ", "not -100"]),
        (["--final-games", 0], ["--final-games must be in [1, ", "not 0"]),
        (["--self-play", "--rounds", HUGE], ["--rounds must be in [1, ", "search"]),
        (["--seeds", HUGE], ["--seeds must be in [1, ", "search"]),
    ],
)
def test_a_tune_count_out_of_bounds_is_one_line(tmp_path, args, needles):
    base = [a for a in TUNE if a != "honest" and a != "-a"] if "--self-play" in args else TUNE
    line = refused(tmp_path, *base, *args)
    assert all(needle in line for needle in needles), line


def test_a_tune_count_inside_the_bounds_is_taken_as_given():
    spec = tuning.build_spec(
        "power", 3, "bluffer", ["honest"], [], 0, tuning.MAX_BUDGET, min_games=75, final_games=3
    )
    assert (spec.budget, spec.min_games, spec.final_games) == (tuning.MAX_BUDGET, 75, 3)


def test_meta_resamples_beyond_the_bound_are_refused_before_any_lineup_plays(tmp_path):
    # Before: accepted; every lineup was played, then the solver resampled until killed.
    (tmp_path / "pop.toml").write_text('strategies = ["counter", "honest"]\n')
    args = ["meta", "power", "--population", tmp_path / "pop.toml", "-n", 20]
    line = refused(tmp_path, *args, "--resamples", HUGE)
    assert "--resamples must be in [0, " in line and "resample solves the game" in line, line


def test_meta_games_that_the_solvers_cannot_hold_are_refused(tmp_path):
    (tmp_path / "pop.toml").write_text('strategies = ["counter", "honest"]\n')
    args = ["meta", "power", "--population", tmp_path / "pop.toml", "-n", 2**61]
    line = refused(tmp_path, *args)
    assert "--games must be in [1, " in line and "memory" in line, line


def test_games_of_a_limit_beyond_any_run_is_one_line(tmp_path):
    # Before: a traceback from polars (the limit does not fit 64 bits).
    run = make_fake_run(tmp_path, games=40)
    code, _, stderr = in_process("games-of", run, "--where", "turns > 0", "--limit", HUGE)
    assert code == 2 and "--limit must be in [0, " in one_error_line(stderr)
    code, stdout, _ = in_process("games-of", run, "--where", "turns > 0", "--limit", 2**62)
    assert code == 0 and "40 of the run's games" in stdout


@pytest.mark.parametrize(
    "text", ["ismcts:iterations=1,iterations=2", "bluffer:p_bluff=0.1,p_bluff=0.2"]
)
def test_a_key_given_twice_in_a_strategy_spec_is_refused(tmp_path, text):
    # Before: the last value silently won and the run went ahead.
    line = refused(tmp_path, "run", "power", "-n", 50, "-s", text)
    assert "given twice" in line, line
    with pytest.raises(SpecError, match="given twice"):
        registry.parse_strategy(registry.make("power"), text)


def test_a_rule_set_twice_is_refused(tmp_path):
    # Before: the last --set silently won and the run went ahead.
    line = refused(tmp_path, "run", "power", "-n", 50, "--set", "income=1", "--set", "income=2")
    assert "--set: income is given twice" in line, line


@pytest.mark.parametrize(
    ("table", "needle"),
    [
        # Before: accepted, and the first tuning ran until killed.
        (f"fixed = {{ p_bluff = 0.0 }}\nbudget = {HUGE}\n", "restrict.budget must be in [1, "),
        # Before: accepted, a first rung of one table.
        ("fixed = { p_bluff = 0.0 }\nbudget = 10000\nmin_games = -1\n", "restrict.min_games"),
        # Before: the text "0.0" was read as the number 0.0.
        ('fixed = { p_bluff = "0.0" }\nbudget = 10000\n', "restrict.fixed: p_bluff='0.0'"),
    ],
)
def test_a_bad_restrict_value_is_refused_before_study_json(tmp_path, table, needle):
    (tmp_path / "s.toml").write_text(STUDY + table)
    line = refused(tmp_path, "study", "run", tmp_path / "s.toml")
    assert "s.toml: " in line and needle in line, line


# --- the tuning's headline interval ------------------------------------------------------------


class FakePlayer:
    """Plays nothing: ``wins(candidate, first opponent)`` lists lineup slot 0's win of each game
    (every game has a result)."""

    def __init__(self, wins):
        self.wins = wins

    def outcomes(self, spec, first, stop):
        won = self.wins(spec.strategies[0], spec.strategies[1])[first:stop]
        return np.array([[w, 1] for w in won], dtype=np.int8)


def test_few_fresh_games_give_a_win_rate_interval_inside_0_and_100_percent():
    # Before: "wins 66.7% [1.3%, 132.0%] of 3 fresh games" (a normal interval of three games).
    spec = tuning.build_spec("power", 3, "bluffer", ["honest"], [], 0, 10_000, final_games=3)
    best = spec.candidate({"p_bluff": 0.5})
    play = FakePlayer(lambda me, _: [1, 1, 0] if me == best else [0, 1, 0])
    measured = tuning.fresh_measure(spec, play, best, spec.strategy)
    assert measured["games"] == 3 and measured["win_rate"] == pytest.approx(2 / 3)
    assert (measured["ci_low"], measured["ci_high"]) == pytest.approx(wilson_interval(2, 3))
    assert (measured["baseline_ci_low"], measured["baseline_ci_high"]) == pytest.approx(
        wilson_interval(1, 3)
    )
    line = tuning_headline({"best": "bluffer:p_bluff=0.5", "fresh": measured})
    assert "wins 66.7% [" in line and "132" not in line, line


def test_few_fresh_games_give_a_paired_difference_inside_minus_and_plus_100_points():
    # Before: "+66.7 points [+1.3, +132.0]" (a normal interval of three paired games).
    spec = tuning.build_spec("power", 3, "bluffer", ["honest"], [], 0, 10_000, final_games=3)
    best = spec.candidate({"p_bluff": 0.5})
    play = FakePlayer(lambda me, _: [1, 1, 0] if me == best else [0, 0, 0])
    measured = tuning.fresh_measure(spec, play, best, spec.strategy)
    assert measured["diff"] == pytest.approx(2 / 3)
    assert -1 <= measured["diff_ci_low"] < measured["diff"] < measured["diff_ci_high"] <= 1
    line = tuning_headline({"best": "bluffer:p_bluff=0.5", "fresh": measured})
    assert "+66.7 points [" in line and "132" not in line, line


def test_a_paired_score_difference_lies_inside_minus_1_and_1_however_few_the_games():
    for n in (2, 3, 4):
        for a in itertools.product((0, 1), repeat=n):
            for b in itertools.product((0.0, 0.5, 1.0), repeat=n):
                diff, low, high = paired_score_difference(a, b)
                assert -1 <= low <= diff <= high <= 1, (a, b, low, high)


def test_a_paired_score_difference_of_many_games_is_the_normal_paired_interval():
    """With many games the interval is the paired normal one, narrowed by the correlation of
    the pairs as common random numbers narrow it."""
    rng = np.random.default_rng(1)
    a = rng.random(20_000) < 0.3
    b = a ^ (rng.random(20_000) < 0.02)
    diff, low, high = paired_score_difference(a, b)
    d = a.astype(float) - b
    half = 1.96 * d.std(ddof=1) / np.sqrt(len(d))
    assert diff == pytest.approx(d.mean())
    assert (low, high) == pytest.approx((d.mean() - half, d.mean() + half), abs=0.1 * half)
    unpaired = paired_score_difference(a, rng.permutation(b))
    assert unpaired[2] - unpaired[1] > 3 * (high - low)


def test_a_score_weighted_over_fields_gets_a_wilson_interval():
    spec = tuning.build_spec(
        "power", 3, "bluffer", [], [], 0, 10_000, final_games=3,
        fields=[(1.0, ["honest"]), (1.0, ["counter"])],
    )  # fmt: skip
    best = spec.candidate({"p_bluff": 0.5})

    def wins(me, them):
        if me != best:
            return [0, 0, 0]
        return [1, 1, 1] if them["name"] == "honest" else [0, 1, 0]

    measured = tuning.fresh_measure(spec, FakePlayer(wins), best, spec.strategy)
    assert measured["win_rate"] == pytest.approx(2 / 3)  # scores 0.5, 1 and 0.5
    assert (measured["ci_low"], measured["ci_high"]) == pytest.approx(wilson_interval(2, 3))
    # Before: [0, 0], an interval of no width around a rate measured on three games.
    assert (measured["baseline_ci_low"], measured["baseline_ci_high"]) == pytest.approx(
        wilson_interval(0, 3)
    )


def test_the_race_of_several_searches_gives_win_rate_intervals_inside_0_and_1():
    spec = tuning.build_spec(
        "power", 3, "bluffer", ["honest"], [], 0, 10_000, final_games=3, starts=2
    )
    a = spec.candidate({"p_bluff": 0.5})
    starts = [
        {"start": 1, "best": "a", "best_params": {"p_bluff": 0.5}},
        {"start": 2, "best": "b", "best_params": {"p_bluff": 0.25}},
    ]
    play = FakePlayer(lambda me, _: [1, 1, 0] if me == a else [0, 0, 1])
    race = tuning.race_winners(spec, play, starts)
    for candidate, wins in zip(race["candidates"], (2, 1), strict=True):
        assert (candidate["ci_low"], candidate["ci_high"]) == pytest.approx(
            wilson_interval(wins, 3)
        )


# --- bench: measured only once every option and game is known good ---------------------------


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        # Before: accepted; bench measured the game until killed.
        (["power", "--repeat", HUGE], "--repeat must be in [1, "),
        # Before: power was compiled and measured (minutes), then the unknown game refused.
        (["power", "nosuch"], "unknown game 'nosuch'"),
        (["power", "nosuch", "--compile"], "unknown game 'nosuch'"),
    ],
)
def test_bench_refuses_a_bad_option_or_game_before_measuring_any(monkeypatch, args, needle):
    def reached(*args, **kwargs):
        raise AssertionError("the input was accepted and a measurement started")

    monkeypatch.setattr(bench, "bench", reached)
    monkeypatch.setattr(bench, "cold_compile", reached)
    code, stdout, stderr = in_process("bench", *args)
    assert code == 2 and stdout == "" and needle in one_error_line(stderr), stderr
