"""The course's ``capture`` names a team file may import (its ``GameState``, its constants)."""

from pacsim.agents.capture.course.gamestate import GameState
from pacsim.engine.capture.layout import MIN_FOOD
from pacsim.engine.capture.observation import NOISE, SIGHT_RANGE
from pacsim.engine.capture.state import SCARED_TIME

SONAR_NOISE_RANGE = 2 * NOISE + 1
SONAR_NOISE_VALUES = [value - NOISE for value in range(SONAR_NOISE_RANGE)]
KILL_POINTS = 0

__all__ = ["GameState", "MIN_FOOD", "SCARED_TIME", "SIGHT_RANGE", "SONAR_NOISE_RANGE", "SONAR_NOISE_VALUES", "KILL_POINTS"]
