"""UPF's Python 3 snake_case framework (``create_team``, ``contest.capture_agents``, ``get_food``...)
through pacsim's course adapter (docs/capture.md)."""

import random
import sys
from pathlib import Path

import optional
import pytest

from pacsim.agents.capture import build_team
from pacsim.agents.capture.course import game, util
from pacsim.agents.capture.course.capture_agents import CaptureAgent
from pacsim.agents.capture.course.distanceCalculator import Distancer
from pacsim.agents.capture.course.gamestate import GameState
from pacsim.agents.capture.course.snake import camel, snake
from pacsim.engine.capture.game import play_capture_game
from pacsim.engine.capture.layout import find_capture_layout
from pacsim.engine.capture.observation import observe
from pacsim.engine.capture.state import initial_state
from pacsim.errors import AgentError

TEAMS = Path(__file__).parent / "capture_course" / "teams"
UPF_NAMES = ("contest", "contest.capture_agents", "contest.util", "capture_agents", "distance_calculator")


def test_upf_style_team_files_play_with_their_own_module_names():
    before = {name: sys.modules.get(name) for name in UPF_NAMES}
    red = build_team(str(TEAMS / "upf_team.py"), True)
    blue = build_team(str(TEAMS / "upf_bare_team.py"), False)
    assert {name: sys.modules.get(name) for name in UPF_NAMES} == before  # put back as they were
    result = play_capture_game(find_capture_layout("defaultCapture"), red, blue, seed=3, max_moves=300)
    assert result.reason in ("time", "food") and result.error == "", result.error
    raider, keeper = red.agents[0], red.agents[2]  # type: ignore[attr-defined]
    assert raider.checks == keeper.checks == [True, True, True]
    assert len(raider.readings) == len([move for move in result.moves if move[0] == 0])
    assert all(len(reading) == 4 for reading in raider.readings)
    assert blue.agents[1].manhattan == 7  # type: ignore[attr-defined]
    final = result.final_state
    assert final is not None and final.carrying[0] + final.returned[0] > 0  # the raider finds food and eats it


def test_a_upf_team_is_a_function_of_its_seed():
    def moves() -> list[tuple[int, str]]:
        return play_capture_game(find_capture_layout("tinyCapture"), build_team(str(TEAMS / "upf_team.py"), True),
                                 build_team(str(TEAMS / "myTeam.py"), False), seed=5, max_moves=120).moves

    assert moves() == moves()


def test_a_file_with_neither_create_team_is_refused_in_one_line():
    with pytest.raises(AgentError, match=r"defines no createTeam.*nor UPF's create_team"):
        build_team(str(TEAMS / "noTeam.py"), True)


def _view_state(agent: int = 0) -> GameState:
    layout = find_capture_layout("defaultCapture")
    return GameState.of_view(observe(initial_state(layout), agent, random.Random(1)))


# The names UPF's framework gives team code (its capture_agents, capture.GameState, game, util,
# distance_calculator), each checked to answer here as its camelCase twin does.
STATE_METHODS = ("get_legal_actions", "generate_successor", "get_agent_state", "get_agent_position", "get_num_agents",
                 "get_score", "get_red_food", "get_blue_food", "get_red_capsules", "get_blue_capsules", "get_walls",
                 "has_food", "has_wall", "is_over", "get_red_team_indices", "get_blue_team_indices", "is_on_red_team",
                 "get_agent_distances", "get_distance_prob", "get_initial_agent_position", "get_capsules",
                 "make_observation", "deep_copy")
AGENT_METHODS = ("get_food", "get_food_you_are_defending", "get_capsules", "get_capsules_you_are_defending",
                 "get_opponents", "get_team", "get_score", "get_maze_distance", "get_previous_observation",
                 "get_current_observation", "debug_draw", "debug_clear", "display_distributions_over_positions")
UTIL_NAMES = ("manhattan_distance", "nearest_point", "raise_not_defined", "flip_coin", "normalize", "sample",
              "sample_from_counter", "choose_from_distribution", "get_probability", "lookup", "array_invert",
              "matrix_as_list", "sign", "pause", "Counter", "Stack", "Queue", "PriorityQueue",
              "PriorityQueueWithFunction", "TimeoutFunction")


