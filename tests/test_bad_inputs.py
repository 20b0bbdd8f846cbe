"""Bad input: each case is one line naming what is wrong, never a traceback."""

import http.server
import json
import os
import signal
import socket
import sqlite3
import sys
import threading
import time
from pathlib import Path

import pytest
from optional import missing, needed

from pacsim.agents import Agent, make_ghost, make_pacman
from pacsim.cli import main
from pacsim.errors import AgentError, PacsimError

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
    line = cs188_error_line(capsys, ["play", "-l", "tinyGhostMaze", "-q", "-p", "NoSuchAgent", "--cs188", CS188_COURSE])
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
    line = cs188_error_line(capsys, ["play", "-l", "tinyGhostMaze", "-q", "-p", "Broken", "--cs188", cs188_folder])
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


def fails_in_one_line(capsys, arguments: list, names: str | Path) -> str:
    """Run ``pacsim ARGUMENTS``; assert exit status 2 and exactly one line on
    stderr that names ``names`` (a file, usually); return that line."""
    capsys.readouterr()
    status = main([str(argument) for argument in arguments])
    error = capsys.readouterr().err
    assert status == 2, error
    assert error.count("\n") == 1 and error.endswith("\n"), error
    assert str(names) in error, error
    return error.strip()



@pytest.mark.parametrize("arguments, message", [
    (["-p", "KERNEL_GHOST:cutter"], "cutter is a ghost policy (@pacsim.kernel_ghost); name it as a ghost (-g)"),
    (["-g", "KERNEL_EVAL:hungry"], "hungry is a function, not an agent"),
    (["-p", "expectimax:depth=1,eval=KERNEL_GHOST:cutter"], "cutter' is a ghost policy (@pacsim.kernel_ghost)"),
], ids=["ghost policy as Pacman", "evaluation as ghost", "ghost policy as evaluation"])
def test_a_kernel_function_in_the_wrong_role_is_one_line(capsys, arguments, message):
    """``@pacsim.kernel_ghost`` and ``@pacsim.kernel_evaluation`` functions
    named where the other (or an agent class) is wanted."""
    from pacsim.shipped import shipped_path

    files = {"KERNEL_GHOST": shipped_path("examples/kernel_ghost.py"), "KERNEL_EVAL": shipped_path("examples/kernel_eval.py")}
    for placeholder, path in files.items():
        arguments = [argument.replace(placeholder, str(path.resolve())) for argument in arguments]
    line = fails_in_one_line(capsys, ["play", "-q", "-l", "tinyGhostMaze", *arguments], message)
    assert "Traceback" not in line


# -- installing: optional extras --------------------------------------------

HINT_FORMS = ("pip install 'pacsim[{extra}]'", "pip install -e '.[{extra}]'")
"""A hint must work for a wheel user and for a checkout (README) user."""


def assert_hint_for_both(message: str, extra: str) -> None:
    for form in HINT_FORMS:
        assert form.format(extra=extra) in message, message


def test_plot_without_matplotlib_says_how_to_install_it_either_way(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now raises ImportError
    from pacsim.report.plot import plot_summary

    with pytest.raises(PacsimError) as caught:
        plot_summary(None, None, ["condition"], tmp_path / "plot.png")
    assert_hint_for_both(str(caught.value), "plot")


def test_gif_without_pillow_says_how_to_install_it_either_way(monkeypatch):
    import importlib.util

    from pacsim.viewer.capture import require_pillow

    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *rest: None if name == "PIL" else real_find_spec(name, *rest))
    with pytest.raises(PacsimError) as caught:
        require_pillow()
    assert_hint_for_both(str(caught.value), "gif")


def test_dask_without_distributed_says_how_to_install_it_either_way(monkeypatch):
    from pacsim.runner.dask_executor import dask_executor

    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(PacsimError) as caught, dask_executor():
        pass
    assert_hint_for_both(str(caught.value), "dask")


# -- files a user names: layouts, experiments, records ----------------------

@pytest.fixture
def alarm():
    """Fail, rather than hang, when reading a file blocks (a FIFO opened for reading)."""
    def ring(*_):
        raise TimeoutError("reading the file blocked")

    previous = signal.signal(signal.SIGALRM, ring)
    signal.alarm(20)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


FILE_COMMANDS = {
    "layouts --check": ["layouts", "--check"],
    "play -l": ["play", "-q", "-n", "1", "-l"],
    "replay": ["replay", "-q"],
    "run": ["run", "-q"],
}


@pytest.mark.parametrize("command", FILE_COMMANDS.values(), ids=FILE_COMMANDS.keys())
def test_a_fifo_or_a_device_is_refused_in_one_line(tmp_path, capsys, alarm, command):
    fifo = tmp_path / "pipe.lay"
    os.mkfifo(fifo)
    assert "not a regular file (a FIFO)" in fails_in_one_line(capsys, [*command, fifo], fifo)
    if Path("/dev/zero").exists():
        assert "not a regular file (a character device)" in fails_in_one_line(capsys, [*command, "/dev/zero"], "/dev/zero")
    assert "not a regular file (a directory)" in fails_in_one_line(capsys, [*command, tmp_path], tmp_path)


def test_a_layout_is_read_up_to_the_limit_whatever_its_size_says(capsys, monkeypatch):
    import pacsim.engine.layout

    monkeypatch.setattr(pacsim.engine.layout, "MAX_FILE_BYTES", 64)
    maps = Path("/proc/self/maps")  # a regular file whose st_size is 0
    if not maps.exists() or maps.stat().st_size != 0:
        missing("needs Linux's /proc")
    assert "file larger than 64 bytes" in fails_in_one_line(capsys, ["layouts", "--check", maps], maps)


# -- experiment and command-line limits -------------------------------------

