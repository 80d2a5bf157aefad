"""Studies that report how robust their answer is: opponent settings, the answer per setting and
its robustness line, restricted play, the answer page (tiny game counts)."""

import json

import polars as pl
import pytest

from analyses.answers import answers, robustness_line
from analyses.study import load_study_dir
from reports.answer import answer_pages
from reports.study import write_study_report
from simcore.registry import SpecError
from simcore.workflows import study
from simcore.workflows.storage import FORMAT
from tests.reports.test_report_legibility import (
    assert_every_page_says_what_it_shows,
    assert_legible,
)

BASE = """
title = "bluffing less"
question = "Does a bluffer that bluffs less win more?"
assumptions = ["today's scripted strategies"]
game = "power"
players = 4
games = 200
seed = 3
"""
ARMS = """
[[arms]]
name = "less"
strategies = ["bluffer:p_bluff=0.05"]
[[arms]]
name = "default"
strategies = ["bluffer"]
[answer]
focal = "lineup:0"
arms = ["less", "default"]
"""
RESTRICT = """
[[opponents]]
name = "challengers"
strategies = ["bluffer:p_challenge=1"]
[restrict]
strategy = "bluffer"
fixed = { p_bluff = 0.0 }
budget = 1200
"""
OPPONENTS = """
[[opponents]]
name = "challengers"
strategies = ["bluffer:p_challenge=1"]
[[opponents]]
name = "field"
strategies = ["counter", "honest", "random"]
rules = { overthrow_cost = 6 }
"""


