"""Which engine an agent searches with: the compiled kernel or Python.

The choice is the agent's ``engine`` option: ``auto`` (the default: the
kernel of :mod:`pacsim.fast` when numba is installed and the configuration
is supported), ``fast`` (the kernel or an error) or ``python``.  The
environment variable ``PACSIM_ENGINE=python`` turns the fast path off for
every ``auto`` agent, ghosts included.  :func:`try_fast_search` and
:func:`try_chase_values` return ``None`` when the kernel cannot serve a
request, and the caller then searches in Python.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from time import perf_counter
from typing import TYPE_CHECKING, Any

from pacsim.engine import GameState
from pacsim.errors import AgentError
from pacsim.fast import MAX_CELLS, SUPPORTED_ALGORITHMS, SUPPORTED_EVALUATIONS, SUPPORTED_MODELS, available
from pacsim.search import ALGORITHMS, SearchResult, SearchTimeout

if TYPE_CHECKING:
    from pacsim.agents.mcts_agent import MctsPacman
    from pacsim.agents.search_agents import SearchPacman

ENGINES = ("auto", "fast", "python")
ENVIRONMENT_SWITCH = "PACSIM_ENGINE"

_told: set[str] = set()
_quiet = threading.local()


def check_engine(engine: str) -> None:
    """Raise :class:`AgentError` for an unknown ``engine`` option, or for
    ``engine=fast`` where the kernel cannot run."""
    if engine not in ENGINES:
        raise AgentError(f"option engine={engine!r}: expected one of {', '.join(ENGINES)}")
    if engine == "fast" and available() is not None:
        raise AgentError(f"option engine=fast: {available()}")


def prepare(engine: str, star: bool = False) -> None:
    """Load the kernel in this process if ``engine`` will use it: agents call
    this when they are made, so that loading (or, on a first run, compiling)
    it is not counted against their first move's time limit.  ``star``: the
    agent searches with Star1/Star2 or a table, another compiled search."""
    if _enabled(engine) and available() is None:
        _warm_up(star)


@cache
def _warm_up(star: bool) -> None:
    from pacsim.fast.search import warm_up

    with _interrupts_held():
        warm_up(star)


@contextmanager
def _interrupts_held() -> Iterator[None]:
    """Hold a Ctrl-C until the block ends, then act on it as the handler in
    place would have: numba loads compiled code through ctypes callbacks,
    where a ``KeyboardInterrupt`` is printed as ignored and lost."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda number, frame: received.append(number))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if received:
        if callable(previous):
            previous(signal.SIGINT, None)
        elif previous == signal.SIG_DFL:
            signal.raise_signal(signal.SIGINT)


def _enabled(engine: str) -> bool:
    if engine == "auto":
        return os.environ.get(ENVIRONMENT_SWITCH, "auto") != "python"
    return engine == "fast"


def unsupported(agent: SearchPacman, state: GameState) -> str | None:
    """Why the kernel cannot search for ``agent`` at ``state``, or ``None``."""
    return unsupported_options(agent) or _maze_reason(state.layout.num_cells)


def _maze_reason(cells: int) -> str | None:
    if cells > MAX_CELLS:
        return f"the fast path does not cover a maze of {cells} cells (it takes {MAX_CELLS})"
    return None


def unsupported_options(agent: SearchPacman) -> str | None:
    """Why the kernel cannot search for ``agent`` on any maze, or ``None``."""
    reason = available()
    if reason is not None:
        return reason
    from pacsim.agents.evaluation import EVALUATIONS

    options = agent.options
    if agent.algorithm not in SUPPORTED_ALGORITHMS:
        return f"the fast path does not cover algorithm={agent.algorithm} (it runs {', '.join(SUPPORTED_ALGORITHMS)})"
    if options.eval not in SUPPORTED_EVALUATIONS or agent.evaluate is not EVALUATIONS[options.eval][0]:
        return f"the fast path does not cover eval={options.eval} (it knows {', '.join(SUPPORTED_EVALUATIONS)})"
    if options.model not in SUPPORTED_MODELS and _adversary(agent) is None:
        return (f"the fast path does not cover model={options.model} "
                f"(it knows {', '.join(SUPPORTED_MODELS)} and the built-in adversarial ghost)")
    if options.probcut:
        return "the fast path does not cover probcut (ChanceProbCut's forward pruning)"
    return _overridden(agent)


