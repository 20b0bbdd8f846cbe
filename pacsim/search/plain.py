"""Unpruned search: minimax, expectimax and expectiminimax.

One recursive function handles the three; the algorithm only decides which
node types are allowed.  This is the reference the pruned searches of
:mod:`pacsim.search.pruned` must agree with, and the readable statement of
what every search here computes: a MAX node is worth its best successor, a
MIN node its worst, a CHANCE node the probability-weighted sum of its
successors; a terminal position its utility, a position where the depth
runs out its evaluation.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from time import perf_counter
from typing import Any, cast

from pacsim.search.arguments import SearchArguments
from pacsim.search.base import (
    CHANCE,
    DEADLINE_CHECK_INTERVAL,
    MAX,
    MIN,
    NEGATIVE_INFINITY,
    POSITIVE_INFINITY,
    NodeTracer,
    SearchCounters,
    SearchTimeout,
    ValueFunction,
    no_moves_error,
    node_type_error,
)
from pacsim.search.transposition import EXACT


def make_plain_search(arguments: SearchArguments, counters: SearchCounters,
                      tracer: NodeTracer | None = None) -> ValueFunction:
    """The node function of an unpruned search, counting into ``counters``
    (and recording every node into ``tracer``, when given).

    ``value(state, alpha, beta, remaining, level)`` is the exact value of
    ``state`` searched ``remaining`` levels deep (``math.inf`` for no
    limit) at tree level ``level``; ``alpha`` and ``beta`` are accepted for
    a common signature with the pruned searches and ignored.
    """
    game = arguments.game
    to_move, actions, result, outcomes = game.to_move, game.actions, game.result, game.outcomes
    is_terminal, utility = game.is_terminal, game.utility
    # search() checks that a depth-limited search has an evaluation.
    evaluate = cast(Callable[[Hashable], Any], arguments.evaluate)
    algorithm, order, deadline, table = arguments.algorithm, arguments.order, arguments.deadline, arguments.table
    allow_min = MIN in arguments.kind.node_types
    allow_chance = CHANCE in arguments.kind.node_types
    countdown = DEADLINE_CHECK_INTERVAL

    def value(state: Hashable, remaining: Any, level: int) -> Any:
        nonlocal countdown
        countdown -= 1
        if not countdown:
            countdown = DEADLINE_CHECK_INTERVAL
            if deadline is not None and perf_counter() > deadline:
                raise SearchTimeout(f"{algorithm}: deadline passed")
        # The deepest level is always a leaf's or a table hit's: every other
        # node goes on to a successor one level deeper.
        terminal = is_terminal(state)
        if terminal or remaining == 0:
            if level > counters.deepest:
                counters.deepest = level
            counters.evaluated += 1
            return utility(state) if terminal else evaluate(state)
        if table is not None:
            entry = table.get(state, remaining)
            # A plain search has an infinite window, so only an exact entry
            # (possibly left by a pruned search) can answer it.
            if entry is not None and entry[1] == EXACT:
                if level > counters.deepest:
                    counters.deepest = level
                return entry[0]

        mover = to_move(state)
        # MAX and MIN are mirror images, written out: max()/min() over a
        # generator would cost a third more instructions per node.
        if mover == MAX:
            moves = actions(state) if order is None else order(state, actions(state))
            if not moves:
                raise no_moves_error(state)
            counters.generated += len(moves)
            best = NEGATIVE_INFINITY
            for move in moves:
                child_value = value(result(state, move), remaining - 1, level + 1)
                if child_value > best:
                    best = child_value
        elif mover == MIN and allow_min:
            moves = actions(state) if order is None else order(state, actions(state))
            if not moves:
                raise no_moves_error(state)
            counters.generated += len(moves)
            best = POSITIVE_INFINITY
            for move in moves:
                child_value = value(result(state, move), remaining - 1, level + 1)
                if child_value < best:
                    best = child_value
        elif mover == CHANCE and allow_chance:
            draws = outcomes(state)
            if not draws:
                raise no_moves_error(state)
            counters.generated += len(draws)
            # Summed in the order given, starting from 0, exactly as the
            # pruned searches do, so that both produce the same float (not
            # sum(), which may round differently).
            best = 0
            for probability, successor in draws:
                best += probability * value(successor, remaining - 1, level + 1)
        else:
            raise node_type_error(algorithm, mover)

        if table is not None:
            table.put(state, remaining, best, EXACT)
        return best

    if tracer is not None:
        # Rebinding the name the recursion calls routes every node through
        # the tracer; an untraced search runs the very same code, unslowed.
        value = tracer.wrap(value, counters)

    def windowed_value(state: Hashable, alpha: Any, beta: Any, remaining: Any, level: int) -> Any:
        return value(state, remaining, level)

    return windowed_value
