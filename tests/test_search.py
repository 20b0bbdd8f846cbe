"""Worked examples of the seed documents (the lecture notes pacsim started from) as test vectors
for pacsim.search, plus argument errors and small behaviour checks."""

from __future__ import annotations

import time
from fractions import Fraction
from itertools import combinations_with_replacement

import pytest

from pacsim.errors import PacsimError, SearchError
from pacsim.search import (
    CHANCE,
    MAX,
    MIN,
    SearchResult,
    SearchStats,
    SearchTimeout,
    TranspositionTable,
    deepen,
    deepest,
    iterative_deepening,
    search,
)
from pacsim.search.examples import CHANCE_ALPHA_BETA, IncAndSquare, StochasticIncAndSquare, TreeGame

ALL_ALGORITHMS = ("minimax", "alphabeta", "expectimax", "expectiminimax", "star1", "star2")
CHANCE_ALGORITHMS = ("expectiminimax", "star1", "star2")


def test_inc_and_square_minimax_value_5_max_plays_inc():
    for algorithm in ("minimax", "alphabeta", "expectiminimax", "star1", "star2"):
        found = search(IncAndSquare(), (1, 0), algorithm, bounds=(0, 9))
        assert (found.value, found.action) == (5, "inc"), algorithm
        assert found.stats.max_depth == 4
    assert search(IncAndSquare(), (1, 0), "alphabeta").stats.generated < search(IncAndSquare(), (1, 0), "minimax").stats.generated


def test_stochastic_inc_and_square_expectiminimax_value_6_9():
    for algorithm in CHANCE_ALGORITHMS:
        found = search(StochasticIncAndSquare(), (1, 0, False), algorithm, bounds=(0, 9), root_values=True)
        assert found.value == Fraction(69, 10), algorithm
        assert found.action == "inc"
        assert dict(found.action_values) == {"inc": Fraction(69, 10), "sqr": Fraction(659, 100)}


def stock_game():
    # Seed 000: buy one share of Bellman Inc. or of Markov Tec.; the leaves
    # are the price changes.
    bellman = ("chance", [(Fraction(3, 10), 2), (Fraction(6, 10), 1), (Fraction(1, 10), 0)])
    markov = ("chance", [(Fraction(2, 10), 4), (Fraction(3, 10), 2), (Fraction(5, 10), -1)])
    return TreeGame(("max", [bellman, markov]))


@pytest.mark.parametrize("algorithm", ("expectimax", "expectiminimax", "star1", "star2"))
def test_stock_example_buy_bellman(algorithm):
    found = search(stock_game(), (), algorithm, bounds=(-1, 4), root_values=True)
    assert found.value == Fraction(12, 10)
    assert found.action == 0  # Bellman Inc.
    assert found.action_values == ((0, Fraction(12, 10)), (1, Fraction(9, 10)))


def test_stock_example_in_floats_is_close():
    bellman = ("chance", [(0.3, 2), (0.6, 1), (0.1, 0)])
    markov = ("chance", [(0.2, 4), (0.3, 2), (0.5, -1)])
    found = search(TreeGame(("max", [bellman, markov])), (), "star1", bounds=(-1, 4))
    assert found.value == pytest.approx(1.2)
    assert found.action == 0


def test_expectimax_chance_node_value_10():
    # Seed 002: 1/2 * 8 + 1/3 * 24 + 1/6 * (-12) = 10.
    node = ("chance", [(Fraction(1, 2), 8), (Fraction(1, 3), 24), (Fraction(1, 6), -12)])
    for algorithm in ("expectimax", "expectiminimax", "star1", "star2"):
        found = search(TreeGame(node), (), algorithm, bounds=(-12, 24))
        assert found.value == 10
        assert found.action is None  # nobody chooses at a chance node
        assert found.stats.generated == 3


