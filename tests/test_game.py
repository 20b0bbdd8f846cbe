"""The game loop: seeding, replays, the move cap, failing agents."""

import json
import os
import signal
import threading
import time

import pytest

from pacsim.agents import Agent, make_ghost, make_pacman
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
    layout = load_layout("wideClassic")
    record = play_game(layout, agents("greedy", "directional"), seed=3)
    states = replay(layout, record.num_ghosts, record.actions)
    assert states[-1].score == record.score
    assert len(states) == len(record.actions) + 1
    path = tmp_path / "game.json"
    save_game(path, record, layout, "greedy", ["directional", "directional"])
    saved = load_game(path)
    assert saved.states()[-1].score == record.score and saved.outcome == record.outcome
    assert game_to_dict(record, layout, "greedy", [])["version"] == 2


def test_move_cap_ends_in_a_timeout():
    layout = load_layout("wideClassic")
    record = play_game(layout, agents("random"), seed=1, max_moves=5)
    assert record.outcome == TIMEOUT and record.moves == 5


class Crashing(Agent):
    def get_action(self, state):
        raise RuntimeError("boom")


class Hanging(Agent):
    def get_action(self, state):
        while True:
            time.sleep(0.01)


class Cheating(Agent):
    def get_action(self, state):
        return "Fly"


@pytest.mark.parametrize("agent,message", [
    (Crashing(), "agent 0 raised RuntimeError at test_game.py:"),
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


# -- agents that raise what is not an Exception, or hang outside the main thread

def line_of(function, text):
    """The line number in this file of ``text`` inside ``function``."""
    lines, first = __import__("inspect").getsourcelines(function)
    return first + next(index for index, line in enumerate(lines) if text in line)


class Exiting(Agent):
    def get_action(self, state):
        raise SystemExit(3)


class Interrupting(Agent):
    def get_action(self, state):
        raise KeyboardInterrupt


class ParsingBadly(Agent):
    def get_action(self, state):
        return json.loads("{not json")


class FailingReset(Agent):
    def reset(self, index, rng):
        raise ValueError("no reset today")

    def get_action(self, state):
        return "Stop"


@pytest.mark.parametrize("agent, method, line, message", [
    (Exiting(), Exiting.get_action, "SystemExit", "agent 0 raised SystemExit at test_game.py:{line}: 3"),
    (Interrupting(), Interrupting.get_action, "KeyboardInterrupt",
     "agent 0 raised KeyboardInterrupt at test_game.py:{line}"),
    # The innermost line of the agent's own code, not of the json module it called.
    (ParsingBadly(), ParsingBadly.get_action, "json.loads", "agent 0 raised JSONDecodeError at test_game.py:{line}: "),
    (FailingReset(), FailingReset.reset, "no reset", "agent 0 raised ValueError at test_game.py:{line}: no reset today in reset"),
])
def test_an_agent_raising_anything_ends_only_its_game_and_names_its_line(agent, method, line, message):
    layout = load_layout("pincerMaze")
    record = play_game(layout, [agent, make_ghost("random")], seed=0)
    assert record.outcome == ERROR
    assert record.error.startswith(message.format(line=line_of(method, line))), record.error


def test_a_hanging_agent_is_stopped_outside_the_main_thread_too():
    # Signals reach only the main thread; a Dask worker plays in a thread pool.
    layout = load_layout("pincerMaze")
    records = []
    started = time.monotonic()
    player = threading.Thread(target=lambda: records.append(
        play_game(layout, [Hanging(), make_ghost("random")], seed=0, move_time_limit=0.05)))
    player.start()
    player.join(timeout=10)
    assert not player.is_alive() and time.monotonic() - started < 2
    assert records[0].outcome == ERROR
    assert records[0].error.startswith("agent 0 exceeded the 0.05s move time limit")
    # A move that ends in time leaves no timeout pending in the thread.
    quick = threading.Thread(target=lambda: records.append(
        play_game(layout, agents("greedy", "random", 1), seed=0, move_time_limit=5.0)))
    quick.start()
    quick.join(timeout=10)
    assert records[1].outcome != ERROR


class PressingCtrlC(Agent):
    """A user's Ctrl-C arriving while the agent thinks."""

    def get_action(self, state):
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(1)
        return "Stop"


@pytest.mark.usefixtures("ctrl_c_delivered")
def test_a_real_ctrl_c_still_stops_the_caller():
    layout = load_layout("pincerMaze")
    with pytest.raises(KeyboardInterrupt):
        play_game(layout, [PressingCtrlC(), make_ghost("random")], seed=0)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
