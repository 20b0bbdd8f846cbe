"""Unpruned search: minimax, expectimax and expectiminimax.

One recursive function handles the three; the algorithm only decides which
node types are allowed.  These are the reference the pruned searches of
:mod:`pacsim.search.pruned` must agree with.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from time import perf_counter
from typing import Any, cast

from pacsim.search.base import (
    CHANCE,
    DEADLINE_CHECK_INTERVAL,
    MAX,
    MIN,
    NEGATIVE_INFINITY,
    POSITIVE_INFINITY,
    Game,
    SearchTimeout,
    no_moves_error,
    node_type_error,
)
from pacsim.search.table import EXACT, TranspositionTable

# Signature shared by the plain and pruned searchers:
# value(state, alpha, beta, remaining, level) -> value
ValueFunction = Callable[[Hashable, Any, Any, Any, int], Any]
CountsFunction = Callable[[], tuple[int, int, int, int]]


def make_plain_search(
    game: Game,
    algorithm: str,
    allowed: frozenset[str],
    evaluate: Callable[[Hashable], Any] | None,
    table: TranspositionTable | None,
    order: Callable[[Hashable, Any], Any] | None,
    deadline: float | None,
) -> tuple[ValueFunction, CountsFunction]:
    """Build the recursive value function of an unpruned search.

    Returns ``(value, counts)``: ``value(state, alpha, beta, remaining,
    level)`` is the exact value of ``state`` searched ``remaining`` levels
    deep (``math.inf`` for no limit) at tree level ``level``; ``alpha`` and
    ``beta`` are accepted for a common signature with the pruned searches
    and ignored.  ``counts()`` gives ``(generated, evaluated, cutoffs,
    deepest level)`` so far; a plain search never cuts off.
    """
    to_move = game.to_move
    actions = game.actions
    result = game.result
    outcomes = game.outcomes
    is_terminal = game.is_terminal
    utility = game.utility
    allow_min = MIN in allowed
    allow_chance = CHANCE in allowed
    # search() checks that a depth-limited search has an evaluation.
    evaluate_leaf = cast(Callable[[Hashable], Any], evaluate)
    table_get = table.get if table is not None else None
    table_put = table.put if table is not None else None

    generated = 0
    evaluated = 0
    deepest = 0
    countdown = DEADLINE_CHECK_INTERVAL

    def value(state: Hashable, remaining: Any, level: int) -> Any:
        nonlocal generated, evaluated, deepest, countdown
        countdown -= 1
        if not countdown:
            countdown = DEADLINE_CHECK_INTERVAL
            if deadline is not None and perf_counter() > deadline:
                raise SearchTimeout(f"{algorithm}: deadline passed")
        if level > deepest:
            deepest = level
        if is_terminal(state):
            evaluated += 1
            return utility(state)
        if remaining == 0:
            evaluated += 1
            return evaluate_leaf(state)
        if table_get is not None:
            entry = table_get(state, remaining)
            # A plain search has an infinite window, so only an exact entry
            # (possibly left by a pruned search) can answer it.
            if entry is not None and entry[1] == EXACT:
                return entry[0]

        mover = to_move(state)
        child_remaining = remaining - 1
        child_level = level + 1
        if mover == MAX:
            moves = actions(state)
            if order is not None:
                moves = order(state, moves)
            if not moves:
                raise no_moves_error(state)
            best = NEGATIVE_INFINITY
            for action in moves:
                generated += 1
                child_value = value(result(state, action), child_remaining, child_level)
                if child_value > best:
                    best = child_value
        elif mover == MIN and allow_min:
            moves = actions(state)
            if order is not None:
                moves = order(state, moves)
            if not moves:
                raise no_moves_error(state)
            best = POSITIVE_INFINITY
            for action in moves:
                generated += 1
                child_value = value(result(state, action), child_remaining, child_level)
                if child_value < best:
                    best = child_value
        elif mover == CHANCE and allow_chance:
            draws = outcomes(state)
            if not draws:
                raise no_moves_error(state)
            generated += len(draws)
            # Summed in the order given, starting from 0, exactly as the
            # pruned searches do, so that both produce the same float.
            best = 0
            for probability, successor in draws:
                best += probability * value(successor, child_remaining, child_level)
        else:
            raise node_type_error(algorithm, mover)

        if table_put is not None:
            table_put(state, remaining, best, EXACT)
        return best

    def windowed_value(state: Hashable, alpha: Any, beta: Any, remaining: Any, level: int) -> Any:
        return value(state, remaining, level)

    def counts() -> tuple[int, int, int, int]:
        return generated, evaluated, 0, deepest

    return windowed_value, counts
