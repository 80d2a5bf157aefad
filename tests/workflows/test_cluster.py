"""Scale-out with real components: a Dask LocalCluster of worker processes on loopback, shards
of a run merged back, and a worker killed mid-run."""

import os
import signal
import threading

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from simcore import registry
from simcore.workflows import runner, storage
from simcore.workflows.cluster import parse_shard, shard_range

LINEUP = ["counter", "bluffer", "honest", "random"]


def spec(games=6000, seed=11):
    return runner.build_spec("power", 4, LINEUP, [], seed, games, True)


def parts(out) -> list[storage.Part]:
    return storage.parts(out, storage.read_run_json(out))


def table(out) -> pa.Table:
    parts_ = [pq.read_table(part.path(out)) for part in parts(out)]
    return pa.concat_tables(parts_).sort_by("game_index").combine_chunks()


@pytest.fixture(scope="module")
def local_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("local") / "run"
    runner.run(spec(), out, threads=1, chunk_size=1000)
    return out


def test_dask_local_cluster_equals_local_run(local_run, tmp_path):
    out = tmp_path / "dask"
    info = runner.run(spec(), out, chunk_size=700, scheduler="local:2")
    assert info["timings"]["games_computed"] == 6000
    assert table(out).equals(table(local_run))


def test_killed_worker_still_completes_identically(local_run, tmp_path):
    """A worker process dies while chunks are in flight: Dask reruns its chunk elsewhere."""
    from dask.distributed import Client, LocalCluster

    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
            host="127.0.0.1",
        ) as cluster,
        Client(cluster) as client,
    ):  # fmt: skip
        victim_pid = next(iter(client.run(os.getpid).values()))
        progress_seen = threading.Event()

        def on_progress(done, total):
            if done > 0:
                progress_seen.set()

        def kill_a_worker():
            progress_seen.wait(timeout=120)
            os.kill(victim_pid, signal.SIGKILL)

        killer = threading.Thread(target=kill_a_worker)
        killer.start()
        out = tmp_path / "killed"
        info = runner.run(
            spec(), out, chunk_size=250, scheduler=cluster.scheduler_address, progress=on_progress
        )
        killer.join()
        assert victim_pid not in client.run(os.getpid).values()
    assert info["timings"]["games_computed"] == 6000
    assert table(out).equals(table(local_run))


def test_killed_client_resumes_from_parts_on_disk(local_run, tmp_path):
    out = tmp_path / "resumed"
    runner.run(spec(), out, threads=1, chunk_size=1000)
    for part in parts(out)[2:4]:
        part.path(out).unlink()  # as if the client died before these chunks were written
    info = runner.run(spec(), out, chunk_size=1000, scheduler="local:1")
    assert info["timings"]["games_computed"] == 2000
    assert table(out).equals(table(local_run))


def test_shards_merge_to_the_unsharded_run(local_run, tmp_path):
    shards = []
    for k in (1, 2, 3):
        out = tmp_path / f"shard{k}"
        runner.run(spec(), out, threads=1, chunk_size=900, shard=(k, 3))
        shards.append(out)
    merged = tmp_path / "merged"
    runner.merge(shards, merged)
    assert table(merged).equals(table(local_run))
    assert storage.read_run_json(merged)["spec"] == storage.read_run_json(local_run)["spec"]


def test_shard_ranges_cover_every_index_once():
    for games in (1, 7, 6000, 10_001):
        for n in (1, 2, 3, 7):
            ranges = [shard_range(games, (k, n)) for k in range(1, n + 1)]
            assert ranges[0][0] == 0 and ranges[-1][1] == games
            assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:], strict=False))


@pytest.fixture(scope="module")
def three_shards(tmp_path_factory):
    folder = tmp_path_factory.mktemp("shards")
    for k in (1, 2, 3):
        runner.run(spec(), folder / f"s{k}", threads=1, chunk_size=1000, shard=(k, 3))
    other = folder / "other-seed"
    runner.run(spec(seed=12), other, threads=1, chunk_size=1000, shard=(3, 3))
    return folder


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (["s1", "s2"], "missing"),
        (["s1", "s3"], "missing"),
        (["s1", "s2", "s2", "s3"], "twice"),
        (["s1", "s2", "other-seed"], "different spec"),
    ],
)
def test_merge_rejects_missing_duplicate_and_foreign_shards(three_shards, tmp_path, names, message):
    out = tmp_path / "merged"
    with pytest.raises(registry.SpecError, match=message):
        runner.merge([three_shards / name for name in names], out)
    assert not out.exists()


def test_a_shard_directory_refuses_another_shard(three_shards):
    with pytest.raises(registry.SpecError, match="shard"):
        runner.run(spec(), three_shards / "s1", threads=1, shard=(2, 3))


def test_bad_shard_and_cluster_texts():
    for text in ("0/3", "4/3", "a/b", "3", "٣/٤", "+1/2", " 1/2", "1_0/20", "1/11", f"1/{2**64}"):
        with pytest.raises(registry.SpecError, match="--shard"):
            parse_shard(text, 10)
    assert parse_shard("2/5", 10) == (2, 5)
