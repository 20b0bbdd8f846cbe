"""Capture the flag: the rules by hand, what an agent sees, the mazes, the teams and the command."""

import json
import random
import sys
import time
import types
from pathlib import Path

import pytest

from pacsim.agents.capture import build_team
from pacsim.agents.capture.course.gamestate import GameState
from pacsim.cli import main
from pacsim.engine.capture.game import CaptureTeam, TimeRules, play_capture_game
from pacsim.engine.capture.layout import CaptureLayout, find_capture_layout, parse_capture_layout
from pacsim.engine.capture.maze import generate_capture_maze
from pacsim.engine.capture.observation import CaptureView, observe
from pacsim.engine.capture.replay import parse_course_replay
from pacsim.engine.capture.state import SCARED_TIME, UNSEEN, CaptureState, initial_state
from pacsim.errors import AgentError, IllegalActionError, LayoutError, ReplayError

TEAMS = Path(__file__).parent / "capture_course" / "teams"

# Columns 0-5 are red's, 6-11 blue's.  Row 0 is the top.
MAZE = """\
%%%%%%%%%%%%
%1    o .  %
%3 .   ..  %
%      . 4 %
%        2 %
%%%%%%%%%%%%
"""


@pytest.fixture(scope="module")
def maze() -> CaptureLayout:
    return parse_capture_layout(MAZE, name="hand")


def cell(layout: CaptureLayout, row: int, column: int) -> int:
    return layout.maze.cell_of[(row, column)]


def placed(layout: CaptureLayout, **cells: tuple[int, int]) -> CaptureState:
    """The start with agents moved: ``a0=(row, column)``; Pacman flags follow the cells."""
    state = initial_state(layout)
    positions = list(state.positions)
    for name, (row, column) in cells.items():
        positions[int(name[1:])] = cell(layout, row, column)
    pacman = tuple(not layout.is_home(agent, position) for agent, position in enumerate(positions))
    return state._replace(positions=tuple(positions), pacman=pacman)


# -- the rules, by hand ---------------------------------------------------------------------


def test_food_counts_only_when_carried_home(maze):
    state = placed(maze, a0=(2, 6))  # red agent 0 just across, food at (2, 7) and (1, 8)
    state = state.successor("East", 0)
    assert state.carrying[0] == 1 and state.score == 0 and state.pacman[0]
    state = state.successor("West", 0).successor("West", 0)  # back to (2, 5): home
    assert (state.carrying[0], state.returned[0], state.score, state.pacman[0]) == (0, 1, 1, False)


def test_blue_returns_count_down(maze):
    state = placed(maze, a1=(2, 4))  # blue agent 1 on red's half, food at (2, 3)
    state = state.successor("West", 1)
    assert state.carrying[1] == 1
    state = state.successor("East", 1).successor("East", 1).successor("East", 1)
    assert state.score == -1 and state.returned[1] == 1


def test_a_caught_pacman_goes_home_and_drops_its_food_nearby(maze):
    state = placed(maze, a0=(2, 6), a1=(2, 9))
    state = state.successor("East", 0).successor("East", 0)  # eats (2, 7), then stands on (2, 8) and eats it
    assert state.carrying[0] == 2
    food_before = state.food.bit_count()
    caught = state.successor("West", 1)  # blue ghost 1 steps onto (2, 8)
    assert caught.positions[0] == maze.starts[0] and not caught.pacman[0] and caught.carrying[0] == 0
    assert caught.score == 0 and caught.food.bit_count() == food_before + 2
    dropped = [maze.maze.cells[c] for c in caught.food_cells() if not (state.food >> c) & 1]
    assert all(column >= 6 and abs(row - 2) <= 1 and abs(column - 8) <= 1 for row, column in dropped)
    assert (2, 8) not in dropped  # the ghost stands there


