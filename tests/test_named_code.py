"""Code runs only where it is named: no reader of a record or a store imports
the code it names (the Pacman, its ``eval=`` or its ``model=``).  Each
planted file writes a mark when imported; every reader must leave none."""

import json
import sqlite3
from pathlib import Path

import pytest

from pacsim.agents.registry import named_code
from pacsim.api import play
from pacsim.cli import main
from pacsim.cli.lesson_map import write_trees
from pacsim.engine.recording import load_game
from pacsim.errors import AgentError
from pacsim.report.lesson_map import find_traps, trap_move
from pacsim.web.lesson_map import map_page, tree_pages
from pacsim.web.tree import move_tree

PLANTED = """
from pacsim.agents import Agent, StochasticAgent, uniform
open({mark!r}, "a").write("imported\\n")  # the mark: this file ran


class Pacman(Agent):
    def get_action(self, state):
        return state.legal_moves()[0][0]


class Ghost(StochasticAgent):
    def distribution(self, state):
        return uniform([action for action, _ in state.legal_moves()])


def evaluate(state):
    return state.score
"""
EXPERIMENT = """
name = "named"
games = 1
seed = 3
max_moves = 12
store = "{store}"
[grid]
pacman = ["expectimax:depth=1"]
ghosts = ["random"]
layout = ["tinyGhostMaze"]
"""


@pytest.fixture
def planted(tmp_path: Path) -> tuple[Path, Path]:
    """A plugin file whose import writes ``mark``, and the mark's path (absent)."""
    mark = tmp_path / "imported.txt"
    code = tmp_path / "planted.py"
    code.write_text(PLANTED.format(mark=str(mark)), encoding="utf-8")
    return code, mark


def naming_specs(code: Path) -> list[str]:
    """Pacman specs that name the planted file: as the agent, its evaluation, its ghost model."""
    return [f"{code}:Pacman", f"expectimax:depth=1,eval={code}:evaluate", f"expectimax:depth=1,model={code}:Ghost",
            f"expectimax:depth=1,model=directional:model={code}:Ghost"]


def run_cli(capsys, *argv) -> tuple[int, str]:
    status = main([str(arg) for arg in argv])
    return status, capsys.readouterr().err


def test_named_code_decides_from_the_text_alone(planted):
    code, mark = planted
    for spec in ["expectimax:depth=2", "mcts:iterations=10,eval=careful,model=directional:attack=0.9", "random",
                 "alphabeta:model=uniform", "expectimax:model=adversarial"]:
        assert named_code(spec) is None, spec
    for spec in [*naming_specs(code), "some.module:Agent", "installed_name", "expectimax:eval=some.module:f"]:
        assert named_code(spec) is not None, spec
    assert not mark.exists()


@pytest.fixture
def record(tmp_path: Path) -> Path:
    """A short recorded game of a built-in Pacman."""
    path = tmp_path / "game.json"
    play("tinyGhostMaze", "expectimax:depth=1", max_moves=12)[0].save(path)
    return path


def test_tree_and_replay_never_import_what_a_record_names(tmp_path, capsys, planted, record):
    code, mark = planted
    data = json.loads(record.read_text(encoding="utf-8"))
    for number, spec in enumerate(naming_specs(code)):
        named = tmp_path / f"named{number}.json"
        named.write_text(json.dumps({**data, "pacman": spec}), encoding="utf-8")
        for argv in (["tree", "--record", named, "--out", tmp_path / "t.html"],
                     ["replay", named, "-q", "--html", tmp_path / "r.html", "--tree"],
                     ["replay", named, "-q", "--html", tmp_path / "v.html", "--html-values"]):
            status, err = run_cli(capsys, *argv)
            assert status == 2 and err.count("\n") == 1 and "runs plugin code" in err, (argv, err)
        with pytest.raises(AgentError, match="runs plugin code"):
            move_tree(load_game(named), 1)
    assert not mark.exists()
    # Named by the user, the same file runs: the refusal is about where the name came from.
    status, err = run_cli(capsys, "tree", "--record", record, "--pacman", f"{code}:Pacman", "--out", tmp_path / "t.html")
    assert status == 2 and "not a search Pacman" in err and mark.exists()


@pytest.fixture
def store(tmp_path: Path) -> Path:
    """A store of one game of a built-in Pacman."""
    path = tmp_path / "results.sqlite"
    experiment = tmp_path / "named.toml"
    experiment.write_text(EXPERIMENT.format(store=path), encoding="utf-8")
    assert main(["run", str(experiment), "-j", "1", "-q"]) == 0
    return path


def name_in_store(store: Path, spec: str) -> None:
    with sqlite3.connect(store) as connection:
        connection.execute("UPDATE games SET pacman = ?", (spec,))


def test_tree_and_lesson_map_never_import_what_a_store_names(tmp_path, capsys, planted, store):
    code, mark = planted
    for spec in naming_specs(code):
        name_in_store(store, spec)
        status, err = run_cli(capsys, "tree", "--store", store, "--game", "1", "--out", tmp_path / "t.html")
        assert status == 2 and err.count("\n") == 1 and "runs plugin code" in err and "--pacman" in err, err
        status, err = run_cli(capsys, "replay", store, "--game", "1", "-q", "--html", tmp_path / "r.html", "--tree")
        assert status == 2 and "runs plugin code" in err, err
    # The lesson map's trap move searches the other Pacman again, and its pages trace the caught one's.
    caught = load_game_from_store(store)
    assert trap_move(caught, f"{code}:Pacman")[1] == "junction"
    assert not mark.exists()


def load_game_from_store(store: Path):
    from pacsim.runner.store import load_saved_game

    return load_saved_game(store, 1)


def test_lesson_map_pages_skip_a_stored_plugin(tmp_path, capsys, planted, store):
    import pandas

    from pacsim.report.lesson_map import LessonMap

    code, mark = planted
    spec = f"{code}:Pacman"
    name_in_store(store, spec)
    with sqlite3.connect(store) as connection:
        connection.execute("UPDATE games SET outcome = 'loss'")
        results = pandas.read_sql("SELECT id, pacman, ghosts, start, outcome, game_index, seed, moves FROM games",
                                  connection)
    results["start"] = results["start"].fillna(0)
    traps = find_traps(results, store)
    assert [named_code(trap.plugin) for trap in traps.values()] == [spec]  # the stored spec has its depth too
    saved = load_game_from_store(store)
    [(pacman, ghost, cell)] = traps
    lesson = LessonMap(layout=saved.layout, store=store, pacmen=(pacman,), ghosts=(ghost,), cells=(cell,),
                       games_per_cell=1, counts={}, traps=traps)
    assert list(tree_pages(lesson)) == []
    assert write_trees(lesson, tmp_path / "map.html") == {}
    assert f"--pacman {traps[pacman, ghost, cell].plugin}" in map_page(lesson)  # the page's command names it
    note = capsys.readouterr().out
    assert note.count("\n") == 1 and "no trees for" in note and "--pacman SPEC" in note, note
    assert not mark.exists()
