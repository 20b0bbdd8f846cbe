"""Users' kernel evaluations and ghosts, compiled (see :mod:`pacsim.fast.view`).

:func:`compiled` compiles a marked function with ``numba.njit`` for the
arguments the kernel passes (a :class:`~pacsim.fast.view.View`; a ghost's
view, :class:`~pacsim.fast.view.Moves` and ``out``: :func:`ghost_arguments`),
once per function and process, or says in one line why numba cannot: the
search or game then runs in Python.  :func:`search_root` is the kernel's
plain search (:func:`pacsim.fast.kernel.search_root` and its
``node_value``) compiled again with that evaluation in place of the
built-in ``evaluate``, and/or with
:func:`pacsim.fast.kernel.own_chance_probabilities` in place of
``chance_probabilities`` and that ghost in place of its placeholder
:func:`pacsim.fast.kernel.own_ghost_probabilities` (the chance model
``GhostKind.OWN``): the same code, so the same node order, counts and
float operations.  :func:`play_slice` is the whole-game loop so compiled
around a Pacman's own evaluation and model and the ghosts' own policy.

numba's own cache cannot keep those copies (it keys a function on its
file's time stamp, and a copy lives in the kernel's file whatever
evaluation it was compiled around), so the entry points a search or a
game calls are kept by :mod:`pacsim.fast.keyed_cache` instead, stamped
with everything their machine code is built from: compiled once per
version of the user's functions, pacsim and numba (5 to 15 seconds on one
core; ``pacsim bench``'s ``own`` group measures it), then loaded in a
fraction of a second by every later process and worker.  The built-in
searches are not touched and keep numba's cache.

Every copy and every function made here is named by what it is made of
(:func:`content_name`), never by a count kept per process: two functions
named alike in one process are then the same code, so numba's linking of
one body per name (numba issue #10486) cannot mix two of them up, whether
each was compiled here or loaded from the disk.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import cache
from types import FunctionType
from typing import Any

import numpy as np
from numba import njit, typeof
from numba.core.errors import NumbaError

from pacsim.engine import parse_layout
from pacsim.engine.state import initial_state
from pacsim.fast import gameloop, kernel
from pacsim.fast.cache_folder import user_digest
from pacsim.fast.kernel import FIRST_GHOST, FOOD_LEFT, NUM_GHOSTS, PACMAN, SCORE, TURN, WORDS
from pacsim.fast.keyed_cache import keep_on_disk
from pacsim.fast.policies import first_bad_probability
from pacsim.fast.view import MOVE_SLOTS, GhostPolicy, Moves, View, view_of

WITHOUT_REFERENCE_COUNTS: dict[str, Any] = {"_nrt": False}
"""numba's private option the kernel's searches are compiled with
(:func:`pacsim.fast.kernel.node_value` says why); what they call is compiled so too."""


def state_view(distance: Any, nearest: Any, settings: Any, state: Any) -> View:
    """``state`` (a kernel row, :mod:`pacsim.fast.maze_arrays`) as a
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
def moves_type() -> Any:
    """numba's type of the :class:`~pacsim.fast.view.Moves` the kernel passes a ghost."""
    empty = np.zeros(MOVE_SLOTS, np.int64)
    return typeof(Moves(1, empty, empty))


@cache
def ghost_arguments() -> tuple[Any, ...]:
    """numba's types of a :func:`~pacsim.fast.view.kernel_ghost`'s arguments: view, moves, out."""
    return view_type(), moves_type(), typeof(np.zeros(MOVE_SLOTS, np.float64))


@cache
def compiled(function: Callable[..., Any], arguments: tuple[Any, ...] | None = None) -> tuple[Any, str | None]:
    """``(dispatcher, None)``: ``function`` compiled for ``arguments``
    (numba types; default the kernel's view alone, an evaluation's: a
    ghost's are :func:`ghost_arguments`); or ``(None, reason)`` when numba
    cannot compile it (reason: one line naming the function and numba's
    first line of error).  Compiled without numba's reference counting, as
    the searches that call it are: a function that allocates an array does
    not compile, and runs in Python."""
    dispatcher = keep_on_disk(njit(**WITHOUT_REFERENCE_COUNTS)(function), user_digest((function,)))
    try:
        dispatcher.compile(arguments or (view_type(),))
    except NumbaError as error:
        return None, numba_reason(function, error)
    return dispatcher, None


