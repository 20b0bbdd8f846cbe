"""A process pool in which a dead worker costs only the task it was running.

``concurrent.futures.ProcessPoolExecutor`` cannot say which task killed a
worker: a worker's death breaks the whole pool, every task in flight fails
with ``BrokenProcessPool``, and a ``submit`` racing with the breakage raises
it too.  Here each worker runs one task at a time, sent to it alone over its
own pipe, so the coordinator always knows what each worker is running.  When
one dies (an agent calling ``os._exit``, a segfault, the OOM killer), that
task's future fails with :class:`WorkerDied`, which carries the exit status,
and a fresh worker takes its place; the other workers play on undisturbed.

Processes are started only in the threads that call :meth:`WorkerPool.submit`
and :meth:`WorkerPool.keep_up`, never in the pool's own thread: a process
forked from one thread inherits the locks other threads held at that
instant, and the pool's thread runs while the caller's does anything at all
(a forked worker once hung in ``platform.uname``'s lock).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import signal
import threading
import traceback
from collections import deque
from collections.abc import Callable
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any

_Call = tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]


class WorkerDied(Exception):
    """The process running a task ended before returning its result."""

    def __init__(self, exit_status: int | None, detail: str = "") -> None:
        self.exit_status = exit_status
        """The process's exit code, or minus the signal that killed it
        (``-9``: SIGKILL), as :attr:`multiprocessing.Process.exitcode` gives
        it; None when the executor cannot tell (a Dask worker)."""
        super().__init__(describe_exit(exit_status) + (f" ({detail})" if detail else ""))


def describe_exit(exit_status: int | None) -> str:
    """``the worker process was killed by SIGKILL``, ``... exited with status 7``."""
    if exit_status is None:
        return "the worker process died"
    if exit_status < 0:
        try:
            name = signal.Signals(-exit_status).name
        except ValueError:
            name = f"signal {-exit_status}"
        return f"the worker process was killed by {name}"
    return f"the worker process exited with status {exit_status}"


class _RemoteError(Exception):
    """An exception a task raised that could not be sent back as itself."""


def _serve(connection: Connection, initializer: Callable[[], None] | None) -> None:
    """A worker's life: run each call received, send back its outcome, until told to stop."""
    if initializer is not None:
        initializer()
    while True:
        try:
            call = connection.recv()
        except EOFError:  # the coordinator is gone
            return
        if call is None:
            return
        function, args, kwargs = call
        try:
            outcome: tuple[bool, Any] = (True, function(*args, **kwargs))
        except BaseException as error:  # delivered to the task's future, as any pool does
            outcome = (False, error)
        try:
            connection.send(outcome)
        except Exception as error:  # an unpicklable result or exception: its text travels instead
            unsent = outcome[1] if not outcome[0] else error
            connection.send((False, _RemoteError("".join(traceback.format_exception(unsent)))))


@dataclass(eq=False)
class _Worker:
    process: BaseProcess
    connection: Connection
    future: Future | None = None
    """The task it is running; None when idle."""


@dataclass
class _State:
    waiting: deque[tuple[Future, _Call]] = field(default_factory=deque)
    workers: list[_Worker] = field(default_factory=list)
    shutting_down: bool = False


