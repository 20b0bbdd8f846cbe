"""Monte Carlo tree search: the seeds' UCB1 example, convergence to the
minimax and expectiminimax values of seed 003's games, error against
iterations on random trees, determinism and argument errors."""

from __future__ import annotations

import math
import statistics

import pytest
from test_search import IncAndSquare, StochasticIncAndSquare, TreeGame
from test_search_properties import ROOT, RandomGame

from pacsim.engine.state import initial_state
from pacsim.errors import SearchError
from pacsim.search import CHANCE, MAX, mcts, search, ucb1


# Seed 002: parent 100 visits, s1 won 60 of 79, s2 won 2 of 11.
def test_ucb1_slide_example_larger_c_explores_s2():
    assert round(ucb1(60, 79, 100, 1.5), 2) == 1.12
    assert round(ucb1(2, 11, 100, 1.5), 2) == 1.15
    assert ucb1(2, 11, 100, 1.5) > ucb1(60, 79, 100, 1.5)


def test_ucb1_slide_example_smaller_c_exploits_s1():
    assert ucb1(60, 79, 100, 1.4) == pytest.approx(1.096, abs=0.002)
    assert ucb1(2, 11, 100, 1.4) == pytest.approx(1.088, abs=0.003)
    assert ucb1(60, 79, 100, 1.4) > ucb1(2, 11, 100, 1.4)


def test_ucb1_tries_unvisited_children_first():
    assert ucb1(0, 0, 5, 1.4) == math.inf


# Seed 003: the inc-and-square game has minimax value 5, MAX plays inc.
def test_inc_and_square_converges_to_minimax_value_5_and_inc():
    found = mcts(IncAndSquare(), (1, 0), iterations=20_000, seed=1)
    assert found.action == "inc"
    assert found.value == pytest.approx(5, abs=0.2)
    visits = dict(found.action_visits)
    assert visits["inc"] > 10 * visits["sqr"]
    assert found.stats.iterations == 20_000
    assert found.stats.max_depth == 4


def test_more_iterations_come_closer_to_the_minimax_value():
    errors = [abs(mcts(IncAndSquare(), (1, 0), iterations=count, seed=1).value - 5) for count in (300, 20_000)]
    assert errors[1] < errors[0]


# Seed 000's stochastic variant: expectiminimax value 6.9 (inc), sqr 6.59.
def test_stochastic_inc_and_square_converges_to_expectiminimax_value():
    found = mcts(StochasticIncAndSquare(), (1, 0, False), iterations=20_000, seed=1)
    assert found.action == "inc"
    assert float(found.value) == pytest.approx(6.9, abs=0.15)
    means = dict(found.action_values)
    assert means["sqr"] < means["inc"]


def test_chance_children_are_visited_in_proportion_to_their_probabilities():
    tree = ("chance", [(0.5, 8), (0.25, ("max", [24, 1])), (0.25, -12)])
    found = mcts(TreeGame(tree), (), iterations=4000, seed=5)
    assert found.action is None
    assert found.value == pytest.approx(0.5 * 8 + 0.25 * 24 - 0.25 * 12, abs=0.8)


def random_trees(count: int) -> list[tuple[RandomGame, float]]:
    """Random MAX/MIN/CHANCE trees with their exact expectiminimax values."""
    games = []
    for seed in range(count):
        game = RandomGame(seed, ("max", "min", "chance"), max_levels=5, min_levels=3)
        if not game.is_terminal(ROOT):
            games.append((game, float(search(game, ROOT, "expectiminimax").value)))
    return games


def test_error_on_random_trees_shrinks_as_iterations_grow():
    games = random_trees(30)
    mean_errors = []
    for count in (10, 100, 1000):
        errors = [abs(float(mcts(game, ROOT, iterations=count, seed=3).value) - exact) for game, exact in games]
        mean_errors.append(statistics.mean(errors))
    assert mean_errors[0] > mean_errors[1] > mean_errors[2]
    assert mean_errors[2] < 0.2  # leaves lie in [-10, 10]


def test_same_seed_same_result_other_seed_other_statistics():
    game = RandomGame(8, ("max", "min", "chance"), max_levels=5, min_levels=5, alternating=True)
    first = mcts(game, ROOT, iterations=300, seed=11)
    again = mcts(game, ROOT, iterations=300, seed=11)
    assert (first.value, first.action, first.action_visits) == (again.value, again.action, again.action_visits)
    others = {(found.action_values, found.stats.generated)
              for found in (mcts(game, ROOT, iterations=300, seed=seed) for seed in range(5))}
    assert len(others) > 1


