"""The one slice loop: the kernel runs a search or a whole game a node budget
at a time, and Python runs between two slices.

A slice's function is compiled (or loaded) before the first slice's clock
starts: compilation is its own figure, never a search's or a game's.
"""

from __future__ import annotations

from collections.abc import Callable
from time import perf_counter
from typing import Any

from pacsim.engine.deadline import compiled_code
from pacsim.fast.jit import compile_before_timing, machine_code
from pacsim.search import SearchTimeout

FIRST_SLICE = 8192
"""Nodes the kernel searches before it first hands control back: most
searches of a game (depth 2 to 4) finish within it, in one call."""
SMALLEST_SLICE = 1024
"""Fewest nodes of a slice, whatever the clock says."""
SLICE_SECONDS = 0.005
"""Target length of later slices: the deadline is checked, and a signal
handler (the move time limit's alarm, a Ctrl-C) or a watchdog's timeout
runs, at least this often, for about 15 microseconds a slice."""


def in_slices(run_slice: Any, arguments: tuple[Any, ...], first: int, smallest: int, seconds: float,
              deadline: float | None = None,
              between: Callable[[tuple[Any, ...]], tuple[Any, ...]] | None = None, users_code: bool = False) -> float:
    """Run ``run_slice`` (a search's root or a whole game's loop: it takes
    ``arguments`` then a node budget, and returns whether it finished)
    slice by slice until it finishes; the seconds spent in the kernel.
    Between two slices Python runs, so an ``AgentTimeout`` or a
    ``KeyboardInterrupt`` surfaces here as it would in Python; past
    ``deadline`` it raises :class:`SearchTimeout`; ``between`` gives the
    next slice's arguments (a grown table).  The first slice is ``first``
    nodes, later ones near ``seconds`` and ``smallest`` nodes at least (the
    caller passes its module's sizes, which a test may shrink).  A slice
    running ``users_code`` (a user's own evaluation or ghost) is
    :func:`~pacsim.engine.deadline.compiled_code`."""
    budget = first
    search_slice: Any = machine_code(run_slice, (*arguments, budget))  # numba's Dispatcher types its calls too narrowly
    compile_before_timing(search_slice, (*arguments, budget))  # not counted against a deadline
    if users_code:
        from pacsim.fast.last_words import prepare  # compiled (or loaded) once per process, before the clock

        prepare()
    spent = 0.0
    while True:
        slice_started = perf_counter()
        with compiled_code(users_code):  # a user's function that never returns cannot hold the move limit or Ctrl-C
            finished = search_slice(*arguments, budget)
        now = perf_counter()
        spent += now - slice_started
        if finished:
            return spent
        if deadline is not None and now >= deadline:
            raise SearchTimeout("kernel search: deadline passed")
        if between is not None:
            arguments = between(arguments)
        # Keep slices near ``seconds`` whatever the maze makes a node cost.
        elapsed = max(now - slice_started, 1e-6)
        budget = max(smallest, min(budget * 4, int(budget * seconds / elapsed)))
