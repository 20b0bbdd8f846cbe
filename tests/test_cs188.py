"""CS188 agents unchanged: the course's GameState API over pacsim's state,
the agent wrapper, the -p ClassName lookup and the command-line habits.

The agents in tests/cs188_agents/ are written for these tests in the
course's style (not course code)."""

import random
import sys
from pathlib import Path

import pytest

from pacsim.agents import make_ghost, make_pacman
from pacsim.agents.cs188 import (
    GHOST_ALIASES,
    Cs188Ghost,
    find_cs188_class,
    import_cs188_file,
    is_cs188_agent_class,
    wrap_cs188_agent,
)
from pacsim.agents.cs188_state import Cs188GameState
from pacsim.agents.pacman_game import PacmanGame
from pacsim.cli import build_parser, main
from pacsim.cli.cs188 import FIXED_SEED, apply_cs188_options
from pacsim.engine import agent_rng, load_layout, parse_layout, play_game, read_layout, replay
from pacsim.engine.state import initial_state
from pacsim.errors import IllegalActionError
from pacsim.search import CHANCE, search

COURSE = Path(__file__).parent / "cs188_agents"
SMALL_TRAP = COURSE / "smallTrap.lay"

# Rows are y = 2 (top open row) and y = 1; x counts columns from 0.
TINY = """\
%%%%%%
%P.o %
%. %G%
%%%%%%
"""


@pytest.fixture
def course():
    """The tests' multiAgents module; every course module is forgotten afterwards."""
    yield import_cs188_file(COURSE / "multiAgents.py")
    forget_course_modules()


def forget_course_modules():
    for name, module in list(sys.modules.items()):
        file = getattr(module, "__file__", None) or ""
        if file.startswith(str(COURSE)) or "cs188_course" in file:
            del sys.modules[name]


TINY_LAYOUT = parse_layout(TINY)


def tiny_view():
    return Cs188GameState(initial_state(TINY_LAYOUT))


def pacsim_xy(state, cell):
    row, column = state.layout.cells[cell]
    return column, state.layout.height - 1 - row


# -- the state API, by hand on a tiny maze --------------------------------------------------


def test_positions_grids_and_lists_use_cs188_coordinates():
    view = tiny_view()
    assert view.getPacmanPosition() == (1, 2)
    assert view.getGhostPositions() == [(4, 1)] and view.getGhostPosition(1) == (4, 1)
    food = view.getFood()
    assert (food.width, food.height) == (6, 4)
    assert food[2][2] and food[1][1] and not food[1][2] and not food[3][2]
    assert food.asList() == [(1, 1), (2, 2)] and food.count() == 2 and view.getNumFood() == 2
    walls = view.getWalls()
    assert walls[0][0] and walls[3][1] and walls[5][2] and not walls[2][1] and not walls[4][2]
    assert walls.count() == 6 * 4 - 7 and (3, 1) in walls.asList()
    assert view.hasWall(3, 1) and not view.hasWall(2, 1)
    assert view.hasFood(2, 2) and not view.hasFood(4, 2) and not view.hasFood(0, 0)
    assert view.getCapsules() == [(3, 2)]
    assert view.getNumAgents() == 2 and view.getScore() == 0.0 and isinstance(view.getScore(), float)
    assert not view.isWin() and not view.isLose()
    layout = view.data.layout
    assert (layout.width, layout.height, layout.getNumGhosts()) == (6, 4, 1) and layout.walls is walls


def test_agent_states_carry_position_direction_timer_and_start():
    view = tiny_view()
    pacman = view.getPacmanState()
    assert pacman.isPacman and pacman.getPosition() == (1, 2) and pacman.getDirection() == "Stop"
    (ghost,) = view.getGhostStates()
    assert not ghost.isPacman and ghost.scaredTimer == 0
    assert ghost.configuration.pos == (4, 1) and ghost.configuration.direction == "Stop"
    assert ghost.start.getPosition() == (4, 1) and view.getGhostState(1) == ghost
    assert [state.getPosition() for state in view.data.agentStates] == [(1, 2), (4, 1)]
    with pytest.raises(IndexError):
        view.getGhostState(0)


def test_legal_actions_in_cs188_order_for_any_agent():
    view = tiny_view()
    assert view.getLegalActions() == ["South", "East", "Stop"] == view.getLegalPacmanActions()
    assert view.getLegalActions(1) == ["North"]  # asked out of turn: the ghost's own moves
    with pytest.raises(IndexError):
        view.getLegalActions(2)


