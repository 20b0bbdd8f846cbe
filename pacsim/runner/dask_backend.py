"""The Dask backend: the same games on a cluster, through Dask's Executor.

Only the coordinator writes the store; workers receive picklable game tasks
(layout text included) and return rows.  When a worker dies, the scheduler
runs its in-flight tasks again elsewhere (Dask's own retry of lost tasks),
and since a game is a pure function of its task the rows are the same.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from typing import Iterator

from pacsim.errors import ConfigError


@contextmanager
def dask_executor(scheduler: str | None = None, workers: int | None = None) -> Iterator:
    """An Executor on the cluster at ``scheduler`` (``tcp://HOST:8786``), or
    on a ``LocalCluster`` of ``workers`` single-threaded processes without one."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ConfigError("the dask backend needs dask.distributed: pip install 'pacsim[dask]'") from None
    cluster = None
    try:
        if scheduler:
            client = Client(scheduler, timeout="20s")
        else:
            cluster = LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=1,
                                   processes=True, dashboard_address=None)
            client = Client(cluster)
    except OSError as error:
        if cluster is not None:
            cluster.close()
        raise ConfigError(f"cannot reach the Dask scheduler {scheduler!r}: {error}") from None
    try:
        yield client.get_executor()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
