"""The course's ``capture`` names a team file may import (its ``GameState``, its constants)."""

import random

from pacsim.agents.capture.course.gamestate import GameState
from pacsim.engine.capture.layout import MIN_FOOD
from pacsim.engine.capture.observation import NOISE, SIGHT_RANGE
from pacsim.engine.capture.state import SCARED_TIME

SONAR_NOISE_RANGE = 2 * NOISE + 1
SONAR_NOISE_VALUES = [value - NOISE for value in range(SONAR_NOISE_RANGE)]
KILL_POINTS = 0


def noisyDistance(pos1: tuple[int, int], pos2: tuple[int, int]) -> int:
    """A noisy reading of the Manhattan distance, as the course's engine draws one (team code uses it to
    simulate readings; drawn from Python's global ``random``, which pacsim seeds from the team's own stream)."""
    return int(abs(pos1[0] - pos2[0]) + abs(pos1[1] - pos2[1]) + random.choice(SONAR_NOISE_VALUES))

__all__ = ["GameState", "MIN_FOOD", "SCARED_TIME", "SIGHT_RANGE", "SONAR_NOISE_RANGE", "SONAR_NOISE_VALUES", "KILL_POINTS", "noisyDistance"]
