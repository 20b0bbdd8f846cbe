"""A user's kernel evaluation, compiled (see :mod:`pacsim.fast.view`).

:func:`compiled` compiles a marked function with ``numba.njit`` for the
:class:`~pacsim.fast.view.View` the kernel passes, once per function and
process, or says in one line why numba cannot: the search then runs in
Python.  :func:`search_root` is the kernel's plain search
(:func:`pacsim.fast.kernel.search_root` and its ``node_value``) compiled
again with that function in place of the built-in ``evaluate``: the same
code, so the same node order, counts and float operations.

numba's cache cannot keep that search (its machine code would call the
function of another process), so it is compiled in each process that uses
it, once per function: 5 to 15 seconds on one core (``pacsim bench``'s
``own`` group measures it), and the whole-game loop around it
(:func:`play_slice`) some seconds more.  The built-in searches are not touched and keep
their cache.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from types import FunctionType
from typing import Any

from numba import njit, typeof
from numba.core.errors import NumbaError

from pacsim.engine import parse_layout
from pacsim.engine.state import initial_state
from pacsim.fast import gameloop, kernel
from pacsim.fast.kernel import FIRST_GHOST, FOOD_LEFT, NUM_GHOSTS, PACMAN, SCORE, TURN, WORDS
from pacsim.fast.view import View, view_of

WITHOUT_REFERENCE_COUNTS: dict[str, Any] = {"_nrt": False}
"""numba's private option the kernel's searches are compiled with
(:func:`pacsim.fast.kernel.node_value` says why); what they call is compiled so too."""


def state_view(distance: Any, nearest: Any, settings: Any, state: Any) -> View:
    """``state`` (a kernel row, :mod:`pacsim.fast.tables`) as a
    :class:`~pacsim.fast.view.View`: views of the row's slots, no copy
    (:func:`~pacsim.fast.view.view_of` builds the same in Python)."""
    num_ghosts = settings[NUM_GHOSTS]
    words = settings[WORDS]
    directions_at = FIRST_GHOST + num_ghosts
    scared_at = directions_at + num_ghosts + 1
    food_at = scared_at + num_ghosts
    return View(state[PACMAN], state[FIRST_GHOST:directions_at], state[directions_at:scared_at],
                state[scared_at:food_at], state[food_at:food_at + words], state[food_at + words:food_at + 2 * words],
                state[FOOD_LEFT], state[SCORE], state[TURN], distance, nearest)


@cache
def view_type() -> Any:
    """numba's type of a View (the same for every maze: arrays and ints)."""
    return typeof(view_of(initial_state(parse_layout("%%%%%\n%P.G%\n%%%%%\n", name="view"))))


@cache
def compiled(function: Callable[[View], float]) -> tuple[Any, str | None]:
    """``(dispatcher, None)``: ``function`` compiled for the kernel's view;
    or ``(None, reason)`` when numba cannot compile it (reason: one line
    naming the function and numba's first line of error).  Compiled
    without numba's reference counting, as the searches that call it are:
    a function that allocates an array does not compile, and runs in Python."""
    dispatcher = njit(**WITHOUT_REFERENCE_COUNTS)(function)
    try:
        dispatcher.compile((view_type(),))
    except NumbaError as error:
        name = getattr(function, "__qualname__", repr(function))
        return None, f"numba cannot compile {name}(): {_first_line(str(error)) or type(error).__name__}"
    return dispatcher, None


def _first_line(message: str) -> str:
    """numba's first line that says what went wrong (not which pipeline failed)."""
    if "NRT required but not enabled" in message:
        return "it makes new arrays, strings, lists or dicts, which the kernel's searches cannot"
    lines = (line.strip() for line in message.splitlines())
    return next((line for line in lines if line and not line.startswith("Failed in ")), "")


@cache
def search_root(function: Callable[[View], float]) -> Any:
    """:func:`pacsim.fast.kernel.search_root` with ``function`` (which
    :func:`compiled` compiles) as its evaluation, compiled apart and uncached."""
    evaluation, reason = compiled(function)
    if evaluation is None:
        raise ValueError(f"search_root: {reason}")
    view = njit(inline="always", **WITHOUT_REFERENCE_COUNTS)(state_view)

    def evaluate(distance: Any, nearest: Any, settings: Any, state: Any) -> float:
        return float(evaluation(view(distance, nearest, settings, state)))

    leaf = njit(inline="always", **WITHOUT_REFERENCE_COUNTS)(evaluate)
    node_value = uncached(kernel.node_value, {"evaluate": leaf})
    root_leaf_value = uncached(kernel.root_leaf_value, {"evaluate": leaf})
    return uncached(kernel.search_root, {"node_value": node_value, "root_leaf_value": root_leaf_value})


@cache
def play_slice(function: Callable[[View], float]) -> Any:
    """:func:`pacsim.fast.gameloop.play_slice` whose Pacman searches with
    ``function`` (:func:`search_root`); the ghosts' own searches (the
    adversarial ghost's chase) keep the built-in ones."""
    search = uncached(gameloop._search, {"search_root": search_root(function)})
    pacman_move = uncached(gameloop._pacman_move, {"_search": search})
    return uncached(gameloop.play_slice, {"_pacman_move": pacman_move})


def uncached(dispatcher: Any, replaced: dict[str, Any]) -> Any:
    """A copy of a compiled kernel function, with its options but without
    numba's cache, whose globals ``replaced`` names differently."""
    function = dispatcher.py_func
    copy = FunctionType(function.__code__, {**function.__globals__, **replaced}, function.__name__,
                        function.__defaults__, function.__closure__)
    copy.__doc__ = function.__doc__
    options = {name: value for name, value in dispatcher.targetoptions.items() if name not in ("cache", "nopython")}
    return njit(**options)(copy)


# -- shared with the copies of the other searches (pacsim.fast.own_searches, pacsim.fast.mcts)

@cache
def inline_state_view() -> Any:
    """:func:`state_view` compiled to be inlined where a search's copy builds a view."""
    return njit(inline="always", **WITHOUT_REFERENCE_COUNTS)(state_view)


@cache
def leaf_evaluation(function: Callable[[View], float]) -> Any:
    """``function`` (which :func:`compiled` compiles) as the kernel's
    ``evaluate(distance, nearest, settings, state)``, inlined into the copy
    of a search that replaces its ``evaluate`` global with it."""
    evaluation, reason = compiled(function)
    if evaluation is None:
        raise ValueError(f"leaf_evaluation: {reason}")
    view = inline_state_view()

    def evaluate(distance: Any, nearest: Any, settings: Any, state: Any) -> float:
        return float(evaluation(view(distance, nearest, settings, state)))

    return njit(inline="always", **WITHOUT_REFERENCE_COUNTS)(evaluate)


def numba_reason(function: Callable[..., Any], error: NumbaError) -> str:
    """Why numba cannot compile ``function``, in one line (as :func:`compiled` says it)."""
    name = getattr(function, "__qualname__", repr(function))
    return f"numba cannot compile {name}(): {_first_line(str(error)) or type(error).__name__}"
