"""The Dask backend: the same games on a cluster, through Dask's Executor.

Only the coordinator writes the store; workers receive picklable game tasks
(layout text included) and return rows.  When a worker dies, the scheduler
runs its in-flight tasks again elsewhere (Dask's own retry of lost tasks),
and since a game is a pure function of its task the rows are the same.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from concurrent.futures import Executor
from contextlib import contextmanager

from pacsim.errors import ConfigError, install_hint

CONNECT_TIMEOUT_SECONDS = 10.0
"""How long to keep trying to reach a scheduler.  Dask retries a refused
connection until this runs out (a scheduler may still be starting), so it is
also how long a wrong address takes to be reported."""


@contextmanager
def dask_executor(scheduler: str | None = None, workers: int | None = None,
                  connect_timeout: float | None = None) -> Iterator[Executor]:
    """An Executor on the cluster at ``scheduler`` (``tcp://HOST:8786``), or
    on a ``LocalCluster`` of ``workers`` single-threaded processes without one.

    A scheduler that cannot be reached within ``connect_timeout`` seconds
    (default :data:`CONNECT_TIMEOUT_SECONDS`) or a malformed address is a
    one-line :class:`~pacsim.errors.ConfigError`."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ConfigError(f"the dask backend needs dask.distributed; {install_hint('dask')}") from None
    if connect_timeout is None:
        connect_timeout = CONNECT_TIMEOUT_SECONDS
    cluster = None
    if scheduler:
        try:
            client = Client(scheduler, timeout=connect_timeout)
        # distributed raises OSError when the connection times out (TimeoutError
        # is an OSError too) and ValueError for an unknown scheme or a bad port.
        except (OSError, ValueError) as error:
            reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
            raise ConfigError(f"cannot reach the Dask scheduler {scheduler!r}: {reason}") from None
    else:
        # One thread per worker process: a game is pure Python and holds the GIL.
        # dashboard_address=None: no dashboard (the scheduler's small HTTP
        # endpoint still starts, on another port if 8787 is taken).
        cluster = LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=1,
                               processes=True, dashboard_address=None)
        client = Client(cluster)
    try:
        yield client.get_executor()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
