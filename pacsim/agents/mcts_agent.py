"""Pacman choosing moves by Monte Carlo tree search (:func:`pacsim.search.mcts`).

``-p mcts:iterations=1000,c=1.4,rollout=random,rollout_depth=6,eval=careful,ghosts=chance,model=uniform``

The game tree is :class:`~pacsim.agents.pacman_game.PacmanGame`, the one
the depth-limited Pacmen search, under one of two assumptions about the
ghosts:

* ``ghosts=chance``: every ghost is a CHANCE node whose moves are drawn from
  the ghost model (``model=uniform|directional|adversarial``), the MCTS
  analogue of expectimax (optimistic against real adversaries);
* ``ghosts=min``: every ghost is a MIN node choosing by UCB1 from its own
  side, the analogue of minimax (pessimistic against random ghosts).

Rollouts leave the tree: Pacman plays ``rollout=random`` (uniform) or
``rollout=greedy`` (the move whose successor ``eval`` scores best, ties at
random) and every ghost moves as the model says, for ``rollout_depth``
moves of any agent, after which ``eval`` scores the position.  A random
rollout move applies one move, so it creates one position, like one
generated node of a depth-limited search; a greedy Pacman step creates and
scores every successor, and all of them are counted (``generated`` and
``evaluated``), so that equal-node comparisons do not flatter it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from pacsim.agents import backend
from pacsim.agents.api import Agent, GhostMaker, MoveStats, sample
from pacsim.agents.evaluation import evaluation_name, get_evaluation
from pacsim.agents.pacman_game import ModelGhosts, PacmanGame
from pacsim.engine import GameState, apply_move
from pacsim.engine.stats import FAST, PYTHON
from pacsim.errors import AgentError
from pacsim.fast.request import MctsRequest, mcts_settings_declined
from pacsim.search import CHANCE, MIN, SearchResult, mcts
from pacsim.search.mcts import RolloutStep
from pacsim.search.trace import SearchTrace, trace_mcts

ROLLOUTS = ("random", "greedy")
GHOST_KINDS = ("chance", "min")


@dataclass(frozen=True)
class MctsOptions:
    """The options of the MCTS Pacman (``-p mcts:key=value,...``)."""

    iterations: int = 1000
    """Iterations per move; 0 means no iteration limit (``time`` must then be set)."""
    time: float = 0.0
    """Seconds per move (0: none); with ``iterations`` too, whichever ends first."""
    c: float = 1.4
    """UCB1's exploration constant, on values normalised to [0, 1] by the
    lowest and highest value seen in this move's search: larger explores more."""
    rollout: str = "random"
    """Pacman's rollout policy: ``random`` (uniform) or ``greedy`` (best ``eval`` one move ahead)."""
    rollout_depth: int = 6
    """Moves of any agent per rollout before ``eval`` scores the position (0: score the new node)."""
    eval: str = "careful"
    """The evaluation at the end of a rollout: ``score``, ``careful`` or ``module:function``."""
    ghosts: str = "chance"
    """The ghosts in the tree: ``chance`` (drawn from ``model``) or ``min`` (UCB1 minimisers)."""
    model: str = "uniform"
    """The ghost model for chance nodes and rollouts: ``uniform`` or a ghost (``directional``,
    ``adversarial``, ``file.py:Class``, ...) whose distribution is used; ``adversarial`` searches
    at every ghost move."""
    backend: str = "auto"
    """``auto``: the compiled kernel when it covers the options (``rollout=random``,
    ``model=uniform``, ``eval=score|careful``, an iteration budget without
    ``time``), with the same tree and answer as Python; ``fast``: the kernel or
    an error; ``python``."""

    def __post_init__(self) -> None:
        if self.iterations < 0:
            raise AgentError(f"mcts option iterations={self.iterations!r} must be >= 0", option="iterations")
        if self.time < 0:
            raise AgentError(f"mcts option time={self.time!r} must be >= 0", option="time")
        if self.iterations == 0 and self.time == 0:
            raise AgentError("mcts needs a budget: iterations > 0 or time > 0")
        if not 0 <= self.c < float("inf"):
            raise AgentError(f"mcts option c={self.c!r} must be a finite number >= 0", option="c")
        if self.rollout not in ROLLOUTS:
            raise AgentError(f"mcts option rollout={self.rollout!r}: known rollouts are {', '.join(ROLLOUTS)}", option="rollout")
        if self.rollout_depth < 0:
            raise AgentError(f"mcts option rollout_depth={self.rollout_depth!r} must be >= 0", option="rollout_depth")
        get_evaluation(self.eval)  # an unknown one raises its own message
        if self.ghosts not in GHOST_KINDS:
            raise AgentError(f"mcts option ghosts={self.ghosts!r}: choose chance or min", option="ghosts")
        backend.check_backend(self.backend)


