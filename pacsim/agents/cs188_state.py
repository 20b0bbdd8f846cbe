"""CS188's ``GameState`` API over pacsim's immutable state, for agents written for the course.

A :class:`Cs188GameState` wraps one :class:`pacsim.engine.GameState` and
answers the methods course agents call (``getLegalActions``,
``generateSuccessor``, ``getFood`` ...).  Nothing is deep-copied: a
successor wraps pacsim's successor tuple, grids are built on first use, and
the walls grid and coordinate tables are built once per layout.

Coordinates are CS188's: ``(x, y)`` with x the column and y counted from
the *bottom* row; grids are indexed ``grid[x][y]``.  pacsim itself uses
``(row, column)`` with row 0 at the top.

Turns: pacsim's state records whose turn it is; CS188's does not, and lets
any agent move from any state.  ``generateSuccessor(i, action)`` follows
CS188: it is the state after agent ``i`` plays ``action`` from here, whoever
pacsim would let move next (so two ``generatePacmanSuccessor`` calls in a
row move Pacman twice, as in the course engine).  Course minimax agents call
it in turn order, which is pacsim's own order.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator
from typing import Any

from pacsim.engine import STOP, GameState, Layout
from pacsim.engine.layout import ACTIONS

Position = tuple[int, int]
"""CS188 ``(x, y)``: column, and row counted from the bottom."""


class Grid:
    """A width x height grid of booleans indexed ``grid[x][y]``, as course code reads food and walls."""

    def __init__(self, width: int, height: int, columns: list[list[bool]] | None = None) -> None:
        self.width = width
        self.height = height
        self.data = columns if columns is not None else [[False] * height for _ in range(width)]
        """One list per column x, indexed by y."""

    def __getitem__(self, x: int) -> list[bool]:
        return self.data[x]

    def __setitem__(self, x: int, column: list[bool]) -> None:
        self.data[x] = column

    def asList(self, key: bool = True) -> list[Position]:
        """Positions holding ``key``, column by column, bottom to top (CS188's order)."""
        return [(x, y) for x, column in enumerate(self.data) for y, value in enumerate(column) if value == key]

    def count(self, item: bool = True) -> int:
        return sum(column.count(item) for column in self.data)

    def copy(self) -> Grid:
        return Grid(self.width, self.height, [list(column) for column in self.data])

    deepCopy = copy

    def shallowCopy(self) -> Grid:
        return Grid(self.width, self.height, self.data)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Grid) and self.data == other.data

    def __hash__(self) -> int:
        return hash(tuple(tuple(column) for column in self.data))

    def __str__(self) -> str:
        rows = (
            "".join("T" if self.data[x][y] else "F" for x in range(self.width))
            for y in range(self.height - 1, -1, -1)
        )
        return "\n".join(rows)


class Configuration:
    """An agent's position and the direction of its last move."""

    __slots__ = ("direction", "pos")

    def __init__(self, pos: Position, direction: str) -> None:
        self.pos = pos
        self.direction = direction

    def getPosition(self) -> Position:
        return self.pos

    def getDirection(self) -> str:
        return self.direction

    def isInteger(self) -> bool:
        return True  # pacsim's agents always stand on cells

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Configuration) and (self.pos, self.direction) == (other.pos, other.direction)

    def __hash__(self) -> int:
        return hash((self.pos, self.direction))

    def __str__(self) -> str:
        return f"(x,y)={self.pos}, {self.direction}"


class AgentState:
    """What course code reads of an agent: ``configuration``, ``scaredTimer``,
    ``start``, ``isPacman``, ``getPosition()``, ``getDirection()``."""

    def __init__(self, start: Configuration, configuration: Configuration, is_pacman: bool, scared_timer: int) -> None:
        self.start = start
        self.configuration = configuration
        self.isPacman = is_pacman
        self.scaredTimer = scared_timer
        self.numCarrying = 0
        self.numReturned = 0

    def getPosition(self) -> Position:
        return self.configuration.pos

    def getDirection(self) -> str:
        return self.configuration.direction

    def copy(self) -> AgentState:
        return AgentState(self.start, self.configuration, self.isPacman, self.scaredTimer)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, AgentState)
            and self.configuration == other.configuration
            and self.scaredTimer == other.scaredTimer
        )

    def __hash__(self) -> int:
        return hash((self.configuration, self.scaredTimer))

    def __str__(self) -> str:
        return f"{'Pacman' if self.isPacman else 'Ghost'}: {self.configuration}"


