"""Running beyond one process (docs/cluster.md): shards of the game indices, and chunks as Dask
tasks.

A shard ``K/N`` is one near-equal slice of a run's game indices, for array jobs on a batch
scheduler; ``powerlab merge`` joins the shards. On the Dask path each task plays one chunk with
the same function the local path uses and returns the result; the client writes the part file
atomically, exactly as a local run does. So results are identical to a local run, workers need
no shared filesystem, and a killed client resumes from the parts already on disk. A worker lost
mid-task makes Dask run that chunk again elsewhere.

Nothing here knows what a spec or a chunk holds: the runner and tuning pass their own.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Callable, Iterator
from typing import TypeVar

from simcore import registry

Spec = TypeVar("Spec")
Played = TypeVar("Played")

# Chunks queued per worker: enough to keep workers busy, few enough to bound client memory.
IN_FLIGHT_PER_WORKER = 2
TASK_RETRIES = 3


def _play_on_worker(
    spec: Spec, start: int, n: int, threads: int, play: Callable[[Spec, int, int], Played]
) -> tuple[int, Played]:
    import numba

    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    return start, play(spec, start, n)


def parse_count(text: str) -> int | None:
    """The value of ``text`` if it is a plain decimal number in ASCII digits, else None (int()
    also takes Unicode digits, signs, spaces and underscores)."""
    return int(text) if re.fullmatch(r"[0-9]{1,19}", text) else None


def parse_shard(text: str, games: int) -> tuple[int, int]:
    """``K/N`` (1 <= K <= N <= games) → (K, N)."""
    k, slash, n = text.partition("/")
    k_value, n_value = parse_count(k), parse_count(n)
    if not slash or k_value is None or n_value is None or not 1 <= k_value <= n_value <= games:
        raise registry.SpecError(
            f"--shard expects K/N with 1 <= K <= N <= --games ({games}), not {text!r}"
        )
    return k_value, n_value


def shard_range(games: int, shard: tuple[int, int] | None) -> tuple[int, int]:
    """The [first, stop) game indices of shard K of N: consecutive, near-equal slices."""
    if shard is None:
        return 0, games
    k, n = shard
    return games * (k - 1) // n, games * k // n


def local_workers(scheduler: str, option: str = "--cluster") -> int:
    """N of ``local:N``, in ASCII digits, from 1 to 4 per core: more worker processes than that
    only add memory (each loads numba and the kernels), not speed."""
    most = 4 * (os.cpu_count() or 1)
    count = parse_count(scheduler.removeprefix("local:"))
    if count is None or not 1 <= count <= most:
        raise registry.SpecError(
            f"{option} expects local:N with N in [1, {most}] (4 per core), not {scheduler!r}"
        )
    return count


def dask_target(scheduler: str | None, local: str | None) -> str | None:
    """Where ``--scheduler`` and ``--cluster`` send the chunks (None: here, without Dask),
    checked before a command writes anything: not both given, ``local:N`` with N in range, and
    a scheduler that answers (the workflows connect only once their directory is claimed)."""
    if scheduler and local:
        raise registry.SpecError("give --scheduler or --cluster, not both")
    if local is not None and not local.startswith("local:"):
        raise registry.SpecError(f"--cluster expects local:N, not {local!r}")
    if local is not None:
        local_workers(local)
    elif scheduler and scheduler.startswith("local:"):
        local_workers(scheduler, "--scheduler")
    elif scheduler:
        with connect(scheduler):
            pass
    return scheduler or local or None


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
    spec: Spec,
    chunks: Iterator[tuple[int, int]],
    client,
    threads: int,
    play: Callable[[Spec, int, int], Played],
) -> Iterator[tuple[int, Played]]:
    """(first index, ``play(spec, first, count)``) for every chunk, in completion order, computed
    on Dask workers: the runner asks for the chunk's Arrow tables, tuning for less
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