def test_successors_follow_the_rules_capsule_and_eaten_ghost():
    view = tiny_view()
    after_food = view.generatePacmanSuccessor("East")
    assert after_food.getPacmanPosition() == (2, 2) and after_food.getScore() == 9
    assert not after_food.getFood()[2][2] and after_food.getNumFood() == 1
    assert view.getNumFood() == 2  # the old state is untouched
    after_ghost = after_food.generateSuccessor(1, "North")
    assert after_ghost.getGhostPosition(1) == (4, 2) and after_ghost.getGhostStates()[0].getDirection() == "North"
    after_capsule = after_ghost.generateSuccessor(0, "East")
    assert after_capsule.getCapsules() == [] and after_capsule.getGhostStates()[0].scaredTimer == 40
    assert after_capsule.getPacmanState().getDirection() == "East"
    assert after_capsule.getLegalActions(1) == ["West"]  # onto Pacman: no reversing while another move exists
    eaten = after_capsule.generateSuccessor(1, "West")
    assert eaten.getScore() == 8 + 200 and eaten.getGhostPosition(1) == (4, 1)
    assert eaten.getGhostStates()[0].scaredTimer == 0


def test_out_of_turn_moves_mean_what_they_mean_in_cs188():
    twice = tiny_view().generatePacmanSuccessor("East").generatePacmanSuccessor("East")
    assert twice.getPacmanPosition() == (3, 2) and twice.getGhostPosition(1) == (4, 1)
    assert twice.getScore() == 8 and twice.getGhostStates()[0].scaredTimer == 40


def test_win_ends_the_game_and_successors_of_it_raise():
    view = tiny_view().generatePacmanSuccessor("East").generateSuccessor(1, "North")
    view = view.generatePacmanSuccessor("West").generateSuccessor(1, "West")
    won = view.generatePacmanSuccessor("South")
    assert won.isWin() and not won.isLose() and won.getLegalActions() == [] and won.getScore() == 9 - 1 + 9 + 500
    with pytest.raises(IllegalActionError):
        won.generatePacmanSuccessor("North")
    with pytest.raises(IllegalActionError):
        tiny_view().generatePacmanSuccessor("West")  # into a wall


def test_equal_states_are_equal_and_hash_alike_without_copies():
    first, second = tiny_view().generatePacmanSuccessor("Stop"), tiny_view().generatePacmanSuccessor("Stop")
    assert first == second and hash(first) == hash(second) and len({first, second}) == 1
    assert first != tiny_view() and first.deepCopy() is first
    assert tiny_view().getWalls() is tiny_view().getWalls()  # one walls grid per layout
    assert Cs188GameState(initial_state(parse_layout(TINY))) != tiny_view()  # layouts compare by identity


@pytest.mark.parametrize("name", ["smallClassic", "wideClassic"])
def test_the_state_api_agrees_with_pacsim_along_random_games(name):
    state = initial_state(load_layout(name))
    rng = random.Random(name)
    for _ in range(120):
        if state.is_terminal:
            break
        view = Cs188GameState(state)
        food, walls = view.getFood(), view.getWalls()
        for cell in range(state.layout.num_cells):
            x, y = pacsim_xy(state, cell)
            assert food[x][y] == state.has_food(cell) == view.hasFood(x, y)
            assert not walls[x][y]
        assert food.count() == state.food_count and walls.count() == len(state.layout.walls)
        assert view.getPacmanPosition() == pacsim_xy(state, state.pacman)
        assert view.getGhostPositions() == [pacsim_xy(state, cell) for cell in state.ghosts]
        assert [ghost.scaredTimer for ghost in view.getGhostStates()] == list(state.scared)
        assert view.getCapsules() == sorted((pacsim_xy(state, cell) for cell in state.capsule_cells()), key=lambda p: (p[1], p[0]))
        assert view.getLegalActions(state.turn) == state.legal_actions()
        for action in state.legal_actions():
            assert view.generateSuccessor(state.turn, action).state == state.successor(action)
        state = state.successor(rng.choice(state.legal_actions()))


# -- course agents play through pacsim ------------------------------------------------------


def play(pacman, layout, seed, ghosts="random"):
    return play_game(layout, [pacman] + [make_ghost(ghosts) for _ in range(layout.num_ghosts)], seed=seed)


