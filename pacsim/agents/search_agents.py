"""Pacman choosing moves by depth-limited search under an assumption about the ghosts.

:class:`PacmanGame` presents a Pacman state to the game-agnostic
:mod:`pacsim.search` as a MAX/MIN/CHANCE game.  The *ghost model* is the
agent's assumption and has nothing to do with the ghosts really playing:

* ``minimax`` / ``alphabeta``: every ghost is MIN (pessimism);
* ``expectimax``: every ghost is CHANCE, uniform by default, or with a ghost
  policy's own distribution (``model=directional``, ``model=adversarial``),
  optionally mixed with uniform (``trust=0.8``: 80% the model, 20% uniform);
* ``expectiminimax``: per ghost (``kinds=MC``: ghost 1 MIN, ghost 2 CHANCE),
  and a slippery Pacman (``slip=0.1``: the chosen move fails with that
  probability, Pacman then stops or goes sideways; a CHANCE node after MAX).

Depth follows CS188: one depth is Pacman and then every ghost moving once,
so ``depth=d`` searches ``d * (ghosts + 1)`` tree levels (more with slip).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from pacsim.agents.base import Agent
from pacsim.agents.evaluation import get_evaluation
from pacsim.agents.ghosts import GHOSTS
from pacsim.engine import STOP, GameState, apply_move
from pacsim.engine.layout import REVERSE
from pacsim.errors import AgentError
from pacsim.fast import check_engine, try_fast_search
from pacsim.search import CHANCE, MAX, MIN, SearchResult, TranspositionTable, search

PRUNED = {"minimax": "alphabeta", "expectimax": "star2", "expectiminimax": "star2"}


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

    def to_move(self, state: GameState) -> str:
        return self.kinds[state.turn]

    def actions(self, state: GameState):
        return state.legal_moves()

    def result(self, state: GameState, move) -> GameState:
        return apply_move(state, move[0], move[1])

    def outcomes(self, state: GameState) -> list[tuple[float, GameState]]:
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

    def is_terminal(self, state: GameState) -> bool:
        return state.status != 0

    def utility(self, state: GameState) -> float:
        return state.score


class Intent(NamedTuple):
    """A slippery Pacman's chosen move before the floor decides: a CHANCE node."""

    state: GameState
    action: str


class SlipperyPacmanGame(PacmanGame):
    """Pacman's move goes through a CHANCE node: with probability ``slip`` it
    fails and Pacman stops or steps sideways instead (shared equally)."""

    def __init__(self, kinds, models=(), trust=1.0, slip: float = 0.0) -> None:
        super().__init__(kinds, models, trust)
        self.slip = slip

    def to_move(self, node) -> str:
        if type(node) is Intent:
            return CHANCE
        return self.kinds[node.turn]

    def actions(self, state: GameState):
        if state.turn == 0:
            return [action for action, _ in state.legal_moves()]
        return state.legal_moves()

    def result(self, state: GameState, move):
        if state.turn == 0:
            return Intent(state, move)
        return apply_move(state, move[0], move[1])

    def outcomes(self, node) -> list[tuple[float, GameState]]:
        if type(node) is not Intent:
            return super().outcomes(node)
        return [(probability, apply_move(node.state, action, target))
                for probability, action, target in self.slips(node.state, node.action)]

    def slips(self, state: GameState, chosen: str) -> list[tuple[float, str, int]]:
        """(probability, action, target) of what Pacman really does."""
        targets = state.layout.targets[state.pacman]
        if chosen == STOP:  # standing still never slips
            return [(1.0, chosen, targets[chosen])]
        failures = [action for action in targets if action != chosen and action != REVERSE[chosen]]
        if not failures:
            return [(1.0, chosen, targets[chosen])]
        share = self.slip / len(failures)
        return [(1.0 - self.slip, chosen, targets[chosen])] + [(share, action, targets[action]) for action in failures]

    def is_terminal(self, node) -> bool:
        return type(node) is not Intent and node.status != 0

    def utility(self, node) -> float:
        return node.score