def test_a_capsule_scares_the_other_team_and_a_scared_ghost_is_eaten(maze):
    state = placed(maze, a0=(1, 5), a1=(1, 8), a3=(3, 9))
    state = state.successor("East", 0)  # the capsule at (1, 6)
    assert state.scared[1] == state.scared[3] == SCARED_TIME and state.scared[0] == state.scared[2] == 0
    state = state.successor("West", 1)  # scared ghost 1 to (1, 7): counts down its own timer
    assert state.scared[1] == SCARED_TIME - 1 and state.scared[3] == SCARED_TIME
    state = state.successor("East", 0)  # red Pacman onto the scared ghost
    assert state.positions[1] == maze.starts[1] and state.scared[1] == 0
    assert state.positions[0] == cell(maze, 1, 7)


def test_the_game_ends_on_food_returned_and_on_time(maze):
    assert maze.total_food == 5 and maze.wins_with(1) and not maze.wins_with(0)  # the course: 5 / 2 - 2 = 0.5, so 1
    state = placed(maze, a0=(2, 6)).successor("East", 0).successor("West", 0).successor("West", 0)
    assert state.over and state.score == 1
    short = initial_state(maze, max_moves=2)
    assert not short.successor("Stop", 0).over and short.successor("Stop", 0).successor("Stop", 1).over


def test_states_are_values_and_moves_are_checked(maze):
    start = initial_state(maze)
    assert start.successor("East", 0) == start.successor("East", 0)
    assert hash(start.successor("East", 0)) == hash(start.successor("East", 0))
    assert start.successor("East", 0) != start
    assert start.legal_actions(0) == ["South", "East", "Stop"]
    with pytest.raises(IllegalActionError):
        start.successor("North", 0)


# -- what an agent sees ---------------------------------------------------------------------


def test_opponents_are_seen_only_within_range_of_the_agent_or_its_teammate(maze):
    near = placed(maze, a0=(1, 5), a2=(4, 1), a1=(1, 9), a3=(4, 9))
    view = observe(near, 0, random.Random(1))
    assert view.state.positions[1] == near.positions[1]  # Manhattan 4 from agent 0
    assert view.state.positions[3] == UNSEEN  # 8 from agent 0, 8 from agent 2
    assert view.state.positions[2] == near.positions[2]
    teammate_sees = observe(placed(maze, a0=(1, 1), a2=(4, 6), a3=(4, 9)), 0, random.Random(1))
    assert teammate_sees.state.positions[3] != UNSEEN  # 3 from the teammate


def test_noisy_distances_are_within_six_of_the_true_distance(maze):
    state = placed(maze, a1=(1, 9))
    noise = random.Random(5)
    readings = {observe(state, 0, noise).noisy_distances[1] for _ in range(400)}
    true = 8  # (1, 1) to (1, 9)
    assert readings == set(range(true - 6, true + 7))


def _reachable(root: object) -> list[object]:
    """Every object reachable from ``root`` through attributes, slots and container items
    (classes, modules and functions are where code lives, not what an agent was handed)."""
    seen, found, stack = set(), [], [root]
    while stack:
        item = stack.pop()
        if id(item) in seen or isinstance(item, (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType)):
            continue
        seen.add(id(item))
        found.append(item)
        if isinstance(item, (str, bytes, int, float, type(None))):
            continue
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (tuple, list, set, frozenset)):
            stack.extend(item)
        stack.extend(getattr(item, "__dict__", {}).values())
        for klass in type(item).__mro__:
            for slot in getattr(klass, "__slots__", ()):
                if hasattr(item, slot):
                    stack.append(getattr(item, slot))
    return found


def test_a_view_holds_nothing_of_an_unseen_opponent_through_any_attribute(maze):
    """Two true states that differ only where an unseen opponent stands (both cells the
    same Manhattan distance from the observer, out of both red agents' sight) give the same
    view, and nothing reachable from the view or the course's GameState over it holds the true state
    or the noise stream."""
    first = placed(maze, a0=(1, 1), a2=(2, 1), a3=(4, 9))
    second = placed(maze, a0=(1, 1), a2=(2, 1), a3=(3, 10))
    assert first.positions[3] != second.positions[3]
    views = [observe(state, 0, random.Random(7)) for state in (first, second)]
    assert views[0] == views[1] and views[0].state.positions[3] == UNSEEN
    for root in (views[0], GameState.of_view(views[0])):
        reachable = _reachable(root)
        assert not any(isinstance(item, random.Random) for item in reachable)
        states = [item for item in reachable if isinstance(item, CaptureState)]
        assert states and all(state.positions[3] == UNSEEN for state in states)


