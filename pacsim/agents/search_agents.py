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

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, NamedTuple

from pacsim.agents import plugins
from pacsim.agents.api import Agent, MoveStats
from pacsim.agents.engines import check_engine, prepare, try_fast_search, unsupported_options
from pacsim.agents.evaluation import get_evaluation
from pacsim.engine import PLAYING, STOP, GameState, apply_move
from pacsim.engine.layout import REVERSE
from pacsim.errors import AgentError, PacsimError
from pacsim.fast import SUPPORTED_ALGORITHMS, SUPPORTED_EVALUATIONS
from pacsim.search import (
    ALGORITHMS,
    CHANCE,
    MAX,
    MIN,
    ProbCutModel,
    SearchResult,
    TranspositionTable,
    iterative_deepening,
    search,
)
from pacsim.search.probcut import load_model


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
        """(probability, action, target) of what Pacman really does."""
        targets = state.layout.targets[state.pacman]
        if chosen == STOP:  # standing still never slips
            return [(1.0, chosen, targets[chosen])]
        failures = [action for action in targets if action != chosen and action != REVERSE[chosen]]
        if not failures:
            return [(1.0, chosen, targets[chosen])]
        share = self.slip / len(failures)
        return [(1.0 - self.slip, chosen, targets[chosen])] + [(share, action, targets[action]) for action in failures]

    def is_terminal(self, node: Any) -> bool:
        return type(node) is not Intent and node.status != PLAYING

    def utility(self, node: Any) -> float:
        return node.score


MAX_DEPTH = 50
"""Deepest search a Pacman takes (rounds); recursion and time rule out more."""
MAX_LEVELS = 250
"""Tree levels a search may recurse (``depth`` times agents, more with slip):
depth 50 with four ghosts.  Star2 below a run of chance nodes takes about
2.5 Python frames a level and hit the recursion limit at 400 levels."""
TIES = ("first", "random")
"""How a search Pacman breaks ties among equally valued root actions."""
MAX_TABLE = 10_000_000
"""Largest transposition table (entries); about 2 GB of memory at most."""


