"""The search trace (pacsim.search.trace): a traced search returns exactly
the untraced search's result, its nodes count what the search counted, on
random positions of every shipped maze for every search kind, and the
seeds' worked examples trace to the seeds' values."""

from __future__ import annotations

import random

import pytest
from optional import needed
from test_search import TreeGame, chance_alpha_beta_tree

from pacsim.agents import make_pacman
from pacsim.engine import initial_state, load_layout, shipped_layouts
from pacsim.search import CHANCE, MAX, MIN, TranspositionTable, mcts, search
from pacsim.search.trace import LEAF, TERMINAL_KIND, trace_mcts, trace_search

PACMEN = ("minimax", "alphabeta", "expectimax", "expectiminimax:kinds=MC", "expectimax:algorithm=star1",
          "expectiminimax:algorithm=star2,kinds=CM")
"""Every search kind a Pacman runs in Python (the star searches with local bounds)."""


def pacman_of(spec: str, options: str):
    """The Pacman ``spec`` with ``options`` added."""
    return make_pacman(f"{spec}{',' if ':' in spec else ':'}{options}")


def random_position(layout_name: str, seed: int):
    """Pacman to move, after a few random moves from the start."""
    rng = random.Random(seed)
    state = initial_state(load_layout(layout_name))
    for _ in range(rng.randrange(4, 30)):
        following = state.successor(rng.choice(state.legal_actions()))
        if following.is_terminal:
            break
        state = following
    while state.turn != 0:
        state = state.successor(state.legal_actions()[0])
    return state


def assert_trace_is_the_search(traced, untraced):
    """Same answer, same statistics, and the statistics recounted from the nodes."""
    assert (traced.result.value, traced.result.action) == (untraced.value, untraced.action)
    stats = traced.result.stats
    assert (stats.generated, stats.evaluated, stats.cutoffs, stats.max_depth) == (
        untraced.stats.generated, untraced.stats.evaluated, untraced.stats.cutoffs, untraced.stats.max_depth)
    counts = traced.counts()
    assert (counts.generated, counts.evaluated, counts.cutoffs, counts.max_depth) == (
        stats.generated, stats.evaluated, stats.cutoffs, stats.max_depth)
    root = traced.root
    assert root.value == untraced.value
    if len(traced.principal_variation) > 1 and root.kind in (MAX, MIN):
        assert traced.nodes[traced.principal_variation[1]].edge == untraced.action


@pytest.mark.parametrize("layout_name", sorted(shipped_layouts()))
def test_traced_searches_are_the_searches_on_every_shipped_maze(layout_name):
    for number, spec in enumerate(PACMEN):
        for table in (0, 5000):
            pacman = pacman_of(spec, f"depth=1,backend=python,table={table}")
            state = random_position(layout_name, number)
            traced = pacman.trace(state)
            game = pacman.game_for(state)
            bounds = pacman.node_bounds if pacman.algorithm.startswith("star") else None
            untraced = search(game, state, pacman.algorithm, depth=pacman.levels(state), evaluate=pacman.evaluate,
                              bounds=bounds, table=TranspositionTable(max_entries=table) if table else None)
            assert_trace_is_the_search(traced, untraced)


def test_a_table_hit_is_a_node_without_successors_and_deeper_searches_agree():
    state = random_position("smallClassic", 3)
    pacman = make_pacman("alphabeta:depth=3,backend=python,table=100000")
    traced = pacman.trace(state)
    hits = [node for node in traced.nodes if node.table_hit]
    assert hits and all(not node.children and node.kind in (MAX, MIN, CHANCE) for node in hits)
    untraced = search(pacman.game_for(state), state, "alphabeta", depth=pacman.levels(state), evaluate=pacman.evaluate,
                      table=TranspositionTable(max_entries=100000))
    assert_trace_is_the_search(traced, untraced)
    cut = [node for node in traced.nodes if node.cut]
    assert cut and all(len(node.children) <= len(node.moves) for node in cut)
    assert any(len(node.children) < len(node.moves) for node in cut)  # a cut at the last move leaves none


def test_the_kernel_plays_the_traced_move():
    needed("numba", "pip install -e '.[fast]'")
    for spec in PACMEN:
        state = random_position("smallClassic", 11)
        traced = pacman_of(spec, "depth=2,backend=python").trace(state)
        fast = pacman_of(spec, "depth=2,backend=fast").analyze(state, root_values=False)
        assert fast.action == traced.result.action
        assert fast.value == pytest.approx(float(traced.root.value), rel=1e-9, abs=1e-9)


def test_windows_cuts_and_star_bounds_of_the_chance_alpha_beta_example():
    # Seed 002: the right coin's first MIN node is at most -4, so the coin is
    # at most 0.5 < 1 and the "?" nodes are never searched.
    for algorithm, reason in (("star1", "Star1: upper bound 1/2 < alpha 1"),
                              ("star2", "Star2 probes: upper bound 1/2 < alpha 1")):
        traced = trace_search(chance_alpha_beta_tree(), (), algorithm, bounds=(-5, 5))
        assert_trace_is_the_search(traced, search(chance_alpha_beta_tree(), (), algorithm, bounds=(-5, 5)))
        right = traced.nodes[traced.root.children[1]]
        assert (right.alpha, right.kind, right.bounds) == (1, CHANCE, (-5, 5))
        assert right.cut.startswith(reason)
        assert traced.principal_variation[:2] == (0, traced.root.children[0])
    probe = [node for node in traced.nodes if node.probe]
    assert len(probe) == 1 and probe[0].value == -4 and probe[0].probed_move == 0


def test_plain_chance_nodes_average_their_outcomes():
    traced = trace_search(chance_alpha_beta_tree(), (), "expectiminimax")
    for node in traced.nodes:
        if node.kind == CHANCE:
            children = [traced.nodes[child] for child in node.children]
            assert node.value == sum(child.probability * child.value for child in children)
            assert [child.probability for child in children] == list(node.probabilities)
    assert traced.counts_by_level() == [1, 2, 4, 8]


def test_a_leaf_root_and_a_depth_limit():
    traced = trace_search(TreeGame(7), (), "minimax")
    assert [(node.kind, node.value) for node in traced.nodes] == [(TERMINAL_KIND, 7)]
    tree = ("max", [("min", [1, 2]), ("min", [3, 4])])
    traced = trace_search(TreeGame(tree), (), "minimax", depth=1, evaluate=lambda path: len(path))
    assert [node.kind for node in traced.nodes] == [MAX, LEAF, LEAF] and traced.result.stats.evaluated == 2


def test_mcts_trace_is_the_tree_the_search_grew():
    state = random_position("tinyGhostMaze", 5)
    pacman = make_pacman("mcts:iterations=60,backend=python")
    traced = pacman.trace(state, seed=4)
    assert len(traced.nodes) == traced.result.stats.tree_nodes
    assert traced.root.visits == 60
    root_children = [traced.nodes[child] for child in traced.root.children]
    assert {child.edge: child.visits for child in root_children} == {
        action: visits for action, visits in traced.result.action_visits if visits}
    assert traced.nodes[traced.principal_variation[1]].edge == traced.result.action
    game = pacman.game_for(state)
    assert trace_mcts(game, state, iterations=30, seed=1).result.value == mcts(game, state, iterations=30, seed=1).value
