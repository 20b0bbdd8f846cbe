"""The entry points: :func:`search`, and iterative deepening over any search.

:func:`search` is three units in turn: :func:`checked` (every
check, once), the node function of the chosen algorithm
(:mod:`pacsim.search.plain` or :mod:`pacsim.search.pruned`), and
:func:`search_root`, because only the root keeps track of which move is best
and of the per-move values.  All three count into one
:class:`~pacsim.search.base.SearchCounters`.

:func:`deepen` deepens any per-depth search (this module's, or the compiled
kernel's) under one deadline; :func:`iterative_deepening` is it over
:func:`search`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterator
from dataclasses import replace
from time import perf_counter
from typing import Any

from pacsim.errors import SearchError
from pacsim.search.arguments import SearchArguments, SearchSettings, with_changes
from pacsim.search.base import (
    ALGORITHMS,
    CHANCE,
    MAX,
    NEGATIVE_INFINITY,
    POSITIVE_INFINITY,
    Evaluate,
    Game,
    SearchCounters,
    SearchObserver,
    SearchResult,
    SearchTimeout,
    ValueFunction,
    no_moves_error,
    node_type_error,
)
from pacsim.search.nodes import move_order
from pacsim.search.plain import make_plain_search
from pacsim.search.probcut import ProbCutModel
from pacsim.search.pruned import make_pruned_search
from pacsim.search.transposition import EXACT, TranspositionTable

DEFAULT_SETTINGS = SearchSettings()
"""Every option at its default: a search to the end of the game."""


def search(game: Game, state: Hashable, algorithm: str = "expectiminimax", settings: SearchSettings = DEFAULT_SETTINGS,
           **changes: Any) -> SearchResult:
    """Search ``game`` from ``state`` and return its value and best move.

    ``algorithm`` is one of ``minimax``, ``alphabeta`` (MAX/MIN nodes),
    ``expectimax`` (MAX/CHANCE), ``expectiminimax``, ``star1``, ``star2``
    (all three).  Every pruned algorithm returns the value and move of its
    plain counterpart (alphabeta = minimax, star1 = star2 =
    expectiminimax), bit for bit with exact arithmetic (ints, Fractions) and
    up to rounding with floats.

    ``settings`` (:class:`~pacsim.search.arguments.SearchSettings`, a field
    each: ``depth``, ``evaluate``, ``bounds``, ``table``, ``order``,
    ``root_values``, ``deadline``, ``probcut``) say how; keywords named
    after its fields change them for this search, so that
    ``search(game, state, "alphabeta", depth=3, evaluate=score)`` is
    ``search(game, state, "alphabeta", SearchSettings(depth=3, evaluate=score))``.
    ``depth=None`` searches to terminal positions; an integer is the number
    of tree levels (MAX, MIN and CHANCE levels alike) below the root, and
    ``evaluate(state)`` scores the non-terminal positions where it runs
    out.  Terminal positions always use ``game.utility``.

    Misuse (unknown algorithm or option, a node type the algorithm cannot
    handle, ``depth`` without ``evaluate``, star pruning without bounds,
    ...) raises :class:`~pacsim.errors.SearchError`; a ``deadline`` passed
    raises :class:`SearchTimeout` (checked at the start and then every
    couple of thousand nodes).
    """
    started = perf_counter()
    arguments = checked(game, algorithm, with_changes(settings, changes), started)
    return run_search(arguments, state, started)


def run_search(arguments: SearchArguments, state: Hashable, started: float,
               observer: SearchObserver | None = None) -> SearchResult:
    """:func:`search` with checked ``arguments``, begun at the
    ``perf_counter()`` instant ``started``; ``observer`` is told of every
    node below the root (:mod:`pacsim.search.trace` records them)."""
    counters = SearchCounters()
    if observer is not None:
        observer.search_started(counters)
    make_search = make_pruned_search if arguments.kind.pruned else make_plain_search
    value = make_search(arguments, counters, observer)
    depth = arguments.settings.depth
    remaining: Any = math.inf if depth is None else depth
    root_value, action, action_values = search_root(arguments, value, counters, state, remaining)
    return SearchResult(value=root_value, action=action, stats=counters.stats(perf_counter() - started),
                        depth=depth, action_values=action_values)


# -- argument checking ----------------------------------------------------

def checked(game: Game, algorithm: str, settings: SearchSettings, now: float) -> SearchArguments:
    """:func:`search`'s arguments, checked once here so that the node
    functions need not; a :class:`SearchError` (or :class:`SearchTimeout`
    for a deadline already passed at ``now``) otherwise."""
    depth, evaluate, deadline, probcut = settings.depth, settings.evaluate, settings.deadline, settings.probcut
    if deadline is not None and now > deadline:
        raise SearchTimeout(f"{algorithm}: deadline already passed")
    if algorithm not in ALGORITHMS:
        raise SearchError(f"unknown search algorithm {algorithm!r}; known: {', '.join(ALGORITHMS)}")
    kind = ALGORITHMS[algorithm]
    if depth is not None:
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
            raise SearchError(f"depth must be None or a non-negative integer, not {depth!r}")
        if evaluate is None:
            raise SearchError(f"{algorithm}: depth={depth} needs an evaluate function for the cut-off positions")
    if kind.chance_mode is not None:
        settings = replace(settings, bounds=_checked_bounds(algorithm, settings.bounds))
    if settings.table is not None and not isinstance(settings.table, TranspositionTable):
        raise SearchError(f"table must be a TranspositionTable, not {type(settings.table).__name__}")
    if settings.order is not None and not callable(settings.order):
        raise SearchError("order must be a callable(state, actions) -> actions")
    if probcut is not None:
        if kind.chance_mode is None:
            raise SearchError(f"{algorithm}: probcut applies to star1 and star2 only")
        if not isinstance(probcut, ProbCutModel):
            raise SearchError(f"probcut must be a ProbCutModel, not {type(probcut).__name__}")
    return SearchArguments(game, algorithm, kind, settings)


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


# -- the root --------------------------------------------------------------

RootAnswer = tuple[Any, Any, tuple[tuple[Any, Any], ...]]
"""``(value, best move or None, per-move values)``."""


def search_root(arguments: SearchArguments, value: ValueFunction, counters: SearchCounters, state: Hashable,
                remaining: Any) -> RootAnswer:
    """The root's value, and at a MAX or MIN root its best move (and every
    move's value when asked): the one node that keeps track of moves."""
    game = arguments.game
    if game.is_terminal(state):
        counters.evaluated += 1
        return game.utility(state), None, ()
    if remaining == 0:
        counters.evaluated += 1
        return arguments.settings.evaluate(state), None, ()  # type: ignore[misc]  # checked: a depth needs one
    mover = game.to_move(state)
    if mover not in arguments.kind.node_types:
        raise node_type_error(arguments.algorithm, mover)
    if mover == CHANCE:
        return value(state, NEGATIVE_INFINITY, POSITIVE_INFINITY, remaining, 0), None, ()
    return _best_root_move(arguments, value, counters, state, remaining, mover == MAX)


