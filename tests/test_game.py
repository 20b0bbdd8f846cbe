"""The game loop: seeding, replays, the move cap, failing agents."""

import time

import pytest

from pacsim.agents import make_ghost, make_pacman
from pacsim.engine import ERROR, TIMEOUT, WIN, load_layout, play_game, replay
from pacsim.engine.recording import game_to_dict, load_game, save_game


def agents(pacman="greedy", ghost="random", count=2):
    return [make_pacman(pacman)] + [make_ghost(ghost) for _ in range(count)]


def test_same_seed_same_game_and_different_seeds_differ():
    layout = load_layout("smallClassic")
    first = play_game(layout, agents("random", "directional"), seed=11)
    again = play_game(layout, agents("random", "directional"), seed=11)
    other = play_game(layout, agents("random", "directional"), seed=12)
    assert first.actions == again.actions and first.score == again.score
    assert first.actions != other.actions


def test_replay_reproduces_the_game(tmp_path):
    layout = load_layout("mediumClassic")
    record = play_game(layout, agents("greedy", "directional"), seed=3)
    states = replay(layout, record.num_ghosts, record.actions)
    assert states[-1].score == record.score
    assert len(states) == len(record.actions) + 1
    path = tmp_path / "game.json"
    save_game(path, record, layout, "greedy", ["directional", "directional"])
    saved = load_game(path)
    assert saved.states()[-1].score == record.score and saved.outcome == record.outcome
    assert game_to_dict(record, layout, "greedy", [])["version"] == 1


def test_move_cap_ends_in_a_timeout():
    layout = load_layout("mediumClassic")
    record = play_game(layout, agents("random"), seed=1, max_moves=5)
    assert record.outcome == TIMEOUT and record.moves == 5


class Crashing:
    def get_action(self, state):
        raise RuntimeError("boom")


class Hanging:
    def get_action(self, state):
        while True:
            time.sleep(0.01)


class Cheating:
    def get_action(self, state):
        return "Fly"


@pytest.mark.parametrize("agent,message", [
    (Crashing(), "agent 0 raised RuntimeError: boom"),
    (Hanging(), "agent 0 exceeded the 0.05s move time limit"),
    (Cheating(), "agent 0 played illegal action 'Fly'"),
])
def test_a_failing_agent_ends_the_game_as_an_error(agent, message):
    layout = load_layout("pincerMaze")
    record = play_game(layout, [agent, make_ghost("random")], seed=0, move_time_limit=0.05)
    assert record.outcome == ERROR and record.error.startswith(message)


def test_greedy_beats_random_ghosts_on_the_tiny_maze():
    layout = load_layout("pincerMaze")
    records = [play_game(layout, agents("greedy", "random", 1), seed=seed) for seed in range(10)]
    assert sum(record.outcome == WIN for record in records) >= 8
