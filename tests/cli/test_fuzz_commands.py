"""Property-based fuzzing (hypothesis) of every command's options (issue 45): each command of
``powerlab --help`` gets generated option values (tricky numbers, hostile paths, unknown games,
strategies and presets, keys given twice, bad ``--set``/``--vs`` pairs) and must end in exit 0,
or in exit 2 with one ``powerlab: error:`` line, never a traceback, with nothing changed on disk
after a refusal (tests/cli/fuzzing.py). test_fuzz.py goes deeper into run, the readers and study
files; here every command is reached, each with every option it takes.

The valid values are tiny (a few games, a budget of 600, one component, one field), so that
whatever runs is quick; examples are derandomized. What takes minutes whatever the options
has an instant stand-in: the compiles of ``warmup`` and ``bench --compile``, and bench's
protocol, plain-Python and Dask figures.
"""

import itertools
import os
from pathlib import Path

import pytest
import typer
from hypothesis import example, given, settings
from hypothesis import strategies as st

import cli
from simcore.workflows import bench, runner
from tests.cli import fuzzing
from tests.cli.clitools import in_process
from tests.cli.fuzzing import BIG, FOCALS, FUZZ, NUMBERS, SETTINGS, STRATEGIES

# Each option of a command is a slot: its valid values (kept small: whatever runs is quick) and
# its hostile ones (a tuple: the option given once per value). A generated example gives the
# valid value of some slots and a hostile value to one, so that it meets the checks the others
# let it reach; some hostile values are odd but valid, and the explicit examples (EXAMPLES) run
# every command's work with valid values only.
NUMBERS_AND_ZERO = NUMBERS + ["00", "-0", "0x10", "1.0", "١٠"]
HOSTILE_GAMES = ["nosuch", "POWER", "", " power", "power ", "../power", "time-barons"]
OUTS = ["{run}", "{study}", "{notes}", "{fifo}", "{missing}/x", "{notes}/sub", "{link}",
        "/proc/x", "/dev/null", ".", "", "{relative}", "{new}/../{new}/./x", "{run}/games",
        "{new}-png"]  # fmt: skip
READS = ["{study}", "{notes}", "{fifo}", "{missing}", "/dev/null", "/dev/zero", "/proc/x",
         "{link}", ".", "", "{run}/games", "{run}/run.json"]  # fmt: skip
# Folders that cannot be made; the tables' folder also gets odd ones that can (drawing every
# page as a PNG takes seconds: PNGs are drawn by the explicit examples only).
FOLDERS = ["{notes}", "{notes}/sub", "{fifo}", "{link}", "/proc/x", "/dev/null",
           "{run}/run.json"]  # fmt: skip
ODD_FOLDERS = [*FOLDERS, "{new}.pdf", "{new}-png/./.", "{new}-png", "{new}/a/b", ".", ""]
PDFS = ["{new}.PDF", "{new}", "{notes}", "{new}/c.pdf", "{missing}/c.pdf", "{run}/report.pdf",
        "/proc/c.pdf", "{new}-png", "{link}", "{fifo}", ".pdf", "{run}"]  # fmt: skip
PRESETS = ["preset:nosuch", "preset:", "preset", "preset:counter-vs-mixed:nosuch=1",
           "preset:counter-vs-mixed:threshold=2",
           "preset:counter-vs-mixed:threshold=0.2,threshold=0.3"]  # fmt: skip
SEARCHES = ["ismcts:iterations=1,iterations=2", f"ismcts:iterations={BIG}", "ismcts:iterations=0",
            "ismcts:rollout=ismcts", "ismcts:iterations=1,rollout=preset:nosuch",
            "ismcts:rollout=honest:targeting=richest,iterations=1",
            "ismcts:iterations=1,rollout=honest:targeting=nosuch"]  # fmt: skip
ODD_STRATEGIES = ["counter:threshold=0.1,", "counter:,", "counter:threshold", "counter:=1",
                  "COUNTER", "counter ", "bluffer:targeting=nosuch", "bluffer:p_bluff=1e-400",
                  "bluffer:p_bluff=-0", "counter:threshold=0.1,threshold=0.1"]  # fmt: skip
