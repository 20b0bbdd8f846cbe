"""Capture-the-flag states and the course's rules.

A :class:`CaptureState` is an immutable, hashable tuple of small ints and
tuples over a shared :class:`~pacsim.engine.capture.layout.CaptureLayout`,
like the classic :class:`~pacsim.engine.state.GameState`.

The rules (UC Berkeley CS188's contest, ``capture.py``):

* Four agents move in turn, ``first`` (red 0 or blue 1) then in index
  order, cycling; any agent may Stop.  An agent on its own half is a ghost,
  across the middle a Pacman.
* A Pacman eats the food and capsules of the other half.  Food is carried
  (credited to the first team member, in index order, standing on that
  cell) and counts only when its carrier steps back onto its own half: the
  score moves by the food returned, up for red, down for blue.
* A capsule scares the eater's opponents for ``SCARED_TIME`` of their own
  moves (each agent's timer counts down when it moves).
* A Pacman and a non-scared opposing ghost on one cell: the Pacman goes back
  to its start and its carried food is dropped on the nearest free cells of
  that half (the course's order: breadth first over the eight neighbours).
  A scared ghost met by a Pacman goes back to its start instead.
* The game ends when a team has returned all but ``MIN_FOOD`` of the other
  side's food (the course's ``TOTAL_FOOD / 2 - MIN_FOOD``, ``TOTAL_FOOD``
  counting both halves), or after ``max_moves`` moves of any agent (1,200:
  300 each); the higher score wins.  A crash or a forfeit loses (the game
  loop's business: :mod:`pacsim.engine.capture.game`).

A state handed to an agent (:mod:`pacsim.engine.capture.observation`) holds
:data:`UNSEEN` for the cells of the opponents it cannot see; the rules skip
such agents (no collision with them, no legal moves for them), as the
course's do for an observation's missing positions.
"""

from __future__ import annotations

from collections import deque
from typing import NamedTuple

from pacsim.engine.capture.layout import NUM_AGENTS, CaptureLayout, is_red, opponents_of, team_of
from pacsim.engine.layout import DIRECTION_INDEX, STOP, Move
from pacsim.engine.state import mask_cells
from pacsim.errors import IllegalActionError

SCARED_TIME = 40
MAX_MOVES = 1200
"""The course's game length: moves of any agent (300 each)."""
UNSEEN = -1
"""The cell of an opponent an agent cannot see, in the state it is handed."""
_STOP_INDEX = DIRECTION_INDEX[STOP]


class CaptureState(NamedTuple):
    """A capture position: where the four agents stand and what they carry."""

    layout: CaptureLayout
    """The maze (compared by identity)."""
    positions: tuple[int, ...]
    """Each agent's cell (:data:`UNSEEN` in an agent's view of an opponent it cannot see)."""
    directions: tuple[int, ...]
    """Index into ACTIONS of each agent's last move (Stop after a return to start)."""
    pacman: tuple[bool, ...]
    """Whether each agent is a Pacman (across the middle)."""
    scared: tuple[int, ...]
    """Each agent's remaining scared moves."""
    carrying: tuple[int, ...]
    """Food each agent carries, not yet returned."""
    returned: tuple[int, ...]
    """Food each agent has brought home."""
    food: int
    """Bitmask over cell numbers of the food left (both halves)."""
    capsules: int
    """Bitmask over cell numbers of the capsules left (both halves)."""
    score: int
    """Red's returned food minus blue's (a crash sets it as the course does: the game loop)."""
    turn: int
    """The agent to move next."""
    moves_left: int
    """Moves (of any agent) before the game ends on time."""
    over: bool
    """Whether the game has ended (on food or on time)."""

    def __str__(self) -> str:
        """One line for a search tree's node: who moves, the score, the agents' ``(x, y)`` and their loads."""
        cells = ", ".join("unseen" if cell == UNSEEN else str(self.layout.xy(cell)) for cell in self.positions)
        return (f"agent {self.turn} to move, score {self.score}; agents at {cells}; carrying {list(self.carrying)}; "
                f"food left {self.food.bit_count()}")

    # -- queries -------------------------------------------------------------
    @property
    def is_terminal(self) -> bool:
        return self.over

    def team_returned(self, red: bool) -> int:
        """The food a team has brought home."""
        agents = (0, 2) if red else (1, 3)
        return sum(self.returned[agent] for agent in agents)

    def food_cells(self) -> list[int]:
        return mask_cells(self.food)

    def capsule_cells(self) -> list[int]:
        return mask_cells(self.capsules)

    def food_of(self, red: bool) -> int:
        """Bitmask of the food on a team's half (the food it defends)."""
        red_cells = self.layout.red_cells
        return self.food & red_cells if red else self.food & ~red_cells

    def capsules_of(self, red: bool) -> int:
        """Bitmask of the capsules on a team's half."""
        red_cells = self.layout.red_cells
        return self.capsules & red_cells if red else self.capsules & ~red_cells

    def distance(self, a: int, b: int) -> int:
        """Maze distance between two cells."""
        return self.layout.maze.distances_from(a)[b]

    def legal_moves(self, agent: int | None = None) -> tuple[Move, ...]:
        """(action, target cell) pairs of ``agent`` (default: the agent to
        move), North, South, East, West, Stop, as the course lists them; none
        for an agent whose cell is unseen.  Legal after the end too: an
        agent's search may look past it, as in the course."""
        cell = self.positions[self.turn if agent is None else agent]
        if cell == UNSEEN:
            return ()
        return self.layout.maze.pacman_moves[cell]

    def legal_actions(self, agent: int | None = None) -> list[str]:
        return [action for action, _ in self.legal_moves(agent)]

    def successor(self, action: str, agent: int | None = None) -> CaptureState:
        """The state after ``agent`` (default: the agent to move) plays ``action`` (checked)."""
        agent = self.turn if agent is None else agent
        for legal, target in self.legal_moves(agent):
            if legal == action:
                return apply_move(self, agent, action, target)
        raise IllegalActionError(f"{action!r} is not legal for agent {agent}; legal: {self.legal_actions(agent)}")

    def to_text(self) -> str:
        """The board as text: walls ``%``, food ``.``, capsules ``o``, agents
        by index (a Pacman's digit, a ghost as ``r``/``b`` and the index, shown one character: the index)."""
        maze = self.layout.maze
        grid = [[" "] * maze.width for _ in range(maze.height)]
        for row, column in maze.walls:
            grid[row][column] = "%"
        for cell in self.food_cells():
            row, column = maze.cells[cell]
            grid[row][column] = "."
        for cell in self.capsule_cells():
            row, column = maze.cells[cell]
            grid[row][column] = "o"
        for agent, cell in enumerate(self.positions):
            if cell != UNSEEN:
                row, column = maze.cells[cell]
                grid[row][column] = str(agent)
        return "\n".join("".join(line) for line in grid)


