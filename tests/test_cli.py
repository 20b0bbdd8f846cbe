"""The command line: output shape, one-line errors with exit status 2."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pandas
from optional import needed

from pacsim.cli import main
from pacsim.cli.play import SHORT_RUN

REPOSITORY = Path(__file__).resolve().parents[1]


def test_play_prints_each_game_and_a_summary(capsys, tmp_path):
    record = tmp_path / "game.json"
    assert main(["play", "-l", "pincerMaze", "-p", "greedy", "-g", "random", "-n", "3", "-q", "--seed", "5",
                 "--record", str(record)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 4 and lines[0].startswith("game 1/3 (seed 5): ")
    assert lines[-1].startswith("3 games, ") and "win rate" in lines[-1] and "average score" in lines[-1]
    assert (tmp_path / "game-1.json").exists() and (tmp_path / "game-3.json").exists()


def test_text_mode_draws_boards(capsys):
    assert main(["play", "-l", "openRoom", "-t", "--seed", "1", "--max-moves", "3"]) == 0
    out = capsys.readouterr().out
    assert "%%%%%%%" in out and "score" in out


def test_every_shipped_layout_plays_with_every_ghost(capsys):
    from pacsim.engine import shipped_layouts

    for name in shipped_layouts():
        for ghost in ("random", "directional", "adversarial"):
            assert main(["play", "-l", name, "-g", ghost, "-q", "--seed", "3", "--max-moves", "15"]) == 0
    assert "error" not in capsys.readouterr().out


def test_user_mistakes_exit_2_with_one_line(capsys):
    cases = [
        (["play", "-p", "minmax", "-q"], "unknown Pacman agent 'minmax'"),
        (["play", "-g", "ghosty", "-q"], "unknown ghost agent 'ghosty'"),
        (["play", "-p", "minimax", "-a", "depth", "-q"], "agent option 'depth' is not key=value"),
        (["play", "-l", "pincerMaze", "-k", "-1", "-q"], "-k -1: the number of ghosts cannot be negative"),
        (["play", "-n", "0", "-q"], "-n 0"),
        (["play", "--bogus"], "unrecognized arguments: --bogus"),
    ]
    for argv, message in cases:
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1, (argv, err)


def test_analyze_shows_pessimism_and_optimism(capsys):
    assert main(["analyze", "-l", "pincerMaze", "-p", "minimax:depth=2,eval=careful",
                 "-p", "expectimax:depth=2,eval=careful", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    minimax, expectimax = rows
    assert set(minimax["actions"]) == set(expectimax["actions"]) == {"East", "West", "Stop"}
    # A chance ghost can only look better than a minimising one.
    for action, value in minimax["actions"].items():
        assert expectimax["actions"][action] >= value
    assert minimax["generated"] > 0 and minimax["levels"] == 2 * 3  # two rounds of three agents


# -- issue 30: a command line that starts at once ----------------------------------------------

HEAVY = ("pandas", "numpy", "numba", "pygame", "pyarrow", "pacsim.agents.registry", "pacsim.runner.execute")


def modules_after(argv, cwd=None, names=HEAVY):
    """The modules of ``names`` (heavy ones) a fresh interpreter holds after ``pacsim ARGV``, which must succeed
    (a command that stopped at its first line would import little, and seem light)."""
    code = ("import sys\nfrom pacsim.cli import main\ntry:\n    status = main(sys.argv[1:])\n"
            "except SystemExit as stop:\n    status = stop.code\n"
            f"print('held:', *(name for name in {tuple(names)!r} if name in sys.modules), file=sys.stderr)\n"
            "sys.exit(status)")
    environment = dict(os.environ, PYTHONPATH=str(REPOSITORY), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    finished = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, cwd=cwd,
                              env=environment, check=False)
    assert finished.returncode == 0, (argv, finished.stderr)
    return set(finished.stderr.strip().splitlines()[-1].split()[1:])  # after "held:" (the command's notes come before)


def test_help_imports_no_command_and_play_no_pandas_nor_pygame(tmp_path):
    assert modules_after(["--help"]) == set()
    assert modules_after(["report", "--help"]) == set()  # FORMATS without pandas
    assert modules_after(["play", "--help"]) == set()
    played = modules_after(["play", "-q", "-l", "openRoom", "--seed", "1", "--max-moves", "5"], cwd=tmp_path)
    assert not played & {"pandas", "pyarrow", "pygame", "numba", "pacsim.runner.execute"}, played


# -- issue 38: a short game starts as fast as the course's own pacman.py -----------------------

UNPLAYED = ("numpy", "numba", "pacsim.fast.view", "pacsim.agents.ghosts", "pacsim.agents.search_agents", "pacsim.agents.mcts_agent",
            "pacsim.agents.learning", "pacsim.sandbox.room", "pacsim.runner.experiment", "pacsim.search.api",
            "pacsim.engine.recording", "pacsim.engine.generate", "json", "secrets", "sysconfig", "ctypes")
"""What a quiet game of the greedy (or a course's reflex) Pacman against random ghosts never uses."""


def test_a_quiet_game_imports_only_what_it_plays(tmp_path):
    assert modules_after(["play", "-n", "1", "-q", "-l", "smallClassic", "--seed", "1"], tmp_path, UNPLAYED) == set()
    course = REPOSITORY / "tests" / "cs188_agents"
    assert modules_after(["-p", "ReflexAgent", "-l", "tinyGrid", "-q", "--seed", "1"], course, UNPLAYED) == set()
    searched = modules_after(["play", "-q", "-l", "tinyGrid", "-p", "minimax:depth=1,backend=python", "--seed", "1"],
                             course, UNPLAYED)
    assert {"pacsim.agents.search_agents", "pacsim.search.api"} <= searched  # what the game plays, it imports


def test_agents_help_imports_no_agent():
    assert modules_after(["agents", "--help"]) == set()


def test_every_command_builds_alone_with_the_common_options():
    from pacsim.cli import COMMANDS, build_parser

    for command in COMMANDS:
        parser = build_parser([command])
        choices = parser._subparsers._group_actions[0].choices  # the command's own parser
        options = choices[command]._option_string_actions
        assert {"-q", "--quiet", "--debug"} <= set(options), command


def test_options_without_a_command_play_as_cs188_does(capsys):
    assert main(["-p", "greedy", "-l", "openRoom", "-q", "--seed", "4", "--max-moves", "5"]) == 0
    assert capsys.readouterr().out.startswith("game 1/1 (seed 4): ")
    assert main(["--vers"]) == 0  # the top level's own options, abbreviated as argparse allows, stay its own
    assert capsys.readouterr().out.startswith("pacsim ")


def test_cs188_replay_option_replays_the_file(capsys, tmp_path):
    record = tmp_path / "game.json"
    assert main(["play", "-l", "openRoom", "-q", "--seed", "4", "--max-moves", "8", "--record", str(record)]) == 0
    capsys.readouterr()
    assert main(["--replay", str(record), "-q"]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("replay openRoom: ") and "matches the recorded score" in captured.out
    assert "note" not in captured.err


def test_a_short_search_run_stays_in_python_and_says_where_pacman_searched(capsys):
    import argparse

    from pacsim.cli.play import search_in_python

    def asked(pacman, agent_args="", games=1):
        return argparse.Namespace(pacman=pacman, agent_args=agent_args, games=games)

    assert search_in_python(asked("minimax:depth=2"), num_ghosts=2)
    assert not search_in_python(asked("minimax", "depth=4", games=50), num_ghosts=3)  # worth loading the kernel
    assert not search_in_python(asked("minimax:depth=1,backend=fast"), num_ghosts=1)  # asked for
    assert not search_in_python(asked("greedy"), num_ghosts=1)  # searches nothing
    assert main(["play", "-p", "minimax:depth=1", "-l", "openRoom", "-q", "--seed", "2", "--max-moves", "5"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].endswith("; Pacman searched in Python")


def test_the_short_run_guess_counts_the_ahead_of_time_kernels_load_where_it_is_built(monkeypatch):
    """issue 38: a run the JIT path's load would outlast searches in the
    kernel once its ahead-of-time module is built (it loads at once)."""
    import argparse

    import pacsim.fast.aot
    from pacsim.cli.play import search_in_python

    run = argparse.Namespace(pacman="minimax:depth=3", agent_args="", games=1)  # about 0.1 s in Python
    monkeypatch.setattr(pacsim.fast.aot, "module_ready", lambda: True)
    assert not search_in_python(run, num_ghosts=2)
    monkeypatch.setattr(pacsim.fast.aot, "module_ready", lambda: False)
    assert search_in_python(run, num_ghosts=2)


def test_backend_auto_given_is_the_default_and_the_last_line_says_why_pacman_searched_where(capsys, monkeypatch):
    """issue 39: ``backend=auto`` given behaves as left out; a user's
    evaluation is never guessed into Python; the line after the last (on
    stderr, the terminal's last) names the reason."""
    import argparse

    from pacsim.cli.play import search_in_python

    def asked(pacman):
        return argparse.Namespace(pacman=pacman, agent_args="", games=1)

    assert search_in_python(asked("minimax:depth=2,backend=auto"), num_ghosts=2)
    assert not search_in_python(asked("minimax:depth=2,eval=examples/kernel_eval.py:hungry"), num_ghosts=2)
    assert main(["play", "-p", "minimax:depth=1", "-l", "openRoom", "-q", "--seed", "2", "--max-moves", "5"]) == 0
    assert capsys.readouterr().err.splitlines()[-1] == f"pacsim: Pacman searched in Python because {SHORT_RUN}"
    assert main(["play", "-p", "minimax:depth=1,backend=python", "-l", "openRoom", "-q", "--seed", "2",
                 "--max-moves", "5"]) == 0
    assert capsys.readouterr().err.splitlines()[-1] == "pacsim: Pacman searched in Python because backend=python"
    monkeypatch.setenv("PACSIM_BACKEND", "python")
    assert main(["play", "-p", "minimax:depth=3", "-l", "openRoom", "-q", "--seed", "2",
                 "--max-moves", "5"]) == 0
    assert capsys.readouterr().err.splitlines()[-1] == "pacsim: Pacman searched in Python because PACSIM_BACKEND=python"


def test_bench_startup_measures_ratios_against_importing_numpy_and_a_course(tmp_path, monkeypatch):
    import shutil

    from pacsim.bench import startup
    from pacsim.bench.report import Report

    course = tmp_path / "course"
    shutil.copytree(REPOSITORY / "tests" / "cs188_agents", course)
    monkeypatch.setattr(startup, "HELP_COMMANDS", ("",))
    monkeypatch.setattr(startup, "PLAY_ONE", ("play", "-n", "1", "-q", "-l", "openRoom", "--max-moves", "5"))
    monkeypatch.setattr(startup, "COURSE_COMMANDS", {"reflex": (("-p", "ReflexAgent", "-l", "tinyGrid", "-q"), 1.0)})
    report = Report()
    startup.startup_figures(report, repeats=1, course=course)
    names = [figure.name for figure in report.figures]
    assert names == ["pacsim --help", "pacsim play -n 1 -q -l openRoom --max-moves 5",
                     "pacsim -p ReflexAgent -l tinyGrid -q", "reflex"], (names, report.skipped)
    assert all(figure.value > 0 and figure.unit == "ratio" for figure in report.figures)
    assert "target 2x" in report.figures[0].note and "target parity" in report.figures[-1].note
    without = Report()
    monkeypatch.setattr(startup, "PLAY_ONE", ("play", "-l", "noSuchMaze"))
    startup.startup_figures(without, repeats=1)
    assert [figure.name for figure in without.figures] == ["pacsim --help"]
    assert "noSuchMaze" in without.skipped[0]  # a failing command is skipped, not timed


def test_bench_startup_times_every_help_and_pacsims_own_agent_against_the_courses(tmp_path, monkeypatch):
    import shutil

    from pacsim.bench import startup
    from pacsim.bench.report import Report
    from pacsim.cli import COMMANDS

    assert set(startup.HELP_COMMANDS) == {"", *COMMANDS}
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    environment = startup._environment()  # as installed: bytecode cached, in a folder of the run's own
    assert "PYTHONDONTWRITEBYTECODE" not in environment and Path(environment["PYTHONPYCACHEPREFIX"]).is_dir()
    course = tmp_path / "course"
    shutil.copytree(REPOSITORY / "tests" / "cs188_agents", course)
    games = ("-l", "tinyGrid", "-q", "-n", "50")
    monkeypatch.setattr(startup, "COURSE_COMMANDS", {
        "built-in greedy against ReflexAgent, 50 games": (("-p", "greedy", *games), 1 / 30, ("-p", "ReflexAgent", *games)),
        "ReflexAgent in pacsim, 50 games": (("-p", "ReflexAgent", *games), None, ("-p", "ReflexAgent", *games)),
    })
    report = Report()
    startup._course_figures(report, "startup", 1, course, quick=True)
    against = [figure for figure in report.figures if "pacman.py" in figure.group]
    assert [figure.name for figure in against] == ["built-in greedy against ReflexAgent, 5 games", "ReflexAgent in pacsim, 5 games"]
    assert against[0].note.startswith("pacman.py -p ReflexAgent -l tinyGrid -q -n 5: ") and "target 30x faster" in against[0].note
    assert "no target" in against[1].note
    assert [figure.name for figure in report.figures if "pacman.py" not in figure.group] == [
        "pacsim -p greedy -l tinyGrid -q -n 5", "pacsim -p ReflexAgent -l tinyGrid -q -n 5"]


# -- issue 30: mistakes met halfway ------------------------------------------------------------

def test_unknown_names_get_the_nearest_known_one(capsys, tmp_path):
    cases = [
        (["rn", "x.toml"], "did you mean 'run'?"),
        (["play", "--gams", "3"], "did you mean '--games'?"),
        (["report", "x.sqlite", "--format", "mardown"], "did you mean 'markdown'?"),
        (["play", "-p", "minimx", "-q"], "did you mean 'minimax'?"),
        (["play", "-p", "minimax:dpth=2", "-q"], "did you mean 'depth'?"),
        (["play", "-l", "smalClassic", "-q"], "did you mean 'smallClassic'?"),
        (["run", "optimism_pesimism"], "no shipped experiment of that name (pacsim experiments lists them); "
                                       "did you mean 'optimism_pessimism'?"),
        (["play", "-p", "ReflexAgnt", "--cs188", str(REPOSITORY / "tests" / "cs188_agents"), "-q"],
         "did you mean 'ReflexAgent'?"),
    ]
    for argv, message in cases:
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1, (argv, err)


GRID = """
name = "grid"
games = 2
seed = 1
max_moves = 10
store = "{store}"
[pacman_options]
eval = "careful"
[grid]
pacman = ["greedy", "minimax", "{plugin}:CautiousPacman"]
ghosts = ["random"]
layout = ["openRoom"]
depth = [1, 2]
"""


def grid_file(tmp_path, text=GRID):
    path = tmp_path / "grid.toml"
    path.write_text(text.format(store=tmp_path / "grid.sqlite", plugin=REPOSITORY / "examples" / "cautious_pacman.py"),
                    encoding="utf-8")
    return path


def test_an_option_applies_to_the_pacmen_that_declare_it(tmp_path):
    from pacsim.runner import load_experiment

    experiment = load_experiment(grid_file(tmp_path))
    labels = [condition.label for condition in experiment.conditions]
    assert labels[:3] == ["greedy/random/openRoom", "minimax/random/openRoom/depth=1", "minimax/random/openRoom/depth=2"]
    assert labels[3].startswith("cautious_pacman:CautiousPacman/random/openRoom/")  # its file's stem, not its path
    assert len(labels) == 4
    minimax = experiment.conditions[1]
    assert minimax.pacman_options == {"eval": "careful", "depth": 1}
    assert experiment.conditions[0].pacman_options == {}


def test_an_option_no_pacman_declares_and_a_grid_key_typo_are_named(tmp_path, capsys):
    cases = [
        (GRID.replace('eval = "careful"', 'evl = "careful"'),
         "pacman_options.evl: no Pacman of the grid takes option 'evl'", "did you mean 'eval'?"),
        (GRID.replace("depth = [1, 2]", "layouts = [1, 2]"), "grid.layouts: no Pacman of the grid takes option",
         "did you mean 'layout'?"),
        (GRID.replace("pacman = [", "pacmen = ["), "grid.pacman: missing (required)", "is grid.pacmen a typo of it?"),
    ]
    for text, *messages in cases:
        assert main(["run", str(grid_file(tmp_path, text)), "-q"]) == 2
        err = capsys.readouterr().err
        assert all(message in err for message in messages) and err.count("\n") == 1, err


# -- issue 30: text output ---------------------------------------------------------------------

REPEATED = """
name = "repeated"
games = 12
seed = 1
max_moves = 20
store = "{store}"
[grid]
pacman = ["greedy"]
ghosts = ["random"]
layout = ["openRoom"]
num_ghosts = [0]
"""


def test_run_and_report_say_the_same_notes_and_report_lists_games_to_replay(tmp_path, capsys):
    experiment = tmp_path / "repeated.toml"
    store = tmp_path / "repeated.sqlite"
    experiment.write_text(REPEATED.format(store=store), encoding="utf-8")
    assert main(["run", str(experiment), "-j", "1"]) == 0
    ran = capsys.readouterr().out
    assert "note: greedy/random/openRoom/k0: 12 games, 1 line of play" in ran
    assert "\\" not in ran  # never pandas' wrapped blocks
    assert main(["report", str(store)]) == 0
    reported = capsys.readouterr().out
    assert "note: greedy/random/openRoom/k0: 12 games, 1 line of play" in reported
    assert f"games worth replaying (pacsim replay {store} --game ID):" in reported
    listed = re.search(r"\n  first win, longest  game (\d+) +win ", reported)
    assert listed, reported
    assert main(["replay", str(store), "--list"]) == 0
    assert listed.group(0) in "\n" + capsys.readouterr().out
    assert main(["replay", str(store), "--game", listed.group(1), "-q"]) == 0  # the id replays that game
    assert "matches the recorded score" in capsys.readouterr().out
    assert main(["report", str(store), "-q"]) == 0  # the common options, on report too
    quiet = capsys.readouterr()
    assert "note:" not in quiet.out and "games worth replaying" not in quiet.out and "win rate" in quiet.out
    assert main(["report", str(store), "--format", "markdown"]) == 0
    assert capsys.readouterr().out.splitlines()[1].startswith("|---|---:|")


def test_agents_and_experiments_print_plain_whole_sentences(capsys):
    assert main(["agents"]) == 0
    listing = capsys.readouterr().out
    assert "``" not in listing and ":func:" not in listing and ":class:" not in listing
    assert "(kinds=MC;" in listing and "weighted sum of simple_features" in listing
    assert main(["experiments"]) == 0  # in a pipe: every description whole, one line each
    lines = capsys.readouterr().out.splitlines()
    learned = next(line for line in lines if line.startswith("learned_optimism "))
    assert learned.endswith(".") and "..." not in learned and len(learned) > 200


def test_the_grid_figure_has_a_row_per_ghost_and_layout_and_stays_readable(tmp_path):
    needed("matplotlib", "pip install -e '.[plot]'")
    from PIL import Image

    from pacsim.report import summarize
    from pacsim.report.plot import facet_rows, plot_summary

    rows = []
    for pacman in ("greedy", "random", "minimax:depth=2", "expectimax:depth=2", "mcts", "alphabeta:depth=3"):
        for ghost in ("random", "directional"):
            for layout in ("openRoom", "smallClassic", "pincerMaze"):
                for index in range(3):
                    rows.append({"experiment": "big", "config_hash": "h", "condition": f"{pacman}/{ghost}/{layout}",
                                 "pacman": pacman, "ghosts": ghost, "layout": layout, "game_index": index,
                                 "seed": index, "outcome": ("win", "loss", "timeout")[index], "score": 10 * index,
                                 "moves": 10, "nodes": 5, "move_seconds_mean": 0.001})
    results = pandas.DataFrame(rows)
    summary = summarize(results)
    facets = facet_rows(results, ["condition"])
    assert len(summary) == 36 and len(facets) == 6
    assert ("ghosts=random, layout=openRoom", ("random", "openRoom")) in facets
    path = tmp_path / "grid.png"
    plot_summary(results, summary, ["condition"], path)
    width, height = Image.open(path).size
    assert width <= 2600 and height < 6000  # once 36 bars side by side: over 10,000 px wide


def test_play_names_its_records_and_replay_points_at_them(capsys, tmp_path):
    """README: ``play -n 10 --record game.json`` writes game-1.json ...; the last line says so, and
    ``replay game.json`` names those files instead of only "no such file"."""
    record = tmp_path / "game.json"
    assert main(["play", "-l", "openRoom", "-n", "2", "-q", "--seed", "5", "--max-moves", "5",
                 "--record", str(record)]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.startswith("2 games, ") and last.endswith(f"their records are {tmp_path / 'game-1.json'} ... "
                                                          f"{tmp_path / 'game-2.json'}")
    assert main(["replay", str(record), "-q"]) == 2
    error = capsys.readouterr().err
    assert "game-1.json ... game-2.json): replay one of those" in error and error.count("\n") == 1
    assert main(["replay", str(tmp_path / "game-2.json"), "-q"]) == 0


def test_shipped_experiments_are_described_for_a_user_not_by_the_project_s_bookkeeping(capsys, monkeypatch):
    """What each measures and why one would run it; never "issue 23", "requirement 5a" or "seed 002"."""
    monkeypatch.setattr("pacsim.cli.experiments.terminal_width", lambda: 0)  # one line an experiment
    assert main(["experiments"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()[1:-2]
    assert len(lines) >= 10
    for line in lines:
        assert not re.search(r"\bissue \d|\brequirement \d|\bseed 0\d\d\b", line), line
        assert "; run it" in line, line


def test_a_keyboard_game_whose_terminal_input_ends_stops_in_one_plain_line(capsys, monkeypatch):
    """Ctrl-D at the prompt is the person stopping, as closing the window is: not an agent error with a source line."""
    def ctrl_d(prompt=""):
        raise EOFError

    monkeypatch.setattr("builtins.input", ctrl_d)
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    assert main(["play", "-l", "openRoom", "-p", "keyboard", "-q", "-n", "2", "--seed", "1"]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines()[0] == "game 1/2 (seed 1): the keyboard's input ended (Ctrl-D); game stopped"
    assert "error" not in captured.out + captured.err and "simple.py" not in captured.out + captured.err
