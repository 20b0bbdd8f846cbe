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

Star1 (Ballard 1983; Hauk, Buro & Schaeffer 2004)
-------------------------------------------------
With every leaf value known to lie in ``[L, U]``, a chance node whose
successors ``1..n`` have probabilities ``p_i`` and whose first ``i-1``
successors sum to ``S`` is bounded by ``S + p_i v_i + R_i U`` above and
``S + p_i v_i + R_i L`` below, ``R_i`` being the probability mass after
successor ``i``.  Successor ``i`` therefore only matters inside the window

    ``[(alpha - S - R_i U) / p_i,  (beta - S - R_i L) / p_i]``

(clipped to ``[L, U]``); if it falls outside, the chance node falls outside
its own window and stops.

Local bounds.  One ``[L, U]`` for the whole tree must hold at the deepest
leaf, so in a game whose values spread with depth (a score that can change
by hundreds over a few moves) it is loose near every node and Star1 almost
never cuts.  ``bounds`` may instead be a function ``bounds(state,
remaining)`` of a position and the levels left to search below it, bounding
every leaf value within those levels.  Each chance node asks it once, of
itself, and uses the answer for each successor.  Per-successor bounds
(``L_i``, ``U_i``, with ``R_i U`` becoming the probability-weighted sum of
the ``U_j`` after successor ``i``) are what Star2's probes refine anyway.
Local bounds are checked on every value a chance node's successor returns (a
fail-soft bound outside them is as wrong as an exact value outside them).

Star2 adds a probing phase: before Star1, each successor that is a MAX node
gets its first move searched (a lower bound on the successor), each MIN
successor likewise (an upper bound), and leaf successors are evaluated
outright.  The bounds may cut the chance node before any full search, and
they replace ``L``/``U`` in the Star1 windows afterwards.  The probe's child
is searched again by the Star1 pass (with a transposition table it is
usually found there), so Star2 can create more positions than Star1 when
probing does not pay.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from time import perf_counter
from typing import Any

from pacsim.errors import SearchError
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
from pacsim.search.plain import CountsFunction, ValueFunction
from pacsim.search.table import EXACT, LOWER, UPPER, TranspositionTable

ROUNDING = 1e-9
"""Relative slack when a searched value is checked against its bounds."""