HOSTILE_STRATEGIES = STRATEGIES + PRESETS + SEARCHES + ODD_STRATEGIES
RULES = [*SETTINGS, "income=01", "income= 1", "refund_failed_action=yes",
         "refund_failed_action=1", "challenge_order=nosuch", "max_turns=0", "cards={notes}",
         "board={fifo}", "data=/dev/null", "cards={missing}", "INCOME=1", " income=1",
         ("income=1", "income=2"), ("income=1", "income=1")]  # fmt: skip
WHERE = ["", "turns >", "nosuch == 1", "winner in []", "turns > nan", "turns / 0 > 1",
         "turns % 0 == 0", "__import__('os')", f"turns > {BIG}", "winner == '0'",
         "turns > 0 and", "(" * 200 + "1" + ")" * 200, "a" * 5000, "1", "turns", "winner + 1",
         "s0_strategy", "turns < 1e400", "turns > 10**10**10", "winner == -1"]  # fmt: skip
ARCS = ["0%", "101%", "nan%", "-1%", "٣%", "1", "", f"{BIG}%", "inf%", "1e-300%", "%"]
FLAG = None  # a slot's value for an option that takes none


def slot(option_name, valid, hostile=(), required=False):
    """An option (``None``: a positional argument) with its valid and hostile values."""
    return option_name, list(valid), list(hostile), required


def count_slot(option_name, valid=("6",), required=False):
    return slot(option_name, valid, NUMBERS_AND_ZERO, required)


def threads_dask_png(tables: bool = True) -> list:
    slots = [
        slot("--threads", ["1", "2"], ["0", "-1", "3", "٣", BIG, "nan", ""]),
        slot("--scheduler", [], ["nosuch", "tcp://", "", "local:٣", "local:0"]),
        slot("--cluster", [], ["local:0", "local:٣", f"local:{BIG}", "remote:1", "local:"]),
        PNG,
    ]
    return slots + ([TABLES] if tables else [])


# Hostile values that some option takes (a number, a rule, a path spelled oddly): a command
# that takes seconds to run (``invocation(costly=True)``) is given only the others, so that each
# of its examples is a quick refusal; the quick commands try these too.
ODD_BUT_VALID = {"1", "3", "5", "1_0", " 2", "+2", "00", "-0", "income=1", "income=01",
                 "income= 1", " income=1", "refund_failed_action=1", "{relative}", "{new}-png",
                 "{new}/../{new}/./x", "{new}-png/./.", "{new}/a/b", ".", "", "{new}.pdf",
                 "{new}-tables"}  # fmt: skip


@st.composite
def invocation(draw, words: list[str], slots: list, costly: bool = False) -> list[str]:
    """``words`` and the drawn options of ``slots``: one slot given a hostile value."""
    if costly:
        slots = [(*slot_[:2], [v for v in slot_[2] if v not in ODD_BUT_VALID], slot_[3])
                 for slot_ in slots]  # fmt: skip
    spoilable = [k for k, (_, _, hostile, _) in enumerate(slots) if hostile]
    spoiled = draw(st.sampled_from(spoilable))
    args = list(words)
    for k, (name, valid, hostile, required) in enumerate(slots):
        if k == spoiled:
            value = draw(st.sampled_from(hostile))
        elif valid and (required or draw(st.integers(0, 2)) == 0):
            value = draw(st.sampled_from(valid))
        else:
            continue
        for one in value if isinstance(value, tuple) else (value,):
            args += [word for word in (name, one) if word is not None]
    return args


PNG = slot("--png", [], FOLDERS)
TABLES = slot("--tables", ["{new}-tables"], ODD_FOLDERS)
OUT = slot("-o", ["{new}"], OUTS, required=True)
PLAYERS = slot("-p", ["3", "4"], NUMBERS_AND_ZERO + ["2", "7"])
SEED = slot("--seed", ["0", "7"], NUMBERS_AND_ZERO)
LINEUP = slot("-s", ["counter", "honest", ("counter", "bluffer:p_bluff=0.5", "honest")],
              HOSTILE_STRATEGIES)  # fmt: skip
SET = slot("--set", ["income=2", "overthrow_cost=6", ("income=2", "aid=1")], RULES)
FIXED = slot("--fixed-seats", [FLAG])
COMPONENTS = ["banker_takes", "nosuch", "", "BANKER_TAKES", ("banker_takes", "banker_takes")]

