"""One Dask scheduler for the workflows' "on Dask equals the local run" tests.

``local:1`` starts a LocalCluster per connection, and a workflow connects once per tuning and
per study cell: a whatif did it 16 times, 30 of its 84 s in one profile, and each fresh worker
process loads numba and the kernels again. Here a cluster of one worker process
is started once per pytest worker and the tests send their tasks to its scheduler's address, the
``--scheduler`` path. ``local:N`` itself is tests/workflows/test_cluster.py's.
"""

import pytest


@pytest.fixture(scope="session")
def dask_scheduler() -> str:
    from dask.distributed import LocalCluster

    with LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None,
        host="127.0.0.1",
    ) as cluster:  # fmt: skip
        yield cluster.scheduler_address
