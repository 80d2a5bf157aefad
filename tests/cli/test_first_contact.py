"""A first contact that tells the truth (issue 44): a command says it compiles only when numba's
cache lacks the entry point it calls, shows the compile's time where progress is drawn, counts
its games/s over the playing only, and a searched run's progress moves in chunks of a few
seconds, with the same rows, and says on Ctrl-C what the run keeps.

Cheap: the smallest POWER runs, in process; the compile is never real (the cache's index files
are pointed at a temporary folder, or ``kernel_compiled`` answers for the cache)."""

import re
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from simcore import registry
from simcore.workflows import console, runner, storage
from tests.cli.clitools import in_process, one_error_line, part_files

POWER = ["run", "power", "--players", 3, "--threads", 1]
NOTICE = "powerlab: compiling the power kernel once (a minute or two)"
SEARCHED = [*POWER, "-s", "ismcts:iterations=5", "-s", "counter", "-s", "counter", "-n", 4]


def index_at(monkeypatch, folder: Path, names) -> dict[str, Path]:
    """Point numba's cache index of POWER's entry points ``names`` at files in ``folder`` (none
    there yet): as on a machine whose cache lacks them. Only for entry points the test never
    calls: a call would compile them."""
    chunks = registry.make("power").kernel().CHUNKS
    paths = {name: folder / f"{name}.nbi" for name in names}
    for name, path in paths.items():
        monkeypatch.setattr(getattr(chunks, name)._cache._cache_file, "_index_path", str(path))
    return paths


def rows(out: Path) -> list[dict]:
    tables = [pq.read_table(path) for _, _, path in part_files(out)]
    return pa.concat_tables(tables).sort_by("game_index").to_pylist()


def test_the_compile_check_asks_the_cache_for_the_entry_points_a_command_calls(
    tmp_path, monkeypatch
):
    game = registry.make("power")
    index = index_at(monkeypatch, tmp_path, runner.ALL_ENTRY_POINTS)
    counter, search = (registry.parse_strategy(game, s) for s in ("counter", "ismcts"))
    scripted, searched = [counter] * 3, [search, counter, counter]

    def compiled(strategies, chunks: bool, traced: bool) -> bool:
        return runner.kernel_compiled(game, runner.entry_points(strategies, chunks, traced))

    assert not compiled(searched, chunks=True, traced=False)
    index["simulate_searching_blocks"].touch()  # a study whose every cell has a search seat
    assert compiled(searched, chunks=True, traced=False)
    assert not compiled(scripted, chunks=True, traced=False)
    index["simulate_blocks"].touch()  # what a plain run leaves
    assert compiled(scripted, chunks=True, traced=False)
    assert not compiled(scripted, chunks=True, traced=True)  # --arcs traces its sampled games
    assert not compiled(scripted, chunks=False, traced=True)  # replay
    index["play"].touch()  # what a replay leaves
    assert compiled(scripted, chunks=True, traced=True) and compiled(scripted, False, True)
    assert not compiled(searched, chunks=False, traced=True)
    assert not runner.kernel_compiled(game)  # warmup: every entry point
    index["play_searching"].touch()
    assert compiled(searched, chunks=False, traced=True) and runner.kernel_compiled(game)


def test_a_plain_run_is_not_announced_as_a_compile_once_its_chunk_loop_is_cached(
    tmp_path, monkeypatch
):
    code, _, err = in_process(*POWER, "-n", 50, "--out", tmp_path / "first")
    assert code == 0, err  # the chunk loop is now in numba's cache
    # As after plain runs on a fresh clone: no game was ever traced, so no one-game player is
    # cached. A plain run never calls one.
    index_at(monkeypatch, tmp_path, ("play", "play_searching"))
    code, out, err = in_process(*POWER, "-n", 50, "--out", tmp_path / "second")
    assert code == 0 and "compil" not in err + out, err


def test_each_command_asks_for_the_entry_point_it_calls(tmp_path, monkeypatch):
    asked = []

    def cached(game, needed=runner.ALL_ENTRY_POINTS) -> bool:
        asked.append(tuple(needed))
        return True

    monkeypatch.setattr(runner, "kernel_compiled", cached)
    code, _, err = in_process(*POWER, "-n", 5, "--out", tmp_path / "scripted")
    assert code == 0 and asked == [("simulate_blocks",)], err
    code, _, err = in_process(*SEARCHED, "--out", tmp_path / "searched")
    assert code == 0 and asked[1:] == [("simulate_searching_blocks",)], err
    code, _, err = in_process("replay", "power", "-p", 3, "-i", 2)
    assert code == 0 and asked[2:] == [("play",)], err


def test_a_compile_is_announced_in_one_line(tmp_path, monkeypatch):
    monkeypatch.setattr(runner, "kernel_compiled", lambda game, needed=None: False)
    code, _, err = in_process(*POWER, "-n", 50, "--out", tmp_path / "run")
    assert code == 0 and err.splitlines() == [NOTICE], err
    timings = storage.read_run_json(tmp_path / "run")["timings"]
    assert set(timings) == {
        "seconds", "compile_seconds", "games_computed", "games_per_s", "threads", "chunk_size",
        "scheduler",
    }  # fmt: skip
    assert timings["compile_seconds"] <= timings["seconds"]  # under 1 ms: compiled already
    assert timings["chunk_size"] == runner.DEFAULT_CHUNK_SIZE


