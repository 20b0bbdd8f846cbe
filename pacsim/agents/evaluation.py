"""Evaluation functions: a number for a non-terminal state, on the game's score scale.

Expectimax averages values, so only an evaluation whose numbers track the
expected outcome (an affine image of it, not just a monotone one) makes its
averages mean anything (seed 002).  Both evaluations here are the score plus
terms measured in score points.

Each evaluation also declares ``bounds(root, levels)``: numbers no value seen
by a search of ``levels`` levels below ``root`` can leave, which Star1/Star2
pruning needs.  An evaluation given by dotted path (``mypkg.mod:fn``) is a
plain callable; it has no bounds unless it carries a ``bounds`` attribute.
"""

from __future__ import annotations

import importlib
from operator import attrgetter
from typing import Callable

from pacsim.engine import GameState
from pacsim.engine.layout import UNREACHABLE
from pacsim.engine.state import FOOD_SCORE, GHOST_SCORE, LOSS_SCORE, TIME_PENALTY, WIN_SCORE
from pacsim.errors import AgentError

Evaluation = Callable[[GameState], float]

TROUBLE = 300.0
"""Score points a non-scared ghost next to Pacman costs: a large share of
the 500 a death costs, but less, so a risky shortcut can still be worth it."""
TROUBLE_REACH = 3
"""Maze distance beyond which a ghost is no trouble; halves per step."""
HUNT = 100.0
"""Score points for standing next to a scared ghost that can still be caught."""


score: Evaluation = attrgetter("score")
"""The game score: CS188's default evaluation (a C-level getter: it runs at every leaf)."""


def score_bounds(root: GameState, levels: int) -> tuple[float, float]:
    """Pacman moves at most once a round: per move the score falls by at most
    the time penalty, and rises by at most a food; a win adds 500 only if the
    food can all be eaten in time; a death costs 500 per ghost on his cell
    (CS188 counts each); scared ghosts can be eaten only while capsules or
    scared ghosts remain."""
    rounds = -(-levels // root.num_agents) + 1  # ceil, plus the round in progress
    ghosts = len(root.ghosts)
    food = root.food_count
    low = root.score - rounds * TIME_PENALTY - LOSS_SCORE * ghosts
    high = root.score + FOOD_SCORE * min(food, rounds) + (WIN_SCORE if food <= rounds else 0)
    if root.capsules or any(root.scared):
        high += GHOST_SCORE * ghosts * rounds
    return float(low), float(high)


def careful(state: GameState) -> float:
    """Avoids trouble: the score, minus the moves to the nearest food, minus a
    penalty that grows as a non-scared ghost comes near, plus a bonus for
    closing in on a scared ghost that can still be caught."""
    layout = state.layout
    from_pacman = layout.distances_from(state.pacman)
    value = state.score
    food = state.food
    nearest = UNREACHABLE
    while food:
        low = food & -food
        distance = from_pacman[low.bit_length() - 1]
        if distance < nearest:
            nearest = distance
        food ^= low
    if nearest < UNREACHABLE:  # food Pacman cannot reach does not pull him
        value -= nearest
    for cell, timer in zip(state.ghosts, state.scared):
        distance = from_pacman[cell]
        if timer:
            if distance < timer:
                value += HUNT / (1 + distance)
        elif distance <= TROUBLE_REACH:
            value -= TROUBLE / (1 << max(distance - 1, 0))
    return value


def careful_bounds(root: GameState, levels: int) -> tuple[float, float]:
    low, high = score_bounds(root, levels)
    ghosts = len(root.ghosts)
    longest = max(d for d in root.layout.distances_from(root.pacman) if d < UNREACHABLE)
    # The nearest food is never farther than twice the root's eccentricity.
    return low - TROUBLE * ghosts - 2 * longest, high + HUNT * ghosts


EVALUATIONS: dict[str, tuple[Evaluation, Callable[[GameState, int], tuple[float, float]] | None]] = {
    "score": (score, score_bounds),
    "careful": (careful, careful_bounds),
}


def get_evaluation(name: str) -> tuple[Evaluation, Callable[[GameState, int], tuple[float, float]] | None]:
    """An evaluation and its bounds by name, or by dotted path ``module:function``."""
    if name in EVALUATIONS:
        return EVALUATIONS[name]
    module_name, colon, function_name = name.partition(":")
    if not colon:
        raise AgentError(f"unknown evaluation {name!r} (known: {', '.join(EVALUATIONS)}, or module:function)")
    try:
        function = getattr(importlib.import_module(module_name), function_name)
    except (ImportError, AttributeError) as error:
        raise AgentError(f"cannot load evaluation {name!r}: {error}") from None
    if not callable(function):
        raise AgentError(f"evaluation {name!r} is not callable")
    return function, getattr(function, "bounds", None)
