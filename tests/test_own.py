"""A user's own evaluation in the kernel (issue 28 item 4): a function of a
:class:`pacsim.fast.view.View`, marked with ``pacsim.kernel_evaluation``,
searched by the kernel with the Python search's values, moves and node
counts; one numba cannot compile runs in Python, saying why in one line."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from optional import needed

needed("numba", "pip install -e '.[fast]'")

from pacsim.agents import make_pacman
from pacsim.bench.agreement import compare_searches, result_difference
from pacsim.bench.positions import game_positions
from pacsim.engine import load_layout
from pacsim.engine.layout import shipped_layouts
from pacsim.engine.stats import FAST, PYTHON
from pacsim.errors import AgentError
from pacsim.fast.maze_arrays import layout_tables
from pacsim.fast.request import settings_declined
from pacsim.fast.view import is_kernel_evaluation, maze_arrays, view_of
from pacsim.shipped import shipped_path

EXAMPLE = str(shipped_path("examples/kernel_eval.py").resolve())
HUNGRY = f"{EXAMPLE}:hungry"
NOT_COMPILABLE = f"{EXAMPLE}:not_compilable"
OWN_SPECS = tuple(
    f"{kind}:depth={{depth}},eval={HUNGRY},algorithm={algorithm}{extra}"
    for kind, algorithm, extra in (
        ("minimax", "minimax", ""), ("minimax", "alphabeta", ""),
        ("expectimax", "expectimax", ",model=directional,trust=0.7"),
        ("expectiminimax", "expectiminimax", ",slip=0.25"),
    )
)


@pytest.fixture(scope="module")
def positions() -> list[Any]:
    return game_positions(12)


def test_the_kernel_searches_an_own_evaluation_as_python_does(positions):
    report = compare_searches(positions, depth=2, specs=OWN_SPECS, root_values=True)
    assert report.searches == len(positions) * len(OWN_SPECS)
    assert report.agrees, report.mismatches[:3]
    agent: Any = make_pacman(f"expectimax:depth=2,eval={HUNGRY},backend=fast")
    assert agent._search_with_backend(positions[0], None, False)[1] == FAST


def test_the_evaluation_sees_the_state_it_is_given(positions):
    """The Python view is the state, field by field (the kernel's is held
    equal to it by the searches' agreement above)."""
    for state in positions[:4]:
        view = view_of(state)
        assert view.pacman == state.pacman and tuple(view.ghosts) == state.ghosts
        assert tuple(view.scared) == state.scared and view.score == state.score
        food = sum(int(word) << (32 * index) for index, word in enumerate(view.food))
        assert food == state.food and view.food_left == state.food.bit_count()
        assert view.distance[state.pacman, state.ghosts[0]] == state.layout.distances_from(state.pacman)[state.ghosts[0]]


def test_the_views_maze_tables_are_the_kernels():
    for name in list(shipped_layouts())[:4]:
        layout = load_layout(name)
        distance, nearest = maze_arrays(layout)
        tables = layout_tables(layout)
        assert np.array_equal(distance, tables.distance) and np.array_equal(nearest, tables.nearest), name


def test_an_evaluation_numba_cannot_compile_runs_in_python_saying_why_once(positions, capsys):
    agent: Any = make_pacman(f"expectimax:depth=2,eval={NOT_COMPILABLE}")
    python: Any = make_pacman(f"expectimax:depth=2,eval={NOT_COMPILABLE},backend=python")
    for state in positions[:3]:
        result, searched_by = agent._search_with_backend(state, None, True)
        assert searched_by == PYTHON
        assert result_difference(python.analyze(state), result) == ""
    said = capsys.readouterr().err.strip().splitlines()
    assert len(said) == 1, said
    assert "not_compilable()" in said[0] and "numba cannot compile" in said[0] and "searches in Python" in said[0]
    assert "makes new arrays, strings" in said[0]
    with pytest.raises(AgentError, match="numba cannot compile not_compilable"):
        make_pacman(f"expectimax:depth=2,eval={NOT_COMPILABLE},backend=fast").analyze(positions[0])


def test_a_typing_error_is_named_by_numbas_own_line():
    from pacsim.fast.own import compiled

    def misspelt(view):
        return view.scroe + 1.0

    dispatcher, reason = compiled(misspelt)
    assert dispatcher is None and reason is not None
    assert reason.startswith("numba cannot compile test_a_typing_error_is_named_by_numbas_own_line.<locals>.misspelt(): ")
    assert "Unknown attribute 'scroe'" in reason and "\n" not in reason


def test_the_example_is_marked_and_an_unmarked_plugin_still_runs_in_python(positions):
    import importlib.util

    spec = importlib.util.spec_from_file_location("kernel_eval_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert is_kernel_evaluation(module.hungry) and not is_kernel_evaluation(len)
    unmarked: Any = make_pacman("expectimax:depth=2,eval=pacsim.agents.evaluation:careful")
    assert settings_declined(unmarked.search_request(2, 6, 100)) is not None


def test_an_agent_that_replaces_the_evaluation_is_not_searched_with_the_marked_one(positions):
    from pacsim.agents.search_agents import ExpectimaxPacman

    class Replaced(ExpectimaxPacman):
        def __init__(self, options=None):
            super().__init__(options)
            self.evaluate = lambda state: state.score

    agent = Replaced(ExpectimaxPacman.Options(eval=HUNGRY))
    reason = settings_declined(agent.search_request(2, 3, 100))
    assert reason is not None and "eval=Replaced.evaluate" in reason


def test_star_searches_with_an_own_evaluation_run_in_the_kernel_but_whole_games_do_not():
    from pacsim.fast.request import game_loop_declined

    # backend=python: the same request, without compiling the star search's copy around hungry (about 15 s)
    agent: Any = make_pacman(f"expectimax:depth=2,eval={HUNGRY},table=1000,backend=python")
    request = agent.search_request(2, 6, 100)
    assert settings_declined(request) is None  # pacsim bench's agreement group holds its answers equal to Python's
    reason = game_loop_declined(request)
    assert reason is not None and "plain search only" in reason


def test_the_bench_group_own_compares_the_same_search_both_ways():
    from pacsim.bench.own import GROUP, own_figures
    from pacsim.bench.report import Report

    report = Report()
    own_figures(report, depth=1, count=2)
    figures = {figure.name: figure for figure in report.figures if figure.group == GROUP}
    assert figures["hungry depth 1 expectimax mismatches"].value == 0
    assert figures["hungry depth 1 expectimax fast/python"].value > 0
    assert "identical values, moves and node counts" in figures["hungry depth 1 expectimax fast/python"].note



def test_a_copy_numbered_as_its_cached_original_is_still_a_function_of_its_own(monkeypatch):
    """numba names machine code by module, qualified name, argument types,
    options and a number counted per process, and links one body per name:
    an original loaded from the cache carries the number of the process
    that compiled it, which a copy compiled here may get too (numba #10486).
    Then a function linking both ran the copy for the original: the
    built-in Pacman's whole games against an own ghost searched with the
    own model of a copy an earlier test had compiled.  Numbered alike here
    on purpose, the copy must still be named apart."""
    from itertools import chain

    from numba.core import bytecode

    from pacsim.engine import initial_state
    from pacsim.fast import kernel
    from pacsim.fast.maze_arrays import state_row
    from pacsim.fast.own import uncached
    from pacsim.fast.translate import settings_row

    state = initial_state(load_layout("smallClassic"), 2)
    arguments = (layout_tables(state.layout), settings_row(state, 0, 0, 0, False, [0, 0, 0]), state_row(state), 2,
                 np.zeros(5, np.int64), np.zeros(5, np.int64), np.zeros(5))
    placeholder = kernel.own_ghost_probabilities  # cached, without reference counts, as the searches
    assert placeholder(*arguments) == 0
    original = next(iter(placeholder.overloads.values())).fndesc
    monkeypatch.setattr(bytecode.FunctionIdentity, "_unique_ids",
                        chain([original.uid], bytecode.FunctionIdentity._unique_ids))
    copy = uncached(placeholder, {})
    assert copy(*arguments) == 0
    copied = next(iter(copy.overloads.values())).fndesc
    assert copied.uid == original.uid and copied.argtypes == original.argtypes  # numbered and typed alike...
    assert copied.mangled_name != original.mangled_name  # ...yet named apart


def test_backend_fast_with_an_evaluation_numba_cannot_compile_is_one_line_before_any_game(capsys):
    """Said once, naming the user's function and why, not per game as an AgentError at a line of pacsim's."""
    from pacsim.cli import main

    assert main(["play", "-l", "tinyGhostMaze", "-p", f"expectimax:depth=2,eval={NOT_COMPILABLE},backend=fast",
                 "-q", "-n", "2", "--seed", "1"]) == 2
    captured = capsys.readouterr()
    assert "game 1/" not in captured.out and captured.err.count("\n") == 1
    assert "numba cannot compile not_compilable(): " in captured.err and "backend.py" not in captured.err