def test_every_upf_name_answers_as_its_camel_case_twin():
    state = _view_state()
    for name in STATE_METHODS:
        assert getattr(state, name) == getattr(state, camel(name)), name
    agent = CaptureAgent(0)
    agent.register_initial_state(state)
    for name in AGENT_METHODS:
        assert getattr(agent, name) == getattr(agent, camel(name)), name
    assert agent.agentsOnTeam == [0, 2] and agent.red is True  # UPF's base registers the team
    me = state.get_agent_state(0)
    assert (me.is_pacman, me.scared_timer, me.num_carrying, me.num_returned) == (False, 0, 0, 0)
    assert me.get_position() == me.configuration.get_position() == state.get_agent_position(0)
    assert sorted(state.get_red_food().as_list()) == sorted(state.getRedFood().asList())
    assert state.data.layout.total_food == 40 and state.data.agent_states[0].is_pacman is False
    for name in UTIL_NAMES:
        assert hasattr(util, name), name
    counter = util.Counter({"a": 2, "b": 5})
    assert (counter.arg_max(), counter.total_count(), counter.sorted_keys()) == ("b", 7, ["b", "a"])
    queue = util.PriorityQueue()
    queue.push("x", 1)
    assert not queue.is_empty() and queue.pop() == "x" and queue.is_empty()
    assert game.Actions.direction_to_vector(game.Directions.NORTH) == (0, 1)
    assert game.Actions.reverse_direction(game.Directions.EAST) == game.Directions.WEST
    distancer = Distancer(state.data.layout)
    distancer.get_maze_distances()
    start, other = state.get_initial_agent_position(0), state.get_initial_agent_position(1)
    assert distancer.get_distance(start, other) == agent.get_maze_distance(start, other) > 0


def test_a_name_neither_convention_has_is_an_attribute_error():
    state = _view_state()
    with pytest.raises(AttributeError, match="no attribute 'get_nothing_at_all'"):
        _ = state.get_nothing_at_all
    with pytest.raises(AttributeError):
        _ = state._private_name


def test_the_names_convert_both_ways():
    assert [camel(name) for name in ("get_maze_distance", "as_list", "get_grids_2D", "index")] == [
        "getMazeDistance", "asList", "getGrids2D", "index"]
    assert [snake(name) for name in ("getMazeDistance", "isInt", "asList")] == ["get_maze_distance", "is_int", "as_list"]


def test_a_contest_takes_a_upf_hand_in_by_its_create_team():
    from pacsim.runner.contest import _defines_create_team

    assert _defines_create_team((TEAMS / "upf_team.py").read_text())
    assert _defines_create_team((TEAMS / "myTeam.py").read_text())
    assert not _defines_create_team((TEAMS / "noTeam.py").read_text())


def test_upfs_own_baseline_plays_move_for_move_as_the_courses():
    """With copies kept outside the repository (``PACSIM_CAPTURE_UPF=DIR``: UPF's ``src/contest`` folder,
    ``PACSIM_CAPTURE_COURSE=DIR``: the course's): UPF's unmodified ``baseline_team.py`` plays the games the
    course's ``baselineTeam.py`` plays, move for move (the same logic under the other convention's names)."""
    upf = optional.outside_repository("PACSIM_CAPTURE_UPF", "baseline_team.py")
    course = optional.outside_repository("PACSIM_CAPTURE_COURSE", "baselineTeam.py")
    layout = find_capture_layout("defaultCapture")
    opponent = f"{course}/baselineTeam.py"
    for seed in (1, 3):
        snake_game = play_capture_game(layout, build_team(f"{upf}/baseline_team.py", True), build_team(opponent, False),
                                       seed, max_moves=400)
        camel_game = play_capture_game(layout, build_team(opponent, True), build_team(opponent, False), seed, max_moves=400)
        assert snake_game.error == "" and snake_game.moves == camel_game.moves
