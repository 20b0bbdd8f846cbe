"""CS188 parity and the rough edges a new user met (issue 18), one test or more per item."""

from __future__ import annotations

from pathlib import Path

import pytest
from optional import needed

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
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)  # a person at a terminal
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
    assert main(["run", "population", "-n", "1", "-j", "1", "--set", 'grid.layout="generated:w=9,h=7,food=2,ghosts=1,seed=0"',
                 "--set", "grid.depth=1", "--set", "max_moves=30"]) == 0
    assert "population: played 4 games" in capsys.readouterr().out
    assert main(["run", "no_such_experiment", "-q"]) == 2


def test_files_shipped_experiments_name_are_found_from_any_folder(tmp_path, monkeypatch):
    from pacsim.agents import make_pacman
    from pacsim.search.probcut import load_model

    monkeypatch.chdir(tmp_path)  # no experiments/ or examples/ here: the shipped copies answer
    assert load_model("experiments/probcut/probcut_smallClassic_R6.json").reduction == 6
    assert load_model("experiments/probcut_smallClassic_R6.json").reduction == 6  # the path before study folders
    assert make_pacman("examples/cautious_pacman.py:CautiousPacman", {}).name


def test_reproduce_points_at_the_readme_it_ships_with():
    from pacsim.report.optimism import README, readme_pointer
    from pacsim.shipped import shipped_experiment

    assert README.startswith("optimism_pessimism/")
    assert str(shipped_experiment(README)) in readme_pointer() and shipped_experiment(README).is_file()


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
    assert captured.out.splitlines()[0].startswith("experiment,root_seed,condition,")  # not config hashes
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
    monkeypatch.setattr("pacsim.report.format.terminal_width", lambda: 250)  # a wide terminal
    assert main(["report", store]) == 0
    wide = capsys.readouterr().out.splitlines()
    wide = wide[:wide.index("")]  # the table, before the games worth replaying
    assert len(wide) == 3 and max(map(len, wide)) > 100  # a header and two rows: nothing wrapped
    monkeypatch.setattr("pacsim.report.format.terminal_width", lambda: 60)
    assert main(["report", store]) == 0
    narrow = capsys.readouterr().out.splitlines()
    assert len(narrow[:narrow.index("")]) > 3 and any(line.startswith("(left out to fit") for line in narrow)


# -- item 10: the values panel says what its numbers are ------------------------------------

def test_the_mcts_panel_shows_visits_as_integers_with_the_budget_and_ghost_model(monkeypatch):
    import pygame

    from pacsim.agents import make_pacman
    from pacsim.engine import initial_state
    from pacsim.viewer.render import Renderer, values_heading, window_size

    pygame.font.init()
    agent = make_pacman("mcts:iterations=30", {})
    layout = load_layout("trapMaze")
    state = initial_state(layout)
    values = agent.action_values(state)
    assert all(type(visits) is int for _, visits in values)
    renderer = Renderer()
    renderer.heading = values_heading(agent)
    drawn: list[str] = []
    font = renderer._font

    class Recording:
        def __init__(self, size):
            self.font = font(size)

        def render(self, text, *rest):
            drawn.append(text)
            return self.font.render(text, *rest)

        def __getattr__(self, name):
            return getattr(self.font, name)

    monkeypatch.setattr(renderer, "_font", Recording)
    renderer.draw(pygame.Surface(window_size(layout, 1.0, panel=True)), state, values=values)
    assert {"Visits", "MCTS, 30 iterations", "ghosts: chance, uniform"} <= set(drawn) and "Search values" not in drawn
    assert {str(visits) for _, visits in values} <= set(drawn)
    assert values_heading(make_pacman("expectimax:depth=3", {})) == ("Search values", "expectimax, depth 3", "ghosts: chance, uniform")
    assert values_heading(make_pacman("minimax", {}))[2] == "ghosts: min"


# -- items 11 and 12: analyze ----------------------------------------------------------

