"""The built-in evaluations and their bounds on positions worked by hand.

Both backends call the same arithmetic (pacsim.fast.evaluations), so their
agreement tests cannot catch a slip in it: these values are worked out
here, on a corridor where every maze distance is a column difference, and
checked against the Python evaluation and, with numba, the kernel's (which
reads its own state row: the nearest food by its cells-by-distance order,
the capsules in reach by its 32-bit words).
"""

from __future__ import annotations

import pytest
from optional import needed

from pacsim.agents.evaluation import careful, careful_bounds, score_bounds
from pacsim.agents.ghosts import ChaseGame
from pacsim.engine import LOST, initial_state, parse_layout

# Columns 1 to 7: Pacman on 1, food on 2, 3, 5 and 7, the ghost on 4, a capsule on 6.
CORRIDOR = "%%%%%%%%%\n%P..G.o.%\n%%%%%%%%%\n"
CELLS = 7


@pytest.fixture(scope="module")
def start():
    return initial_state(parse_layout(CORRIDOR))


def cell(state, column):
    return state.layout.cells.index((1, column))


# (the ghost's column, its scared timer) -> careful's value at score 0, food 1 step away.
CAREFUL_BY_HAND = {
    (4, 0): -1 - 300 / 4,  # 3 steps away: trouble halves per step beyond the first
    (2, 0): -1 - 300.0,  # next to Pacman: the whole trouble
    (5, 0): -1.0,  # 4 steps: beyond TROUBLE_REACH
    (4, 5): -1 + 100 / 4,  # scared, catchable in time: the hunting bonus
    (4, 3): -1.0,  # scared, but the scare ends before Pacman gets there
}


def placed(start, column, timer):
    return start._replace(ghosts=(cell(start, column),), scared=(timer,))


@pytest.mark.parametrize(("column", "timer"), CAREFUL_BY_HAND)
def test_careful_by_hand(start, column, timer):
    assert careful(placed(start, column, timer)) == CAREFUL_BY_HAND[column, timer]


def test_careful_ignores_food_pacman_cannot_reach():
    state = initial_state(parse_layout("%%%%%%%\n%G P%.%\n%%%%%%%\n"))
    assert careful(state) == -300 / 2  # no food term; the ghost 2 steps off


# (levels, Pacman to move or not) -> score bounds and careful's at score 0.
BOUNDS_BY_HAND = {
    # One Pacman move: -1 and a death below; at most a food (+10 - 1) above.
    (2, 0): ((-1 - 500, 9), (-1 - 500 - 300 - (CELLS - 1), 9)),
    # Five Pacman moves: all 4 food (+36), the win, and the capsule 5 steps
    # away scares the ghost, which may be eaten (+200, and careful's hunt +100).
    (10, 0): ((-5 - 500, 36 + 500 + 200), (-5 - 500 - 300 - (CELLS - 1), 36 + 500 + 200 + 100)),
    # The ghost to move: one level is its move alone.
    (1, 1): ((-500, 0), (-500 - 300 - (CELLS - 1), 0)),
    # The ghost's move then Pacman's: one Pacman move.
    (2, 1): ((-1 - 500, 9), (-1 - 500 - 300 - (CELLS - 1), 9)),
}


@pytest.mark.parametrize(("levels", "turn"), BOUNDS_BY_HAND)
def test_bounds_by_hand(start, levels, turn):
    state = start._replace(turn=turn)
    score, widened = BOUNDS_BY_HAND[levels, turn]
    assert score_bounds(state, levels) == score
    assert careful_bounds(state, levels) == widened


def test_a_scared_ghost_may_be_eaten_once_without_a_capsule(start):
    state = placed(start, 4, 9)._replace(capsules=0)
    assert score_bounds(state, 2) == (-501, 9 + 200)
    assert careful_bounds(state, 2) == (-501 - 300 - (CELLS - 1), 9 + 200 + 100)


def test_the_chasing_ghost_by_hand(start):
    chase = ChaseGame(1)
    assert chase.evaluate(start) == -3.0  # seeks Pacman, 3 steps away
    assert chase.evaluate(placed(start, 4, 2)) == 3.0  # flees while scared
    assert chase.utility(start._replace(status=LOST)) == 1000.0
    assert chase.utility(start._replace(status=1)) == -1000.0


# -- the kernel's, on the same positions ----------------------------------------

@pytest.fixture(scope="module")
def kernel_evaluation():
    needed("numba", "pip install -e '.[fast]'")
    from pacsim.fast import kernel, star
    from pacsim.fast.kinds import Evaluation, NodeKind
    from pacsim.fast.maze_arrays import layout_tables, state_row
    from pacsim.fast.translate import settings_row

    kinds = (int(NodeKind.MAX), int(NodeKind.CHANCE))

    def evaluate(state, evaluation, levels=None):
        tables = layout_tables(state.layout)
        settings = settings_row(state, int(evaluation), 1, 0, False, kinds)
        row = state_row(state)
        if levels is not None:
            return star.leaf_bounds(tables.distance, settings, row, levels)
        if state.status:
            return kernel.utility(settings, row)
        return kernel.evaluate(tables.distance, tables.nearest, settings, row)

    return evaluate, Evaluation


@pytest.mark.parametrize(("column", "timer"), CAREFUL_BY_HAND)
def test_the_kernels_careful_by_hand(start, kernel_evaluation, column, timer):
    evaluate, kinds = kernel_evaluation
    assert evaluate(placed(start, column, timer), kinds.CAREFUL) == CAREFUL_BY_HAND[column, timer]


@pytest.mark.parametrize(("levels", "turn"), BOUNDS_BY_HAND)
def test_the_kernels_bounds_by_hand(start, kernel_evaluation, levels, turn):
    evaluate, kinds = kernel_evaluation
    state = start._replace(turn=turn)
    score, widened = BOUNDS_BY_HAND[levels, turn]
    assert evaluate(state, kinds.SCORE, levels) == score
    assert evaluate(state, kinds.CAREFUL, levels) == widened


def test_the_kernels_chasing_ghost_by_hand(start, kernel_evaluation):
    evaluate, kinds = kernel_evaluation
    assert evaluate(start, kinds.CHASE) == -3.0
    assert evaluate(placed(start, 4, 2), kinds.CHASE) == 3.0
    assert evaluate(start._replace(status=LOST), kinds.CHASE) == 1000.0


def test_the_kernels_careful_ignores_food_pacman_cannot_reach(kernel_evaluation):
    evaluate, kinds = kernel_evaluation
    assert evaluate(initial_state(parse_layout("%%%%%%%\n%G P%.%\n%%%%%%%\n")), kinds.CAREFUL) == -300 / 2
