"""The Dask executor: the same games on a cluster, through Dask's Executor.

Only the coordinator writes the store; workers receive picklable game tasks
(layout text included) and return rows.  When a worker dies, the scheduler
runs its in-flight tasks again elsewhere (Dask's own retry of lost tasks),
and since a game is a pure function of its task the rows are the same.  A
game that kills every worker it runs on is given up by Dask (``KilledWorker``,
after its allowed failures) and stored as a ``crash``, as in a local run.

A Dask worker plays its games in a thread pool, where no signal arrives: the
per-move time limit is then enforced by the engine's watchdog thread (see
:mod:`pacsim.engine.deadline`), so a hanging agent ends its game as an
``error`` as it does in a local run.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future
from contextlib import contextmanager
from typing import Any

from pacsim.errors import ConfigError, install_hint
from pacsim.runner.pool import WorkerDied

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
    (default :data:`CONNECT_TIMEOUT_SECONDS`), an address where something
    other than a Dask scheduler answers, or a malformed address is a
    one-line :class:`~pacsim.errors.ConfigError`."""
    try:
        from distributed import Client
    except ImportError:
        raise ConfigError(f"the Dask executor needs dask.distributed; {install_hint('dask')}") from None
    if connect_timeout is None:
        connect_timeout = CONNECT_TIMEOUT_SECONDS
    with _quiet_logs():
        cluster = None
        if scheduler:
            check_scheduler(scheduler, connect_timeout)
            try:
                client = Client(scheduler, timeout=connect_timeout)
            except (OSError, ValueError) as error:  # it went away since the check
                raise ConfigError(f"cannot reach the Dask scheduler {scheduler!r}: {_first_line(error)}") from None
        else:
            cluster = _local_cluster(workers or os.cpu_count() or 1)
            client = Client(cluster)
            _ignore_ctrl_c_on_restarted_workers(client)
        try:
            yield CrashReporting(client.get_executor())
        finally:
            client.close()
            if cluster is not None:
                cluster.close()


class CrashReporting(Executor):
    """An executor whose futures fail with :class:`WorkerDied` where the
    ``inner`` one's fail with Dask's ``KilledWorker`` (the runner stores such
    a game as a ``crash``, rather than stopping on an unknown failure)."""

    def __init__(self, inner: Executor) -> None:
        self.inner = inner

    def submit(self, function: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        inner = self.inner.submit(function, *args, **kwargs)
        outer: Future = Future()
        outer.add_done_callback(lambda done: inner.cancel() if done.cancelled() else None)
        inner.add_done_callback(lambda done: _relay(done, outer))
        return outer

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.inner.shutdown(wait=wait, cancel_futures=cancel_futures)


def _relay(inner: Future, outer: Future) -> None:
    from distributed import KilledWorker

    if inner.cancelled():
        outer.cancel()
    if not outer.set_running_or_notify_cancel():  # cancelled: the waiters on it are told so
        return
    error = inner.exception()
    if isinstance(error, KilledWorker):
        outer.set_exception(WorkerDied(None, _first_line(error)))
    elif error is not None:
        outer.set_exception(error)
    else:
        outer.set_result(inner.result())


def check_scheduler(address: str, timeout: float) -> None:
    """Raise :class:`ConfigError` unless a Dask scheduler answers at
    ``address`` within ``timeout`` seconds.

    Dask's own connect waits for the peer's handshake without a time limit,
    so a dashboard port, a web server or any silent listener would hang it:
    here the whole handshake has the deadline."""
    from distributed.comm import connect

    async def handshake() -> None:
        # A refused connection is retried until the inner timeout, reported as such.
        comm = await asyncio.wait_for(connect(address, timeout=0.8 * timeout), timeout)
        await comm.close()

    try:
        asyncio.run(handshake())
    except TimeoutError:
        raise ConfigError(f"cannot reach the Dask scheduler {address!r}: no Dask handshake within {timeout:g}s "
                          "(is it the scheduler's port, usually 8786, and not the dashboard's?)") from None
    except ValueError as error:  # an unknown scheme or a bad port
        raise ConfigError(f"cannot reach the Dask scheduler {address!r}: {_first_line(error)}") from None
    except Exception as error:  # refused, closed, or an answer that is not Dask's
        raise ConfigError(f"cannot reach the Dask scheduler {address!r}: {_first_line(error)}") from None


_WORKER_LOG_LEVEL = "DASK_LOGGING__DISTRIBUTED"

_NOISY_LOGGERS = ("distributed", "tornado")


@contextmanager
def _quiet_logs() -> Iterator[None]:
    """Only critical messages from Dask while the run goes on, in this
    process and in the local workers it starts (which read their log level
    from the environment they inherit).

    Dask's logs are for people running clusters: a worker lost and replaced
    is a warning, a run stopped by Ctrl-C leaves a trail of errors about its
    cancelled games in every process.  Neither changes the stored results,
    and pacsim says in one line what happened to the run."""
    # Dask's logging configuration gives some children levels of their own
    # (tornado.application: error), so every existing one is quietened too.
    names = [name for name in list(logging.root.manager.loggerDict) if name.split(".")[0] in _NOISY_LOGGERS]
    loggers = [logging.getLogger(name) for name in {*_NOISY_LOGGERS, *names}]
    levels = [logger.level for logger in loggers]
    worker_level = os.environ.get(_WORKER_LOG_LEVEL)
    for logger in loggers:
        logger.setLevel(logging.CRITICAL)
    os.environ[_WORKER_LOG_LEVEL] = "critical"
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)
        if worker_level is None:
            os.environ.pop(_WORKER_LOG_LEVEL, None)
        else:
            os.environ[_WORKER_LOG_LEVEL] = worker_level


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def _local_cluster(workers: int) -> Any:
    """A LocalCluster whose worker processes ignore Ctrl-C.

    A terminal sends Ctrl-C to every process of the foreground group; the
    coordinator alone should act on it (stop, say what is saved), not each
    worker with its own tracebacks.  A process inherits an ignored signal
    (through ``exec`` too), so the workers are started while it is ignored."""
    from distributed import LocalCluster

    # One thread per worker process: a game is pure Python and holds the GIL.
    # dashboard_address=":0": the scheduler's small HTTP endpoint (and the
    # dashboard, if bokeh is installed) on a free port, never a clash on 8787.
    with _ctrl_c_ignored():
        return LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0")


@contextmanager
def _ctrl_c_ignored() -> Iterator[None]:
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread: leave signals alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _ignore_ctrl_c_on_restarted_workers(client: Any) -> None:
    """The same for a local worker that its nanny restarts later, after the
    signal is handled again.  (The workers of a real cluster keep their
    Ctrl-C: it comes from their own terminal, and means stop.)"""
    from distributed.diagnostics.plugin import WorkerPlugin

    class IgnoreCtrlC(WorkerPlugin):
        name = "pacsim-ignore-ctrl-c"

        def setup(self, worker: Any) -> None:
            _ignore_sigint()

    client.register_plugin(IgnoreCtrlC())


def _ignore_sigint() -> None:
    with contextlib.suppress(ValueError):  # a worker whose event loop is not in its main thread
        signal.signal(signal.SIGINT, signal.SIG_IGN)