def _overridden(agent: SearchPacman) -> str | None:
    """A subclass that changes the game the agent searches (the kernel
    knows only the built-in one)."""
    from pacsim.agents.search_agents import SearchPacman

    for method in ("game_for", "levels"):
        if getattr(type(agent), method, None) is not getattr(SearchPacman, method):
            return f"the fast path does not cover a {type(agent).__name__} with its own {method}()"
    return None


def fallback_note(agent: SearchPacman, cells: int) -> str | None:
    """The note saying that ``agent`` will search in Python on a maze of
    ``cells`` open cells (None when it uses the kernel or asked for
    Python); with ``engine=fast`` an :class:`AgentError` instead.  A run's
    coordinator says these once, before its games, and its games then say
    nothing (:func:`notes_said`)."""
    engine = agent.options.engine
    if not _enabled(engine):
        return None
    reason = unsupported_options(agent) or _maze_reason(cells)
    return None if reason is None else _note(agent, engine, reason)


@contextmanager
def notes_said() -> Iterator[None]:
    """Within this block, in this thread, an agent falling back to Python says
    nothing: a run's coordinator has said it already, once for the run,
    rather than once per worker process or thread."""
    previous = getattr(_quiet, "on", False)
    _quiet.on = True
    try:
        yield
    finally:
        _quiet.on = previous


def _note(agent: Any, engine: str, reason: str) -> str:
    """The note that ``agent`` searches in Python, or with ``engine=fast`` the error."""
    name = getattr(agent, "name", type(agent).__name__)
    if engine == "fast":
        raise AgentError(f"{name}: engine=fast: {reason}")
    return f"pacsim: {name} searches in Python: {reason}"


def _fall_back(agent: Any, engine: str, reason: str) -> None:
    """Say once per process and reason that the search runs in Python."""
    message = _note(agent, engine, reason)
    if message not in _told and not getattr(_quiet, "on", False):
        _told.add(message)
        print(message, file=sys.stderr)


def try_fast_search(agent: SearchPacman, state: GameState, depth: int | None = None,
                    root_values: bool = False) -> SearchResult | None:
    """The :class:`~pacsim.search.SearchResult` of ``agent.analyze(state,
    depth, root_values)`` computed by the kernel, or ``None`` when the agent
    asked for Python or the kernel does not cover its configuration (then
    said once on stderr; with ``engine=fast`` an :class:`AgentError`)."""
    options = agent.options
    if not _enabled(options.engine):
        return None
    reason = unsupported(agent, state)
    if reason is not None:
        _fall_back(agent, options.engine, reason)
        return None
    from pacsim.fast.search import kernel_search

    kinds = ("max", *(agent.ghost_kind(ghost) for ghost in range(len(state.ghosts))))
    if not set(kinds) <= ALGORITHMS[agent.algorithm][0]:
        return None  # the Python search reports the misuse
    model = options.model if "chance" in kinds else "uniform"

    star = agent.algorithm if agent.algorithm.startswith("star") else None
    table = _kernel_table(agent)
    adversary = _adversary(agent)
    if adversary is not None:
        model = "adversarial" if "chance" in kinds else "uniform"

    def search_levels(levels: int, deadline: float | None = None) -> SearchResult:
        return kernel_search(state, kinds, options.eval, levels, pruned=SUPPORTED_ALGORITHMS[agent.algorithm],
                             model=model, trust=options.trust, root_values=root_values, deadline=deadline,
                             slip=options.slip, star=star, table=table, adversary=adversary or (2, 1.0))

    levels = agent.levels(state, depth)  # checks the agent's own limits too
    if options.time and depth is None:
        return _deepening(search_levels, levels, agent.levels(state, 1), options.time)
    return search_levels(levels)