def test_analyze_counts_pacman_moves_as_play_does(tmp_path, capsys):
    from pacsim.engine.recording import load_game

    record = tmp_path / "game.json"
    assert main(["play", "-l", "trapMaze", "-p", "greedy", "-q", "--seed", "3", "--record", str(record)]) == 0
    moves = int(capsys.readouterr().out.split("moves ")[1].split()[0])
    states = load_game(record).states()
    pacman_turns = [state for state in states if state.turn == 0 and not state.is_terminal]
    assert len(pacman_turns) == moves  # play's count of moves is Pacman's
    assert main(["analyze", "--game", str(record), "--move", "1", "-p", "minimax:depth=1"]) == 0
    assert capsys.readouterr().out.startswith(pacman_turns[1].to_text())  # before Pacman's second move
    assert main(["analyze", "--game", str(record), "--move", str(moves), "-p", "minimax:depth=1"]) == 2
    assert f"numbered 0 to {moves - 1}" in capsys.readouterr().err


def test_analyze_mcts_shows_its_own_costs_and_non_search_agents_are_told_of_mcts(capsys):
    assert main(["analyze", "-l", "trapMaze", "-p", "mcts:iterations=20"]) == 0
    out = capsys.readouterr().out
    assert "levels None" not in out and "cutoffs" not in out and "tree depth" in out and "iterations 20" in out
    assert main(["analyze", "-l", "trapMaze", "-p", "greedy"]) == 2
    assert "mcts" in capsys.readouterr().err


# -- items 13, 14 and 17: your own agent, and display options that cannot apply --------------

RAISING_AGENT = """from pacsim.agents.api import Agent


def helper():
    raise ValueError("my bug")


class Broken(Agent):
    def get_action(self, state):
        return helper()
"""


