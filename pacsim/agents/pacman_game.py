"""A Pacman position as a game of :mod:`pacsim.search`: the tree the search Pacmen and MCTS search.

:class:`PacmanGame` presents a Pacman state to the game-agnostic search as a
MAX/MIN/CHANCE game: Pacman is MAX, each ghost MIN or CHANCE as the searching
agent assumes (the ghosts really playing have nothing to do with it), a
CHANCE ghost moving by a model's distribution mixed with uniform by
``trust``.  :class:`SlipperyPacmanGame` adds a CHANCE node after Pacman's
choice: with probability ``slip`` the move fails and he stops or goes sideways.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, NamedTuple

from pacsim.engine import PLAYING, GameState, apply_move
from pacsim.engine.layout import ACTIONS, DIRECTION_INDEX
from pacsim.errors import AgentError
from pacsim.fast.policies import pacman_move_rows, slip_outcomes
from pacsim.search import CHANCE, MAX


class PacmanGame:
    """A Pacman state as a :class:`pacsim.search.Game`.

    Actions at MAX and MIN nodes are ``(action, target cell)`` pairs taken
    straight from the layout's move tables, so a successor is one tuple.
    """

    def __init__(self, kinds: tuple[str, ...], models: tuple[Any, ...] = (), trust: float = 1.0) -> None:
        self.kinds = (MAX, *kinds)
        """Node type by agent index: MAX for Pacman, then each ghost's."""
        self.models = models
        """Per ghost: an agent with ``distribution(state)``, or None for uniform."""
        self.trust = trust

    # Positions are typed Any: the search protocol takes any hashable value.
    def to_move(self, state: Any) -> str:
        return self.kinds[state.turn]

    def actions(self, state: Any) -> Any:
        return state.legal_moves()

    def result(self, state: Any, move: Any) -> Any:
        return apply_move(state, move[0], move[1])

    def outcomes(self, state: Any) -> list[tuple[float, Any]]:
        moves = state.legal_moves()
        model = self.models[state.turn - 1] if self.models else None
        if model is None:
            share = 1.0 / len(moves)
            return [(share, apply_move(state, action, target)) for action, target in moves]
        probabilities = dict(model.distribution(state))
        uniform_share = (1.0 - self.trust) / len(moves)
        return [
            (self.trust * probabilities.get(action, 0.0) + uniform_share, apply_move(state, action, target))
            for action, target in moves
        ]

    def is_terminal(self, state: Any) -> bool:
        return state.status != PLAYING

    def utility(self, state: Any) -> float:
        return state.score


class Intent(NamedTuple):
    """A slippery Pacman's chosen move before the floor decides: a CHANCE node."""

    state: GameState
    action: str


class SlipperyPacmanGame(PacmanGame):
    """Pacman's move goes through a CHANCE node: with probability ``slip`` it
    fails and Pacman stops or steps sideways instead (shared equally)."""

    def __init__(self, kinds: tuple[str, ...], models: tuple[Any, ...] = (), trust: float = 1.0, slip: float = 0.0) -> None:
        super().__init__(kinds, models, trust)
        self.slip = slip

    def to_move(self, node: Any) -> str:
        if type(node) is Intent:
            return CHANCE
        return self.kinds[node.turn]

    def actions(self, state: Any) -> Any:
        if state.turn == 0:
            return [action for action, _ in state.legal_moves()]
        return state.legal_moves()

    def result(self, state: Any, move: Any) -> Any:
        if state.turn == 0:
            return Intent(state, move)
        return apply_move(state, move[0], move[1])

    def outcomes(self, node: Any) -> list[tuple[float, Any]]:
        if type(node) is not Intent:
            return super().outcomes(node)
        return [(probability, apply_move(node.state, action, target))
                for probability, action, target in self.slips(node.state, node.action)]

    def slips(self, state: GameState, chosen: str) -> list[tuple[float, str, int]]:
        """(probability, action, target) of what Pacman really does
        (:func:`pacsim.fast.policies.slip_outcomes`, the kernel's rule too)."""
        row = pacman_move_rows(state.layout)[state.pacman]
        actions, targets, probabilities = [0] * 5, [0] * 5, [0.0] * 5
        count = slip_outcomes(row, self.slip, DIRECTION_INDEX[chosen], actions, targets, probabilities)
        return [(probabilities[index], ACTIONS[actions[index]], targets[index]) for index in range(count)]

    def is_terminal(self, node: Any) -> bool:
        return type(node) is not Intent and node.status != PLAYING

    def utility(self, node: Any) -> float:
        return node.score


class ModelGhosts:
    """The ghosts a searching Pacman models (``model=``), made by ``maker``
    once per ghost count and reset with their index: their random streams are
    never used, only their distributions are, and a ghost that remembers
    positions (the adversarial one) keeps what it learnt between moves."""

    def __init__(self, spec: str, maker: Callable[[], Any] | None) -> None:
        if spec != "uniform" and maker is None:
            raise AgentError(f"option model={spec!r}: this agent needs a maker of that ghost (make_pacman passes one)", option="model")
        self.maker = None if spec == "uniform" else maker
        self._made: dict[int, tuple[Any, ...]] = {}

    def for_ghosts(self, ghosts: int) -> tuple[Any, ...]:
        """Per ghost, its model (None: uniform)."""
        if self.maker is None:
            return (None,) * ghosts
        made = self._made.get(ghosts)
        if made is None:
            made = tuple(self.maker() for _ in range(ghosts))
            for index, model in enumerate(made, start=1):
                model.reset(index, random.Random(index))
            self._made[ghosts] = made
        return made
