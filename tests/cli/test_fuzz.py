"""Property-based fuzzing (hypothesis) of the CLI's option values and of study files (issue 16):
every command ends in exit 0, or in exit 2 with one ``powerlab: error:`` line; never a traceback;
a refusal changes no file, and a success changes none of the files that existed before it (but
reports, which it may rewrite).

The values mix the tricky (Unicode digits, NaN, integers beyond 64 bits, special files, names
that clean to the same folder) with valid ones kept small, so that whatever runs is quick.
Examples are derandomized: the suite is the same on every machine.
"""

import itertools
import json
import os

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from simcore.workflows import runner
from tests.cli import fuzzing
from tests.cli.clitools import in_process
from tests.cli.fuzzing import BIG, FOCALS, FUZZ, NUMBERS, SETTINGS, STRATEGIES, flatten, option

SHARDS = ["1/2", "2/2", "0/1", "٣/٤", f"1/{BIG}", "a/b", "1", "3/2", "1/1"]
CLUSTERS = ["local:0", "local:٣", "local:²", "remote:1", f"local:{BIG}", "local:-1", "local:"]
PATHS = ["{run}", "{notes}", "{new}", "{study}", "/dev/null", "/dev/zero", "{fifo}", "{missing}/x"]


def command() -> st.SearchStrategy:
    run = st.tuples(
        st.sampled_from([["run", "power"]] * 2 + [["run", "chess"], ["run", "time-barons"]]),
        st.sampled_from(NUMBERS).map(lambda games: ["--games", games]),  # never the default
        option("--seed", NUMBERS), option("--players", NUMBERS),
        option("--chunk-size", NUMBERS), option("--threads", NUMBERS), option("--shard", SHARDS),
        option("--cluster", CLUSTERS), option("--set", SETTINGS), option("-s", STRATEGIES),
        st.one_of(st.just([]), st.tuples(
            st.just("--until-ci"), st.sampled_from(["0.4", "0.01", "nan", "0", "1", "-1"]),
            st.just("--max-games"), st.sampled_from(["20", "0", BIG, "٣"]),
            st.just("--focal"), st.sampled_from(FOCALS),
        ).map(list)),
        st.just("--out"), st.sampled_from(["{new}"] * 4 + PATHS),
    )  # fmt: skip
    readers = st.one_of(
        st.tuples(st.just("summary"), st.sampled_from(PATHS), st.sampled_from([[], ["--json"]])),
        st.tuples(st.just("report"), st.sampled_from(PATHS), st.just("-o"),
                  st.sampled_from(["{new}.pdf", "{notes}", "{missing}/r.pdf", "{new}.txt"])),
        st.tuples(st.just("compare"), st.sampled_from(PATHS), st.sampled_from(PATHS),
                  option("--focal", FOCALS)),
        st.tuples(st.just("merge"), st.lists(st.sampled_from(PATHS), max_size=3), st.just("--out"),
                  st.sampled_from(PATHS)),
        st.tuples(st.just("replay"), st.sampled_from(["power", "chess"]), st.just("--game-index"),
                  st.sampled_from(NUMBERS), option("--seed", NUMBERS), option("-s", STRATEGIES)),
        st.tuples(st.just("study"), st.just("report"), st.sampled_from(PATHS)),
        st.tuples(st.just("study"), st.just("run"), st.sampled_from(PATHS), st.just("--out"),
                  st.sampled_from(PATHS), option("--games", NUMBERS)),
    )  # fmt: skip
    return st.one_of(run, readers).map(lambda parts: list(flatten(parts)))


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """Pre-existing files the fuzzed commands must not change: a finished run (of a seed no
    fuzzed value names, so that no command may extend it), a study, a designer's notes, a
    FIFO; and a counter for fresh output names."""
    folder = tmp_path_factory.mktemp("world")
    runner.run(runner.build_spec("power", 4, [], [], 424242, 40, True), folder / "run")
    (folder / "notes").write_text("a designer's notes")
    (folder / "study.toml").write_text('game = "power"\nplayers = 4\ngames = 10\nseed = 424242\n')
    code, _, err = in_process("study", "run", folder / "study.toml", "--out", folder / "study")
    assert code == 0, err
    os.mkfifo(folder / "fifo")
    return folder, itertools.count()