def test_the_printed_rate_leaves_the_compile_out(tmp_path, monkeypatch):
    monkeypatch.setattr(runner, "compile_kernel", lambda *args: 61.0)  # a compile of 1:01
    code, out, err = in_process(*POWER, "-n", 50, "--out", tmp_path / "run")
    assert code == 0, err
    assert re.search(r"\(50 computed now, [\d,]+ games/s, compile 1:01 excluded\)", out), out
    timings = storage.read_run_json(tmp_path / "run")["timings"]
    assert timings["compile_seconds"] == 61.0 and timings["seconds"] > 61.0
    # 50 games play in far less than the minute of compile: a rate over both would be < 1.
    assert timings["games_per_s"] > 50 / 61.0


def test_where_progress_is_drawn_the_compile_shows_its_time_and_all_of_it_is_on_stderr(
    tmp_path, monkeypatch
):
    monkeypatch.setenv("POWERLAB_PROGRESS", "1")
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.setattr(runner, "kernel_compiled", lambda game, needed=None: False)
    out_dir = tmp_path / "run"
    code, out, err = in_process(*POWER, "-n", 50, "--out", out_dir)
    assert code == 0, err
    # Not a terminal: the spinner is drawn once, at its end, with the compile's time.
    assert re.search(re.escape(NOTICE) + r" +done +0:00:\d\d", err), err
    assert "50/50" in err  # the progress bar
    assert out.splitlines() == [out.splitlines()[0]] and out.startswith(f"{out_dir}: 50 games")


def test_the_rate_counts_the_games_over_the_time_spent_playing_them():
    timings = runner.run_timings(400_000, play_seconds=255.0, compile_seconds=232.0)
    assert timings == {
        "seconds": 487.0, "compile_seconds": 232.0, "games_computed": 400_000,
        "games_per_s": 1568.6,
    }  # fmt: skip
    assert (
        console.computed_now(timings) == "400000 computed now, 1,569 games/s, compile 3:52 excluded"
    )
    cached = runner.run_timings(400_000, play_seconds=255.0, compile_seconds=0.0)
    assert console.computed_now(cached) == "400000 computed now, 1,569 games/s"
    assert runner.run_timings(0, 0.0, 0.0)["games_per_s"] is None  # a finished run, rerun
    # A searched mirror plays about a game a second: its rate keeps a decimal, not "1 games/s".
    searched = runner.run_timings(36, play_seconds=30.0, compile_seconds=0.0)
    assert console.computed_now(searched) == "36 computed now, 1.2 games/s"


def test_a_searched_runs_chunks_take_a_few_seconds_each():
    pace = runner.Pace(searched_first=2)
    assert pace.searched_chunk() == 2  # nothing played yet: a game per thread
    pace.games, pace.seconds = 30, 3.0  # 10 games/s
    assert pace.searched_chunk() == 10 * runner.SEARCHED_CHUNK_SECONDS
    pace.games, pace.seconds = 10**9, 1.0
    assert pace.searched_chunk() == runner.DEFAULT_CHUNK_SIZE
    pace.games, pace.seconds = 1, 100.0
    assert pace.searched_chunk() == 1
    sizes = iter([1, 3, 100, 100])
    plan = runner.chunk_plan([(0, 5), (10, 12)], 4, lambda: next(sizes))
    assert list(plan) == [(0, 1), (1, 3), (4, 1), (10, 2)]


def test_a_searched_run_plays_small_chunks_by_default_and_the_same_rows(tmp_path):
    code, _, err = in_process(*SEARCHED, "--out", tmp_path / "paced")
    assert code == 0, err
    code, _, err = in_process(*SEARCHED, "--chunk-size", 1000, "--out", tmp_path / "one")
    assert code == 0, err
    paced = [count for _, count, _ in part_files(tmp_path / "paced")]
    assert paced[0] == 1 and len(paced) > 1  # a game per thread, then a few seconds' worth
    assert [count for _, count, _ in part_files(tmp_path / "one")] == [4]
    assert rows(tmp_path / "paced") == rows(tmp_path / "one")
    assert storage.read_run_json(tmp_path / "paced")["timings"]["chunk_size"] is None


def test_ctrl_c_says_what_the_run_keeps_and_a_rerun_resumes(tmp_path, monkeypatch):
    out = tmp_path / "run"
    play_chunk = runner.play_chunk

    def interrupted_at_the_third_chunk(spec, start, n):
        if start == 20:
            raise KeyboardInterrupt
        return play_chunk(spec, start, n)

    monkeypatch.setattr(runner, "play_chunk", interrupted_at_the_third_chunk)
    args = [*POWER, "-n", 50, "--chunk-size", 10, "--out", out]
    code, _, err = in_process(*args)
    assert code == 130 and one_error_line(err) == (
        f"powerlab: error: interrupted: {out} keeps 20 of 50 games (2 parts); rerun the same "
        "command to resume"
    )
    monkeypatch.undo()
    code, stdout, err = in_process(*args)
    assert code == 0 and "(30 computed now" in stdout, err
