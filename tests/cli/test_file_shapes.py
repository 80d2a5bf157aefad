"""A file of the wrong shape (issue 45): a list where a table or a number was expected, or a
table where a list was, anywhere in a study file, a balance file, a meta directory, a run.json,
a game's data file, or a result file a command reads back (a tune, balance, whatif or impact
directory's). Each is one line naming the file, the key path and what was expected, exit code
2, and nothing on disk changed; never a traceback."""

import json
import math
import shutil
from pathlib import Path

import pytest

from simcore.registry import SpecError
from simcore.workflows import data_schemas, schema_docs, schemas, storage
from tests.cli.clitools import in_process, one_error_line, tree_digest
from tests.cli.fakerun import make_fake_run
from tests.workflows.balance_toy import register

ROOT = Path(__file__).resolve().parents[2]
STUDY = 'game = "power"\nplayers = 4\ngames = 20\nseed = 7\n'
ARMS = '[[arms]]\nname = "a"\n[[arms]]\nname = "b"\nrules = { overthrow_cost = 6 }\n'


def refused(folder: Path, args: list, file: Path, key: str, expected: str) -> str:
    """``powerlab ARGS`` refuses with one line naming ``file`` and ``key`` and saying what was
    ``expected``, and leaves ``folder`` as it was; returns the line."""
    before = tree_digest(folder)
    code, _, err = in_process(*args)
    line = one_error_line(err)
    assert code == 2 and f"{file}: {key}: " in line and expected in line, line
    assert tree_digest(folder) == before
    return line


# (text, key path, words of what was expected)
STUDIES = [
    (STUDY + ARMS + '[answer]\nfocal = "lineup:0"\narms = [["a"], ["b"]]\n', "answer.arms[0]",
     "a text"),
    (STUDY + ARMS + '[stop]\nsprt = { margin = 0.02, arms = [["a"], ["b"]] }\n',
     "stop.sprt.arms[0]", "a text"),
    (STUDY + "[sweep]\nplayers = [[4]]\n", "sweep.players[0]", "a player count"),
    (STUDY + '[restrict]\nstrategy = "bluffer"\nfixed = { p_bluff = 0.0 }\nbudget = 1000\n'
     'params = [["p_bluff"]]\n', "restrict.params[0]", "a text"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "key", "expected"), STUDIES)
def test_a_study_file_of_the_wrong_shape_is_one_line(tmp_path, text, key, expected):
    path = tmp_path / "s.toml"
    path.write_text(text)
    refused(tmp_path, ["study", "run", path, "-o", tmp_path / "out"], path, key, expected)


BALANCE = (ROOT / "studies" / "balance" / "power-barons.toml").read_text()
# (text replaced, its replacement, key path, words of what was expected)
BALANCES = [
    ('tune = ["flusher"]', 'tune = [["flusher"]]', "robust.tune[0]", "a text"),
    ('"deck.energy[0]"]', '"deck.energy[0]", 1]', "params[0].path", "a path or a list"),
    ('kind = "seat_fairness"', 'kind = "variety"\npopulation = [1, 2]',
     "objectives[1].population[0]", "a text"),
]  # fmt: skip


@pytest.mark.parametrize(("old", "new", "key", "expected"), BALANCES)
def test_a_balance_file_of_the_wrong_shape_is_one_line(tmp_path, old, new, key, expected):
    assert old in BALANCE
    path = tmp_path / "b.toml"
    path.write_text(BALANCE.replace(old, new, 1))
    refused(tmp_path, ["balance", path, "-o", tmp_path / "out"], path, key, expected)


POPULATION = [
    {"name": "counter", "params": {"threshold": 0.1, "p_bluff": 0.0, "targeting": "leader"}},
    {"name": "honest", "params": {"targeting": "leader"}},
]
META = {
    "format": storage.FORMAT,
    "spec": {"game": "power", "players": 4, "population": POPULATION},
    "labels": ["counter", "honest"],
    "lineups": ["0-0-0-0"],
}
# (meta.json, solution.json, the file named, key path, words of what was expected)
META_DIRS = [
    (META, {"equilibrium": {"mix": "ab"}}, "solution.json", "equilibrium.mix", "a list"),
    (META, {"equilibrium": {"mix": [0.2, 0.2, 0.6]}}, "solution.json", "equilibrium.mix",
     "one share per strategy of the population (2)"),
    (META, {"equilibrium": {"mix": [-0.5, 1.5]}}, "solution.json", "equilibrium.mix[0]",
     "a number >= 0"),
    (META, {"equilibrium": {"mix": [0, 0]}}, "solution.json", "equilibrium.mix",
     "shares that add up to 1"),
    (META, {"equilibrium": {"mix": [math.nan, math.nan]}}, "solution.json", "equilibrium.mix[0]",
     "a finite number"),
    (META, {"equilibrium": [0.5, 0.5]}, "solution.json", "equilibrium", "a table"),
    (META, {}, "solution.json", "equilibrium", "missing"),
    ({"format": storage.FORMAT}, {"equilibrium": {"mix": [0.5, 0.5]}}, "meta.json", "spec",
     "missing"),
    ({**META, "spec": {**META["spec"], "population": ["counter", "honest"]}},
     {"equilibrium": {"mix": [0.5, 0.5]}}, "meta.json", "spec.population[0]", "a table"),
]  # fmt: skip