def check(world, args: list[str]) -> None:
    folder, counter = world
    n = next(counter)
    values = {
        "{run}": folder / "run", "{notes}": folder / "notes", "{new}": folder / f"new-{n}",
        "{study}": folder / "study", "{fifo}": folder / "fifo", "{missing}": folder / "missing",
    }  # fmt: skip
    fuzzing.check(folder, args, values)


@FUZZ
@given(args=command())
@example(args=["run", "power", "--games", "5", "--seed", "3", "--out", "{new}"])
@example(args=["run", "power", "-n", "7", "--shard", "1/2", "--chunk-size", "2", "-o", "{new}"])
@example(args=["run", "power", "-n", "5", "-s", "bluffer:p_bluff=0.5", "--until-ci", "0.4",
               "--max-games", "20", "--focal", "seat:03", "-o", "{new}"])  # fmt: skip
@example(args=["compare", "{run}", "{run}", "--focal", "seat:0"])
@example(args=["merge", "{run}", "--out", "{new}"])
@example(args=["replay", "power", "--game-index", "9" * 18])
@example(args=["study", "run", "{study}.toml", "--out", "{new}", "--games", "5"])
def test_fuzzed_options_end_in_exit_0_or_one_line_exit_2(world, args):
    check(world, args)


# --- study files ------------------------------------------------------------------------------


def toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return {"nan": "nan", "inf": "inf", "-inf": "-inf"}.get(str(value), repr(value))
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        items = ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items())
        return "{ " + items + " }"
    return json.dumps(value) if isinstance(value, str) else str(value)


NAN, INF, HUGE = float("nan"), float("inf"), 2**64
ARM_NAMES = ["a", "b", "A", ".", "..", "x y", "x/y", "$a$", "", "é", "a" * 220]


@st.composite
def study_text(draw) -> bytes:
    top = {
        "game": draw(st.sampled_from(["power", "power", "power", "chess", 1])),
        "players": draw(st.sampled_from([4, 4, 3, [3, 4], 9, HUGE, -1, "4", [], NAN])),
        "games": draw(st.sampled_from([10, 10, 10, 0, -1, HUGE, "x", 1.5, NAN])),
        "seed": draw(st.sampled_from([1, 1, -1, HUGE])),
    }
    if draw(st.booleans()):
        top["rules"] = {"overthrow_cost": draw(st.sampled_from([7, 6, NAN, INF, 99, "x", HUGE]))}
    if draw(st.booleans()):
        top["strategies"] = draw(st.sampled_from(
            [["counter", "bluffer", "honest", "random"], ["bluffer:p_bluff=nan"], [], "counter",
             ["wizard"], ["bluffer"]]
        ))  # fmt: skip
    lines = [f"{key} = {toml_value(value)}" for key, value in top.items()]
    for name in draw(st.lists(st.sampled_from(ARM_NAMES), max_size=3)):
        lines += ["[[arms]]", f"name = {toml_value(name)}"]
    sweep = draw(st.dictionaries(
        st.sampled_from(["overthrow_cost", "bluffer.p_bluff", "income", "nosuch"]),
        st.sampled_from([[6, 7], [NAN], [], [0.1, 0.2], [INF], [1, HUGE], list(range(101))]),
        max_size=3,
    ))  # fmt: skip
    if sweep:
        lines += ["[sweep]", *(f"{json.dumps(k)} = {toml_value(v)}" for k, v in sweep.items())]
    if draw(st.booleans()):
        lines += ["[stop]", f"until_ci = {toml_value(draw(st.sampled_from([0.4, NAN, 2])))}",
                  f"max_games = {toml_value(draw(st.sampled_from([20, HUGE, 0])))}",
                  f"focal = {toml_value(draw(st.sampled_from(FOCALS)))}"]  # fmt: skip
    text = ("\n".join(lines) + "\n").encode()
    damage = draw(st.sampled_from(["none"] * 6 + ["latin-1", "truncate"]))
    if damage == "latin-1":
        return text + b'title = "caf\xe9"\n'
    if damage == "truncate":
        return text[: len(text) // 2]
    return text


@FUZZ
@given(text=study_text())
def test_fuzzed_study_files_end_in_exit_0_or_one_line_exit_2(world, text):
    folder, counter = world
    path = folder / f"fuzz-{next(counter)}.toml"
    path.write_bytes(text)
    check(world, ["study", "run", path, "--out", "{new}"])