def test_three_level_example_value_10_second_action():
    # Seed 004: max over two fair coins, (10, 0) -> 5 and (5, 15) -> 10.
    half = Fraction(1, 2)
    tree = ("max", [("chance", [(half, 10), (half, 0)]), ("chance", [(half, 5), (half, 15)])])
    for algorithm in ("expectimax", "expectiminimax", "star1", "star2"):
        found = search(TreeGame(tree), (), algorithm, bounds=(0, 15))
        assert (found.value, found.action) == (10, 1), algorithm


def chance_alpha_beta_tree():
    # Seed 002, "alpha-beta pruning in games with chance" (see CHANCE_ALPHA_BETA).
    return TreeGame(CHANCE_ALPHA_BETA)


@pytest.mark.parametrize("algorithm", ("star1", "star2"))
def test_chance_alpha_beta_example_prunes_the_question_marks(algorithm):
    plain = search(chance_alpha_beta_tree(), (), "expectiminimax")
    game = chance_alpha_beta_tree()
    found = search(game, (), algorithm, bounds=(-5, 5))
    assert plain.value == found.value == 1
    assert plain.action == found.action == 0
    assert found.stats.cutoffs >= 1
    # Only 3, 4, -1, 5 and -4 are looked at; the "?" leaves are not.
    assert set(game.scored) == {(0, 0, 0), (0, 0, 1), (0, 1, 0), (0, 1, 1), (1, 0, 0)}
    assert plain.stats.evaluated == 8
    # Star2 skips probing in the left coin (nothing to cut against yet) and
    # its probe of the right coin's first MIN node finds -4 and cuts.
    assert found.stats.evaluated == 5
    assert found.stats.generated < plain.stats.generated


def test_star_bounds_are_checked_at_the_leaves():
    with pytest.raises(SearchError, match="outside bounds"):
        search(chance_alpha_beta_tree(), (), "star1", bounds=(-3, 5))


@pytest.mark.parametrize("algorithm", ("star1", "star2"))
def test_local_bounds_are_checked_on_chance_successors(algorithm):
    # Everything below the right coin is said to lie in [-1, 5]; its first
    # MIN node is -4.
    def claimed(state, remaining):
        return (-1, 5) if state == (1,) else (-5, 5)

    with pytest.raises(SearchError, match=r"-4 of \(1, 0\) lies outside bounds \(-1, 5\)"):
        search(chance_alpha_beta_tree(), (), algorithm, bounds=claimed)
    with pytest.raises(SearchError, match="must be finite with L <= U"):
        search(chance_alpha_beta_tree(), (), algorithm, bounds=lambda state, remaining: (1, -1))


@pytest.mark.parametrize("algorithm", ("star1", "star2"))
def test_tight_local_bounds_prune_what_global_ones_cannot(algorithm):
    # The right coin is worth 0.5 * -2 + 0.5 * 1 = -0.5 < 1.  With [-5, 5]
    # for every position, its first MIN node (-2 at most) cannot cut it; with
    # the coin's leaves known to lie in [-2, 2], the leaf -2 alone shows
    # 0.5 * -2 + 0.5 * 2 = 0 < 1.
    half = Fraction(1, 2)
    left = ("chance", [(half, ("min", [3, 4])), (half, ("min", [-1, 5]))])
    right = ("chance", [(half, ("min", [-2, 2])), (half, ("min", [1, 2]))])

    def within_leaves(state, remaining):
        leaves = _leaves(TreeGame(("max", [left, right])).node(state))
        return min(leaves), max(leaves)

    pruned_by = {}
    for bounds in ((-5, 5), within_leaves):
        game = TreeGame(("max", [left, right]))
        found = search(game, (), algorithm, bounds=bounds)
        assert (found.value, found.action) == (1, 0)
        pruned_by[callable(bounds)] = {(1, 0, 1), (1, 1, 0)} - set(game.scored)
    assert pruned_by[True] == {(1, 0, 1), (1, 1, 0)}
    assert len(pruned_by[False]) < 2


def _leaves(node):
    if not isinstance(node, tuple):
        return [node]
    kind, children = node
    return [leaf for child in children for leaf in _leaves(child[1] if kind == "chance" else child)]


