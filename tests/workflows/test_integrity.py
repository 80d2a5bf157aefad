"""A run directory as a small database (issue 16): one writer at a time, every part verified
against the manifest by every reader and by resume, nothing counted twice, nothing read that is
not the run's, and comparisons only of comparable runs."""

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from simcore.workflows import runner, storage
from tests.cli.clitools import ROOT, in_process, one_error_line, tree_digest

LINEUP = ["counter", "bluffer", "honest", "random"]
RUN = ["run", "power", "--players", 4, *(a for s in LINEUP for a in ("-s", s))]


def spec(seed=5, games=3000, players=4, game="power", lineup=LINEUP):
    return runner.build_spec(game, players, lineup, [], seed, games, True)


def table(out: Path) -> pa.Table:
    parts = storage.parts(out, storage.read_run_json(out))
    tables = [pq.read_table(part.path(out)) for part in parts]
    return pa.concat_tables(tables).sort_by("game_index").combine_chunks()


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """A finished run of seed 5 (``good``) and one of seed 6 (``foreign``), 3 parts each."""
    folder = tmp_path_factory.mktemp("runs")
    runner.run(spec(), folder / "good", chunk_size=1000)
    runner.run(spec(seed=6), folder / "foreign", chunk_size=1000)
    return folder


# --- one writer at a time ---------------------------------------------------------------------


def start(*args) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "cli", *map(str, args)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
    )  # fmt: skip


def race(first: list, second: list) -> list[tuple[int, str, int]]:
    """Start two powerlab processes at once; (exit code, stderr, pid) of each."""
    procs = [start(*first), start(*second)]
    results = []
    for proc in procs:
        _, err = proc.communicate(timeout=300)
        results.append((proc.returncode, err, proc.pid))
    return results


# Long enough (about 4 s on one thread) for two processes started together to overlap.
RACE = ["--games", 150_000, "--chunk-size", 10_000, "--threads", 1]


def test_two_runs_of_one_spec_race_one_proceeds_the_other_names_it(tmp_path):
    out = tmp_path / "out"
    results = race([*RUN, *RACE, "--out", out], [*RUN, *RACE, "--out", out])
    codes = sorted(code for code, _, _ in results)
    assert codes == [0, 2], results
    winner = next(r for r in results if r[0] == 0)
    loser = next(r for r in results if r[0] == 2)
    line = one_error_line(loser[1])
    assert f"is being written by pid {winner[2]}" in line, line
    assert not (out / storage.LOCK_FILE).exists()
    assert table(out).num_rows == 150_000


def test_two_runs_of_different_seeds_race_nothing_mixed(tmp_path):
    """Seed 7 and seed 8 on one empty --out: one run, whole and of one seed."""
    out = tmp_path / "out"
    results = race(
        [*RUN, *RACE, "--seed", 7, "--out", out], [*RUN, *RACE, "--seed", 8, "--out", out]
    )
    assert sorted(code for code, _, _ in results) == [0, 2], results
    one_error_line(next(err for code, err, _ in results if code == 2))
    seed = storage.read_run_json(out)["spec"]["seed"]
    reference = tmp_path / "reference"
    runner.run(spec(seed=seed, games=150_000), reference, chunk_size=50_000)
    assert table(out).equals(table(reference))


def test_two_shards_into_one_out_race_one_proceeds(tmp_path):
    out = tmp_path / "out"
    results = race(
        [*RUN, *RACE, "--shard", "1/2", "--out", out], [*RUN, *RACE, "--shard", "2/2", "--out", out]
    )
    assert sorted(code for code, _, _ in results) == [0, 2], results
    one_error_line(next(err for code, err, _ in results if code == 2))
    shard = storage.read_run_json(out)["shard"]
    games = table(out)["game_index"].to_pylist()
    assert games == list(range(shard["first"], shard["stop"]))


@contextlib.contextmanager
def locked_elsewhere(*folders: Path):
    """The writer locks of ``folders`` held by another process (killed with SIGKILL after the
    block); yields its pid."""
    code = "import contextlib, time\nfrom simcore.workflows import storage\n"
    code += "with contextlib.ExitStack() as s:\n"
    code += "".join(f"    s.enter_context(storage.locked({str(f)!r}))\n" for f in folders)
    code += "    print('locked', flush=True)\n    time.sleep(300)\n"
    holder = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                              cwd=ROOT)  # fmt: skip
    try:
        assert holder.stdout.readline().strip() == "locked"
        yield holder.pid
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()


def test_a_held_lock_refuses_writers_and_blocks_no_reader(runs, tmp_path):
    out = tmp_path / "run"
    shutil.copytree(runs / "good", out)
    with locked_elsewhere(out) as pid:
        before = tree_digest(out)
        code, _, err = in_process(*RUN, "--games", 3000, "--seed", 5, "--out", out)
        assert code == 2
        line = one_error_line(err)
        assert f"pid {pid} on " in line and "wait for it to finish" in line, line
        assert tree_digest(out) == before
        for reader in (["summary", out], ["summary", out, "--json"]):
            code, stdout, stderr = in_process(*reader)
            assert code == 0 and "3000" in stdout, stderr


