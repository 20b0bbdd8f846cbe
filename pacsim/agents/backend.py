"""Which backend an agent searches with: the compiled kernel or Python.

The choice is the agent's ``backend`` option: ``auto`` (the default: the
kernel of :mod:`pacsim.fast` when numba is installed and it covers the
search), ``fast`` (the kernel or an error) or ``python``.  The environment
variable ``PACSIM_BACKEND=python`` (or its older name ``PACSIM_ENGINE``)
turns the fast path off for every ``auto`` agent, ghosts included.  A search
Pacman describes each search as a :class:`~pacsim.fast.request.SearchRequest`;
:func:`try_fast_search` and :func:`try_chase_values` return ``None`` when the
kernel declines it, and the caller then searches in Python.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache

from pacsim.agents.notes import say_once
from pacsim.engine import GameState
from pacsim.errors import AgentError
from pacsim.fast import available
from pacsim.fast.request import SearchRequest, declined, maze_declined
from pacsim.search import SearchResult, deepest

BACKENDS = ("auto", "fast", "python")
ENVIRONMENT_SWITCH = "PACSIM_BACKEND"
OLD_ENVIRONMENT_SWITCH = "PACSIM_ENGINE"
"""The switch's name before the option was called ``backend``: still read."""


def check_backend(backend: str) -> None:
    """Raise :class:`AgentError` for an unknown ``backend`` option, or for
    ``backend=fast`` where the kernel cannot run."""
    if backend not in BACKENDS:
        raise AgentError(f"option backend={backend!r}: expected one of {', '.join(BACKENDS)}", option="backend")
    if backend == "fast" and available() is not None:
        raise AgentError(f"option backend=fast: {available()}", option="backend")


def prepare(backend: str) -> None:
    """Load the kernel in this process if ``backend`` will use it: agents call
    this when they are made, so that loading (or, on a first run, compiling)
    it is not counted against their first move's time limit."""
    if _enabled(backend) and available() is None:
        _warm_up()


@cache
def _warm_up() -> None:
    from pacsim.fast.search import warm_up

    with _interrupts_held():
        warm_up()


@contextmanager
def _interrupts_held() -> Iterator[None]:
    """Hold a Ctrl-C until the block ends, then act on it as the handler in
    place would have: numba loads compiled code through ctypes callbacks,
    where a ``KeyboardInterrupt`` is printed as ignored and lost."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda number, frame: received.append(number))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if received:
        if callable(previous):
            previous(signal.SIGINT, None)
        elif previous == signal.SIG_DFL:
            signal.raise_signal(signal.SIGINT)


def _enabled(backend: str) -> bool:
    if backend == "auto":
        switch = os.environ.get(ENVIRONMENT_SWITCH) or os.environ.get(OLD_ENVIRONMENT_SWITCH) or "auto"
        return switch != "python"
    return backend == "fast"


def fallback_note(who: str, backend: str, request: SearchRequest) -> str | None:
    """The note saying that ``who`` will search ``request`` in Python (None
    when the kernel runs it or Python was asked for); with ``backend=fast``
    an :class:`AgentError` instead.  A run's coordinator says these once,
    before its games, and its games then say nothing
    (:func:`pacsim.agents.notes.notes_said`)."""
    if not _enabled(backend):
        return None
    reason = declined(request)
    return None if reason is None else _note(who, backend, reason)


def _note(who: str, backend: str, reason: str) -> str:
    """The note that ``who`` searches in Python, or with ``backend=fast`` the error."""
    if backend == "fast":
        raise AgentError(f"{who}: backend=fast: {reason}")
    return f"pacsim: {who} searches in Python: {reason}"


def try_fast_search(who: str, backend: str, request: SearchRequest, state: GameState) -> SearchResult | None:
    """The :class:`~pacsim.search.SearchResult` of ``request`` at ``state``
    computed by the kernel, or ``None`` when ``backend`` asks for Python or
    the kernel declines the request (then said once on stderr, naming
    ``who``; with ``backend=fast`` an :class:`AgentError`)."""
    if not _enabled(backend):
        return None
    reason = declined(request)
    if reason is not None:
        say_once(_note(who, backend, reason))  # once per process and reason
        return None
    from pacsim.fast.search import run_request  # numba: loaded only when the kernel runs

    def search_levels(levels: int, deadline: float | None = None) -> SearchResult:
        return run_request(state, request, levels, deadline)

    if request.time:
        return deepest(search_levels, request.levels, request.step, request.time)
    return search_levels(request.levels)


def try_chase_values(backend: str, state: GameState, levels: int) -> SearchResult | None:
    """The adversarial ghost's root search (every root move's exact value)
    by the kernel, or ``None`` when it is off or cannot run."""
    if not _enabled(backend) or available() is not None:
        return None
    if maze_declined(state.layout.num_cells) is not None:
        return None
    from pacsim.fast.search import chase_values

    return chase_values(state, levels)