def test_min_root_chooses_the_low_move():
    tree = ("min", [("max", [3, 9]), ("max", [1, 2]), 7])
    found = mcts(TreeGame(tree), (), iterations=500, seed=0)
    assert found.action == 1
    assert found.value == pytest.approx(2, abs=0.3)


def test_rollout_depth_evaluates_cut_off_positions_and_counts_moves():
    game = RandomGame(5, ("max", "min", "chance"), max_levels=5, min_levels=5, alternating=True)
    cut = mcts(game, ROOT, iterations=200, rollout_depth=0, evaluate=game.evaluate, seed=0)
    assert cut.stats.simulated == 0
    deep = mcts(game, ROOT, iterations=200, rollout_depth=2, evaluate=game.evaluate, seed=0)
    assert 0 < deep.stats.simulated <= 2 * 200
    assert deep.stats.tree_nodes <= 200 + 1
    assert deep.stats.generated >= deep.stats.simulated


def test_custom_rollout_policy_is_used():
    calls = []

    def always_first(state, rng):
        calls.append(state)
        game = IncAndSquare()
        return game.result(state, game.actions(state)[0])

    mcts(IncAndSquare(), (1, 0), iterations=50, rollout=always_first, seed=0)
    assert calls


def test_time_budget_stops_the_search():
    found = mcts(IncAndSquare(), (1, 0), time=0.02, seed=0)
    assert found.stats.iterations >= 1
    assert found.stats.seconds < 1.0


def test_fixed_bounds_give_the_same_answer_on_a_clear_game():
    found = mcts(IncAndSquare(), (1, 0), iterations=5000, bounds=(0, 9), seed=2)
    assert found.action == "inc"


def test_terminal_root_returns_its_utility_without_iterations():
    found = mcts(IncAndSquare(), (6, 1), iterations=10)
    assert (found.value, found.action, found.stats.iterations) == (6, None, 0)


@pytest.mark.parametrize("arguments, message", [
    ({}, "budget"),
    ({"iterations": 0}, "iterations"),
    ({"iterations": True}, "iterations"),
    ({"time": -1.0}, "time"),
    ({"iterations": 5, "c": -1}, "c must"),
    ({"iterations": 5, "c": math.nan}, "c must"),
    ({"iterations": 5, "rollout_depth": 3}, "evaluate"),
    ({"iterations": 5, "rollout_depth": -1, "evaluate": len}, "rollout_depth"),
    ({"iterations": 5, "bounds": (3, 1)}, "bounds"),
    ({"iterations": 5, "bounds": "ab"}, "bounds"),
    ({"iterations": 5, "rollout": 3}, "rollout"),
    ({"iterations": 5, "seed": 1.5}, "seed"),
])
def test_bad_arguments_raise_search_error(arguments, message):
    with pytest.raises(SearchError, match=message):
        mcts(IncAndSquare(), (1, 0), **arguments)


def test_unknown_node_type_raises_search_error():
    class Broken(IncAndSquare):
        def to_move(self, state):
            return "maybe"

    with pytest.raises(SearchError, match="maybe"):
        mcts(Broken(), (1, 0), iterations=3)


def test_node_kinds_are_the_search_vocabulary():
    assert TreeGame(("chance", [(1, 1)])).to_move(()) == CHANCE
    assert TreeGame(("max", [1])).to_move(()) == MAX


# -- the MCTS Pacman ----------------------------------------------------------

def mcts_game(spec: str, ghosts: str = "random", layout: str = "tinyGhostMaze", seed: int = 4):
    from pacsim.agents import make_ghost, make_pacman
    from pacsim.engine import load_layout, play_game

    maze = load_layout(layout)
    agents = [make_pacman(spec)] + [make_ghost(ghosts) for _ in range(maze.num_ghosts)]
    return play_game(maze, agents, seed=seed, max_moves=60), agents[0]


