"""Chunks as Dask tasks: beyond one machine, powerlab runs on an existing distributed engine.

Each task plays one chunk with the same ``runner.play_chunk`` the local path uses and returns the
Arrow table; the client writes the part file atomically, exactly as a local run does. So results
are identical to a local run, workers need no shared filesystem, and a killed client resumes from
the parts already on disk. A worker lost mid-task makes Dask run that chunk again elsewhere.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from typing import Any

from simcore import registry
from simcore.workflows.runner import RunSpec, parse_count, play_chunk

# Chunks queued per worker: enough to keep workers busy, few enough to bound client memory.
IN_FLIGHT_PER_WORKER = 2
TASK_RETRIES = 3


def _play_on_worker(spec: RunSpec, start: int, n: int, threads: int, play: Callable):
    import numba

    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    return start, play(spec, start, n)


def local_workers(scheduler: str) -> int:
    """N of ``local:N``, in ASCII digits, from 1 to 4 per core: more worker processes than that
    only add memory (each loads numba and the kernels), not speed."""
    most = 4 * (os.cpu_count() or 1)
    count = parse_count(scheduler.removeprefix("local:"))
    if count is None or not 1 <= count <= most:
        raise registry.SpecError(
            f"--cluster expects local:N with N in [1, {most}] (4 per core), not {scheduler!r}"
        )
    return count


@contextlib.contextmanager
def connect(scheduler: str):
    """A Dask client: ``local:N`` starts a LocalCluster of N worker processes on this machine;
    anything else is the address of a running scheduler (``tcp://host:8786``)."""
    from dask.distributed import Client, LocalCluster

    if scheduler.startswith("local:"):
        with (
            LocalCluster(
                n_workers=local_workers(scheduler),
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
                host="127.0.0.1",
            ) as cluster,
            Client(cluster) as client,
        ):
            yield client
        return
    try:
        client = Client(scheduler, timeout="10s")
    except (OSError, TimeoutError, ValueError) as error:
        raise registry.SpecError(
            f"cannot reach a Dask scheduler at {scheduler!r}: {error}"
        ) from None
    with client:
        yield client


def play_chunks(
    spec: RunSpec,
    chunks: Iterator[tuple[int, int]],
    client,
    threads: int,
    play: Callable[[RunSpec, int, int], Any] = play_chunk,
) -> Iterator[tuple[int, Any]]:
    """(first index, ``play(spec, first, count)``) for every chunk, in completion order, computed
    on Dask workers: by default the chunk's Arrow table; tuning asks for less
    (simcore/workflows/tuning.py).
    ``play`` must be a module-level function, so workers import it rather than unpickle code."""
    from dask.distributed import as_completed

    workers = max(1, len(client.nthreads()))
    pending = iter(chunks)

    def submit(start: int, n: int):
        return client.submit(
            _play_on_worker, spec, start, n, threads, play, pure=False, retries=TASK_RETRIES
        )

    window = as_completed()
    for start, n in _take(pending, workers * IN_FLIGHT_PER_WORKER):
        window.add(submit(start, n))
    for future in window:
        yield future.result()
        future.release()
        for start, n in _take(pending, 1):
            window.add(submit(start, n))


def _take(iterator, count: int):
    for _ in range(count):
        item = next(iterator, None)
        if item is None:
            return
        yield item


def _warm_up(spec: RunSpec) -> None:
    """Load the compiled kernel in a worker process (compile time is no part of a benchmark)."""
    play_chunk(spec, 0, 10)


def benchmark(spec: RunSpec, chunk_size: int, repeat: int) -> dict:
    """Games/s of the same run here (1 numba thread) and on LocalClusters of 1 and 2 worker
    processes (1 thread each), measured over the chunk loop with the parts written, best of
    ``repeat``; plus the 2-vs-1-worker scaling and the Dask path's overhead per chunk."""
    import tempfile
    from pathlib import Path

    from dask.distributed import Client, LocalCluster

    from simcore.workflows import runner

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
