"""What every node function shares, one concern each: scoring a leaf, the
moves in search order, the deadline (when the transposition table answers
a node is :meth:`~pacsim.search.transposition.TranspositionTable.answer`),
telling an observer of every node.  :mod:`pacsim.search.plain` and
:mod:`pacsim.search.pruned` (and the root, :mod:`pacsim.search.api`) are
built from these."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from time import perf_counter
from typing import Any

from pacsim.search.arguments import SearchArguments
from pacsim.search.base import (
    DEADLINE_CHECK_INTERVAL,
    Game,
    Order,
    SearchCounters,
    SearchObserver,
    SearchTimeout,
    ValueFunction,
)
from pacsim.search.star import out_of_bounds

Leaf = Callable[[Hashable, bool, int], Any]
"""``leaf(state, terminal, level)``: the value of a position the search stops at."""
PlainValue = Callable[[Hashable, Any, int], Any]
"""An unpruned search's node function: ``value(state, remaining, level)``."""


def leaf_function(arguments: SearchArguments, counters: SearchCounters, check_bounds: bool = False) -> Leaf:
    """What a leaf is worth: ``utility`` at a terminal position, ``evaluate`` where
    the depth runs out; with ``check_bounds``, a value outside the search's
    global bounds is a SearchError (Star pruning would be wrong).  The deepest
    level reached is always a leaf's, a table hit's or a chance node's."""
    utility, evaluate, algorithm = arguments.game.utility, arguments.settings.evaluate, arguments.algorithm
    lowest, highest = arguments.settings.bounds if check_bounds else (None, None)  # type: ignore[misc]

    def leaf(state: Hashable, terminal: bool, level: int) -> Any:
        if level > counters.deepest:
            counters.deepest = level
        counters.evaluated += 1
        found = utility(state) if terminal else evaluate(state)  # type: ignore[misc]  # checked: a depth needs one
        if check_bounds and (found < lowest or found > highest):
            raise out_of_bounds(algorithm, state, found, lowest, highest)
        return found

    return leaf


def move_order(game: Game, order: Order | None) -> Callable[[Hashable], Sequence[Any]]:
    """``moves(state)``: a MAX or MIN position's moves in the order searched,
    ``order``'s when given (else the game's own ``actions``, called directly:
    this runs at every inner node).  The caller raises :func:`no_moves_error`
    for a position without moves."""
    actions = game.actions
    if order is None:
        return actions

    def ordered(state: Hashable) -> Sequence[Any]:
        return order(state, actions(state))

    return ordered


def deadline_check(algorithm: str, deadline: float | None) -> Callable[[], int]:
    """``check()``, called once every :data:`DEADLINE_CHECK_INTERVAL` nodes:
    raises SearchTimeout once ``deadline`` has passed, else returns the nodes
    until the next look (a look at the clock costs about a node)."""

    def check() -> int:
        if deadline is not None and perf_counter() > deadline:
            raise SearchTimeout(f"{algorithm}: deadline passed")
        return DEADLINE_CHECK_INTERVAL

    return check


# An observed node function is the search's own, called from a wrapper that
# the search puts in place of the name its recursion calls: the hooks cost
# nothing when no one observes (a test per node would).  Each returns a
# loosely typed callable, which mypy lets the search rebind its name to.

def observed(value: ValueFunction, observer: SearchObserver) -> Callable[..., Any]:
    """A pruned node function ``value(state, alpha, beta, remaining, level)``
    telling ``observer`` of each node it enters and of the value it finds."""

    def observed_value(state: Hashable, alpha: Any, beta: Any, remaining: Any, level: int) -> Any:
        observer.node_entered(state, alpha=alpha, beta=beta, remaining=remaining, level=level)
        found = value(state, alpha, beta, remaining, level)
        observer.node_valued(found)
        return found

    return observed_value


def observed_plain(value: PlainValue, observer: SearchObserver) -> Callable[..., Any]:
    """:func:`observed` for an unpruned node function ``value(state, remaining, level)``
    (a node without a window)."""

    def observed_value(state: Hashable, remaining: Any, level: int) -> Any:
        observer.node_entered(state, alpha=None, beta=None, remaining=remaining, level=level)
        found = value(state, remaining, level)
        observer.node_valued(found)
        return found

    return observed_value