# Each command of `powerlab --help`: (how many examples, its words).
COMMANDS = {
    "games": (10, invocation(["games"], [
        slot(None, ["power", "time-barons"], [*HOSTILE_GAMES, "power power"]),
    ])),
    "run": (20, invocation(["run"], [
        slot(None, ["power", "power", "time-barons", "power-the-game"], HOSTILE_GAMES, True),
        OUT, count_slot("-n", required=True), PLAYERS, SEED,
        slot("-s", ["counter", "honest", "ismcts:iterations=2"], HOSTILE_STRATEGIES), SET,
        slot("--arcs", ["50%", "100%"], ARCS), FIXED, *threads_dask_png()[:3],
    ])),
    "merge": (10, invocation(["merge"], [
        slot(None, ["{run}"], READS + [("{run}", "{run}"), ("{run}", "{study}")], True), OUT,
    ])),
    "summary": (8, invocation(["summary"], [
        slot(None, ["{run}"], READS, True), slot("--json", [FLAG]),
    ])),
    "report": (10, invocation(["report"], [
        slot(None, ["{run}"], READS, True), slot("-o", ["{new}.pdf"], PDFS),
        PNG, TABLES,
    ], costly=True)),
    "replay": (15, invocation(["replay"], [
        slot(None, ["power", "power-the-game"], HOSTILE_GAMES, True),
        count_slot("-i", required=True), SEED, PLAYERS,
        slot("-s", ["counter", "honest", "ismcts:iterations=2"], HOSTILE_STRATEGIES), SET, FIXED,
    ])),
    "games-of": (15, invocation(["games-of"], [
        slot(None, ["{run}"], READS, True),
        slot("--where", ["winner == 0", "turns > 3 and not s0_won"], WHERE, True),
        slot("--limit", ["0", "2"], NUMBERS_AND_ZERO),
    ])),
    "warmup": (10, invocation(["warmup"], [
        slot(None, ["power"], HOSTILE_GAMES + [("power", "power")]),
        slot("--jobs", ["1", "2"], NUMBERS_AND_ZERO),
    ])),
    "bench": (15, invocation(["bench"], [
        slot(None, ["power"], HOSTILE_GAMES + [("power", "nosuch"), ("power", "time-barons")],
             True), count_slot("-n", required=True),
        slot("--repeat", ["1"], NUMBERS_AND_ZERO, True), PLAYERS,
        slot("-s", ["counter", "honest"], STRATEGIES + PRESETS + ODD_STRATEGIES), SET,
        slot("--json", [FLAG]), slot("--python-ratio", [FLAG]), slot("--dask", [FLAG]),
        slot("--compile", [FLAG]),
    ])),
    "compare": (10, invocation(["compare"], [
        slot(None, ["{run}"], READS, True), slot(None, ["{run}"], READS, True),
        slot("--focal", ["seat:0", "counter", ("seat:1", "seat:1")], FOCALS),
        slot("-o", ["{new}.pdf"], PDFS), PNG, TABLES,
    ], costly=True)),
    "impact": (10, invocation(["impact", "power"], [
        OUT, count_slot("-n", required=True), PLAYERS, LINEUP, SEED, SET, FIXED,
        slot("-c", ["banker_takes"], COMPONENTS, True),
        slot("--change", ["income=2"], ["income=nan", "cards={notes}", "=", "income", "income=1",
                                        ("income=2", "income=2"), "nosuch=1"]),
        *threads_dask_png(),
    ], costly=True)),
    "whatif": (10, invocation(["whatif", "power"], [
        OUT, slot("--set", ["income=1"], ["income=nan", "nosuch=1", "=", ("income=1", "income=2"),
                                          "income=2"], True),
        slot("--vs", ["income=2"], ["income=1", "aid=2", "income=٣", "cards={notes}", "",
                                    ("income=2", "income=3")], True),
        PLAYERS, slot("-s", ["counter", ("counter", "honest", "bluffer")], HOSTILE_STRATEGIES),
        SEED, slot("--budget", ["quick"], ["", "QUICK", "nosuch"]),
        count_slot("-n", required=True),
        slot("--field", ["scripted"], ["nosuch", "", "Scripted", ("scripted", "scripted")], True),
        *threads_dask_png(),
    ], costly=True)),
    "tune": (15, invocation(["tune", "power", "-p", "3"], [
        OUT, slot("-s", ["bluffer"], ["", "counter:nosuch=1", "random", *PRESETS, *SEARCHES,
                                      *ODD_STRATEGIES, "preset:bluffer-vs-mixed"], True),
        slot("-a", ["counter"], HOSTILE_STRATEGIES, True), slot("--self-play", [], [FLAG]),
        slot("-n", ["600"], NUMBERS_AND_ZERO, True), SEED, SET,
        slot("--param", ["p_bluff"], ["nosuch", "", "targeting", ("p_bluff", "p_bluff")]),
        slot("--fix", ["targeting=richest"], ["p_bluff=nan", "p_bluff", "=", "nosuch=1",
                                              ("targeting=leader", "targeting=richest")]),
        slot("--range", ["p_bluff=0.1:0.9"], ["p_bluff=1:0", "p_bluff=0:1:log", "p_bluff=nan:1",
                                              "targeting=0:1", "p_bluff=0:1:lin", "p_bluff",
                                              "p_bluff=0:٣", "p_bluff=0:2"]),
        slot("--sampler", ["tpe", "cmaes"], ["nosuch", "", "TPE"]),
        slot("--min-games", ["4"], NUMBERS_AND_ZERO, True),
        slot("--final-games", ["6"], NUMBERS_AND_ZERO), slot("--rounds", ["1"], NUMBERS_AND_ZERO),
        slot("--seeds", ["1"], NUMBERS_AND_ZERO), slot("--from-start", [FLAG]),
        *threads_dask_png(tables=False),
    ], costly=True)),
    "meta": (10, invocation(["meta", "power"], [
        slot("--population", ["{population}"], READS + ["{balance}"], True), OUT,
        slot("-p", ["3"], NUMBERS_AND_ZERO), count_slot("-n", required=True), SEED, SET,
        slot("--resamples", ["0", "2"], NUMBERS_AND_ZERO), *threads_dask_png(tables=False),
    ], costly=True)),
    "balance": (10, invocation(["balance"], [
        slot(None, ["{balance}"], READS + ["{population}"], True), OUT,
        *threads_dask_png(tables=False),
    ], costly=True)),
    "study run": (10, invocation(["study", "run"], [
        slot(None, ["{studyfile}"], READS + ["{population}"], True), OUT, count_slot("-n"),
        *threads_dask_png(),
    ], costly=True)),
    "study report": (8, invocation(["study", "report"], [
        slot(None, ["{study}"], READS + ["{run}"], True), PNG, TABLES,
    ], costly=True)),
}  # fmt: skip