@pytest.mark.parametrize(("info", "solution", "named", "key", "expected"), META_DIRS)
def test_a_meta_directory_of_the_wrong_shape_is_one_line(
    tmp_path, info, solution, named, key, expected
):
    meta = tmp_path / "meta"
    meta.mkdir()
    (meta / "meta.json").write_text(json.dumps(info))
    (meta / "solution.json").write_text(json.dumps(solution))
    path = tmp_path / "s.toml"
    path.write_text(
        STUDY + f'strategies = ["counter"]\n[[opponents]]\nname = "mix"\nmeta = "{meta}"\n'
    )
    args = ["study", "run", path, "-o", tmp_path / "out"]
    refused(tmp_path, args, meta / named, key, expected)


def test_a_run_json_whose_players_disagree_with_its_lineup_is_one_line(tmp_path):
    run = make_fake_run(tmp_path / "run", games=300)
    info = json.loads((run / "run.json").read_text())
    info["spec"]["players"] = 3
    (run / "run.json").write_text(json.dumps(info))
    for command in ("summary", "report"):
        refused(tmp_path, [command, run], run / "run.json", "spec.players", "one per seat")


def test_a_run_json_whose_players_disagree_with_its_games_is_one_line(tmp_path):
    """One strategy for every seat: run.json alone cannot tell, its games' seat columns can."""
    run = make_fake_run(tmp_path / "run", games=300)
    info = json.loads((run / "run.json").read_text())
    info["spec"].update(players=3, strategies=info["spec"]["strategies"][:1])
    info["lineup"] = info["lineup"][:1]
    (run / "run.json").write_text(json.dumps(info))
    before = tree_digest(tmp_path)
    for command in ("summary", "report"):
        code, _, err = in_process(command, run)
        line = one_error_line(err)
        assert code == 2 and f"{run}: games have columns of more seats" in line, line
    assert tree_digest(tmp_path) == before


TUNE = ["tune", "power", "-p", 3, "-s", "bluffer", "-a", "counter", "-n", 600, "--min-games", 4,
        "--final-games", 50]  # fmt: skip


@pytest.fixture(scope="module")
def tuned(tmp_path_factory) -> Path:
    """A tiny finished tune directory."""
    out = tmp_path_factory.mktemp("tuned") / "tune"
    code, _, err = in_process(*TUNE, "-o", out)
    assert code == 0, err
    return out


def damaged(folder: Path, name: str, change) -> Path:
    """``folder``'s ``name`` (a JSON file) after ``change(data)``; returns its path."""
    path = folder / name
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))
    return path


# (the JSON file of a tune directory, how it was damaged, key path, words of what was expected)
TUNE_DIRS = [
    ("summary.json", lambda d: d.pop("fresh"), "fresh", "missing"),
    ("summary.json", lambda d: d.pop("finalists"), "finalists", "missing"),
    ("summary.json", lambda d: d.update(fresh="x"), "fresh", "a table"),
    ("summary.json", lambda d: d["fresh"].update(diff=None), "fresh.diff", "a number"),
    ("summary.json", lambda d: d.update(finalists=[]), "finalists", "a non-empty list"),
    ("finalists.json", lambda d: d.update(finalists={}), "finalists", "a list"),
    ("finalists.json", lambda d: d["finalists"][0].pop("params"), "finalists[0].params",
     "missing"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "change", "key", "expected"), TUNE_DIRS)