class WorkerPool(Executor):
    """An executor of ``workers`` processes (each started with ``initializer``)
    in which a dead worker fails only its own task's future, with :class:`WorkerDied`.

    A dead worker is replaced by the next :meth:`submit` or :meth:`keep_up`:
    a caller waiting on futures should call ``keep_up`` every second or so."""

    def __init__(self, workers: int, initializer: Callable[[], None] | None = None) -> None:
        self.size = workers
        self.initializer = initializer
        self._context = multiprocessing.get_context()
        self._state = _State()
        self._lock = threading.Lock()
        self._wake_reader, self._wake_writer = self._context.Pipe(duplex=False)
        self._thread = threading.Thread(target=self._manage, name="pacsim-worker-pool", daemon=True)
        self._thread.start()

    def submit(self, function: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        future: Future = Future()
        with self._lock:
            if self._state.shutting_down:
                raise RuntimeError("cannot submit to a pool that is shut down")
            self._state.waiting.append((future, (function, args, kwargs)))
        self.keep_up()
        return future

    def keep_up(self) -> None:
        """Start workers in place of dead ones while tasks wait (in this thread)."""
        with self._lock:
            state = self._state
            idle = sum(worker.future is None for worker in state.workers)
            for _ in range(min(self.size - len(state.workers), len(state.waiting) - idle)):
                self._start_worker()
        self._wake()

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._lock:
            self._state.shutting_down = True
            if cancel_futures:
                for future, _ in self._state.waiting:
                    future.cancel()
                self._state.waiting.clear()
        self._wake()
        if wait:
            self._thread.join()

    def terminate(self) -> None:
        """Stop every worker now (their tasks are abandoned), then shut down."""
        with self._lock:
            for worker in self._state.workers:
                worker.process.terminate()
        self.shutdown(wait=True, cancel_futures=True)

    def _wake(self) -> None:
        with contextlib.suppress(OSError):  # the manager has finished and closed its end
            self._wake_writer.send_bytes(b"")

    # -- the manager thread ------------------------------------------------

    def _manage(self) -> None:
        try:
            while self._dispatch():
                with self._lock:
                    busy = [worker for worker in self._state.workers if worker.future is not None]
                    watched: list[Connection | int] = [self._wake_reader, *(worker.connection for worker in busy),
                               *(worker.process.sentinel for worker in self._state.workers)]
                ready = set(wait(watched))
                if self._wake_reader in ready:
                    while self._wake_reader.poll():
                        self._wake_reader.recv_bytes()
                for worker in busy:  # a result before a death: a worker may die right after sending it
                    if worker.connection in ready:
                        self._receive(worker)
                for worker in list(self._state.workers):
                    if worker.process.sentinel in ready:
                        self._bury(worker)
        finally:
            self._stop_workers()

    def _dispatch(self) -> bool:
        """Give waiting tasks to idle workers, starting workers as needed;
        False once shut down with nothing left to run."""
        with self._lock:
            state = self._state
            while state.waiting:
                idle = next((worker for worker in state.workers if worker.future is None), None)
                if idle is None:
                    break
                future, call = state.waiting.popleft()
                if not future.set_running_or_notify_cancel():
                    continue
                try:
                    idle.connection.send(call)
                except (OSError, ValueError):  # it died while idle: the task goes to another
                    state.waiting.appendleft((future, call))
                    self._remove(idle)
                    continue
                except Exception as error:  # the call cannot be pickled
                    future.set_exception(error)
                    continue
                idle.future = future
            return not (state.shutting_down and not state.waiting
                        and all(worker.future is None for worker in state.workers))

    def _start_worker(self) -> None:
        ours, theirs = self._context.Pipe()
        process = self._context.Process(target=_serve, args=(theirs, self.initializer), daemon=True,
                                        name="pacsim-worker")
        process.start()
        theirs.close()
        self._state.workers.append(_Worker(process, ours))

    def _receive(self, worker: _Worker) -> None:
        try:
            succeeded, value = worker.connection.recv()
        except (EOFError, OSError):  # it died mid-task
            self._bury(worker)
            return
        future, worker.future = worker.future, None
        assert future is not None
        if succeeded:
            future.set_result(value)
        else:
            future.set_exception(value)

    def _bury(self, worker: _Worker) -> None:
        """A worker has ended: its task (if any) fails with its exit status."""
        worker.process.join()
        with self._lock:
            self._remove(worker)
        if worker.future is not None:
            worker.future.set_exception(WorkerDied(worker.process.exitcode))

    def _remove(self, worker: _Worker) -> None:
        self._state.workers.remove(worker)
        worker.connection.close()

    def _stop_workers(self) -> None:
        with self._lock:
            workers, self._state.workers = self._state.workers, []
        for worker in workers:
            with contextlib.suppress(OSError, ValueError):
                worker.connection.send(None)
        for worker in workers:
            worker.process.join()
            worker.connection.close()
        self._wake_reader.close()
        self._wake_writer.close()