@dataclass
class RolloutWork:
    """Positions a rollout policy made and scored beyond the one position per
    rollout move that :func:`~pacsim.search.mcts` counts itself."""

    generated: int = 0
    evaluated: int = 0


class MctsPacman(Agent[MctsOptions]):
    """Monte Carlo tree search Pacman.  Keeps the last :class:`SearchResult`
    in ``last_result``; ``last_stats`` holds its counts, iterations and
    simulated moves included.  ``ghost_model`` makes the ghost that
    ``model=`` names (the registry passes it)."""

    name = "mcts"
    Options = MctsOptions
    ghost_model_option: ClassVar[str | None] = "model"

    def __init__(self, options: MctsOptions | None = None, ghost_model: GhostMaker | None = None) -> None:
        super().__init__(options)
        self.evaluate, _ = get_evaluation(self.options.eval)
        self.model_ghosts = ModelGhosts(self.options.model, ghost_model)
        self.last_result: SearchResult | None = None
        reason = mcts_settings_declined(self.search_request())  # a kernel evaluation compiles at the first search
        if reason is None:
            backend.prepare(self.options.backend, "mcts")  # load the kernel now, not in the first timed move
        elif self.options.backend == "fast":  # say it once, not in every game
            raise AgentError(f"option backend=fast: {reason}", option="backend")

    # -- the game as this agent sees it --------------------------------------
    def game_for(self, state: GameState) -> PacmanGame:
        ghosts = len(state.ghosts)
        kind = CHANCE if self.options.ghosts == "chance" else MIN
        return PacmanGame((kind,) * ghosts, self.ghost_models(ghosts) if kind == CHANCE else ())

    def ghost_models(self, ghosts: int) -> tuple[Any, ...]:
        """Per ghost, the policy whose distribution the model uses (None: uniform)."""
        return self.model_ghosts.for_ghosts(ghosts)

    def rollout_step(self, ghosts: int, work: RolloutWork) -> RolloutStep:
        """One rollout move: Pacman by the rollout policy, a ghost by the
        model.  A greedy step adds to ``work`` what the search's count of one
        position per rollout move leaves out."""
        models = self.ghost_models(ghosts)
        greedy = self.options.rollout == "greedy"
        evaluate = self.evaluate

        def step(state: GameState, rng: random.Random) -> GameState:
            moves = state.legal_moves()
            if state.turn == 0:
                if greedy:
                    work.generated += len(moves) - 1
                    work.evaluated += len(moves)
                    return _greedy_successor(state, moves, evaluate, rng)
                action, target = moves[rng.randrange(len(moves))]
                return apply_move(state, action, target)
            model = models[state.turn - 1]
            if model is None:
                action, target = moves[rng.randrange(len(moves))]
                return apply_move(state, action, target)
            action = sample(model.distribution(state), rng)
            return apply_move(state, action, dict(moves)[action])

        return step  # type: ignore[return-value]  # states are the game's positions

    # -- playing -------------------------------------------------------------
    def analyze(self, state: GameState, seed: int = 0) -> SearchResult:
        """Search ``state`` and return the full result (visits and means of
        every root action).  ``seed`` fixes the search's random stream."""
        return self._search_with_backend(state, seed)[0]

    def _search_with_backend(self, state: GameState, seed: int) -> tuple[SearchResult, str]:
        """:meth:`analyze`'s result and which backend searched (the store records it per game)."""
        fast = backend.try_fast_mcts(self.name, self.options.backend, self.search_request(), state, seed)
        if fast is not None:
            return fast, FAST
        return self._python_search(state, seed), PYTHON

    def search_request(self) -> MctsRequest:
        """This agent's search, as the kernel would run it."""
        options = self.options
        own = [method for method in ("game_for", "rollout_step")
               if getattr(type(self), method) is not getattr(MctsPacman, method)]
        return MctsRequest(
            ghosts=options.ghosts, evaluation=self.evaluation_name(), iterations=options.iterations, c=options.c,
            rollout=options.rollout, rollout_depth=options.rollout_depth, model=options.model, time=options.time,
            own_game=f"a {type(self).__name__} with its own {own[0]}()" if own else "",
        )

    def evaluation_name(self) -> str:
        """The evaluation's name in a kernel request (see :func:`~pacsim.agents.evaluation.evaluation_name`)."""
        return evaluation_name(self, self.options.eval, self.evaluate)

    def _python_search(self, state: GameState, seed: int) -> SearchResult:
        work = RolloutWork()
        result = mcts(**self.mcts_arguments(state, seed, work))
        stats = replace(result.stats, generated=result.stats.generated + work.generated,
                        evaluated=result.stats.evaluated + work.evaluated)
        return replace(result, stats=stats)

    def mcts_arguments(self, state: GameState, seed: int, work: RolloutWork) -> dict[str, Any]:
        """:func:`~pacsim.search.mcts`'s arguments for this Pacman's search of ``state``."""
        options = self.options
        # The search's protocol speaks of any hashable position; this
        # game's positions are GameStates, which mypy cannot match up.
        game: Any = self.game_for(state)
        return dict(game=game, state=state, iterations=options.iterations or None, time=options.time or None,
                    c=options.c, rollout=self.rollout_step(len(state.ghosts), work),
                    rollout_depth=options.rollout_depth, evaluate=self.evaluate, seed=seed)

    def trace(self, state: GameState, seed: int = 0) -> SearchTrace:
        """The tree this Pacman's search grows at ``state`` (in Python)."""
        return trace_mcts(**self.mcts_arguments(state, seed, RolloutWork()))

    def get_action(self, state: GameState) -> str:
        # The search's seed comes from this agent's own stream, so a game is
        # a pure function of its seed; analyze() and the overlay use their
        # own seed and never disturb the stream.
        result, searched_by = self._search_with_backend(state, self.rng.getrandbits(32))
        self.last_result = result
        stats = result.stats
        self.last_stats = MoveStats(
            generated=stats.generated, evaluated=stats.evaluated, seconds=stats.seconds,
            max_depth=stats.max_depth, value=result.value, iterations=stats.iterations, simulated=stats.simulated,
            backend=searched_by,
        )
        return result.action[0]

    def action_values(self, state: GameState) -> list[tuple[str, float]]:
        """Each legal action with its root visits (for the window's overlay):
        MCTS plays the most visited move."""
        result = self.analyze(state)
        return [(move[0], int(visits)) for move, visits in result.action_visits]

    def values_heading(self) -> tuple[str, ...]:
        """What :meth:`action_values` shows, for the window's panel: visits,
        the budget, and the ghosts the tree is searched against."""
        options = self.options
        budgets = [f"{options.iterations} iterations"] if options.iterations else []
        budget = " or ".join(budgets + ([f"{options.time:g} s a move"] if options.time else []))
        ghosts = "min" if options.ghosts == "min" else f"chance, {options.model}"
        return ("Visits", f"MCTS, {budget}", f"ghosts: {ghosts}")


def _greedy_successor(state: GameState, moves, evaluate, rng: random.Random) -> GameState:
    """The successor ``evaluate`` scores best, ties broken at random."""
    best: list[GameState] = []
    best_value = None
    for action, target in moves:
        successor = apply_move(state, action, target)
        value = evaluate(successor)
        if best_value is None or value > best_value:
            best, best_value = [successor], value
        elif value == best_value:
            best.append(successor)
    return best[rng.randrange(len(best))] if len(best) > 1 else best[0]
