"""The random ghost, in a module of its own: the default ghost of every game
(``-g random``, CS188's ``RandomGhost``) starts without the other ghosts'
policies, options and searches (:mod:`pacsim.agents.ghosts`, which re-exports it)."""

from __future__ import annotations

from pacsim.agents.api import Distribution, StochasticAgent, uniform
from pacsim.engine import GameState


class RandomGhost(StochasticAgent):
    """Uniform over the legal moves."""

    name = "random"
    kernel_plays = True

    def distribution(self, state: GameState) -> Distribution:
        return uniform(state.legal_actions())
