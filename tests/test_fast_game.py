"""Whole games in the kernel against the Python game loop.

A game the kernel plays must be the game ``play_game`` plays with the same
agents and seed: the same actions, outcome, score, move count and per-move
search statistics (node counts, values, depths), times apart.  The ghosts'
dice are Python's own Mersenne Twister replayed in numba, so the streams
are checked draw for draw first.
"""

import random

import numpy as np
import pytest

pytest.importorskip("numba")

from pacsim.agents import make_ghost, make_pacman
from pacsim.agents.whole_game import ghost_plan, pacman_plan, play_in_kernel
from pacsim.engine import initial_state, load_layout, play_game
from pacsim.engine.starts import draw_start, with_pacman_start
from pacsim.fast import gameloop


def untimed(record):
    """A record's fields that do not depend on the clock."""
    stats = [{key: value for key, value in move.items() if key != "seconds"} for move in record.search_stats]
    return (record.layout, record.seed, record.num_ghosts, record.outcome, record.score, record.moves,
            record.actions, record.error, stats)


def stream_row(rng):
    return np.array(rng.getstate()[1], np.int64)


@pytest.mark.parametrize("seed", ["pacsim:7:0", "pacsim:2026:1", 12345])
def test_the_kernel_draws_pythons_random_numbers(seed):
    python, row = random.Random(seed), None
    row = stream_row(python)
    for count in [1, 2, 3, 5, 4, 1, 7, 3] * 100:  # more than 624 words: the twist happens several times
        assert gameloop.random_float(row) == python.random()
        assert gameloop.random_below(row, count) == python.randrange(count)
    assert list(row) == list(python.getstate()[1])


MAZES = ["optimismHalls", "smallClassic", "tinyGhostMaze", "generated:w=11,h=9,food=5,capsules=1,ghosts=2,loops=0.4,seed=3"]
PACMEN = ["minimax:depth=1,eval=careful", "alphabeta:depth=2,eval=careful,ties=random",
          "expectimax:depth=2,eval=careful,ties=random", "expectimax:depth=3,model=directional,trust=0.7",
          "expectiminimax:depth=1,kinds=MC,slip=0.2,eval=careful", "alphabeta:depth=3", "minimax:depth=4,eval=careful"]
GHOSTS = ["random", "directional:attack=0.6,flee=0.9", "adversarial", "adversarial:p=0.7,depth=1", "adversarial:p=0"]


def cases():
    """Mazes, Pacmen and ghosts crossed over 35 seeded games (a ghost kind
    per ghost of a two-ghost maze), every third from a random start."""
    draw = random.Random(20)
    for game in range(35):
        maze, pacman = MAZES[game % len(MAZES)], PACMEN[game % len(PACMEN)]
        ghosts = [GHOSTS[(game + ghost) % len(GHOSTS)] for ghost in range(2)]
        yield maze, pacman, ghosts, draw.randrange(10_000), game % 3 == 0


def game_layout(maze, seed, random_start):
    layout = load_layout(maze)
    if random_start:
        layout = with_pacman_start(layout, draw_start(layout, layout.num_ghosts, seed, 3))
    return layout


@pytest.mark.parametrize(("maze", "pacman", "ghosts", "seed", "random_start"), list(cases()))
def test_a_kernel_game_is_the_python_loops_game(maze, pacman, ghosts, seed, random_start):
    layout = game_layout(maze, seed, random_start)

    def agents():
        return [make_pacman(pacman)] + [make_ghost(ghost) for ghost in ghosts]

    kernel = play_in_kernel(layout, agents(), seed, max_moves=60)
    python = play_game(layout, agents(), seed=seed, max_moves=60)
    assert kernel is not None and untimed(kernel) == untimed(python)
    assert len(kernel.move_seconds) == kernel.moves and all(seconds > 0 for seconds in kernel.move_seconds)