class CourseLayout:
    """A pacsim layout seen in CS188 coordinates, built once per layout.

    Also what course code finds as ``state.data.layout``: ``width``,
    ``height``, ``walls``, ``food`` (at the start), ``capsules``,
    ``numGhosts``, ``getNumGhosts()``, ``isWall((x, y))``.
    """

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.width = layout.width
        self.height = layout.height
        self.positions: tuple[Position, ...] = tuple(
            (column, layout.height - 1 - row) for row, column in layout.cells
        )
        """CS188 position of each pacsim cell number."""
        self.cell_at = {position: cell for cell, position in enumerate(self.positions)}
        self.walls = Grid(self.width, self.height)
        for row, column in layout.walls:
            self.walls[column][layout.height - 1 - row] = True
        self.food = self.grid_of(layout.food)
        self.capsules = self.capsule_list(layout.capsules)
        self.numGhosts = layout.num_ghosts
        self.agentPositions = [(True, self.positions[layout.pacman_start])] + [
            (False, self.positions[cell]) for cell in layout.ghost_starts
        ]

    def getNumGhosts(self) -> int:
        return self.numGhosts

    def isWall(self, position: Position) -> bool:
        x, y = position
        return self.walls[x][y]

    def grid_of(self, mask: int) -> Grid:
        """The cells of a bitmask as a grid."""
        grid = Grid(self.width, self.height)
        for cell in _bits(mask):
            x, y = self.positions[cell]
            grid[x][y] = True
        return grid

    def capsule_list(self, mask: int) -> list[Position]:
        """Capsule positions in CS188's order: bottom row first, left to right."""
        return sorted((self.positions[cell] for cell in _bits(mask)), key=lambda position: (position[1], position[0]))


_course_layouts: weakref.WeakKeyDictionary[Layout, CourseLayout] = weakref.WeakKeyDictionary()


def course_layout(layout: Layout) -> CourseLayout:
    """The CS188 view of ``layout``, built on first use and shared by every state on it."""
    view = _course_layouts.get(layout)
    if view is None:
        view = CourseLayout(layout)
        _course_layouts[layout] = view
    return view


class SuccessorCounter:
    """Counts ``generateSuccessor`` calls: the nodes a course agent generated."""

    __slots__ = ("count",)

    def __init__(self) -> None:
        self.count = 0