def test_play_exits_2_when_every_game_ended_in_error_and_debug_shows_the_traceback(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PACSIM_DEBUG", "0")  # --debug sets it (for workers): undone after the test
    (tmp_path / "mine.py").write_text(RAISING_AGENT)
    argv = ["play", "-l", "trapMaze", "-p", f"{tmp_path / 'mine.py'}:Broken", "-q", "-n", "2"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "all 2 games ended in error" in err and "Traceback" not in err and "--debug" in err
    assert main([*argv, "--debug"]) == 2
    err = capsys.readouterr().err
    assert err.count("Traceback (most recent call last)") == 2 and "in helper" in err and "ValueError: my bug" in err
    monkeypatch.setenv("PACSIM_DEBUG", "0")
    assert main(argv) == 2 and "in helper" not in capsys.readouterr().err
    monkeypatch.setenv("PACSIM_DEBUG", "1")
    assert main(argv) == 2 and "in helper" in capsys.readouterr().err
    (tmp_path / "exp.toml").write_text(f'games = 1\n[grid]\npacman = ["{tmp_path / "mine.py"}:Broken"]\n'
                                       'ghosts = ["random"]\nlayout = ["trapMaze"]\n')
    store = str(tmp_path / "r.sqlite")
    assert main(["run", str(tmp_path / "exp.toml"), "-j", "1", "-q", "--store", store, "--debug"]) == 2
    assert "ValueError: my bug" in capsys.readouterr().err


def test_show_values_and_frame_time_do_what_was_asked_or_say_why_not(monkeypatch, capsys):
    assert main(["play", "-l", "trapMaze", "-p", "greedy", "-q", "--show-values", "--frame-time", "0.2", "--max-moves", "3"]) == 0
    err = capsys.readouterr().err
    assert "--show-values: nothing is drawn with -q" in err and "--frame-time: nothing is drawn with -q" in err
    assert main(["play", "-l", "trapMaze", "-p", "greedy", "-t", "--show-values", "--max-moves", "3"]) == 0
    assert "Pacman 'greedy' has no search values to show" in capsys.readouterr().err
    pauses: list[float] = []
    monkeypatch.setattr("pacsim.cli.play.time.sleep", pauses.append)
    assert main(["play", "-l", "trapMaze", "-p", "minimax:depth=1", "-t", "--show-values", "--frameTime", "0.05", "--max-moves", "2"]) == 0
    out = capsys.readouterr().out
    assert out.count("values: ") == 3 and len(pauses) == 3 and set(pauses) == {0.05}  # the start and two moves


# -- item 15: one identifier for plugin code ----------------------------------------------

def test_the_plugin_code_note_and_the_condition_label_name_the_code_alike(tmp_path, monkeypatch, capsys):
    import re

    monkeypatch.chdir(tmp_path)
    (tmp_path / "my_agents.py").write_text("from pacsim.agents.simple import GreedyPacman\n\n\nclass Mine(GreedyPacman):\n    pass\n")
    (tmp_path / "exp.toml").write_text('games = 1\n[grid]\npacman = ["my_agents.py:Mine"]\nghosts = ["random"]\nlayout = ["trapMaze"]\n')
    assert main(["run", "exp.toml", "-j", "1"]) == 0
    out = capsys.readouterr().out
    noted = re.search(r"plugin code: my_agents.py code=([0-9a-f]{8}) \(sha256:([0-9a-f]{16})\)", out)
    assert noted and noted.group(2).startswith(noted.group(1))
    assert f"/code={noted.group(1)}" in out  # the summary's condition label


# -- item 16: an option given twice ------------------------------------------------------

@pytest.mark.parametrize("argv, places", [
    (["-p", "expectimax:depth=2", "-a", "depth=3"], "in 'expectimax:depth=2' and in -a 'depth=3'"),
    (["-g", "directional:attack=0.5", "--ghost-args", "attack=0.9"], "in 'directional:attack=0.5' and in --ghost-args 'attack=0.9'"),
    (["-p", "expectimax", "-a", "depth=2,depth=3"], "given twice in 'depth=2,depth=3'"),
])
def test_an_option_given_twice_is_an_error_naming_both_places(argv, places, capsys):
    assert main(["play", "-l", "trapMaze", "-q", *argv]) == 2
    err = capsys.readouterr().err
    assert places in err and err.count("\n") == 1
    assert main(["analyze", "-l", "trapMaze", "-p", "expectimax:depth=2", "-a", "depth=3"]) == 2


# -- item 18: what the Python API shows ------------------------------------------------------

def test_dir_shows_the_lazy_api_and_results_carry_datetimes(two_runs):
    import json

    import pandas

    import pacsim

    assert {"load_results", "summarize", "__version__"} <= set(dir(pacsim))
    results = pacsim.load_results(two_runs[1])
    assert pandas.api.types.is_datetime64_any_dtype(results["started_at"]) and str(results["started_at"].dt.tz) == "UTC"
    assert set(json.loads(results["options"].iloc[0])) == {"pacman", "ghost"}


# -- item 19: a keyboard game waits for its first key and shows the keys ---------------------

def test_a_keyboard_game_waits_for_the_first_key_and_shows_the_keys(monkeypatch):
    import pygame

    import pacsim.viewer.window as window
    from pacsim.agents import make_ghost, make_pacman
    from pacsim.viewer.controls import Controls, describe
    from pacsim.viewer.settings import WindowSettings

    assert "arrow" in describe(Controls(keyboard=True)) and "start" in describe(Controls(keyboard=True))
    assert "WASD move" in describe(Controls(keyboard=True, direction="West")) and "WASD" not in describe(Controls())
    monkeypatch.setenv("PACSIM_HIDDEN_WINDOW", "1")
    monkeypatch.setattr(window, "END_HOLD_SECONDS", 0.0)
    monkeypatch.setattr(window, "TICKS_PER_SECOND", 2000)
    west = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a, unicode="a")
    ticks = iter([[]] * 100 + [[west]])  # 50 ms of nothing pressed, then 'a'
    monkeypatch.setattr(pygame.event, "get", lambda: next(ticks, []))
    record = window.play_in_window(load_layout("openRoom"), [make_pacman("keyboard"), make_ghost("random")], seed=3,
                                   max_moves=3, options=WindowSettings(frame_time=0.0))
    assert record.actions[0] == "West"  # not a Stop played before anyone pressed anything


# -- item 20: report says what it wrote ------------------------------------------------------

def test_report_out_and_plot_say_what_they_wrote(two_runs, capsys, monkeypatch):
    # The figure itself is item 22's test; here only what the command says.
    monkeypatch.setattr("pacsim.report.plot.check_plot_path", lambda path: None)
    monkeypatch.setattr("pacsim.report.plot.plot_summary", lambda results, summary, by, path: Path(path).write_bytes(b"png"))
    folder, store = two_runs
    out, plot = folder / "table.md", folder / "table.png"
    assert main(["report", store, "--format", "markdown", "--out", str(out), "--plot", str(plot)]) == 0
    said = capsys.readouterr().out.splitlines()
    assert said == [f"wrote the markdown report (2 rows) to {out}", f"wrote the plot to {plot}"]
    assert out.read_text().startswith("| condition") and plot.stat().st_size > 0


# -- item 22: figures ------------------------------------------------------------------------

EXPERIMENTS = Path(__file__).resolve().parent.parent / "experiments"


def test_figures_colour_their_groups_title_what_ran_and_hide_no_data(two_runs, monkeypatch, tmp_path):
    import struct
    import sys

    needed("matplotlib", "pip install -e '.[plot]'")
    import pandas
    from matplotlib.colors import to_hex

    import pacsim.report.plot as plot
    from pacsim.report import summarize
    from pacsim.runner import load_results

    drawn = []
    monkeypatch.setattr(plot, "save_figure", lambda figure, pyplot, path: drawn.append(figure))
    results = load_results(two_runs[1])
    results = results[results["config_hash"] == results["config_hash"].iloc[-1]]
    plot.plot_summary(results, summarize(results, by=["condition"]), ["condition"], tmp_path / "x.png")
    wins_axis = drawn[0].axes[0]
    assert len({to_hex(bar.get_facecolor()) for bar in wins_axis.patches}) == 2  # one colour per condition
    assert drawn[0]._suptitle.get_text().startswith("tiny: 4 games in 2 groups")

    monkeypatch.syspath_prepend(str(EXPERIMENTS / "beyond_the_slide"))
    population = __import__("population_report")
    figure = population.draw(pandas.read_csv(EXPERIMENTS / "beyond_the_slide" / "population_mazes.csv"))
    spread, settings = figure.axes[1:3]
    assert len(figure.axes) == 5  # the scatter's colour bar
    assert max(bar.get_height() for bar in spread.patches) < 50  # not one bar of zeros dwarfing the rest
    figure.canvas.draw()
    for axis in (spread, settings):  # legends below their panels, over no data
        assert not axis.get_legend().get_window_extent().overlaps(axis.get_window_extent())
    sys.modules.pop("population_report", None)

    width, height = struct.unpack(">II", (EXPERIMENTS / "mcts" / "mcts_convergence.png").read_bytes()[16:24])
    assert (width, height) == (1000, 700)  # 5 x 3.5 inches at 200 dpi


def test_play_defaults_to_the_course_default_maze_in_a_course_folder(course, capsys):
    import json

    (course / "layouts" / "mediumClassic.lay").write_text(MINIMAX)
    assert main(["play", "-q", "--seed", "1", "--record", str(course / "game.json")]) == 0
    saved = json.loads((course / "game.json").read_text())
    assert saved["layout"] == {"name": "mediumClassic", "text": MINIMAX}


# -- item 21: the README, short, with its first two commands -----------------------------------

def test_the_readme_keeps_its_two_commands_and_its_links_lead_somewhere():
    import re

    root = Path(__file__).resolve().parent.parent
    readme = (root / "README.md").read_text()
    blocks = re.findall(r"```\n(.*?)```", readme, flags=re.S)
    assert blocks[0].strip().endswith("pacsim reproduce") and blocks[1].strip().endswith("python -m pytest")
    assert "minutes" in readme.split("## ")[0]  # how long reproduce takes, with and without the fast path
    assert "hypothetical" in readme
    links = re.findall(r"\]\(((?:docs|experiments)/[^)#]+)\)", readme)
    assert links and all((root / link).is_file() for link in links)
    assert readme.count("\n") < 300  # a front page: options and research-level material live in docs/


def test_the_readme_example_experiment_loads_with_its_grid_options_and_store(tmp_path, monkeypatch):
    import re

    from pacsim.runner.experiment import load_experiment

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    (example,) = re.findall(r"```toml\n(.*?)```", readme, flags=re.S)
    path = tmp_path / "my_experiment.toml"
    path.write_text(example)
    monkeypatch.chdir(tmp_path)
    experiment = load_experiment(path)
    assert len(experiment.conditions) == 16 and experiment.games == 200
    assert experiment.store.name == "my_experiment.sqlite"
    assert experiment.conditions[0].pacman_options == {"eval": "careful", "depth": 2}
