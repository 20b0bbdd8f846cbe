"""Bad input: each case is one line naming what is wrong, never a traceback."""

import sys
from pathlib import Path

import pytest

from pacsim.agents import make_ghost, make_pacman
from pacsim.cli import main
from pacsim.errors import AgentError

# -- agents: option values (issue 13, item 15) -----------------------------


@pytest.mark.parametrize("spec, message", [
    ("minimax:depth=1000000", "option depth=1000000 must be at most 50"),
    ("minimax:depth=0", "option depth=0 must be at least 1"),
    ("expectimax:table=-5", "option table=-5 must be in [0, 10000000]"),
    ("expectimax:time=-1", "option time=-1.0 must be in [0, 3600] seconds"),
    ("expectimax:time=nan", "option time='nan' for agent 'expectimax' must be a finite number"),
    ("expectimax:trust=inf", "option trust='inf' for agent 'expectimax' must be a finite number"),
    ("expectimax:algorithm=best", "option algorithm='best' is not one of minimax, alphabeta"),
    ("minimax:depth=2.5", "option depth='2.5' for agent 'minimax' must be int"),
])
def test_search_options_out_of_range_are_one_line_errors(spec, message):
    with pytest.raises(AgentError) as caught:
        make_pacman(spec)
    assert message in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize("spec, message", [
    ("directional:attack=1.5", "option attack=1.5 must be a probability in [0, 1]"),
    ("adversarial:depth=99", "option depth=99 must be in [1, 10]"),
])
def test_ghost_options_out_of_range_are_one_line_errors(spec, message):
    with pytest.raises(AgentError, match=message.replace("[", r"\[").replace("]", r"\]")):
        make_ghost(spec)


def test_a_search_deeper_than_the_recursion_allows_is_refused_by_name():
    from pacsim.engine import ERROR, parse_layout, play_game

    layout = parse_layout("%%%%%%%%%%%%\n%P....GGGGG%\n%.%%%%%%%%.%\n%...GGG....%\n%%%%%%%%%%%%\n")
    record = play_game(layout, [make_pacman("minimax:depth=40")] + [make_ghost("random") for _ in range(8)], seed=1)
    assert record.outcome == ERROR
    assert "depth=40 with 8 ghosts is 360 tree levels; at most 250 can be searched" in record.error


# -- CS188 agents and habits ----------------------------------------------------------

CS188_COURSE = Path(__file__).parent / "cs188_agents"


def cs188_error_line(capsys, arguments: list) -> str:
    """Run ``pacsim ARGUMENTS``; assert exit status 2 and one line on stderr; return it."""
    capsys.readouterr()
    status = main([str(argument) for argument in arguments])
    error = capsys.readouterr().err
    assert status == 2, error
    assert error.count("\n") == 1 and "Traceback" not in error, error
    return error.strip()


@pytest.fixture
def cs188_folder(tmp_path):
    """A course folder of the test's own; its modules are forgotten afterwards."""
    folder = tmp_path / "cs188_course"
    folder.mkdir()
    yield folder
    for name, module in list(sys.modules.items()):
        if str(folder) in (getattr(module, "__file__", None) or "") or str(CS188_COURSE) in (getattr(module, "__file__", None) or ""):
            del sys.modules[name]


def test_cs188_unknown_class_name_names_the_folder(capsys):
    line = cs188_error_line(capsys, ["play", "-l", "tinyMaze", "-q", "-p", "NoSuchAgent", "--cs188", CS188_COURSE])
    assert "NoSuchAgent" in line and str(CS188_COURSE) in line


def test_cs188_folder_that_does_not_exist(capsys, tmp_path):
    line = cs188_error_line(capsys, ["play", "-q", "-p", "MinimaxAgent", "--cs188", tmp_path / "nowhere"])
    assert str(tmp_path / "nowhere") in line


@pytest.mark.parametrize(("source", "expected"), [
    ("class Broken:\n    def getAction(self, state)\n        return 'Stop'\n", "SyntaxError"),
    ("import no_such_course_module\n\nclass Broken:\n    pass\n", "ModuleNotFoundError"),
    ("import sys\nsys.exit(3)\n\nclass Broken:\n    pass\n", "SystemExit"),
])
def test_cs188_agents_file_that_cannot_be_imported(capsys, cs188_folder, source, expected):
    path = cs188_folder / "brokenAgents.py"
    path.write_text(source)
    line = cs188_error_line(capsys, ["play", "-l", "tinyMaze", "-q", "-p", "Broken", "--cs188", cs188_folder])
    assert f"{path}:" in line and expected in line
    if expected == "SyntaxError":
        assert f"{path}:2" in line


def test_cs188_option_the_constructor_does_not_take(cs188_folder):
    from pacsim.agents.cs188 import import_cs188_file, wrap_cs188_agent

    module = import_cs188_file(CS188_COURSE / "multiAgents.py")
    with pytest.raises(AgentError, match=r"multiAgents\.py:MinimaxAgent: unknown option 'colour' \(options: evalFn, depth\)"):
        wrap_cs188_agent(module.MinimaxAgent, {"colour": "red"}, module.__file__)


def test_cs188_constructor_that_raises_names_the_users_line(cs188_folder):
    from pacsim.agents.cs188 import import_cs188_file, wrap_cs188_agent

    module = import_cs188_file(CS188_COURSE / "multiAgents.py")
    with pytest.raises(AgentError, match=r"MinimaxAgent: constructing it raised KeyError: .*nope.*util\.py:\d+\)$"):
        wrap_cs188_agent(module.MinimaxAgent, {"evalFn": "nope"}, module.__file__)


def test_cs188_missing_file_and_a_class_that_is_not_an_agent(tmp_path):
    from pacsim.agents.cs188 import import_cs188_file, wrap_cs188_agent

    with pytest.raises(AgentError, match="no such file"):
        import_cs188_file(tmp_path / "missingAgents.py")
    with pytest.raises(AgentError, match="not a CS188 agent class"):
        wrap_cs188_agent(dict, {}, None)