@dataclass(frozen=True)
class SearchOptions:
    """Options of the search Pacmen (minimax, alphabeta, expectimax, expectiminimax)."""

    depth: int = 2
    """Search depth in rounds, CS188's convention: one depth is Pacman and then every ghost moving once (1 to 50)."""
    eval: str = "score"
    """Evaluation at the cut-off: score, careful, file.py:function, module:function or an installed name."""
    algorithm: str = ""
    """Search algorithm: minimax, alphabeta, expectimax, expectiminimax, star1 or star2 (empty: the agent's own)."""
    model: str = "uniform"
    """Expectimax ghost model: uniform, or a ghost (directional, adversarial, file.py:Class, ...) whose distribution is used."""
    trust: float = 1.0
    """Weight of the model's distribution, mixed with uniform for the rest (0 to 1)."""
    kinds: str = ""
    """Expectiminimax ghost kinds, one letter per ghost: M (MIN) or C (CHANCE); the last repeats."""
    slip: float = 0.0
    """Probability that Pacman's chosen move fails and he stops or goes sideways (0 to below 1)."""
    table: int = 0
    """Transposition-table entries (0: no table; at most 10,000,000)."""
    time: float = 0.0
    """Seconds per move for iterative deepening up to ``depth`` (0: search ``depth`` at once; at most 3600)."""
    engine: str = "auto"
    """auto (the compiled kernel when numba is installed and it covers these options), fast or python."""
    probcut: str = ""
    """ChanceProbCut model file (JSON written by ``pacsim probcut fit``), star2 only: forward pruning at chance nodes, may change moves (empty: exact Star2)."""
    probcut_t: float = 0.0
    """ChanceProbCut confidence t, in sigmas, replacing the model file's (0: the file's; larger cuts less)."""
    ties: str = "first"
    """Among root actions of equal value: first (CS188's order: North, South, East, West, Stop) or random (drawn from Pacman's own random stream)."""

    def __post_init__(self) -> None:
        if not 1 <= self.depth <= MAX_DEPTH:
            bound = "at least 1" if self.depth < 1 else f"at most {MAX_DEPTH} (deeper searches cannot finish)"
            raise AgentError(f"option depth={self.depth!r} must be {bound}")
        if self.algorithm and self.algorithm not in ALGORITHMS:
            raise AgentError(f"option algorithm={self.algorithm!r} is not one of {', '.join(ALGORITHMS)}")
        if not self.model:
            raise AgentError("option model='' must name a ghost or be uniform")
        if not 0.0 <= self.trust <= 1.0:
            raise AgentError(f"option trust={self.trust!r} must be in [0, 1]")
        if self.kinds and set(self.kinds.upper()) - set("MC"):
            raise AgentError(f"option kinds={self.kinds!r}: one letter per ghost, M (MIN) or C (CHANCE)")
        if not 0.0 <= self.slip < 1.0:
            raise AgentError(f"option slip={self.slip!r} must be in [0, 1)")
        if not 0 <= self.table <= MAX_TABLE:
            raise AgentError(f"option table={self.table!r} must be in [0, {MAX_TABLE}]")
        if not 0.0 <= self.time <= 3600.0:
            raise AgentError(f"option time={self.time!r} must be in [0, 3600] seconds")
        check_engine(self.engine)
        if self.probcut_t < 0:
            raise AgentError(f"option probcut_t={self.probcut_t!r} must be positive (or 0: the model file's)")
        if self.probcut_t and not self.probcut:
            raise AgentError(f"option probcut_t={self.probcut_t!r} needs probcut=MODEL.json")
        if self.ties not in TIES:
            raise AgentError(f"option ties={self.ties!r} must be one of {', '.join(TIES)}")