class SearchPacman(Agent):
    """Depth-limited search Pacman.  Records each move's statistics in
    ``last_stats`` and keeps the last :class:`SearchResult` for displays."""

    name = "search"
    default_kind = MIN
    default_algorithm = "minimax"

    def __init__(
        self,
        depth: int = 2,
        eval: str = "score",
        algorithm: str = "",
        model: str = "uniform",
        trust: float = 1.0,
        kinds: str = "",
        slip: float = 0.0,
        table: int = 0,
        time: float = 0.0,
        engine: str = "auto",
    ) -> None:
        super().__init__()
        check_engine(engine)
        self.engine = engine
        if depth < 1:
            raise AgentError(f"option depth={depth!r} must be at least 1")
        if not 0.0 <= trust <= 1.0:
            raise AgentError(f"option trust={trust!r} must be in [0, 1]")
        if not 0.0 <= slip < 1.0:
            raise AgentError(f"option slip={slip!r} must be in [0, 1)")
        if kinds and set(kinds.upper()) - set("MC"):
            raise AgentError(f"option kinds={kinds!r}: one letter per ghost, M (MIN) or C (CHANCE)")
        if model != "uniform" and model not in GHOSTS:
            raise AgentError(f"option model={model!r}: known ghost models are uniform, {', '.join(GHOSTS)}")
        self.depth = depth
        self.evaluation_name = eval
        self.evaluate, self.bounds = get_evaluation(eval)
        self.algorithm = algorithm or self.default_algorithm
        if self.algorithm not in ("minimax", "alphabeta", "expectimax", "expectiminimax", "star1", "star2"):
            raise AgentError(f"option algorithm={self.algorithm!r} is not a search algorithm")
        if self.algorithm.startswith("star") and self.bounds is None:
            raise AgentError(f"algorithm {self.algorithm} needs an evaluation with bounds; {eval!r} has none")
        self.model = model
        self.trust = trust
        self.kinds = kinds.upper()
        self.slip = slip
        self.table = TranspositionTable(max_entries=table) if table > 0 else None
        self.seconds = time
        self.last_result: SearchResult | None = None

    def reset(self, index, rng) -> None:
        super().reset(index, rng)
        if self.table is not None:  # a game must not depend on the games before it
            self.table.clear()

    # -- the game as this agent sees it --------------------------------------
    def game_for(self, state: GameState) -> PacmanGame:
        ghosts = len(state.ghosts)
        kinds = tuple(self.ghost_kind(ghost) for ghost in range(ghosts))
        models: tuple[Any, ...] = ()
        if self.model != "uniform" and CHANCE in kinds:
            models = tuple(GHOSTS[self.model]() for _ in range(ghosts))
        if self.slip:
            return SlipperyPacmanGame(kinds, models, self.trust, self.slip)
        return PacmanGame(kinds, models, self.trust)

    def ghost_kind(self, ghost: int) -> str:
        if self.kinds:
            letter = self.kinds[ghost] if ghost < len(self.kinds) else self.kinds[-1]
            return MIN if letter == "M" else CHANCE
        return self.default_kind

    def levels(self, state: GameState, depth: int | None = None) -> int:
        per_round = state.num_agents + (1 if self.slip else 0)
        return (depth or self.depth) * per_round

    def node_bounds(self, node, levels: int) -> tuple[float, float]:
        """The evaluation's bounds at any node of this agent's game tree (a
        slippery Pacman's chance node stands for the state before the move)."""
        return self.bounds(node.state if type(node) is Intent else node, levels)

    # -- playing -------------------------------------------------------------
    def analyze(self, state: GameState, depth: int | None = None, root_values: bool = True) -> SearchResult:
        """Search ``state`` and return the full result (values of every root action)."""
        fast = try_fast_search(self, state, depth, root_values)
        if fast is not None:
            return fast
        game = self.game_for(state)
        levels = self.levels(state, depth)
        bounds = self.node_bounds if self.algorithm.startswith("star") else None
        if self.seconds and depth is None:
            return self._deepening(game, state, bounds, root_values)
        return search(game, state, algorithm=self.algorithm, depth=levels, evaluate=self.evaluate,
                      bounds=bounds, table=self.table, root_values=root_values)

    def _deepening(self, game, state, bounds, root_values) -> SearchResult:
        from pacsim.search import iterative_deepening

        last = None
        for result in iterative_deepening(game, state, self.algorithm, self.evaluate, self.levels(state),
                                          seconds=self.seconds, step=self.levels(state, 1),
                                          bounds=bounds, root_values=root_values):
            last = result
        if last is None:  # not even depth 1 finished: search it anyway
            last = search(game, state, algorithm=self.algorithm, depth=self.levels(state, 1),
                          evaluate=self.evaluate, bounds=bounds, root_values=root_values)
        return last

    def get_action(self, state: GameState) -> str:
        result = self.analyze(state, root_values=False)
        self.last_result = result
        stats = result.stats
        self.last_stats = {
            "generated": stats.generated, "evaluated": stats.evaluated, "cutoffs": stats.cutoffs,
            "seconds": stats.seconds, "depth": result.depth, "max_depth": stats.max_depth,
            "value": result.value,
        }
        move = result.action
        return move[0] if isinstance(move, tuple) else move

    def action_values(self, state: GameState) -> list[tuple[str, float]]:
        """Each legal action with its searched value (for overlays and ``analyze``)."""
        result = self.analyze(state, root_values=True)
        return [(move[0] if isinstance(move, tuple) else move, value) for move, value in result.action_values]


class MinimaxPacman(SearchPacman):
    """Every ghost is a minimiser: pessimism."""

    name = "minimax"


class AlphaBetaPacman(SearchPacman):
    """Minimax with alpha-beta pruning: the same moves, fewer nodes."""

    name = "alphabeta"
    default_algorithm = "alphabeta"


class ExpectimaxPacman(SearchPacman):
    """Every ghost is chance: optimism when the ghosts are adversaries."""

    name = "expectimax"
    default_kind = CHANCE
    default_algorithm = "expectimax"


class ExpectiminimaxPacman(SearchPacman):
    """Ghosts MIN or CHANCE one by one (``kinds=MC``; default the first ghost
    MIN, the rest CHANCE), and optionally a slippery Pacman (``slip=0.1``)."""

    name = "expectiminimax"
    default_algorithm = "expectiminimax"

    def ghost_kind(self, ghost: int) -> str:
        if self.kinds:
            return super().ghost_kind(ghost)
        return MIN if ghost == 0 else CHANCE


SEARCH_PACMEN: dict[str, type[Agent]] = {
    agent.name: agent for agent in (MinimaxPacman, AlphaBetaPacman, ExpectimaxPacman, ExpectiminimaxPacman)
}

