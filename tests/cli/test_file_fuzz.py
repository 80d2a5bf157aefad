"""Property-based fuzzing (hypothesis) of every file format's contents (issue 45): a valid file
of each format with one value replaced by a value of another shape or out of range, a key
removed or an unknown key added. Reading it ends in success or in one line (exit 2 through the
CLI, a one-line SpecError through a loader), never a traceback; a refusal changes nothing on
disk. The formats that would start long work when valid (balance, population, a study with
restricted play) go through their loaders, which are what the commands call before anything
else; the others through the CLI. Examples are derandomized: the same on every machine."""

import copy
import json
import shutil
import tomllib
from pathlib import Path

import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simcore.registry import SpecError
from simcore.workflows import balance_spec, meta, schemas, storage, study
from tests.cli import fuzzing
from tests.cli.fakerun import make_fake_run

ROOT = Path(__file__).resolve().parents[2]
FILES = settings(
    max_examples=25, deadline=None, derandomize=True, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)  # fmt: skip
# Values of every shape, and numbers at and beyond the edges.
WRONG = [
    [], {}, [[1]], [{"a": 1}], {"a": [1]}, "x", "", -1, 0, 1.5, 2**64, float("nan"),
    float("inf"), True, ["x", 1], [-1], ["counter", "counter"],
]  # fmt: skip


def places(document, path=()):
    """The path of every value inside ``document`` (keys of tables, indexes of lists)."""
    items = document.items() if isinstance(document, dict) else enumerate(document)
    for key, value in items:
        yield (*path, key)
        if isinstance(value, dict | list):
            yield from places(value, (*path, key))


@st.composite
def mutated(draw, document: dict) -> dict:
    """``document`` with one value replaced by a ``WRONG`` one, one key removed, or an unknown
    key added to one of its tables."""
    document = copy.deepcopy(document)
    *parent_path, key = draw(st.sampled_from(list(places(document))))
    parent = document
    for step in parent_path:
        parent = parent[step]
    action = draw(st.sampled_from(["replace", "replace", "remove", "add"]))
    if action == "replace":
        parent[key] = draw(st.sampled_from(WRONG))
    elif action == "remove":
        del parent[key]
    elif isinstance(parent, dict):
        parent["colour"] = draw(st.sampled_from(WRONG))
    else:
        parent.append(draw(st.sampled_from(WRONG)))
    return document


def refused_in_one_line(load) -> None:
    """``load()`` succeeds or raises a one-line SpecError; anything else fails the test."""
    try:
        load()
    except SpecError as error:
        assert str(error) and "\n" not in str(error), str(error)


def write_toml(path: Path, document: dict) -> Path:
    path.write_text(tomli_w.dumps(document))
    return path


# --- study files (docs/studies.md) ------------------------------------------------------------

STUDY = {
    "title": "fuzz", "assumptions": ["a"], "game": "power", "players": 4, "games": 2, "seed": 3,
    "rules": {"overthrow_cost": 7},
    "arms": [{"name": "a"}, {"name": "b", "strategies": ["bluffer"], "rules": {"income": 1}}],
    "sweep": {"overthrow_cost": [6, 7]},
    "answer": {"focal": "lineup:0", "arms": ["a", "b"]},
}  # fmt: skip
RESTRICTED = {
    "game": "power",
    "players": [3, 4],
    "games": 2,
    "stop": {
        "until_ci": 0.2,
        "max_games": 10,
        "sprt": {"margin": 0.1, "arms": ["tuned", "tuned without"]},
    },
    "restrict": {
        "strategy": "bluffer",
        "fixed": {"p_bluff": 0.0},
        "budget": 100,
        "params": ["p_bluff"],
        "min_games": 4,
        "search": {"iterations": 10, "games": 1},
    },
    "opponents": [{"name": "o", "strategies": ["counter"], "seats": "all", "rules": {"income": 1}}],
}


@FILES
@given(document=mutated(STUDY))
def test_a_fuzzed_study_file_runs_or_is_one_line(tmp_path_factory, document):
    folder = tmp_path_factory.mktemp("study")
    path = write_toml(folder / "s.toml", document)
    fuzzing.check(folder, ["study", "run", path, "--out", folder / "out", "--games", 2], {})


