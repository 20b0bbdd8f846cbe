"""Calling an agent under a time limit, in any thread; telling a user's Ctrl-C from an agent's.

In the main thread a POSIX interval timer (``SIGALRM``) interrupts the agent,
even inside a blocking call such as ``time.sleep``.  Signals reach only the
main thread, so in any other thread (a Dask worker plays its games in a
thread pool) one watchdog thread per process raises the timeout in the
agent's thread with CPython's ``PyThreadState_SetAsyncExc``.  Such an
exception is delivered between two bytecodes: an agent running Python is
stopped within moments of its deadline, one blocked in a single long C call
(a long sleep, a big numpy operation) only when that call returns.  Either
way the game ends as an ``error``.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import TypeVar

Result = TypeVar("Result")


class AgentTimeout(BaseException):
    """An agent overran its move time limit.

    A ``BaseException``, like ``KeyboardInterrupt``: an agent's own
    ``except Exception`` must not swallow its interruption."""


class UserInterrupt(KeyboardInterrupt):
    """A real Ctrl-C (a ``SIGINT`` this process received), as opposed to a
    ``KeyboardInterrupt`` that an agent's code raised: the first stops the
    whole run, the second only the agent's game."""


def raise_user_interrupt(signum: int, frame: FrameType | None) -> None:
    """A ``SIGINT`` handler that marks the interrupt as the user's."""
    raise UserInterrupt()


@contextmanager
def user_interrupts_marked() -> Iterator[None]:
    """Within this block a Ctrl-C raises :class:`UserInterrupt`, if this is
    the main thread and the process still has Python's default handler (a
    caller that installed its own, or ignores ``SIGINT``, is left alone)."""
    if threading.current_thread() is not threading.main_thread() \
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield
        return
    signal.signal(signal.SIGINT, raise_user_interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)


COMPILED_GRACE = 1.0
"""Seconds a call into compiled code may run past its move's deadline before the process is ended."""
_HELD = {signal.SIGINT, signal.SIGALRM}
_last_words: tuple[Callable[[int, int], int], int] | None = None
"""libc's ``signal`` and the address of a C signal handler (:mod:`pacsim.fast.last_words`) that says why the
process ends, then ends it."""


def set_last_words(address: int) -> None:
    """Have :func:`compiled_code` end the process through the C handler at ``address`` instead of silently."""
    global _last_words
    import ctypes  # only the kernel's processes call into C: not every start-up

    set_handler = ctypes.CDLL(None).signal
    set_handler.argtypes, set_handler.restype = [ctypes.c_int, ctypes.c_size_t], ctypes.c_size_t
    _last_words = set_handler, address


def _end_by_default(signum: int) -> None:
    """``signum``'s default action (the process ends), said first by the last words' handler if there is one.
    Python keeps its record of the handler as ``SIG_DFL``; the caller puts Python's handler back after."""
    signal.signal(signum, signal.SIG_DFL)
    if _last_words is not None:
        set_handler, address = _last_words
        set_handler(signum, address)


@contextmanager
def compiled_code(users_code: bool = True) -> Iterator[None]:
    """Around one call into compiled code that runs ``users_code`` (a numba
    kernel calling a user's ``@pacsim.kernel_evaluation``), in the main
    thread; pacsim's own kernels return within their slice, so without
    ``users_code`` the block changes nothing (and costs nothing).

    Compiled code runs no Python signal handler until it returns, so a
    function that never returns would ignore the move limit and Ctrl-C.
    Within this block a Ctrl-C ends the process at once (the default action,
    said in one line first once :mod:`pacsim.fast.last_words` is prepared:
    what a run stored is kept, the game in play is lost), and a move deadline
    armed by :func:`call_with_deadline` ends it :data:`COMPILED_GRACE`
    seconds late; a call that returns in time finds the handlers as they
    were, and a deadline it overran raises :class:`AgentTimeout` as usual."""
    if not users_code or threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return
    interrupt = signal.getsignal(signal.SIGINT)
    catches_interrupt = interrupt not in (signal.SIG_IGN, signal.SIG_DFL, None)
    remaining = signal.getitimer(signal.ITIMER_REAL)[0]
    alarm = signal.getsignal(signal.SIGALRM)
    timed = remaining > 0 and callable(alarm)
    if catches_interrupt:
        _end_by_default(signal.SIGINT)
    if timed:
        _end_by_default(signal.SIGALRM)
        signal.setitimer(signal.ITIMER_REAL, remaining + COMPILED_GRACE)
    try:
        yield
    finally:
        # Held while the handlers come back: one arriving now runs after, never between two of these lines.
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
        try:
            if timed:
                left = signal.getitimer(signal.ITIMER_REAL)[0] - COMPILED_GRACE
                signal.signal(signal.SIGALRM, alarm)
                signal.setitimer(signal.ITIMER_REAL, max(left, 1e-6))
            if catches_interrupt:
                signal.signal(signal.SIGINT, interrupt)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)


