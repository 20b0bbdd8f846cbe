"""CS188 parity and the rough edges a new user met (issue 18), one test or more per item."""

from __future__ import annotations

import pytest

from pacsim.cli import main
from pacsim.engine import find_layout, load_layout, shipped_layouts
from pacsim.errors import LayoutError

COURSE_SMALL = """\
%%%%%%%%%
%P.... G%
%%%%%%%%%
"""
"""An edited course smallClassic.lay: not pacsim's shipped one."""

MINIMAX = """\
%%%%%%%
%P . G%
%%%%%%%
"""


@pytest.fixture
def course(tmp_path, monkeypatch):
    """A CS188 course folder as the current folder, its mazes in layouts/."""
    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts" / "smallClassic.lay").write_text(COURSE_SMALL)
    (tmp_path / "layouts" / "minimaxClassic.lay").write_text(MINIMAX)
    monkeypatch.chdir(tmp_path)
    return tmp_path


# -- item 1: shipped mazes never shadow the course's --------------------------------

def test_no_shipped_maze_carries_a_cs188_name_for_a_different_maze():
    shipped = shipped_layouts()
    assert "mediumClassic" not in shipped and "tinyMaze" not in shipped
    assert {"wideClassic", "tinyGhostMaze"} <= set(shipped)
    small = load_layout("smallClassic")  # identical to the course's: 20x7, two ghosts
    assert (small.width, small.height, small.num_ghosts, small.capsule_count) == (20, 7, 2, 2)