class _Spy(CaptureTeam):
    """Looks, at every move, through everything it is handed for an opponent it cannot see."""

    def __init__(self) -> None:
        self.looks = self.found = 0

    def act(self, index: int, view: CaptureView) -> str:
        unseen = [other for other in (1, 3) if view.state.positions[other] == UNSEEN]
        for item in _reachable(GameState.of_view(view)) + _reachable(view):
            if isinstance(item, CaptureState):
                self.found += any(item.positions[other] != UNSEEN for other in unseen)
        self.looks += bool(unseen)
        return view.state.legal_actions(index)[0]


def test_an_agent_looking_for_hidden_opponents_finds_nothing():
    spy = _Spy()
    play_capture_game(find_capture_layout("defaultCapture"), spy, build_team("baseline", False), seed=3, max_moves=40)
    assert spy.looks > 10 and spy.found == 0


# -- mazes and recordings ---------------------------------------------------------------------


def test_course_mazes_load_unchanged_with_red_left_and_blue_right():
    layout = find_capture_layout("defaultCapture")
    assert (layout.width, layout.height, layout.total_food) == (32, 16, 40)
    assert [layout.xy(start)[0] < 16 for start in layout.starts] == [True, False, True, False]
    assert layout.text.count("1") == 1 and "P" not in layout.text


def test_a_maze_with_a_pacman_or_missing_agents_is_refused():
    with pytest.raises(LayoutError, match="1-4"):
        parse_capture_layout(MAZE.replace("1", "P"))
    with pytest.raises(LayoutError, match=r"exactly one agent '4'"):
        parse_capture_layout(MAZE.replace("4", " "))
    with pytest.raises(LayoutError, match="no capture layout named 'nowhere'"):
        find_capture_layout("nowhere")


@pytest.mark.parametrize("seed", [0, 13, 99])
def test_generated_mazes_are_seeded_mirrored_connected_and_stocked_on_both_sides(seed):
    text = generate_capture_maze(seed)
    assert text == generate_capture_maze(seed) and text != generate_capture_maze(seed + 1)
    rows = text.splitlines()
    turned = ["".join(reversed(row)) for row in reversed(rows)]
    swap = str.maketrans("1234", "2143")
    assert [row.translate(swap) for row in turned] == rows  # half a turn maps red's half onto blue's
    layout = find_capture_layout(f"RANDOM{seed}")
    distances = layout.maze.distances_from(layout.starts[0])
    assert max(distances) < layout.maze.num_cells  # every cell reachable
    for red in (True, False):
        assert initial_state(layout).food_of(red) and initial_state(layout).capsules_of(red)


def test_a_replay_constructs_nothing_but_the_course_classes():
    evil = b"cos\nsystem\n(S'echo owned'\ntR."
    with pytest.raises(ReplayError, match=r"os\.system; refused"):
        parse_course_replay(evil)
    with pytest.raises(ReplayError, match="not a course replay"):
        parse_course_replay(b"not a pickle")


# -- teams ----------------------------------------------------------------------------------


def test_a_course_team_file_plays_through_pacsims_own_course_modules():
    before = {name: sys.modules.get(name) for name in ("util", "game", "captureAgents")}
    red = build_team(str(TEAMS / "myTeam.py"), True)
    assert {name: sys.modules.get(name) for name in before} == before  # the course's names are put back
    result = play_capture_game(find_capture_layout("tinyCapture"), red, build_team("baseline", False), seed=1, max_moves=120)
    assert result.reason in ("time", "food") and result.error == "" and len(result.moves) <= 120
    agent = red.agents[0]  # type: ignore[attr-defined]
    assert agent.seen_distances and all(len(reading) == 4 for reading in agent.seen_distances)
    assert agent.debug_marks == [([agent.start], [1, 0, 0])]


