"""The course's capture ``GameState`` over an agent's view (a :class:`CaptureView`).

Course code reads ``(x, y)`` positions (x the column, y counted from the
bottom) and ``grid[x][y]`` grids; pacsim's cells are converted at this
boundary.  An unseen opponent's position is None, as in the course.  Any
agent may be moved from any state (``generateSuccessor(i, action)``), as the
course allows; the successor keeps the view's noisy distances.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from pacsim.agents.capture.course.snake import SnakeNames, add_snake_aliases
from pacsim.agents.cs188_state import AgentState, Configuration, Grid
from pacsim.engine.capture.layout import BLUE_AGENTS, RED_AGENTS, CaptureLayout, is_red
from pacsim.engine.capture.observation import CaptureView, distance_probability
from pacsim.engine.capture.state import UNSEEN, CaptureState, apply_move
from pacsim.engine.layout import ACTIONS, STOP
from pacsim.engine.state import mask_cells

Position = tuple[int, int]


class CourseGrid(SnakeNames, Grid):
    """The course's ``Grid``, answering UPF's snake_case names too (``as_list``)."""


class CourseConfiguration(SnakeNames, Configuration):
    """The course's ``Configuration``, answering UPF's snake_case names too (``get_position``)."""


class CourseMaze(SnakeNames):
    """The course's ``layout.Layout`` as team code reads it: width, height, walls, starts."""

    def __init__(self, layout: CaptureLayout) -> None:
        self.width, self.height = layout.width, layout.height
        columns = [[True] * layout.height for _ in range(layout.width)]
        for cell in range(layout.maze.num_cells):
            x, y = layout.xy(cell)
            columns[x][y] = False
        self.walls = CourseGrid(layout.width, layout.height, columns)
        self.agentPositions = [(False, layout.xy(cell)) for cell in layout.starts]
        self.totalFood = layout.total_food
        self.layoutText = layout.text.splitlines()
        self.capture = layout

    def isWall(self, position: Position) -> bool:
        x, y = position
        return self.walls[x][y]

    def getNumGhosts(self) -> int:
        return len(self.agentPositions)

    def deepCopy(self) -> CourseMaze:
        """A copy whose walls team code may change (the course's ``Layout.deepCopy``)."""
        return CourseMaze(self.capture)


_MAZES: dict[int, CourseMaze] = {}


def course_maze(layout: CaptureLayout) -> CourseMaze:
    """The one :class:`CourseMaze` of a layout (built once, shared by every state)."""
    maze = _MAZES.get(id(layout))
    if maze is None or maze.capture is not layout:
        maze = _MAZES[id(layout)] = CourseMaze(layout)
    return maze


class MaskGrid(CourseGrid):
    """A grid of a bitmask's cells: ``asList`` and ``count`` read the mask (team code
    calls ``getFood(state).asList()`` for every move it weighs); the columns are
    built on the first indexing, and from then on everything reads them (code may write to them)."""

    def __init__(self, layout: CaptureLayout, mask: int) -> None:
        self.width, self.height = layout.width, layout.height
        self._layout, self._mask = layout, mask
        self._columns: list[list[bool]] | None = None

    @property
    def data(self) -> list[list[bool]]:
        if self._columns is None:
            columns = [[False] * self.height for _ in range(self.width)]
            for cell in mask_cells(self._mask):
                x, y = self._layout.xy(cell)
                columns[x][y] = True
            self._columns = columns
        return self._columns

    @data.setter
    def data(self, columns: list[list[bool]]) -> None:
        self._columns = columns

    def asList(self, key: bool = True) -> list[Position]:
        if self._columns is not None or key is not True:
            return super().asList(key)
        return sorted(map(self._layout.coordinates.__getitem__, mask_cells(self._mask)))

    def count(self, item: bool = True) -> int:
        if self._columns is not None or item is not True:
            return super().count(item)
        return self._mask.bit_count()


class CaptureAgentState(SnakeNames, AgentState):
    """An agent's state; an unseen opponent's position is None, as in the course
    (UPF's names too: ``is_pacman``, ``scared_timer``, ``num_carrying``)."""

    def getPosition(self) -> Position | None:  # type: ignore[override]
        return None if self.configuration is None else self.configuration.pos


