"""Ghost policies.  Each exposes ``distribution(state)``, its true move
probabilities, so that a Pacman modelling the ghosts can use the real policy."""

from __future__ import annotations

from pacsim.agents.base import Distribution, StochasticAgent, uniform
from pacsim.engine import GameState, apply_move
from pacsim.errors import AgentError
from pacsim.fast import check_engine, try_chase_values
from pacsim.search import MAX, MIN, search

CAUGHT_VALUE = 1000
"""The chasing ghosts' utility for catching Pacman (minus for his win)."""


class RandomGhost(StochasticAgent):
    """Uniform over the legal moves."""

    name = "random"

    def distribution(self, state: GameState) -> Distribution:
        return uniform(state.legal_actions())


class DirectionalGhost(StochasticAgent):
    """Prefers moves that approach Pacman (by maze distance) with probability
    ``attack``, or that flee from him with probability ``flee`` while scared;
    the rest of the mass is spread uniformly over all legal moves (as CS188's
    DirectionalGhost, which measures Manhattan distance instead)."""

    name = "directional"

    def __init__(self, attack: float = 0.8, flee: float = 0.8) -> None:
        super().__init__()
        for option, value in (("attack", attack), ("flee", flee)):
            if not 0.0 <= value <= 1.0:
                raise AgentError(f"directional ghost option {option}={value!r} must be a probability in [0, 1]")
        self.attack = attack
        self.flee = flee

    def distribution(self, state: GameState) -> Distribution:
        moves = state.legal_moves()
        distances = state.layout.distances_from(state.pacman)
        scared = state.scared[state.turn - 1] > 0
        keyed = [(-distances[target] if scared else distances[target]) for _, target in moves]
        best_key = min(keyed)
        best = [action for (action, _), key in zip(moves, keyed) if key == best_key]
        focus = self.flee if scared else self.attack
        spread = (1.0 - focus) / len(moves)
        return [
            (action, spread + (focus / len(best) if action in best else 0.0))
            for action, _ in moves
        ]


class ChaseGame:
    """The game as the ghosts see it: ghosts are MAX and chase together,
    Pacman is MIN.  Actions are (action, target) pairs straight from the
    state's move tables, so a successor costs one tuple."""

    def __init__(self, ghost_index: int) -> None:
        self.ghost_index = ghost_index

    def to_move(self, state: GameState):
        return MIN if state.turn == 0 else MAX

    def actions(self, state: GameState):
        return state.legal_moves()

    def result(self, state: GameState, move):
        return apply_move(state, move[0], move[1])

    def outcomes(self, state: GameState):
        raise NotImplementedError("the chase game has no chance nodes")

    def is_terminal(self, state: GameState) -> bool:
        return state.status != 0

    def utility(self, state: GameState) -> float:
        return CAUGHT_VALUE if state.is_lose() else -CAUGHT_VALUE

    def evaluate(self, state: GameState) -> float:
        """Seek Pacman by maze distance; flee while scared."""
        index = self.ghost_index - 1
        distance = state.layout.distances_from(state.pacman)[state.ghosts[index]]
        return distance if state.scared[index] else -distance


class AdversarialGhost(StochasticAgent):
    """A depth-limited alpha-beta ghost.  One depth is one move of every agent
    (from this ghost round to the same ghost again).  Equally good moves are
    chosen uniformly at random, so games against it differ from seed to seed."""

    name = "adversarial"

    def __init__(self, depth: int = 2, engine: str = "auto") -> None:
        super().__init__()
        if depth < 1:
            raise AgentError(f"adversarial ghost option depth={depth!r} must be at least 1")
        check_engine(engine)
        self.depth = depth
        self.engine = engine

    def distribution(self, state: GameState) -> Distribution:
        game = ChaseGame(state.turn)
        result = try_chase_values(self, state, self.depth * state.num_agents) or search(
            game, state, algorithm="alphabeta", depth=self.depth * state.num_agents,
            evaluate=game.evaluate, root_values=True,
        )
        best = [move[0] for move, value in result.action_values if value == result.value]
        return uniform(best)


GHOSTS = {agent.name: agent for agent in (RandomGhost, DirectionalGhost, AdversarialGhost)}
