"""pacsim's own reflex baseline team: one agent attacks, one defends.

Each move, each agent scores every legal move by a weighted sum of
features of the successor and plays the best (ties broken by the team's
stream).  The attacker wants less food left on the other side and the
nearest of it close; the defender stays home, counts the invaders it can
see and closes on the nearest, and dislikes stopping and turning back.
Written over pacsim's state directly (no course API in between).

Speed (the bench's own-baseline figure): a move that only moves the agent
(:func:`~pacsim.engine.capture.state.plain_step`: nothing eaten, returned or
met) leaves every feature but the agent's cell and side as they were, so
those successors are scored without being built; the others go through
:func:`~pacsim.engine.capture.state.apply_move`.  Both give the same scores,
so the same moves and games.
"""

from __future__ import annotations

import random

from pacsim.engine.capture.game import CaptureTeam
from pacsim.engine.capture.layout import is_red, opponents_of
from pacsim.engine.capture.observation import CaptureView
from pacsim.engine.capture.state import UNSEEN, CaptureState, apply_move, plain_step
from pacsim.engine.layout import ACTIONS, REVERSE, STOP
from pacsim.engine.state import mask_cells

ATTACK = {"food_left": -100, "food_distance": -1}
DEFEND = {"home": 100, "invaders": -1000, "invader_distance": -10, "stop": -100, "reverse": -2}


class BaselineTeam(CaptureTeam):
    """The first agent attacks, the second defends."""

    name = "baseline"

    def __init__(self, is_red_team: bool) -> None:
        self.attacker = 0 if is_red_team else 1
        self.rng = random.Random(0)
        self.food_cells: dict[int, list[int]] = {}
        """The cells of each food bitmask seen this game (food changes a few dozen times a game)."""

    def prepare(self, rng: random.Random) -> None:
        self.rng = rng
        self.food_cells = {}

    def cells_of(self, food: int) -> list[int]:
        cells = self.food_cells.get(food)
        if cells is None:
            cells = self.food_cells[food] = mask_cells(food)
        return cells

    def act(self, index: int, view: CaptureView) -> str:
        state = view.state
        if index == self.attacker:
            food = self.cells_of(state.food_of(not is_red(index)))  # once a move, not once a successor
            scored = [(_attack(state, index, action, target, food), action) for action, target in state.legal_moves(index)]
        else:
            scored = [(_defend(state, index, action, target), action) for action, target in state.legal_moves(index)]
        best = max(scored)[0]
        return self.rng.choice([action for score, action in scored if score == best])


def _attack(state: CaptureState, index: int, action: str, target: int, food_before: list[int]) -> int:
    """Less food left across the middle, and the nearest of it close (``food_before``: its cells before the move)."""
    if plain_step(state, index, target):  # the food stays; only the distances change
        distances = state.layout.maze.distances_from(target)
        nearest = min(map(distances.__getitem__, food_before), default=0)
        return ATTACK["food_left"] * len(food_before) + ATTACK["food_distance"] * nearest
    after = apply_move(state, index, action, target)
    food = after.food_of(not is_red(index))
    if food == state.food_of(not is_red(index)):
        cells = food_before
    else:  # eaten, or dropped back by a caught Pacman
        cells = mask_cells(food)
    distances = after.layout.maze.distances_from(after.positions[index])
    nearest = min(map(distances.__getitem__, cells), default=0)
    return ATTACK["food_left"] * food.bit_count() + ATTACK["food_distance"] * nearest


def _defend(state: CaptureState, index: int, action: str, target: int) -> int:
    """At home, few invaders in sight and the nearest of them close; no stopping or turning back."""
    if plain_step(state, index, target):  # the opponents stay as they were; only this agent moves
        positions, pacman, here, home = state.positions, state.pacman, target, state.layout.is_home(index, target)
    else:
        after = apply_move(state, index, action, target)
        positions, pacman, here, home = after.positions, after.pacman, after.positions[index], not after.pacman[index]
    invaders = [positions[other] for other in opponents_of(index) if pacman[other] and positions[other] != UNSEEN]
    distances = state.layout.maze.distances_from(here)
    value = DEFEND["invaders"] * len(invaders) + DEFEND["invader_distance"] * min(map(distances.__getitem__, invaders), default=0)
    if home:
        value += DEFEND["home"]
    if action == STOP:
        value += DEFEND["stop"]
    elif action == REVERSE[ACTIONS[state.directions[index]]]:
        value += DEFEND["reverse"]
    return value
