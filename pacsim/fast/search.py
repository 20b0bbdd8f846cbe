"""The kernel's searches behind pacsim.search's result types.

:func:`kernel_search` is ``pacsim.search.search`` on a ``PacmanGame`` for the
configurations the kernel knows; :func:`chase_values` is the adversarial
ghost's alpha-beta search.  Both take and return the Python engine's
objects, so callers can swap them for the Python search one for one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import suppress
from time import perf_counter
from typing import Any

import numpy as np

from pacsim.engine import GameState, parse_layout
from pacsim.engine.deadline import compiled_code
from pacsim.engine.layout import ACTIONS
from pacsim.engine.state import initial_state
from pacsim.errors import SearchError
from pacsim.fast import kernel
from pacsim.fast.bundles import Adversary, Model, StarPlan, StarWorkspace, Workspace
from pacsim.fast.keyed_cache import compile_before_timing
from pacsim.fast.kinds import KERNEL_ALGORITHMS, KERNEL_EVALUATIONS, KERNEL_MODELS, NODE_KINDS, ChanceMode, Evaluation, GhostKind, NodeKind
from pacsim.fast.maze_arrays import layout_tables, state_row, words_for
from pacsim.fast.memo import chase_memo, empty_memo
from pacsim.fast.own import search_root as own_search_root
from pacsim.fast.own_searches import BAD_BOUNDS
from pacsim.fast.own_searches import star_search_root as own_star_search_root
from pacsim.fast.policies import DEFAULT_PARAMETERS, SEARCHED_SHARE
from pacsim.fast.request import SearchRequest, chance_model
from pacsim.fast.star import FRAME_COLUMNS as STAR_FRAME_COLUMNS
from pacsim.fast.star import (
    OUT_OF_BOUNDS,
    STAR_STATS_SLOTS,
    WINDOW_COLUMNS,
    star_search_root,
)
from pacsim.fast.transposition import KernelTable, empty_arrays
from pacsim.fast.view import GhostPolicy, View, registered, registered_ghost
from pacsim.search import CHANCE, MAX, MIN, SearchResult, SearchStats, SearchTimeout

DEFAULT_ADVERSARY = (2, 1.0)
"""The adversarial ghost's default ``(depth, p)``."""
PLAN_ARGUMENT = 2
"""Where the :class:`~pacsim.fast.bundles.StarPlan` (with the table's arrays) is in ``star_search_root``'s arguments."""
NO_TABLE = empty_arrays()
"""The table arrays passed when a search has no table (numba compiles one signature)."""


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
    deadline: float | None = None,
    slip: float = 0.0,
    star: str | None = None,
    table: KernelTable | None = None,
    adversary: tuple[int, float] = DEFAULT_ADVERSARY,
) -> SearchResult:
    """Search ``state`` ``levels`` tree levels deep with the kernel.

    ``kinds`` is the node type of every agent (MAX for Pacman, then each
    ghost's); ``evaluation`` is ``score``, ``careful`` or the name of a
    kernel evaluation (:mod:`pacsim.fast.view`: the copy of the search
    compiled around it runs, :mod:`pacsim.fast.own`,
    :mod:`pacsim.fast.own_searches`); ``pruned`` makes
    MAX/MIN nodes alpha-beta; ``model`` is the chance nodes' ghost policy
    (``uniform``, ``random``, ``directional`` with ``attack``/``flee``),
    mixed with uniform by ``trust``; ``slip`` puts a chance node after
    Pacman's choice, as ``SlipperyPacmanGame`` does (moves are then action
    names).  The value, move, per-move values and node counts are those of
    ``pacsim.search.search`` on the same game.
    ``deadline`` (a ``perf_counter()`` instant) is honoured as that
    function honours it: :class:`SearchTimeout` once it has passed.

    ``star`` (``star1`` or ``star2``, which prune) searches chance nodes
    as ``pacsim.search.search`` with that algorithm does, with the
    evaluation's local bounds (a search Pacman's ``node_bounds``);
    ``table`` is the search's transposition table, kept between searches
    as a :class:`~pacsim.search.TranspositionTable` is.

    ``model=adversarial`` draws the ghosts' moves from the adversarial
    ghost's own distribution, ``adversary = (depth, p)`` its options: a
    chase search at every chance node, as the Python model does.
    """
    started = perf_counter()
    pruned = pruned or star is not None
    own = registered(evaluation)  # a kernel evaluation (pacsim.fast.view), compiled into a copy of the search
    own_ghost = registered_ghost(model)  # a kernel ghost (pacsim.fast.view): the plain search only
    settings = settings_row(state, KERNEL_EVALUATIONS[evaluation] if own is None else Evaluation.SCORE, 0,
                            model_kind(model), pruned, [NODE_KINDS[kind] for kind in kinds])
    weights = model_weights(trust, slip, (attack, flee, *DEFAULT_PARAMETERS[SEARCHED_SHARE:]), own_ghost is not None)
    full_window = root_values or not pruned
    if star is None and table is None and model != "adversarial":
        return _run(state, Model(settings, weights), levels, full_window, root_values, started, deadline, own,
                    own_ghost)
    if own_ghost is not None:  # the star search's chance model knows no own ghost (request.declined says so)
        raise ValueError(f"kernel_search: model={model} (a kernel ghost) is searched by the plain search only")
    adversary_rows = NO_ADVERSARY if model != "adversarial" else _adversary(state, *adversary)
    return _run_star(state, Model(settings, weights), levels, full_window, root_values, started, deadline,
                     int(ChanceMode[star.upper()] if star else ChanceMode.PLAIN), table, adversary_rows, own)


