"""A user's own evaluation that the kernel compiles: ``eval=examples/kernel_eval.py:hungry``.

Run it:

    pacsim play --pacman "expectimax?depth=3&eval=examples/kernel_eval.py:hungry" --ghosts random --games 5
    pacsim play --pacman "expectimax?depth=3&eval=examples/kernel_eval.py:hungry&algorithm=star2&table=100000" --ghosts random --games 5

The function takes a view of the state (``pacsim.fast.view.View``: plain
ints and numpy arrays) and returns a number on the score's scale.  pacsim
compiles it with numba and calls it at every leaf of the kernel's search;
the Python search calls the very same function, so both agree exactly.
Write it as plain loops over the arrays: numba compiles those, not
arbitrary Python (no dicts of objects, no GameState methods).
``hungry_bounds`` are its bounds, a function of the view too, which Star1
and Star2 need (the kernel compiles them as well).
"""

from pacsim import kernel_evaluation
from pacsim.engine.state import FOOD_SCORE, GHOST_SCORE, LOSS_SCORE, TIME_PENALTY, WIN_SCORE

DANGER = 200.0
"""Score points a non-scared ghost one step away costs (halving with each further step)."""
DANGER_REACH = 4
UNREACHABLE = 1 << 20


def hungry_bounds(view, levels):
    """Numbers no value of ``hungry`` (or score of a finished game) within
    ``levels`` levels below ``view`` can leave.  In ``m`` Pacman moves the
    score falls by at most a point a move and a death per ghost, and rises
    by at most 9 a move that eats, the win if the food can all be eaten, and
    200 per ghost eaten (each ghost scared now, and every ghost once more
    per capsule eaten); ``hungry`` subtracts at most twice the longest
    distance and every ghost's danger from the score."""
    ghosts = view.ghosts.shape[0]
    agents = ghosts + 1
    first = (agents - view.turn) % agents  # levels before Pacman's next move
    moves = 0 if levels <= first else 1 + (levels - 1 - first) // agents
    scared = 0
    for ghost in range(ghosts):
        if view.scared[ghost] != 0:
            scared += 1
    capsules = 0
    for word in range(view.capsules.shape[0]):
        bits = view.capsules[word]
        while bits:
            capsules += bits & 1
            bits >>= 1
    longest = view.distance.shape[0] - 1
    low = view.score - moves * TIME_PENALTY - max(LOSS_SCORE * ghosts, 2.0 * longest + DANGER * ghosts)
    high = view.score + (FOOD_SCORE - TIME_PENALTY) * min(view.food_left, moves)
    if view.food_left <= moves:
        high += WIN_SCORE
    high += GHOST_SCORE * (scared + ghosts * min(capsules, moves))
    return float(low), float(high)


@kernel_evaluation(bounds=hungry_bounds)
def hungry(view):
    """The score, minus twice the distance to the nearest food, minus danger
    from nearby ghosts that are not scared."""
    value = float(view.score)
    order = view.nearest[view.pacman]
    for rank in range(order.shape[0]):
        cell = order[rank]
        if (view.food[cell >> 5] >> (cell & 31)) & 1:
            distance = view.distance[view.pacman, cell]
            if distance < UNREACHABLE:
                value -= 2.0 * distance
            break
    for ghost in range(view.ghosts.shape[0]):
        between = view.distance[view.pacman, view.ghosts[ghost]]
        if view.scared[ghost] == 0 and between <= DANGER_REACH:
            value -= DANGER / (1 << max(between - 1, 0))
    return value


@kernel_evaluation
def not_compilable(view):
    """numba cannot compile this one (a dict of strings): it runs in Python,
    and pacsim says so in one line."""
    names = {"score": view.score}
    return float(names["score"] + len(str(view.pacman)))