def _first_line(message: str) -> str:
    """numba's first line that says what went wrong (not which pipeline failed)."""
    if "NRT required but not enabled" in message:
        return "it makes new arrays, strings, lists or dicts, which the kernel's searches cannot"
    lines = (line.strip() for line in message.splitlines())
    return next((line for line in lines if line and not line.startswith("Failed in ")), "")


def _compiled_or_raise(function: Callable[..., Any], arguments: tuple[Any, ...] | None = None) -> Any:
    dispatcher, reason = compiled(function, arguments)
    if dispatcher is None:
        raise ValueError(f"pacsim.fast.own: {reason}")
    return dispatcher


@cache
def own_ghost_probabilities(policy: GhostPolicy) -> Any:
    """:func:`pacsim.fast.kernel.own_ghost_probabilities` for ``policy``
    (a :func:`~pacsim.fast.view.kernel_ghost`, compiled): its moves' entries
    of ``out`` NaN, the policy called on the view and the moves, and
    :func:`~pacsim.fast.policies.first_bad_probability`'s verdict returned:
    what ``KernelGhost.distribution`` does in Python."""
    function = _compiled_or_raise(policy, ghost_arguments())
    view = inline_state_view()

    def probabilities(maze: Any, settings: Any, state: Any, count: int, actions: Any, targets: Any, out: Any) -> int:
        for index in range(count):
            out[index] = np.nan
        function(view(maze.distance, maze.nearest, settings, state), Moves(count, actions, targets), out)
        return first_bad_probability(out, count)

    content_name(probabilities, policy)
    return njit(**WITHOUT_REFERENCE_COUNTS)(probabilities)


@cache
def search_root(function: Callable[[View], float] | None, ghost: GhostPolicy | None = None) -> Any:
    """:func:`pacsim.fast.kernel.search_root` with ``function`` (which
    :func:`compiled` compiles) as its evaluation, and ``ghost`` as the
    chance nodes' own ghost model (``GhostKind.OWN``), compiled apart and
    uncached; either may be None (the built-in one)."""
    node_replaced: dict[str, Any] = {}
    root_replaced: dict[str, Any] = {}
    if function is not None:
        leaf = leaf_evaluation(function)
        node_replaced["evaluate"] = leaf
        root_replaced["root_leaf_value"] = uncached(kernel.root_leaf_value, {"evaluate": leaf})
    if ghost is not None:  # the model is this ghost at every chance node
        node_replaced["chance_probabilities"] = uncached(kernel.own_chance_probabilities,
                                                         {"own_ghost_probabilities": own_ghost_probabilities(ghost)})
    entry = uncached(kernel.search_root, {"node_value": uncached(kernel.node_value, node_replaced), **root_replaced})
    return kept(entry, "the kernel's search", function, ghost)


@cache
def play_slice(function: Callable[[View], float] | None, model: GhostPolicy | None = None,
               ghost: GhostPolicy | None = None) -> Any:
    """:func:`pacsim.fast.gameloop.play_slice` whose Pacman searches with
    ``function`` and the chance model ``model`` (:func:`search_root`), and
    whose own ghosts (``GhostKind.OWN``) play ``ghost``; each may be None.
    Only what differs is copied: a copy of the Pacman's search (an own
    evaluation or model) doubles the seconds the loop takes to compile.
    One own ghost policy a game: a game whose ghosts play two is played in
    Python (``pacsim.agents.whole_game``).  The ghosts' own
    searches (the adversarial ghost's chase) keep the built-in ones."""
    replaced: dict[str, Any] = {}
    if function is not None or model is not None:
        search = uncached(gameloop.search_position, {"search_root": search_root(function, model)})
        replaced["pacman_move"] = uncached(gameloop.pacman_move, {"search_position": search})
    if ghost is not None:
        replaced["ghost_move"] = uncached(gameloop.ghost_move, {"own_ghost_probabilities": own_ghost_probabilities(ghost)})
    return kept(uncached(gameloop.play_slice, replaced), "the kernel's whole-game loop", function, model, ghost)