def run_request(state: GameState, request: SearchRequest, levels: int | None = None,
                deadline: float | None = None, table: KernelTable | None = None) -> SearchResult:
    """:func:`kernel_search` of what ``request`` asks, at ``state`` (a request
    :func:`~pacsim.fast.request.declined` let through), ``levels`` deep
    (default the request's), with ``table`` the kernel's table of a request
    with ``table=`` entries (kept by the caller between searches)."""
    if request.table and table is None:
        raise ValueError("run_request: a request with table entries needs the caller's KernelTable")
    pruned, mode = KERNEL_ALGORITHMS[request.algorithm]
    return kernel_search(state, request.kinds, request.evaluation, request.levels if levels is None else levels,
                         pruned=pruned, model=chance_model(request),
                         trust=request.trust, root_values=request.root_values, deadline=deadline, slip=request.slip,
                         star=mode.label, table=table if request.table else None,
                         adversary=request.adversary or DEFAULT_ADVERSARY)


def chase_values(state: GameState, levels: int) -> SearchResult:
    """The adversarial ghost's search: alpha-beta on the chase game (ghosts
    MAX, Pacman MIN) from ``state``, a ghost to move, with every root move
    searched exactly (``root_values=True``)."""
    started = perf_counter()
    settings = settings_row(state, Evaluation.CHASE, state.turn, GhostKind.UNIFORM, True,
                         [NodeKind.MIN] + [NodeKind.MAX] * len(state.ghosts))
    return _run(state, Model(settings, np.zeros(kernel.WEIGHTS, np.float64)), levels, True, True, started)


def warm_up(star: bool = False, evaluation: str = "careful", model: str = "uniform") -> None:
    """Load the compiled kernel now (compiling it on a first run): a search
    on a small maze, so that the first real move does not pay for it;
    ``star`` loads the Star1/Star2 and table search too; a user's kernel
    ``evaluation`` or ghost ``model`` loads (or compiles) the copy of the
    search made around it (numba's error, if any, is the first move's)."""
    state = initial_state(parse_layout("%%%%%\n%P.G%\n%%%%%\n", name="warm-up"))
    kernel_search(state, (MAX, MIN), "careful", 2)
    if star:
        kernel_search(state, (MAX, CHANCE), "careful", 2, star="star2", table=KernelTable(16))
    if registered(evaluation) is None and registered_ghost(model) is None:
        return
    with suppress(ValueError, SearchError):
        if star:
            kernel_search(state, (MAX, CHANCE), evaluation, 2, star="star2", table=KernelTable(16))
        else:
            kernel_search(state, (MAX, CHANCE), evaluation, 2, model=model)


class DistributionRefused(SearchError):
    """A user's own ghost, the search's chance model, gave a distribution
    :func:`~pacsim.fast.policies.first_bad_probability` refuses: the
    caller searches again in Python, which raises the policy's own error
    at the same move (the kernel does not say which)."""


def model_kind(model: str) -> int:
    """The :class:`~pacsim.fast.kinds.GhostKind` of the chance model named
    ``model``: built-in by name, or a user's own ghost by its spec."""
    return GhostKind.OWN if registered_ghost(model) is not None else KERNEL_MODELS[model]


def model_weights(trust: float, slip: float, parameters: Sequence[float], own_ghost: bool) -> np.ndarray:
    """A :class:`~pacsim.fast.bundles.Model`'s weights: trust, slip, the
    model ghost's parameters, and for a user's own ghost the slot where
    the search notes a refused distribution (``kernel.OWN_GHOST_FAILED``)."""
    return np.array([trust, slip, *parameters, *([0.0] if own_ghost else [])], np.float64)


