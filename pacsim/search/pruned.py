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
from pacsim.search.probcut import ChanceProbCut
from pacsim.search.star import ChanceValue, StarSearch, out_of_bounds
from pacsim.search.transposition import EXACT, LOWER, UPPER


def make_pruned_search(arguments: SearchArguments, counters: SearchCounters,
                       tracer: NodeTracer | None = None) -> ValueFunction:
    """The node function of a pruned search, counting into ``counters``
    (and recording every node into ``tracer``, when given).

    Alpha-beta has no chance nodes (one is an error); Star1 and Star2
    (``arguments.kind.chance_mode``) need ``bounds``: ``(L, U)`` on every
    leaf value, or a callable ``bounds(state, remaining) -> (L, U)`` on
    every leaf value within ``remaining`` levels below ``state``.  A value
    found outside its bounds raises :class:`SearchError`.  A ChanceProbCut
    model (star modes only) tries a cut at chance nodes before the exact
    search (:mod:`pacsim.search.probcut`); it is wired in once, here, so
    that a search without it runs the very same chance-node code.

    ``value(state, alpha, beta, remaining, level)`` follows the window
    convention of this module.
    """
    game = arguments.game
    to_move, actions, result, outcomes = game.to_move, game.actions, game.result, game.outcomes
    is_terminal, utility = game.is_terminal, game.utility
    # search() checks that a depth-limited search has an evaluation.
    evaluate = cast(Callable[[Hashable], Any], arguments.evaluate)
    algorithm, order, deadline, table = arguments.algorithm, arguments.order, arguments.deadline, arguments.table
    # Leaves are checked against global bounds; local bounds (a callable)
    # are checked where they are used, on every chance node's successors.
    check_bounds = arguments.kind.chance_mode is not None and not callable(arguments.bounds)
    lowest, highest = cast(tuple[Any, Any], arguments.bounds) if check_bounds else (None, None)
    countdown = DEADLINE_CHECK_INTERVAL

    def value(state: Hashable, alpha: Any, beta: Any, remaining: Any, level: int) -> Any:
        nonlocal countdown
        countdown -= 1
        if not countdown:
            countdown = DEADLINE_CHECK_INTERVAL
            if deadline is not None and perf_counter() > deadline:
                raise SearchTimeout(f"{algorithm}: deadline passed")
        # The deepest level is a leaf's, a table hit's or a chance node's
        # (Star1 may cut one before any successor): a MAX or MIN node always
        # goes on to a successor one level deeper, so it need not look.
        terminal = is_terminal(state)
        if terminal or remaining == 0:
            if level > counters.deepest:
                counters.deepest = level
            counters.evaluated += 1
            leaf_value = utility(state) if terminal else evaluate(state)
            if check_bounds and (leaf_value < lowest or leaf_value > highest):
                raise out_of_bounds(algorithm, state, leaf_value, lowest, highest)
            return leaf_value
        if table is not None:
            entry = table.get(state, remaining)
            if entry is not None:
                stored, flag = entry
                # A bound answers the node when it already lies outside the
                # window, with the same meaning a fresh search would give.
                if flag == EXACT or (flag == LOWER and stored > beta) or (flag == UPPER and stored < alpha):
                    if level > counters.deepest:
                        counters.deepest = level
                    return stored
        window_alpha, window_beta = alpha, beta  # the loops below narrow alpha and beta

        mover = to_move(state)
        # MAX and MIN are mirror images, written out rather than shared: the
        # hot path, where a call per node or a test per child costs more
        # than the lines saved.  ``searched`` is a local, added to the
        # counters once per node for the same reason.
        if mover == MAX:
            moves = actions(state) if order is None else order(state, actions(state))
            if not moves:
                raise no_moves_error(state)
            best = NEGATIVE_INFINITY
            searched = 0
            for move in moves:
                searched += 1
                child_value = value(result(state, move), alpha, beta, remaining - 1, level + 1)
                if child_value > best:
                    best = child_value
                    if best > beta:
                        counters.cutoffs += 1
                        break
                    if best > alpha:
                        alpha = best
            counters.generated += searched
        elif mover == MIN:
            moves = actions(state) if order is None else order(state, actions(state))
            if not moves:
                raise no_moves_error(state)
            best = POSITIVE_INFINITY
            searched = 0
            for move in moves:
                searched += 1
                child_value = value(result(state, move), alpha, beta, remaining - 1, level + 1)
                if child_value < best:
                    best = child_value
                    if best < alpha:
                        counters.cutoffs += 1
                        break
                    if best < beta:
                        beta = best
            counters.generated += searched
        elif mover == CHANCE and chance_value is not None:
            if level > counters.deepest:
                counters.deepest = level
            draws = outcomes(state)
            if not draws:
                raise no_moves_error(state)
            counters.generated += len(draws)
            if len(draws) == 1 and draws[0][0] == 1:
                # A forced outcome (a ghost in a corridor): the node is its
                # successor, window and all; asking for bounds would cost
                # more than the rare cut they allow.
                best = value(draws[0][1], alpha, beta, remaining - 1, level + 1)
            else:
                best = chance_value(state, draws, alpha, beta, remaining - 1, level + 1)
        else:
            raise node_type_error(algorithm, mover)

        if table is not None:
            table.put(state, remaining, best, UPPER if best < window_alpha else LOWER if best > window_beta else EXACT)
        return best

    if tracer is not None:
        # Rebinding the name the recursion calls routes every node through
        # the tracer; an untraced search runs the very same code, unslowed.
        value = tracer.wrap(value, counters)
    chance_value = chance_node_function(arguments, value, counters, tracer)
    return value


def chance_node_function(arguments: SearchArguments, value: ValueFunction, counters: SearchCounters,
                         tracer: NodeTracer | None = None) -> ChanceValue | None:
    """What a branching chance node runs: Star1 or Star2 (ChanceProbCut
    first, with a model), or None for alpha-beta, which has none."""
    chance_mode = arguments.kind.chance_mode
    if chance_mode is None:
        return None
    assert arguments.bounds is not None  # search() checks that star pruning has them
    star = StarSearch(arguments.game, arguments.algorithm, arguments.evaluate, arguments.bounds, arguments.order,
                      value, counters)
    if tracer is not None:
        tracer.watch_star(star)
    exact = star.star2 if chance_mode == "star2" else star.star1
    return exact if arguments.probcut is None else ChanceProbCut(arguments.probcut, star, exact)
