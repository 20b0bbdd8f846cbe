"""Game states and the classic rules.

A :class:`GameState` is an immutable, hashable tuple of small ints; the
layout it refers to holds every table, so a successor is one tuple and never
a copy of a grid.  The state itself is the transposition-table key.

The rules are CS188's (the README's "Rules" states them for users):

* Each round Pacman moves, then every ghost in order.  Pacman may Stop;
  ghosts may not, and may not reverse unless it is their only move.
* +10 a food, -1 every Pacman move (Stop included), +500 and a win on the
  last food, -500 and a loss when Pacman and a non-scared ghost share a cell.
  Eating the last food wins even if a ghost stands there.  As in CS188,
  the -500 counts once for each non-scared ghost on Pacman's cell.
* A capsule scares every ghost for ``SCARED_TIME`` of its own moves; Pacman
  eating a scared ghost scores +200 and sends it back to its start, unscared.
* The game ends the moment it is won or lost.

One deliberate difference: CS188 moves a scared ghost half a cell a turn and
detects collisions within 0.7 of a cell.  Positions here are cells, so a
scared ghost moves every other turn instead (it waits, keeping its
direction, when its timer is odd).  Without capsules the two engines agree
exactly, move for move and score for score.
"""

from __future__ import annotations

from typing import NamedTuple

from pacsim.engine.layout import ACTIONS, DIRECTION_INDEX, STOP, Layout, Move
from pacsim.errors import IllegalActionError

SCARED_TIME = 40
FOOD_SCORE = 10
TIME_PENALTY = 1
WIN_SCORE = 500
LOSS_SCORE = 500
GHOST_SCORE = 200

PLAYING, WON, LOST = 0, 1, -1
_STOP_INDEX = DIRECTION_INDEX[STOP]
_WAIT: tuple[Move, ...] = ()


class GameState(NamedTuple):
    """A position: whose turn it is and where everything stands.

    Fields are plain ints and tuples of ints; the layout is shared.
    """

    layout: Layout
    """The maze (compared by identity)."""
    pacman: int
    """Pacman's cell."""
    ghosts: tuple[int, ...]
    """Each ghost's cell."""
    directions: tuple[int, ...]
    """Index into ACTIONS of each agent's last move (Pacman first): the
    ghosts' no-reverse rule needs it, the viewer draws it."""
    scared: tuple[int, ...]
    """Each ghost's remaining scared moves (0: not scared)."""
    food: int
    """Bitmask over cell numbers of the food left."""
    capsules: int
    """Bitmask over cell numbers of the capsules left."""
    score: int
    turn: int
    """The agent to move: 0 for Pacman, i for ghost i."""
    status: int
    """PLAYING, WON or LOST."""

    # -- queries -------------------------------------------------------------
    @property
    def num_agents(self) -> int:
        return len(self.ghosts) + 1

    @property
    def is_terminal(self) -> bool:
        return self.status != PLAYING

    def is_win(self) -> bool:
        return self.status == WON

    def is_lose(self) -> bool:
        return self.status == LOST

    @property
    def food_count(self) -> int:
        return self.food.bit_count()

    def has_food(self, cell: int) -> bool:
        return bool((self.food >> cell) & 1)

    def food_cells(self) -> list[int]:
        return mask_cells(self.food)

    def capsule_cells(self) -> list[int]:
        return mask_cells(self.capsules)

    def is_scared(self, ghost: int) -> bool:
        """Whether ghost ``ghost`` (1-based agent index) is scared."""
        return self.scared[ghost - 1] > 0

    def distance(self, a: int, b: int) -> int:
        """Maze distance between two cells."""
        return self.layout.distances_from(a)[b]

    def position(self, cell: int) -> tuple[int, int]:
        """(row, column) of a cell number."""
        return self.layout.cells[cell]

    # -- moves ---------------------------------------------------------------
    def legal_moves(self) -> tuple[Move, ...]:
        """(action, target cell) pairs for the agent to move, in CS188 order."""
        if self.status != PLAYING:
            return ()
        if self.turn == 0:
            return self.layout.pacman_moves[self.pacman]
        return _ghost_moves(self, self.turn)

    def legal_actions(self) -> list[str]:
        """Legal actions of the agent to move (none once the game is over)."""
        return [action for action, _ in self.legal_moves()]

    def successor(self, action: str) -> GameState:
        """The state after the agent to move plays ``action`` (checked)."""
        for legal, target in self.legal_moves():
            if legal == action:
                return apply_move(self, action, target)
        who = "Pacman" if self.turn == 0 else f"ghost {self.turn}"
        if self.status != PLAYING:
            raise IllegalActionError(f"the game is over; {who} cannot play {action!r}")
        raise IllegalActionError(
            f"{action!r} is not legal for {who} at {self.position(self.agent_cell(self.turn))}; "
            f"legal: {self.legal_actions()}"
        )

    def agent_cell(self, agent: int) -> int:
        return self.pacman if agent == 0 else self.ghosts[agent - 1]

    def __repr__(self) -> str:
        return (
            f"GameState(turn={self.turn}, pacman={self.position(self.pacman)}, "
            f"ghosts={[self.position(cell) for cell in self.ghosts]}, scared={list(self.scared)}, "
            f"food={self.food_count}, score={self.score}, status={self.status})"
        )

    def to_text(self) -> str:
        """The board as layout text, like CS188's text display (the symbols: :data:`TEXT_LEGEND`)."""
        layout = self.layout
        grid = [[" "] * layout.width for _ in range(layout.height)]
        for row, column in layout.walls:
            grid[row][column] = "%"
        for cell in self.food_cells():
            row, column = layout.cells[cell]
            grid[row][column] = "."
        for cell in self.capsule_cells():
            row, column = layout.cells[cell]
            grid[row][column] = "o"
        for index, cell in enumerate(self.ghosts):
            row, column = layout.cells[cell]
            grid[row][column] = "S" if self.scared[index] else "G"
        row, column = layout.cells[self.pacman]
        grid[row][column] = "P" if self.status != LOST else "X"
        return "\n".join("".join(line).rstrip() for line in grid)


