"""A user's kernel evaluation in the kernel's star search and MCTS (issue 28
item 4): the kernel takes both; the star search needs bounds the kernel
compiles; the example's bounds hold.

The kernel's copies of the star search and of MCTS around a user's
evaluation (about 15 s and 3 s of CPU to compile, pacsim.fast.own_searches)
are checked against Python in ``pacsim bench``'s agreement group
(pacsim.bench.own: STAR_SPECS, MCTS_SPECS), whose wiring
tests/test_own_ghost.py checks; the suite's copy around a user's function is
the plain search's, which the ``example`` fixture below compiles."""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np
import pytest
from optional import needed

needed("numba", "pip install -e '.[fast]'")

from hypothesis import given, settings
from hypothesis import strategies as st

from pacsim.agents import make_pacman
from pacsim.bench.own import STAR_MAZES
from pacsim.bench.positions import game_positions
from pacsim.engine import apply_move
from pacsim.engine.stats import PYTHON
from pacsim.errors import AgentError, SearchError
from pacsim.fast.request import SearchRequest, game_loop_declined, mcts_declined, own_declined, settings_declined
from pacsim.fast.view import kernel_evaluation, python_bounds, register, registered, view_of
from pacsim.search import CHANCE, MAX, search
from pacsim.shipped import shipped_path

EXAMPLE = str(shipped_path("examples/kernel_eval.py").resolve())
HUNGRY = f"{EXAMPLE}:hungry"


@pytest.fixture(scope="module")
def positions() -> list[Any]:
    return game_positions(30, seed=21, layouts=STAR_MAZES)


@pytest.fixture(scope="module")
def example() -> Any:
    """The example's module (its functions, as a search Pacman loads them)."""
    make_pacman(f"expectimax:eval={HUNGRY}")
    hungry = registered(HUNGRY)
    assert hungry is not None
    return hungry


def test_the_kernel_takes_mcts_with_an_own_evaluation():
    assert mcts_declined(make_pacman(f"mcts:eval={HUNGRY}").search_request(), cells=0) is None


def test_mcts_with_an_evaluation_numba_cannot_compile_searches_in_python(positions):
    spec = f"mcts:iterations=50,eval={EXAMPLE}:not_compilable"
    agent: Any = make_pacman(spec)  # made without compiling it: the first search tries
    assert agent._search_with_backend(positions[0], 0)[1] == PYTHON
    with pytest.raises(AgentError, match=r"backend=fast: eval=.*numba cannot compile not_compilable"):
        make_pacman(f"{spec},backend=fast").analyze(positions[0])


# -- bounds ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def playout_positions() -> list[Any]:
    """Positions with either agent to move, capsules and scared ghosts among them."""
    return game_positions(120, seed=9, layouts=STAR_MAZES, turn=None)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 119), st.integers(1, 12), st.integers(0, 2**32 - 1))
def test_the_examples_bounds_hold_on_random_playouts(playout_positions, example, index, levels, seed):
    """Every value a search of ``levels`` levels can meet (the evaluation at
    its depth, the score of a game that ended before it) lies within the
    bounds of the position at that many levels, along a random playout."""
    start = playout_positions[index]
    rng = random.Random(seed)
    view = view_of(start)
    state = start
    for depth in range(1, levels + 1):
        moves = state.legal_moves()
        state = apply_move(state, *moves[rng.randrange(len(moves))])
        value = float(state.score) if state.is_terminal else example(view_of(state))
        low, high = example.bounds(view, depth)
        assert low <= value <= high, (start, depth, value, low, high)
        if state.is_terminal:  # a leaf of the deeper searches too
            low, high = example.bounds(view, levels)
            assert low <= value <= high, (start, levels, value, low, high)
            break


