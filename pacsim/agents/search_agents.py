"""Pacman choosing moves by depth-limited search under an assumption about the ghosts.

:class:`~pacsim.agents.pacman_game.PacmanGame` presents a Pacman state to
the game-agnostic :mod:`pacsim.search` as a MAX/MIN/CHANCE game.  The *ghost
model* is the agent's assumption and has nothing to do with the ghosts really playing:

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
from typing import Any, ClassVar

from pacsim.agents import backend, plugins
from pacsim.agents.api import Agent, GhostMaker, MoveStats
from pacsim.agents.evaluation import evaluation_name, get_evaluation
from pacsim.agents.ghosts import AdversarialGhost
from pacsim.agents.pacman_game import Intent, ModelGhosts, PacmanGame, SlipperyPacmanGame
from pacsim.engine import GameState
from pacsim.engine.deadline import UserInterrupt, call_with_deadline, user_interrupts_marked
from pacsim.engine.stats import FAST, PYTHON
from pacsim.errors import AgentError, PacsimError
from pacsim.fast.request import ADVERSARIAL, SearchRequest, chance_model, settings_declined, star_search
from pacsim.search import (
    ALGORITHMS,
    CHANCE,
    MAX,
    MIN,
    ProbCutModel,
    SearchResult,
    SearchSettings,
    TranspositionTable,
    search,
)
from pacsim.search.probcut import load_model
from pacsim.search.trace import SearchTrace, trace_search

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
    backend: str = "auto"
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
            raise AgentError(f"option depth={self.depth!r} must be {bound}", option="depth")
        if self.algorithm and self.algorithm not in ALGORITHMS:
            raise AgentError(f"option algorithm={self.algorithm!r} is not one of {', '.join(ALGORITHMS)}", option="algorithm")
        if not self.model:
            raise AgentError("option model='' must name a ghost or be uniform", option="model")
        if not 0.0 <= self.trust <= 1.0:
            raise AgentError(f"option trust={self.trust!r} must be in [0, 1]", option="trust")
        if self.kinds and set(self.kinds.upper()) - set("MC"):
            raise AgentError(f"option kinds={self.kinds!r}: one letter per ghost, M (MIN) or C (CHANCE)", option="kinds")
        if not 0.0 <= self.slip < 1.0:
            raise AgentError(f"option slip={self.slip!r} must be in [0, 1)", option="slip")
        if not 0 <= self.table <= MAX_TABLE:
            raise AgentError(f"option table={self.table!r} must be in [0, {MAX_TABLE}]", option="table")
        if not 0.0 <= self.time <= 3600.0:
            raise AgentError(f"option time={self.time!r} must be in [0, 3600] seconds", option="time")
        backend.check_backend(self.backend)
        if self.probcut_t < 0:
            raise AgentError(f"option probcut_t={self.probcut_t!r} must be positive (or 0: the model file's)", option="probcut_t")
        if self.probcut_t and not self.probcut:
            raise AgentError(f"option probcut_t={self.probcut_t!r} needs probcut=MODEL.json", option="probcut_t")
        if self.ties not in TIES:
            raise AgentError(f"option ties={self.ties!r} must be one of {', '.join(TIES)}", option="ties")


PROBE_SECONDS = 2.0
"""How long the evaluation's one call before the games may take (a slow one is left to the games' time limit)."""


class SearchPacman(Agent[SearchOptions]):
    """Depth-limited search Pacman.  Records each move's statistics in
    ``last_stats`` and keeps the last :class:`SearchResult` for displays.

    ``ghost_model`` makes the ghost that ``model=`` names (the registry
    passes it); without one, ``model`` must be ``uniform``."""

    name = "search"
    Options = SearchOptions
    ghost_model_option: ClassVar[str | None] = "model"
    default_kind = MIN
    default_algorithm = "minimax"

    def __init__(self, options: SearchOptions | None = None, ghost_model: GhostMaker | None = None) -> None:
        super().__init__(options)
        options = self.options
        self.depth = options.depth
        self.evaluate: Callable[[Any], float]  # the search protocol takes any position
        self.evaluate, self.bounds = get_evaluation(options.eval)
        self.algorithm = options.algorithm or self.default_algorithm
        if self.algorithm.startswith("star") and self.bounds is None:
            raise AgentError(f"algorithm {self.algorithm} needs an evaluation with bounds; {options.eval!r} has none")
        self.kinds = options.kinds.upper()
        self.model_ghosts = ModelGhosts(options.model, ghost_model)
        self.table = TranspositionTable(max_entries=options.table) if options.table > 0 else None
        self.kernel_table = backend.KernelTableSlot(options.table) if options.table > 0 else None
        """The kernel's twin of ``table``, for the searches the kernel runs."""
        self.probcut = self.probcut_model(options)
        self.last_result: SearchResult | None = None
        self.check_node_kinds()
        request = self.search_request(ghosts=2, levels=1, cells=0)
        reason = settings_declined(request)
        if reason is None:  # load the kernel now, not in the first timed move
            backend.prepare(options.backend, "star" if star_search(request) else "plain", request.evaluation,
                            chance_model(request))
        elif options.backend == "fast":  # say it once, not in every game
            raise AgentError(f"option backend=fast: {reason}", option="backend")

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
            raise AgentError(f"option slip={self.options.slip!r} needs chance nodes, which algorithm {self.algorithm} cannot search", option="slip")

    def probcut_model(self, options: SearchOptions) -> ProbCutModel | None:
        """The ChanceProbCut model of ``probcut=``, at ``probcut_t`` if given."""
        if not options.probcut:
            return None
        if self.algorithm != "star2":
            raise AgentError(f"option probcut={options.probcut!r} needs algorithm=star2, not {self.algorithm}", option="probcut")
        plugins.note_data_file(Path(options.probcut), f"probcut model {options.probcut}")
        try:
            model = load_model(options.probcut)
        except PacsimError as error:
            raise AgentError(f"option probcut: {error}", option="probcut") from None
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
        models = self.models_for(ghosts) if CHANCE in kinds else ()
        if self.options.slip:
            return SlipperyPacmanGame(kinds, models, self.options.trust, self.options.slip)
        return PacmanGame(kinds, models, self.options.trust)

    def models_for(self, ghosts: int) -> tuple[Any, ...]:
        """Per ghost, the model ghost whose distribution the search uses (None: uniform)."""
        return self.model_ghosts.for_ghosts(ghosts)

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
        action): values are floats with either backend.  ``depth`` (rounds)
        replaces the agent's own and turns ``time`` off."""
        return self._search_with_backend(state, depth, root_values)[0]

    def _search_with_backend(self, state: GameState, depth: int | None,
                             root_values: bool) -> tuple[SearchResult, str]:
        """:meth:`analyze`'s result and which backend searched (the store records it per game)."""
        # The move's tree levels, computed once: both backends search this request.
        request = self.search_request(len(state.ghosts), self.levels(state, depth), state.layout.num_cells,
                                      root_values, timed=depth is None, step=self.levels(state, 1))
        fast = backend.try_fast_search(self.name, self.options.backend, request, state, self.kernel_table)
        if fast is not None:
            return fast, FAST
        result = self._python_search(state, request)
        return replace(result, value=float(result.value),
                       action_values=tuple((move, float(value)) for move, value in result.action_values)), PYTHON

    def search_request(self, ghosts: int, levels: int, cells: int, root_values: bool = False,
                       timed: bool = True, step: int | None = None) -> SearchRequest:
        """This agent's search of ``levels`` levels with ``ghosts`` ghosts on a
        maze of ``cells`` open cells, as the kernel would run it; ``step``: the
        levels of one round (by default every agent and the slip node once)."""
        options = self.options
        model, adversary = self.kernel_model()
        return SearchRequest(
            algorithm=self.algorithm, kinds=(MAX, *(self.ghost_kind(ghost) for ghost in range(ghosts))),
            evaluation=self.evaluation_name(), levels=levels,
            step=ghosts + 1 + (1 if options.slip else 0) if step is None else step,
            cells=cells, model=model, adversary=adversary, trust=options.trust, slip=options.slip, table=options.table,
            probcut=options.probcut, time=options.time if timed else 0.0, root_values=root_values,
            own_game=self.own_game(),
        )

    def kernel_model(self) -> tuple[str, tuple[int, float] | None]:
        """The chance model by name, and ``(depth, p)`` when it is the
        built-in adversarial ghost (whose chase search the kernel runs);
        any other ghost by its spec, which the kernel knows by name or not."""
        if self.options.model == "uniform":
            return "uniform", None
        ghost = self.models_for(1)[0]
        if type(ghost) is AdversarialGhost:
            return ADVERSARIAL, (ghost.options.depth, ghost.options.p)
        return self.options.model, None

    def evaluation_name(self) -> str:
        """The evaluation's name in a kernel request (see :func:`~pacsim.agents.evaluation.evaluation_name`)."""
        return evaluation_name(self, self.options.eval, self.evaluate)

    def own_game(self) -> str:
        """Which of this agent's methods change the game it searches from
        the built-in one (a subclass's), or empty."""
        for method in ("game_for", "levels"):
            if getattr(type(self), method) is not getattr(SearchPacman, method):
                return f"a {type(self).__name__} with its own {method}()"
        return ""

    def backend_note(self, cells: int) -> str | None:
        """The note that this agent will search in Python on a maze of
        ``cells`` open cells, or None (see :func:`pacsim.agents.backend.fallback_note`)."""
        return backend.fallback_note(self.name, self.options.backend, self.search_request(2, 1, cells))

    def check_before_games(self, start: GameState) -> None:
        """Raise now, once, what would end every game as an error: with
        ``backend=fast`` an evaluation numba cannot compile, and an evaluation
        whose value at ``start`` (a game's first position) is not a number.
        Whatever else the user's code does there (raises, exits, takes longer
        than :data:`PROBE_SECONDS`) is left to the games, which report it
        under their own time limit (with ``--debug`` its traceback)."""
        self.backend_note(start.layout.num_cells)  # the note itself is said by the caller's own rules
        try:
            with user_interrupts_marked():  # a real Ctrl-C still stops; a KeyboardInterrupt of the user's does not
                call_with_deadline(lambda: self.evaluate(start), PROBE_SECONDS)
        except (AgentError, UserInterrupt):
            raise
        except BaseException:  # the user's code, reported by the games
            return

    def _python_search(self, state: GameState, request: SearchRequest) -> SearchResult:
        """``request`` searched in Python (the kernel's specification), deepening as the kernel does."""
        game = self.game_for(state)
        # One table for every iteration: entries are reused only at equal remaining depth.
        settings = SearchSettings(evaluate=self.evaluate, table=self.table, root_values=request.root_values, probcut=self.probcut,
                                  bounds=self.node_bounds if self.algorithm.startswith("star") else None)

        def search_at(levels: int, deadline: float | None = None) -> SearchResult:
            return search(game, state, self.algorithm, replace(settings, depth=levels, deadline=deadline))

        return backend.search_requested(request, search_at)

    def trace(self, state: GameState, depth: int | None = None) -> SearchTrace:
        """The tree this Pacman's search visits at ``state`` (in Python, the
        kernel's specification): ``depth`` rounds or its own, a fresh table
        of its own size, no time limit and no ChanceProbCut."""
        bounds = self.node_bounds if self.algorithm.startswith("star") else None
        table = TranspositionTable(max_entries=self.options.table) if self.options.table > 0 else None
        return trace_search(self.game_for(state), state, self.algorithm, self.levels(state, depth), self.evaluate,
                            bounds, table)

    def get_action(self, state: GameState) -> str:
        random_ties = self.options.ties == "random"
        # The values of every root action to choose among.
        result, searched_by = self._search_with_backend(state, None, root_values=random_ties)
        self.last_result = result
        stats = result.stats
        self.last_stats = MoveStats(
            generated=stats.generated, evaluated=stats.evaluated, cutoffs=stats.cutoffs,
            seconds=stats.seconds, depth=result.depth or 0, max_depth=stats.max_depth,
            value=result.value, backend=searched_by,
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


class MinimaxPacman(SearchPacman):
    """Every ghost is a minimiser: pessimism."""

    name = "minimax"
    kernel_plays = True


class AlphaBetaPacman(SearchPacman):
    """Minimax with alpha-beta pruning: the same moves, fewer nodes."""

    name = "alphabeta"
    kernel_plays = True
    default_algorithm = "alphabeta"


class ExpectimaxPacman(SearchPacman):
    """Every ghost is chance: optimism when the ghosts are adversaries."""

    name = "expectimax"
    kernel_plays = True
    default_kind = CHANCE
    default_algorithm = "expectimax"


class ExpectiminimaxPacman(SearchPacman):
    """Ghosts MIN or CHANCE one by one (``kinds=MC``; default the first ghost
    MIN, the rest CHANCE), and optionally a slippery Pacman (``slip=0.1``)."""

    name = "expectiminimax"
    kernel_plays = True
    default_algorithm = "expectiminimax"

    def ghost_kind(self, ghost: int) -> str:
        if self.kinds:
            return super().ghost_kind(ghost)
        return MIN if ghost == 0 else CHANCE