# Runs that must succeed, so that the fuzz reaches every command's work and not only its checks.
EXAMPLES = {
    "games": [["games", "power"]],
    "run": [["run", "power", "-o", "{new}", "-n", "6", "--arcs", "50%", "--fixed-seats"]],
    "merge": [["merge", "{run}", "-o", "{new}"]],
    "summary": [["summary", "{run}", "--json"]],
    "report": [["report", "{run}", "-o", "{new}.pdf", "--tables", "{new}"]],
    "replay": [["replay", "power", "-i", "6", "-p", "3", "--set", "income=2"]],
    "games-of": [["games-of", "{run}", "--where", "winner == 0", "--limit", "2"]],
    "warmup": [["warmup", "power", "--jobs", "1"]],
    "bench": [["bench", "power", "-n", "6", "--repeat", "1", "--python-ratio", "--dask"],
              ["bench", "power", "--compile"]],
    "compare": [["compare", "{run}", "{run}", "-o", "{new}.pdf", "--tables", "{new}"]],
    "impact": [["impact", "power", "-o", "{new}", "-n", "6", "-p", "3", "-c", "banker_takes",
                "--change", "income=2", "--tables", "{new}-t"]],
    "whatif": [["whatif", "power", "-o", "{new}", "-p", "3", "-n", "6", "--set", "income=1",
                "--vs", "income=2", "--field", "scripted", "--tables", "{new}-t"]],
    "tune": [["tune", "power", "-o", "{new}", "-p", "3", "-s", "bluffer", "-a", "counter",
              "-n", "600", "--min-games", "4", "--final-games", "6", "--param", "p_bluff"]],
    "meta": [["meta", "power", "--population", "{population}", "-o", "{new}", "-p", "3",
              "-n", "6", "--resamples", "2"]],
    "balance": [["balance", "{balance}", "-o", "{new}"]],
    "study run": [["study", "run", "{studyfile}", "-o", "{new}", "-n", "6", "--tables",
                   "{new}-t"]],
    "study report": [["study", "report", "{study}", "--png", "{new}"]],
}  # fmt: skip