def test_a_damaged_tune_directory_is_one_line(tmp_path, tuned, name, change, key, expected):
    """Rerunning a finished tuning reads its summary.json back (and reports from it); one that
    stopped after choosing its finalists (no summary.json) reads finalists.json back."""
    out = tmp_path / "tune"
    shutil.copytree(tuned, out)
    if name == "finalists.json":
        (out / "summary.json").unlink()
    path = damaged(out, name, change)
    line = refused(tmp_path, [*TUNE, "-o", out], path, key, expected)
    assert "the directory was damaged" in line


TOY_BALANCE = """
title = "Toy: a head start"
game = "toy-race"
players = 2
strategies = ["reroller"]
rules = { head_start = 2 }
[search]
trials = 4
batch = 4
min_games = 100
rungs = 1
finalists = 2
final_games = 400
[[params]]
rule = "head_start"
low = -3
high = 3
[[objectives]]
kind = "seat_fairness"
"""


@pytest.fixture(scope="module")
def balanced(tmp_path_factory) -> Path:
    """A tiny finished balance directory of the test-only dice race."""
    folder = tmp_path_factory.mktemp("balanced")
    (folder / "balance.toml").write_text(TOY_BALANCE)
    with pytest.MonkeyPatch.context() as monkeypatch:
        register(monkeypatch)
        code, _, err = in_process("balance", folder / "balance.toml", "-o", folder / "out")
    assert code == 0, err
    return folder


# (how summary.json was damaged, key path, words of what was expected)
BALANCE_DIRS = [
    (lambda d: d.pop("finalists"), "finalists", "missing"),
    (lambda d: d.update(targets="x"), "targets", "a list"),
    (lambda d: d["targets"][0].update(kind="length"), "targets[0].low", "a number"),
    (lambda d: d["params"][0].pop("high"), "params[0].high", "a number"),
    (lambda d: d.update(rulebook={}), "rulebook", "a value of every searched rule"),
    (lambda d: d["search"].update(fresh_games="400"), "search.fresh_games", "an integer"),
]  # fmt: skip


@pytest.mark.parametrize(("change", "key", "expected"), BALANCE_DIRS)
def test_a_damaged_balance_directory_is_one_line(tmp_path, balanced, monkeypatch, change, key,
                                                 expected):  # fmt: skip
    """Rerunning a finished balance search reads its summary.json back (and reports from it)."""
    register(monkeypatch)
    shutil.copytree(balanced, tmp_path, dirs_exist_ok=True)
    path = damaged(tmp_path / "out", "summary.json", change)
    args = ["balance", tmp_path / "balance.toml", "-o", tmp_path / "out"]
    assert "the directory was damaged" in refused(tmp_path, args, path, key, expected)


WHATIF = ["whatif", "power", "--set", "income=1", "--vs", "income=2", "--field", "scripted"]


@pytest.mark.parametrize(("request_entry", "key", "expected"), [
    ({}, "request", "missing"),
    ({"request": ["income=1"]}, "request", "a table"),
])  # fmt: skip
def test_a_damaged_whatif_json_is_one_line_on_rerun(tmp_path, request_entry, key, expected):
    """A rerun compares its request with the one whatif.json holds, before anything is played."""
    path = tmp_path / "out" / "whatif.json"
    path.parent.mkdir()
    path.write_text(json.dumps({"format": storage.FORMAT, **request_entry}))
    line = refused(tmp_path, [*WHATIF, "-o", tmp_path / "out"], path, key, expected)
    assert "the directory was damaged" in line


GAIN = {"family": "bluffer", "start": "bluffer", "best": "bluffer:p_bluff=0.5", "diff": 0.01,
        "diff_ci_low": -0.01, "diff_ci_high": 0.03}  # fmt: skip
# (the file, its content, the loader reading it back, key path, words of what was expected)
RESULT_FILES = [
    ("tunings.json", {"retuned": {"A": {"gains": [{**GAIN, "best": None}]}}},
     "analyses.whatif:exploitability", "retuned.A.gains[0].best", "a text"),
    ("tunings.json", {"retuned": {"A": {"gains": [{"family": "bluffer"}]}}},
     "analyses.whatif:exploitability", "retuned.A.gains[0].start", "missing"),
    ("tunings.json", {"retuned": ["A"]}, "analyses.whatif:exploitability", "retuned", "a table"),
    ("impact.json", {}, "simcore.workflows.impact:read_components", "components", "missing"),
    ("impact.json", {"components": [{"name": "Banker", "kind": "card"}]},
     "simcore.workflows.impact:read_components", "components[0].group", "missing"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "content", "loader", "key", "expected"), RESULT_FILES)