def settings_row(state: GameState, evaluation: int, chase_ghost: int, model: int, pruned: bool,
              kinds: Sequence[int]) -> np.ndarray:
    """The kernel's int64 settings row (slots named in :mod:`pacsim.fast.kernel`)."""
    head = [evaluation, chase_ghost, model, int(pruned), len(state.ghosts), words_for(state.layout)]
    return np.array([*head, *kinds], np.int64)


def _run(state: GameState, model: Model, levels: int, full_window: bool, root_values: bool,
         started: float, deadline: float | None = None, own: Callable[[View], float] | None = None,
         own_ghost: GhostPolicy | None = None) -> SearchResult:
    """Search with ``model`` (and ``own``, a kernel evaluation of
    :mod:`pacsim.fast.view`, in place of the built-in one; ``own_ghost``,
    a kernel ghost, the model of ``GhostKind.OWN``); values are
    Python floats, as a search Pacman's are with either backend."""
    if deadline is not None and started > deadline:
        raise SearchTimeout("kernel search: deadline already passed")
    work = workspace(state_row(state), levels)
    arguments = (layout_tables(state.layout), model, levels, full_window, work)
    plain = own is None and own_ghost is None
    _in_slices(kernel.search_root if plain else own_search_root(own, own_ghost), arguments, deadline, users_code=not plain)
    if own_ghost is not None and model.weights[kernel.OWN_GHOST_FAILED]:
        raise DistributionRefused(f"kernel search: the ghost policy {own_ghost.__qualname__}() gave a bad distribution")
    return _result(state, model.weights, work.stats, work.values, levels, root_values, started)


def _run_star(state: GameState, model: Model, levels: int, full_window: bool,
              root_values: bool, started: float, deadline: float | None, star: int,
              table: KernelTable | None, adversary: Adversary,
              own: Callable[[View], float] | None = None) -> SearchResult:
    """:func:`_run` with Star1/Star2 chance nodes or a transposition table
    (and ``own``, a kernel evaluation, with its bounds)."""
    if deadline is not None and started > deadline:
        raise SearchTimeout("kernel search: deadline already passed")
    row = state_row(state)
    work = star_workspace(row, levels)
    table_arrays = NO_TABLE if table is None else table.bound_to(state.layout, row.shape[0], levels)
    plan = StarPlan(star, table is not None, table_arrays, adversary)
    arguments = (layout_tables(state.layout), model, plan, levels, full_window, work)

    def with_room(arguments: tuple[object, ...]) -> tuple[object, ...]:
        if table is None:
            return arguments
        return (*arguments[:PLAN_ARGUMENT], plan._replace(table=table.with_room(levels)), *arguments[PLAN_ARGUMENT + 1:])

    _in_slices(star_search_root if own is None else own_star_search_root(own), arguments, deadline, with_room,
               users_code=own is not None)
    if work.stats[OUT_OF_BOUNDS] == BAD_BOUNDS:
        raise SearchError("kernel search: the evaluation's bounds at a chance node are not finite numbers with low <= high")
    if work.stats[OUT_OF_BOUNDS]:
        raise SearchError("kernel search: a value lies outside its evaluation's bounds; Star pruning would be wrong")
    return _result(state, model.weights, work.stats, work.values, levels, root_values, started)


def _adversary(state: GameState, depth: int, mix: float) -> Adversary:
    """The adversarial ghost's chase search, ready in its own rows: its
    settings (the chasing ghost set at each chance node), weights, levels
    (``depth`` rounds), ``p`` and a workspace."""
    levels = depth * state.num_agents
    settings = settings_row(state, Evaluation.CHASE, 1, GhostKind.UNIFORM, True,
                            [NodeKind.MIN] + [NodeKind.MAX] * len(state.ghosts))
    row = state_row(state)
    return Adversary(Model(settings, np.zeros(kernel.WEIGHTS, np.float64)), np.array([levels], np.int64),
                     np.array([mix], np.float64), workspace(row, levels), chase_memo(state.layout, row.shape[0]))


def _result(state: GameState, weights: np.ndarray, stats: np.ndarray, values: np.ndarray, levels: int,
            root_values: bool, started: float) -> SearchResult:
    best = int(stats[kernel.BEST_MOVE])
    moves: Sequence[object] = state.legal_moves()
    if weights[kernel.SLIP] > 0.0:  # a slippery Pacman's moves are what he chooses: action names
        moves = [action for action, _ in state.legal_moves()]
    action = moves[best] if best >= 0 else None
    action_values: tuple[tuple[object, float], ...] = ()
    if root_values and best >= 0:
        action_values = tuple((move, float(values[index])) for index, move in enumerate(moves))
    search_stats = SearchStats(
        generated=int(stats[kernel.GENERATED]), evaluated=int(stats[kernel.EVALUATED]),
        cutoffs=int(stats[kernel.CUTOFFS]), seconds=perf_counter() - started, max_depth=int(stats[kernel.DEEPEST]),
    )
    return SearchResult(value=float(values[kernel.ROOT_VALUE]), action=action, stats=search_stats, depth=levels,
                        action_values=action_values)