@FILES
@given(document=mutated(RESTRICTED))
def test_a_fuzzed_restricted_study_loads_or_is_one_line(tmp_path_factory, document):
    path = write_toml(tmp_path_factory.mktemp("study") / "s.toml", document)
    refused_in_one_line(lambda: study.cells(study.load_study(path)))


# --- balance and population files (docs/balance.md, docs/meta.md) ----------------------------

BALANCE = schemas.read_toml(
    ROOT / "studies" / "balance" / "power-barons.toml", "balance file", schemas.BalanceFile
).model_dump(exclude_unset=True)


@FILES
@given(document=mutated(BALANCE))
def test_a_fuzzed_balance_file_loads_or_is_one_line(tmp_path_factory, document):
    path = write_toml(tmp_path_factory.mktemp("balance") / "b.toml", document)
    refused_in_one_line(lambda: balance_spec.load_balance(path))


@FILES
@given(document=mutated({"game": "power", "strategies": ["counter", "honest", "bluffer"]}))
def test_a_fuzzed_population_file_loads_or_is_one_line(tmp_path_factory, document):
    path = write_toml(tmp_path_factory.mktemp("population") / "p.toml", document)
    refused_in_one_line(lambda: meta.build_spec("power", 2, path, [], 0, 10))


# --- directories powerlab writes (docs/architecture.md, docs/meta.md) ------------------------

POPULATION = [
    {"name": "counter", "params": {"threshold": 0.1, "p_bluff": 0.0, "targeting": "leader"}},
    {"name": "honest", "params": {"targeting": "leader"}},
]
META = {
    "format": storage.FORMAT,
    "spec": {"game": "power", "players": 4, "population": POPULATION, "rules": {}, "seed": 0,
             "games": 10},
    "labels": ["counter", "honest"],
    "lineups": ["0-0-0-0"],
}  # fmt: skip
SOLUTION = {"labels": ["counter", "honest"], "equilibrium": {"mix": [0.25, 0.75], "value": 0.2}}


@FILES
@given(info=mutated(META), solution=st.just(SOLUTION) | mutated(SOLUTION))
def test_a_fuzzed_meta_directory_is_read_or_one_line(tmp_path_factory, info, solution):
    folder = tmp_path_factory.mktemp("meta")
    (folder / "meta.json").write_text(json.dumps(info))
    (folder / "solution.json").write_text(json.dumps(solution))
    text = 'game = "power"\nplayers = 4\ngames = 2\nstrategies = ["counter"]\n'
    path = folder / "s.toml"
    path.write_text(text + f'[[opponents]]\nname = "mix"\nmeta = "{folder}"\n')
    refused_in_one_line(lambda: study.cells(study.load_study(path)))


@pytest.fixture(scope="module")
def fake_run(tmp_path_factory):
    return make_fake_run(tmp_path_factory.mktemp("run"), games=300)


@FILES
@given(data=st.data())
@pytest.mark.parametrize("name", ["run.json", "manifest.json"])
def test_a_fuzzed_run_directory_is_summarised_or_one_line(tmp_path_factory, fake_run, name, data):
    folder = tmp_path_factory.mktemp("run")
    run = folder / "run"
    shutil.copytree(fake_run, run)
    document = data.draw(mutated(json.loads((run / name).read_text())))
    (run / name).write_text(json.dumps(document))
    fuzzing.check(folder, ["summary", run], {})


@FILES
@given(data=st.data())
def test_a_fuzzed_study_json_is_read_or_one_line(tmp_path_factory, data):
    folder = tmp_path_factory.mktemp("study")
    info = {
        "format": storage.FORMAT, "title": "t", "file": "s.toml", "source": "", "games_per_cell": 2,
        "cells": [{"id": "a", "arm": "a", "values": {}}], "identity": [{}],
        "stopping": [{"cells": ["a"], "games": 2}],
    }  # fmt: skip
    (folder / "study.json").write_text(json.dumps(data.draw(mutated(info))))
    refused_in_one_line(lambda: storage.read_study_json(folder))


# --- result files read back: tune, balance, whatif and impact directories ---------------------

