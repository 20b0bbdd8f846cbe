"""A user's own ghost that the kernel compiles: ``-g examples/kernel_ghost.py:cutter``.

Run it:

    pacsim play -p "expectimax:depth=2,eval=careful" -g examples/kernel_ghost.py:cutter -n 5 -q
    pacsim play -p "expectimax:depth=2,model=examples/kernel_ghost.py:cutter" -g examples/kernel_ghost.py:cutter -n 5 -q

The function gets a view of the state (``pacsim.fast.view.View``), the
ghost's legal moves (``pacsim.fast.view.Moves``: ``count``, ``actions``,
``targets``) and ``out``, and writes the probability of each move into
``out``.  The ghost to move is ``view.turn``, on ``view.ghosts[view.turn - 1]``.
pacsim compiles it with numba for whole games and for the chance nodes of a
Pacman that models it; the Python ghost calls the very same function, so
both agree exactly.  Write it as plain loops over the arrays, making no new
arrays: numba compiles those, not arbitrary Python.
"""

from pacsim import kernel_ghost

FOCUS = 0.75
"""Probability mass on the moves the ghost prefers; the rest is spread over all its moves."""
AHEAD = 3
"""How many moves ahead of Pacman the ghost aims."""


@kernel_ghost
def cutter(view, moves, out):
    """Keeps its distance while scared; otherwise heads to cut Pacman off:
    for the cell, ``AHEAD`` moves from Pacman, that is nearest to the ghost
    (walking out from Pacman's cell by distance: the view's ``nearest``)."""
    ghost = view.turn - 1
    pacman = view.pacman
    scared = view.scared[ghost] > 0
    aim = pacman
    if not scared:
        order = view.nearest[pacman]
        best = 1 << 30
        for rank in range(order.shape[0]):
            cell = order[rank]
            away = view.distance[pacman, cell]
            if away > AHEAD:
                break
            if away == AHEAD and view.distance[view.ghosts[ghost], cell] < best:
                best = view.distance[view.ghosts[ghost], cell]
                aim = cell
    # Smaller is better: nearer the aim or, scared, farther from Pacman.
    best_key = 1 << 30
    for index in range(moves.count):
        target = moves.targets[index]
        key = -view.distance[pacman, target] if scared else view.distance[aim, target]
        best_key = min(best_key, key)
    preferred = 0
    for index in range(moves.count):
        target = moves.targets[index]
        key = -view.distance[pacman, target] if scared else view.distance[aim, target]
        if key == best_key:
            preferred += 1
    spread = (1.0 - FOCUS) / moves.count
    for index in range(moves.count):
        target = moves.targets[index]
        key = -view.distance[pacman, target] if scared else view.distance[aim, target]
        out[index] = spread + (FOCUS / preferred if key == best_key else 0.0)


@kernel_ghost
def wanders(view, moves, out):
    """numba cannot compile this one (it builds a list): it plays in
    Python, and pacsim says so in one line."""
    weights = [1.0 for _ in range(moves.count)]
    for index in range(moves.count):
        out[index] = weights[index] / len(weights)


@kernel_ghost
def careless(view, moves, out):
    """Writes probabilities that sum to 0.6 once the score reaches 20: the
    game ends as an error naming it, in Python and in the kernel alike."""
    for index in range(moves.count):
        out[index] = (1.0 if view.score < 20 else 0.6) / moves.count
