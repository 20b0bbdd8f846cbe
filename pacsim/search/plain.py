"""Unpruned search: minimax, expectimax and expectiminimax.

One recursive function handles the three; the algorithm only decides which
node types are allowed.  This is the reference the pruned searches of
:mod:`pacsim.search.pruned` must agree with, and the readable statement of
what every search here computes: a MAX node is worth its best successor, a
MIN node its worst, a CHANCE node the probability-weighted sum of its
successors; a terminal position its utility, a position where the depth
runs out its evaluation.  Leaves, move order and the deadline are
:mod:`pacsim.search.nodes`.
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
from pacsim.search.nodes import deadline_check, leaf_function, move_order, observed_plain
from pacsim.search.transposition import EXACT


def make_plain_search(arguments: SearchArguments, counters: SearchCounters,
                      observer: SearchObserver | None = None) -> ValueFunction:
    """The node function of an unpruned search, counting into ``counters``
    (and telling ``observer`` of every node, when given).

    ``value(state, alpha, beta, remaining, level)`` is the exact value of
    ``state`` searched ``remaining`` levels deep (``math.inf`` for no
    limit) at tree level ``level``; ``alpha`` and ``beta`` are accepted for
    a common signature with the pruned searches and ignored.
    """
    game, settings, algorithm = arguments.game, arguments.settings, arguments.algorithm
    is_terminal, to_move, result, outcomes = game.is_terminal, game.to_move, game.result, game.outcomes
    leaf, moves, table = leaf_function(arguments, counters), move_order(game, settings.order), settings.table
    check_deadline, countdown = deadline_check(algorithm, settings.deadline), DEADLINE_CHECK_INTERVAL
    allow_min, allow_chance = MIN in arguments.kind.node_types, CHANCE in arguments.kind.node_types

    def value(state: Hashable, remaining: Any, level: int) -> Any:
        nonlocal countdown
        countdown -= 1
        if not countdown:
            countdown = check_deadline()
        terminal = is_terminal(state)
        if terminal or remaining == 0:
            return leaf(state, terminal, level)
        if table is not None:
            stored = table.answer(state, remaining, NEGATIVE_INFINITY, POSITIVE_INFINITY)
            if stored is not None:
                counters.deepest = max(counters.deepest, level)
                return stored
        mover = to_move(state)
        if mover == MAX:
            best = max_value(state, remaining, level)
        elif mover == MIN and allow_min:
            best = min_value(state, remaining, level)
        elif mover == CHANCE and allow_chance:
            best = expected_value(state, remaining, level)
        else:
            raise node_type_error(algorithm, mover)
        if table is not None:
            table.put(state, remaining, best, EXACT)
        return best

    # MAX and MIN are mirror images, written out: max()/min() over a
    # generator would cost a third more instructions per node.
    def max_value(state: Hashable, remaining: Any, level: int) -> Any:
        successors = moves(state)
        if not successors:
            raise no_moves_error(state)
        counters.generated += len(successors)
        best = NEGATIVE_INFINITY
        for move in successors:
            child_value = value(result(state, move), remaining - 1, level + 1)
            if child_value > best:
                best = child_value
        return best

    def min_value(state: Hashable, remaining: Any, level: int) -> Any:
        successors = moves(state)
        if not successors:
            raise no_moves_error(state)
        counters.generated += len(successors)
        best = POSITIVE_INFINITY
        for move in successors:
            child_value = value(result(state, move), remaining - 1, level + 1)
            if child_value < best:
                best = child_value
        return best

    def expected_value(state: Hashable, remaining: Any, level: int) -> Any:
        draws = outcomes(state)
        if not draws:
            raise no_moves_error(state)
        counters.generated += len(draws)
        # Summed in the order given, starting from 0, exactly as the pruned
        # searches do, so that both produce the same float (not sum(), which
        # may round differently).
        total = 0
        for probability, successor in draws:
            total += probability * value(successor, remaining - 1, level + 1)
        return total

    if observer is not None:
        # Rebinding the name the recursion calls routes every node through
        # the observer; an unobserved search runs the very same code, unslowed.
        value = observed_plain(value, observer)

    def windowed_value(state: Hashable, alpha: Any, beta: Any, remaining: Any, level: int) -> Any:
        return value(state, remaining, level)

    return windowed_value
