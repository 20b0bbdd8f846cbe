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

Chance nodes (Star1, Star2, local bounds) are :mod:`pacsim.search.star`;
this module is the alpha-beta node that calls them, probes and fills the
transposition table, and checks leaves against global bounds.
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
from pacsim.search.plain import ValueFunction
from pacsim.search.probcut import ChanceProbCut, ProbCutModel
from pacsim.search.star import StarSearch, out_of_bounds
from pacsim.search.table import EXACT, LOWER, UPPER, TranspositionTable

PrunedCounts = Callable[[], tuple[int, int, int, int, int]]


def make_pruned_search(
    game: Game,
    algorithm: str,
    chance_mode: str | None,
    evaluate: Callable[[Hashable], Any] | None,
    bounds: tuple[Any, Any] | Callable[[Hashable, Any], tuple[Any, Any]] | None,
    table: TranspositionTable | None,
    order: Callable[[Hashable, Any], Any] | None,
    deadline: float | None,
    probcut: ProbCutModel | None = None,
) -> tuple[ValueFunction, PrunedCounts]:
    """Build the recursive value function of a pruned search.

    ``chance_mode`` is ``None`` for alpha-beta (a CHANCE node is an error),
    ``"star1"`` or ``"star2"``; the latter two need ``bounds``: ``(L, U)``
    on every leaf value, or a callable ``bounds(state, remaining) -> (L, U)``
    on every leaf value within ``remaining`` levels below ``state``.  A value
    found outside its bounds raises :class:`SearchError`.  ``probcut`` (star
    modes only) tries a ChanceProbCut at chance nodes before the exact
    search (:mod:`pacsim.search.probcut`); it is wired in once, here, so
    that a search without it runs the very same chance-node code.

    Returns ``(value, counts)`` where ``value(state, alpha, beta,
    remaining, level)`` follows the window convention of this module and
    ``counts()`` gives ``(generated, evaluated, cutoffs, deepest level,
    probcut cuts)``.
    """
    to_move = game.to_move
    actions = game.actions
    result = game.result
    outcomes = game.outcomes
    is_terminal = game.is_terminal
    utility = game.utility
    # search() checks that a depth-limited search has an evaluation.
    evaluate_leaf = cast(Callable[[Hashable], Any], evaluate)
    table_get = table.get if table is not None else None
    table_put = table.put if table is not None else None
    # Leaves are checked against global bounds; local bounds (a callable)
    # are checked where they are used, on every chance node's successors.
    local_bounds = bounds if callable(bounds) else None
    check_bounds = chance_mode is not None and local_bounds is None
    if check_bounds:
        lowest, highest = cast(tuple[Any, Any], bounds)
    else:
        lowest, highest = NEGATIVE_INFINITY, POSITIVE_INFINITY

    generated = 0
    evaluated = 0
    cutoffs = 0
    deepest = 0
    countdown = DEADLINE_CHECK_INTERVAL

    def value(state: Hashable, alpha: Any, beta: Any, remaining: Any, level: int) -> Any:
        nonlocal generated, evaluated, cutoffs, deepest, countdown
        countdown -= 1
        if not countdown:
            countdown = DEADLINE_CHECK_INTERVAL
            if deadline is not None and perf_counter() > deadline:
                raise SearchTimeout(f"{algorithm}: deadline passed")
        if level > deepest:
            deepest = level
        if is_terminal(state):
            evaluated += 1
            leaf_value = utility(state)
            if check_bounds and (leaf_value < lowest or leaf_value > highest):
                raise out_of_bounds(algorithm, state, leaf_value, lowest, highest)
            return leaf_value
        if remaining == 0:
            evaluated += 1
            leaf_value = evaluate_leaf(state)
            if check_bounds and (leaf_value < lowest or leaf_value > highest):
                raise out_of_bounds(algorithm, state, leaf_value, lowest, highest)
            return leaf_value
        if table_get is not None:
            entry = table_get(state, remaining)
            if entry is not None:
                stored, flag = entry
                # A bound answers the node when it already lies outside the
                # window, with the same meaning a fresh search would give.
                if flag == EXACT or (flag == LOWER and stored > beta) or (flag == UPPER and stored < alpha):
                    return stored
        window_alpha = alpha
        window_beta = beta

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
                child_value = value(result(state, action), alpha, beta, child_remaining, child_level)
                if child_value > best:
                    best = child_value
                    if best > beta:
                        cutoffs += 1
                        break
                    if best > alpha:
                        alpha = best
        elif mover == MIN:
            moves = actions(state)
            if order is not None:
                moves = order(state, moves)
            if not moves:
                raise no_moves_error(state)
            best = POSITIVE_INFINITY
            for action in moves:
                generated += 1
                child_value = value(result(state, action), alpha, beta, child_remaining, child_level)
                if child_value < best:
                    best = child_value
                    if best < alpha:
                        cutoffs += 1
                        break
                    if best < beta:
                        beta = best
        elif mover == CHANCE and chance_value is not None:
            draws = outcomes(state)
            if not draws:
                raise no_moves_error(state)
            generated += len(draws)
            if len(draws) == 1 and draws[0][0] == 1:
                # A forced outcome (a ghost in a corridor): the node is its
                # successor, window and all; asking for bounds would cost
                # more than the rare cut they allow.
                best = value(draws[0][1], alpha, beta, child_remaining, child_level)
            else:
                best = chance_value(state, draws, alpha, beta, child_remaining, child_level)
        else:
            raise node_type_error(algorithm, mover)

        if table_put is not None:
            if best < window_alpha:
                table_put(state, remaining, best, UPPER)
            elif best > window_beta:
                table_put(state, remaining, best, LOWER)
            else:
                table_put(state, remaining, best, EXACT)
        return best

    chance_value = None
    probcut_node = None
    if chance_mode is not None:
        assert bounds is not None
        star = StarSearch(game, algorithm, evaluate, bounds, order, value)
        chance_value = star.star2 if chance_mode == "star2" else star.star1
        star_counters = star.counters
        if probcut is not None:
            chance_value = probcut_node = ChanceProbCut(probcut, star, chance_value)

    def counts() -> tuple[int, int, int, int, int]:
        if chance_mode is None:
            return generated, evaluated, cutoffs, deepest, 0
        return (generated + star_counters.generated, evaluated + star_counters.evaluated,
                cutoffs + star_counters.cutoffs, max(deepest, star_counters.deepest),
                probcut_node.cuts if probcut_node is not None else 0)

    return value, counts
