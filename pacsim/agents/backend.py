"""Which backend an agent searches with: the compiled kernel or Python.

The choice is the agent's ``backend`` option: ``auto`` (the default: the
kernel of :mod:`pacsim.fast` when numba is installed and it covers the
search), ``fast`` (the kernel or an error) or ``python``.  The environment
variable ``PACSIM_BACKEND=python`` (or its older name ``PACSIM_ENGINE``)
turns the fast path off for every ``auto`` agent, ghosts included.  A search
Pacman describes each search as a :class:`~pacsim.fast.request.SearchRequest`;
:func:`try_fast_search` and :func:`try_chase_values` return ``None`` when the
kernel declines it, and the caller then searches in Python.  The MCTS
Pacman does the same with a :class:`~pacsim.fast.request.MctsRequest`
(:func:`try_fast_mcts`).
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from functools import cache
from typing import TYPE_CHECKING, Any

from pacsim.agents.notes import say_once
from pacsim.engine import GameState
from pacsim.errors import AgentError
from pacsim.fast import available
from pacsim.search import SearchResult

if TYPE_CHECKING:  # pacsim.fast.request brings numpy: imported where a search asks the kernel, not by every ghost
    from pacsim.fast.request import MctsRequest, SearchRequest
    from pacsim.search.api import SearchAtDepth

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


KERNELS = ("plain", "star", "mcts")
"""The kernel's compiled searches: the plain one (:mod:`pacsim.fast.kernel`),
the star one (Star1/Star2, tables, the adversarial model) and MCTS."""


def prepare(backend: str, kernel: str = "plain", evaluation: str = "careful", model: str = "uniform") -> None:
    """Load the kernel's ``kernel`` search in this process if ``backend``
    will use it (and the copy made around a user's kernel ``evaluation`` or
    ghost ``model``): agents call this when they are made, so that loading
    (or, on a first run, compiling) it is not counted against their first
    move's time limit, nor in its time."""
    if kernel_wanted(backend) and available() is None:
        _warm_up(kernel, evaluation, model)


@cache
def _warm_up(kernel: str, evaluation: str = "careful", model: str = "uniform") -> None:
    with _interrupts_held():
        if kernel == "mcts":
            from pacsim.fast.mcts import warm_up as warm_up_mcts

            warm_up_mcts()
        else:
            from pacsim.fast.search import warm_up

            warm_up(star=kernel == "star", evaluation=evaluation, model=model)


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


def kernel_wanted(backend: str) -> bool:
    """Whether an agent with this ``backend=`` option should search in the
    kernel where it can (``auto`` unless the environment switches it off)."""
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
    if not kernel_wanted(backend):
        return None
    from pacsim.fast.request import declined

    reason = declined(request)
    return None if reason is None else _note(who, backend, reason)


def _note(who: str, backend: str, reason: str) -> str:
    """The note that ``who`` searches in Python, or with ``backend=fast`` the error."""
    if backend == "fast":
        raise AgentError(f"{who}: backend=fast: {reason}")
    return f"pacsim: {who} searches in Python: {reason}"


class KernelTableSlot:
    """Where a search Pacman keeps the kernel's twin of its transposition
    table: made at the first kernel search (numba is loaded only then),
    cleared with the agent's own table at every reset (a new game)."""

    def __init__(self, entries: int) -> None:
        self.entries = entries
        self.table: Any = None

    def get(self) -> Any:
        """The kernel's table (a :class:`pacsim.fast.transposition.KernelTable`)."""
        if self.table is None:
            from pacsim.fast.transposition import KernelTable

            self.table = KernelTable(self.entries)
        return self.table

    def clear(self) -> None:
        if self.table is not None:
            self.table.clear()


def try_fast_search(who: str, backend: str, request: SearchRequest, state: GameState,
                    table: KernelTableSlot | None = None) -> SearchResult | None:
    """The :class:`~pacsim.search.SearchResult` of ``request`` at ``state``
    computed by the kernel, or ``None`` when ``backend`` asks for Python or
    the kernel declines the request (then said once on stderr, naming
    ``who``; with ``backend=fast`` an :class:`AgentError`).  ``table`` holds
    the kernel's table of a request with ``table=`` entries."""
    if not kernel_wanted(backend):
        return None
    from pacsim.fast.request import declined

    reason = declined(request)
    if reason is not None:
        say_once(_note(who, backend, reason))  # once per process and reason
        return None
    from pacsim.fast.search import DistributionRefused, run_request  # numba: loaded only when the kernel runs

    if request.table and table is None:
        raise ValueError("a request with a transposition table needs the caller's KernelTableSlot")
    kernel_table = table.get() if request.table and table is not None else None

    def search_levels(levels: int, deadline: float | None = None) -> SearchResult:
        return run_request(state, replace(request, levels=levels), deadline, kernel_table)

    try:
        return search_requested(request, search_levels)
    except DistributionRefused:  # Python searches again, and raises the ghost policy's error at the same move
        return None


def search_requested(request: SearchRequest, search_at: SearchAtDepth) -> SearchResult:
    """The one iterative-deepening loop of a search Pacman's move, whichever
    backend's ``search_at`` searches: with a time per move, the deepest search
    of ``request.step``, ``2 * request.step``, ... levels finished in time (up
    to ``request.levels``); without, ``request.levels`` at once."""
    from pacsim.search import deepest

    if request.time:
        return deepest(search_at, request.levels, request.step, request.time)
    return search_at(request.levels, None)


def try_fast_mcts(who: str, backend: str, request: MctsRequest, state: GameState, seed: int) -> SearchResult | None:
    """``MctsPacman.analyze(state, seed)`` by the kernel (the same tree and
    answer), or ``None`` when ``backend`` asks for Python or the kernel
    declines ``request`` (silently: a run's notes name the search Pacmen's
    fallbacks only; with ``backend=fast`` an :class:`AgentError`)."""
    if not kernel_wanted(backend):
        return None
    from pacsim.fast.request import mcts_declined

    reason = mcts_declined(request, state.layout.num_cells)
    if reason is not None:
        if backend == "fast":
            raise AgentError(f"{who}: backend=fast: {reason}", option="backend")
        return None
    from pacsim.fast.mcts import run_mcts_request  # numba: loaded only when the kernel runs

    return run_mcts_request(state, request, seed)


def try_chase_values(backend: str, state: GameState, levels: int) -> SearchResult | None:
    """The adversarial ghost's root search (every root move's exact value)
    by the kernel, or ``None`` when it is off or cannot run."""
    if not kernel_wanted(backend) or available() is not None:
        return None
    from pacsim.fast.request import maze_declined

    if maze_declined(state.layout.num_cells) is not None:
        return None
    from pacsim.fast.search import chase_values

    return chase_values(state, levels)
