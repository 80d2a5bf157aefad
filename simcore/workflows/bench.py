"""How fast the games' kernels play (``powerlab bench``; figures in docs/performance.md).

Each game at its bench spec, after warm-up (compile excluded): scripted games/s at 1 thread and
at all threads; for a game on the decision-point protocol (docs/protocol.md) its decisions/s and
a searching seat's cost; on request the same kernel as plain Python (a child process with
``NUMBA_DISABLE_JIT=1``) and the Dask path's scaling and overhead. The figures are returned as
data, keyed as ``powerlab bench --json`` prints them.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numba

from simcore import registry
from simcore.workflows import runner, storage

# The plain-Python child runs from the project's root, where ``simcore`` is importable.
ROOT = Path(__file__).resolve().parents[2]
PLAIN_PYTHON = (
    "import json, sys\n"
    "from simcore.workflows.bench import scripted_rate\n"
    "print(json.dumps(scripted_rate(*json.loads(sys.argv[1]))))\n"
)


CHUNK_WHY = "bench plays them as one chunk, held in memory"
# Each measurement plays --games again: a hundred of the largest chunk take hours for a slow game.
MAX_REPEAT = 100
REPEAT_WHY = "each measurement plays --games games again"


class KernelFailed(RuntimeError):
    """A kernel's plain-Python run or cold compile failed: a kernel bug, not bad input."""


def check_options(game_ids, games: int, repeat: int, players, strategies, settings) -> None:
    """Refuse ``powerlab bench`` options that cannot be measured, and unknown games, before any
    game is compiled or measured."""
    storage.check_count(games, "--games", runner.MAX_CHUNK_SIZE, CHUNK_WHY)
    storage.check_count(repeat, "--repeat", MAX_REPEAT, REPEAT_WHY)
    for game_id in game_ids:
        registry.make(game_id)
    if (players is not None or strategies or settings) and len(game_ids) != 1:
        raise registry.SpecError("--players, --strategy and --set need exactly one game to bench")


