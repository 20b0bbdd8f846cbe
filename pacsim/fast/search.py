"""The kernel's searches behind pacsim.search's result types.

:func:`kernel_search` is ``pacsim.search.search`` on a ``PacmanGame`` for the
configurations the kernel knows; :func:`chase_values` is the adversarial
ghost's alpha-beta search.  Both take and return the Python engine's
objects, so callers can swap them for the Python search one for one.
"""

from __future__ import annotations

from time import perf_counter

import numpy as np

from pacsim.engine import GameState
from pacsim.engine.layout import ACTIONS
from pacsim.fast import kernel
from pacsim.fast.tables import layout_tables, state_row, words_for
from pacsim.search import CHANCE, MAX, MIN, SearchResult, SearchStats

NODE_KINDS = {MAX: kernel.MAX_NODE, MIN: kernel.MIN_NODE, CHANCE: kernel.CHANCE_NODE}
EVALUATIONS = {"score": kernel.EVAL_SCORE, "careful": kernel.EVAL_CAREFUL}
MODELS = {"uniform": kernel.MODEL_UNIFORM, "random": kernel.MODEL_RANDOM, "directional": kernel.MODEL_DIRECTIONAL}


def kernel_search(
    state: GameState,
    kinds: tuple[str, ...],
    evaluation: str,
    levels: int,
    pruned: bool = False,
    model: str = "uniform",
    trust: float = 1.0,
    attack: float = 0.8,
    flee: float = 0.8,
    root_values: bool = False,
) -> SearchResult:
    """Search ``state`` ``levels`` tree levels deep with the kernel.

    ``kinds`` is the node type of every agent (MAX for Pacman, then each
    ghost's); ``evaluation`` is ``score`` or ``careful``; ``pruned`` makes
    MAX/MIN nodes alpha-beta; ``model`` is the chance nodes' ghost policy
    (``uniform``, ``random``, ``directional`` with ``attack``/``flee``),
    mixed with uniform by ``trust``.  The value, move, per-move values and
    node counts are those of ``pacsim.search.search`` on the same game.
    """
    started = perf_counter()
    settings = _settings(state, EVALUATIONS[evaluation], 0, MODELS[model], pruned,
                         [NODE_KINDS[kind] for kind in kinds])
    weights = np.array([trust, attack, flee], np.float64)
    whole = evaluation == "score" and CHANCE not in kinds
    return _run(state, settings, weights, levels, root_values or not pruned, root_values, started, whole)


def chase_values(state: GameState, levels: int) -> SearchResult:
    """The adversarial ghost's search: alpha-beta on the chase game (ghosts
    MAX, Pacman MIN) from ``state``, a ghost to move, with every root move
    searched exactly (``root_values=True``)."""
    started = perf_counter()
    settings = _settings(state, kernel.EVAL_CHASE, state.turn, kernel.MODEL_UNIFORM, True,
                         [kernel.MIN_NODE] + [kernel.MAX_NODE] * len(state.ghosts))
    return _run(state, settings, np.zeros(3, np.float64), levels, True, True, started, True)


def warm_up() -> None:
    """Load the compiled kernel now (compiling it on a first run): a search
    on a small maze, so that the first real move does not pay for it."""
    from pacsim.engine import parse_layout
    from pacsim.engine.state import initial_state

    state = initial_state(parse_layout("%%%%%\n%P.G%\n%%%%%\n", name="warm-up"))
    kernel_search(state, (MAX, MIN), "careful", 2)


def _settings(state: GameState, evaluation: int, chase_ghost: int, model: int, pruned: bool,
              kinds: list[int]) -> np.ndarray:
    """The kernel's int64 settings row (slots named in :mod:`pacsim.fast.kernel`)."""
    head = [evaluation, chase_ghost, model, int(pruned), len(state.ghosts), words_for(state.layout)]
    return np.array(head + kinds, np.int64)


def _run(state: GameState, settings: np.ndarray, weights: np.ndarray, levels: int, full_window: bool, root_values: bool,
         started: float, whole: bool) -> SearchResult:
    """Search with ``settings``; ``whole``: the Python search's values are ints
    there (integer leaves, no chance averages), so give ints too."""
    tables = layout_tables(state.layout)
    stats = np.zeros(4, np.int64)
    values = np.zeros(5, np.float64)
    value, best = kernel.search_root(tables.moves, tables.distance, tables.nearest, tables.ghost_starts,
                                     settings, weights, state_row(state), levels, full_window, values, stats)
    moves = state.legal_moves()
    action = moves[best] if best >= 0 else None
    action_values: tuple[tuple[object, float], ...] = ()
    if root_values and best >= 0:
        action_values = tuple((move, _plain(values[index], whole)) for index, move in enumerate(moves))
    search_stats = SearchStats(
        generated=int(stats[kernel.GENERATED]), evaluated=int(stats[kernel.EVALUATED]),
        cutoffs=int(stats[kernel.CUTOFFS]), seconds=perf_counter() - started, max_depth=int(stats[kernel.DEEPEST]),
    )
    return SearchResult(value=_plain(value, whole), action=action, stats=search_stats, depth=levels,
                        action_values=action_values)


def _plain(value: float, whole: bool) -> float | int:
    """A Python number (numpy scalars would leak into stored rows)."""
    return int(value) if whole else float(value)


__all__ = ["ACTIONS", "chase_values", "kernel_search"]