def test_a_kernel_game_is_the_game_of_agents_searching_in_python():
    """The reference above searches with the per-move kernel; here every
    agent searches in Python, on short games."""
    layout = game_layout("smallClassic", 4, True)
    for pacman, ghost in [("expectimax:depth=1,eval=careful,ties=random", "adversarial:p=0.8,depth=1"),
                          ("alphabeta:depth=2", "directional")]:
        python_agents = [make_pacman(pacman + ",engine=python")] + [make_ghost(ghost) for _ in range(2)]
        if ghost.startswith("adversarial"):
            python_agents[1:] = [make_ghost(ghost + ",engine=python") for _ in range(2)]
        python = play_game(layout, python_agents, seed=9, max_moves=25)
        from pacsim.fast.game import play_kernel_game

        state = initial_state(layout, 2)
        plans = [ghost_plan(make_ghost(ghost)) for _ in range(2)]
        kernel = play_kernel_game(layout, pacman_plan(make_pacman(pacman), state), tuple(plans), 9, 25)
        assert untimed(kernel) == untimed(python) and python.moves > 10


def test_a_game_paused_every_few_nodes_is_the_same_game(monkeypatch):
    import pacsim.fast.game

    layout = load_layout("optimismHalls")

    def agents():
        return [make_pacman("expectimax:depth=2,eval=careful,ties=random"), make_ghost("adversarial:p=0.9")]

    whole = play_in_kernel(layout, agents(), 3, max_moves=40)
    slices = []
    play_slice = gameloop.play_slice
    monkeypatch.setattr(pacsim.fast.game, "FIRST_GAME_SLICE", 7)
    monkeypatch.setattr(pacsim.fast.game, "SMALLEST_SLICE", 7)
    monkeypatch.setattr(pacsim.fast.game, "SLICE_SECONDS", 0.0)
    monkeypatch.setattr(gameloop, "play_slice", lambda *arguments: slices.append(1) or play_slice(*arguments))
    paused = play_in_kernel(layout, agents(), 3, max_moves=40)
    assert untimed(paused) == untimed(whole) and len(slices) > 10 * whole.moves


@pytest.mark.parametrize(("pacman", "ghost", "time_limit"), [
    ("minimax:depth=2", "random", 1.0),  # a move time limit: the Python loop enforces it
    ("minimax:depth=2,engine=python", "random", None),
    ("minimax:depth=2,time=0.5", "random", None),
    ("expectimax:depth=2,algorithm=star1", "random", None),
    ("expectimax:depth=2,model=adversarial", "random", None),
    ("greedy", "random", None),
    ("minimax:depth=2", "adversarial:engine=python", None),
])
def test_what_the_kernel_does_not_cover_is_left_to_python(pacman, ghost, time_limit):
    layout = load_layout("tinyGhostMaze")
    agents = [make_pacman(pacman), make_ghost(ghost)]
    assert play_in_kernel(layout, agents, 1, max_moves=10, move_time_limit=time_limit) is None


def test_the_environment_switch_leaves_whole_games_to_python(monkeypatch):
    monkeypatch.setenv("PACSIM_ENGINE", "python")
    agents = [make_pacman("minimax:depth=1"), make_ghost("random")]
    assert play_in_kernel(load_layout("tinyGhostMaze"), agents, 1, max_moves=10) is None


def test_a_subclass_of_a_built_in_agent_is_left_to_python():
    from pacsim.agents.ghosts import RandomGhost
    from pacsim.agents.search_agents import MinimaxPacman

    class Stubborn(RandomGhost):
        def distribution(self, state):
            return [(state.legal_actions()[0], 1.0)]

    class Careful(MinimaxPacman):
        pass

    layout = load_layout("tinyGhostMaze")
    assert play_in_kernel(layout, [make_pacman("minimax:depth=1"), Stubborn()], 1, max_moves=10) is None
    assert play_in_kernel(layout, [Careful(), make_ghost("random")], 1, max_moves=10) is None