TEXT_LEGEND = "P Pacman (X: caught)  G ghost (S: scared)  . food  o capsule  % wall"
"""What the symbols of :meth:`GameState.to_text` mean, printed once above a text display."""


def initial_state(layout: Layout, num_ghosts: int | None = None) -> GameState:
    """The start of a game with the first ``num_ghosts`` of the layout's ghosts."""
    ghosts = layout.ghost_starts if num_ghosts is None else layout.ghost_starts[:num_ghosts]
    return GameState(
        layout=layout,
        pacman=layout.pacman_start,
        ghosts=tuple(ghosts),
        directions=(_STOP_INDEX,) * (len(ghosts) + 1),
        scared=(0,) * len(ghosts),
        food=layout.food,
        capsules=layout.capsules,
        score=0,
        turn=0,
        status=PLAYING,
    )


def _ghost_moves(state: GameState, agent: int) -> tuple[Move, ...]:
    index = agent - 1
    timer = state.scared[index]
    if timer and timer & 1:
        # Half speed: a scared ghost waits on odd timer values.
        return ((STOP, state.ghosts[index]),)
    return state.layout.ghost_moves[state.ghosts[index]][state.directions[agent]]


_new = tuple.__new__


def apply_move(state: GameState, action: str, target: int) -> GameState:
    """The successor after the agent to move goes to ``target`` by ``action``.

    Unchecked fast path for search: ``(action, target)`` must come from
    :meth:`GameState.legal_moves` of this state.
    """
    if state.turn == 0:
        return _pacman_moves_to(state, action, target)
    return _ghost_moves_to(state, action, target)


def _pacman_moves_to(state: GameState, action: str, target: int) -> GameState:
    layout, _, ghosts, directions, scared, food, capsules, score, _, status = state
    score -= TIME_PENALTY
    bit = 1 << target
    if food & bit:
        food ^= bit
        score, status = food_eaten(score, food)
    if capsules & bit:
        capsules ^= bit
        scared = (SCARED_TIME,) * len(ghosts)
    if target in ghosts:
        ghosts, directions, scared, score, status = _collide_all(state.layout, target, ghosts, directions, scared, score, status)
    directions = (DIRECTION_INDEX[action],) + directions[1:]
    turn = 1 if ghosts and status == PLAYING else 0
    return _new(GameState, (layout, target, ghosts, directions, scared, food, capsules, score, turn, status))


def _collide_all(layout, cell, ghosts, directions, scared, score, status):
    ghosts, directions, scared = list(ghosts), list(directions), list(scared)
    for index, ghost_cell in enumerate(ghosts):
        if ghost_cell != cell:
            continue
        score, status, eaten = collision(scared[index], score, status)
        if eaten:  # back to its start, unscared
            ghosts[index] = layout.ghost_starts[index]
            directions[index + 1] = _STOP_INDEX
            scared[index] = 0
    return tuple(ghosts), tuple(directions), tuple(scared), score, status


def _ghost_moves_to(state: GameState, action: str, target: int) -> GameState:
    layout, pacman, ghosts, directions, scared, food, capsules, score, turn, status = state
    index = turn - 1
    timer = scared[index]
    if action != STOP:
        directions = directions[:turn] + (DIRECTION_INDEX[action],) + directions[turn + 1:]
    if timer:
        timer -= 1
        scared = scared[:index] + (timer,) + scared[index + 1:]
    ghosts = ghosts[:index] + (target,) + ghosts[index + 1:]
    if target == pacman:
        score, status, eaten = collision(timer, score, status)
        if eaten:  # back to its start, unscared
            ghosts = ghosts[:index] + (layout.ghost_starts[index],) + ghosts[index + 1:]
            directions = directions[:turn] + (_STOP_INDEX,) + directions[turn + 1:]
            scared = scared[:index] + (0,) + scared[index + 1:]
    turn = turn + 1 if turn < len(ghosts) else 0
    return _new(GameState, (layout, pacman, ghosts, directions, scared, food, capsules, score, turn, status))


# The scoring rules, written once: the kernel compiles these (pacsim.fast.policies.compile_rules).

def food_eaten(score: int, left: int) -> tuple[int, int]:
    """The score and status once Pacman eats a food, ``left`` (a count or a
    bitmask) 0 if it was the last: that one wins."""
    score += FOOD_SCORE
    if left == 0:
        return score + WIN_SCORE, WON
    return score, PLAYING


def collision(timer: int, score: int, status: int) -> tuple[int, int, bool]:
    """Pacman and a ghost scared for ``timer`` more moves on one cell: the
    score, the status, and whether the ghost is eaten (the caller sends it
    home); if not, Pacman is caught, unless he has just won."""
    if timer:
        return score + GHOST_SCORE, status, True
    if status != WON:
        return score - LOSS_SCORE, LOST, False
    return score, status, False


RULES = (food_eaten, collision)


def mask_cells(mask: int) -> list[int]:
    """The cells of a bit mask (food, capsules), lowest first, one step per set bit."""
    cells = []
    while mask:
        low = mask & -mask
        cells.append(low.bit_length() - 1)
        mask ^= low
    return cells


__all__ = ["ACTIONS", "GameState", "apply_move", "initial_state", "PLAYING", "WON", "LOST", "SCARED_TIME"]