def test_a_team_that_raises_loses_and_the_message_says_where():
    result = play_capture_game(find_capture_layout("tinyCapture"), build_team("baseline", True),
                               build_team(str(TEAMS / "crashingTeam.py"), False), seed=2)
    assert (result.winner, result.reason, result.score, result.culprit % 2) == ("red", "crash", 1, 1)
    assert "KeyError" in result.error and "crashingTeam.py" in result.error


class _Slow(CaptureTeam):
    def act(self, index: int, view: CaptureView) -> str:
        time.sleep(0.06)
        return "Stop"


def test_a_slow_team_forfeits_under_the_time_rules():
    rules = TimeRules(move_warning=0.05, move_timeout=10.0, max_warnings=2)  # the third slow move forfeits
    result = play_capture_game(find_capture_layout("tinyCapture"), _Slow(), build_team("baseline", False), seed=0,
                               time_rules=rules)
    assert result.reason == "forfeit" and result.winner == "blue" and result.culprit in (0, 2)
    assert len([move for move in result.moves if move[0] == result.culprit]) == 2  # warned twice, forfeited on the third
    assert result.error.startswith("3 moves over 0.05 s")


def test_a_file_without_create_team_is_refused_in_one_line():
    with pytest.raises(AgentError, match="defines no createTeam"):
        build_team(str(TEAMS / "noTeam.py"), True)
    with pytest.raises(AgentError, match=r"no team 'baselin'.*did you mean 'baseline'"):
        build_team("baselin", True)


def test_games_are_a_function_of_their_seed():
    layout = find_capture_layout("RANDOM5")
    play = lambda: play_capture_game(layout, build_team("baseline", True), build_team(str(TEAMS / "myTeam.py"), False),
                                     seed=9, max_moves=200)
    first, second = play(), play()
    assert first.moves == second.moves and first.first == second.first


# -- the command ----------------------------------------------------------------------------