POPULATION = 'strategies = ["counter", "honest"]\n'
STUDY = 'game = "power"\nplayers = 3\ngames = 6\nseed = 7\n'
BALANCE = """game = "power"
players = [3]
strategies = ["counter", "honest", "bluffer"]
seed = 1
[search]
trials = 2
batch = 2
min_games = 6
rungs = 1
finalists = 1
final_games = 6
[[params]]
rule = "overthrow_cost"
low = 5
high = 9
[[objectives]]
kind = "seat_fairness"
"""


def test_every_command_of_powerlab_help_is_fuzzed():
    group = typer.main.get_command(cli.app)
    names = set()
    for name, command in group.commands.items():
        subcommands = getattr(command, "commands", {})
        names |= {f"{name} {sub}" for sub in subcommands} if subcommands else {name}
    assert names == set(COMMANDS) == set(EXAMPLES)


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """The files the fuzzed commands must leave as they are: a finished run and study, a
    designer's notes, a FIFO, a broken link, a population, balance and study file; a folder
    for relative paths (holding a file: ``.`` is never an empty folder to fill)."""
    folder = tmp_path_factory.mktemp("world")
    runner.run(runner.build_spec("power", 4, [], [], 424242, 40, True), folder / "run")
    (folder / "notes").write_text("a designer's notes")
    # The study's seed is no fuzzed study's: a rerun into its folder is refused, never resumed.
    (folder / "made.toml").write_text(STUDY.replace("seed = 7", "seed = 424242"))
    code, _, err = in_process("study", "run", folder / "made.toml", "--out", folder / "study")
    (folder / "study.toml").write_text(STUDY)
    assert code == 0, err
    os.mkfifo(folder / "fifo")
    (folder / "link").symlink_to(folder / "nowhere")
    (folder / "population.toml").write_text(POPULATION)
    (folder / "balance.toml").write_text(BALANCE)
    (folder / "cwd").mkdir()
    (folder / "cwd" / "notes").write_text("a designer's notes")
    return folder, itertools.count()


@pytest.fixture(scope="module", autouse=True)
def quick_measurements():
    """What takes minutes whatever the options, made instant: compiles (``bench --compile``,
    ``warmup``) and bench's protocol, plain-Python and Dask figures."""

    def cold_compile(game_ids, notify):
        entry = dict.fromkeys(("scripted_s", "scripted_cpu_s", "warmup_s", "warmup_cpu_s"), 1.0)
        return {game_id: entry for game_id in game_ids or ["power"]}

    def warm_up_games(game_ids, jobs, notify, compiling):
        for game_id in game_ids:
            yield game_id, False, 1.0

    dask = {"scaling_2_vs_1_workers": 1.0, "dask_overhead_share": 0.0,
            "dask_overhead_ms_per_chunk": 0.0}  # fmt: skip
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(bench, "cold_compile", cold_compile)
        patch.setattr(bench, "protocol", lambda *args: {})
        patch.setattr(bench, "plain_python_rate", lambda *args: 1000.0)
        patch.setattr(bench, "dask_path", lambda *args: dask)
        patch.setattr(runner, "warm_up_games", warm_up_games)
        yield


def check(world, args: list[str]) -> None:
    folder, counter = world
    n = next(counter)
    values = {
        "{run}": folder / "run", "{study}": folder / "study", "{notes}": folder / "notes",
        "{fifo}": folder / "fifo", "{missing}": folder / "missing", "{link}": folder / "link",
        "{new}": folder / f"new-{n}", "{population}": folder / "population.toml",
        "{balance}": folder / "balance.toml", "{studyfile}": folder / "study.toml",
        "{relative}": Path(f"new-{n}"),
    }  # fmt: skip
    fuzzing.check(folder, args, values, cwd=folder / "cwd")


@pytest.mark.parametrize("name", list(COMMANDS))
def test_fuzzed_options_of_every_command_end_in_exit_0_or_one_line_exit_2(world, name):
    count, words = COMMANDS[name]

    @settings(FUZZ, max_examples=count)
    @given(args=words)
    def fuzz(args):
        check(world, args)

    for args in EXAMPLES[name]:
        fuzz = example(args=args)(fuzz)
    fuzz()