@pytest.mark.parametrize(("layout_name", "depth", "ghosts", "seeds"), [
    (str(SMALL_TRAP), 3, "random", range(12)),
    ("pincerMaze", 2, "directional", range(4)),
])
def test_course_minimax_plays_pacsim_minimax_games_move_for_move(course, layout_name, depth, ghosts, seeds):
    layout = load_layout(layout_name)
    course_agent = wrap_cs188_agent(course.MinimaxAgent, {"depth": str(depth)}, course.__file__)
    pacsim_agent = make_pacman(f"minimax:depth={depth}")
    outcomes = set()
    for seed in seeds:
        theirs, ours = play(course_agent, layout, seed, ghosts), play(pacsim_agent, layout, seed, ghosts)
        assert theirs.error is None
        assert theirs.actions == ours.actions and (theirs.outcome, theirs.score) == (ours.outcome, ours.score)
        # The same tree: every successor the course agent generated is one pacsim's search generated.
        assert [stats.generated for stats in theirs.search_stats] == [stats.generated for stats in ours.search_stats]
        outcomes.add(theirs.outcome)
    if layout_name == str(SMALL_TRAP):
        assert outcomes == {"win", "loss"}  # the comparison covers both endings


def test_course_alphabeta_plays_the_minimax_moves_on_fewer_nodes(course):
    layout = read_layout(SMALL_TRAP)
    alphabeta = wrap_cs188_agent(course.AlphaBetaAgent, {"depth": "3"}, course.__file__)
    minimax = make_pacman("minimax:depth=3")
    for seed in range(6):
        theirs, ours = play(alphabeta, layout, seed), play(minimax, layout, seed)
        assert theirs.actions == ours.actions
        assert theirs.nodes < ours.nodes


def test_course_expectimax_values_match_pacsim_expectimax(course):
    layout = read_layout(SMALL_TRAP)
    agent = wrap_cs188_agent(course.ExpectimaxAgent, {"depth": "2"}, course.__file__)
    pacsim_agent = make_pacman("expectimax:depth=2")
    state, rng = initial_state(layout), random.Random(3)
    for _ in range(9):  # into the middle of a game, at Pacman's turn
        state = state.successor(rng.choice(state.legal_actions()))
    while state.turn != 0:
        state = state.successor(state.legal_actions()[0])
    assert not state.is_terminal
    for position in (initial_state(layout), state):
        theirs = agent.course_agent.rootValues(Cs188GameState(position))
        ours = pacsim_agent.action_values(position)
        assert [action for action, _ in theirs] == [action for action, _ in ours]
        assert [value for _, value in theirs] == pytest.approx([value for _, value in ours], rel=1e-12)


def test_options_arrive_as_strings_and_evalfn_resolves_in_the_users_module(course):
    agent = wrap_cs188_agent(course.MinimaxAgent, {"depth": "3", "evalFn": "better"}, course.__file__)
    assert agent.course_agent.depth == 3
    assert agent.course_agent.evaluationFunction is course.closerFoodEvaluationFunction
    assert wrap_cs188_agent(course.MinimaxAgent, {}, course.__file__).course_agent.evaluationFunction is course.scoreEvaluationFunction


def test_the_global_random_is_seeded_per_game_so_games_repeat(course):
    layout = read_layout(SMALL_TRAP)
    agent = wrap_cs188_agent(course.ReflexAgent, {}, course.__file__)
    first = play(agent, layout, seed=5)
    random.seed(12345)  # whatever else used the global generator in between
    again = play(agent, layout, seed=5)
    assert first.actions == again.actions and first.error is None
    games = {tuple(play(agent, layout, seed=seed).actions) for seed in range(8)}
    assert len(games) > 1


def test_course_files_import_their_own_siblings(course, tmp_path):
    assert course.util.MARKER == "tests/cs188_agents/util.py"
    other = tmp_path / "cs188_course"
    other.mkdir()
    (other / "util.py").write_text('MARKER = "the other course copy"\n')
    (other / "otherAgents.py").write_text(
        "import util\n\nclass Probe:\n    def getAction(self, state):\n        return util.MARKER\n")
    module = import_cs188_file(other / "otherAgents.py")
    assert module.util.MARKER == "the other course copy"
    assert str(other) not in sys.path  # the folder is on the path only while course code runs


