"""The kernel's searches behind pacsim.search's result types.

:func:`run_request` is the one entry: ``pacsim.search.search`` on a
``PacmanGame`` for a :class:`~pacsim.fast.request.SearchRequest` the kernel
covers, translated once (:mod:`pacsim.fast.translate`) and searched in
slices (:func:`~pacsim.fast.slices.in_slices`, which whole games share); :func:`chase_values`
is the adversarial ghost's alpha-beta search.  Both take and return the
Python engine's objects, so callers can swap them for the Python search
one for one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import suppress
from time import perf_counter

import numpy as np

from pacsim.engine import GameState, parse_layout
from pacsim.engine.layout import ACTIONS
from pacsim.engine.state import initial_state
from pacsim.errors import SearchError
from pacsim.fast import kernel
from pacsim.fast.bundles import Model, StarPlan, StarWorkspace, Workspace
from pacsim.fast.jit import materialize
from pacsim.fast.maze_arrays import layout_tables, state_row
from pacsim.fast.request import SearchRequest, round_request
from pacsim.fast.slices import FIRST_SLICE, SLICE_SECONDS, SMALLEST_SLICE, in_slices
from pacsim.fast.star import OUT_OF_BOUNDS, star_search_root
from pacsim.fast.subtree_memo import subtree_memo
from pacsim.fast.translate import (
    NO_ADVERSARY,
    NO_TABLE,
    KernelSearch,
    adversary,
    chase_model,
    star_workspace,
    translate,
    workspace,
)
from pacsim.fast.transposition import KernelTable
from pacsim.fast.view import GhostPolicy, View, registered, registered_ghost
from pacsim.search import CHANCE, MAX, MIN, SearchResult, SearchStats, SearchTimeout

PLAN_ARGUMENT = 2
"""Where the :class:`~pacsim.fast.bundles.StarPlan` (with the table's arrays) is in ``star_search_root``'s arguments."""


def run_request(state: GameState, request: SearchRequest, deadline: float | None = None,
                table: KernelTable | None = None) -> SearchResult:
    """``pacsim.search.search`` of what ``request`` asks (a request
    :func:`~pacsim.fast.request.declined` let through) at ``state``, in the
    kernel: the same value, move, root values and node counts, searched
    ``request.levels`` deep (iterative deepening asks one request a depth).
    ``table`` is the kernel's table of a request
    with table entries, kept by the caller between searches as a
    :class:`~pacsim.search.TranspositionTable` is; ``deadline`` (a
    ``perf_counter()`` instant) raises :class:`SearchTimeout` as there."""
    started = perf_counter()
    if request.table and table is None:
        raise ValueError("run_request: a request with table entries needs the caller's KernelTable")
    levels = request.levels
    search = translate(state, request)
    if search.star_search and search.ghost is not None:  # the star search knows no own ghost (declined says so)
        raise ValueError(f"run_request: model={request.model} (a kernel ghost) is searched by the plain search only")
    if deadline is not None and started > deadline:
        raise SearchTimeout("kernel search: deadline already passed")
    if search.star_search:
        work: Workspace | StarWorkspace = _star_search(state, search, levels, deadline, table if request.table else None)
    else:
        work = _plain_search(state, search.model, levels, search.full_window, deadline, search.evaluation, search.ghost)
    return _result(state, search.model.weights, work.stats, work.values, levels, request.root_values, started)


def chase_values(state: GameState, levels: int) -> SearchResult:
    """The adversarial ghost's search: alpha-beta on the chase game (ghosts
    MAX, Pacman MIN) from ``state``, a ghost to move, with every root move
    searched exactly (``root_values=True``)."""
    started = perf_counter()
    model = chase_model(state, state.turn)
    work = _plain_search(state, model, levels, True)
    return _result(state, model.weights, work.stats, work.values, levels, True, started)


def warm_up(star: bool = False, evaluation: str = "careful", model: str = "uniform") -> None:
    """Load the compiled kernel now (compiling it on a first run): a search
    on a small maze, so that the first real move does not pay for it;
    ``star`` loads the Star1/Star2 and table search too; a user's kernel
    ``evaluation`` or ghost ``model`` loads (or compiles) the copy of the
    search made around it (numba's error, if any, is the first move's)."""
    own = registered(evaluation) is not None or registered_ghost(model) is not None
    if own:  # numba compiles the user's code: the built-in kernel is numba's too (no ahead-of-time build for it)
        materialize()
    state = initial_state(parse_layout("%%%%%\n%P.G%\n%%%%%\n", name="warm-up"))
    cells = state.layout.num_cells
    run_request(state, round_request((MAX, MIN), "careful", 2, cells))
    if star:
        run_request(state, round_request((MAX, CHANCE), "careful", 2, cells, "star2", table=16), table=KernelTable(16))
    if not own:
        return
    with suppress(ValueError, SearchError):
        if star:
            run_request(state, round_request((MAX, CHANCE), evaluation, 2, cells, "star2", table=16),
                        table=KernelTable(16))
        else:
            run_request(state, round_request((MAX, CHANCE), evaluation, 2, cells, model=model))


class DistributionRefused(SearchError):
    """A user's own ghost, the search's chance model, gave a distribution
    :func:`~pacsim.fast.policies.first_bad_probability` refuses: the
    caller searches again in Python, which raises the policy's own error
    at the same move (the kernel does not say which)."""


def _plain_search(state: GameState, model: Model, levels: int, full_window: bool, deadline: float | None = None,
                  own: Callable[[View], float] | None = None, own_ghost: GhostPolicy | None = None) -> Workspace:
    """The finished workspace of :func:`pacsim.fast.kernel.search_root` with
    ``model`` (or its copy compiled around ``own``, a user's kernel
    evaluation, and ``own_ghost``, a user's kernel ghost modelled by
    ``GhostKind.OWN``)."""
    row = state_row(state)
    work = workspace(row, levels, subtree_memo(row.shape[0]))
    arguments = (layout_tables(state.layout), model, levels, full_window, work)
    plain = own is None and own_ghost is None
    in_slices(kernel.search_root if plain else _own_search_root(own, own_ghost), arguments,
              FIRST_SLICE, SMALLEST_SLICE, SLICE_SECONDS, deadline, users_code=not plain)
    if own_ghost is not None and model.weights[kernel.OWN_GHOST_FAILED]:
        raise DistributionRefused(f"kernel search: the ghost policy {own_ghost.__qualname__}() gave a bad distribution")
    return work


def _star_search(state: GameState, search: KernelSearch, levels: int, deadline: float | None,
                 table: KernelTable | None) -> StarWorkspace:
    """:func:`_plain_search` with Star1/Star2 chance nodes, a transposition
    table or the adversarial model (:mod:`pacsim.fast.star`), and a user's
    kernel evaluation with its bounds."""
    row = state_row(state)
    work = star_workspace(row, levels)
    table_arrays = NO_TABLE if table is None else table.bound_to(state.layout, row.shape[0], levels)
    chase = NO_ADVERSARY if search.adversary is None else adversary(state, *search.adversary)
    plan = StarPlan(search.chance_mode, table is not None, table_arrays, chase)
    arguments = (layout_tables(state.layout), search.model, plan, levels, search.full_window, work)

    def with_room(arguments: tuple[object, ...]) -> tuple[object, ...]:
        if table is None:
            return arguments
        return (*arguments[:PLAN_ARGUMENT], plan._replace(table=table.with_room(levels)), *arguments[PLAN_ARGUMENT + 1:])

    root_search = star_search_root if search.evaluation is None else _own_star_search_root(search.evaluation)
    in_slices(root_search, arguments, FIRST_SLICE, SMALLEST_SLICE, SLICE_SECONDS, deadline, with_room,
              users_code=search.evaluation is not None)
    if search.evaluation is not None and work.stats[OUT_OF_BOUNDS] == _bad_bounds():
        raise SearchError("kernel search: the evaluation's bounds at a chance node are not finite numbers with low <= high")
    if work.stats[OUT_OF_BOUNDS]:
        raise SearchError("kernel search: a value lies outside its evaluation's bounds; Star pruning would be wrong")
    return work


# Users' compiled code needs numba: imported only when a search runs some.
def _own_search_root(own: Callable[[View], float] | None, own_ghost: GhostPolicy | None) -> object:
    from pacsim.fast.own import search_root

    return search_root(own, own_ghost)


def _own_star_search_root(evaluation: Callable[[View], float]) -> object:
    from pacsim.fast.own_searches import star_search_root as own_star_search_root

    return own_star_search_root(evaluation)


def _bad_bounds() -> int:
    from pacsim.fast.own_searches import BAD_BOUNDS

    return BAD_BOUNDS


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


__all__ = ["ACTIONS", "KernelTable", "chase_values", "run_request"]
