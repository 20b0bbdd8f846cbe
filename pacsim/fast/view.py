"""A user's own evaluation or ghost, written once for Python and the kernel.

A function marked with :func:`kernel_evaluation` takes one argument, a
:class:`View` of the state (plain ints and numpy arrays), and returns a
number, and may carry bounds for Star1/Star2 (a function of a view and
levels).  pacsim compiles them with numba and calls the evaluation at
every leaf of the kernel's searches (plain, Star1/Star2, with a table, the
adversarial model, MCTS) and of its whole-game loop (which plays the
plain searches); the Python search
calls the same functions on the same view (:func:`view_of`), so both give
the same values, moves and node counts.  A function numba cannot compile
runs in Python, with one line saying why (:mod:`pacsim.fast.own`).

A function marked with :func:`kernel_ghost` is a ghost policy
``policy(view, moves, out)``: it writes the probability of each of the
ghost's legal :class:`Moves` into ``out``.  The ghost spec naming it
(``-g file.py:function``) plays it (``pacsim.agents.ghosts.KernelGhost``
calls it in Python), and the kernel calls it compiled in whole games and at
the chance nodes of a Pacman that models it (``model=file.py:function``).

Importing this module needs numpy only.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar, overload

import numpy as np

from pacsim.engine import GameState
from pacsim.engine.layout import ACTIONS, Layout

WORD_BITS = 32
"""Bits of one food or capsule word (the kernel's, :mod:`pacsim.fast.maze_arrays`)."""
KERNEL_MARK = "pacsim_kernel"
"""The attribute :func:`kernel_evaluation` and :func:`kernel_ghost` set on a function."""
MOVE_SLOTS = 5
"""Length of the :class:`Moves` arrays and of ``out`` (at most 5 legal moves)."""


class View(NamedTuple):
    """The state as a kernel evaluation sees it: stable, documented fields.

    Cells are numbered as :class:`pacsim.engine.Layout` numbers them (its
    ``cells``); a bitset holds cell ``c`` in bit ``c % 32`` of word
    ``c // 32``: ``(view.food[c >> 5] >> (c & 31)) & 1``."""

    pacman: int
    """Pacman's cell."""
    ghosts: np.ndarray
    """int64[ghosts]: each ghost's cell."""
    directions: np.ndarray
    """int64[ghosts + 1]: each agent's last direction (an index of
    ``pacsim.engine.layout.ACTIONS``), Pacman's first."""
    scared: np.ndarray
    """int64[ghosts]: each ghost's scared timer (0: not scared)."""
    food: np.ndarray
    """int64[words]: the food bitset (see above)."""
    capsules: np.ndarray
    """int64[words]: the capsules bitset."""
    food_left: int
    """Food still on the board."""
    score: int
    """The game score."""
    turn: int
    """The agent to move (0: Pacman)."""
    distance: np.ndarray
    """int32[cells, cells]: maze distance between two cells (``1 << 20``
    where there is no path)."""
    nearest: np.ndarray
    """int32[cells, cells]: ``nearest[c]`` is every cell by increasing
    distance from ``c`` (ties by cell number): the first food met in
    ``nearest[view.pacman]`` is the nearest."""


Function = TypeVar("Function", bound=Callable[..., Any])
ViewBounds = Callable[[View, int], tuple[float, float]]
"""``bounds(view, levels) -> (low, high)``: a kernel evaluation's bounds
(see :func:`kernel_evaluation`)."""


@overload
def kernel_evaluation(function: Function) -> Function: ...


@overload
def kernel_evaluation(*, bounds: ViewBounds) -> Callable[[Function], Function]: ...


def kernel_evaluation(function: Any = None, *, bounds: ViewBounds | None = None) -> Any:
    """Mark ``function(view) -> float`` as an evaluation over a :class:`View`
    that the kernel may compile (``eval=file.py:function`` then searches in
    the kernel).  Returns the function itself.

    ``@kernel_evaluation(bounds=my_bounds)`` gives it bounds, which Star1
    and Star2 need: ``my_bounds(view, levels) -> (low, high)``, numbers no
    value a search of ``levels`` levels below the view can leave (the
    evaluation's at a cut-off, the score at a finished game).  The kernel
    compiles them too, and the Python search calls them on the same view;
    they are kept as the function's ``bounds`` attribute."""
    if bounds is not None and not callable(bounds):
        raise TypeError(f"kernel_evaluation(bounds=...) takes a function of (view, levels), not {bounds!r}")

    def mark(function: Function) -> Function:
        setattr(function, KERNEL_MARK, "evaluation")
        if bounds is not None:
            function.bounds = bounds  # type: ignore[attr-defined]  # as a plugin evaluation carries them
        return function

    return mark if function is None else mark(function)


def is_kernel_evaluation(function: object) -> bool:
    """Whether ``function`` was marked with :func:`kernel_evaluation`."""
    return getattr(function, KERNEL_MARK, None) == "evaluation"


class Moves(NamedTuple):
    """The legal moves of the ghost to move, as a :func:`kernel_ghost` sees them."""

    count: int  # type: ignore[assignment]  # the moves' number, over tuple.count
    """How many there are (1 to 5): ``actions[:count]`` and ``targets[:count]``
    hold them, in pacsim's order (``GameState.legal_moves``); the slots
    beyond are unspecified."""
    actions: np.ndarray
    """int64[5]: each move's action, an index of ``pacsim.engine.layout.ACTIONS``."""
    targets: np.ndarray
    """int64[5]: each move's target cell."""


def kernel_ghost(function: Function) -> Function:
    """Mark ``function(view, moves, out) -> None`` as a ghost policy that
    the kernel may compile: it writes the probability of move ``i`` of
    ``moves`` (a :class:`Moves`) into ``out[i]`` (a float64 array of 5, the
    ghost's moves' entries NaN until written), for the ghost ``view.turn``,
    on ``view.ghosts[view.turn - 1]``.  Each must be in [0, 1] and they must
    sum to 1 (:func:`pacsim.fast.policies.first_bad_probability`).  Returns
    the function itself."""
    setattr(function, KERNEL_MARK, "ghost")
    return function


def is_kernel_ghost(function: object) -> bool:
    """Whether ``function`` was marked with :func:`kernel_ghost`."""
    return getattr(function, KERNEL_MARK, None) == "ghost"


GhostPolicy = Callable[[View, Moves, np.ndarray], None]
"""A :func:`kernel_ghost` function."""


def moves_of(state: GameState) -> Moves:
    """The legal moves of the agent to move in ``state`` as :class:`Moves` (what Python passes)."""
    legal = state.legal_moves()
    actions, targets = np.zeros(MOVE_SLOTS, np.int64), np.zeros(MOVE_SLOTS, np.int64)
    for index, (action, target) in enumerate(legal):
        actions[index], targets[index] = ACTIONS.index(action), target
    return Moves(len(legal), actions, targets)


_registered: dict[str, Callable[[View], float]] = {}
_registered_ghosts: dict[str, GhostPolicy] = {}


def register(spec: str, function: Callable[[View], float]) -> None:
    """Remember that evaluation ``spec`` is the kernel evaluation ``function``
    (what a :class:`~pacsim.fast.request.SearchRequest` names it by)."""
    _registered[spec] = function


def registered(spec: str) -> Callable[[View], float] | None:
    """The kernel evaluation named ``spec``, or None."""
    return _registered.get(spec)


def register_ghost(spec: str, function: GhostPolicy) -> None:
    """Remember that ghost spec ``spec`` is the :func:`kernel_ghost` ``function``
    (what a :class:`~pacsim.fast.request.SearchRequest`'s model names it by)."""
    _registered_ghosts[spec] = function


def registered_ghost(spec: str) -> GhostPolicy | None:
    """The kernel ghost named ``spec``, or None."""
    return _registered_ghosts.get(spec)


_maze_arrays: weakref.WeakKeyDictionary[Layout, tuple[np.ndarray, np.ndarray]] = weakref.WeakKeyDictionary()


def maze_arrays(layout: Layout) -> tuple[np.ndarray, np.ndarray]:
    """The layout's ``distance`` and ``nearest`` tables, built once per layout
    (equal to the kernel's :class:`~pacsim.fast.maze_arrays.Tables`: a test holds them so)."""
    arrays = _maze_arrays.get(layout)
    if arrays is None:
        distance = np.array([layout.distances_from(cell) for cell in range(layout.num_cells)], np.int32)
        arrays = distance, np.argsort(distance, axis=1, kind="stable").astype(np.int32)
        _maze_arrays[layout] = arrays
    return arrays


def view_of(state: GameState) -> View:
    """``state`` as a :class:`View` (what the Python search passes)."""
    distance, nearest = maze_arrays(state.layout)
    words = (state.layout.num_cells + WORD_BITS - 1) // WORD_BITS
    return View(state.pacman, np.array(state.ghosts, np.int64), np.array(state.directions, np.int64),
                np.array(state.scared, np.int64), _words(state.food, words), _words(state.capsules, words),
                state.food.bit_count(), state.score, state.turn, distance, nearest)


def _words(mask: int, words: int) -> np.ndarray:
    return np.array([(mask >> (word * WORD_BITS)) & 0xFFFFFFFF for word in range(words)], np.int64)


def python_evaluation(function: Callable[[View], float]) -> Callable[[GameState], float]:
    """``function`` as an evaluation of a ``GameState`` (the Python search's)."""
    def evaluate(state: GameState) -> float:
        return float(function(view_of(state)))

    evaluate.__doc__ = function.__doc__
    return evaluate


def python_bounds(function: Callable[[View], float]) -> Callable[[GameState, int], tuple[float, float]] | None:
    """The ``bounds`` of kernel evaluation ``function`` (a function of a
    view) as bounds of a ``GameState`` (the Python search's), or None."""
    bounds: ViewBounds | None = getattr(function, "bounds", None)
    if bounds is None:
        return None

    def state_bounds(state: GameState, levels: int) -> tuple[float, float]:
        low, high = bounds(view_of(state), levels)
        return float(low), float(high)

    state_bounds.__doc__ = bounds.__doc__
    return state_bounds