def initial_state(layout: CaptureLayout, first: int = 0, max_moves: int = MAX_MOVES) -> CaptureState:
    """The start of a game; ``first`` (0: red, 1: blue) moves first."""
    return CaptureState(
        layout=layout,
        positions=layout.starts,
        directions=(_STOP_INDEX,) * NUM_AGENTS,
        pacman=(False,) * NUM_AGENTS,
        scared=(0,) * NUM_AGENTS,
        carrying=(0,) * NUM_AGENTS,
        returned=(0,) * NUM_AGENTS,
        food=layout.maze.food,
        capsules=layout.maze.capsules,
        score=0,
        turn=first,
        moves_left=max_moves,
        over=False,
    )


class _Board:
    """The mutable working copy of one move (lists), made back into a state at the end."""

    __slots__ = ("capsules", "carrying", "directions", "food", "over", "pacman", "positions", "returned", "scared", "score")

    def __init__(self, state: CaptureState) -> None:
        self.positions = list(state.positions)
        self.directions = list(state.directions)
        self.pacman = list(state.pacman)
        self.scared = list(state.scared)
        self.carrying = list(state.carrying)
        self.returned = list(state.returned)
        self.food, self.capsules, self.score, self.over = state.food, state.capsules, state.score, state.over


def apply_move(state: CaptureState, agent: int, action: str, target: int) -> CaptureState:
    """The state after ``agent`` goes to ``target`` by ``action``, in the
    course's order: move, change sides (returning carried food), eat,
    collide, count down the mover's scared timer.

    Unchecked fast path for search: ``(action, target)`` must come from
    ``state.legal_moves(agent)``."""
    layout = state.layout
    if plain_step(state, agent, target):
        return _stepped(state, agent, action, target)
    board = _Board(state)
    board.positions[agent] = target
    board.directions[agent] = DIRECTION_INDEX[action]
    home = layout.is_home(agent, target)
    board.pacman[agent] = not home
    if home and board.carrying[agent]:
        _return_food(layout, board, agent)
    if not home:
        _eat(layout, board, agent, target)
    _collide(layout, board, agent)
    board.scared[agent] = max(0, board.scared[agent] - 1)
    moves_left = state.moves_left - 1
    over = board.over or moves_left <= 0
    return CaptureState(layout, tuple(board.positions), tuple(board.directions), tuple(board.pacman),
                        tuple(board.scared), tuple(board.carrying), tuple(board.returned), board.food,
                        board.capsules, board.score, (agent + 1) % NUM_AGENTS, moves_left, over)