def make_pruned_search(
    game: Game,
    algorithm: str,
    chance_mode: str | None,
    evaluate: Callable[[Hashable], Any] | None,
    bounds: tuple[Any, Any] | Callable[[Hashable, Any], tuple[Any, Any]] | None,
    table: TranspositionTable | None,
    order: Callable[[Hashable, Any], Any] | None,
    deadline: float | None,
) -> tuple[ValueFunction, CountsFunction]:
    """Build the recursive value function of a pruned search.

    ``chance_mode`` is ``None`` for alpha-beta (a CHANCE node is an error),
    ``"star1"`` or ``"star2"``; the latter two need ``bounds``: ``(L, U)``
    on every leaf value, or a callable ``bounds(state, remaining) -> (L, U)``
    on every leaf value within ``remaining`` levels below ``state``.  A value
    found outside its bounds raises :class:`SearchError`.

    Returns ``(value, counts)`` where ``value(state, alpha, beta,
    remaining, level)`` follows the window convention of this module and
    ``counts()`` gives ``(generated, evaluated, cutoffs, deepest level)``.
    """
    to_move = game.to_move
    actions = game.actions
    result = game.result
    outcomes = game.outcomes
    is_terminal = game.is_terminal
    utility = game.utility
    table_get = table.get if table is not None else None
    table_put = table.put if table is not None else None
    # Leaves are checked against global bounds; local bounds (a callable)
    # are checked where they are used, on every chance node's successors.
    local_bounds = bounds if callable(bounds) else None
    check_bounds = chance_mode is not None and local_bounds is None
    if check_bounds:
        assert bounds is not None
        lowest, highest = bounds
    else:
        lowest, highest = NEGATIVE_INFINITY, POSITIVE_INFINITY

    generated = 0
    evaluated = 0
    cutoffs = 0
    deepest = 0
    countdown = DEADLINE_CHECK_INTERVAL

    def out_of_bounds(state: Hashable, found: Any, low: Any = None, high: Any = None) -> SearchError:
        if low is None:
            low, high = lowest, highest
        return SearchError(
            f"{algorithm}: value {found!r} of {state!r} lies outside bounds "
            f"({low!r}, {high!r}); Star pruning would be wrong"
        )

    def beyond(found: Any, low: Any, high: Any) -> bool:
        """``found`` lies outside ``[low, high]`` by more than float rounding
        (a searched value is a sum of products, its bound another)."""
        if low <= found <= high:
            return False
        nearest = low if found < low else high
        return abs(found - nearest) > ROUNDING * (1 + abs(nearest))

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
                raise out_of_bounds(state, leaf_value)
            return leaf_value
        if remaining == 0:
            evaluated += 1
            leaf_value = evaluate(state)
            if check_bounds and (leaf_value < lowest or leaf_value > highest):
                raise out_of_bounds(state, leaf_value)
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
        elif mover == CHANCE and chance_mode is not None:
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

    def chance_setup(state: Hashable, draws: list, child_remaining: Any) -> tuple[list, list, Any, Any]:
        """The bounds on a chance node's successors known before any search:
        ``(lower, upper, lower_sum, upper_sum)``, the sums weighted by
        probability.  Local bounds are asked once, of the chance node: what
        bounds every value below it bounds each successor."""
        mass = 0
        for probability, _ in draws:
            if probability < 0:
                raise SearchError(f"{algorithm}: negative probability {probability!r} at {state!r}")
            mass += probability
        if local_bounds is None:
            low, high = lowest, highest
        else:
            low, high = local_bounds(state, child_remaining + 1)
            if not NEGATIVE_INFINITY < low <= high < POSITIVE_INFINITY:
                raise SearchError(f"{algorithm}: bounds of {state!r} must be finite with L <= U, "
                                  f"not {(low, high)!r}")
        count = len(draws)
        return [low] * count, [high] * count, mass * low, mass * high

    def star1(state: Hashable, draws: list, alpha: Any, beta: Any, child_remaining: Any, child_level: int,
              prepared: tuple | None = None) -> Any:
        """Star1 at a chance node (see the module docstring): search the
        successors in order, each in the window that still lets it move the
        node across ``alpha`` or ``beta``; stop when none can.  Star2 passes
        the successors with its probed bounds as ``prepared``."""
        nonlocal cutoffs
        lower, upper, lower_sum, upper_sum = prepared or chance_setup(state, draws, child_remaining)
        rest_lower = lower_sum  # sums over the successors not searched yet
        rest_upper = upper_sum
        total = 0  # sum of probability * value over the successors searched
        for index, (probability, successor) in enumerate(draws):
            if probability == 0:
                # Adds nothing to the value whatever it is worth.
                continue
            successor_lower = lower[index]
            successor_upper = upper[index]
            rest_lower -= probability * successor_lower
            rest_upper -= probability * successor_upper
            child_alpha = (alpha - total - rest_upper) / probability
            child_beta = (beta - total - rest_lower) / probability
            if child_alpha > successor_upper:
                # Even at its upper bound this successor leaves the node below alpha.
                cutoffs += 1
                return total + probability * successor_upper + rest_upper
            if child_beta < successor_lower:
                cutoffs += 1
                return total + probability * successor_lower + rest_lower
            if successor_lower == successor_upper:
                # Pinned (a probed leaf, or bounds that leave no room).
                total += probability * successor_lower
                continue
            # The search window is clipped to the successor's bounds, but only
            # leaving the unclipped one moves the node across alpha or beta: a
            # value just past a bound is that bound, reached by another sum.
            child_value = value(successor, successor_lower if child_alpha < successor_lower else child_alpha,
                                successor_upper if child_beta > successor_upper else child_beta,
                                child_remaining, child_level)
            if beyond(child_value, successor_lower, successor_upper):
                # Even a fail-soft bound lies on the same side of the true value.
                raise out_of_bounds(successor, child_value, successor_lower, successor_upper)
            if child_value < child_alpha:
                # child_value bounds the successor from above, and with it
                # the whole node lies below alpha.
                cutoffs += 1
                return total + probability * child_value + rest_upper
            if child_value > child_beta:
                cutoffs += 1
                return total + probability * child_value + rest_lower
            total += probability * child_value
        return total

    def star2(state: Hashable, draws: list, alpha: Any, beta: Any, child_remaining: Any, child_level: int) -> Any:
        """Star2 at a chance node: probe the successors, then run Star1
        with the probed bounds; see the module docstring."""
        nonlocal generated, evaluated, cutoffs, deepest
        lower, upper, lower_sum, upper_sum = chance_setup(state, draws, child_remaining)
        if child_level > deepest:
            deepest = child_level
        for index, (probability, successor) in enumerate(draws):
            if probability == 0:
                continue
            successor_lower = lower[index]
            successor_upper = upper[index]
            terminal = is_terminal(successor)
            if terminal or child_remaining == 0:
                # A leaf costs as much to probe as to search: take its value
                # now and reuse it in the Star1 pass.
                evaluated += 1
                leaf_value = utility(successor) if terminal else evaluate(successor)
                if leaf_value < successor_lower or leaf_value > successor_upper:
                    raise out_of_bounds(successor, leaf_value, successor_lower, successor_upper)
                lower[index] = upper[index] = leaf_value
                lower_sum += probability * (leaf_value - successor_lower)
                upper_sum += probability * (leaf_value - successor_upper)
            else:
                mover = to_move(successor)
                # A MAX successor's probe raises lower bounds, which can only
                # cut if the node may still end above beta; a MIN
                # successor's probe only helps if it may end below alpha.
                # Other probes would be wasted work (under a MAX parent, beta
                # is usually out of reach).  A chance successor has no
                # cheap probe.
                if mover == MAX:
                    if upper_sum <= beta:
                        continue
                elif mover != MIN or lower_sum >= alpha:
                    continue
                moves = actions(successor)
                if order is not None:
                    moves = order(successor, moves)
                if not moves:
                    raise no_moves_error(successor)
                probe_alpha = (alpha - upper_sum + probability * successor_upper) / probability
                probe_beta = (beta - lower_sum + probability * successor_lower) / probability
                if probe_alpha < successor_lower:
                    probe_alpha = successor_lower
                if probe_beta > successor_upper:
                    probe_beta = successor_upper
                generated += 1
                probe = value(result(successor, moves[0]), probe_alpha, probe_beta, child_remaining - 1, child_level + 1)
                if mover == MAX:
                    # Unless it failed low, the first move's value (or a
                    # lower bound on it) bounds the MAX successor from below.
                    if probe >= probe_alpha:
                        if beyond(probe, successor_lower, successor_upper):
                            raise out_of_bounds(successor, probe, successor_lower, successor_upper)
                        if probe > successor_lower:
                            lower[index] = probe
                            lower_sum += probability * (probe - successor_lower)
                elif probe <= probe_beta:
                    # Symmetrically, an upper bound on a MIN successor.
                    if beyond(probe, successor_lower, successor_upper):
                        raise out_of_bounds(successor, probe, successor_lower, successor_upper)
                    if probe < successor_upper:
                        upper[index] = probe
                        upper_sum += probability * (probe - successor_upper)
            if lower_sum > beta:
                cutoffs += 1
                return lower_sum
            if upper_sum < alpha:
                cutoffs += 1
                return upper_sum
        return star1(state, draws, alpha, beta, child_remaining, child_level, (lower, upper, lower_sum, upper_sum))

    chance_value = star2 if chance_mode == "star2" else star1

    def counts() -> tuple[int, int, int, int]:
        return generated, evaluated, cutoffs, deepest

    return value, counts