def test_mcts_pacman_same_seed_same_game_and_records_its_statistics():
    first, pacman = mcts_game("mcts:iterations=60")
    again, _ = mcts_game("mcts:iterations=60")
    assert first.actions == again.actions and first.score == again.score
    assert first.outcome in ("win", "loss", "timeout")
    stats = first.search_stats[0]
    assert stats.iterations == 60
    assert stats.simulated > 0
    assert stats.generated >= stats.simulated
    assert pacman.last_result is not None


def test_mcts_pacman_analyze_and_overlay_give_visits_per_action():
    from pacsim.agents import make_pacman
    from pacsim.engine import load_layout

    state = initial_state(load_layout("smallClassic"))
    pacman = make_pacman("mcts:iterations=120,ghosts=min,rollout=greedy,rollout_depth=4")
    result = pacman.analyze(state)
    assert sum(visits for _, visits in result.action_visits) == 120  # every iteration passes one root move
    overlay = pacman.action_values(state)
    assert [action for action, _ in overlay] == state.legal_actions()
    assert max(overlay, key=lambda pair: pair[1])[0] == result.action[0]


def test_mcts_pacman_time_budget_without_iteration_cap():
    from pacsim.agents import make_pacman
    from pacsim.engine import load_layout

    pacman = make_pacman("mcts:iterations=0,time=0.05")
    result = pacman.analyze(initial_state(load_layout("tinyGhostMaze")))
    assert result.stats.iterations >= 1
    assert result.stats.seconds < 2.0


def test_analyze_command_prints_visits(capsys):
    from pacsim.cli import main

    assert main(["analyze", "-l", "tinyGhostMaze", "-p", "mcts:iterations=50"]) == 0
    printed = capsys.readouterr().out
    assert "visits [" in printed and "iterations 50" in printed


def test_benchmark_reports_mcts_rates():
    from pacsim.bench.mcts import mcts_figures
    from pacsim.bench.report import Report

    report = Report()
    mcts_figures(report, iterations=20, count=1)
    found = {figure.name: figure for figure in report.figures}
    assert found["ghosts=chance iterations/s"].unit == "iterations/s"
    assert found["ghosts=min simulated moves/s"].unit == "moves/s"
    assert all(figure.value > 0 for figure in report.figures)
    # A rollout is at most rollout_depth (6) moves, so moves/s <= 6 x iterations/s.
    assert found["ghosts=chance simulated moves/s"].value <= 6 * found["ghosts=chance iterations/s"].value * (1 + 1e-9)


class CountingGame:
    """The agent's game with every position it makes and every utility it
    reads counted, to check the search's statistics against."""

    def __init__(self, game, counts):
        self.game, self.counts = game, counts

    def __getattr__(self, name):
        return getattr(self.game, name)

    def result(self, state, action):
        self.counts["positions"] += 1
        return self.game.result(state, action)

    def outcomes(self, state):
        draws = self.game.outcomes(state)
        self.counts["positions"] += len(draws)
        return draws

    def utility(self, state):
        self.counts["scored"] += 1
        return self.game.utility(state)


@pytest.mark.parametrize("rollout", ["greedy", "random"])
def test_mcts_pacman_counts_every_position_its_rollouts_make_and_score(monkeypatch, rollout):
    # A greedy rollout step makes and scores every successor of Pacman's
    # position: all of them are work, as a depth-limited search counts its
    # generated and evaluated nodes; a random step makes one position.
    from pacsim.agents import make_pacman, mcts_agent
    from pacsim.engine import apply_move, load_layout

    counts = {"positions": 0, "scored": 0}

    def counted_apply_move(*arguments):
        counts["positions"] += 1
        return apply_move(*arguments)

    monkeypatch.setattr(mcts_agent, "apply_move", counted_apply_move)
    pacman = make_pacman(f"mcts:iterations=40,rollout={rollout},rollout_depth=6")
    real_game_for, real_evaluate = pacman.game_for, pacman.evaluate
    monkeypatch.setattr(pacman, "game_for", lambda state: CountingGame(real_game_for(state), counts))

    def counted_evaluate(state):
        counts["scored"] += 1
        return real_evaluate(state)

    pacman.evaluate = counted_evaluate
    stats = pacman.analyze(initial_state(load_layout("smallClassic")), seed=3).stats
    assert stats.generated == counts["positions"]
    assert stats.evaluated == counts["scored"]
    per_move = stats.generated / stats.simulated
    assert per_move > 1.5 if rollout == "greedy" else per_move < 1.5  # greedy pays for its look-ahead