FRESH = {
    "seed": 1, "games": 300, "cut_off": 0, "cut_off_share": 0.0, "baseline_cut_off_share": 0.0,
    "win_rate": 0.26, "ci_low": 0.21, "ci_high": 0.31, "baseline_win_rate": 0.14,
    "baseline_ci_low": 0.1, "baseline_ci_high": 0.18, "diff": 0.12, "diff_ci_low": 0.07,
    "diff_ci_high": 0.18, "fair_share": 1 / 3,
}  # fmt: skip
BEST, PARAMS = "bluffer:p_bluff=0.4,targeting=leader", {"p_bluff": 0.4, "targeting": "leader"}
HEAD = {"game": "power", "players": 3, "strategy": "bluffer", "baseline": "bluffer", "best": BEST}
FIELDS = [{"weight": 1.0, "lineup": ["counter", "counter"]}]
FINALIST = {"number": 2, "params": PARAMS, "spec": BEST, "race_win_rate": 0.28,
            "extra_win_rate": 0.28, "win_rate": 0.28, "games": 651}  # fmt: skip
# summary.json of one search, of several raced, of self-play (simcore/workflows/tuning.py)
TUNE_SUMMARIES = [
    {**HEAD, "best_params": PARAMS, "fields": FIELDS, "finalists": [FINALIST], "fresh": FRESH,
     "search": {"sampler": "tpe", "trials": 11, "completed": 2, "games": 1896, "seed": 0},
     "settling": {"finished": 8, "budget": 2000, "verdict": "improving", "best_at": 7,
                  "last_third_gain": 0.01, "suggested_budget": 4000}},
    {**HEAD, "best_params": PARAMS, "fields": FIELDS, "fresh": FRESH,
     "starts": [{"start": 1, "seed": 0, "best": BEST, "best_params": PARAMS, "own_fresh": FRESH,
                 "search_games": 561}],
     "race": {"seed": 4, "games": 48, "runner_up": {"diff": -0.19, "ci_low": -0.3, "ci_high": 0},
              "candidates": [{"spec": BEST, "params": PARAMS, "starts": [1], "win_rate": 0.4,
                              "ci_low": 0.3, "ci_high": 0.5}] * 2},
     "search": {"starts": 2, "seed": 0, "games": 1329}},
    {**HEAD, "self_play": True, "stopped": "the rounds ran out", "cycle": False,
     "last_round": "round-1",
     "rounds": [{"round": 1, "incumbent": "bluffer", "best": BEST, "diff": 0.35,
                 "diff_ci_low": 0.19, "diff_ci_high": 0.49, "improved": True}]},
]  # fmt: skip


@FILES
@given(data=st.data())
@pytest.mark.parametrize("kind", range(len(TUNE_SUMMARIES)))
def test_a_fuzzed_tune_summary_is_read_or_one_line(tmp_path_factory, kind, data):
    """Read back as a rerun and the report read it; what is read gives the closing lines."""
    from reports import takeaways
    from reports.tune import closing_lines

    folder = tmp_path_factory.mktemp("tune")
    (folder / "summary.json").write_text(json.dumps(data.draw(mutated(TUNE_SUMMARIES[kind]))))

    def read():
        summary = storage.read_tune_summary(folder)
        closing_lines(summary, folder)
        if "finalists" in summary:
            takeaways.tuning_finalists(summary)

    refused_in_one_line(read)


@FILES
@given(document=mutated({"finalists": [FINALIST, {**FINALIST, "number": 0}]}))
def test_a_fuzzed_finalists_json_is_read_or_one_line(tmp_path_factory, document):
    from simcore.workflows import tuning

    folder = tmp_path_factory.mktemp("tune")
    (folder / "finalists.json").write_text(json.dumps(document))
    refused_in_one_line(lambda: [f["params"] for f in tuning.stored_finalists(folder)])


BALANCE_SUMMARY = {
    "title": "t", "game": "power", "objectives": ["seat_fairness_4p", "length", "option_value"],
    "targets": [
        {"kind": "seat_fairness", "low": None, "high": None, "at_least": None, "focal": "",
         "fixed": {}, "measure": "entropy"},
        {"kind": "length", "low": 10, "high": 20.5},
        {"kind": "option_value", "low": 0, "high": 0.02, "focal": "bluffer",
         "fixed": {"p_bluff": 0}},
    ],
    "params": [{"name": "income", "kind": "int", "low": 1, "high": 3, "choices": []},
               {"name": "house", "kind": "choice", "low": None, "high": None,
                "choices": ["a", "b"]}],
    "rulebook": {"income": 2, "house": "a"},
    "finalists": ["trial-3", "trial-5"],
    "search": {"trials": 8, "games": 4000, "fresh_games": 400, "unseparated": [["a", "b"]]},
    "tunings": [],
}  # fmt: skip