def _best_root_move(arguments: SearchArguments, value: ValueFunction, counters: SearchCounters, state: Hashable,
                    remaining: Any, maximising: bool) -> RootAnswer:
    """Search every root move and keep the best: the first of equal-valued
    moves in (reordered) move order."""
    game, settings = arguments.game, arguments.settings
    moves = move_order(game, settings.order)(state)
    if not moves:
        raise no_moves_error(state)
    # Plain searches ignore windows; pruned ones search each move against
    # the best so far unless every value must be exact.
    full_window = settings.root_values or not arguments.kind.pruned
    values = []
    best_value: Any = None
    action = None
    for index, move in enumerate(moves):
        child = game.result(state, move)
        counters.generated += 1
        if full_window or index == 0:
            child_value = value(child, NEGATIVE_INFINITY, POSITIVE_INFINITY, remaining - 1, 1)
        elif maximising:
            child_value = value(child, best_value, POSITIVE_INFINITY, remaining - 1, 1)
        else:
            child_value = value(child, NEGATIVE_INFINITY, best_value, remaining - 1, 1)
        if settings.root_values:
            values.append((move, child_value))
        # Strict comparison: ties keep the earlier move.  A pruned search
        # returns a value <= the best (MAX) for a move that is not better,
        # so it can never displace the best wrongly.
        if index == 0 or (child_value > best_value if maximising else child_value < best_value):
            best_value = child_value
            action = move
    if settings.table is not None:
        settings.table.put(state, remaining, best_value, EXACT)
    return best_value, action, tuple(values)


# -- iterative deepening ----------------------------------------------------

SearchAtDepth = Callable[[int, "float | None"], SearchResult]
"""``search_at(depth, deadline)``: one search of ``depth`` tree levels that
raises :class:`SearchTimeout` once the ``perf_counter()`` instant ``deadline`` has passed."""


def deepen(search_at: SearchAtDepth, max_depth: int, step: int = 1,
           deadline: float | None = None) -> Iterator[SearchResult]:
    """Yield ``search_at(depth, deadline)`` for depth ``step``, ``2*step``,
    ... up to the largest multiple of ``step`` not above ``max_depth``;
    stop silently at the first that runs out of time.  Any search can be
    deepened: :func:`search` here, the compiled kernel's elsewhere."""
    for depth in range(step, max_depth + 1, step):
        try:
            found = search_at(depth, deadline)
        except SearchTimeout:
            return
        yield found


def deepest(search_at: SearchAtDepth, max_depth: int, step: int, seconds: float) -> SearchResult:
    """The deepest of :func:`deepen`'s searches finished within ``seconds``;
    if not even depth ``step`` finished, depth ``step`` searched without a
    deadline (a move is always found)."""
    last = None
    for found in deepen(search_at, max_depth, step, perf_counter() + seconds):
        last = found
    return last if last is not None else search_at(step, None)


def iterative_deepening(
    game: Game,
    state: Hashable,
    algorithm: str,
    evaluate: Evaluate,
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

    def search_at(depth: int, deadline: float | None) -> SearchResult:
        return search(game, state, algorithm, depth=depth, evaluate=evaluate, deadline=deadline, **kwargs)

    return deepen(search_at, max_depth, step, deadline)