def bench(
    game_ids: Sequence[str],
    games: int,
    repeat: int,
    players: int | None = None,
    strategies: Sequence[str] = (),
    settings: Sequence[str] = (),
    python_ratio: bool = False,
    dask: bool = False,
    notify: Callable[[str], None] = lambda line: None,
) -> dict[str, dict]:
    """Game id -> its figures, for every game of ``game_ids`` (default: all) at its bench spec, or
    at ``players``, ``strategies`` and ``settings`` (rule ``key=value`` texts) when given.

    Scripted games/s are the best of ``repeat`` runs of ``games`` games as one chunk, under the
    keys "1" and (on a machine with more) the thread count. ``notify`` hears of a compile."""
    results = {}
    for game_id in game_ids or registry.game_ids():
        game = registry.make(game_id)
        seats = players if players is not None else registry.table_players(game)
        # A bad lineup is refused before the compile notice: one line on stderr, nothing else.
        spec = runner.build_spec(game_id, seats, list(strategies), list(settings), 1, games, True)
        if not runner.kernel_compiled(game):
            notify(runner.compile_notice(game))
        kernel = game.kernel()
        prepared = kernel.prepare(spec.rules, seats)
        ids, params = game.encode_strategies(spec.seat_strategies())
        args = (prepared, seats, ids, params)
        kernel.run_chunk(*args, 1, 0, 1000, True)  # warm-up: compile
        entry = {"players": seats, "lineup": spec.lineup(), "games": games}
        for threads in sorted({1, numba.config.NUMBA_NUM_THREADS}):
            runner.set_threads(threads)
            entry[str(threads)] = {
                "games_per_s": round(_games_per_s(kernel, args, games, repeat), 1)
            }
        if python_ratio:
            python_rate = plain_python_rate(
                game_id, seats, strategies, settings, max(20, games // 20_000)
            )
            entry["python_games_per_s"] = python_rate
            entry["jit_speedup_1_thread"] = round(entry["1"]["games_per_s"] / python_rate, 1)
        runner.set_threads(None)
        if game.search is not None:
            entry.update(protocol(game, kernel, spec, *args))
        if dask:
            entry["dask"] = dask_path(spec, runner.DEFAULT_CHUNK_SIZE, repeat)
        results[game_id] = entry
    return results


def describe(game_id: str, entry: dict, repeat: int) -> str:
    """One game's figures (an entry of ``bench``) as the line ``powerlab bench`` prints."""
    rates = ", ".join(
        f"{k} thread{'s' if k != '1' else ''}: {v['games_per_s']:,.0f} games/s"
        for k, v in entry.items()
        if k.isdigit()  # the thread counts; the protocol's figures follow below
    )
    lineup = ", ".join(entry["lineup"])
    line = (
        f"{game_id} ({entry['players']} players: {lineup}; {entry['games']} games, best of "
        f"{repeat}): {rates}"
    )
    if "dask" in entry:
        d = entry["dask"]
        line += (
            f"; Dask: 2 workers {d['scaling_2_vs_1_workers']:.2f}x 1 worker, overhead "
            f"{100 * d['dask_overhead_share']:.1f}% ({d['dask_overhead_ms_per_chunk']:.0f} ms "
            "per chunk) against the local runner"
        )
    for name in [k.removeprefix("protocol_") for k in entry if k.startswith("protocol_")]:
        p, i = entry[f"protocol_{name}"], entry[f"ismcts_{name}"]
        line += (
            f"; protocol, {name.replace('_', ' ')}: {p['decisions_per_s']:,} decisions/s; "
            f"{i['spec']} in seat 0: {i['iterations_per_s']:,} iterations/s, "
            f"{i['s_per_game']:.3f} s of a thread a game"
        )
    if "jit_speedup_1_thread" in entry:
        line += f"; JIT speed-up over plain Python: {entry['jit_speedup_1_thread']:,.0f}x"
    return line


def _games_per_s(kernel, args: tuple, n: int, repeat: int) -> float:
    """Games/s of the best of ``repeat`` chunks of ``n`` games (seed 1, seats rotated)."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        kernel.run_chunk(*args, 1, 0, n, True)
        best = min(best, time.perf_counter() - t0)
    return n / best


def scripted_rate(
    game_id: str, players: int, strategies: Sequence[str], settings: Sequence[str], games: int
) -> float:
    """Games/s at 1 thread of one chunk of ``games`` games of the spec, after the same warm-up
    as ``bench``: what the plain-Python child measures."""
    game = registry.make(game_id)
    spec = runner.build_spec(game_id, players, list(strategies), list(settings), 1, games, True)
    kernel = game.kernel()
    ids, params = game.encode_strategies(spec.seat_strategies())
    args = (kernel.prepare(spec.rules, players), players, ids, params)
    kernel.run_chunk(*args, 1, 0, 1000, True)
    runner.set_threads(1)
    return round(_games_per_s(kernel, args, games, 1), 1)


def plain_python_rate(
    game_id: str, players: int, strategies: Sequence[str], settings: Sequence[str], games: int
) -> float:
    """``scripted_rate`` of the kernel as plain Python, in a child process (numba reads
    ``NUMBA_DISABLE_JIT`` once, at import); KernelFailed with the child's last line of
    error if it fails."""
    request = json.dumps([game_id, players, list(strategies), list(settings), games])
    child = subprocess.run(
        [sys.executable, "-c", PLAIN_PYTHON, request],
        env={**os.environ, "NUMBA_DISABLE_JIT": "1"},
        capture_output=True, text=True, cwd=ROOT,
    )  # fmt: skip
    if child.returncode != 0:
        last = (child.stderr.strip().splitlines() or ["no output"])[-1]
        raise KernelFailed(f"plain-Python run of {game_id} failed: {last}")
    return json.loads(child.stdout)


def protocol(
    game: registry.Game, kernel, spec: runner.RunSpec, prepared, seats: int, ids, params
) -> dict:
    """For a game on the decision-point protocol (docs/protocol.md), at 1 thread and at all
    threads: the scripted lineup's decisions/s through the protocol, and a searching seat's cost:
    ``ismcts`` at its default iterations in seat 0 against the lineup, its iterations/s (and at
    1 thread its seconds per game). Wall time; each thread plays games of seeds of its own (the
    protocol's game loop releases the GIL), so N threads do N times the work of one."""
    n = max(200, spec.games // 100)
    search = registry.parse_strategy(game, game.search.name)
    search_ids, search_params = game.encode_strategies([search] + spec.seat_strategies()[1:])
    kernel.bench_protocol(prepared, seats, ids, params, 1, 10)  # warm-up: compile
    kernel.bench_protocol(prepared, seats, search_ids, search_params, 1, 1)  # warm-up: compile

    def scripted(seed: int) -> int:
        return kernel.bench_protocol(prepared, seats, ids, params, seed, n)[0]

    def search_games(claims: Iterator[int], started: float) -> tuple[int, int]:
        """(games, searches) of one thread, which plays the next of 40 games (game k is game 0 of
        seed 1 + k; ``claims`` gives each k once) until none is left, or, for a game whose
        searches are slow, until 60 s have passed once it has played 2. A thread takes the next
        game when it is free: with a fixed share each, a thread whose games were shorter stood
        idle while the other finished (docs/performance.md, "Blocks claimed without the
        interpreter")."""
        games = searched = 0
        while (games < 2 or time.perf_counter() - started < 60) and (k := next(claims)) < 40:
            _, searches = kernel.bench_protocol(
                prepared, seats, search_ids, search_params, 1 + k, 1
            )
            searched += searches
            games += 1
        return games, searched

    result = {}
    for threads in sorted({1, numba.config.NUMBA_NUM_THREADS}):
        name = "1_thread" if threads == 1 else f"{threads}_threads"
        with ThreadPoolExecutor(threads) as pool:
            t0 = time.perf_counter()
            decisions = sum(pool.map(scripted, range(1, 1 + threads)))
            seconds = time.perf_counter() - t0
            result[f"protocol_{name}"] = {
                "games": n * threads, "decisions_per_s": round(decisions / seconds),
            }  # fmt: skip
            # next() of a count is one step under the interpreter's lock: each k goes once.
            claims, t0 = itertools.count(), time.perf_counter()
            shares = list(pool.map(search_games, [claims] * threads, [t0] * threads))
            seconds = time.perf_counter() - t0
            games, searched = (sum(counts) for counts in zip(*shares, strict=True))
        result[f"ismcts_{name}"] = {
            "spec": game.search.label(search["params"]), "games": games,
            "iterations_per_s": round(searched * search["params"]["iterations"] / seconds),
            "s_per_game": seconds / games * threads,
        }  # fmt: skip
    return result


def _warm_up(spec: runner.RunSpec) -> None:
    """Load the compiled kernel in a worker process (compile time is no part of a benchmark)."""
    runner.play_chunk(spec, 0, 10)


def dask_path(spec: runner.RunSpec, chunk_size: int, repeat: int) -> dict:
    """Games/s of the same run here (1 numba thread) and on LocalClusters of 1 and 2 worker
    processes (1 thread each), measured over the chunk loop with the parts written, best of
    ``repeat``; plus the 2-vs-1-worker scaling and the Dask path's overhead per chunk."""
    from dask.distributed import Client, LocalCluster

    def games_per_s(scheduler: str | None) -> float:
        best = float("inf")
        for _ in range(repeat):
            with tempfile.TemporaryDirectory() as folder:
                info = runner.run(
                    spec, Path(folder) / "run", threads=1, chunk_size=chunk_size,
                    scheduler=scheduler,
                )  # fmt: skip
            best = min(best, info["timings"]["seconds"])
        return spec.games / best

    _warm_up(spec)
    result = {"local_1_thread": games_per_s(None)}
    for workers in (1, 2):
        with (
            LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True,
                dashboard_address=None, host="127.0.0.1",
            ) as local_cluster,
            Client(local_cluster) as client,
        ):  # fmt: skip
            client.run(_warm_up, spec)
            result[f"dask_{workers}_workers"] = games_per_s(local_cluster.scheduler_address)
    n_chunks = -(-spec.games // chunk_size)
    local_s, dask_s = 1 / result["local_1_thread"], 1 / result["dask_1_workers"]
    result["scaling_2_vs_1_workers"] = result["dask_2_workers"] / result["dask_1_workers"]
    result["dask_overhead_share"] = dask_s / local_s - 1
    result["dask_overhead_ms_per_chunk"] = (dask_s - local_s) * spec.games / n_chunks * 1000
    result.update(games=spec.games, chunk_size=chunk_size, chunks=n_chunks)
    return {k: round(v, 3) if isinstance(v, float) else v for k, v in result.items()}


# Run in a fresh interpreter with an empty numba cache: the compile a designer waits for on a
# fresh clone. It prints one JSON line: wall and CPU seconds of the scripted entry points (what
# `powerlab run` compiles) and of everything else `powerlab warmup` adds (replay, search).
_COLD_COMPILE = """
import contextlib, json, sys, time
from simcore import registry
from simcore.workflows import runner
game = registry.make(sys.argv[1])
players = registry.table_players(game)
spec = runner.build_spec(game.id, players, [], [], 0, 1, True)
wall, cpu = time.perf_counter(), time.process_time()
runner.compile_kernel(spec, chunks=True, traced=False, compiling=contextlib.nullcontext)
scripted = (time.perf_counter() - wall, time.process_time() - cpu)
runner.warm_up(game, contextlib.nullcontext)
whole = (time.perf_counter() - wall, time.process_time() - cpu)
print(json.dumps({"scripted_s": scripted[0], "scripted_cpu_s": scripted[1],
                  "warmup_s": whole[0], "warmup_cpu_s": whole[1]}))
"""


def cold_compile(game_ids: Sequence[str], notify: Callable[[str], None]) -> dict[str, dict]:
    """Game id -> seconds to compile from an empty cache, one game at a time in a fresh process
    (numba compiles on one core): its scripted kernel, then the rest of its warm-up."""
    results = {}
    for game_id in game_ids or registry.game_ids():
        registry.make(game_id)  # an unknown game is refused before any compile
        notify(f"compiling {game_id} from an empty cache (1-3 minutes)")
        with tempfile.TemporaryDirectory(prefix="powerlab-cold-") as cache:
            done = subprocess.run(
                [sys.executable, "-c", _COLD_COMPILE, game_id],
                env={**os.environ, "NUMBA_CACHE_DIR": cache},
                capture_output=True, text=True, check=False,
            )  # fmt: skip
        if done.returncode != 0:
            raise KernelFailed(f"{game_id}: the cold compile failed:\n{done.stderr[-2000:]}")
        results[game_id] = {k: round(v, 1) for k, v in json.loads(done.stdout).items()}
    return results


def describe_compile(game_id: str, entry: dict) -> str:
    """One game's cold compile (an entry of ``cold_compile``) as ``bench --compile`` prints it."""
    return (
        f"{game_id}: scripted kernel {entry['scripted_s']:.0f} s "
        f"({entry['scripted_cpu_s']:.0f} s CPU); the whole warm-up {entry['warmup_s']:.0f} s "
        f"({entry['warmup_cpu_s']:.0f} s CPU), from an empty cache"
    )