@FILES
@given(document=mutated(BALANCE_SUMMARY))
def test_a_fuzzed_balance_summary_is_read_or_one_line(tmp_path_factory, document):
    """Read back as a rerun and the report read it; what is read gives the report's texts."""
    from reports import balance as report

    folder = tmp_path_factory.mktemp("balance")
    (folder / "summary.json").write_text(json.dumps(document))

    def read():
        summary = storage.read_balance_summary(folder)
        for target in summary["targets"]:
            report._target(target)
        for param in summary["params"]:
            report._searched(param)
            assert param["name"] in summary["rulebook"]
        report._separation(summary)

    refused_in_one_line(read)


GAIN = {"family": "bluffer", "start": "bluffer", "best": BEST, "diff": 0.01,
        "diff_ci_low": -0.01, "diff_ci_high": 0.03}  # fmt: skip
WHATIF_TUNINGS = {"format": storage.FORMAT, "retuned": {"A": {"gains": [GAIN], "lineup": []}}}
BANKER = {"name": "Banker", "kind": "card", "group": "1", "rules": {}, "arm": "card Banker"}
IMPACT = {"format": storage.FORMAT, "components": [BANKER]}


@FILES
@given(data=st.data())
@pytest.mark.parametrize("name", ["tunings.json", "impact.json", "whatif.json"])
def test_a_fuzzed_whatif_or_impact_file_is_read_or_one_line(tmp_path_factory, name, data):
    """tunings.json as the whatif report reads it, impact.json as the impact report does,
    whatif.json as a rerun does."""
    from analyses.whatif import exploitability
    from simcore.workflows import impact, result_schemas

    documents = {
        "tunings.json": WHATIF_TUNINGS,
        "impact.json": IMPACT,
        "whatif.json": {"format": storage.FORMAT, "request": {"game": "power"}},
    }
    readers = {
        "tunings.json": exploitability,
        "impact.json": lambda folder: [
            (c["arm"], c["kind"], c["group"], c["name"]) for c in impact.read_components(folder)
        ],
        "whatif.json": lambda folder: storage.read_stored(
            folder / name, "whatif request", result_schemas.WhatifRequest
        ).get("request"),
    }  # fmt: skip
    folder = tmp_path_factory.mktemp("result")
    (folder / name).write_text(json.dumps(data.draw(mutated(documents[name]))))
    refused_in_one_line(lambda: readers[name](folder))


# --- game data files (docs/games/) -------------------------------------------------------------


def _loaders() -> dict:
    """Each shipped data file's loader, as a rule parameter naming the file calls it."""
    from simcore.games.power_barons.components import load_components
    from simcore.games.power_struggle.components import load_data
    from simcore.games.power_the_game.components import load_board
    from simcore.games.time_barons.components import load_cards

    return {
        "power_the_game_board.toml": lambda path: load_board(str(path)),
        "power_barons_default.toml": lambda path: load_components(str(path)),
        "power_struggle_default.toml": lambda path: load_data(str(path), 4),
        "time_barons_cards.toml": lambda path: load_cards(str(path)),
    }


@FILES
@given(data=st.data())
@pytest.mark.parametrize("name", sorted(_loaders()))
def test_a_fuzzed_data_file_is_loaded_or_one_line(tmp_path_factory, name, data):
    shipped = tomllib.loads((ROOT / "simcore" / "data" / name).read_text())
    path = write_toml(tmp_path_factory.mktemp("data") / name, data.draw(mutated(shipped)))
    refused_in_one_line(lambda: _loaders()[name](path))


# --- presets files (docs/tuning.md) ------------------------------------------------------------


@FILES
@given(data=st.data())
def test_a_fuzzed_presets_file_is_read_or_one_line(tmp_path_factory, data):
    """A presets file of another shape, read as ``preset:NAME`` is: one line naming the key."""
    from simcore import registry

    shipped = tomllib.loads((registry.PRESETS_DIR / "power.toml").read_text())
    folder = tmp_path_factory.mktemp("presets")
    write_toml(folder / "power.toml", data.draw(mutated(shipped)))
    game = registry.make("power")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(registry, "PRESETS_DIR", folder)
        refused_in_one_line(lambda: registry.parse_strategy(game, "preset:counter-vs-mixed", 3))
