"""The catalogue of bad inputs: one line on stderr naming the file, exit status 2, no traceback.
Areas add their cases under a header of their own, at the end of the file."""

import sys
from pathlib import Path

import pytest

from pacsim.cli import main
from pacsim.errors import AgentError

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