class SearchPacman(Agent):
    """Depth-limited search Pacman.  Records each move's statistics in
    ``last_stats`` and keeps the last :class:`SearchResult` for displays."""

    name = "search"
    Options = SearchOptions
    options: SearchOptions
    default_kind = MIN
    default_algorithm = "minimax"

    def __init__(self, options: SearchOptions | None = None) -> None:
        super().__init__(options)
        options = self.options
        self.depth = options.depth
        self.evaluate: Callable[[Any], float]  # the search protocol takes any position
        self.evaluate, self.bounds = get_evaluation(options.eval)
        self.algorithm = options.algorithm or self.default_algorithm
        if self.algorithm.startswith("star") and self.bounds is None:
            raise AgentError(f"algorithm {self.algorithm} needs an evaluation with bounds; {options.eval!r} has none")
        self.kinds = options.kinds.upper()
        self.model_ghost = None if options.model == "uniform" else model_ghost_maker(options.model)
        self.table = TranspositionTable(max_entries=options.table) if options.table > 0 else None
        self.kernel_table: Any = None
        """The kernel's table when it searches (pacsim.agents.engines makes it)."""
        self.probcut = self.probcut_model(options)
        self.last_result: SearchResult | None = None
        self._models: dict[int, tuple[Any, ...]] = {}
        self.check_node_kinds()
        if options.engine == "fast":  # say it once, not in every game
            reason = unsupported_options(self)
            if reason is not None:
                raise AgentError(f"option engine=fast: {reason}")
        if self.algorithm in SUPPORTED_ALGORITHMS and options.eval in SUPPORTED_EVALUATIONS:
            # Load the kernel now, not in the first timed move.
            prepare(options.engine, star=self.algorithm.startswith("star") or self.table is not None
                    or options.model.split(":")[0] == "adversarial")

    def check_node_kinds(self) -> None:
        """Raise :class:`AgentError` now, before any game, if the algorithm
        cannot search the nodes this agent's game has (every game would fail)."""
        allowed = ALGORITHMS[self.algorithm][0]
        ghost_kinds = {self.ghost_kind(ghost) for ghost in range(max(len(self.kinds), 2))}
        refused = sorted(ghost_kinds - allowed)
        if refused:
            because = f"kinds={self.options.kinds!r}" if self.kinds else f"the ghosts of {self.name}"
            raise AgentError(f"algorithm {self.algorithm} cannot search {' and '.join(refused)} nodes ({because}); "
                             f"it handles {' and '.join(sorted(allowed))} nodes")
        if self.options.slip and CHANCE not in allowed:
            raise AgentError(f"option slip={self.options.slip!r} needs chance nodes, which algorithm {self.algorithm} cannot search")

    def probcut_model(self, options: SearchOptions) -> ProbCutModel | None:
        """The ChanceProbCut model of ``probcut=``, at ``probcut_t`` if given."""
        if not options.probcut:
            return None
        if self.algorithm != "star2":
            raise AgentError(f"option probcut={options.probcut!r} needs algorithm=star2, not {self.algorithm}")
        plugins.note_data_file(Path(options.probcut), f"probcut model {options.probcut}")
        try:
            model = load_model(options.probcut)
        except PacsimError as error:
            raise AgentError(f"option probcut: {error}") from None
        return model.with_confidence(options.probcut_t) if options.probcut_t else model

    def reset(self, index: int, rng: random.Random) -> None:
        super().reset(index, rng)
        if self.table is not None:  # a game must not depend on the games before it
            self.table.clear()
            if self.kernel_table is not None:
                self.kernel_table.clear()

    # -- the game as this agent sees it --------------------------------------
    def game_for(self, state: GameState) -> PacmanGame:
        ghosts = len(state.ghosts)
        kinds = tuple(self.ghost_kind(ghost) for ghost in range(ghosts))
        models: tuple[Any, ...] = ()
        if self.model_ghost is not None and CHANCE in kinds:
            models = self.models_for(ghosts)
        if self.options.slip:
            return SlipperyPacmanGame(kinds, models, self.options.trust, self.options.slip)
        return PacmanGame(kinds, models, self.options.trust)

    def models_for(self, ghosts: int) -> tuple[Any, ...]:
        """One model ghost per ghost, made once: each knows its index, and
        its random stream is never used (only its distribution is)."""
        models = self._models.get(ghosts)
        if models is None:
            models = tuple(self.model_ghost() for _ in range(ghosts))  # type: ignore[misc]  # not None here
            for index, model in enumerate(models, start=1):
                model.reset(index, random.Random(index))
            self._models[ghosts] = models
        return models

    def ghost_kind(self, ghost: int) -> str:
        if self.kinds:
            letter = self.kinds[ghost] if ghost < len(self.kinds) else self.kinds[-1]
            return MIN if letter == "M" else CHANCE
        return self.default_kind

    def levels(self, state: GameState, depth: int | None = None) -> int:
        per_round = state.num_agents + (1 if self.options.slip else 0)
        levels = (depth or self.depth) * per_round
        if levels > MAX_LEVELS:
            raise AgentError(f"depth={depth or self.depth} with {len(state.ghosts)} ghosts is {levels} tree levels; "
                             f"at most {MAX_LEVELS} can be searched")
        return levels

    def node_bounds(self, node: Any, levels: int) -> tuple[float, float]:
        """The evaluation's bounds at any node of this agent's game tree (a
        slippery Pacman's chance node stands for the state before the move)."""
        assert self.bounds is not None  # only star searches ask, and they need bounds
        return self.bounds(node.state if type(node) is Intent else node, levels)

    # -- playing -------------------------------------------------------------
    def analyze(self, state: GameState, depth: int | None = None, root_values: bool = True) -> SearchResult:
        """Search ``state`` and return the full result (values of every root
        action): values are floats with either engine."""
        fast = try_fast_search(self, state, depth, root_values)
        if fast is not None:
            return fast
        result = self._python_search(state, depth, root_values)
        return replace(result, value=float(result.value),
                       action_values=tuple((move, float(value)) for move, value in result.action_values))

    def _python_search(self, state: GameState, depth: int | None, root_values: bool) -> SearchResult:
        game = self.game_for(state)
        levels = self.levels(state, depth)
        bounds = self.node_bounds if self.algorithm.startswith("star") else None
        if self.options.time and depth is None:
            return self._deepening(game, state, bounds, root_values)
        return search(game, state, algorithm=self.algorithm, depth=levels, evaluate=self.evaluate,
                      bounds=bounds, table=self.table, root_values=root_values, probcut=self.probcut)

    def _deepening(self, game: PacmanGame, state: GameState, bounds: Any, root_values: bool) -> SearchResult:
        # The table is shared by every iteration: entries are reused only at equal remaining depth.
        last = None
        for result in iterative_deepening(game, state, self.algorithm, self.evaluate, self.levels(state),
                                          seconds=self.options.time, step=self.levels(state, 1),
                                          bounds=bounds, table=self.table, root_values=root_values,
                                          probcut=self.probcut):
            last = result
        if last is None:  # not even depth 1 finished: search it anyway
            last = search(game, state, algorithm=self.algorithm, depth=self.levels(state, 1),
                          evaluate=self.evaluate, bounds=bounds, table=self.table, root_values=root_values,
                          probcut=self.probcut)
        return last

    def get_action(self, state: GameState) -> str:
        random_ties = self.options.ties == "random"
        result = self.analyze(state, root_values=random_ties)  # the values of every root action to choose among
        self.last_result = result
        stats = result.stats
        self.last_stats = MoveStats(
            generated=stats.generated, evaluated=stats.evaluated, cutoffs=stats.cutoffs,
            seconds=stats.seconds, depth=result.depth or 0, max_depth=stats.max_depth,
            value=result.value,
        )
        move = self.tied_move(result) if random_ties else result.action
        return move[0] if isinstance(move, tuple) else move

    def tied_move(self, result: SearchResult) -> Any:
        """One of the root moves worth exactly the root's value, drawn from
        this agent's stream (so the game stays a function of its seed)."""
        best = [move for move, value in result.action_values if value == result.value]
        return self.rng.choice(best) if best else result.action

    def action_values(self, state: GameState) -> list[tuple[str, float]]:
        """Each legal action with its searched value (for overlays and ``analyze``)."""
        result = self.analyze(state, root_values=True)
        return [(move[0] if isinstance(move, tuple) else move, value) for move, value in result.action_values]

    def values_heading(self) -> tuple[str, ...]:
        """What :meth:`action_values` shows, for the window's panel: the
        algorithm, its depth, and the ghosts it searches against."""
        kinds = {self.ghost_kind(ghost) for ghost in range(2)}
        if kinds == {MIN}:
            ghosts = "min"
        elif kinds == {CHANCE}:
            ghosts = f"chance, {self.options.model}"
        else:
            ghosts = f"kinds {self.kinds}" if self.kinds else "first min, others chance"
        budget = f"depth {self.depth}" + (f" in {self.options.time:g} s" if self.options.time else "")
        return ("Search values", f"{self.algorithm}, {budget}", f"ghosts: {ghosts}")


def model_ghost_maker(spec: str) -> Callable[[], Agent]:
    """A maker of the ghost named by ``model=`` (built-in or plugin), checked
    once here: it must offer ``distribution(state)``."""
    from pacsim.agents.registry import make_ghost

    try:
        sample = make_ghost(spec)
    except AgentError as error:
        raise AgentError(f"option model={spec!r}: {error}") from None
    if not callable(getattr(sample, "distribution", None)):
        raise AgentError(f"option model={spec!r}: that ghost has no distribution(state) to model it by")
    return lambda: make_ghost(spec)


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