def test_registerInitialState_runs_once_a_game_and_agent_errors_end_the_game(tmp_path):
    folder = tmp_path / "cs188_course"
    folder.mkdir()
    (folder / "myAgents.py").write_text(
        "class Counting:\n"
        "    starts = 0\n"
        "    def registerInitialState(self, state):\n"
        "        Counting.starts += 1\n"
        "    def getAction(self, state):\n"
        "        return state.getLegalActions()[0]\n\n"
        "class Broken:\n"
        "    def getAction(self, state):\n"
        "        return 1 / 0\n\n"
        "class Lost:\n"
        "    def getAction(self, state):\n"
        "        return None\n")
    module = import_cs188_file(folder / "myAgents.py")
    layout = load_layout("tinyGhostMaze")
    counting = wrap_cs188_agent(module.Counting, {}, module.__file__)
    for seed in range(3):
        assert play(counting, layout, seed).error is None
    assert module.Counting.starts == 3
    broken = play(wrap_cs188_agent(module.Broken, {}, module.__file__), layout, 0)
    assert broken.outcome == "error" and "ZeroDivisionError" in broken.error
    lost = play(wrap_cs188_agent(module.Lost, {}, module.__file__), layout, 0)
    assert lost.outcome == "error" and "None" in lost.error
    forget_course_modules()


def test_analyze_reports_the_move_and_the_nodes_of_a_course_agent(course):
    state = initial_state(read_layout(SMALL_TRAP))
    agent = wrap_cs188_agent(course.MinimaxAgent, {"depth": "2"}, course.__file__)
    result = agent.analyze(state)
    reference = make_pacman("minimax:depth=2").analyze(state, root_values=False)
    assert result.action == reference.action[0] and result.stats.generated == reference.stats.generated


# -- course ghosts ------------------------------------------------------------------------


@pytest.fixture
def ghosts_module(course):
    return import_cs188_file(COURSE / "ghostAgents.py")


def manhattan_best(state, flee=False):
    """The ghost to move's legal actions that bring it nearest Pacman (by hand, in rows and columns)."""
    pacman_row, pacman_column = state.layout.cells[state.pacman]
    distances = {}
    for action, target in state.legal_moves():
        row, column = state.layout.cells[target]
        distances[action] = abs(row - pacman_row) + abs(column - pacman_column)
    best = (max if flee else min)(distances.values())
    return {action for action, distance in distances.items() if distance == best}


def test_course_ghosts_play_with_their_own_index(ghosts_module):
    layout = read_layout(SMALL_TRAP)
    ghosts = [wrap_cs188_agent(ghosts_module.ChasingGhost, {"focus": "1.0"}, ghosts_module.__file__) for _ in range(3)]
    assert all(isinstance(ghost, Cs188Ghost) for ghost in ghosts)
    checked = 0
    for seed in range(4):
        record = play_game(layout, [make_pacman("greedy"), *ghosts], seed=seed)
        assert record.error is None
        states = replay(layout, 3, record.actions)
        for state, action in zip(states, record.actions):
            if state.turn != 0:
                assert action in manhattan_best(state)
                checked += 1
    assert checked > 20
    assert [ghost.course_agent.index for ghost in ghosts] == [1, 2, 3]


def test_a_course_ghost_serves_as_an_expectimax_model(ghosts_module):
    layout = read_layout(SMALL_TRAP)
    chasing = wrap_cs188_agent(ghosts_module.ChasingGhost, {"focus": "0.8"}, ghosts_module.__file__)
    uniform = wrap_cs188_agent(ghosts_module.UniformGhost, {}, ghosts_module.__file__)
    state = initial_state(layout).successor("East")
    for ghost in (1, 2, 3):
        assert state.turn == ghost  # one shared model object serves each ghost by the state's turn
        outcomes = PacmanGame((CHANCE,) * 3, models=(chasing,) * 3).outcomes(state)
        legal = state.legal_actions()
        best = manhattan_best(state)
        expected = [0.2 / len(legal) + (0.8 / len(best) if action in best else 0.0) for action in legal]
        assert [probability for probability, _ in outcomes] == pytest.approx(expected)
        assert [successor for _, successor in outcomes] == [state.successor(action) for action in legal]
        state = state.successor(legal[0])
    start = initial_state(layout)

    def values(models):
        result = search(PacmanGame((CHANCE,) * 3, models=models), start, algorithm="expectimax", depth=2 * 4,
                        evaluate=lambda position: position.score, root_values=True)
        return [value for _, value in result.action_values]

    assert values((uniform,) * 3) == pytest.approx(values(()))
    assert values((chasing,) * 3) != pytest.approx(values(()))


def test_ghost_aliases_name_pacsim_ghosts():
    assert GHOST_ALIASES == {"RandomGhost": "random", "DirectionalGhost": "directional"}
    for alias in GHOST_ALIASES.values():
        make_ghost(alias)


