"""The built-in evaluations' numbers and arithmetic, written once for both backends.

As in :mod:`pacsim.fast.policies`, each function is plain Python over ints
and indexable rows: :mod:`pacsim.agents.evaluation` and ``ChaseGame`` call
them as they are, the kernel (``kernel.evaluate``, ``utility``,
``star.leaf_bounds``) compiles them (:func:`~pacsim.fast.policies.compile_rules`).
Each backend only reads the counts from its own state (big-int bitmasks
or 32-bit words): the nearest food, the scared ghosts, the capsules in reach.
Importing this module needs neither numba nor numpy.
"""

from __future__ import annotations

from pacsim.engine.layout import UNREACHABLE
from pacsim.engine.state import FOOD_SCORE, GHOST_SCORE, LOSS_SCORE, LOST, TIME_PENALTY, WIN_SCORE

TROUBLE = 300.0
"""Score points a non-scared ghost next to Pacman costs: a large share of
the 500 a death costs, but less, so a risky shortcut can still be worth it."""
TROUBLE_REACH = 3
"""Maze distance beyond which a ghost is no trouble; halves per step."""
HUNT = 100.0
"""Score points for standing next to a scared ghost that can still be caught."""
CAUGHT_VALUE = 1000
"""The chasing ghosts' payoff for a finished game: Pacman caught (else its negative)."""


def careful_value(score, nearest_food, from_pacman, ghosts, scared, count):
    """``careful``: the score, minus the moves to the nearest food
    (UNREACHABLE: none in reach), minus a penalty that grows as a non-scared
    ghost comes near, plus a bonus for closing in on a scared ghost that can
    still be caught.  ``from_pacman[cell]`` is a maze distance, ``ghosts``
    and ``scared`` the cells and timers of the ``count`` ghosts."""
    value = float(score)
    if nearest_food < UNREACHABLE:  # food Pacman cannot reach does not pull him
        value -= nearest_food
    for index in range(count):
        distance = from_pacman[ghosts[index]]
        timer = scared[index]
        if timer:
            if distance < timer:
                value += HUNT / (1 + distance)
        elif distance <= TROUBLE_REACH:
            value -= TROUBLE / (1 << max(distance - 1, 0))
    return value


def pacman_moves_within(levels, turn, num_ghosts):
    """The most Pacman moves within ``levels`` agent moves from agent
    ``turn``'s (a slippery Pacman's chance levels only overestimate it)."""
    agents = num_ghosts + 1
    first = (agents - turn) % agents
    return 0 if levels <= first else 1 + (levels - 1 - first) // agents


def score_range(score, num_ghosts, moves, food, scared_now, capsules_reached):
    """``score_bounds`` given the counts: within ``moves`` Pacman moves the
    score falls by at most ``moves`` and a death (500 per ghost on his cell:
    CS188 counts each), and rises by at most 9 a move that eats, plus the
    win if all ``food`` can be eaten, plus 200 for each ghost that can be
    eaten: the ``scared_now`` once, and every ghost once more for each of the
    ``capsules_reached`` (the capsules within ``moves`` steps).  Returns
    ``(low, high, huntable)``, huntable the ghosts that may be scared below."""
    capsules_reached = min(capsules_reached, moves)
    low = score - moves * TIME_PENALTY - LOSS_SCORE * num_ghosts
    high = score + (FOOD_SCORE - TIME_PENALTY) * min(food, moves) + (WIN_SCORE if food <= moves else 0)
    high += GHOST_SCORE * (scared_now + num_ghosts * capsules_reached)
    return float(low), float(high), num_ghosts if capsules_reached else scared_now


def careful_range(low, high, huntable, num_ghosts, cells):
    """``careful_bounds``: the score's widened by what ``careful`` adds: at
    most every ghost's trouble and the longest distance in ``cells`` cells
    below, every ``huntable`` ghost's hunting bonus above."""
    return low - TROUBLE * num_ghosts - (cells - 1), high + HUNT * huntable


def chase_value(between, timer):
    """The chasing ghost's evaluation: seek Pacman, ``between`` steps away; flee while scared."""
    return float(between if timer else -between)


def chase_utility(status):
    """The chasing ghosts' payoff of a finished game of ``status``."""
    return float(CAUGHT_VALUE if status == LOST else -CAUGHT_VALUE)


RULES = (careful_value, pacman_moves_within, score_range, careful_range, chase_value, chase_utility)
"""Every function here (none calls another)."""
