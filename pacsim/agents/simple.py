"""Pacman agents for tests, demos and people: random, greedy, keyboard."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from pacsim.agents.api import Agent, Distribution, StochasticAgent, uniform
from pacsim.engine import STOP, GameState
from pacsim.engine.game import PlayerStopped
from pacsim.errors import AgentError


class RandomPacman(StochasticAgent):
    """Uniform over the legal moves, Stop included."""

    name = "random"

    def distribution(self, state: GameState) -> Distribution:
        return uniform(state.legal_actions())


@dataclass(frozen=True)
class GreedyOptions:
    """Options of the greedy Pacman."""

    margin: int = 1
    """Maze distance to a non-scared ghost that counts as unsafe (0 to 100)."""

    def __post_init__(self) -> None:
        if not 0 <= self.margin <= 100:
            raise AgentError(f"option margin={self.margin!r} must be in [0, 100]", option="margin")


class GreedyPacman(Agent[GreedyOptions]):
    """Steps toward the nearest food by maze distance, never onto a cell
    next to a non-scared ghost while a safer move exists."""

    name = "greedy"
    Options = GreedyOptions

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
            unsafe = ghost_distance <= self.options.margin
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

    def __init__(self, options: object = None) -> None:
        super().__init__(options)
        self.keys: Callable[[], str | None] = _terminal_keys
        """Where the pressed direction comes from (the window replaces it)."""
        self.wait_for_key: Callable[[], None] | None = None
        """Called before the first move until a key is pressed (the window's;
        the terminal's ``input()`` waits by itself)."""
        self.held = STOP
        self.started = False

    def reset(self, index: int, rng: random.Random) -> None:
        super().reset(index, rng)
        self.held = STOP
        self.started = False

    def get_action(self, state: GameState) -> str:
        if not self.started and self.wait_for_key is not None:
            self.wait_for_key()  # the game starts when the person does, not before
        self.started = True
        legal = state.legal_actions()
        pressed = self.keys()
        if pressed in legal:
            self.held = pressed
            return pressed
        return self.held if self.held in legal else STOP


_TERMINAL_KEYS = {"w": "North", "s": "South", "d": "East", "a": "West", "": None, " ": STOP}


class KeyboardInputEnded(PlayerStopped):
    """The terminal's input ended (Ctrl-D) during a keyboard game: the
    person stopped playing, not the agent's error: it ends the game loop,
    and ``play`` says it in one line."""


KEYBOARD_NEEDS = "keyboard play needs a terminal (w/a/s/d then Enter) or a window (--window)"


def _terminal_keys() -> str | None:
    """Without a window: read w/a/s/d then Enter (Enter alone keeps going)."""
    try:
        line = input("move (w/a/s/d, Enter keeps going): ")
    except EOFError:  # Ctrl-D, or a pipe or file that ran out: the person is done, as closing a window says
        raise KeyboardInputEnded() from None
    return _TERMINAL_KEYS.get(line.strip().lower()[:1])