def test_a_damaged_result_file_is_one_line(tmp_path, name, content, loader, key, expected):
    """A whatif directory's tunings.json (its report's exploitability page) and an impact
    directory's impact.json (its report's components), as their reports read them back."""
    import importlib

    module, function = loader.split(":")
    path = tmp_path / name
    path.write_text(json.dumps({"format": storage.FORMAT, **content}))
    with pytest.raises(SpecError) as error:
        getattr(importlib.import_module(module), function)(tmp_path)
    message = str(error.value)
    assert "\n" not in message and message.startswith(f"{path}: {key}: ") and expected in message


DATA = ROOT / "simcore" / "data"
BOARD, COMPONENTS = "power_the_game_board.toml", "power_barons_default.toml"
STRUGGLE, CARDS = "power_struggle_default.toml", "time_barons_cards.toml"
# (shipped file, text replaced, its replacement, key path, words of what was expected)
DATA_FILES = [
    (BOARD, 'adjacent = ["Y1", "Y2"', 'adjacent = [["Y1"], "Y2"', "nodes.Y0.adjacent[0]", "a text"),
    (BOARD, 'adjacent = ["Y1", "Y2", "Y4", "XI", "S3", "S12"]', 'adjacent = { a = "Y1" }',
     "nodes.Y0.adjacent", "a list"),
    (BOARD, 'role = "sector"', 'role = ["sector"]', "nodes.Y0.role", "one of sector, headquarters"),
    (BOARD, "[nodes]", "[x]", "x", "unknown key (expected one of nodes)"),
    (COMPONENTS, "finance = [", "finance = [[1], ", "deck.finance[0]", "an integer in [1, 100]"),
    (COMPONENTS, "\n[board]\n", "\n[board]\nsquares = 1\n", "board.squares", "unknown key"),
    (STRUGGLE, "influence = 15", "influence = [15]", "tracks.influence",
     "an integer in [7, 1,000]"),
    (STRUGGLE, "players = 3\n", 'players = "3"\n', "archenemy_competence[0].players",
     "an integer in [3, 5]"),
    (STRUGGLE, '{ kind = "motivation", amount = 2 }', '{ kind = 2, amount = 2 }',
     "events[0].effects[0].kind", "one of motivation, receive"),
    (STRUGGLE, "chairman = 300000", "chairman = 3e5", "bonus_payment.chairman", "an integer"),
    (CARDS, 'type = "site"', 'type = ["site"]', "card[0].type", "one of site, event"),
    (CARDS, "integrity = 6\n", "integrity = 6\nlevel = 1\n", "homeland.level", "unknown key"),
    (CARDS, 'effects = ["damage 1"] }', 'effects = "damage 1" }', "card[0].abilities[0].effects",
     "a list"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "old", "new", "key", "expected"), DATA_FILES)
def test_a_data_file_of_the_wrong_shape_is_one_line(tmp_path, name, old, new, key, expected):
    """Through the data file's model (the game's loader calls it: the kernel-side patch)."""
    text = (DATA / name).read_text()
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(SpecError) as error:
        schemas.read_toml(path, "data file", data_schemas.DATA_FILES[name])
    message = str(error.value)
    assert "\n" not in message and message.startswith(f"{path}: {key}: ") and expected in message


def test_a_board_file_of_the_wrong_shape_is_one_line_through_the_cli(tmp_path):
    """The issue's case: a list where a node name was, given as `--set board=FILE`."""
    path = tmp_path / BOARD
    path.write_text((DATA / BOARD).read_text().replace('["Y1", "Y2"', '[["Y1"], "Y2"', 1))
    args = ["run", "power-the-game", "-p", 4, "-n", 2, "--set", f"board={path}", "-o"]
    refused(tmp_path, [*args, tmp_path / "out"], path, "nodes.Y0.adjacent[0]", "a text")


def test_the_shipped_data_files_fit_their_models():
    for name, model in data_schemas.DATA_FILES.items():
        schemas.read_toml(ROOT / "simcore" / "data" / name, "data file", model)


def test_the_docs_key_tables_are_rendered_from_the_models():
    """Each format's table in docs/ is its model's (tools/schema_tables.py rewrites them)."""
    named = set()
    for page in (ROOT / "docs").rglob("*.md"):
        text = page.read_text()
        assert schema_docs.with_key_tables(text) == text, f"{page}: run tools/schema_tables.py"
        named |= {match[2] for match in schema_docs.KEY_TABLE.finditer(text)}
    formats = {model.__name__ for model in data_schemas.DATA_FILES.values()}
    assert named >= {"StudyFile", "BalanceFile", "PopulationFile", *formats}
