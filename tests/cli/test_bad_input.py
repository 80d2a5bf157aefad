"""Inputs that are not what they look like (issue 16, section 2): numbers in other digits or
beyond 64 bits, NaN, files that are not text or not files, corrupt run.json and study.json,
labels with ``$``, sizes that cannot fit, cell names that collide. Each is one line and exit
code 2 with nothing written, or (for a label) a report drawn as written; never a traceback or a
hang."""

import json
import os
import shutil
import time
from itertools import islice
from pathlib import Path

import pytest
from matplotlib.text import Text

from reports.legibility import check_page
from reports.pdf import run_pages
from simcore.games.power_the_game.components import load_board as load_power_the_game_board
from simcore.games.power_the_game.state import B_NUMBER
from simcore.registry import SpecError
from simcore.workflows import runner, storage, study
from tests.cli.clitools import in_process, one_error_line, powerlab, tree_digest

BIG = 2**64
DATA = Path(__file__).resolve().parents[2] / "simcore" / "data"


@pytest.fixture(scope="module")
def existing(tmp_path_factory):
    """A finished run and the odd files the cases name."""
    folder = tmp_path_factory.mktemp("existing")
    runner.run(runner.build_spec("power", 4, [], [], 5, 300, True), folder / "run")
    os.mkfifo(folder / "fifo")
    (folder / "latin1.toml").write_bytes('game = "power"\ntitle = "caf\xe9"\n'.encode("latin-1"))
    with open(folder / "big.toml", "wb") as handle:  # sparse: no disk used
        handle.truncate(17 * 2**20)
    return folder


BAD = [
    (["run", "power", "--until-ci", 0.1, "--focal", "seat:٣", "-o", "{new}"], "--focal"),
    (["run", "power", "--until-ci", 0.1, "--focal", "seat:²", "-o", "{new}"], "--focal"),
    (["compare", "{run}", "{run}", "--focal", "seat:٣"], "seat:٣"),
    (["compare", "{run}", "{run}", "--focal", "seat:²"], "seat:²"),
    (["run", "power", "--cluster", "local:٣", "-o", "{new}"], "--cluster"),
    (["run", "power", "--cluster", "local:²", "-o", "{new}"], "--cluster"),
    (["run", "power", "--cluster", f"local:{BIG}", "-o", "{new}"], "--cluster"),
    (["run", "power", "--games", BIG, "-o", "{new}"], "--games"),
    (["run", "power", "--games", 2**62 + 1, "-o", "{new}"], "--games"),
    (["run", "power", "--games", 10, "--shard", f"1/{BIG}", "-o", "{new}"], "--shard"),
    (["run", "power", "--games", 10, "--shard", "١/٢", "-o", "{new}"], "--shard"),
    (["run", "power", "--games", 10, "--chunk-size", BIG, "-o", "{new}"], "--chunk-size"),
    (["run", "power", "--until-ci", 0.1, "--max-games", BIG, "-o", "{new}"], "--max-games"),
    (["run", "power", "--seed", BIG, "-o", "{new}"], "--seed"),
    (["run", "power", "--players", BIG, "-o", "{new}"], "players"),
    (["replay", "power", "--game-index", BIG], "--game-index"),
    # Before: bounds of their own, "--game-index must be in [0, 4611686018427387903], not -1".
    (
        ["replay", "power", "--game-index", -1],
        "--game-index must be in [0, 4,611,686,018,427,387,903] (game indices are 64-bit), not -1",
    ),
    (
        ["run", "power", "--until-ci", 0.1, "--max-games", 0, "-o", "{new}"],
        "--max-games must be in [1, 4,611,686,018,427,387,904] (game indices are 64-bit), not 0",
    ),
    # Before: "--out /dev/null already exists and is not empty".
    (["merge", "{run}", "-o", "/dev/null"], "--out /dev/null is a file, not a directory"),
    (["bench", "power", "--games", BIG], "--games"),
    (["run", "power", "-s", "bluffer:p_bluff=nan", "-o", "{new}"], "p_bluff"),
    (["run", "power", "--set", "overthrow_cost=inf", "-o", "{new}"], "overthrow_cost"),
    (["run", "time-barons", "-p", 2, "--set", "cards={dir}/big.toml", "-o", "{new}"], "more than"),
    (["run", "power-struggle", "-p", 3, "--set", "data={dir}/latin1.toml", "-o", "{new}"], "UTF-8"),
    (["study", "run", "{dir}/latin1.toml", "-o", "{new}"], "not UTF-8 text: byte 27 is 0xe9"),
    (["study", "run", "{dir}/big.toml", "-o", "{new}"], "more than"),
]


