"""Your own agents: file, module and installed plugins through play, run,
analyze and replay; a plugin ghost as an expectimax model; code identity;
every load error; replay/report/export never import plugin code."""

import json
import re
import sqlite3
import sys
import textwrap
from pathlib import Path

import pytest

from pacsim.agents import make_ghost, make_pacman, plugins
from pacsim.agents.registry import parse_spec
from pacsim.cli import main
from pacsim.engine import ERROR, agent_rng, initial_state, load_layout, play_game
from pacsim.errors import AgentError

REPOSITORY = Path(__file__).resolve().parents[1]

MY_AGENTS = '''
from dataclasses import dataclass

from pacsim.agents import Agent, StochasticAgent, uniform
from pacsim.errors import AgentError

MARKER = None  # a test sets it to write a file whenever this module is imported
if MARKER:
    open(MARKER, "a").write("imported\\n")


@dataclass(frozen=True)
class HungryOptions:
    patience: int = 0
    """Stops allowed before moving on."""

    def __post_init__(self):
        if self.patience < 0:
            raise AgentError(f"option patience={self.patience} must be at least 0")


class Hungry(Agent):
    """Steps to the nearest food."""

    Options = HungryOptions

    def get_action(self, state):
        cells = state.food_cells()
        return min(state.legal_moves(), key=lambda move: min(state.distance(move[1], food) for food in cells))[0]


class Ambusher(StochasticAgent):
    """Moves towards Pacman's cell half of the time, at random otherwise."""

    def distribution(self, state):
        moves = state.legal_moves()
        best = min(moves, key=lambda move: state.distance(move[1], state.pacman))[0]
        share = uniform([action for action, _ in moves])
        return [(action, 0.5 * probability + (0.5 if action == best else 0.0)) for action, probability in share]


def score_copy(state):
    return state.score


def not_a_number(state):
    return float("nan")
'''


