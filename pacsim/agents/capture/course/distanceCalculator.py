"""The course's ``distanceCalculator``, written by pacsim: maze distances from
pacsim's layout (computed per source cell on first use and shared by every
team on the maze), so nothing is computed up front."""

from __future__ import annotations

from typing import Any

from pacsim.agents.capture.course.snake import add_snake_aliases
from pacsim.engine.layout import UNREACHABLE


def manhattanDistance(x: tuple[float, float], y: tuple[float, float]) -> float:
    return abs(x[0] - y[0]) + abs(x[1] - y[1])


def isInt(pos: tuple[float, float]) -> bool:
    x, y = pos
    return x == int(x) and y == int(y)


class Distancer:
    """``getDistance(pos1, pos2)``: the maze distance between two ``(x, y)`` positions."""

    def __init__(self, layout: Any, default: int = 10000) -> None:
        self.capture = layout.capture  # the CourseMaze handed out by pacsim's GameState
        self.default = default
        self._cell_of = {self.capture.xy(cell): cell for cell in range(self.capture.maze.num_cells)}

    def getMazeDistances(self) -> None:
        """Distances are computed on first use; nothing to do up front."""

    def getDistance(self, pos1: tuple[float, float], pos2: tuple[float, float]) -> float:
        cell_of = self._cell_of
        first, second = cell_of.get(pos1), cell_of.get(pos2)  # (x, y) of ints, as a rule
        if first is None:
            first = cell_of.get(_rounded(pos1))
        if second is None:
            second = cell_of.get(_rounded(pos2))
        if first is None or second is None:
            return self.default
        distance = self.capture.maze.distances_from(first)[second]
        return self.default if distance >= UNREACHABLE else distance


def _rounded(position: tuple[float, float]) -> tuple[int, int]:
    return int(position[0] + 0.5), int(position[1] + 0.5)

# UPF's snake_case names (nearest_point, arg_max, get_distance, ...): aliases of these.
add_snake_aliases(globals())
add_snake_aliases(Distancer)