# -- finding classes ----------------------------------------------------------------------


def test_classes_are_found_in_agents_files_like_cs188(tmp_path):
    found = find_cs188_class("MinimaxAgent", [COURSE])
    assert found is not None and found[0] == (COURSE / "multiAgents.py").resolve() and found[1].__name__ == "MinimaxAgent"
    assert find_cs188_class("ChasingGhost", [COURSE])[0].name == "ghostAgents.py"
    assert find_cs188_class("Directions", [COURSE]) is None  # game.py is not an agents file
    assert find_cs188_class("NoSuchAgent", [tmp_path, COURSE]) is None
    assert is_cs188_agent_class(found[1]) and not is_cs188_agent_class(type(make_pacman("greedy")))
    forget_course_modules()


def test_ghost_constructors_get_an_index_and_unknown_options_are_refused(ghosts_module):
    ghost = wrap_cs188_agent(ghosts_module.ChasingGhost, {}, ghosts_module.__file__)
    assert ghost.course_agent.index == 1
    ghost.reset(2, agent_rng(0, 2))
    assert ghost.course_agent.index == 2


# -- command-line habits -------------------------------------------------------------------


def parsed(*argv):
    args = build_parser().parse_args(["play", *argv])
    return args, apply_cs188_options(args)


def test_cs188_options_map_onto_pacsims():
    args, notes = parsed("-z", "2", "--frameTime", "0.05", "-f", "--timeout", "3", "--textGraphics", "-c",
                         "--cs188", str(COURSE), "-p", "MinimaxAgent", "-g", "DirectionalGhost")
    assert (args.zoom, args.frame_time, args.seed, args.time_limit) == (2.0, 0.05, FIXED_SEED, 3.0)
    assert args.text and not args.quiet
    assert args.pacman == f"{(COURSE / 'multiAgents.py').resolve()}:MinimaxAgent" and args.ghosts == "directional"
    assert len(notes) == 2 and notes[0].startswith("--timeout 3") and notes[1].startswith("-c")
    forget_course_modules()


def test_pacsim_options_win_over_their_cs188_spellings():
    args, notes = parsed("-f", "--seed", "9", "--timeout", "3", "--time-limit", "1", "--quietTextGraphics", "-p", "minimax")
    assert (args.seed, args.time_limit, args.quiet, args.pacman) == (9, 1.0, True, "minimax")
    args, notes = parsed()
    assert (args.seed, args.time_limit, args.zoom, notes) == (None, None, 1.0, [])


def test_play_with_cs188_habits_runs_and_notes_the_rest(capsys):
    argv = ["play", "-l", "tinyGhostMaze", "-p", "greedy", "-g", "RandomGhost", "-n", "3", "--quietTextGraphics", "-f", "-c", "-x", "1"]
    assert main(argv) == 0
    first = capsys.readouterr()
    assert "training: 1 game" in first.out and "(seed 1)" in first.out and "(seed 2)" in first.out
    assert first.err.count("pacsim: note:") == 1 and "-c" in first.err
    assert main(argv) == 0 and capsys.readouterr().out == first.out  # -f: the same games again


def test_play_a_course_agent_by_class_name(capsys):
    common = ["-l", str(SMALL_TRAP), "-g", "RandomGhost", "-n", "3", "-q", "-f"]
    assert main(["play", "-p", "MinimaxAgent", "-a", "depth=2", "--cs188", str(COURSE), *common]) == 0
    theirs = capsys.readouterr().out
    assert main(["play", "-p", "minimax", "-a", "depth=2", *common]) == 0
    ours = capsys.readouterr().out
    # The same games and summary; where pacsim's own minimax searched (the
    # kernel, once its ahead-of-time module is built) is the line's last clause.
    assert ours.rsplit("; Pacman searched in ", 1)[0] == theirs.rsplit("; Pacman searched in ", 1)[0]
    assert theirs.endswith("; Pacman searched in Python\n")
    forget_course_modules()


def test_play_a_course_ghost_file_spec_and_analyze_a_course_agent(capsys):
    ghost = f"{COURSE / 'ghostAgents.py'}:ChasingGhost"
    assert main(["play", "-l", str(SMALL_TRAP), "-p", "greedy", "-g", ghost, "-n", "2", "-q", "-f"]) == 0
    assert "error" not in capsys.readouterr().out
    assert main(["analyze", "-l", str(SMALL_TRAP), "-p", f"{COURSE / 'multiAgents.py'}:MinimaxAgent", "-a", "depth=2"]) == 0
    assert "plays" in capsys.readouterr().out
    forget_course_modules()