def kept(entry: Any, what: str, *functions: Any) -> Any:
    """``entry`` (a copy Python calls) kept on disk, stamped with the
    user's ``functions`` (None: a built-in one) and said as ``what``."""
    names = ", ".join(f"{function.__qualname__}()" for function in functions if function is not None)
    entry.py_func.__pacsim_description__ = f"{what} around {names}"
    return keep_on_disk(entry, user_digest(functions))


def content_name(function: Any, *parts: Any) -> Any:
    """Name ``function`` (a Python function numba will compile) by
    ``parts``, the functions it is made of: ``name__DIGEST``.  Two functions
    so named alike in one process are made of the same code (a process
    reads one version of each file; plugin modules are named by their
    content), so numba may link either body for both."""
    identities = "|".join(_identity(part) for part in parts)
    digest = hashlib.sha256(f"{function.__module__}.{function.__qualname__}|{identities}".encode()).hexdigest()[:20]
    function.__qualname__ = f"{function.__qualname__}__{digest}"
    return function


def _identity(part: Any) -> str:
    """What names ``part`` in a copy's name: a function's module and qualified name (a copy's carries its digest)."""
    function = getattr(part, "py_func", part)
    if isinstance(function, FunctionType):
        return f"{function.__module__}.{function.__qualname__}"
    return repr(part)


def uncached(dispatcher: Any, replaced: dict[str, Any]) -> Any:
    """A copy of a compiled kernel function, with its options but without
    numba's cache, whose globals ``replaced`` names differently.

    The copy gets a qualified name of its own, made of what it is made of
    (:func:`content_name`): numba names a function's machine code by
    module, qualified name, argument types and a number counted per
    process, and keeps one body per name when it links code together
    (``linkonce_odr``).  The originals come from numba's cache, numbered
    by the process that compiled them; a copy numbered alike in this one
    would otherwise take the original's place (or the reverse) in every
    function that links both, as the whole-game loop does: the built-in
    Pacman then searched with the copy's own ghost model (numba issue
    #10486).  A copy is never named as its original, and two copies are
    named alike only when made of the same functions."""
    function = dispatcher.py_func
    copy = FunctionType(function.__code__, {**function.__globals__, **replaced}, function.__name__,
                        function.__defaults__, function.__closure__)
    copy.__qualname__ = function.__qualname__
    content_name(copy, *(f"{name}={_identity(value)}" for name, value in sorted(replaced.items())))
    copy.__doc__ = function.__doc__
    options = {name: value for name, value in dispatcher.targetoptions.items() if name not in ("cache", "nopython")}
    return njit(**options)(copy)


# -- also used by the copies of the other searches (pacsim.fast.own_searches, pacsim.fast.mcts)

@cache
def inline_state_view() -> Any:
    """:func:`state_view` compiled to be inlined where a search's copy builds a view."""
    return njit(inline="always", **WITHOUT_REFERENCE_COUNTS)(state_view)


@cache
def leaf_evaluation(function: Callable[[View], float]) -> Any:
    """``function`` (which :func:`compiled` compiles) as the kernel's
    ``evaluate(distance, nearest, settings, state)``, inlined into the copy
    of a search that replaces its ``evaluate`` global with it."""
    evaluation = _compiled_or_raise(function)
    view = inline_state_view()

    def evaluate(distance: Any, nearest: Any, settings: Any, state: Any) -> float:
        return float(evaluation(view(distance, nearest, settings, state)))

    content_name(evaluate, function)
    return njit(inline="always", **WITHOUT_REFERENCE_COUNTS)(evaluate)


def numba_reason(function: Callable[..., Any], error: NumbaError) -> str:
    """Why numba cannot compile ``function``, in one line (as :func:`compiled` says it)."""
    name = getattr(function, "__qualname__", repr(function))
    return f"numba cannot compile {name}(): {_first_line(str(error)) or type(error).__name__}"
