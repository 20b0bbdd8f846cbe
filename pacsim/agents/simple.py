"""Pacman agents for tests, demos and people: random, greedy, keyboard."""

from __future__ import annotations

from collections.abc import Callable

from pacsim.agents.base import Agent, Distribution, StochasticAgent, uniform
from pacsim.engine import STOP, GameState


class RandomPacman(StochasticAgent):
    """Uniform over the legal moves, Stop included."""

    name = "random"

    def distribution(self, state: GameState) -> Distribution:
        return uniform(state.legal_actions())


class GreedyPacman(Agent):
    """Steps toward the nearest food by maze distance, never onto a cell
    next to a non-scared ghost while a safer move exists."""

    name = "greedy"

    def __init__(self, margin: int = 1) -> None:
        super().__init__()
        self.margin = margin

    def get_action(self, state: GameState) -> str:
        layout = state.layout
        food = state.food_cells()
        danger = [
            layout.distances_from(cell)
            for cell, timer in zip(state.ghosts, state.scared)
            if not timer
        ]
        best_action, best_key = STOP, None
        for action, target in state.legal_moves():
            ghost_distance = min((row[target] for row in danger), default=1 << 20)
            unsafe = ghost_distance <= self.margin
            to_food = min(layout.distances_from(target)[cell] for cell in food)
            key = (unsafe, -ghost_distance if unsafe else 0, to_food, action == STOP)
            if best_key is None or key < best_key:
                best_action, best_key = action, key
        return best_action


class KeyboardPacman(Agent):
    """A person's Pacman.  ``keys`` returns the last direction pressed (or
    None); the window supplies it.  The last pressed direction is held while
    it stays legal, as in the arcade game."""

    name = "keyboard"

    def __init__(self, keys: Callable[[], str | None] | None = None) -> None:
        super().__init__()
        self.keys = keys or _terminal_keys
        self.held = STOP

    def get_action(self, state: GameState) -> str:
        legal = state.legal_actions()
        pressed = self.keys()
        if pressed in legal:
            self.held = pressed
            return pressed
        return self.held if self.held in legal else STOP


_TERMINAL_KEYS = {"w": "North", "s": "South", "d": "East", "a": "West", "": None, " ": STOP}


def _terminal_keys() -> str | None:
    """Without a window: read w/a/s/d then Enter (Enter alone keeps going)."""
    return _TERMINAL_KEYS.get(input("move (w/a/s/d, Enter keeps going): ").strip().lower()[:1])


PACMEN = {agent.name: agent for agent in (RandomPacman, GreedyPacman, KeyboardPacman)}