def write(tmp_path, text, name="s.toml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_opponent_settings_become_cells_after_the_focal_entry(tmp_path):
    loaded = study.load_study(write(tmp_path, BASE + ARMS + OPPONENTS))
    cells = study.cells(loaded)
    assert [c.id for c in cells] == [
        "less_opponents=challengers", "less_opponents=field",
        "default_opponents=challengers", "default_opponents=field",
    ]  # fmt: skip
    field = cells[1].spec
    assert field.lineup() == ["bluffer:p_bluff=0.05", "counter", "honest", "random"]
    assert field.rules["overthrow_cost"] == 6 and cells[0].spec.rules["overthrow_cost"] == 7
    assert cells[0].spec.lineup()[1:] == ["bluffer:p_challenge=1.0"] * 3


def test_answer_per_setting_and_the_robustness_line(tmp_path):
    out = tmp_path / "out"
    study.run_study(study.load_study(write(tmp_path, BASE + ARMS + OPPONENTS)), out)
    titles = write_study_report(out)
    assert titles[0] == "Answer: bluffing less"
    pages = answer_pages(load_study_dir(out))
    assert len(pages) == 1 and len(pages[0].axes) == 1  # two settings: the forest fits below
    assert_legible(pages)
    assert_every_page_says_what_it_shows(pages)
    rows = answers(load_study_dir(out))
    assert rows["opponents"].to_list() == ["challengers", "field"]
    challengers = rows.row(0, named=True)
    assert challengers["ci_low"] > 0  # every bluff is caught: bluffing less wins more
    assert challengers["ci_low"] < challengers["answer"] < challengers["ci_high"]


def _rows(*answers_and_cis):
    return pl.DataFrame(
        [{"answer": a, "ci_low": lo, "ci_high": hi} for a, lo, hi in answers_and_cis]
    )


def test_robustness_lines_say_whether_the_sign_holds():
    assert robustness_line(_rows((0.021, 0.002, 0.04), (0.086, 0.06, 0.11))) == (
        "+2.1 to +8.6 points; positive in 2 of 2 opponent settings"
    )
    assert "the sign changes" in robustness_line(_rows((0.05, 0.01, 0.09), (-0.04, -0.07, -0.01)))
    assert "indistinguishable from 0 in 1 of 2" in robustness_line(
        _rows((0.05, 0.01, 0.09), (0.01, -0.02, 0.04))
    )
    assert "robustness unknown" in robustness_line(_rows((0.05, 0.01, 0.09)))
    assert robustness_line(_rows((0.0, 0.0, 0.0), (0.01, -0.02, 0.04))) == (
        "+0.0 to +1.0 points; indistinguishable from 0 in 2 of 2 opponent settings"
    )


def test_a_meta_mix_of_opponents_seats_weighted_lineups(tmp_path):
    meta = tmp_path / "meta"
    meta.mkdir()
    population = [
        {"name": "counter", "params": {"threshold": 0.1, "p_bluff": 0.0, "targeting": "leader"}},
        {"name": "honest", "params": {"targeting": "leader"}},
    ]
    (meta / "meta.json").write_text(
        json.dumps(
            {
                "format": FORMAT,
                "spec": {"game": "power", "players": 4, "population": population},
                "labels": ["counter", "honest"],
                "lineups": [],
            }
        )
    )
    (meta / "solution.json").write_text(json.dumps({"equilibrium": {"mix": [0.5, 0.5]}}))
    text = BASE + ARMS + f'[[opponents]]\nname = "mix"\nmeta = "{meta}"\n'
    cells = study.cells(study.load_study(write(tmp_path, text)))
    mix = [c for c in cells if c.arm == "less"]
    assert len(mix) == 4  # 0 to 3 counters among the 3 other seats
    assert sorted(c.weight for c in mix) == pytest.approx([1 / 8, 1 / 8, 3 / 8, 3 / 8])
    assert mix[0].id == "less_opponents=mix_mix0"
    assert {c.group() for c in mix} == {c.group() for c in cells if c.arm == "default"}


def test_restricted_play_tunes_with_and_without_the_option(tmp_path):
    text = (
        BASE
        + """
[restrict]
strategy = "bluffer"
fixed = { p_bluff = 0.0 }
params = ["p_bluff", "p_challenge"]
budget = 1200
min_games = 4

[[opponents]]
name = "challengers"
strategies = ["bluffer:p_challenge=1"]
"""
    )
    loaded = study.load_study(write(tmp_path, text))
    assert [arm.name for arm in loaded.arms] == list(study.RESTRICT_ARMS)
    out = tmp_path / "out"
    info = study.run_study(loaded, out, games=100)
    tuned = {entry["arm"]: entry["spec"] for entry in info["tuned"]}
    assert "p_bluff=0," in tuned["tuned without"] or tuned["tuned without"].count("p_bluff=0")
    assert (out / "tuning" / "challengers_4p" / "tuned" / "summary.json").exists()
    rows = answers(load_study_dir(out))
    assert rows["opponents"].to_list() == ["challengers"]
    again = study.run_study(loaded, out, games=100)  # resumes: same tuned specs, no new tuning
    assert again["tuned"] == info["tuned"]


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        (ARMS + '[[opponents]]\nname = "x"\n', "strategies or meta"),
        (ARMS + '[[opponents]]\nname = "x"\nstrategies = ["counter"]\nseats = "some"\n', "seats"),
        (ARMS.replace('"less", "default"]', '"less", "nope"]'), "answer.arms"),
        (ARMS.replace('"lineup:0"', '"lineup:7"'), "answer.focal"),
        (
            ARMS + '[[opponents]]\nname = "x"\nstrategies = ["counter", "honest"]\n',
            "expected 1 or 3",
        ),
        (ARMS + '[[opponents]]\nname = "x"\nmeta = "/nonexistent"\n', "no solved meta-game"),
        (
            ARMS + '[restrict]\nstrategy = "bluffer"\nfixed = { p_bluff = 0.0 }\nbudget = 10\n',
            "give no",
        ),
        # The search arms' parameters are checked before any tuning runs.
        (RESTRICT + "search = { iterations = 0 }\n", "iterations=0"),
        (RESTRICT + "search = { depth = 3 }\n", "no parameter 'depth'"),
        (RESTRICT + 'search = { rollout = "honest" }\n', "restrict.search"),
        (RESTRICT + "search = { games = 0 }\n", "restrict.search"),
    ],
)
def test_bad_robustness_tables_are_one_line_errors(tmp_path, text, needle):
    with pytest.raises(SpecError, match=needle) as error:
        study.cells(study.load_study(write(tmp_path, BASE + text)))
    assert "\n" not in str(error.value)
