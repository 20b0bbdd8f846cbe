"""The two entry points: :func:`search` and :func:`iterative_deepening`.

:func:`search` checks its arguments, builds the recursive searcher of the
chosen algorithm (:mod:`pacsim.search.plain` or :mod:`pacsim.search.pruned`)
and runs the root itself, because only the root keeps track of which move
is best and of the per-move values.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterator
from time import perf_counter
from typing import Any

from pacsim.errors import SearchError
from pacsim.search.base import (
    CHANCE,
    MAX,
    MIN,
    NEGATIVE_INFINITY,
    POSITIVE_INFINITY,
    Game,
    SearchResult,
    SearchStats,
    SearchTimeout,
    no_moves_error,
    node_type_error,
)
from pacsim.search.plain import make_plain_search
from pacsim.search.probcut import ProbCutModel
from pacsim.search.pruned import make_pruned_search
from pacsim.search.table import EXACT, TranspositionTable

# algorithm -> (node types it handles, pruned?, chance-node mode)
ALGORITHMS: dict[str, tuple[frozenset[str], bool, str | None]] = {
    "minimax": (frozenset({MAX, MIN}), False, None),
    "alphabeta": (frozenset({MAX, MIN}), True, None),
    "expectimax": (frozenset({MAX, CHANCE}), False, None),
    "expectiminimax": (frozenset({MAX, MIN, CHANCE}), False, None),
    "star1": (frozenset({MAX, MIN, CHANCE}), True, "star1"),
    "star2": (frozenset({MAX, MIN, CHANCE}), True, "star2"),
}


def search(
    game: Game,
    state: Hashable,
    algorithm: str = "expectiminimax",
    depth: int | None = None,
    evaluate: Callable[[Hashable], Any] | None = None,
    bounds: tuple[Any, Any] | Callable[[Hashable, Any], tuple[Any, Any]] | None = None,
    table: TranspositionTable | None = None,
    order: Callable[[Hashable, Any], Any] | None = None,
    root_values: bool = False,
    deadline: float | None = None,
    probcut: ProbCutModel | None = None,
) -> SearchResult:
    """Search ``game`` from ``state`` and return its value and best move.

    ``algorithm`` is one of ``minimax``, ``alphabeta`` (MAX/MIN nodes),
    ``expectimax`` (MAX/CHANCE), ``expectiminimax``, ``star1``, ``star2``
    (all three).  Every pruned algorithm returns the value and move of its
    plain counterpart (alphabeta = minimax, star1 = star2 =
    expectiminimax), bit for bit with exact arithmetic (ints, Fractions) and
    up to rounding with floats.

    ``depth=None`` searches to terminal positions; an integer is the number
    of tree levels (MAX, MIN and CHANCE levels alike) below the root, and
    ``evaluate(state)`` then scores the non-terminal positions where it
    runs out.  Terminal positions always use ``game.utility``.

    ``bounds=(L, U)`` must contain every utility and evaluate value; star1
    and star2 require it (and check it at every leaf), the other algorithms
    ignore it.  It may instead be a function ``bounds(state, remaining) ->
    (L, U)`` bounding every utility and evaluate value within ``remaining``
    levels below ``state`` (``math.inf`` when ``depth=None``), asked of each
    chance node: bounds local to a position are tighter, so Star1 and Star2
    cut more (checked on every successor of a chance node).  ``table`` reuses results at equal remaining depth (see
    :mod:`pacsim.search.table`).  ``order(state, actions)`` reorders moves
    at MAX and MIN nodes; it never changes the value, but among equal-valued
    root moves the first in the *reordered* list is chosen.

    ``root_values=True`` fills ``action_values`` with the exact value of
    every root move (pruned algorithms then search each root move with a
    full window, which costs more); the chosen move and value do not change.

    ``deadline`` is a ``time.perf_counter()`` instant; once it has passed
    the search raises :class:`SearchTimeout` (checked at the start and then
    every couple of thousand nodes).

    ``probcut`` (star1 and star2 only; off by default) is a
    :class:`~pacsim.search.probcut.ProbCutModel`: chance nodes are first
    tried with ChanceProbCut, a *forward* pruning that trusts a shallow
    search to predict the deep one and so may change the value and the
    move; its cuts are counted in ``stats.probcuts``.

    Misuse (unknown algorithm, a node type the algorithm cannot handle,
    ``depth`` without ``evaluate``, star pruning without bounds, ...) raises
    :class:`~pacsim.errors.SearchError`.
    """
    started = perf_counter()
    if deadline is not None and started > deadline:
        raise SearchTimeout(f"{algorithm}: deadline already passed")
    if algorithm not in ALGORITHMS:
        raise SearchError(f"unknown search algorithm {algorithm!r}; known: {', '.join(ALGORITHMS)}")
    allowed, pruned, chance_mode = ALGORITHMS[algorithm]
    if depth is not None:
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
            raise SearchError(f"depth must be None or a non-negative integer, not {depth!r}")
        if evaluate is None:
            raise SearchError(f"{algorithm}: depth={depth} needs an evaluate function for the cut-off positions")
    if chance_mode is not None:
        bounds = _checked_bounds(algorithm, bounds)
    if table is not None and not isinstance(table, TranspositionTable):
        raise SearchError(f"table must be a TranspositionTable, not {type(table).__name__}")
    if order is not None and not callable(order):
        raise SearchError("order must be a callable(state, actions) -> actions")
    if probcut is not None:
        if chance_mode is None:
            raise SearchError(f"{algorithm}: probcut applies to star1 and star2 only")
        if not isinstance(probcut, ProbCutModel):
            raise SearchError(f"probcut must be a ProbCutModel, not {type(probcut).__name__}")

    if pruned:
        value, counts = make_pruned_search(game, algorithm, chance_mode, evaluate, bounds, table, order, deadline,
                                           probcut)
    else:
        value, plain_counts = make_plain_search(game, algorithm, allowed, evaluate, table, order, deadline)

        def counts() -> tuple[int, int, int, int, int]:
            return (*plain_counts(), 0)
    remaining: Any = math.inf if depth is None else depth

    root_generated = 0
    root_evaluated = 0
    action = None
    action_values: tuple[tuple[Any, Any], ...] = ()
    if game.is_terminal(state):
        root_evaluated = 1
        root_value = game.utility(state)
    elif remaining == 0:
        root_evaluated = 1
        root_value = evaluate(state)  # type: ignore[misc]  # checked above
    else:
        mover = game.to_move(state)
        if mover not in allowed:
            raise node_type_error(algorithm, mover)
        if mover == CHANCE:
            root_value = value(state, NEGATIVE_INFINITY, POSITIVE_INFINITY, remaining, 0)
        else:
            moves = game.actions(state)
            if order is not None:
                moves = order(state, moves)
            if not moves:
                raise no_moves_error(state)
            maximising = mover == MAX
            # Plain searches ignore windows; pruned ones search each move
            # against the best so far unless every value must be exact.
            full_window = root_values or not pruned
            result = game.result
            pairs = []
            best_index = -1
            root_value = None
            for index, move in enumerate(moves):
                child = result(state, move)
                root_generated += 1
                if full_window or best_index < 0:
                    child_value = value(child, NEGATIVE_INFINITY, POSITIVE_INFINITY, remaining - 1, 1)
                elif maximising:
                    child_value = value(child, root_value, POSITIVE_INFINITY, remaining - 1, 1)
                else:
                    child_value = value(child, NEGATIVE_INFINITY, root_value, remaining - 1, 1)
                if root_values:
                    pairs.append((move, child_value))
                # Strict comparison: ties keep the earlier move.  A pruned
                # search returns a value <= the best (MAX) for a move that is
                # not better, so it can never displace the best wrongly.
                if best_index < 0 or (child_value > root_value if maximising else child_value < root_value):
                    best_index = index
                    root_value = child_value
                    action = move
            action_values = tuple(pairs)
            if table is not None:
                table.put(state, remaining, root_value, EXACT)

    generated, evaluated, cutoffs, deepest, probcuts = counts()
    stats = SearchStats(
        generated=generated + root_generated,
        evaluated=evaluated + root_evaluated,
        cutoffs=cutoffs,
        seconds=perf_counter() - started,
        max_depth=deepest,
        probcuts=probcuts,
    )
    return SearchResult(value=root_value, action=action, stats=stats, depth=depth, action_values=action_values)


def _checked_bounds(algorithm: str, bounds: Any) -> Any:
    """``bounds`` as ``(L, U)`` with finite ``L <= U`` or as a callable, or a SearchError."""
    if bounds is None:
        raise SearchError(f"{algorithm} needs bounds=(L, U) on every utility and evaluate value")
    if callable(bounds):
        return bounds
    try:
        lowest, highest = bounds
        finite = math.isfinite(lowest) and math.isfinite(highest)
    except (TypeError, ValueError):
        raise SearchError(f"{algorithm}: bounds must be a pair of numbers (L, U), not {bounds!r}") from None
    if not finite or lowest > highest:
        raise SearchError(f"{algorithm}: bounds must be finite with L <= U, not {bounds!r}")
    return lowest, highest


def iterative_deepening(
    game: Game,
    state: Hashable,
    algorithm: str,
    evaluate: Callable[[Hashable], Any],
    max_depth: int,
    seconds: float | None = None,
    step: int = 1,
    **kwargs: Any,
) -> Iterator[SearchResult]:
    """Yield :func:`search` results for depth ``step``, ``2*step``, ... up
    to the largest multiple of ``step`` not above ``max_depth``.

    ``step`` is the number of tree levels per iteration (a Pacman "ply" is
    one level per agent).  With ``seconds`` the whole loop shares one time
    budget (combined with any ``deadline`` in ``kwargs``, the earlier
    wins); when it runs out mid-depth the generator stops silently and the
    caller keeps the last complete result -- possibly none, if even the
    first depth did not finish.  Other ``kwargs`` go to :func:`search`; a
    ``table`` passed there is shared by all iterations, which is safe
    because entries are only reused at equal remaining depth.
    """
    if isinstance(step, bool) or not isinstance(step, int) or step < 1:
        raise SearchError(f"step must be a positive integer, not {step!r}")
    if isinstance(max_depth, bool) or not isinstance(max_depth, int) or max_depth < 0:
        raise SearchError(f"max_depth must be a non-negative integer, not {max_depth!r}")
    if "depth" in kwargs:
        raise SearchError("iterative_deepening chooses the depth itself; do not pass depth")
    deadline = kwargs.pop("deadline", None)
    if seconds is not None:
        budget_end = perf_counter() + seconds
        deadline = budget_end if deadline is None else min(deadline, budget_end)
    for depth in range(step, max_depth + 1, step):
        try:
            found = search(game, state, algorithm, depth=depth, evaluate=evaluate, deadline=deadline, **kwargs)
        except SearchTimeout:
            return
        yield found