class GameState(SnakeNames):
    """The course's capture ``GameState`` API over one agent's view (and UPF's
    snake_case names for it: ``get_legal_actions``, ``generate_successor``, ...)."""

    def __init__(self, state: CaptureState, index: int, noisy_distances: tuple[int, ...]) -> None:
        self.state = state
        self.index = index
        self.agentDistances = list(noisy_distances)
        self._maze = course_maze(state.layout)

    @classmethod
    def of_view(cls, view: CaptureView) -> GameState:
        return cls(view.state, view.agent, view.noisy_distances)

    # -- moves -------------------------------------------------------------------------
    def getLegalActions(self, agentIndex: int = 0) -> list[str]:
        return self.state.legal_actions(agentIndex)

    def generateSuccessor(self, agentIndex: int, action: str) -> GameState:
        for legal, target in self.state.legal_moves(agentIndex):
            if legal == action:
                return GameState(apply_move(self.state, agentIndex, legal, target), self.index, tuple(self.agentDistances))
        raise Exception(f"Illegal action {action}")  # the course's own exception and words

    # -- agents --------------------------------------------------------------------------
    def getAgentState(self, index: int) -> AgentState:
        state, layout = self.state, self.state.layout
        start = CourseConfiguration(layout.xy(layout.starts[index]), STOP)
        cell = state.positions[index]
        configuration = None if cell == UNSEEN else CourseConfiguration(layout.xy(cell), ACTIONS[state.directions[index]])
        agent = CaptureAgentState(start, configuration, state.pacman[index], state.scared[index])  # type: ignore[arg-type]
        agent.numCarrying, agent.numReturned = state.carrying[index], state.returned[index]
        return agent

    def getAgentPosition(self, index: int) -> Position | None:
        cell = self.state.positions[index]
        return None if cell == UNSEEN else self.state.layout.xy(cell)

    def getNumAgents(self) -> int:
        return len(self.state.positions)

    def getInitialAgentPosition(self, agentIndex: int) -> Position:
        return self.state.layout.xy(self.state.layout.starts[agentIndex])

    def getAgentDistances(self) -> list[int]:
        return self.agentDistances

    @staticmethod
    def getDistanceProb(trueDistance: int, noisyDistance: int) -> float:
        """Static, as UPF has it (``GameState.get_distance_prob(true, noisy)``); the course calls it on a state."""
        return distance_probability(trueDistance, noisyDistance)

    def getRedTeamIndices(self) -> list[int]:
        return list(RED_AGENTS)

    def getBlueTeamIndices(self) -> list[int]:
        return list(BLUE_AGENTS)

    @property
    def redTeam(self) -> list[int]:
        """The course's fields of a state (``gameState.redTeam``, ``blueTeam``, ``teams``: is each agent red)."""
        return list(RED_AGENTS)

    @property
    def blueTeam(self) -> list[int]:
        return list(BLUE_AGENTS)

    @property
    def teams(self) -> list[bool]:
        return [is_red(index) for index in range(self.getNumAgents())]

    def isOnRedTeam(self, agentIndex: int) -> bool:
        return is_red(agentIndex)

    def isRed(self, configOrPos: Any) -> bool:
        x = configOrPos[0] if isinstance(configOrPos, tuple) else configOrPos.pos[0]
        return x < self._maze.width // 2

    # -- the board -----------------------------------------------------------------------
    def getScore(self) -> int:
        return self.state.score

    def getRedFood(self) -> Grid:
        return self._grid(self.state.food_of(True))

    def getBlueFood(self) -> Grid:
        return self._grid(self.state.food_of(False))

    def getRedCapsules(self) -> list[Position]:
        return self._positions(self.state.capsules_of(True))

    def getBlueCapsules(self) -> list[Position]:
        return self._positions(self.state.capsules_of(False))

    def getCapsules(self) -> list[Position]:
        return self._positions(self.state.capsules)

    def getWalls(self) -> Grid:
        return self._maze.walls

    def hasFood(self, x: int, y: int) -> bool:
        cell = self.state.layout.cell_at(x, y)
        return cell is not None and bool((self.state.food >> cell) & 1)

    def hasWall(self, x: int, y: int) -> bool:
        return self._maze.walls[x][y]

    def isOver(self) -> bool:
        return self.state.over

    def makeObservation(self, index: int) -> GameState:
        """Already an observation: the view an agent is handed is all it may know."""
        return self

    def deepCopy(self) -> GameState:
        return GameState(self.state, self.index, tuple(self.agentDistances))

    @cached_property
    def data(self) -> StateData:
        """Built on first use and kept: the course's is a plain field, which team code reads in its inner loops
        (``gameState.data.layout.walls`` per cell searched); building it on every read made such a team's moves
        twenty times slower here than in the course."""
        return StateData(self)

    def _grid(self, mask: int) -> Grid:
        return MaskGrid(self.state.layout, mask)

    def _positions(self, mask: int) -> list[Position]:
        return [self.state.layout.xy(cell) for cell in mask_cells(mask)]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and self.state == other.state

    def __hash__(self) -> int:
        return hash(self.state)

    def __str__(self) -> str:
        return self.state.to_text()


add_snake_aliases(GameState)  # UPF's names on the class too: GameState.get_distance_prob(true, noisy)


class StateData(SnakeNames):
    """``gameState.data``: the fields course code reads directly."""

    def __init__(self, view: GameState) -> None:
        state = view.state
        self.layout = view._maze
        self.timeleft = state.moves_left
        self.score = state.score
        self.agentStates = [view.getAgentState(index) for index in range(view.getNumAgents())]
        self.food = view._grid(state.food)
        self.capsules = view.getCapsules()
        self._win = state.over

