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
from simcore.workflows import balance_spec, data_schemas, meta, schemas, storage, study
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


# --- game data files (docs/games/) -------------------------------------------------------------


def _loaders() -> dict:
    """Each shipped data file's loader, as a rule parameter naming the file calls it. POWER: The
    Game's board goes through its model until its loader calls it (the kernel-side patch)."""
    from simcore.games.power_barons.components import load_components
    from simcore.games.power_struggle.components import load_data
    from simcore.games.time_barons.components import load_cards

    def board(path: Path):
        return schemas.read_toml(path, "board file", data_schemas.BoardFile)

    return {
        "power_the_game_board.toml": board,
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
