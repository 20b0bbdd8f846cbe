"""CS188's reinforcement agents through the adapter: -x training games, the
course loop's registerInitialState / observationFunction / final, Q-tables
keyed by the course GameState.  The agent is tests/cs188_agents/qlearningAgents.py,
written for these tests in the course's style."""

import sys
from pathlib import Path

import pytest

from pacsim.agents import make_ghost, make_pacman
from pacsim.agents.cs188_state import Cs188GameState
from pacsim.cli import main
from pacsim.engine import initial_state, play_game, read_layout

COURSE = Path(__file__).parent / "cs188_agents"
TINY_GRID = COURSE / "layouts" / "tinyGrid.lay"
Q_AGENT = f"{COURSE / 'qlearningAgents.py'}:PacmanQAgent"


@pytest.fixture(autouse=True)
def fresh_course_modules():
    """The next test imports the course files afresh (another test may use another folder's game.py)."""
    yield
    for name, module in list(sys.modules.items()):
        if (getattr(module, "__file__", None) or "").startswith(str(COURSE)):
            del sys.modules[name]


def test_the_game_loop_calls_the_course_hooks_in_the_course_order():
    layout = read_layout(TINY_GRID)
    pacman = make_pacman(Q_AGENT)
    record = play_game(layout, [pacman, make_ghost("random")], seed=3)
    calls = pacman.course_agent.calls
    moves = record.moves
    assert calls == ["registerInitialState", *["observationFunction", "getAction"] * moves, "final"]
    assert pacman.course_agent.episodesSoFar == 1


def test_the_course_game_state_is_equal_and_hashed_by_content():
    layout = read_layout(TINY_GRID)
    one, two = Cs188GameState(initial_state(layout)), Cs188GameState(initial_state(layout))
    assert one is not two and one == two and len({(one, "North"), (two, "North")}) == 1
    assert one.generateSuccessor(0, "North") != one


def test_training_games_teach_the_course_q_agent_and_are_not_counted(capsys, monkeypatch):
    monkeypatch.chdir(COURSE)  # -p ClassName and -l name are found in the course folder, as in CS188
    assert main(["play", "-p", "PacmanQAgent", "-x", "60", "-n", "65", "-l", "tinyGrid", "-q", "--seed", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("training: 60 games")
    # Five counted games, every one the shortest win: the agent learned in the training games
    # and stopped exploring after them (numTraining=60 came from -x, as in the course).
    assert out[-1] == "5 games, 5 wins, win rate 1.00, average score 517.0"
    assert len([line for line in out if line.startswith("game ")]) == 5


def test_minus_x_needs_games_left_to_count(capsys):
    assert main(["play", "-l", "tinyGhostMaze", "-p", "greedy", "-x", "5", "-n", "5", "-q"]) == 2
    assert "-x 5 -n 5: no game left to count" in capsys.readouterr().err


def test_training_games_are_counted_and_recorded_when_asked(capsys, tmp_path):
    argv = ["play", "-l", "tinyGhostMaze", "-p", "greedy", "-x", "3", "-n", "5", "-q", "--seed", "2", "--max-moves", "20"]
    assert main(argv) == 0
    unseen = capsys.readouterr().out.splitlines()
    assert unseen[0].startswith("training: 3 games") and unseen[-1].startswith("2 games")
    assert main([*argv, "--count-training", "--record", str(tmp_path / "g.json")]) == 0
    counted = capsys.readouterr().out.splitlines()
    assert not any(line.startswith("training") for line in counted) and counted[-1].startswith("5 games")
    def seeds_and_scores(lines):
        return [line.split(" ", 2)[2] for line in lines if line.startswith("game ")]

    assert seeds_and_scores(counted)[-2:] == seeds_and_scores(unseen)  # the same last two games either way
    assert len(list(tmp_path.glob("g-*.json"))) == 5