def _args(args: list, existing: Path, tmp_path: Path) -> list[str]:
    values = {"{new}": tmp_path / "new", "{run}": existing / "run", "{dir}": existing}
    result = []
    for arg in map(str, args):
        for key, value in values.items():
            arg = arg.replace(key, str(value))
        result.append(arg)
    return result


@pytest.mark.parametrize(("args", "needle"), BAD)
def test_bad_value_is_one_line_exit_2_and_writes_nothing(existing, tmp_path, args, needle):
    before = tree_digest(existing)
    code, stdout, err = in_process(*_args(args, existing, tmp_path))
    assert code == 2 and needle in one_error_line(err), err
    assert not (tmp_path / "new").exists() and tree_digest(existing) == before


SPECIAL_FILES = [
    (["run", "power-barons", "-p", 3, "--set", "components=/dev/zero", "-o", "{new}"]),
    (["run", "time-barons", "-p", 2, "--set", "cards={dir}/fifo", "-o", "{new}"]),
    (["run", "power-the-game", "-p", 2, "--set", "board={dir}", "-o", "{new}"]),
    (["study", "run", "/dev/zero", "-o", "{new}"]),
    (["study", "run", "{dir}/fifo", "-o", "{new}"]),
]


@pytest.mark.parametrize("args", SPECIAL_FILES)
def test_special_files_are_refused_not_read(existing, tmp_path, args):
    """A real process with a time limit: reading /dev/zero or a FIFO would never end."""
    result = powerlab(*_args(args, existing, tmp_path), timeout=120)
    assert result.returncode == 2
    assert "not a regular file" in one_error_line(result.stderr)
    assert not (tmp_path / "new").exists()


# --- study files ------------------------------------------------------------------------------

BASE = 'game = "power"\nplayers = 4\ngames = 20\nseed = 7\n'
BAD_STUDIES = [
    (BASE + "rules = { overthrow_cost = nan }\n", "rules.overthrow_cost", "finite number"),
    (BASE + "rules = { overthrow_cost = inf }\n", "rules.overthrow_cost", "finite number"),
    (BASE + '[sweep]\n"bluffer.p_bluff" = [nan]\n', "sweep", "p_bluff"),
    (BASE + 'strategies = ["bluffer"]\n[sweep]\n"bluffer.p_bluff" = [nan]\n', "sweep", "nan"),
    (BASE.replace("games = 20", f"games = {BIG}"), "games", "in [1, "),
    (BASE.replace("seed = 7", f"seed = {BIG}"), "seed", "in [0, "),
    (BASE.replace("players = 4", f"players = {BIG}"), "players", "players"),
    (BASE + f"[stop]\nuntil_ci = 0.1\nmax_games = {BIG}\n", "stop.max_games", "in [1, "),
    (BASE + "[stop]\nuntil_ci = nan\n", "stop.until_ci", "nan"),
    (BASE + "title = " + "[" * 100_000 + "\n", "", "not valid TOML"),
    (BASE + '[[arms]]\nname = "x y"\n[[arms]]\nname = "x/y"\n', "cells", "cells/x-y"),
    (BASE + '[[arms]]\nname = "A"\n[[arms]]\nname = "a"\n', "cells", "cells/a"),
    (BASE + '[[arms]]\nname = "."\n[[arms]]\nname = "b"\n', "arms", "not a usable folder"),
    (BASE + '[[arms]]\nname = ".."\n[[arms]]\nname = "b"\n', "arms", "not a usable folder"),
    (BASE + '[[arms]]\nname = "' + "a" * 300 + '"\n[[arms]]\nname = "b"\n', "arms", "folder"),
]


@pytest.mark.parametrize(("text", "key", "needle"), BAD_STUDIES)
def test_bad_study_is_one_line_exit_2_and_writes_nothing(tmp_path, text, key, needle):
    path = tmp_path / "s.toml"
    path.write_text(text)
    code, _, err = in_process("study", "run", path, "--out", tmp_path / "out")
    line = one_error_line(err)
    assert code == 2 and f"{path}: {key}" in line and needle in line, line
    assert not (tmp_path / "out").exists()