def call_with_deadline(function: Callable[[], Result], limit: float | None) -> Result:
    """``function()``, raising :class:`AgentTimeout` if it runs longer than
    ``limit`` seconds (no limit when None)."""
    if limit is None:
        return function()
    if threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):
        return _call_with_alarm(function, limit)
    return _call_with_watchdog(function, limit)


def _raise_timeout(signum: int, frame: FrameType | None) -> None:
    raise AgentTimeout()


def _call_with_alarm(function: Callable[[], Result], limit: float) -> Result:
    previous = signal.signal(signal.SIGALRM, _raise_timeout)
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        return function()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _call_with_watchdog(function: Callable[[], Result], limit: float) -> Result:
    _WATCHDOG.arm(limit)
    try:
        result = function()
    finally:
        if _WATCHDOG.disarm():
            raise AgentTimeout()
    return result


def _send_async(thread_id: int, exception: type[BaseException] | None) -> None:
    """Schedule ``exception`` in thread ``thread_id``; None cancels one not yet delivered."""
    import ctypes  # imported by the arming thread already (:meth:`_Watchdog.arm`): no import is waited for here

    ctypes.pythonapi.PyThreadState_SetAsyncExc(
        ctypes.c_ulong(thread_id), ctypes.py_object(exception) if exception is not None else None)


class _Watchdog:
    """One daemon thread that raises :class:`AgentTimeout` in every thread
    whose deadline passes.  Arming and disarming are a dictionary update
    under a lock, cheap enough for every move of every agent."""

    def __init__(self) -> None:
        self._condition = threading.Condition()
        self._deadlines: dict[int, float] = {}
        """Thread id -> ``time.monotonic()`` deadline of its current call."""
        self._thread: threading.Thread | None = None

    def arm(self, limit: float) -> None:
        with self._condition:
            self._deadlines[threading.get_ident()] = time.monotonic() + limit
            if self._thread is None or not self._thread.is_alive():  # not yet, or lost in a fork
                import ctypes  # noqa: F401  # for _send_async, imported before any deadline can pass: a game without a time limit never loads it

                self._thread = threading.Thread(target=self._watch, name="pacsim-deadlines", daemon=True)
                self._thread.start()
            self._condition.notify()

    def disarm(self) -> bool:
        """End the calling thread's deadline; True if it had passed.

        The watchdog removes a deadline and sends the timeout under the same
        lock, so if the deadline is still here no timeout was sent; if it is
        gone, a timeout not yet delivered is cancelled here and the caller
        raises it itself, so none can surface later in unrelated code."""
        thread_id = threading.get_ident()
        with self._condition:
            if self._deadlines.pop(thread_id, None) is not None:
                return False
            _send_async(thread_id, None)
            return True

    def _watch(self) -> None:
        with self._condition:
            while True:
                now = time.monotonic()
                for thread_id, deadline in list(self._deadlines.items()):
                    if deadline <= now:
                        del self._deadlines[thread_id]
                        _send_async(thread_id, AgentTimeout)
                wait = min(self._deadlines.values()) - now if self._deadlines else None
                self._condition.wait(wait)

    def after_fork(self) -> None:
        """A forked child has only the forking thread: start afresh."""
        self._condition = threading.Condition()
        self._deadlines = {}
        self._thread = None


_WATCHDOG = _Watchdog()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_WATCHDOG.after_fork)
