"""What every agent shares: its index and random stream, set before each game."""

from __future__ import annotations

import random

from pacsim.engine import GameState

Distribution = list[tuple[str, float]]
"""(action, probability) pairs over the legal actions."""


class Agent:
    """Base of pacsim's agents.  ``reset`` runs before every game, so one
    agent object can play many games and each is a pure function of its seed."""

    name = "agent"

    def __init__(self) -> None:
        self.index = 0
        self.rng = random.Random(0)
        self.last_stats: dict | None = None

    def reset(self, index: int, rng: random.Random) -> None:
        self.index = index
        self.rng = rng

    def get_action(self, state: GameState) -> str:
        raise NotImplementedError


class StochasticAgent(Agent):
    """An agent defined by its move distribution: a Pacman that models it can
    use the true policy, and sampling uses the agent's own random stream."""

    def distribution(self, state: GameState) -> Distribution:
        raise NotImplementedError

    def get_action(self, state: GameState) -> str:
        return sample(self.distribution(state), self.rng)


def sample(distribution: Distribution, rng: random.Random) -> str:
    """Draw an action; one uniform number per draw, so streams stay aligned."""
    point = rng.random()
    total = 0.0
    for action, probability in distribution:
        total += probability
        if point < total:
            return action
    return distribution[-1][0]


def uniform(actions: list[str]) -> Distribution:
    share = 1.0 / len(actions)
    return [(action, share) for action in actions]