def test_run_an_experiment_with_a_course_agent(tmp_path, capsys):
    experiment = tmp_path / "course.toml"
    experiment.write_text(
        f'name = "course"\ngames = 4\nseed = 1\nmax_moves = 200\ntime_limit = 0\nstore = "{tmp_path / "course.sqlite"}"\n'
        f'[grid]\npacman = ["minimax", "{COURSE / "multiAgents.py"}:MinimaxAgent"]\nghosts = ["random"]\n'
        f'layout = ["{SMALL_TRAP}"]\ndepth = [2]\n')
    assert main(["run", str(experiment), "--workers", "1"]) == 0
    from pacsim.runner.store import load_results

    rows = load_results(tmp_path / "course.sqlite")
    by_pacman = {pacman: list(group.sort_values("seed")["actions"]) for pacman, group in rows.groupby("pacman")}
    assert len(by_pacman) == 2 and len(set(map(str, by_pacman.values()))) == 1
    forget_course_modules()


def test_a_course_file_named_like_a_module_pacsim_uses_is_skipped_and_said(tmp_path, capsys):
    import shutil

    import numpy

    copy = tmp_path / "cs188_course"
    shutil.copytree(COURSE, copy)
    (copy / "numpy.py").write_text("raise RuntimeError('the course numpy was imported')\n", encoding="utf-8")
    try:
        assert make_pacman(f"{copy / 'multiAgents.py'}:MinimaxAgent", {"depth": "1"}) is not None
        assert sys.modules["numpy"] is numpy  # built-in agents and the kernel keep the real one
        said = capsys.readouterr().err
        assert said.count(f"course file {copy / 'numpy.py'} is not used") == 1 and "module named numpy" in said
        start = initial_state(TINY_LAYOUT)
        assert make_pacman("expectimax:depth=1").get_action(start) in start.legal_actions()
    finally:
        forget_course_modules()


def test_a_course_numpy_file_loses_to_numpy_in_a_process_that_has_not_loaded_numpy_yet(tmp_path):
    """pacsim imports numpy on first use (issue 38): a course file named numpy.py must not take its place."""
    import os
    import shutil
    import subprocess

    copy = tmp_path / "cs188_course"
    shutil.copytree(COURSE, copy)
    (copy / "numpy.py").write_text("raise RuntimeError('the course numpy was imported')\n", encoding="utf-8")
    code = ("import sys\nfrom pacsim.cli import main\n"
            "assert 'numpy' not in sys.modules\n"
            "main(['-p', 'multiAgents.py:MinimaxAgent', '-a', 'depth=1', '-l', 'tinyGrid', '-q', '--seed', '1'])\n"
            "print(sys.modules['numpy'].__file__)")
    environment = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    finished = subprocess.run([sys.executable, "-P", "-c", code], cwd=copy, env=environment, capture_output=True,
                              text=True, check=True)  # -P: the folder is not on the path, as for the pacsim command
    assert str(copy) not in finished.stdout.strip().splitlines()[-1]
    assert f"course file {copy / 'numpy.py'} is not used" in finished.stderr


def test_pacsim_agents_lists_a_course_agents_constructor_options(capsys):
    assert main(["agents", f"{COURSE / 'multiAgents.py'}:MinimaxAgent"]) == 0
    said = capsys.readouterr().out
    assert "evalFn  str  default 'scoreEvaluationFunction'" in said and "depth   str  default '2'" in said
    assert main(["agents", "--ghost", f"{COURSE / 'ghostAgents.py'}:ChasingGhost"]) == 0
    said = capsys.readouterr().out
    assert "focus  str  default '0.8'" in said and "index" not in said.split("options")[-1]


def test_a_course_file_that_fails_to_import_is_one_line_naming_the_file_and_line(tmp_path):
    from pacsim.agents.cs188 import import_cs188_file
    from pacsim.errors import AgentError

    broken = tmp_path / "brokenAgents.py"
    broken.write_text("import util\n\nraise ValueError('course bug')\n", encoding="utf-8")
    (tmp_path / "util.py").write_text("", encoding="utf-8")
    with pytest.raises(AgentError, match=r"brokenAgents\.py: importing brokenAgents\.py raised ValueError: course bug "
                                         r"\(.*brokenAgents\.py:3\)$"):
        import_cs188_file(broken)
    assert "brokenAgents" not in sys.modules and str(tmp_path) not in sys.path