def experiment_file(tmp_path: Path, **settings) -> Path:
    """A one-game experiment on tinyGhostMaze, with ``settings`` as top-level keys."""
    lines = [f"{key} = {value}" for key, value in {"games": 1, "store": f"'{tmp_path / 'limits.sqlite'}'", **settings}.items()]
    path = tmp_path / "limits.toml"
    path.write_text("\n".join(lines) + "\n[grid]\npacman = ['greedy']\nghosts = ['random']\nlayout = ['tinyGhostMaze']\n")
    return path


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "-1", "1e9"])
def test_an_experiment_time_limit_must_be_finite_and_sensible(tmp_path, capsys, value):
    path = experiment_file(tmp_path, time_limit=value)
    assert "time_limit: must be at least 0 and at most 3600 seconds a move" in fails_in_one_line(capsys, ["run", "-q", path], path)
    plain = experiment_file(tmp_path)
    fails_in_one_line(capsys, ["run", "-q", plain, "--set", f"time_limit={value}"], plain)
    assert not (tmp_path / "limits.sqlite").exists()  # refused before any game


@pytest.mark.parametrize("value", ["nan", "inf", "-1", "1e9"])
def test_a_command_line_time_limit_must_be_finite_and_sensible(capsys, value):
    line = fails_in_one_line(capsys, ["play", "-l", "tinyGhostMaze", "-q", "-n", "1", "--time-limit", value], "--time-limit")
    assert f"--time-limit {float(value)}: must be at least 0 and at most 3600 seconds a move (0: no limit)" in line


def test_a_zero_time_limit_means_none(capsys):
    assert main(["play", "-l", "tinyGhostMaze", "-p", "greedy", "-q", "-n", "2", "--seed", "1", "--time-limit", "0"]) == 0
    assert "error" not in capsys.readouterr().out


def test_absurd_game_counts_are_refused_before_seeds_are_drawn(tmp_path, capsys):
    path = experiment_file(tmp_path, games=100_000_000_000)
    assert "games: must be at most 100,000" in fails_in_one_line(capsys, ["run", "-q", path], path)
    line = fails_in_one_line(capsys, ["reproduce", "--games", "100000000000"], "optimism_pessimism.toml")
    assert "games: must be at most 100,000" in line
    grid = experiment_file(tmp_path, games=100_000)  # 12 conditions: 1.2 million games
    grid.write_text(grid.read_text().replace("pacman = ['greedy']", "pacman = ['greedy', 'random']")
                    .replace("ghosts = ['random']", "ghosts = ['random', 'directional', 'adversarial']\nnum_ghosts = [0, 1]"))
    assert "split it into several" in fails_in_one_line(capsys, ["run", "-q", grid], grid)


# -- game records (JSON) ----------------------------------------------------

@pytest.fixture(scope="module")
def record(tmp_path_factory) -> dict:
    """A real game record, as JSON data to spoil."""
    from pacsim.agents.registry import make_ghost, make_pacman
    from pacsim.engine import load_layout, play_game
    from pacsim.engine.recording import game_to_dict

    layout = load_layout("tinyGhostMaze")
    played = play_game(layout, [make_pacman("greedy"), make_ghost("random")], seed=3, max_moves=20)
    return game_to_dict(played, layout, "greedy", ["random"])


SPOILED_RECORDS = {
    "layout text a list": (lambda data: data["layout"].update(text=["%%%", "%P."]), '"layout.text" must be a string, not an array of 2 items'),
    "layout text a number": (lambda data: data["layout"].update(text=7), '"layout.text" must be a string, not 7'),
    "layout an array": (lambda data: data.update(layout=[1]), '"layout" must be an object, not an array of 1 items'),
    "no actions": (lambda data: data.pop("actions"), 'no "actions"'),
    "an action a number": (lambda data: data.update(actions=["North", 4]), '"actions"[1] must be a string, not 4'),
    "an unknown letter": (lambda data: data.update(actions="NQ"), '"actions": unknown action letter \'Q\''),
    "ghosts a text": (lambda data: data.update(num_ghosts="1"), "\"num_ghosts\" must be an integer, not '1'"),
    "ghosts a bool": (lambda data: data.update(num_ghosts=True), '"num_ghosts" must be an integer, not True'),
    "too many ghosts": (lambda data: data.update(num_ghosts=9), "9 ghosts recorded, but the layout has"),
    "score nested": (lambda data: data.update(score=[[[1]]]), '"score" must be an integer, not an array of 1 items'),
    "version nested": (lambda data: data.update(version={"a": [1]}), "record version an object of 1 items is not supported"),
}


@pytest.mark.parametrize("spoil,expected", SPOILED_RECORDS.values(), ids=SPOILED_RECORDS.keys())
def test_a_record_with_wrong_types_is_one_line(tmp_path, capsys, record, spoil, expected):
    import copy
    import json

    data = copy.deepcopy(record)
    spoil(data)
    path = tmp_path / "spoiled.json"
    path.write_text(json.dumps(data))
    assert expected in fails_in_one_line(capsys, ["replay", "-q", path], path)


@pytest.mark.parametrize("opening,closing", [("[", "]"), ('{"a":', "}")], ids=["arrays", "objects"])
def test_a_deeply_nested_record_is_one_line(tmp_path, capsys, opening, closing):
    path = tmp_path / "nested.json"
    path.write_text('{"format": "pacsim-game", "version": 1, "layout": ' + opening * 100_000 + "1" + closing * 100_000 + "}")
    assert "nested too deeply" in fails_in_one_line(capsys, ["replay", "-q", path], path)


# -- results stores -----------------------------------------------------------

STORE_EXPERIMENT = """name = "spoil"
games = 3
seed = 4
max_moves = 40
store = "{store}"
[grid]
pacman = ["greedy"]
ghosts = ["random"]
layout = ["tinyGhostMaze"]
"""


@pytest.fixture(scope="module")
def good_store(tmp_path_factory) -> Path:
    from pacsim.runner import load_experiment, run_experiment

    directory = tmp_path_factory.mktemp("good")
    path = directory / "good.toml"
    path.write_text(STORE_EXPERIMENT.format(store=directory / "good.sqlite"))
    return run_experiment(load_experiment(path), workers=1, quiet=True).store


