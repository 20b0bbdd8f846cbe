"""Pruned search: alpha-beta, and Ballard's Star1 and Star2 for chance nodes.

Window convention
-----------------
A node is searched with a closed window ``[alpha, beta]`` and prunes only on
*strict* inequality (a MAX node stops when a child is worth more than
``beta``, a MIN node when a child is worth less than ``alpha``; the
convention of the CS188 Pacman projects, so generated-state counts compare
with that course's autograder).  The returned number ``v`` then means
(fail-soft):

* ``alpha <= v <= beta``: ``v`` is the exact value;
* ``v < alpha``: the exact value is at most ``v``;
* ``v > beta``: the exact value is at least ``v``.

Because a value equal to a bound is still exact, a root move that ties the
best so far is searched exactly and does not replace it, so the pruned
searches choose the same move as their plain counterparts.

Read :func:`make_pruned_search` top to bottom: the node (leaf, table, node
type), then MAX and MIN (windows and cut-offs), then CHANCE.  Leaves, move
order and the deadline are :mod:`pacsim.search.nodes`, the table's answers
:meth:`~pacsim.search.transposition.TranspositionTable.answer`;
the chance nodes' bounds (Star1, Star2, ChanceProbCut) are
:mod:`pacsim.search.star` and :mod:`pacsim.search.probcut`.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from pacsim.search.arguments import SearchArguments
from pacsim.search.base import (
    CHANCE,
    DEADLINE_CHECK_INTERVAL,
    MAX,
    MIN,
    NEGATIVE_INFINITY,
    POSITIVE_INFINITY,
    SearchCounters,
    SearchObserver,
    ValueFunction,
    no_moves_error,
    node_type_error,
)
from pacsim.search.nodes import deadline_check, leaf_function, move_order, observed
from pacsim.search.probcut import ChanceProbCut
from pacsim.search.star import ChanceValue, StarSearch
from pacsim.search.transposition import EXACT, LOWER, UPPER


def make_pruned_search(arguments: SearchArguments, counters: SearchCounters,
                       observer: SearchObserver | None = None) -> ValueFunction:
    """``value(state, alpha, beta, remaining, level)``, the node function of a
    pruned search (this module's window convention), counting into ``counters``
    and telling ``observer`` of every node when given.  Alpha-beta meets no
    chance node (one is an error); Star1 and Star2 check leaves against global
    bounds here, local bounds at each chance node (:mod:`pacsim.search.star`)."""
    game, settings, algorithm = arguments.game, arguments.settings, arguments.algorithm
    is_terminal, to_move, result, outcomes = game.is_terminal, game.to_move, game.result, game.outcomes
    global_bounds = arguments.kind.chance_mode is not None and not callable(settings.bounds)  # checked at each leaf
    leaf, moves, table = leaf_function(arguments, counters, global_bounds), move_order(game, settings.order), settings.table
    check_deadline, countdown = deadline_check(algorithm, settings.deadline), DEADLINE_CHECK_INTERVAL

    def value(state: Hashable, alpha: Any, beta: Any, remaining: Any, level: int) -> Any:
        nonlocal countdown
        countdown -= 1
        if not countdown:
            countdown = check_deadline()
        terminal = is_terminal(state)
        if terminal or remaining == 0:
            return leaf(state, terminal, level)
        if table is not None:
            stored = table.answer(state, remaining, alpha, beta)
            if stored is not None:
                counters.deepest = max(counters.deepest, level)
                return stored
        mover = to_move(state)
        if mover == MAX:
            best = max_value(state, alpha, beta, remaining, level)
        elif mover == MIN:
            best = min_value(state, alpha, beta, remaining, level)
        elif mover == CHANCE and chance_value is not None:
            best = expected_value(state, alpha, beta, remaining, level)
        else:
            raise node_type_error(algorithm, mover)
        if table is not None:
            # What the fail-soft value is, read off the window (the module docstring).
            table.put(state, remaining, best, UPPER if best < alpha else LOWER if best > beta else EXACT)
        return best

    # MAX and MIN are mirror images, written out rather than shared: a test
    # per child would cost more than the lines saved.  ``searched`` is added
    # to the counters once per node for the same reason.
    def max_value(state: Hashable, alpha: Any, beta: Any, remaining: Any, level: int) -> Any:
        """The best successor; stops at the first worth more than ``beta``."""
        best, searched = NEGATIVE_INFINITY, 0
        for move in moves(state):
            searched += 1
            child_value = value(result(state, move), alpha, beta, remaining - 1, level + 1)
            if child_value > best:
                best = child_value
                if best > beta:
                    counters.cutoffs += 1
                    break
                if best > alpha:
                    alpha = best
        if not searched:
            raise no_moves_error(state)
        counters.generated += searched
        return best

    def min_value(state: Hashable, alpha: Any, beta: Any, remaining: Any, level: int) -> Any:
        """The worst successor; stops at the first worth less than ``alpha``."""
        best, searched = POSITIVE_INFINITY, 0
        for move in moves(state):
            searched += 1
            child_value = value(result(state, move), alpha, beta, remaining - 1, level + 1)
            if child_value < best:
                best = child_value
                if best < alpha:
                    counters.cutoffs += 1
                    break
                if best < beta:
                    beta = best
        if not searched:
            raise no_moves_error(state)
        counters.generated += searched
        return best

    def expected_value(state: Hashable, alpha: Any, beta: Any, remaining: Any, level: int) -> Any:
        """The outcomes' expectation, cut by Star1 or Star2 (which may stop
        before any successor, so the node itself may be the deepest)."""
        counters.deepest = max(counters.deepest, level)
        draws = outcomes(state)
        if not draws:
            raise no_moves_error(state)
        counters.generated += len(draws)
        if len(draws) == 1 and draws[0][0] == 1:
            # A forced outcome (a ghost in a corridor) is the node, window and
            # all: asking for bounds would cost more than the rare cut they allow.
            return value(draws[0][1], alpha, beta, remaining - 1, level + 1)
        return chance_value(state, draws, alpha, beta, remaining - 1, level + 1)  # type: ignore[misc]

    if observer is not None:
        # Rebinding the name the recursion calls routes every node through
        # the observer; an unobserved search runs the very same code, unslowed.
        value = observed(value, observer)
    chance_value = chance_node_function(arguments, value, counters, observer)
    return value


def chance_node_function(arguments: SearchArguments, value: ValueFunction, counters: SearchCounters,
                         observer: SearchObserver | None = None) -> ChanceValue | None:
    """What a branching chance node runs: Star1 or Star2 (ChanceProbCut
    first, with a model), or None for alpha-beta, which has none."""
    chance_mode, settings = arguments.kind.chance_mode, arguments.settings
    if chance_mode is None:
        return None
    assert settings.bounds is not None  # search() checks that star pruning has them
    star = StarSearch(arguments.game, arguments.algorithm, settings.evaluate, settings.bounds, settings.order,
                      value, counters, observer)
    exact = star.star2 if chance_mode == "star2" else star.star1
    return exact if settings.probcut is None else ChanceProbCut(settings.probcut, star, exact)