FIRST_SLICE = 8192
"""Nodes the kernel searches before it first hands control back: most
searches of a game (depth 2 to 4) finish within it, in one call."""
SMALLEST_SLICE = 1024
"""Fewest nodes of a slice, whatever the clock says."""
SLICE_SECONDS = 0.005
"""Target length of later slices: the deadline is checked, and a signal
handler (the move time limit's alarm, a Ctrl-C) or a watchdog's timeout
runs, at least this often, for about 15 microseconds a slice."""


def _in_slices(root_search: Any, arguments: tuple[object, ...], deadline: float | None,
               between: Callable[[tuple[object, ...]], tuple[object, ...]] | None = None, users_code: bool = False) -> None:
    """Run ``root_search`` (``kernel.search_root`` or ``star_search_root``)
    slice by slice until it finishes; raise
    :class:`SearchTimeout` once ``deadline`` has passed.  Between two slices
    Python runs, so an ``AgentTimeout`` or a ``KeyboardInterrupt`` surfaces
    here exactly as it would in the Python search.  ``between`` gives the
    arguments of the next slice (a grown table).  A slice running ``users_code``
    (their own evaluation or ghost) is :func:`~pacsim.engine.deadline.compiled_code`."""
    search_slice: Any = root_search  # numba's Dispatcher types its calls too narrowly
    budget = FIRST_SLICE
    compile_before_timing(search_slice, (*arguments, budget))  # not counted against a deadline
    while True:
        slice_started = perf_counter()
        with compiled_code(users_code):  # a user's function that never returns cannot hold the move limit or Ctrl-C
            finished = search_slice(*arguments, budget)
        if finished:
            return
        now = perf_counter()
        if deadline is not None and now >= deadline:
            raise SearchTimeout("kernel search: deadline passed")
        if between is not None:
            arguments = between(arguments)
        # Keep slices near SLICE_SECONDS whatever the maze makes a node cost.
        elapsed = max(now - slice_started, 1e-6)
        budget = max(SMALLEST_SLICE, min(budget * 4, int(budget * SLICE_SECONDS / elapsed)))


def workspace(root: np.ndarray, levels: int) -> Workspace:
    """A fresh :class:`~pacsim.fast.bundles.Workspace` with ``root`` at its top, for ``levels`` levels."""
    size = levels + 2
    states = np.empty((size, root.shape[0]), np.int64)
    states[0] = root
    stats = np.zeros(kernel.STATS_SLOTS, np.int64)
    stats[kernel.BEST_MOVE] = stats[kernel.PAUSED_AT] = -1
    return Workspace(states, np.empty((size, 5), np.int64), np.empty((size, 5), np.int64),
                     np.empty((size, 5), np.float64), np.zeros((size, kernel.FRAME_COLUMNS), np.int64),
                     np.zeros((size, 3), np.float64), np.zeros(kernel.ROOT_VALUE + 1, np.float64), stats)


def star_workspace(root: np.ndarray, levels: int) -> StarWorkspace:
    """A fresh :class:`~pacsim.fast.bundles.StarWorkspace` (see :func:`workspace`)."""
    plain = workspace(root, levels)
    size = levels + 2
    stats = np.zeros(STAR_STATS_SLOTS, np.int64)
    stats[:kernel.STATS_SLOTS] = plain.stats
    return StarWorkspace(plain.states, plain.actions, plain.targets, plain.probabilities,
                         np.zeros((size, 5), np.float64), np.zeros((size, 5), np.float64),
                         np.zeros((size, STAR_FRAME_COLUMNS), np.int64), np.zeros((size, WINDOW_COLUMNS), np.float64),
                         plain.values, stats)


NO_ADVERSARY = Adversary(Model(np.zeros(kernel.KINDS + 1, np.int64), np.zeros(kernel.WEIGHTS, np.float64)),
                         np.zeros(1, np.int64), np.ones(1, np.float64), workspace(np.zeros(1, np.int64), 0),
                         empty_memo(1, 0))
"""The adversary passed when no chance node models it (one compiled signature)."""


__all__ = ["ACTIONS", "KernelTable", "chase_values", "kernel_search", "run_request"]