def _adversary(agent: SearchPacman) -> tuple[int, float] | None:
    """``(depth, p)`` of the agent's ghost model when it is the built-in
    adversarial ghost (the kernel runs its chase search), else ``None``."""
    from pacsim.agents.ghosts import AdversarialGhost

    if agent.model_ghost is None:
        return None
    ghost = agent.models_for(1)[0]
    if type(ghost) is not AdversarialGhost:
        return None
    return ghost.options.depth, ghost.options.p


def _kernel_table(agent: SearchPacman) -> Any:
    """The kernel's twin of the agent's transposition table (None without
    one), made on the first kernel search and cleared with the agent's (a
    new game)."""
    if agent.table is None:
        return None
    if agent.kernel_table is None:
        from pacsim.fast.table import KernelTable

        agent.kernel_table = KernelTable(agent.table.max_entries)
    return agent.kernel_table


def _deepening(search_levels: Callable[[int, float | None], SearchResult], levels: int, step: int,
               seconds: float) -> SearchResult:
    """``SearchPacman._deepening`` with the kernel: depth ``step``, ``2 *
    step``, ... under one budget of ``seconds``; the deepest search that
    finished, or depth ``step`` searched without a deadline if none did."""
    deadline = perf_counter() + seconds
    last = None
    for depth in range(step, levels + 1, step):
        try:
            last = search_levels(depth, deadline)
        except SearchTimeout:
            break
    return last if last is not None else search_levels(step, None)


def unsupported_mcts(agent: MctsPacman) -> str | None:
    """Why the kernel cannot search for the MCTS Pacman ``agent``, or ``None``."""
    from pacsim.agents.evaluation import EVALUATIONS
    from pacsim.agents.mcts_agent import MctsPacman

    options = agent.options
    reasons = (
        (available() is not None, available()),
        (options.rollout != "random", f"the fast path does not cover mcts rollout={options.rollout}"),
        (options.model != "uniform", f"the fast path does not cover mcts model={options.model}"),
        (options.time > 0 or options.iterations == 0, "the fast path does not cover an mcts time budget"),
        (options.eval not in SUPPORTED_EVALUATIONS or agent.evaluate is not EVALUATIONS[options.eval][0],
         f"the fast path does not cover eval={options.eval}"),
        (any(getattr(type(agent), method) is not getattr(MctsPacman, method) for method in ("game_for", "rollout_step")),
         f"the fast path does not cover a {type(agent).__name__} with its own game or rollout"),
    )
    return next((reason for failed, reason in reasons if failed), None)


def try_fast_mcts(agent: MctsPacman, state: GameState, seed: int) -> SearchResult | None:
    """``agent.analyze(state, seed)`` by the kernel (the same tree and answer),
    or ``None`` when it is off or does not cover the agent or the maze (the
    Python search then runs, silently: the run's notes cover search Pacmen only)."""
    options = agent.options
    if not _enabled(options.engine) or unsupported_mcts(agent) or state.layout.num_cells > MAX_CELLS:
        if options.engine == "fast":
            raise AgentError(f"{agent.name}: engine=fast: {unsupported_mcts(agent) or _maze_reason(state.layout.num_cells)}")
        return None
    from pacsim.fast.mcts import kernel_mcts

    return kernel_mcts(state, options.ghosts, options.eval, options.iterations, options.c, options.rollout_depth, seed)


def prepare_mcts(engine: str) -> None:
    """:func:`prepare` for the MCTS Pacman's kernel."""
    if _enabled(engine) and available() is None:
        _warm_up_mcts()


@cache
def _warm_up_mcts() -> None:
    from pacsim.fast.mcts import warm_up

    with _interrupts_held():
        warm_up()


def try_chase_values(engine: str, state: GameState, levels: int) -> SearchResult | None:
    """The adversarial ghost's root search (every root move's exact value)
    by the kernel, or ``None`` when it is off or cannot run."""
    if not _enabled(engine) or available() is not None:
        return None
    if state.layout.num_cells > MAX_CELLS:
        return None
    from pacsim.fast.search import chase_values

    return chase_values(state, levels)