class TwoDice:
    """MAX either takes 2 points or rolls two dice; after the roll MIN picks
    one of the two dice and MAX gets its number.  The roll is a CHANCE node
    over the 21 unordered outcomes (seed 001)."""

    def to_move(self, state):
        return {"start": MAX, "rolling": CHANCE}.get(state, MIN)

    def actions(self, state):
        return ["roll", "take 2"] if state == "start" else sorted(set(state))

    def result(self, state, action):
        if state == "start":
            return "rolling" if action == "roll" else ("done", 2)
        return ("done", action)

    def outcomes(self, state):
        return [
            (Fraction(1, 36) if first == second else Fraction(1, 18), (first, second))
            for first, second in combinations_with_replacement(range(1, 7), 2)
        ]

    def is_terminal(self, state):
        return isinstance(state, tuple) and state[0] == "done"

    def utility(self, state):
        return state[1]


def test_two_dice_distribution():
    draws = TwoDice().outcomes("rolling")
    assert len(draws) == 21
    assert sum(p for p, _ in draws) == 1
    assert sum(1 for p, _ in draws if p == Fraction(1, 36)) == 6
    assert all(p == Fraction(1, 36) for p, (a, b) in draws if a == b)
    assert all(p == Fraction(1, 18) for p, (a, b) in draws if a != b)


@pytest.mark.parametrize("algorithm", CHANCE_ALGORITHMS)
def test_two_dice_expectiminimax(algorithm):
    # E[min of two dice] = (36 + 25 + 16 + 9 + 4 + 1) / 36 = 91/36 > 2.
    found = search(TwoDice(), "start", algorithm, bounds=(1, 6))
    assert found.value == Fraction(91, 36)
    assert found.action == "roll"
    # The CHANCE root is also fine, without an action.
    rolled = search(TwoDice(), "rolling", algorithm, bounds=(1, 6))
    assert (rolled.value, rolled.action) == (Fraction(91, 36), None)


def test_alpha_beta_prunes_only_on_strict_inequality():
    # The second MIN node starts with 3 == alpha: no prune (CS188), so its
    # 9 is generated too; the first move wins the tie.
    tree = TreeGame(("max", [("min", [3, 5]), ("min", [3, 9]), ("min", [2, 8])]))
    found = search(tree, (), "alphabeta")
    assert (found.value, found.action) == (3, 0)
    assert found.stats.generated == 3 + 2 + 2 + 1
    assert found.stats.cutoffs == 1
    assert search(tree, (), "minimax").stats.generated == 9


def test_alpha_beta_prunes_only_on_strict_inequality_at_max_nodes_too():
    # MIN root: the second MAX node starts with 5 == beta, so its 2 is
    # generated as well.
    tree = TreeGame(("min", [("max", [3, 5]), ("max", [5, 2]), ("max", [7, 1])]))
    found = search(tree, (), "alphabeta")
    assert (found.value, found.action) == (5, 0)
    assert found.stats.generated == 3 + 2 + 2 + 1


def test_ties_go_to_the_first_action_and_order_can_change_only_the_tie():
    tree = TreeGame(("max", [("min", [4, 6]), ("min", [7, 4]), ("min", [1, 9])]))
    reverse = lambda state, actions: list(reversed(actions))
    for algorithm in ("minimax", "alphabeta", "expectiminimax", "star1", "star2"):
        assert search(tree, (), algorithm, bounds=(0, 9)).action == 0
        found = search(tree, (), algorithm, bounds=(0, 9), order=reverse)
        assert (found.value, found.action) == (4, 1)


def test_min_root_chooses_the_lowest():
    tree = TreeGame(("min", [("max", [4, 6]), ("max", [1, 5]), ("max", [0, 9])]))
    for algorithm in ("minimax", "alphabeta", "star1", "star2"):
        found = search(tree, (), algorithm, bounds=(0, 9), root_values=True)
        assert (found.value, found.action) == (5, 1)
        assert found.action_values == ((0, 6), (1, 5), (2, 9))


