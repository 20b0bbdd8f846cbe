"""Evaluation functions: a number for a non-terminal state, on the game's score scale.

Expectimax averages values, so only an evaluation whose numbers track the
expected outcome (an affine image of it, not just a monotone one) makes its
averages mean anything (seed 002).  Both evaluations here are the score plus
terms measured in score points.

Each evaluation also declares ``bounds(state, levels)``: numbers no value
seen by a search of ``levels`` levels below ``state`` can leave, which
Star1/Star2 pruning needs.  They are cheap enough to compute at every chance
node, and the searches do: bounds local to a node are far tighter than one
pair for the whole tree.  A plugin evaluation (``my_eval.py:fn``,
``mypkg.mod:fn``, an installed name) is a callable ``fn(state) -> float`` on
a :class:`~pacsim.engine.GameState`; it has no bounds unless it carries a
``bounds`` attribute of the same signature as ``score_bounds``.  A plugin
marked with :func:`pacsim.fast.view.kernel_evaluation` is a function of a
:class:`~pacsim.fast.view.View` instead, which the kernel compiles, and so
are its bounds (``bounds(view, levels)``).
"""

from __future__ import annotations

import math
import numbers
import reprlib
from collections.abc import Callable
from operator import attrgetter

from pacsim.agents import plugins
from pacsim.engine import GameState
from pacsim.engine.layout import UNREACHABLE
from pacsim.errors import AgentError
from pacsim.fast.evaluations import careful_range, careful_value, pacman_moves_within, score_range
from pacsim.fast.view import is_kernel_evaluation, is_kernel_ghost, python_bounds, python_evaluation, register, registered

Evaluation = Callable[[GameState], float]


score: Evaluation = attrgetter("score")
"""The game score: CS188's default evaluation (a C-level getter: it runs at every leaf)."""


def score_bounds(state: GameState, levels: int) -> tuple[float, float]:
    """Bounds on every score a search of ``levels`` levels below ``state`` can
    reach (:func:`pacsim.fast.evaluations.score_range` says how)."""
    low, high, _ = _score_range(state, levels)
    return low, high


def _score_range(state: GameState, levels: int) -> tuple[float, float, int]:
    """``score_bounds`` and the number of ghosts that may be scared below, in
    one pass: the searches ask for them at chance nodes."""
    layout, pacman, ghosts, _, scared, food, capsules, score, turn, _ = state
    moves = pacman_moves_within(levels, turn, len(ghosts))
    capsules_reached = 0
    if capsules and moves:
        from_pacman = layout.distances_from(pacman)
        while capsules:
            bit = capsules & -capsules
            if from_pacman[bit.bit_length() - 1] <= moves:
                capsules_reached += 1
            capsules ^= bit
    return score_range(score, len(ghosts), moves, food.bit_count(), len(scared) - scared.count(0), capsules_reached)


def careful(state: GameState) -> float:
    """Avoids trouble (:func:`pacsim.fast.evaluations.careful_value`): the
    score, less the moves to the nearest food, and ghost terms."""
    from_pacman = state.layout.distances_from(state.pacman)
    food = state.food
    nearest = UNREACHABLE
    while food:
        low = food & -food
        distance = from_pacman[low.bit_length() - 1]
        if distance < nearest:
            nearest = distance
        food ^= low
    return careful_value(state.score, nearest, from_pacman, state.ghosts, state.scared, len(state.ghosts))


def careful_bounds(state: GameState, levels: int) -> tuple[float, float]:
    """The score's bounds, widened by what ``careful`` adds
    (:func:`pacsim.fast.evaluations.careful_range`)."""
    low, high, huntable = _score_range(state, levels)
    return careful_range(low, high, huntable, len(state.ghosts), state.layout.num_cells)


Bounds = Callable[[GameState, int], tuple[float, float]]
"""``bounds(state, levels) -> (low, high)``: see the module docstring."""

EVALUATIONS: dict[str, tuple[Evaluation, Bounds | None]] = {
    "score": (score, score_bounds),
    "careful": (careful, careful_bounds),
}


def get_evaluation(spec: str) -> tuple[Evaluation, Bounds | None]:
    """An evaluation and its bounds by name, by ``file.py:function`` or
    ``module:function``, or by a name installed under ``pacsim.evaluations``.

    A plugin evaluation is checked at every call: a NaN, an infinity (or
    None) ends the game as an error naming it, rather than steering the
    search silently.  An :class:`AgentError` blames the ``eval`` option."""
    try:
        return _evaluation(spec)
    except AgentError as error:
        raise AgentError(str(error), option="eval") from None


def evaluation_name(agent: object, spec: str, evaluate: object) -> str:
    """``spec`` when ``agent`` evaluates with that built-in evaluation; else
    a name no backend but Python knows (the agent's own ``evaluate``): what a
    kernel request names the evaluation by."""
    built_in = EVALUATIONS.get(spec)
    own = registered(spec)
    if (built_in is not None and evaluate is not built_in[0]) or (own is not None and _kernel_function(evaluate) is not own):
        return f"{type(agent).__name__}.evaluate"
    return spec


def _kernel_function(evaluate: object) -> object:
    """The kernel evaluation (:mod:`pacsim.fast.view`) ``evaluate`` runs, or None."""
    return getattr(evaluate, "kernel_function", None)


def _evaluation(spec: str) -> tuple[Evaluation, Bounds | None]:
    if spec in EVALUATIONS:
        return EVALUATIONS[spec]
    target, colon, name = spec.rpartition(":")
    if colon and target and name:
        function = plugins.load_object(target, name, f"evaluation {spec!r}")
    else:
        function = plugins.load_entry_point(plugins.EVALUATION_GROUP, spec, f"evaluation {spec!r}")
        if function is None:
            installed = plugins.entry_point_names(plugins.EVALUATION_GROUP)
            known = ", ".join([*EVALUATIONS, *installed])
            raise AgentError(f"unknown evaluation {spec!r} (known: {known}, or file.py:function, module:function)")
    if not callable(function):
        raise AgentError(f"evaluation {spec!r} is not callable")
    if is_kernel_ghost(function):
        raise AgentError(f"evaluation {spec!r} is a ghost policy (@pacsim.kernel_ghost); name it as a ghost (-g) "
                         "or as a Pacman's model=")
    if is_kernel_evaluation(function):  # a function of a View, which the kernel may compile
        register(spec, function)
        evaluate = _checked(python_evaluation(function), spec)
        evaluate.kernel_function = function  # type: ignore[attr-defined]  # what evaluation_name checks
        return evaluate, python_bounds(function)  # its bounds too are a function of a View
    return _checked(function, spec), getattr(function, "bounds", None)


def _checked(function: Callable[[GameState], float], spec: str) -> Evaluation:
    """``function`` refusing what is not a finite number (``spec`` names the user's function)."""

    def evaluate(state: GameState) -> float:
        value = function(state)
        # Averages of +inf and -inf are NaN: an infinity is refused as NaN is.  A string or a list would
        # fail deep in the search (a TypeError at a line of pacsim's): said here, naming the function.
        if (type(value) not in (float, int) and not isinstance(value, numbers.Real)) or value != value \
                or value == math.inf or value == -math.inf:
            kind = "" if isinstance(value, numbers.Real) else f" (a {type(value).__name__})"
            raise AgentError(f"evaluation {spec!r} returned {reprlib.repr(value)}{kind} at {state!r}; "
                             "it must be a finite number")
        return value

    evaluate.__doc__ = function.__doc__
    return evaluate