def test_capture_command_plays_records_and_totals(tmp_path, capsys):
    code = main(["capture", "-r", str(TEAMS / "myTeam.py"), "-b", "baseline", "-l", "tinyCapture", "-n", "2", "-i", "60",
                 "-q", "--seed", "4", "--record", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0 and "seed 4 on tinyCapture" in out and "seed 5 on tinyCapture" in out and "Red Win Rate" in out
    record = json.loads((tmp_path / "capture-tinyCapture-4.json").read_text())
    assert record["game"] == "capture" and len(record["moves"]) == 60 and record["seed"] == 4


@pytest.mark.parametrize("arguments,message", [
    (["-l", "noSuchCapture"], "no capture layout named 'noSuchCapture'"),
    (["-r", str(TEAMS / "noTeam.py")], "defines no createTeam"),
    (["-b", "nobody"], "no team 'nobody'"),
    (["-n", "0"], "at least one game"),
])
def test_capture_command_refuses_bad_input_in_one_line(arguments, message, capsys):
    assert main(["capture", *arguments]) == 2
    error = capsys.readouterr().err
    assert message in error and len(error.strip().splitlines()) == 1


# -- the bench group ------------------------------------------------------------------------


def test_the_bench_group_times_pacsim_and_says_why_the_course_is_missing(tmp_path):
    from pacsim.bench.capture import capture_figures
    from pacsim.bench.report import Report

    report = Report(machine={})
    capture_figures(report, None, games=1)
    capture_figures(report, tmp_path, games=1)  # a folder without the course's files
    assert [figure.unit for figure in report.figures] == ["games/CPU s", "games/CPU s"]
    assert all(figure.value > 0 for figure in report.figures)
    assert "--capture-course" in report.skipped[0] and "holds no capture.py" in report.skipped[1]
    assert main(["bench", "--capture", "--capture-course", str(tmp_path / "nowhere")]) == 2


# -- pacsim's searching teams ---------------------------------------------------------------


class _Watched(CaptureTeam):
    """A team whose beliefs are checked against the truth after every one of its looks."""

    def __init__(self, inner, truths: list) -> None:
        self.inner, self.truths, self.checked, self.missed = inner, truths, 0, 0

    def prepare(self, rng):
        self.inner.prepare(rng)

    def start(self, index, view):
        self.inner.start(index, view)

    def act(self, index, view):
        action = self.inner.act(index, view)
        truth = self.truths[-1]
        for opponent, belief in self.inner.beliefs.beliefs.items():
            if view.state.positions[opponent] == UNSEEN:
                self.checked += 1
                self.missed += belief.weights.get(truth.positions[opponent], 0.0) == 0.0
        return action


@pytest.mark.parametrize("name", ["alphabeta", "mcts"])
def test_searching_teams_play_and_their_beliefs_never_rule_out_the_truth(name):
    truths: list = []
    watched = _Watched(build_team(name, True, {"depth": "2"} if name == "alphabeta" else {"iterations": "20"}), truths)
    result = play_capture_game(find_capture_layout("defaultCapture"), watched, build_team("baseline", False), seed=4,
                               max_moves=80, observer=lambda state, agent, action: truths.append(state))
    assert result.error == "" and len(result.moves) == 80
    assert watched.checked > 20 and watched.missed == 0


def test_built_in_team_options_are_checked():
    with pytest.raises(AgentError, match="unknown option 'width'"):
        build_team("alphabeta", True, {"width": "3"})
    with pytest.raises(AgentError, match="not a whole number"):
        build_team("mcts", True, {"iterations": "0"})


def test_capture_command_replays_its_records_and_the_courses(tmp_path, capsys):
    assert main(["capture", "-l", "tinyCapture", "-i", "50", "--seed", "8", "-q", "--record", str(tmp_path)]) == 0
    played = capsys.readouterr().out.splitlines()[0]
    assert main(["capture", "--replay", str(tmp_path / "capture-tinyCapture-8.json"), "-q"]) == 0
    assert capsys.readouterr().out.split("moves: ")[1].strip() == played.split("moves: ")[1].split(",")[0]
    course = Path(__file__).parent / "capture_course" / "recorded" / "RANDOM13.replay"
    assert main(["capture", "--replay", str(course), "-q"]) == 0
    assert "score -28" in capsys.readouterr().out  # the course's own final score (blue returned 28)
    assert main(["capture", "--replay", str(TEAMS / "myTeam.py")]) == 2


# -- the fast paths the speed rests on (docs/capture.md, "Speed") -----------------------------------------

def test_a_plain_step_changes_only_the_movers_fields_and_the_baseline_scores_it_as_if_built(monkeypatch):
    """Every successor of a game's positions that plain_step calls plain differs from its state in the
    mover's cell, direction, side and scared timer only (and the clock); the baseline's scores of it,
    from the fast path, equal the ones computed from the built successor."""
    from pacsim.agents.capture import baseline
    from pacsim.engine.capture.state import _stepped, apply_move, plain_step

    layout = find_capture_layout("defaultCapture")
    states = []
    play_capture_game(layout, build_team("baseline", True), build_team("baseline", False), 4, 400,
                      observer=lambda state, agent, action: states.append(state))
    plain = 0
    for state in states[:-1]:
        agent = state.turn
        food = baseline.mask_cells(state.food_of(agent % 2 == 1))  # the other side's food
        for action, target in state.legal_moves(agent):
            built = apply_move(state, agent, action, target)
            if not plain_step(state, agent, target):
                continue
            plain += 1
            assert _stepped(state, agent, action, target) == built
            for field in ("carrying", "returned", "food", "capsules", "score"):
                assert getattr(built, field) == getattr(state, field)
            for field in ("positions", "directions", "pacman", "scared"):
                assert [value for other, value in enumerate(getattr(built, field)) if other != agent] == \
                       [value for other, value in enumerate(getattr(state, field)) if other != agent]
            fast = (baseline._attack(state, agent, action, target, food), baseline._defend(state, agent, action, target))
            with monkeypatch.context() as patched:
                patched.setattr(baseline, "plain_step", lambda *arguments: False)  # the slow path: the built successor
                assert fast == (baseline._attack(state, agent, action, target, food), baseline._defend(state, agent, action, target))
    assert plain > 1000


def test_home_cells_say_what_the_halves_say():
    layout = find_capture_layout("RANDOM3")
    for agent in range(4):
        for cell in range(len(layout.maze.cells)):
            assert layout.is_home(agent, cell) == (layout.on_red_side(cell) == (agent % 2 == 0))


class _NorthAfterAWhile(CaptureTeam):
    """Plays Stop, then North whether or not there is a wall (a team's bug)."""

    def __init__(self) -> None:
        self.moves = 0

    def act(self, index: int, view: CaptureView) -> str:
        self.moves += 1
        return "Stop" if self.moves < 4 else "North"


def test_a_game_ended_by_an_illegal_move_replays_to_the_fault_and_says_so(tmp_path, capsys):
    """The illegal move is the error's, not one of the moves played: a record of the game replays (it once
    stopped on the move it could not play, and the faulted game could not be watched)."""
    layout = find_capture_layout("defaultCapture")
    result = play_capture_game(layout, _NorthAfterAWhile(), build_team("baseline", False), seed=1)
    assert result.reason == "crash" and result.culprit % 2 == 0 and "illegal move 'North'" in result.error
    state = initial_state(layout, result.first, len(result.moves))
    for agent, action in result.moves:
        state = state.successor(action, agent)  # every recorded move is legal where it was played
    record = tmp_path / "game.json"
    record.write_text(json.dumps({"game": "capture", "red": "north", "blue": "baseline", "layout": "defaultCapture",
                                  **result.to_dict()}))
    page = tmp_path / "game.html"
    assert main(["capture", "--replay", str(record), "-q", "--html", str(page)]) == 0
    ended = f"ended by red agent {result.culprit}'s crash: illegal move"
    assert ended in capsys.readouterr().out and ended in page.read_text(encoding="utf-8")  # the page says it too


def test_each_layout_keeps_its_own_home_edges():
    """The columns beside the middle, per layout (a cache keyed by a freed layout's id once handed a search team
    another maze's cells): every edge cell is on its side's half, next to the other's."""
    for name in ("tinyCapture", "defaultCapture", "RANDOM13"):
        layout = find_capture_layout(name)
        red, blue = layout.home_edges
        assert red and blue
        assert all(layout.is_home(0, cell) and layout.maze.cells[cell][1] == layout.width // 2 - 1 for cell in red)
        assert all(layout.is_home(1, cell) and layout.maze.cells[cell][1] == layout.width // 2 for cell in blue)


def test_a_records_team_names_reach_the_terminal_as_text(tmp_path, capsys):
    """A record's team names are whoever wrote it: replayed, their escapes and newlines are shown, not acted on."""
    assert main(["capture", "-l", "tinyCapture", "--seed", "4", "-i", "10", "--record", str(tmp_path), "-q"]) == 0
    [record] = tmp_path.glob("capture-*.json")
    kept = json.loads(record.read_text())
    kept["red"] = "\x1b[2Jevil\nseed 1 on tinyCapture: forged"
    record.write_text(json.dumps(kept))
    capsys.readouterr()
    assert main(["capture", "--replay", str(record), "-q"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\\x1b[2Jevil\\nseed 1" in out and len(out.strip().splitlines()) == 1


def test_a_faulted_records_account_reaches_the_terminal_as_text(tmp_path, capsys):
    """How a record says a fault ended its game (its error, score and winner) is whoever wrote it: shown, not acted on."""
    assert main(["capture", "-l", "tinyCapture", "--seed", "4", "-i", "10", "--record", str(tmp_path), "-q"]) == 0
    [record] = tmp_path.glob("capture-*.json")
    kept = json.loads(record.read_text())
    kept.update(reason="crash", culprit=1, error="\x1b[2Jboom", score="\x1b[31m7", winner="red\nforged line")
    record.write_text(json.dumps(kept))
    capsys.readouterr()
    assert main(["capture", "--replay", str(record), "-q"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "forged line" in out and "\n" + "forged line" not in out
    assert "ended by blue agent 1's crash: \\x1b[2Jboom" in out