def test_an_old_shipped_name_says_what_it_is_called_now(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(LayoutError, match="now called wideClassic"):
        load_layout("mediumClassic")


def test_a_course_layout_wins_over_a_shipped_one_and_says_so(course):
    found = find_layout("smallClassic")
    assert found.layout.text == COURSE_SMALL and found.note and "not pacsim's shipped smallClassic" in found.note
    assert find_layout("minimaxClassic").note is None  # no shipped maze of that name: nothing to say
    (course / "smallClassic.lay").write_text(MINIMAX)
    assert find_layout("smallClassic").layout.text == MINIMAX  # ./NAME.lay before ./layouts/NAME.lay


def test_play_in_a_course_folder_plays_the_course_maze_and_notes_it_once(course, capsys):
    assert main(["play", "-l", "smallClassic", "-q", "-n", "2", "--seed", "1"]) == 0
    err = capsys.readouterr().err
    assert err.count("layouts/smallClassic.lay, not pacsim's shipped smallClassic") == 1


def test_the_cs188_folder_option_finds_its_layouts(course, tmp_path_factory, monkeypatch):
    monkeypatch.chdir(tmp_path_factory.mktemp("elsewhere"))
    with pytest.raises(LayoutError):
        load_layout("minimaxClassic")
    assert main(["play", "-l", "minimaxClassic", "--cs188", str(course), "-q", "--seed", "1"]) == 0


# -- item 4: one resolution everywhere ---------------------------------------------

def test_an_experiment_file_finds_course_layouts_by_name(course):
    from pacsim.runner import load_experiment

    (course / "exp.toml").write_text('games = 1\n[grid]\npacman = ["greedy"]\nghosts = ["random"]\n'
                                     'layout = ["minimaxClassic", "smallClassic"]\n')
    experiment = load_experiment(course / "exp.toml")
    assert {condition.layout_text for condition in experiment.conditions} == {MINIMAX, COURSE_SMALL}
    assert len(experiment.notes) == 1 and "smallClassic" in experiment.notes[0]


def test_play_takes_a_generated_maze_as_experiments_do(capsys):
    assert main(["play", "-l", "generated:w=9,h=7,food=3,ghosts=1,seed=4", "-q", "--seed", "2"]) == 0
    assert "1 game" in capsys.readouterr().out
    assert main(["play", "-l", "generated:w=9,h=7,seed=1-3", "-q"]) == 2


def test_layouts_check_takes_names(course, capsys):
    assert main(["layouts", "--check", "minimaxClassic", "smallClassic"]) == 0
    captured = capsys.readouterr()
    assert "minimaxClassic: ok" in captured.out and "not pacsim's shipped smallClassic" in captured.err


# -- items 2 and 3: the course's default Pacman, and -k beyond the layout -------------

def test_keyboard_agent_is_pacsims_keyboard_pacman(course, monkeypatch, capsys):
    # The course's KeyboardAgent needs its Tk window; found here it would fail in it.
    (course / "keyboardAgents.py").write_text("class KeyboardAgent:\n    def getAction(self, state):\n        raise AttributeError('Tk')\n")
    pressed = iter(["d", "", "a"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(pressed, ""))
    assert main(["play", "-p", "KeyboardAgent", "-l", "minimaxClassic", "-k", "0", "-q", "--max-moves", "3", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "error" not in out and "game 1/1" in out


def test_more_ghosts_than_the_layout_has_plays_with_all_of_them_and_says_so(capsys):
    assert main(["play", "-l", "smallClassic", "-k", "5", "-q", "--seed", "1", "--max-moves", "5"]) == 0
    assert "-k 5: layout 'smallClassic' has 2 ghosts; playing with those 2" in capsys.readouterr().err


# -- items 5 and 6: shipped experiments run by name, with the files they refer to ---------

def test_shipped_experiments_are_listed_and_run_by_name_from_any_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["experiments"]) == 0
    listed = capsys.readouterr().out
    assert "optimism_pessimism" in listed and 'The "optimism vs pessimism" table' in listed
    assert main(["run", "population", "-n", "1", "-j", "1", "--set", 'grid.layout="generated:w=9,h=7,food=2,ghosts=1,seed=0"']) == 0
    assert "population: played 4 games" in capsys.readouterr().out
    assert main(["run", "no_such_experiment", "-q"]) == 2


def test_files_shipped_experiments_name_are_found_from_any_folder(tmp_path, monkeypatch):
    from pacsim.agents import make_pacman
    from pacsim.search.probcut import load_model

    monkeypatch.chdir(tmp_path)  # no experiments/ or examples/ here: the shipped copies answer
    assert load_model("experiments/probcut_smallClassic_R6.json").reduction == 6
    assert make_pacman("examples/cautious_pacman.py:CautiousPacman", {}).name


def test_reproduce_points_at_the_readme_it_ships_with():
    from pacsim.report.optimism import readme_pointer
    from pacsim.shipped import shipped_experiment

    assert str(shipped_experiment("README.md")) in readme_pointer() and shipped_experiment("README.md").is_file()


# -- items 7 and 8: several runs in one store, and the games a command asked for --------------

SMALL_EXPERIMENT = """name = "tiny"
games = 3
[grid]
pacman = ["greedy", "random"]
ghosts = ["random"]
layout = ["generated:w=7,h=5,food=2,ghosts=1,seed=1"]
"""


def games_column(csv_text: str) -> list[int]:
    import csv

    return [int(row["games"]) for row in csv.DictReader(csv_text.splitlines())]


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory):
    """A store holding two runs of one experiment (root seeds 1 and 2), the second with 2 games only."""
    folder = tmp_path_factory.mktemp("runs")
    (folder / "tiny.toml").write_text(SMALL_EXPERIMENT)
    store = str(folder / "tiny.sqlite")
    for seed, games in ((1, "3"), (2, "2")):
        assert main(["run", str(folder / "tiny.toml"), "-j", "1", "-q", "--store", store, "--set", f"seed={seed}", "-n", games]) == 0
    return folder, store


def test_report_takes_the_latest_run_and_says_so(two_runs, capsys):
    _, store = two_runs
    assert main(["report", store, "--format", "csv"]) == 0
    captured = capsys.readouterr()
    assert "showing the latest run of each experiment: tiny root seed 2" in captured.err and captured.err.count("\n") == 1
    assert games_column(captured.out) == [2, 2]
    assert main(["report", store, "--compare", "greedy/random/generated:w=7,h=5,food=2,ghosts=1,seed=1",
                 "random/random/generated:w=7,h=5,food=2,ghosts=1,seed=1"]) == 0
    assert "2 paired games" in capsys.readouterr().out


def test_report_picks_a_run_by_root_seed_or_id_and_pools_on_request(two_runs, capsys):
    folder, store = two_runs
    assert main(["report", store, "--runs"]) == 0
    listed = capsys.readouterr().out.splitlines()
    first_id = listed[1].split()[0]
    for choice in (["--root-seed", "1"], ["--run", first_id]):
        assert main(["report", store, "--format", "csv", *choice]) == 0
        captured = capsys.readouterr()
        assert games_column(captured.out) == [3, 3] and "root seed 1" in captured.err
    assert main(["report", store, "--format", "csv", "--all"]) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and games_column(captured.out) == [3, 3, 2, 2]
    assert main(["report", store, "--root-seed", "7"]) == 2
    assert main(["export", store, "--out", str(folder / "games.csv")]) == 0
    assert "wrote 4 games" in capsys.readouterr().out  # the latest run's 2 x 2 games


def test_run_summarises_the_games_it_was_asked_for(two_runs, capsys):
    folder, store = two_runs
    assert main(["run", str(folder / "tiny.toml"), "-j", "1", "--store", store, "--set", "seed=1", "-n", "1"]) == 0
    table = capsys.readouterr().out.splitlines()
    rows = [line for line in table if line.strip().startswith(("greedy", "random"))]
    assert len(rows) == 2 and all(line.split()[1] == "1" for line in rows)


def test_tables_use_the_terminals_width(two_runs, capsys, monkeypatch):
    _, store = two_runs
    monkeypatch.setenv("COLUMNS", "250")
    assert main(["report", store]) == 0
    wide = capsys.readouterr().out.splitlines()
    assert len(wide) == 3 and max(map(len, wide)) > 100  # a header and two rows: nothing wrapped
    monkeypatch.setenv("COLUMNS", "60")
    assert main(["report", store]) == 0
    assert len(capsys.readouterr().out.splitlines()) > 3