def test_study_run_and_merge_take_the_lock(runs, tmp_path):
    study = tmp_path / "s.toml"
    study.write_text('game = "power"\nplayers = 4\ngames = 50\n')
    merged = tmp_path / "merged"
    with locked_elsewhere(tmp_path / "study", merged):
        code, _, err = in_process("study", "run", study, "--out", tmp_path / "study")
        assert code == 2 and "is being written by" in one_error_line(err)
        code, _, err = in_process("merge", runs / "good", "--out", merged)
        assert code == 2 and "is being written by" in one_error_line(err)
    assert in_process("merge", runs / "good", "--out", merged)[0] == 0
    assert table(merged).equals(table(runs / "good"))


def test_a_writer_killed_by_sigkill_leaves_no_stale_lock(runs, tmp_path):
    out = tmp_path / "run"
    with locked_elsewhere(out) as pid:
        code, _, err = in_process(*RUN, "--games", 3000, "--seed", 5, "--out", out)
        assert code == 2 and f"pid {pid}" in err
    assert (out / storage.LOCK_FILE).exists()  # the file stays; the lock died with its process
    code, _, err = in_process(
        *RUN, "--games", 3000, "--seed", 5, "--chunk-size", 1000, "--out", out
    )
    assert code == 0, err
    assert table(out).equals(table(runs / "good"))


def test_an_interrupted_writer_is_cleaned_up_by_the_next(runs, tmp_path):
    """A real run killed mid-way, plus the temporary file a kill between write and rename
    leaves: the rerun removes the leftovers, says so, and finishes the same games."""
    out = tmp_path / "run"
    args = [*RUN, "--games", 3000, "--seed", 5, "--chunk-size", 1000, "--out", out]
    runner.run(spec(), out, chunk_size=1000)
    listed = storage.read_manifest(out)
    listed[1].path(out).unlink()  # killed after listing part 1, before renaming it into place
    orphan = storage.games_dir(out) / f".{listed[2].name}.4242-0badcafe.tmp"
    shutil.copyfile(listed[2].path(out), orphan)
    listed[2].path(out).unlink()
    storage.write_manifest(out, listed[:2])  # killed before listing part 2
    (out / ".manifest.json.4242-0badcafe.tmp").write_text("{")  # killed rewriting the manifest
    code, stdout, err = in_process(*args)
    assert code == 0, err
    assert "2000 computed now" in stdout
    assert f"{listed[1].name}: listed in the manifest but missing" in err
    assert "removed 2 temporary file" in err and not orphan.exists()
    assert not list(out.glob(".*.tmp"))
    assert table(out).equals(table(runs / "good"))


def test_ctrl_c_during_run_exits_130_with_the_resume_line(tmp_path):
    out = tmp_path / "run"
    proc = start(*RUN, "--games", 2_000_000, "--chunk-size", 20_000, "--threads", 1, "--out", out)
    deadline = time.monotonic() + 120
    while not ((out / storage.MANIFEST).exists() and storage.read_manifest(out)):
        assert time.monotonic() < deadline, "no part written"
        time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    parts = storage.read_manifest(out)
    assert one_error_line(err) == (
        f"powerlab: error: interrupted: {out} keeps {sum(p.count for p in parts):,} of 2,000,000 "
        f"games ({len(parts)} part{'s' if len(parts) > 1 else ''}); rerun the same command to "
        "resume"
    )
    assert not (out / storage.LOCK_FILE).exists()
    code, stdout, _ = in_process("summary", out)
    assert code == 0 and "(unfinished: games " in stdout


@pytest.mark.parametrize("umask", [0o022, 0o027, 0o077])
def test_files_of_a_run_follow_the_umask(tmp_path, umask):
    out = tmp_path / "run"
    old = os.umask(umask)
    try:
        runner.run(spec(games=200), out)
        runner.merge([out], tmp_path / "merged")
    finally:
        os.umask(old)
    for folder in (out, tmp_path / "merged"):
        files = [folder / "run.json", folder / storage.MANIFEST, *folder.glob("games/*")]
        assert {path.stat().st_mode & 0o777 for path in files} == {0o666 & ~umask}
        assert (folder / "games").stat().st_mode & 0o777 == 0o777 & ~umask


# --- every part verified ----------------------------------------------------------------------


def _copy_part_under_another_name(out: Path) -> str:
    source = storage.read_manifest(out)[0].path(out)
    shutil.copyfile(source, source.with_name(source.stem + " copy.parquet"))
    return source.stem + " copy.parquet"


def _truncate(out: Path) -> str:
    path = storage.read_manifest(out)[1].path(out)
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    return path.name


def _zero(out: Path) -> str:
    path = storage.read_manifest(out)[1].path(out)
    path.write_bytes(bytes(path.stat().st_size))
    return path.name