def test_a_single_arm_named_dot_is_refused(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text(BASE + '[[arms]]\nname = "."\n')
    with pytest.raises(SpecError, match="not a usable folder name"):
        study.cells(study.load_study(path))


def test_data_files_whose_names_collide_are_refused_before_anything_runs(tmp_path):
    for name in ("my deck.toml", "my-deck.toml"):
        shutil.copyfile(DATA / "power_barons_default.toml", tmp_path / name)
    path = tmp_path / "s.toml"
    path.write_text(
        'game = "power-barons"\nplayers = 3\ngames = 20\n[sweep]\n'
        f'components = ["{tmp_path}/my deck.toml", "{tmp_path}/my-deck.toml"]\n'
    )
    code, _, err = in_process("study", "run", path, "--out", tmp_path / "out")
    assert code == 2 and "both make the folder" in one_error_line(err)
    assert not (tmp_path / "out").exists()


def test_a_huge_sweep_is_refused_at_once(tmp_path):
    values = ", ".join(str(v) for v in range(101))
    path = tmp_path / "s.toml"
    path.write_text(
        BASE + f"[sweep]\noverthrow_cost = [{values}]\nincome = [{values}]\nsteal = [{values}]\n"
    )
    started = time.perf_counter()
    code, _, err = in_process("study", "run", path, "--out", tmp_path / "out")
    assert code == 2 and "1,030,301 cells" in one_error_line(err)
    assert time.perf_counter() - started < 5


# --- sizes ------------------------------------------------------------------------------------


def test_planning_a_huge_run_is_lazy():
    started = time.perf_counter()
    chunks = runner.chunk_plan([(0, 10**15), (2 * 10**15, 3 * 10**15)], 100_000)
    assert list(islice(chunks, 3)) == [(0, 100_000), (100_000, 100_000), (200_000, 100_000)]
    assert time.perf_counter() - started < 0.1


def test_a_run_of_10_to_the_15_games_starts_at_once(tmp_path):
    """Before its first chunk: the run writes run.json and reports progress in well under a
    second, its memory proportional to what it has played."""

    class Started(Exception):
        pass

    def stop_at_first_progress(done, total):
        assert (done, total) == (0, 10**15)
        raise Started

    spec = runner.build_spec("power", 4, [], [], 1, 10**15, True)
    started = time.perf_counter()
    with pytest.raises(Started):
        runner.run(spec, tmp_path / "huge", progress=stop_at_first_progress)
    assert time.perf_counter() - started < 5
    assert storage.read_run_json(tmp_path / "huge")["spec"]["games"] == 10**15


def test_replay_reaches_the_last_game_index():
    code, stdout, err = in_process("replay", "power", "--game-index", storage.MAX_GAMES - 1)
    assert code == 0 and f"game {storage.MAX_GAMES - 1} of seed 0" in stdout, err


# --- corrupt run.json and study.json: one validating loader each ------------------------------


def _edit_run_json(key_path: list, value):
    def edit(info: dict) -> None:
        target = info
        for key in key_path[:-1]:
            target = target[key]
        target[key_path[-1]] = value

    return edit


RUN_JSON_DAMAGE = [
    (_edit_run_json(["spec", "players"], 10**9), "spec.players"),
    (_edit_run_json(["spec", "games"], -1), "spec.games"),
    (_edit_run_json(["spec", "seed"], "5"), "spec.seed"),
    (_edit_run_json(["lineup"], "counter"), "lineup"),
    (_edit_run_json(["lineup"], ["counter", "honest"]), "lineup"),
    (_edit_run_json(["impact"], [{"title": 1, "columns": []}]), "impact[0].title"),
    (_edit_run_json(["shard"], {"index": 1, "count": 2, "first": 0, "stop": 10**9}), "shard"),
    (_edit_run_json(["format"], 3), "format 3"),
    ("truncated", "invalid JSON"),
    ("latin-1", "not UTF-8"),
    ("nested", "invalid JSON"),
    ("fifo", "not a regular file"),
    ("folder", "not a regular file"),
]


@pytest.mark.parametrize(("damage", "needle"), RUN_JSON_DAMAGE)
def test_corrupt_run_json_is_one_line_for_readers_and_writers(existing, tmp_path, damage, needle):
    out = tmp_path / "run"
    shutil.copytree(existing / "run", out)
    run_json = out / "run.json"
    if damage == "truncated":
        run_json.write_text(run_json.read_text()[:100])
    elif damage == "latin-1":
        run_json.write_bytes(run_json.read_bytes().replace(b'"power"', b'"p\xf6wer"'))
    elif damage == "nested":
        run_json.write_text("[" * 100_000)
    elif damage == "fifo":
        run_json.unlink()
        os.mkfifo(run_json)
    elif damage == "folder":
        run_json.unlink()
        run_json.mkdir()
    else:
        info = json.loads(run_json.read_text())
        damage(info)
        run_json.write_text(json.dumps(info))
    before = tree_digest(out)
    rerun = ["run", "power", "-n", 300, "--seed", 5, "-o", out]
    for args in (["summary", out], ["report", out], rerun):
        code, _, err = in_process(*args)
        assert code == 2 and needle in one_error_line(err), err
    assert tree_digest(out) == before


@pytest.fixture(scope="module")
def study_dir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("study")
    (folder / "s.toml").write_text(BASE + '[[arms]]\nname = "a"\n[[arms]]\nname = "b"\n')
    code, _, err = in_process("study", "run", folder / "s.toml", "--out", folder / "out")
    assert code == 0, err
    return folder / "out"


@pytest.mark.parametrize(
    ("edit", "needle"),
    [
        (lambda info, other: info["cells"][0].update(id=f"../../{other.name}"), "cells[0].id"),
        (lambda info, other: info["cells"][0].update(id=".."), "cells[0].id"),
        (lambda info, other: info.pop("format"), "older powerlab"),
        (lambda info, other: info.update(stopping=[{"cells": "a"}]), "stopping[0]"),
        (lambda info, other: info.update(cells=[]), "cells"),
    ],
)
def test_study_report_reads_only_a_valid_study_json(study_dir, existing, tmp_path, edit, needle):
    out = tmp_path / "out"
    shutil.copytree(study_dir, out)
    info = json.loads((out / "study.json").read_text())
    edit(info, existing / "run")
    (out / "study.json").write_text(json.dumps(info))
    code, _, err = in_process("study", "report", out)
    assert code == 2 and needle in one_error_line(err), err


def test_study_report_does_not_follow_a_cell_out_of_the_study(study_dir, existing, tmp_path):
    out = tmp_path / "out"
    shutil.copytree(study_dir, out)
    shutil.rmtree(out / "cells" / "a")
    (out / "cells" / "a").symlink_to(existing / "run")
    code, _, err = in_process("study", "report", out)
    assert code == 2 and "leads out of the study directory" in one_error_line(err)


# --- plot text is literal ---------------------------------------------------------------------


def test_labels_with_dollars_are_drawn_as_written(tmp_path):
    cards = (DATA / "time_barons_cards.toml").read_text()
    cards = cards.replace('name = "Catapult"', 'name = "$\\\\frac{$ Catapult"')
    (tmp_path / "cards.toml").write_text(cards)
    out = tmp_path / "r$\\frac{$"
    code, _, err = in_process(
        "run",
        "time-barons",
        "-p",
        2,
        "--set",
        f"cards={tmp_path / 'cards.toml'}",
        "-n",
        300,
        "-o",
        out,
    )
    assert code == 0, err
    code, stdout, err = in_process("report", out, "-o", tmp_path / "report.pdf")
    assert code == 0, err
    from analyses.dataset import load_run

    pages = run_pages(load_run(out))
    for page in pages:  # nothing typeset as mathtext, among other things
        assert check_page(page) == [], page.get_suptitle()
    printed = [
        text._preprocess_math(text.get_text())[0]
        for page in pages
        for text in page.findobj(Text)
        if text.get_visible()
    ]
    assert any("$\\frac{$ Catapult" in text for text in printed)


def test_study_names_with_dollars_are_drawn_as_written(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text(
        'title = "$\\\\frac{$"\n' + BASE + '[[arms]]\nname = "$a$"\n[[arms]]\nname = "$\\\\b{"\n'
    )
    code, _, err = in_process("study", "run", path, "--out", tmp_path / "out")
    assert code == 0, err
    assert in_process("study", "report", tmp_path / "out")[0] == 0


# --- a board whose lane names are not numbers -------------------------------------------------


def test_board_lane_names_need_not_be_ascii_numbers(tmp_path):
    board = (DATA / "power_the_game_board.toml").read_text()
    for lane, name in (("S3", "S²"), ("S6", f"S{BIG}"), ("S9", "S٣")):
        board = board.replace(f'"{lane}"', f'"{name}"').replace(f"\n{lane} =", f'\n"{name}" =')
    path = tmp_path / "board.toml"
    path.write_text(board)
    loaded = load_power_the_game_board(str(path))
    numbers = {name: loaded.table[i, B_NUMBER] for i, name in enumerate(loaded.names)}
    assert numbers["S²"] == numbers[f"S{BIG}"] == numbers["S٣"] == -1 and numbers["S1"] == 1
    code, _, err = in_process("run", "power-the-game", "-p", 2, "--set", f"board={path}", "-n",
                              20, "-o", tmp_path / "out")  # fmt: skip
    assert code == 0, err


# --- a --where that is no condition -----------------------------------------------------------


@pytest.mark.parametrize("where", ["winner + 1", "turns", "1", "((1))", "s0_strategy"])
def test_a_where_that_gives_no_true_or_false_is_one_plain_line(tmp_path, where):
    # Before: polars' "filter predicate must be of type `Boolean`, got `Int8`".
    from tests.cli.fakerun import make_fake_run

    run = make_fake_run(tmp_path, games=40)
    code, stdout, stderr = in_process("games-of", run, "--where", where)
    line = one_error_line(stderr)
    assert code == 2 and stdout == "" and f"--where {where!r} is not a condition" in line, line
    assert "Boolean" not in line and "dtype" not in line
    code, stdout, _ = in_process("games-of", run, "--where", f"not s0_won and {where} == {where}")
    assert code == 0 and "of the run's games meet" in stdout