def plain_step(state: CaptureState, agent: int, target: int) -> bool:
    """Whether the move only moves the agent: nothing eaten or returned, no opponent on the target
    (then the state after it differs only in the agent's cell, direction, side and scared timer)."""
    positions = state.positions
    first, second = opponents_of(agent)
    if positions[first] == target or positions[second] == target:
        return False
    if (state.layout.home_cells[agent] >> target) & 1:  # is_home, inline: asked for every successor searched
        return not state.carrying[agent]
    return not ((state.food | state.capsules) >> target) & 1


def _stepped(state: CaptureState, agent: int, action: str, target: int) -> CaptureState:
    """:func:`apply_move` of a plain step (see :func:`plain_step`), without the working copy."""
    after = agent + 1
    pacman = not state.layout.is_home(agent, target)
    scared = state.scared
    if scared[agent]:
        scared = scared[:agent] + (scared[agent] - 1,) + scared[after:]
    moves_left = state.moves_left - 1
    return CaptureState(state.layout, state.positions[:agent] + (target,) + state.positions[after:],
                        state.directions[:agent] + (DIRECTION_INDEX[action],) + state.directions[after:],
                        state.pacman[:agent] + (pacman,) + state.pacman[after:], scared, state.carrying, state.returned,
                        state.food, state.capsules, state.score, after % NUM_AGENTS, moves_left, state.over or moves_left <= 0)


def _return_food(layout: CaptureLayout, board: _Board, agent: int) -> None:
    carried = board.carrying[agent]
    board.score += carried if is_red(agent) else -carried
    board.returned[agent] += carried
    board.carrying[agent] = 0
    if any(layout.wins_with(sum(board.returned[member] for member in team)) for team in ((0, 2), (1, 3))):
        board.over = True


def _eat(layout: CaptureLayout, board: _Board, agent: int, cell: int) -> None:
    bit = 1 << cell
    if board.food & bit:
        board.food ^= bit
        # The course credits the first team member (by index) on the cell.
        carrier = next(member for member in team_of(agent) if board.positions[member] == cell)
        board.carrying[carrier] += 1
    if board.capsules & bit:
        board.capsules ^= bit
        for opponent in opponents_of(agent):
            board.scared[opponent] = SCARED_TIME


def _collide(layout: CaptureLayout, board: _Board, agent: int) -> None:
    """The course's ``checkDeath``: the mover against each opponent in index
    order, positions as they change along the way; whether the mover meets
    ghosts or Pacmen is decided once, before the loop, as there."""
    mover_is_pacman = board.pacman[agent]
    for other in opponents_of(agent):
        if board.pacman[other] == mover_is_pacman or board.positions[other] == UNSEEN:
            continue
        if board.positions[other] != board.positions[agent]:
            continue
        pacman, ghost = (agent, other) if mover_is_pacman else (other, agent)
        if board.scared[ghost] > 0:
            _send_home(layout, board, ghost)
        else:
            _drop_food(layout, board, pacman)
            _send_home(layout, board, pacman)


def _send_home(layout: CaptureLayout, board: _Board, agent: int) -> None:
    board.pacman[agent] = False
    board.positions[agent] = layout.starts[agent]
    board.directions[agent] = _STOP_INDEX
    board.scared[agent] = 0


def _drop_food(layout: CaptureLayout, board: _Board, pacman: int) -> None:
    """The caught Pacman's food, on the nearest free cells of the half where
    it was caught: the course's breadth-first walk over the eight
    neighbours, in its order (x then y, each -1, 0, 1), over the plane."""
    to_drop = board.carrying[pacman]
    if not to_drop:
        return
    board.carrying[pacman] = 0
    origin = layout.xy(board.positions[pacman])
    red_half = layout.on_red_side(board.positions[pacman])
    reach = max(layout.width, layout.height)  # no cell of the maze is farther: the walk can stop there
    queue, seen = deque([origin]), set()
    while to_drop and queue:
        x, y = queue.popleft()
        if (x, y) in seen or max(abs(x - origin[0]), abs(y - origin[1])) > reach:
            continue
        seen.add((x, y))
        cell = _free_cell(layout, board, x, y, red_half)
        if cell is not None:
            board.food |= 1 << cell
            to_drop -= 1
        queue.extend((x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1))


def _free_cell(layout: CaptureLayout, board: _Board, x: int, y: int, red_half: bool) -> int | None:
    """The cell at ``(x, y)`` if the course would drop food there: inside
    the border, open, on the given half, without food, capsule or agent."""
    if x <= 0 or y <= 0 or x >= layout.width or y >= layout.height:
        return None
    cell = layout.cell_at(x, y)
    if cell is None or layout.on_red_side(cell) != red_half:
        return None
    bit = 1 << cell
    if board.food & bit or board.capsules & bit or cell in board.positions:
        return None
    return cell


__all__ = ["CaptureState", "apply_move", "plain_step", "initial_state", "SCARED_TIME", "MAX_MOVES", "UNSEEN"]