def spoiled_store(good_store: Path, directory: Path, statement: str = "") -> tuple[Path, Path]:
    """A copy of the good store changed by an SQL ``statement``, and an experiment file writing to it."""
    store = directory / "spoiled.sqlite"
    store.write_bytes(good_store.read_bytes())
    if statement:
        with sqlite3.connect(store) as connection:
            connection.execute(statement)
        connection.close()
    experiment = directory / "spoiled.toml"
    experiment.write_text(STORE_EXPERIMENT.format(store=store))
    return store, experiment


def store_commands(store: Path, experiment: Path, game: int) -> dict[str, list]:
    return {
        "report": ["report", store],
        "export": ["export", store, "--out", store.with_suffix(".csv")],
        "replay --game": ["replay", "-q", store, "--game", game],
        "run": ["run", "-q", experiment],
    }


def test_a_store_with_a_junk_page_is_one_line_everywhere(tmp_path, capsys, good_store):
    store, experiment = spoiled_store(good_store, tmp_path)
    data = bytearray(store.read_bytes())
    page_size = int.from_bytes(data[16:18], "big")
    assert len(data) >= 3 * page_size  # the schema's page, then the tables' pages
    data[page_size:] = b"junk" * ((len(data) - page_size) // 4)
    store.write_bytes(bytes(data))
    for command in store_commands(store, experiment, 1).values():
        assert "not a results store, or a damaged one" in fails_in_one_line(capsys, command, store)


@pytest.mark.parametrize("statement,game,expected", [
    ("UPDATE games SET options = '{oops' WHERE id = 2", 2, "game 2: options is not JSON: '{oops'"),
    ("UPDATE games SET options = '[1, 2]' WHERE id = 2", 2, "game 2: options must be an object"),
    ("UPDATE games SET score = 'lots' WHERE id = 3", 3, "game 3: column score holds 'lots', not an integer"),
    ("UPDATE games SET seconds = 'slow' WHERE id = 1", 1, "game 1: column seconds holds 'slow', not a number"),
    ("UPDATE games SET outcome = X'41' WHERE id = 1", 1, "game 1: column outcome holds b'A', not text"),
], ids=["options not JSON", "options not an object", "text score", "text seconds", "bytes outcome"])
def test_a_damaged_row_is_one_line_naming_the_game_everywhere(tmp_path, capsys, good_store, statement, game, expected):
    store, experiment = spoiled_store(good_store, tmp_path, statement)
    before = store.read_bytes()
    for command in store_commands(store, experiment, game).values():
        assert expected in fails_in_one_line(capsys, command, store)
    assert store.read_bytes() == before  # run refused before writing anything


@pytest.mark.parametrize("config,expected", [
    ("'{oops'", "experiment 'spoil': config is not JSON: '{oops'"),
    ("'[4]'", "experiment 'spoil': config must be a JSON object, not an array"),
    ("X'7b7d'", "experiment 'spoil': config must be a JSON object, not b'{}'"),
], ids=["not JSON", "not an object", "bytes"])
def test_a_damaged_experiment_config_is_one_line_naming_the_experiment(tmp_path, capsys, good_store, config, expected):
    store, experiment = spoiled_store(good_store, tmp_path, f"UPDATE experiments SET config = {config}")
    for command in store_commands(store, experiment, 1).values():
        assert expected in fails_in_one_line(capsys, command, store)


def test_an_unknown_action_letter_is_one_line_naming_the_game(tmp_path, capsys, good_store):
    store, _ = spoiled_store(good_store, tmp_path, "UPDATE games SET actions = 'NQS' WHERE id = 2")
    line = fails_in_one_line(capsys, ["replay", "-q", store, "--game", 2], store)
    assert "game 2: unknown action letter 'Q'" in line
    store, _ = spoiled_store(good_store, tmp_path, "UPDATE games SET actions = '[\"North\", 3' WHERE id = 2")
    assert "game 2: a replay log that is not a JSON list" in fails_in_one_line(capsys, ["replay", "-q", store, "--game", 2], store)


def test_a_huge_game_id_is_no_game(capsys, good_store):
    assert "no game 100000000000000000000 (ids 1..3)" in fails_in_one_line(
        capsys, ["replay", "-q", good_store, "--game", 10**20], good_store)


def test_a_store_missing_a_column_is_not_a_pacsim_store(tmp_path, capsys, good_store):
    store, experiment = spoiled_store(good_store, tmp_path, "ALTER TABLE games DROP COLUMN seconds")
    for command in store_commands(store, experiment, 1).values():
        assert "not a pacsim results store (its games table has no seconds column)" in fails_in_one_line(capsys, command, store)


# viewer


def one_line_error(capsys, argv):
    """Run the command; its exit status and its stderr, which must be one line."""
    status = main(argv)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return status, err


@pytest.fixture
def no_display(monkeypatch):
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "PACSIM_HIDDEN_WINDOW"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


@pytest.mark.parametrize("driver", [None, "dummy", "offscreen"])
def test_window_without_a_display_is_refused(capsys, no_display, driver):
    if driver is None:
        no_display.delenv("SDL_VIDEODRIVER", raising=False)
    else:
        no_display.setenv("SDL_VIDEODRIVER", driver)
        no_display.setenv("DISPLAY", ":0")  # a display SDL has been told not to use
    argv = ["play", "-l", "classic", "-p", "keyboard", "--window", "--max-moves", "2", "--frame-time", "0"]
    status, err = one_line_error(capsys, argv)
    assert status == 2 and "--window" in err
    assert ("no display" in err) if driver is None else (f"SDL_VIDEODRIVER={driver}" in err)


def test_replay_window_without_a_display_is_refused(capsys, no_display, tmp_path):
    no_display.setenv("SDL_VIDEODRIVER", "dummy")
    record = tmp_path / "game.json"
    assert main(["play", "-l", "tinyGhostMaze", "-q", "--seed", "1", "--max-moves", "3", "--record", str(record)]) == 0
    capsys.readouterr()
    status, err = one_line_error(capsys, ["replay", str(record), "--window", "--frame-time", "0"])
    assert status == 2 and "--window: SDL_VIDEODRIVER=dummy shows no window" in err


@pytest.mark.parametrize(("option", "value"), [
    ("--zoom", "0"), ("--zoom", "-1"), ("--zoom", "nan"), ("--zoom", "1e9"),
    ("--frame-time", "-1"), ("--frame-time", "nan"), ("--frame-time", "inf"),
])
def test_bad_viewing_options(capsys, option, value):
    status, err = one_line_error(capsys, ["play", "-l", "tinyGhostMaze", "-q", "--max-moves", "2", option, value])
    assert status == 2 and f"{option} {float(value)}" in err


def test_replay_has_no_show_values(capsys):
    status, err = one_line_error(capsys, ["replay", "game.json", "--show-values"])
    assert status == 2 and "unrecognized arguments: --show-values" in err


def test_gif_path_is_checked_before_the_game(capsys, tmp_path):
    needed("PIL", "pip install -e '.[gif]'")
    blocker = tmp_path / "file"
    blocker.write_text("")
    for target, message in [(tmp_path, "is a directory"), (blocker / "game.gif", f"{blocker} is a file, not a folder")]:
        status = main(["play", "-l", "tinyGhostMaze", "-q", "--max-moves", "3", "--gif", str(target)])
        captured = capsys.readouterr()
        assert status == 2 and captured.out == "" and message in captured.err and captured.err.count("\n") == 1
    assert main(["play", "-l", "tinyGhostMaze", "-q", "--max-moves", "3", "--gif", str(tmp_path / "new" / "game")]) == 0
    assert (tmp_path / "new" / "game").read_bytes()[:6] == b"GIF89a"


# runner ----------------------------------------------------------------------

ALWAYS_FAILING = """
def evaluate(state):
    raise SystemExit("a plugin that exits")
"""


def test_runner_a_run_whose_every_game_errors_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys):
    (tmp_path / "exiting_evaluation.py").write_text(ALWAYS_FAILING, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    path = tmp_path / "exp.toml"
    path.write_text(f"""
name = "all_errors"
games = 3
seed = 1
max_moves = 20
store = "{tmp_path / 'results.sqlite'}"
[grid]
pacman = ["minimax:depth=1,backend=python,eval=exiting_evaluation:evaluate"]
ghosts = ["random"]
layout = ["tinyGhostMaze"]
""", encoding="utf-8")
    assert main(["run", str(path), "--workers", "1", "--quiet"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1
    assert error.startswith("pacsim: error: all 3 games played ended in error; the first: agent 0 raised SystemExit "
                            "at exiting_evaluation.py:3: a plugin that exits")
    with sqlite3.connect(tmp_path / "results.sqlite") as connection:  # stored all the same: played again next run
        assert connection.execute("SELECT outcome, COUNT(*) FROM games GROUP BY outcome").fetchall() == [("error", 3)]


class _SilentListener:
    """A TCP port that accepts connections and never says a word."""

    def __init__(self) -> None:
        self.socket = socket.socket()
        self.socket.bind(("127.0.0.1", 0))
        self.socket.listen()
        self.address = f"tcp://127.0.0.1:{self.socket.getsockname()[1]}"
        self.connections: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                self.connections.append(self.socket.accept()[0])
            except OSError:  # closed
                return

    def close(self) -> None:
        for connection in self.connections:
            connection.close()
        self.socket.close()


@pytest.fixture(params=["silent listener", "web server"])
def not_a_scheduler(request):
    """The address of a service on 127.0.0.1 that is not a Dask scheduler
    (what a dashboard port or a mistyped port finds)."""
    if request.param == "silent listener":
        listener = _SilentListener()
        yield listener.address
        listener.close()
    else:
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _QuietHandler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        yield f"tcp://127.0.0.1:{server.server_address[1]}"
        server.shutdown()
        server.server_close()


class _QuietHandler(http.server.BaseHTTPRequestHandler):
    def log_message(self, format, *args):
        pass


def test_runner_a_scheduler_address_where_no_dask_answers_is_one_line_within_10_seconds(
        tmp_path, capsys, monkeypatch, not_a_scheduler):
    needed("distributed", "pip install -e '.[dask]'")
    import pacsim.runner.dask_executor as dask_executor

    monkeypatch.setattr(dask_executor, "CONNECT_TIMEOUT_SECONDS", 0.5)
    experiment = Path(__file__).parents[1] / "experiments" / "optimism_pessimism" / "optimism_pessimism.toml"
    started = time.monotonic()
    status = main(["run", str(experiment), "--executor", "dask", "--scheduler", not_a_scheduler,
                   "--store", str(tmp_path / "unused.sqlite")])
    assert status == 2 and time.monotonic() - started < 10
    error = capsys.readouterr().err
    assert error.count("\n") == 1
    assert error.startswith(f"pacsim: error: cannot reach the Dask scheduler {not_a_scheduler!r}: ")
    assert not (tmp_path / "unused.sqlite").exists()


# -- fast path (engine option) ----------------------------------------------

def test_unknown_engine_option_is_one_agent_error():
    import pytest

    from pacsim.agents import make_ghost, make_pacman
    from pacsim.errors import AgentError

    with pytest.raises(AgentError, match="backend='turbo'"):
        make_pacman("expectimax:backend=turbo")
    with pytest.raises(AgentError, match="backend='turbo'"):
        make_ghost("adversarial:backend=turbo")


# -- mcts: the MCTS Pacman's options and the MCTS search's arguments -----------
# (self-contained: imports inside the tests, so the section moves as one block)

def test_mcts_bad_options_are_one_line_exit_2(capsys):
    from pacsim.cli import main

    for spec, quoted in (("mcts:ghosts=max", "ghosts='max'"), ("mcts:rollout=smart", "rollout='smart'"),
                         ("mcts:iterations=0", "budget"), ("mcts:c=-1", "c=-1"),
                         ("mcts:model=psychic", "model='psychic'"), ("mcts:eval=nosuch", "nosuch"),
                         ("mcts:rollout_depth=-2", "rollout_depth=-2"), ("mcts:iteratons=5", "iteratons"),
                         ("mcts:iterations=many", "iterations")):
        capsys.readouterr()
        status = main(["play", "-q", "-l", "tinyGhostMaze", "-p", spec])
        error = capsys.readouterr().err
        assert status == 2, (spec, error)
        assert error.count("\n") == 1 and quoted in error, (spec, error)


def test_mcts_search_arguments_raise_search_error():
    import pytest

    from pacsim.errors import PacsimError, SearchError
    from pacsim.search import mcts

    class OneMove:
        def to_move(self, state):
            return "max"

        def actions(self, state):
            return ["go"]

        def result(self, state, action):
            return state + 1

        def outcomes(self, state):
            return []

        def is_terminal(self, state):
            return state > 0

        def utility(self, state):
            return 1

    for arguments in ({}, {"iterations": -3}, {"time": 0}, {"iterations": 5, "c": "wide"},
                      {"iterations": 5, "rollout_depth": 2}, {"iterations": 5, "bounds": (1, 0)}):
        with pytest.raises(SearchError) as raised:
            mcts(OneMove(), 0, **arguments)
        assert isinstance(raised.value, PacsimError)


# -- maze: generated mazes and reports -------------------------------------------


def test_bad_generated_maze_options_are_one_line(capsys):
    assert main(["layouts", "--generate", "--width", "3"]) == 2
    assert capsys.readouterr().err.strip() == "pacsim: error: generated maze: width=3 must be between 5 and 128"
    assert main(["layouts", "--generate", "--food", "40"]) == 2
    error = capsys.readouterr().err
    assert "42 things to place on 23 open squares" in error and len(error.splitlines()) == 1


def test_bad_generated_layout_in_an_experiment_names_file_and_key(tmp_path, capsys):
    path = tmp_path / "exp.toml"
    path.write_text('games = 1\n[grid]\npacman = ["greedy"]\nghosts = ["random"]\n'
                    'layout = ["generated:w=9,h=7,seed=9-3"]\n', encoding="utf-8")
    assert main(["run", str(path), "--store", str(tmp_path / "r.sqlite")]) == 2
    error = capsys.readouterr().err
    assert f"{path}: grid.layout: generated:w=9,h=7,seed=9-3: seed range '9-3' runs backwards" in error
    assert len(error.splitlines()) == 1


def test_report_without_a_store_and_bad_plot_suffix_are_one_line(tmp_path, capsys):
    assert main(["report"]) == 2
    assert "which results store?" in capsys.readouterr().err
    assert main(["report", "--by", "pacman"]) == 2  # the last --by value is taken as the store
    assert capsys.readouterr().err.strip() == "pacsim: error: pacman: no such results store"
    assert main(["reproduce", "--plot", str(tmp_path / "table.gif")]) == 2
    assert "table.gif: cannot plot to '.gif'" in capsys.readouterr().err


# -- probcut: ChanceProbCut model files and the fit command -----------------

GOOD_MODEL = '{"format": "pacsim-probcut", "version": 1, "model": {"reduction": 3, "slope": 1.0, "intercept": 0.0, "sigma": 5.0}}'


@pytest.mark.parametrize("text,expected", [
    ("{oops", "not a ProbCut model (not JSON"),
    ("[1, 2]", "not a ProbCut model (no \"format\""),
    ('{"format": "pacsim-probcut", "model": 3}', "\"model\" must be an object"),
    (GOOD_MODEL.replace('"sigma": 5.0', '"sigma": -5.0'), "sigma must not be negative"),
    (GOOD_MODEL.replace('"sigma": 5.0', '"sigma": "wide"'), "sigma must be a finite number, not 'wide'"),
    (GOOD_MODEL.replace(', "sigma": 5.0', ""), "model field 'sigma' missing"),
    (GOOD_MODEL.replace('"sigma"', '"sigmaa"'), "unknown model field 'sigmaa'"),
    (GOOD_MODEL.replace('"reduction": 3', '"reduction": 0'), "reduction must be a positive integer"),
    (GOOD_MODEL.replace('"sigma": 5.0', '"sigma": 5.0, "by_depth": [{"depth": 4}]'), "each line of \"by_depth\""),
    (GOOD_MODEL.replace('"sigma": 5.0', '"sigma": 5.0, "by_depth": 7'), "\"by_depth\" must be a list"),
], ids=["not JSON", "not an object", "model not an object", "negative sigma", "text sigma", "missing field",
        "unknown field", "zero reduction", "short line", "lines not a list"])
def test_a_bad_probcut_model_is_one_line_naming_the_file(tmp_path, capsys, text, expected):
    path = tmp_path / "model.json"
    path.write_text(text)
    spec = f"expectimax:depth=1,eval=careful,algorithm=star2,probcut={path}"
    line = fails_in_one_line(capsys, ["play", "-q", "-l", "tinyGhostMaze", "-p", spec], path)
    assert expected in line


def test_a_missing_or_special_probcut_file_is_one_line(tmp_path, capsys):
    for path in (tmp_path / "absent.json", tmp_path):
        spec = f"expectimax:depth=1,eval=careful,algorithm=star2,probcut={path}"
        assert "cannot read the file" in fails_in_one_line(capsys, ["play", "-q", "-l", "tinyGhostMaze", "-p", spec], path)


def test_probcut_options_that_cannot_apply_are_one_line(tmp_path, capsys):
    path = tmp_path / "model.json"
    path.write_text(GOOD_MODEL)
    line = fails_in_one_line(capsys, ["play", "-q", "-l", "tinyGhostMaze", "-p", f"minimax:probcut={path}"], path)
    assert "needs algorithm=star2" in line
    line = fails_in_one_line(capsys, ["play", "-q", "-l", "tinyGhostMaze", "-p",
                                      f"expectimax:eval=careful,algorithm=star2,probcut={path},probcut_t=-1"], "probcut_t")
    assert "must be positive" in line


@pytest.mark.parametrize("arguments,expected", [
    (["--games", "0"], "--games 0 must be in [1, 10000]"),
    (["--for", "expectimax:eval=careful"], "not a Star2 search Pacman"),
    (["--confidence", "0"], "confidence must be positive"),
    (["--reduction", "2", "--min-depth", "3"], "min_depth=3 leaves no shallow search"),
    (["-l", "noSuchMaze"], "noSuchMaze"),
], ids=["no games", "not star2", "zero confidence", "min depth too small", "unknown layout"])
def test_a_bad_probcut_fit_is_one_line(tmp_path, capsys, arguments, expected):
    out = tmp_path / "model.json"
    fails_in_one_line(capsys, ["probcut", "fit", "--out", out, *arguments], expected)
    assert not out.exists()


# -- reliability round 3: the kernel, engine and agents half (issue 22) ----

@pytest.mark.parametrize("spec, expected", [
    ("minimax:kinds=C", "algorithm minimax cannot search chance nodes (kinds='C')"),
    ("expectimax:kinds=M", "algorithm expectimax cannot search min nodes (kinds='M')"),
    ("minimax:slip=0.1", "option slip=0.1 needs chance nodes"),
    ("expectimax:eval=pacsim.agents.evaluation:careful,backend=fast", "option backend=fast: the fast path does not cover eval=pacsim.agents.evaluation:careful"),
], ids=["minimax chance", "expectimax min", "minimax slip", "fast plugin evaluation"])
def test_a_pacman_that_would_fail_every_game_fails_once_before_any(tmp_path, capsys, spec, expected):
    fails_in_one_line(capsys, ["play", "-q", "-n", "3", "-l", "tinyGhostMaze", "-p", spec], expected)
    experiment = tmp_path / "exp.toml"
    name, options = spec.split(":", 1)
    grid = "\n".join(f"{key} = [{value!r}]".replace("'", '"') for key, value in (option.split("=") for option in options.split(",")))
    experiment.write_text(f'name = "x"\ngames = 2\nstore = "{tmp_path / "r.sqlite"}"\n[grid]\npacman = ["{name}"]\n'
                          f'ghosts = ["random"]\nlayout = ["tinyGhostMaze"]\n{grid}\n', encoding="utf-8")
    assert expected in fails_in_one_line(capsys, ["run", experiment], experiment) and not (tmp_path / "r.sqlite").exists()


def test_an_agent_cannot_change_the_layout_later_games_share():
    import dataclasses

    from pacsim.engine import load_layout

    layout = load_layout("smallClassic")
    distances = layout.distances_from(layout.pacman_start)
    before = (distances, dict(layout.targets[0]), dict(layout.cell_of), layout.pacman_moves, layout.food)
    attempts = [
        lambda: distances.sort(),  # the README lists distances_from() as API
        lambda: layout.targets[0].update(North=0),
        lambda: layout.cell_of.clear(),
        lambda: setattr(layout, "food", 0),
    ]
    for attempt in attempts:
        with pytest.raises((AttributeError, TypeError, dataclasses.FrozenInstanceError)):
            attempt()
    assert (layout.distances_from(layout.pacman_start), dict(layout.targets[0]), dict(layout.cell_of),
            layout.pacman_moves, layout.food) == before


def test_a_layout_survives_pickling_with_its_read_only_tables():
    import pickle

    from pacsim.engine import initial_state, load_layout

    layout = load_layout("tinyGhostMaze")
    copy = pickle.loads(pickle.dumps(layout))
    assert copy.text == layout.text and copy.targets == layout.targets and copy.warnings == layout.warnings
    assert initial_state(copy).legal_moves() == initial_state(layout).legal_moves()


class EqualToEverything:
    """What a plugin returned: not a str, yet equal to every legal action."""

    def __eq__(self, other):
        return True

    __hash__ = object.__hash__


class OddAgent(Agent):
    def __init__(self, action=None, stats=None):
        super().__init__()
        self.action, self.stats = action, stats

    def get_action(self, state):
        if self.stats is not None:
            from pacsim.agents.api import MoveStats

            self.last_stats = MoveStats(**self.stats)
        return self.action if self.action is not None else state.legal_actions()[0]


@pytest.mark.parametrize("pacman, expected", [
    (OddAgent(action=EqualToEverything()), "agent 0 returned a EqualToEverything, not an action name (a str)"),
    (OddAgent(stats={"generated": float("nan")}), "MoveStats generated=nan must be a whole number"),
    (OddAgent(stats={"generated": 2.5}), "MoveStats generated=2.5 must be a whole number"),
    (OddAgent(stats={"value": float("-inf")}), "MoveStats value=-inf must be a finite number"),
], ids=["non-str action", "NaN count", "fractional count", "infinite value"])
def test_odd_actions_and_statistics_end_only_that_game(pacman, expected):
    from pacsim.engine import ERROR, load_layout, play_game

    record = play_game(load_layout("tinyGhostMaze"), [pacman, make_ghost("random")], seed=1, max_moves=5)
    assert record.outcome == ERROR and expected in record.error


def test_move_statistics_become_plain_python_numbers():
    import numpy as np

    from pacsim.agents.api import MoveStats

    stats = MoveStats(generated=np.int64(7), seconds=1, value=3)
    assert (type(stats.generated), type(stats.seconds), type(stats.value)) == (int, float, float)


def test_an_evaluation_returning_infinity_ends_the_game_naming_it(tmp_path):
    from pacsim.engine import ERROR, load_layout, play_game

    module = tmp_path / "endless.py"
    module.write_text("def hopeful(state):\n    return float('inf') if state.score > -3 else 0.0\n", encoding="utf-8")
    pacman = make_pacman(f"expectimax:depth=1,eval={module}:hopeful")
    record = play_game(load_layout("tinyGhostMaze"), [pacman, make_ghost("random")], seed=1, max_moves=5)
    assert record.outcome == ERROR and f"evaluation '{module}:hopeful' returned inf" in record.error


def test_root_values_are_floats_with_either_engine():
    needed("numba", "pip install -e '.[fast]'")
    from pacsim.engine import initial_state, parse_layout

    state = initial_state(parse_layout("%%%%%\n%P.G%\n%%%%%\n"))  # every root move ends the game
    for engine in ("python", "fast"):
        result = make_pacman(f"minimax:depth=1,eval=careful,backend={engine}").analyze(state, root_values=True)
        assert type(result.value) is float and {type(value) for _, value in result.action_values} == {float}, engine


UNSURE_AGENT = '''
import math
from pacsim.agents.api import Agent
from pacsim.search import SearchResult, SearchStats

class Unsure(Agent):
    name = "unsure"

    def get_action(self, state):
        return state.legal_actions()[0]

    def analyze(self, state, depth=None, root_values=True):
        stats = SearchStats(generated=0, evaluated=0, cutoffs=0, seconds=0.0, max_depth=0)
        return SearchResult(value=math.nan, action="West", stats=stats, action_values=(("West", -math.inf), ("Stop", 1.5)))
'''


def test_analyze_json_writes_null_for_values_json_cannot_hold(tmp_path, capsys):
    import json

    module = tmp_path / "unsure.py"
    module.write_text(UNSURE_AGENT, encoding="utf-8")
    assert main(["analyze", "-l", "tinyGhostMaze", "-p", f"{module}:Unsure", "--json"]) == 0
    out = capsys.readouterr().out
    (row,) = json.loads(out, parse_constant=lambda name: pytest.fail(f"{name} is not JSON"))
    assert row["value"] is None and row["actions"] == {"West": None, "Stop": 1.5}


@pytest.mark.parametrize("huge", ["9" * 5000, "9" * 400], ids=["beyond int conversion", "beyond float"])
def test_a_probcut_model_with_a_huge_integer_names_the_file(tmp_path, capsys, huge):
    path = tmp_path / "model.json"
    path.write_text(GOOD_MODEL.replace('"slope": 1.0', f'"slope": {huge}'), encoding="utf-8")
    line = fails_in_one_line(capsys, ["play", "-q", "-l", "tinyGhostMaze", "-p",
                                      f"expectimax:eval=careful,algorithm=star2,probcut={path}"], path)
    assert "constructing" not in line


def test_probcut_fit_for_more_ghosts_than_the_layout_has_says_so(tmp_path, capsys):
    line = fails_in_one_line(capsys, ["probcut", "fit", "-k", "9", "-l", "smallClassic", "--out", tmp_path / "m.json"],
                             "--num-ghosts 9")
    assert "smallClassic has 2 ghost" in line


def test_a_negative_seed_in_a_generated_spec_says_seeds_start_at_zero():
    from pacsim.engine.generate import parse_maze_specs
    from pacsim.errors import ConfigError

    with pytest.raises(ConfigError, match="seed='-1': seeds are whole numbers from 0"):
        parse_maze_specs("generated:w=9,h=7,seed=-1")


def test_a_plugin_file_whose_path_holds_a_colon(tmp_path, capsys):
    folder = tmp_path / "runs:2"
    folder.mkdir()
    (folder / "left.py").write_text(
        "from pacsim.agents.api import Agent\n\nclass Left(Agent):\n    name = 'left'\n\n"
        "    def get_action(self, state):\n        return state.legal_actions()[0]\n", encoding="utf-8")
    assert main(["play", "-q", "-n", "1", "-l", "tinyGhostMaze", "-p", f"{folder / 'left.py'}:Left"]) == 0
    assert "game 1/1" in capsys.readouterr().out


@pytest.mark.parametrize("base", ["Agent", "StochasticAgent"])
def test_the_abstract_agent_bases_are_refused_as_agents(capsys, base):
    line = fails_in_one_line(capsys, ["play", "-q", "-l", "tinyGhostMaze", "-p", f"pacsim.agents.api:{base}"], base)
    assert "it is a base to subclass, not an agent" in line


# -- play and train options: one line, before any game ------------------------------

PLAY = ["play", "-q", "-l", "tinyGhostMaze", "--max-moves", "5"]


@pytest.mark.parametrize("arguments, names", [
    (["-p", "expectimax:depth=2", "-a", "depth=3"], "depth"),
    (["-g", "directional:attack=0.5", "--ghost-args", "attack=0.9"], "attack"),
    (["-x", "-1"], "-x -1"),
    (["-x", "2", "-n", "3", "--starts", "random", "--start-distance", "0"], "--start-distance 0"),
    (["-x", "2", "-n", "3", "--starts", "random", "--start-distance", "999"], "--start-distance 999"),
], ids=["pacman option twice", "ghost option twice", "negative -x", "start distance 0", "start distance no cell"])
def test_play_options_that_cannot_work_fail_before_any_game(capsys, arguments, names):
    fails_in_one_line(capsys, [*PLAY, *arguments], names)
    assert capsys.readouterr().out == ""  # not even the training games


@pytest.mark.parametrize("arguments, names", [
    (["--alpha", "2"], "--alpha 2"),
    (["--epsilon", "nan"], "--epsilon nan"),
    (["-x", "0"], "--episodes"),
    (["-k", "9"], "-k=9"),
    (["-g", "nobody"], "nobody"),
], ids=["alpha", "epsilon nan", "no episodes", "too many ghosts", "unknown ghost"])
def test_train_options_that_cannot_work_are_one_line(capsys, tmp_path, arguments, names):
    fails_in_one_line(capsys, ["train", "-l", "tinyGhostMaze", "-q", "-o", tmp_path / "w.json", *arguments], names)
    assert not (tmp_path / "w.json").exists()


@pytest.mark.parametrize("seconds", [-1, float("nan")])
def test_the_python_api_checks_the_move_time_limit_as_play_does(seconds):
    import pacsim
    from pacsim.errors import ConfigError

    with pytest.raises(ConfigError, match="move_time_limit: must be at least 0"):
        pacsim.play("tinyGhostMaze", move_time_limit=seconds)


def test_an_evaluation_that_returns_no_number_is_named_once_before_any_game(tmp_path, capsys):
    """Not a TypeError at a line of pacsim's search, once per game: the user's function and what it returned.
    A run plays plugins in its workers only (the coordinator never calls them): each game says the same."""
    (tmp_path / "stringy.py").write_text("def high(state):\n    return 'high'\n", encoding="utf-8")
    spec = f"expectimax:depth=2,eval={tmp_path / 'stringy.py'}:high"
    assert main(["play", "-l", "tinyGhostMaze", "-p", spec, "-q", "-n", "2", "--seed", "1"]) == 2
    captured = capsys.readouterr()
    assert "game 1/" not in captured.out and captured.err.count("\n") == 1
    assert "high' returned 'high' (a str)" in captured.err and "plain.py" not in captured.err
    experiment = tmp_path / "stringy.toml"
    experiment.write_text(f'name = "stringy"\ngames = 2\nstore = "{tmp_path / "s.sqlite"}"\n[grid]\n'
                          f'pacman = ["{spec}"]\nghosts = ["random"]\nlayout = ["tinyGhostMaze"]\n', encoding="utf-8")
    assert main(["run", "-q", "-j", "1", str(experiment)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "high' returned 'high' (a str)" in error and "TypeError" not in error


# -- this round's commands: the tree, the lesson map, the dashboard, the page, hand-in limits --------

@pytest.mark.parametrize("arguments, message", [
    (["tree", "-l", "noSuchMaze"], "no layout named 'noSuchMaze'"),
    (["tree", "--record", "missing.json", "--move", "3"], "missing.json: cannot read the file"),
    (["tree", "--record", "game.json", "--move", "999"], "--move 999: Pacman moves in this game are numbered 0 to"),
    (["tree", "--record", "game.json", "--move", "1", "--out", "game.json"], "is the input game.json"),
    (["lesson-map", "-l", "noSuchMaze", "--no-trees"], "no layout named 'noSuchMaze'"),
    (["dashboard", "missing.sqlite"], "missing.sqlite: no such results store"),
    (["tournament", "--pacman", "x", "--hand-in-mb", "-1", "-q"], "hand_in_mb: must be a number of megabytes above 0"),
    (["play", "--browser", "-n", "2"], "--browser with -n 2: the page shows one game"),
    (["play", "--port", "5"], "--port: only with --browser"),
], ids=["tree-maze", "tree-record", "tree-move", "tree-out-is-input", "map-maze", "dashboard-store", "hand-in-mb",
        "browser-games", "port-alone"])
def test_the_new_commands_refuse_bad_input_in_one_line(tmp_path, monkeypatch, capsys, arguments, message):
    monkeypatch.chdir(tmp_path)
    assert main(["play", "-l", "tinyGhostMaze", "-q", "--seed", "1", "--max-moves", "5", "--record", "game.json"]) == 0
    capsys.readouterr()
    assert main(arguments) == 2
    error = capsys.readouterr().err
    errors = [line for line in error.splitlines() if line.startswith("pacsim: error:")]
    assert len(errors) == 1 and message in errors[0] and "Traceback" not in error


TEAM_FILE = """from captureAgents import CaptureAgent


def createTeam(first, second, isRed):
    return [First(first), First(second)]


class First(CaptureAgent):
    def chooseAction(self, gameState):
        return gameState.getLegalActions(self.index)[0]
"""


@pytest.mark.parametrize("arguments", [
    ["capture", "-r", "{team}", "-l", "tinyCapture", "-i", "4", "--html", "{team}"],
    ["tournament", "--game", "capture", "--teams", "{folder}", "--layout", "tinyCapture", "--store", "{store}",
     "--grades", "{team}", "-q"],
], ids=["capture --html", "contest --grades"])
def test_an_output_over_a_capture_team_file_is_refused_before_any_game(tmp_path, capsys, arguments):
    """A team file is an input: an output named as it (a slip of the shell's history) would replace a hand-in."""
    folder = tmp_path / "students" / "alice"
    folder.mkdir(parents=True)
    team = folder / "myTeam.py"
    team.write_text(TEAM_FILE)
    values = {"team": str(team), "folder": str(tmp_path / "students"), "store": str(tmp_path / "c.sqlite")}
    assert main([argument.format(**values) for argument in arguments]) == 2
    assert team.read_text() == TEAM_FILE
    error = capsys.readouterr().err.strip()
    assert error.count("\n") == 0 and str(team) in error and not (tmp_path / "c.sqlite").exists()


def test_a_capture_record_folder_that_cannot_be_made_is_one_line_before_the_game(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert main(["capture", "-l", "tinyCapture", "-i", "4", "-q", "--record", str(blocker / "games")]) == 2
    error = capsys.readouterr()
    assert error.err.strip().count("\n") == 0 and "--record" in error.err and "seed" not in error.out



def test_a_capture_record_whose_moves_cannot_be_played_is_one_line(tmp_path, capsys):
    assert main(["capture", "-l", "tinyCapture", "--seed", "4", "-i", "6", "-q", "--record", str(tmp_path)]) == 0
    [record] = tmp_path.glob("capture-*.json")
    data = json.loads(record.read_text())
    data["moves"][1] = [9, data["moves"][1][1]]
    record.write_text(json.dumps(data))
    capsys.readouterr()
    assert main(["capture", "--replay", str(record), "-q"]) == 2
    error = capsys.readouterr().err.strip()
    assert error.count("\n") == 0 and str(record) in error and "cannot be played" in error