def test_terminal_root_and_depth_zero():
    found = search(IncAndSquare(), (6, 1), "minimax")
    assert (found.value, found.action, found.stats.generated, found.stats.evaluated) == (6, None, 0, 1)
    found = search(IncAndSquare(), (1, 0), "alphabeta", depth=0, evaluate=lambda s: 42)
    assert (found.value, found.action, found.stats.max_depth) == (42, None, 0)


def test_depth_limit_counts_levels_and_evaluates_the_frontier():
    calls = []

    def evaluate(state):
        calls.append(state)
        return state[0]

    found = search(IncAndSquare(), (1, 0), "minimax", depth=1, evaluate=evaluate)
    # inc -> 2, sqr -> 1: MAX takes 2 with inc.
    assert (found.value, found.action) == (2, "inc")
    assert calls == [(2, 1), (1, 1)]
    assert found.stats.max_depth == 1
    assert found.depth == 1


def test_probabilities_are_not_renormalised():
    node = ("chance", [(Fraction(1, 4), 8), (Fraction(1, 4), 4)])
    for algorithm in ("expectimax", "star1", "star2"):
        assert search(TreeGame(node), (), algorithm, bounds=(0, 8)).value == 3


def test_transposition_table_counts_and_bound():
    table = TranspositionTable(max_entries=5)
    first = search(IncAndSquare(), (1, 0), "alphabeta", table=table)
    assert first.value == 5
    assert table.stores > 0 and len(table) <= 5 and table.evictions > 0
    again = search(IncAndSquare(), (1, 0), "alphabeta", table=TranspositionTable())
    assert again.value == 5
    table = TranspositionTable()
    search(IncAndSquare(), (1, 0), "minimax", depth=3, evaluate=lambda s: s[0], table=table)
    hits = table.hits
    found = search(IncAndSquare(), (1, 0), "minimax", depth=3, evaluate=lambda s: s[0], table=table)
    assert table.hits == hits + 2  # both root moves answered from the table
    assert found.stats.generated == 2


def test_results_are_frozen_dataclasses():
    found = search(IncAndSquare(), (1, 0), "minimax")
    assert isinstance(found, SearchResult) and isinstance(found.stats, SearchStats)
    with pytest.raises(AttributeError):
        found.value = 3  # type: ignore[misc]
    assert found.stats.seconds >= 0


# Errors.


def test_minimax_on_a_chance_node_names_algorithm_and_node_type():
    with pytest.raises(SearchError, match="minimax cannot handle CHANCE"):
        search(stock_game(), (), "minimax")
    with pytest.raises(SearchError, match="alphabeta cannot handle CHANCE"):
        search(stock_game(), (), "alphabeta")
    with pytest.raises(SearchError, match="expectimax cannot handle MIN"):
        search(IncAndSquare(), (1, 0), "expectimax")
    with pytest.raises(SearchError, match="minimax cannot handle CHANCE"):
        search(TreeGame(("chance", [(1, 3)])), (), "minimax")


@pytest.mark.parametrize("algorithm", ("star1", "star2"))
def test_star_without_bounds(algorithm):
    with pytest.raises(SearchError, match=f"{algorithm} needs bounds"):
        search(stock_game(), (), algorithm)
    with pytest.raises(SearchError, match="L <= U"):
        search(stock_game(), (), algorithm, bounds=(5, -5))


def test_depth_without_evaluate():
    with pytest.raises(SearchError, match="evaluate"):
        search(IncAndSquare(), (1, 0), "minimax", depth=2)
    with pytest.raises(SearchError, match="evaluate"):
        list(iterative_deepening(IncAndSquare(), (1, 0), "minimax", None, 2))


def test_unknown_algorithm_lists_the_known_ones():
    with pytest.raises(SearchError) as caught:
        search(IncAndSquare(), (1, 0), "negamax")
    assert all(name in str(caught.value) for name in ALL_ALGORITHMS)
    assert isinstance(caught.value, PacsimError) and isinstance(caught.value, ValueError)


