"""Course names that real students' hand-ins used and pacsim's course adapter once lacked (found running an
instructor's contest on public teams, docs/capture.md): each checked with a tiny stand-in team written here."""

from pathlib import Path

import pytest

from pacsim.agents.capture import build_team
from pacsim.engine.capture.game import play_capture_game
from pacsim.engine.capture.layout import find_capture_layout

# Each stand-in plays a few moves and records what it read; an agent that raises crashes the game.
COURSE_TEAM = '''
from captureAgents import CaptureAgent
from capture import noisyDistance


def createTeam(firstIndex, secondIndex, isRed):
    return [Reader(firstIndex), Reader(secondIndex)]


class Reader(CaptureAgent):
    def registerInitialState(self, gameState):
        CaptureAgent.registerInitialState(self, gameState)
        self.seen = {"team": self.agentsOnTeam, "red": gameState.redTeam, "blue": gameState.blueTeam,
                     "teams": gameState.teams}
        walls = gameState.data.layout.deepCopy().walls
        walls[1][1] = not walls[1][1]
        self.seen["walls kept"] = walls[1][1] != gameState.getWalls()[1][1]

    def chooseAction(self, gameState):
        me, other = gameState.getAgentPosition(self.index), gameState.getInitialAgentPosition(1 - self.index % 2)
        self.seen["noisy"] = noisyDistance(me, other) - (abs(me[0] - other[0]) + abs(me[1] - other[1]))
        return "Stop"
'''

# UPF's 2022-23 framework: camelCase module names, snake_case code (a bare `captureAgents` too).
UPF_OLD_TEAM = '''
from {module} import CaptureAgent
from contest.capture import GameState
from contest.game import GameStateData
from contest.layout import Layout


def create_team(first_index, second_index, is_red, first="Walker", second="Walker", num_training=0):
    return [Walker(first_index), Walker(second_index)]


class Walker(CaptureAgent):
    def register_initial_state(self, game_state):
        CaptureAgent.register_initial_state(self, game_state)
        data: GameStateData = game_state.data
        layout: Layout = data.layout
        self.seen = {{"team": self.agents_on_team, "width": layout.width,
                     "prob": GameState.get_distance_prob(3, 5)}}

    def choose_action(self, game_state):
        self.seen["moved"] = True
        return game_state.get_legal_actions(self.index)[0]
'''


def _play(tmp_path: Path, source: str, name: str) -> tuple[object, object]:
    path = tmp_path / name
    path.write_text(source)
    team = build_team(str(path), True)
    result = play_capture_game(find_capture_layout("tinyCapture"), team, build_team("baseline", False), seed=1, max_moves=8)
    return team, result


def test_a_course_team_reads_the_states_team_fields_its_registered_team_noisy_distance_and_a_layout_copy(tmp_path):
    team, result = _play(tmp_path, COURSE_TEAM, "myTeam.py")
    assert result.error == "", result.error  # type: ignore[attr-defined]
    seen = team.agents[0].seen  # type: ignore[attr-defined]
    assert seen["team"] == [0, 2] and seen["red"] == [0, 2] and seen["blue"] == [1, 3]
    assert seen["teams"] == [True, False, True, False]
    assert seen["walls kept"] is True  # the copy's walls are its own
    assert -6 <= seen["noisy"] <= 6


@pytest.mark.parametrize("module", ["contest.captureAgents", "captureAgents"])
def test_a_team_of_upfs_older_framework_plays_with_its_camel_case_module_names(tmp_path, module):
    team, result = _play(tmp_path, UPF_OLD_TEAM.format(module=module), "myTeam.py")
    assert result.error == "", result.error  # type: ignore[attr-defined]
    seen = team.agents[0].seen  # type: ignore[attr-defined]
    assert seen["team"] == [0, 2] and seen["width"] == find_capture_layout("tinyCapture").width
    assert seen["prob"] == pytest.approx(1 / 13) and seen["moved"] is True


def test_a_states_data_is_a_field_built_once_as_the_courses_is():
    """Team code reads ``gameState.data.layout.walls`` for every cell it searches: rebuilt on every read it
    made a public team's moves twenty times slower than in the course (and it forfeited)."""
    import random

    from pacsim.agents.capture.course.gamestate import GameState
    from pacsim.engine.capture.observation import observe
    from pacsim.engine.capture.state import initial_state

    state = GameState.of_view(observe(initial_state(find_capture_layout("tinyCapture")), 0, random.Random(1)))
    assert state.data is state.data
    state.data.timeleft = 7  # a field team code set stays set, as on the course's state
    assert state.data.timeleft == 7
    successor = state.generateSuccessor(0, state.getLegalActions(0)[0])
    assert successor.data is not state.data and successor.data.timeleft != 7