def write_plugin(folder: Path, name: str = "my_agents.py", text: str = MY_AGENTS, marker: Path | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    if marker is not None:
        text = text.replace("MARKER = None", f"MARKER = {str(marker)!r}")
    path = folder / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    status = main([str(arg) for arg in argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def games(layout_name: str, pacman: str, ghost: str, seeds=range(2), max_moves=30):
    layout = load_layout(layout_name)
    return [play_game(layout, [make_pacman(pacman)] + [make_ghost(ghost) for _ in range(layout.num_ghosts)],
                      seed=seed, max_moves=max_moves) for seed in seeds]


# -- specs and loading ------------------------------------------------------

def test_specs_parse_names_files_and_modules():
    assert parse_spec("directional:attack=0.9").attribute is None
    assert parse_spec("directional:attack=0.9").options == {"attack": "0.9"}
    file = parse_spec("my.py:Cautious:depth=3,eval=other.py:f")
    assert (file.target, file.attribute, file.options) == ("my.py", "Cautious", {"depth": "3", "eval": "other.py:f"})
    module = parse_spec("mypkg.agents:Cautious,depth=3")
    assert (module.target, module.attribute, module.options) == ("mypkg.agents", "Cautious", {"depth": "3"})
    assert parse_spec("minimax:model=directional:attack=0.9").options == {"model": "directional:attack=0.9"}


def test_file_and_module_plugins_play_the_same_games(tmp_path, monkeypatch):
    path = write_plugin(tmp_path / "folder")
    package = tmp_path / "site" / "mypkg"
    write_plugin(package, "agents.py")
    (package / "__init__.py").write_text("", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    from_file = games("smallClassic", f"{path}:Hungry", f"{path}:Ambusher")
    from_module = games("smallClassic", "mypkg.agents:Hungry:patience=1", "mypkg.agents:Ambusher")
    assert [record.actions for record in from_file] == [record.actions for record in from_module]
    assert all(record.outcome != ERROR for record in from_file)
    assert from_file[0].actions != from_file[1].actions  # the plugin ghost samples with its own stream


def test_plugin_evaluation_plays_as_the_builtin_it_copies(tmp_path):
    path = write_plugin(tmp_path)
    plugin = games("pincerMaze", f"minimax:depth=1,eval={path}:score_copy", "random")
    builtin = games("pincerMaze", "minimax:depth=1,eval=score", "random")
    assert [record.actions for record in plugin] == [record.actions for record in builtin]


def test_an_evaluation_returning_nan_ends_the_game_as_an_error_naming_it(tmp_path):
    path = write_plugin(tmp_path)
    record = games("pincerMaze", f"minimax:depth=1,eval={path}:not_a_number", "random", seeds=[0])[0]
    assert record.outcome == ERROR and f"evaluation '{path}:not_a_number' returned nan" in record.error


def test_a_plugin_ghost_serves_as_the_expectimax_model(tmp_path):
    path = write_plugin(tmp_path)
    state = initial_state(load_layout("pincerMaze")).successor("Stop")  # ghost 1 to move
    pacman = make_pacman(f"expectimax:model={path}:Ambusher")
    modelled = [probability for probability, _ in pacman.game_for(state).outcomes(state)]
    ghost = make_ghost(f"{path}:Ambusher")
    ghost.reset(1, agent_rng(0, 1))
    assert modelled == pytest.approx([probability for _, probability in ghost.distribution(state)])
    assert max(modelled) > 1 / len(modelled)  # not the uniform default
    record = games("pincerMaze", f"expectimax:depth=1,model={path}:Ambusher", f"{path}:Ambusher", seeds=[0])[0]
    assert record.outcome != ERROR and record.moves > 0


def test_a_changed_file_is_imported_again(tmp_path):
    path = write_plugin(tmp_path)
    first = make_pacman(f"{path}:Hungry")
    path.write_text(path.read_text() + "\n# edited\n", encoding="utf-8")
    second = make_pacman(f"{path}:Hungry")
    assert type(first).__module__ != type(second).__module__
    assert type(second).__module__ in sys.modules


def test_installed_entry_points_are_agents_and_evaluations(tmp_path, monkeypatch):
    site = tmp_path / "site"
    write_plugin(site / "installed_agents", "agents.py")
    (site / "installed_agents" / "__init__.py").write_text("", encoding="utf-8")
    info = site / "installed_agents-1.2.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: installed-agents\nVersion: 1.2\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(
        "[pacsim.agents]\nhungry = installed_agents.agents:Hungry\n"
        "[pacsim.evaluations]\nsame_score = installed_agents.agents:score_copy\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(site))
    with plugins.recording() as used:
        pacman = make_pacman("hungry:patience=2")
        make_pacman("minimax:eval=same_score")
    assert pacman.options.patience == 2
    assert used[0].identity.startswith("installed-agents==1.2 sha256:")
    assert "hungry" in run_cli_listing()


def run_cli_listing() -> str:
    from pacsim.cli.agents import listing

    return listing()


# -- the command line ---------------------------------------------------------

def test_play_analyze_and_replay_run_plugins(tmp_path, capsys):
    path = write_plugin(tmp_path)
    record = tmp_path / "game.json"
    status, out, _ = run_cli(capsys, "play", "-l", "pincerMaze", "-p", f"{path}:Hungry", "-g", f"{path}:Ambusher",
                             "-n", "1", "-q", "--seed", "3", "--max-moves", "30", "--record", record)
    assert status == 0 and "1 game," in out and "error" not in out
    saved = json.loads(record.read_text())
    assert saved["pacman"] == f"{path}:Hungry"
    status, out, _ = run_cli(capsys, "replay", record, "-q")
    assert status == 0
    status, out, _ = run_cli(capsys, "analyze", "-l", "pincerMaze", "-p", f"minimax:depth=1,eval={path}:score_copy",
                             "-p", "minimax:depth=1", "--json")
    plugin, builtin = json.loads(out)
    assert status == 0 and plugin["actions"] == builtin["actions"]


def test_agents_lists_and_describes_options(tmp_path, capsys):
    status, out, _ = run_cli(capsys, "agents")
    assert status == 0
    for name in ("minimax", "expectiminimax", "greedy", "directional", "adversarial", "careful"):
        assert re.search(rf"^  {name} +\S", out, re.MULTILINE), name
    status, out, _ = run_cli(capsys, "agents", "expectimax")
    assert re.search(r"^  table +int +default 0 +Transposition-table entries", out, re.MULTILINE)
    path = write_plugin(tmp_path)
    status, out, _ = run_cli(capsys, "agents", f"{path}:Hungry")
    assert status == 0 and re.search(r"^  patience +int +default 0 +Stops allowed before moving on\.", out, re.MULTILINE)


EXPERIMENT = """
name = "mine"
games = 2
seed = 5
max_moves = 25
store = "{store}"
[grid]
pacman = ["greedy", "{plugin}:Hungry"]
ghosts = ["{plugin}:Ambusher"]
layout = ["pincerMaze"]
"""


def write_experiment(tmp_path: Path, plugin: Path, store: Path) -> Path:
    path = tmp_path / "mine.toml"
    path.write_text(EXPERIMENT.format(store=store, plugin=plugin), encoding="utf-8")
    return path


def stored(store: Path) -> list[tuple]:
    with sqlite3.connect(store) as connection:
        return connection.execute(
            "SELECT condition_key, game_index, outcome, score, actions FROM games ORDER BY condition_key, game_index"
        ).fetchall()


def test_run_with_one_and_two_workers_and_code_identity(tmp_path, capsys):
    plugin = write_plugin(tmp_path / "code")
    serial, parallel = tmp_path / "serial.sqlite", tmp_path / "parallel.sqlite"
    status, out, _ = run_cli(capsys, "run", write_experiment(tmp_path, plugin, serial), "-j", "1", "-q")
    assert status == 0 and f"plugin code: {plugin}" in out
    status, out, _ = run_cli(capsys, "run", write_experiment(tmp_path, plugin, parallel), "-j", "2", "-q")
    assert status == 0
    rows = stored(serial)
    assert len(rows) == 4 and rows == stored(parallel)
    assert all(row[2] != ERROR for row in rows)
    plugin_keys = {json.loads(row[0])["code"][str(plugin)] for row in rows if "code" in json.loads(row[0])}
    assert len(plugin_keys) == 1 and plugin_keys.pop().startswith("sha256:")

    # Edit the plugin: its conditions (both: the ghost is the plugin) play again.
    plugin.write_text(plugin.read_text() + "\n# a comment changes the code's identity\n", encoding="utf-8")
    experiment = write_experiment(tmp_path, plugin, serial)
    status, out, _ = run_cli(capsys, "run", experiment, "-j", "1")
    assert status == 0 and f"code of {plugin} changed: 4 games to play" in out
    assert "played 4 games, 0 already in" in out
    assert len(stored(serial)) == 8
    status, out, _ = run_cli(capsys, "run", experiment, "-j", "1")
    assert "changed" not in out and "played 0 games, 4 already in" in out
    # The two versions are two conditions to a report, never pooled.
    labels = {row[0] for row in sqlite3.connect(serial).execute("SELECT DISTINCT condition FROM games")}
    assert len(labels) == 4 and all(re.search(r"/code=[0-9a-f]{8}$", label) for label in labels)


def test_replay_report_and_export_never_import_plugins(tmp_path, capsys):
    marker = tmp_path / "imported.txt"
    plugin = write_plugin(tmp_path / "code", marker=marker)
    store = tmp_path / "results.sqlite"
    status, _, _ = run_cli(capsys, "run", write_experiment(tmp_path, plugin, store), "-j", "1", "-q")
    assert status == 0 and marker.exists()  # the run did import it
    marker.unlink()
    for argv in (["report", store], ["replay", store, "--game", "1", "-q"], ["export", store, "--out", tmp_path / "g.csv"],
                 ["replay", store, "--game", "1", "--html", tmp_path / "g.html"], ["report", store, "--html", tmp_path / "r.html"]):
        status, _, err = run_cli(capsys, *argv)
        assert status == 0, (argv, err)
    # Searching again for the values panel would run the plugin: refused, in one line.
    refusals = [run_cli(capsys, "replay", store, "--game", str(game), "--html", tmp_path / "v.html", "--html-values")
                for game in range(1, 5)]
    assert all(status == 2 and err.count("\n") == 1 for status, _, err in refusals)
    assert sum("runs plugin code" in err for _, _, err in refusals) == 2  # the Hungry plugin Pacman's two games
    assert not marker.exists()


# -- errors: one line naming the spec, exit 2, before any game -----------------

RAISING = {
    "raises.py": "raise ValueError('no config here')\n",
    "exits.py": "import sys\nsys.exit(3)\n",
    "broken.py": "def oops(:\n",
    "odd.py": """
from pacsim.agents import Agent

class NoOptionsParameter(Agent):
    def __init__(self):
        super().__init__()

class FailsToStart(Agent):
    def __init__(self, options=None):
        raise RuntimeError("no GPU")

class OptionsNotADataclass(Agent):
    Options = dict
""",
}


@pytest.mark.parametrize("spec, message", [
    ("{folder}/missing.py:Hungry", "agent '{folder}/missing.py:Hungry': no file '{folder}/missing.py'"),
    ("{folder}/my_agents.py:Nobody", "my_agents.py has no 'Nobody'"),
    ("{folder}/my_agents.py:score_copy", "score_copy is a function, not an agent"),
    ("{folder}/my_agents.py:Hungry:patiense=2", "unknown option 'patiense' for agent '{folder}/my_agents.py:Hungry"),
    ("{folder}/my_agents.py:Hungry:patience=-1", "option patience=-1 must be at least 0"),
    ("{folder}/raises.py:Hungry", "importing raises.py raised ValueError: no config here"),
    ("{folder}/exits.py:Hungry", "importing exits.py raised SystemExit: 3 ({folder}/exits.py:2)"),
    ("{folder}/broken.py:Hungry", "importing broken.py raised SyntaxError"),
    ("{folder}/odd.py:NoOptionsParameter", "constructing NoOptionsParameter raised TypeError"),
    ("{folder}/odd.py:FailsToStart", "constructing FailsToStart raised RuntimeError: no GPU ({folder}/odd.py:10)"),
    ("{folder}/odd.py:OptionsNotADataclass", "its Options must be a dataclass"),
    ("no_such_package_xyz.agents:Hungry", "no module named 'no_such_package_xyz.agents'"),
    ("minimax:eval={folder}/my_agents.py:missing", "my_agents.py has no 'missing'"),
    ("expectimax:model={folder}/missing.py:Ghost", "option model="),
])
def test_plugin_errors_are_one_line_before_any_game(tmp_path, capsys, spec, message):
    write_plugin(tmp_path)
    for name, text in RAISING.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    spec, message = spec.format(folder=tmp_path), message.format(folder=tmp_path)
    status, out, err = run_cli(capsys, "play", "-l", "pincerMaze", "-p", spec, "-q", "--seed", "1")
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and message in err, err


def test_plugin_errors_in_an_experiment_name_the_key(tmp_path, capsys):
    store = tmp_path / "results.sqlite"
    experiment = write_experiment(tmp_path, tmp_path / "missing.py", store)
    status, _, err = run_cli(capsys, "run", experiment, "-j", "1", "-q")
    assert status == 2 and err.count("\n") == 1 and "grid.pacman: agent" in err and "no file" in err
    assert not store.exists()


def test_an_object_not_an_agent_is_refused_by_the_registry_too(tmp_path):
    path = write_plugin(tmp_path)
    with pytest.raises(AgentError, match="is class HungryOptions, not an agent"):
        make_pacman(f"{path}:HungryOptions")


# -- the README's example --------------------------------------------------------

def test_the_readme_example_is_the_example_file_and_it_plays():
    example = (REPOSITORY / "examples" / "cautious_pacman.py").read_text(encoding="utf-8")
    readme = (REPOSITORY / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Your own agents"):]
    assert f"```python\n{example}```" in section
    assert len(example.strip().splitlines()) <= 30
    spec = f"{REPOSITORY / 'examples' / 'cautious_pacman.py'}:CautiousPacman"
    records = games("smallClassic", f"{spec}:margin=1", "random", seeds=range(3), max_moves=200)
    assert all(record.outcome != ERROR for record in records)
    assert max(record.score for record in records) > 0  # it does eat