def test_bounds_are_a_function_of_the_view_for_both_backends(playout_positions, example):
    from pacsim.fast.own_searches import compiled_bounds

    compiled, reason = compiled_bounds(example)
    assert reason is None
    state_bounds = python_bounds(example)
    assert state_bounds is not None
    for state in playout_positions[::10]:
        for levels in (1, 3, 7):
            assert state_bounds(state, levels) == compiled(view_of(state), levels) == example.bounds(view_of(state), levels)


@kernel_evaluation
def without_bounds(view):
    return float(view.score)


def allocating_bounds(view, levels):
    return float(np.zeros(3).sum()), 1.0


def one_number(view, levels):
    return float(view.score)


def nan_bounds(view, levels):
    return math.nan, float(view.score)


OWN_CASES = {
    "test:without_bounds": without_bounds,
    "test:allocating_bounds": kernel_evaluation(bounds=allocating_bounds)(lambda view: float(view.score)),
    "test:one_number": kernel_evaluation(bounds=one_number)(lambda view: float(view.score)),
}


def request(evaluation: str, algorithm: str, table: int = 0) -> SearchRequest:
    return SearchRequest(algorithm=algorithm, kinds=(MAX, CHANCE, CHANCE), evaluation=evaluation, levels=3, step=3,
                         cells=60, table=table)


def test_star_searches_need_bounds_the_kernel_compiles_saying_why_in_one_line():
    for name, function in OWN_CASES.items():
        register(name, function)
    assert own_declined(request("test:without_bounds", "expectimax", table=100)) is None  # no bounds needed
    reasons = {name: own_declined(request(name, "star2")) or "" for name in OWN_CASES}
    assert "without_bounds() has no bounds (@kernel_evaluation(bounds=...))" in reasons["test:without_bounds"]
    assert "numba cannot compile allocating_bounds(): " in reasons["test:allocating_bounds"]
    assert "must return two numbers (low, high), not float64" in reasons["test:one_number"]
    assert all(reason.startswith(f"eval={name}: ") and "\n" not in reason for name, reason in reasons.items())
    hungry_star = request(HUNGRY, "star2", table=1000)
    make_pacman(f"expectimax:eval={HUNGRY}")  # registers it
    assert settings_declined(hungry_star) is None and own_declined(hungry_star) is None
    assert "plain search only" in (game_loop_declined(hungry_star) or "")


def test_bounds_that_are_not_numbers_fail_the_search_in_both_backends(positions):
    """Python's star search raises at the chance node; the kernel's copy
    flags the search (and :func:`pacsim.fast.search` raises the same error)."""
    from pacsim.fast.kinds import NODE_KINDS, Evaluation, GhostKind
    from pacsim.fast.maze_arrays import layout_tables, state_row
    from pacsim.fast.own_searches import BAD_BOUNDS, _chance_bounds
    from pacsim.fast.star import OUT_OF_BOUNDS, STAR_STATS_SLOTS
    from pacsim.fast.translate import settings_row

    bad = kernel_evaluation(bounds=nan_bounds)(lambda view: float(view.score))
    state = positions[3]
    agent: Any = make_pacman("expectimax:eval=score,algorithm=star2,backend=python")
    state_bounds = python_bounds(bad)
    assert state_bounds is not None
    with pytest.raises(SearchError, match="must be finite"):
        search(agent.game_for(state), state, algorithm="star2", depth=3, evaluate=agent.evaluate,
               bounds=lambda node, levels: state_bounds(node, levels))
    stats = np.zeros(STAR_STATS_SLOTS, np.int64)
    kinds = [NODE_KINDS[MAX]] + [NODE_KINDS[CHANCE]] * len(state.ghosts)
    settings_array = settings_row(state, Evaluation.SCORE, 0, GhostKind.UNIFORM, True, kinds)
    found = _chance_bounds(bad)(layout_tables(state.layout), settings_array, stats, state_row(state), 2)
    assert found == (-math.inf, math.inf) and stats[OUT_OF_BOUNDS] == BAD_BOUNDS