def test_other_misuse():
    with pytest.raises(SearchError):
        search(IncAndSquare(), (1, 0), "minimax", depth=-1, evaluate=lambda s: 0)
    with pytest.raises(SearchError):
        TranspositionTable(max_entries=0)
    with pytest.raises(SearchError, match="to_move"):
        search(TreeGame(("max", [("weird", [1])])), (), "minimax")
    with pytest.raises(SearchError, match="no moves"):
        search(TreeGame(("max", [("min", [])])), (), "alphabeta")
    with pytest.raises(SearchError):
        list(iterative_deepening(IncAndSquare(), (1, 0), "minimax", lambda s: 0, 4, step=0))


# Time.


def test_deadline_in_the_past_raises_search_timeout():
    assert not issubclass(SearchTimeout, PacsimError)
    for algorithm in ("minimax", "alphabeta", "star2"):
        with pytest.raises(SearchTimeout):
            search(IncAndSquare(), (1, 0), algorithm, bounds=(0, 9), deadline=time.perf_counter() - 1)


class Endless:
    """A game tree too big to finish: 8 moves everywhere, never over."""

    def to_move(self, state):
        return MAX if state % 2 else MIN

    def actions(self, state):
        return range(8)

    def result(self, state, action):
        return state * 8 + action + 1

    def outcomes(self, state):
        raise AssertionError

    def is_terminal(self, state):
        return False

    def utility(self, state):
        raise AssertionError


def test_deadline_is_checked_during_the_search():
    started = time.perf_counter()
    with pytest.raises(SearchTimeout):
        search(Endless(), 1, "minimax", depth=12, evaluate=lambda s: s % 7, deadline=started + 0.05)
    assert time.perf_counter() - started < 1.0


def test_iterative_deepening_stops_silently_when_time_runs_out():
    results = list(iterative_deepening(Endless(), 1, "alphabeta", lambda s: s % 7, 30, seconds=0.1))
    assert results, "the shallow depths finish well inside 0.1 s"
    assert [r.depth for r in results] == list(range(1, len(results) + 1))
    assert len(results) < 30


def fake_search_at(finished_depths, calls):
    """A per-depth search that finishes the depths in ``finished_depths`` and
    times out on the others (unless it has no deadline), noting each call."""
    def search_at(depth, deadline):
        calls.append((depth, deadline))
        if depth not in finished_depths and deadline is not None:
            raise SearchTimeout("out of time")
        return SearchResult(value=depth, action=None, stats=SearchStats(0, 0, 0, 0.0, 0), depth=depth)
    return search_at


def test_deepen_drives_any_per_depth_search_and_stops_at_the_first_timeout():
    calls = []
    found = list(deepen(fake_search_at({2, 4, 8}, calls), max_depth=9, step=2, deadline=123.0))
    assert [result.depth for result in found] == [2, 4]  # 6 timed out: 8 is never tried
    assert calls == [(2, 123.0), (4, 123.0), (6, 123.0)]


def test_deepest_keeps_the_last_finished_search_or_searches_the_first_depth_without_a_deadline():
    calls = []
    assert deepest(fake_search_at({3, 6}, calls), max_depth=12, step=3, seconds=60).depth == 6
    assert [depth for depth, _ in calls] == [3, 6, 9]
    calls.clear()
    assert deepest(fake_search_at(set(), calls), max_depth=12, step=3, seconds=60).depth == 3
    assert calls[0][0] == 3 and calls[0][1] is not None and calls[1] == (3, None)


def test_the_search_package_has_no_import_circle():
    """Imports inside functions and under TYPE_CHECKING count: a circle hidden
    that way is still a circle to a reader."""
    import ast
    from pathlib import Path

    package = Path(__file__).resolve().parents[1] / "pacsim" / "search"
    imports = {}
    for path in package.glob("*.py"):
        if path.name == "__init__.py":  # re-exports everything; not part of a circle
            continue
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("pacsim.search."):
                found.add(node.module.split(".")[2])
        imports[path.stem] = found

    def reaches(start, target, seen):
        return any(module == target or (module not in seen and reaches(module, target, seen | {module}))
                   for module in imports.get(start, ()))

    assert [module for module in imports if reaches(module, module, set())] == []