def _replace_with_foreign(out: Path) -> str:
    part = storage.read_manifest(out)[1]
    shutil.copyfile(part.path(out.parent.parent / "runs-foreign"), part.path(out))
    return part.name


def _add_foreign(out: Path) -> str:
    part = storage.read_manifest(out)[2]
    name = storage.part_name(3000, 1000)  # games the run does not hold, as an extension would
    shutil.copyfile(part.path(out.parent.parent / "runs-foreign"), storage.games_dir(out) / name)
    return name


DAMAGES = {
    "duplicate": _copy_part_under_another_name,
    "truncated": _truncate,
    "zeroed": _zero,
    "foreign": _replace_with_foreign,
    "foreign-extra": _add_foreign,
}


@pytest.fixture
def damaged(runs, tmp_path, request):
    """(damaged copy of the good run, the damaged part's file name)."""
    shutil.copytree(runs / "foreign", tmp_path / "runs-foreign")
    out = tmp_path / "case" / "run"
    shutil.copytree(runs / "good", out)
    return out, DAMAGES[request.param](out)


@pytest.mark.parametrize("damaged", DAMAGES, indirect=True)
@pytest.mark.parametrize("command", ["summary", "report", "compare", "merge"])
def test_readers_name_a_part_that_is_not_the_runs(runs, damaged, command, tmp_path):
    out, name = damaged
    before = tree_digest(tmp_path)
    args = {
        "summary": ["summary", out],
        "report": ["report", out, "-o", tmp_path / "r.pdf"],
        "compare": ["compare", runs / "good", out],
        "merge": ["merge", out, "--out", tmp_path / "merged"],
    }[command]
    code, stdout, err = in_process(*args)
    assert code == 2 and stdout == "", (code, stdout, err)
    line = one_error_line(err)
    assert name in line, line
    assert tree_digest(tmp_path) == before


@pytest.mark.parametrize("damaged", DAMAGES, indirect=True)
def test_resume_removes_and_recomputes_a_part_that_is_not_the_runs(runs, damaged):
    out, name = damaged
    code, stdout, err = in_process(*RUN, "--games", 3000, "--seed", 5, "--out", out)
    assert code == 0, err
    notes = [line for line in err.splitlines() if name in line]
    assert len(notes) == 1 and "removed" in notes[0], err
    assert table(out).equals(table(runs / "good"))
    assert in_process("summary", out)[0] == 0


def test_a_run_of_an_older_powerlab_is_refused_with_how_to_regenerate(runs, tmp_path):
    out = tmp_path / "old"
    shutil.copytree(runs / "good", out)
    (out / storage.MANIFEST).unlink()
    info = json.loads((out / "run.json").read_text())
    del info["format"]
    (out / "run.json").write_text(json.dumps(info))
    before = tree_digest(out)
    for args in (
        ["summary", out],
        ["report", out],
        ["compare", out, runs / "good"],
        ["merge", out, "--out", tmp_path / "m"],
        [*RUN, "--games", 3000, "--seed", 5, "--out", out],
    ):
        code, _, err = in_process(*args)
        line = one_error_line(err)
        assert code == 2 and "older powerlab" in line and "new --out" in line, line
    assert tree_digest(out) == before


# --- comparisons that compare something -------------------------------------------------------


@pytest.mark.parametrize(
    ("other", "field"),
    [
        (dict(players=3, lineup=["counter", "bluffer", "honest"]), "players 4 vs 3"),
        (dict(game="power-barons", players=3, lineup=["baron"]), "game 'power' vs 'power-barons'"),
        (dict(seed=6), "seed 5 vs 6"),
        (dict(games=2000), "games 3000 vs 2000"),
    ],
)
def test_compare_refuses_runs_that_differ_before_printing(runs, tmp_path, other, field):
    out = tmp_path / "other"
    runner.run(spec(**other), out, chunk_size=1000)
    code, stdout, err = in_process("compare", runs / "good", out, "--focal", "seat:0")
    assert code == 2 and stdout == ""
    assert field in one_error_line(err)


def test_compare_checks_every_focal_before_printing(runs):
    code, stdout, err = in_process("compare", runs / "good", runs / "good", "--focal", "counter",
                                   "--focal", "wizard")  # fmt: skip
    assert code == 2 and stdout == "" and "wizard" in one_error_line(err)


def test_merge_names_the_field_that_differs(tmp_path):
    runner.run(spec(), tmp_path / "s1", shard=(1, 2))
    other = runner.build_spec("power", 4, LINEUP, ["overthrow_cost=6"], 5, 3000, True)
    runner.run(other, tmp_path / "s2", shard=(2, 2))
    code, _, err = in_process("merge", tmp_path / "s1", tmp_path / "s2", "--out", tmp_path / "m")
    assert code == 2 and "(rules)" in one_error_line(err)
    assert not (tmp_path / "m").exists()
