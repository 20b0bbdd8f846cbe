"""What the Gymnasium and PettingZoo environments share: the episode (a
state, the ghosts, the move count), the observation array and action masks.

**Actions** are integers indexing :data:`ACTIONS`: 0 North, 1 South, 2 East,
3 West, 4 Stop (CS188's order).  An action that is not legal is *played as
Stop* for Pacman (Stop is always legal for him) and as the first legal
action in that order for a ghost (ghosts may not stop); the legal ones are
``info["action_mask"]`` (1 legal, 0 not), so masked learners never need the
substitution.

**Observation**: a float32 array of shape ``(4 + 2 * ghosts, height,
width)``, values in [0, 1], row 0 the top line of the layout text:

* channel 0: walls; 1: food; 2: capsules; 3: Pacman;
* channel 4 + i: ghost i+1's cell (one channel per ghost, in agent order);
* channel 4 + ghosts + i: ghost i+1's scared timer divided by
  ``SCARED_TIME``, at its cell (0 everywhere when it is not scared).

The raw :class:`~pacsim.engine.GameState` is ``info["state"]``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pacsim import arguments
from pacsim.agents.api import Agent
from pacsim.agents.training import ghost_action
from pacsim.engine import ACTIONS, MAX_MOVES_LIMIT, STOP, GameState, Layout, apply_move, initial_state, load_layout
from pacsim.engine.state import SCARED_TIME
from pacsim.errors import AgentError, PacsimError

FIXED_CHANNELS = 4
"""Walls, food, capsules, Pacman: the channels before the ghosts'."""
ACTION_INDEX = {action: index for index, action in enumerate(ACTIONS)}


class ActionSpaceError(PacsimError, ValueError):
    """An action outside the action space (``2.5``, ``"2"``, ``np.float32(1)``, 7):
    refused, never cast (an action inside it but illegal is played, see above)."""


class EpisodeOverError(PacsimError, RuntimeError):
    """A step after the episode ended: ``reset()`` starts the next one."""


def checked_action(space: Any, action: Any) -> int:
    """``action`` as an index when ``space`` (Gymnasium's ``Discrete``)
    contains it: an integer of any integer type, in range."""
    if not space.contains(action):
        raise ActionSpaceError(f"action {action!r} ({type(action).__name__}) is not in the action space {space}: "
                               f"an integer from 0 to {len(ACTIONS) - 1}")
    return int(action)


def channels(num_ghosts: int) -> int:
    return FIXED_CHANNELS + 2 * num_ghosts


def observation_shape(layout: Layout, num_ghosts: int) -> tuple[int, int, int]:
    return channels(num_ghosts), layout.height, layout.width


@functools.lru_cache(maxsize=64)
def _maze_tables(layout: Layout) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The walls plane and each cell's row and column: the same every step."""
    walls = np.zeros((layout.height, layout.width), dtype=np.float32)
    for row, column in layout.walls:
        walls[row, column] = 1.0
    rows, columns = np.array(layout.cells, dtype=np.intp).reshape(-1, 2).T
    return walls, rows, columns


def encode(state: GameState) -> np.ndarray:
    """The observation array of ``state`` (see the module docstring)."""
    layout = state.layout
    ghosts = len(state.ghosts)
    walls, rows, columns = _maze_tables(layout)
    planes = np.zeros(observation_shape(layout, ghosts), dtype=np.float32)
    planes[0] = walls
    for channel, cells in ((1, state.food_cells()), (2, state.capsule_cells()), (3, [state.pacman])):
        planes[channel, rows[cells], columns[cells]] = 1.0
    ghost_cells = list(state.ghosts)
    ghost_channels = np.arange(ghosts)
    planes[FIXED_CHANNELS + ghost_channels, rows[ghost_cells], columns[ghost_cells]] = 1.0
    planes[FIXED_CHANNELS + ghosts + ghost_channels, rows[ghost_cells], columns[ghost_cells]] = (
        np.array(state.scared, dtype=np.float32) / SCARED_TIME)
    return planes


def action_mask(state: GameState) -> np.ndarray:
    """1 for each legal action of the agent to move, in :data:`ACTIONS` order."""
    mask = np.zeros(len(ACTIONS), dtype=np.int8)
    for action in state.legal_actions():
        mask[ACTION_INDEX[action]] = 1
    return mask


def played_action(state: GameState, action: int) -> tuple[str, int]:
    """The (action, target cell) an action index plays: itself when legal,
    else Stop for Pacman and the first legal action for a ghost."""
    if not 0 <= int(action) < len(ACTIONS):
        raise ValueError(f"action {action!r} is not in 0..{len(ACTIONS) - 1}")
    wanted = ACTIONS[int(action)]
    moves = state.legal_moves()
    for move in moves:
        if move[0] == wanted:
            return move
    if state.turn == 0:
        return next(move for move in moves if move[0] == STOP)
    return moves[0]


@dataclass
class Episode:
    """One game in progress, advanced by actions from outside (unlike
    :func:`pacsim.engine.play_game`, which asks its agents)."""

    layout: Layout
    num_ghosts: int
    max_moves: int
    state: GameState = field(init=False)
    moves: int = 0
    """Pacman moves played."""

    def __post_init__(self) -> None:
        self.max_moves = arguments.integer(self.max_moves, "max_moves", 1, MAX_MOVES_LIMIT)
        self.state = initial_state(self.layout, self.num_ghosts)

    def restart(self) -> None:
        self.state = initial_state(self.layout, self.num_ghosts)
        self.moves = 0

    def play(self, action: int) -> int:
        """Play the agent to move's action index; returns the score change."""
        before = self.state.score
        if self.state.turn == 0:
            self.moves += 1
        self.state = apply_move(self.state, *played_action(self.state, action))
        return self.state.score - before

    @property
    def truncated(self) -> bool:
        """At the move cap, Pacman to move, game not over."""
        return not self.state.is_terminal and self.state.turn == 0 and self.moves >= self.max_moves

    @property
    def over(self) -> bool:
        return self.state.is_terminal or self.truncated


def load_env_layout(layout: str | Layout) -> Layout:
    """A layout object, a shipped name, a ``.lay`` path or a ``generated:`` spec."""
    return layout if isinstance(layout, Layout) else load_layout(layout)


def game_seed(rng: np.random.Generator) -> int:
    """A game seed drawn from the environment's seeded generator."""
    return int(rng.integers(0, 2**31 - 1))


def ghosts_move(episode: Episode, ghosts: list[Agent]) -> int:
    """Every ghost moves, in order, until Pacman's turn or the end; the score change."""
    change = 0
    while not episode.state.is_terminal and episode.state.turn != 0:
        action = ghost_action(ghosts, episode.state, "in the environment")
        if action not in episode.state.legal_actions():
            raise AgentError(f"ghost {episode.state.turn} played illegal action {action!r}; legal: {episode.state.legal_actions()}")
        change += episode.play(ACTION_INDEX[action])
    return change


__all__ = ["ACTIONS", "ActionSpaceError", "EpisodeOverError", "Episode", "checked_action", "encode", "action_mask",
           "played_action"]
