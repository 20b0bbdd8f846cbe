"""The course's ``game`` as capture team files use it, written by pacsim."""

from __future__ import annotations

from typing import Any, ClassVar

from pacsim.agents.capture.course.gamestate import CaptureAgentState as AgentState
from pacsim.agents.capture.course.gamestate import CourseConfiguration as Configuration
from pacsim.agents.capture.course.gamestate import CourseGrid as Grid
from pacsim.agents.capture.course.gamestate import StateData as GameStateData
from pacsim.agents.capture.course.snake import add_snake_aliases
from pacsim.engine.layout import EAST, NORTH, SOUTH, STOP, WEST

__all__ = ["Actions", "Agent", "AgentState", "Configuration", "Directions", "GameStateData", "Grid"]


class Directions:
    NORTH, SOUTH, EAST, WEST, STOP = NORTH, SOUTH, EAST, WEST, STOP
    LEFT: ClassVar[dict[str, str]] = {NORTH: WEST, SOUTH: EAST, EAST: NORTH, WEST: SOUTH, STOP: STOP}
    RIGHT: ClassVar[dict[str, str]] = {west: north for north, west in LEFT.items()}
    REVERSE: ClassVar[dict[str, str]] = {NORTH: SOUTH, SOUTH: NORTH, EAST: WEST, WEST: EAST, STOP: STOP}


class Actions:
    """Directions as ``(dx, dy)`` vectors, y up (the course's)."""

    _directions: ClassVar[dict[str, tuple[int, int]]] = {NORTH: (0, 1), SOUTH: (0, -1), EAST: (1, 0), WEST: (-1, 0), STOP: (0, 0)}
    _directionsAsList: ClassVar[list[tuple[str, tuple[int, int]]]] = list(_directions.items())
    TOLERANCE = 0.001

    @staticmethod
    def reverseDirection(action: str) -> str:
        return Directions.REVERSE[action]

    @staticmethod
    def vectorToDirection(vector: tuple[float, float]) -> str:
        dx, dy = vector
        if dy > 0:
            return NORTH
        if dy < 0:
            return SOUTH
        if dx < 0:
            return WEST
        if dx > 0:
            return EAST
        return STOP

    @staticmethod
    def directionToVector(direction: str, speed: float = 1.0) -> tuple[float, float]:
        dx, dy = Actions._directions[direction]
        return dx * speed, dy * speed

    @staticmethod
    def getPossibleActions(config: Configuration, walls: Grid) -> list[str]:
        x, y = config.pos
        return [direction for direction, (dx, dy) in Actions._directionsAsList
                if not walls[int(x + 0.5) + dx][int(y + 0.5) + dy]]

    @staticmethod
    def getLegalNeighbors(position: tuple[int, int], walls: Grid) -> list[tuple[int, int]]:
        x, y = int(position[0] + 0.5), int(position[1] + 0.5)
        neighbours = []
        for _, (dx, dy) in Actions._directionsAsList:
            next_x, next_y = x + dx, y + dy
            if 0 <= next_x < walls.width and 0 <= next_y < walls.height and not walls[next_x][next_y]:
                neighbours.append((next_x, next_y))
        return neighbours

    @staticmethod
    def getSuccessor(position: tuple[float, float], action: str) -> tuple[float, float]:
        dx, dy = Actions.directionToVector(action)
        return position[0] + dx, position[1] + dy


class Agent:
    """The course's agent base: an ``index`` and ``getAction``."""

    def __init__(self, index: int = 0) -> None:
        self.index = index

    def getAction(self, state: Any) -> str:
        raise NotImplementedError


# UPF's snake_case names (direction_to_vector, get_legal_neighbors, ...): aliases of these.
add_snake_aliases(Actions)
