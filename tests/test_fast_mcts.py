"""MCTS in the kernel against pacsim.search.mcts, seed for seed.

The kernel draws Python's random stream (pacsim.fast.streams), so for the
same seed the MCTS Pacman's Python search and the kernel's build the same
tree: the same move, mean values (bit for bit), root visits and counters.
"""

import pytest
from optional import needed

needed("numba", "pip install -e '.[fast]'")

from kernel_calls import kernel_mcts

from pacsim.agents import make_pacman
from pacsim.bench.positions import game_positions
from pacsim.errors import AgentError

MAZES = ("tinyGhostMaze", "smallClassic", "trapMaze", "generated:w=11,h=9,food=10,capsules=2,ghosts=2,loops=0.5,seed=4")


def summary(result):
    stats = result.stats
    return (float(result.value), result.action, tuple((move, float(value)) for move, value in result.action_values),
            result.action_visits, stats.generated, stats.evaluated, stats.max_depth, stats.iterations, stats.simulated,
            stats.tree_nodes)


@pytest.mark.parametrize("ghosts", ["chance", "min"])
@pytest.mark.parametrize("evaluation", ["careful", "score"])
def test_kernel_mcts_builds_the_python_tree(ghosts, evaluation):
    positions = game_positions(24, seed=3, layouts=MAZES)
    mismatches = []
    for rollout_depth in (0, 6):
        agent = make_pacman(f"mcts:iterations=150,ghosts={ghosts},eval={evaluation},rollout_depth={rollout_depth}")
        for index, state in enumerate(positions):
            expected = summary(agent.analyze(state, seed=index))
            found = summary(kernel_mcts(state, ghosts, evaluation, 150, agent.options.c, rollout_depth, seed=index))
            if expected != found:
                mismatches.append(f"depth {rollout_depth} position {index}: {expected} != {found}")
    assert not mismatches, mismatches[:2]


def test_an_mcts_pacman_plays_the_same_games_with_the_fast_path_on_and_off():
    from fasttools import assert_same_games_on_and_off

    from pacsim.fast.request import mcts_declined

    pacman = assert_same_games_on_and_off("mcts:iterations=60,ghosts=min,eval=careful", (1, 2), 30)
    assert mcts_declined(pacman.search_request(), cells=0) is None


def test_what_the_kernel_mcts_does_not_cover_searches_in_python():
    from pacsim.fast.request import mcts_declined

    def reason(spec):
        return mcts_declined(make_pacman(spec).search_request(), cells=0)

    assert reason("mcts:rollout=greedy") == "the fast path does not cover mcts rollout=greedy (it runs random)"
    assert reason("mcts:time=0.1") == "the fast path does not cover an mcts time budget"
    with pytest.raises(AgentError, match="backend=fast: the fast path does not cover mcts model=directional"):
        make_pacman("mcts:model=directional,backend=fast")
