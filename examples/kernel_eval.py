"""A user's own evaluation that the kernel compiles: ``eval=examples/kernel_eval.py:hungry``.

Run it:

    pacsim play --pacman "expectimax?depth=3&eval=examples/kernel_eval.py:hungry" --ghosts random --games 5

The function takes a view of the state (``pacsim.fast.view.View``: plain
ints and numpy arrays) and returns a number on the score's scale.  pacsim
compiles it with numba and calls it at every leaf of the kernel's search;
the Python search calls the very same function, so both agree exactly.
Write it as plain loops over the arrays: numba compiles those, not
arbitrary Python (no dicts of objects, no GameState methods).
"""

from pacsim import kernel_evaluation

DANGER = 200.0
"""Score points a non-scared ghost one step away costs (halving with each further step)."""
DANGER_REACH = 4
UNREACHABLE = 1 << 20


@kernel_evaluation
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
