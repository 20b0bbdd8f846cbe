"""The fast path: pacsim's rules and searches compiled with numba.

The readable engine (:mod:`pacsim.engine`) and search (:mod:`pacsim.search`)
are the specification; this package computes the same things over small
integer arrays, for the configurations it knows, and gives the same
answers: the same values (bit for bit), moves and node counts.

Agents ask it through :func:`try_fast_search` (search Pacmen) and
:func:`try_chase_values` (the adversarial ghost); both return ``None`` when
the kernel cannot serve the request, and the caller then searches in
Python.  The choice is the agent's ``engine`` option: ``auto`` (the
default: the kernel when numba is installed and the configuration is
supported), ``fast`` (the kernel or an error) or ``python``.  The
environment variable ``PACSIM_ENGINE=python`` turns the fast path off for
every ``auto`` agent, ghosts included.
"""

from __future__ import annotations

import os
import sys
from functools import cache
from typing import Any

from pacsim.errors import AgentError

ENGINES = ("auto", "fast", "python")
ENVIRONMENT_SWITCH = "PACSIM_ENGINE"
SUPPORTED_ALGORITHMS = {"minimax": False, "alphabeta": True, "expectimax": False, "expectiminimax": False}
"""Algorithms the kernel runs, and whether they prune."""
SUPPORTED_MODELS = ("uniform", "random", "directional")

_told: set[str] = set()


@cache
def available() -> str | None:
    """``None`` when the kernel can run here, else why not (numba missing)."""
    try:
        import numba  # noqa: F401
    except ImportError:
        return "numba is not installed (pip install -e '.[fast]')"
    return None


def check_engine(engine: str) -> None:
    """Raise :class:`AgentError` for an unknown ``engine`` option, or for
    ``engine=fast`` where the kernel cannot run."""
    if engine not in ENGINES:
        raise AgentError(f"option engine={engine!r}: expected one of {', '.join(ENGINES)}")
    if engine == "fast" and available() is not None:
        raise AgentError(f"option engine=fast: {available()}")


def _enabled(engine: str) -> bool:
    if engine == "auto":
        return os.environ.get(ENVIRONMENT_SWITCH, "auto") != "python"
    return engine == "fast"


def _setting(agent: Any, attribute: str, option: str, default: Any) -> Any:
    """An agent's setting, whether it keeps it as an attribute or in an
    ``options`` dataclass."""
    if hasattr(agent, attribute):
        return getattr(agent, attribute)
    return getattr(getattr(agent, "options", None), option, default)


def unsupported(agent: Any, state: Any) -> str | None:
    """Why the kernel cannot search for ``agent`` at ``state``, or ``None``."""
    reason = available()
    if reason is not None:
        return reason
    from pacsim.agents.evaluation import EVALUATIONS
    from pacsim.fast.tables import MAX_CELLS

    algorithm = _setting(agent, "algorithm", "algorithm", "")
    evaluation = _setting(agent, "evaluation_name", "eval", "")
    model = _setting(agent, "model", "model", "uniform")
    if algorithm not in SUPPORTED_ALGORITHMS:
        return f"the fast path does not cover algorithm={algorithm} (it runs {', '.join(SUPPORTED_ALGORITHMS)})"
    if evaluation not in EVALUATIONS or getattr(agent, "evaluate", None) is not EVALUATIONS[evaluation][0]:
        return f"the fast path does not cover eval={evaluation} (it knows {', '.join(EVALUATIONS)})"
    if model not in SUPPORTED_MODELS:
        return f"the fast path does not cover model={model} (it knows {', '.join(SUPPORTED_MODELS)})"
    if _setting(agent, "slip", "slip", 0.0):
        return "the fast path does not cover slip (a slippery Pacman)"
    table = _setting(agent, "table", "table", None)
    if table is not None and table is not False and table != 0:  # a TranspositionTable is falsy while empty
        return "the fast path does not cover table (transposition tables)"
    if _setting(agent, "seconds", "time", 0.0):
        return "the fast path does not cover time (iterative deepening)"
    if state.layout.num_cells > MAX_CELLS:
        return f"the fast path does not cover a maze of {state.layout.num_cells} cells (it takes {MAX_CELLS})"
    return _overridden(agent)


def _overridden(agent: Any) -> str | None:
    """A subclass that changes the game the agent searches (the kernel
    knows only the built-in one)."""
    from pacsim.agents.search_agents import SearchPacman

    for method in ("game_for", "levels"):
        if getattr(type(agent), method, None) is not getattr(SearchPacman, method):
            return f"the fast path does not cover a {type(agent).__name__} with its own {method}()"
    return None


def _fall_back(agent: Any, engine: str, reason: str) -> None:
    """Say once per process and reason that the search runs in Python."""
    name = getattr(agent, "name", type(agent).__name__)
    if engine == "fast":
        raise AgentError(f"{name}: engine=fast: {reason}")
    message = f"pacsim: {name} searches in Python: {reason}"
    if message not in _told:
        _told.add(message)
        print(message, file=sys.stderr)


def try_fast_search(agent: Any, state: Any, depth: int | None = None, root_values: bool = False) -> Any:
    """The :class:`~pacsim.search.SearchResult` of ``agent.analyze(state,
    depth, root_values)`` computed by the kernel, or ``None`` when the agent
    asked for Python or the kernel does not cover its configuration (then
    said once on stderr; with ``engine=fast`` an :class:`AgentError`)."""
    engine = _setting(agent, "engine", "engine", "auto")
    if not _enabled(engine):
        return None
    reason = unsupported(agent, state)
    if reason is not None:
        _fall_back(agent, engine, reason)
        return None
    from pacsim.fast.search import kernel_search

    ghosts = len(state.ghosts)
    kinds = ("max", *(agent.ghost_kind(ghost) for ghost in range(ghosts)))
    algorithm = _setting(agent, "algorithm", "algorithm", "")
    allowed = {"minimax": {"max", "min"}, "alphabeta": {"max", "min"}, "expectimax": {"max", "chance"}}
    if not set(kinds) <= allowed.get(algorithm, set(kinds)):
        return None  # the Python search reports the misuse
    model = _setting(agent, "model", "model", "uniform")
    if "chance" not in kinds:
        model = "uniform"
    levels = agent.levels(state, depth)  # checks the agent's own limits too
    return kernel_search(state, kinds, _setting(agent, "evaluation_name", "eval", "score"), levels,
                         pruned=SUPPORTED_ALGORITHMS[algorithm], model=model,
                         trust=_setting(agent, "trust", "trust", 1.0), root_values=root_values)


def try_chase_values(ghost: Any, state: Any, levels: int) -> Any:
    """The adversarial ghost's root search (every root move's exact value)
    by the kernel, or ``None`` when it is off or cannot run."""
    if not _enabled(_setting(ghost, "engine", "engine", "auto")) or available() is not None:
        return None
    from pacsim.fast.tables import MAX_CELLS

    if state.layout.num_cells > MAX_CELLS:
        return None
    from pacsim.fast.search import chase_values

    return chase_values(state, levels)


__all__ = ["ENGINES", "available", "check_engine", "try_chase_values", "try_fast_search", "unsupported"]