class Cs188GameState:
    """CS188's ``GameState`` over a pacsim state (see the module docstring).

    Equal, and hashed alike, exactly when the wrapped pacsim states are.
    """

    __slots__ = ("_course", "_food", "_ghost_states", "counter", "state")

    def __init__(self, state: GameState, counter: SuccessorCounter | None = None, course: CourseLayout | None = None) -> None:
        self.state = state
        """The wrapped pacsim state."""
        self.counter = counter if counter is not None else SuccessorCounter()
        self._course = course if course is not None else course_layout(state.layout)
        self._food: Grid | None = None
        self._ghost_states: list[AgentState] | None = None

    # -- moves -----------------------------------------------------------------
    def getLegalActions(self, agentIndex: int = 0) -> list[str]:
        """Legal actions of agent ``agentIndex`` in CS188's order (North, South,
        East, West, Stop); none once the game is over."""
        self._check_index(agentIndex)
        state = self.state
        if state.turn != agentIndex:
            state = state._replace(turn=agentIndex)
        return state.legal_actions()

    def getLegalPacmanActions(self) -> list[str]:
        return self.getLegalActions(0)

    def generateSuccessor(self, agentIndex: int, action: str) -> Cs188GameState:
        """The state after agent ``agentIndex`` plays ``action``.  Raises
        :class:`pacsim.errors.IllegalActionError` for an illegal action or
        a finished game, as CS188 raises."""
        self._check_index(agentIndex)
        state = self.state
        if state.turn != agentIndex:
            state = state._replace(turn=agentIndex)
        self.counter.count += 1
        return Cs188GameState(state.successor(action), self.counter, self._course)

    def generatePacmanSuccessor(self, action: str) -> Cs188GameState:
        return self.generateSuccessor(0, action)

    # -- the game --------------------------------------------------------------
    def getNumAgents(self) -> int:
        return self.state.num_agents

    def isWin(self) -> bool:
        return self.state.is_win()

    def isLose(self) -> bool:
        return self.state.is_lose()

    def getScore(self) -> float:
        return float(self.state.score)

    # -- agents ----------------------------------------------------------------
    def getPacmanPosition(self) -> Position:
        return self._course.positions[self.state.pacman]

    def getPacmanState(self) -> AgentState:
        return self._agent_state(0)

    def getGhostPositions(self) -> list[Position]:
        positions = self._course.positions
        return [positions[cell] for cell in self.state.ghosts]

    def getGhostPosition(self, agentIndex: int) -> Position:
        self._check_ghost_index(agentIndex)
        return self._course.positions[self.state.ghosts[agentIndex - 1]]

    def getGhostStates(self) -> list[AgentState]:
        if self._ghost_states is None:
            self._ghost_states = [self._agent_state(agent) for agent in range(1, self.state.num_agents)]
        return self._ghost_states

    def getGhostState(self, agentIndex: int) -> AgentState:
        self._check_ghost_index(agentIndex)
        return self.getGhostStates()[agentIndex - 1]

    # -- the maze --------------------------------------------------------------
    def getFood(self) -> Grid:
        """Food as a grid indexed ``[x][y]`` (built once per state)."""
        if self._food is None:
            self._food = self._course.grid_of(self.state.food)
        return self._food

    def getWalls(self) -> Grid:
        """Walls as a grid indexed ``[x][y]`` (one grid per layout, shared as in CS188)."""
        return self._course.walls

    def getCapsules(self) -> list[Position]:
        return self._course.capsule_list(self.state.capsules)

    def hasFood(self, x: int, y: int) -> bool:
        cell = self._course.cell_at.get((x, y))
        return cell is not None and self.state.has_food(cell)

    def hasWall(self, x: int, y: int) -> bool:
        return self._course.walls[x][y]

    def getNumFood(self) -> int:
        return self.state.food_count

    @property
    def data(self) -> StateData:
        """CS188's ``state.data``: ``layout``, ``agentStates``, ``food``, ``capsules``, ``score``."""
        return StateData(self)

    # -- Python ------------------------------------------------------------------
    def deepCopy(self) -> Cs188GameState:
        return self  # immutable: a copy would be the same state

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Cs188GameState) and self.state == other.state

    def __hash__(self) -> int:
        return hash(self.state)

    def __str__(self) -> str:
        return f"{self.state.to_text()}\nScore: {self.state.score}"

    def __repr__(self) -> str:
        return f"Cs188GameState({self.state!r})"

    # -- helpers -----------------------------------------------------------------
    def _agent_state(self, agent: int) -> AgentState:
        state, positions = self.state, self._course.positions
        if agent == 0:
            start_cell, cell, timer = state.layout.pacman_start, state.pacman, 0
        else:
            start_cell, cell, timer = state.layout.ghost_starts[agent - 1], state.ghosts[agent - 1], state.scared[agent - 1]
        start = Configuration(positions[start_cell], STOP)
        configuration = Configuration(positions[cell], ACTIONS[state.directions[agent]])
        return AgentState(start, configuration, agent == 0, timer)

    def _check_index(self, agentIndex: int) -> None:
        if not 0 <= agentIndex < self.state.num_agents:
            raise IndexError(f"agent index {agentIndex} out of range: this game has {self.state.num_agents} agents")

    def _check_ghost_index(self, agentIndex: int) -> None:
        if not 1 <= agentIndex < self.state.num_agents:
            raise IndexError(f"ghost index {agentIndex} out of range: ghosts are 1..{self.state.num_agents - 1}")


class StateData:
    """The parts of CS188's ``GameStateData`` course code reaches into."""

    def __init__(self, view: Cs188GameState) -> None:
        self.layout = view._course
        self.agentStates = [view.getPacmanState(), *view.getGhostStates()]
        self.food = view.getFood()
        self.capsules = view.getCapsules()
        self.score = view.state.score
        self._win = view.isWin()
        self._lose = view.isLose()


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def distribution_items(distribution: Any) -> list[tuple[str, float]]:
    """A course ghost's ``getDistribution`` result (a ``util.Counter``, any
    mapping, or (action, probability) pairs) as pairs."""
    if hasattr(distribution, "items"):
        return [(action, float(probability)) for action, probability in distribution.items()]
    return [(action, float(probability)) for action, probability in distribution]
