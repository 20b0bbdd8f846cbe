"""Chance nodes under a window: Ballard's Star1 and Star2.

The alpha-beta node of :mod:`pacsim.search.pruned` hands every branching
chance node to the function built here, with the same window convention
(closed window, strict cut-offs, fail-soft values).

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

from collections.abc import Callable, Hashable, Sequence
from typing import Any

from pacsim.errors import SearchError
from pacsim.search.base import (
    MAX,
    MIN,
    NEGATIVE_INFINITY,
    POSITIVE_INFINITY,
    Bounds,
    Game,
    LocalBounds,
    SearchCounters,
    SearchObserver,
    ValueFunction,
    no_moves_error,
)

ROUNDING = 1e-9
"""Relative slack when a searched value is checked against its bounds."""

ChanceValue = Callable[[Hashable, Sequence[tuple[Any, Hashable]], Any, Any, Any, int], Any]
"""``chance_value(state, draws, alpha, beta, child_remaining, child_level)``."""
Prepared = tuple[list[Any], list[Any], Any, Any]
"""A chance node's successor bounds: ``(lower, upper, lower_sum, upper_sum)``."""


def out_of_bounds(algorithm: str, state: Hashable, found: Any, low: Any, high: Any) -> SearchError:
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


class StarSearch:
    """The chance nodes of one search: Star1, and Star2's probing before it.

    ``value`` is the enclosing search's node function, used for every
    successor; ``bounds`` is ``(L, U)`` on every leaf or a function
    ``bounds(state, remaining)`` (see the module docstring); what the chance
    nodes cost is counted into the search's ``counters``; ``observer``, when
    given, is told each chance node's bounds, probes and pinned leaves (once
    a chance node or a probe, a test that costs nothing next to the node).
    """

    def __init__(self, game: Game, algorithm: str, evaluate: Callable[[Hashable], Any] | None,
                 bounds: Bounds | LocalBounds, order: Callable[[Hashable, Any], Any] | None,
                 value: ValueFunction, counters: SearchCounters, observer: SearchObserver | None = None) -> None:
        self.game = game
        self.algorithm = algorithm
        self.evaluate = evaluate
        self.global_bounds: Bounds | None = None if callable(bounds) else bounds
        self.local_bounds: LocalBounds | None = bounds if callable(bounds) else None
        self.order = order
        self.value = value
        self.counters = counters
        self.observer = observer
        self.exact = True
        """Whether every value is exact, so that one outside its bounds is an error."""

    def setup(self, state: Hashable, draws: Sequence[tuple[Any, Hashable]], child_remaining: Any) -> Prepared:
        """The bounds on a chance node's successors known before any search,
        the sums weighted by probability.  Local bounds are asked once, of the
        chance node: what bounds every value below it bounds each successor."""
        mass = 0
        for probability, _ in draws:
            if probability < 0:
                raise SearchError(f"{self.algorithm}: negative probability {probability!r} at {state!r}")
            mass += probability
        if self.local_bounds is None:
            assert self.global_bounds is not None
            low, high = self.global_bounds
        else:
            low, high = self.local_bounds(state, child_remaining + 1)
            if not NEGATIVE_INFINITY < low <= high < POSITIVE_INFINITY:
                raise SearchError(f"{self.algorithm}: bounds of {state!r} must be finite with L <= U, "
                                  f"not {(low, high)!r}")
        if self.observer is not None:
            self.observer.chance_bounded(low, high)
        count = len(draws)
        return [low] * count, [high] * count, mass * low, mass * high

    def star1(self, state: Hashable, draws: Sequence[tuple[Any, Hashable]], alpha: Any, beta: Any,
              child_remaining: Any, child_level: int, prepared: Prepared | None = None) -> Any:
        """Star1 at a chance node (see the module docstring): search the
        successors in order, each in the window that still lets it move the
        node across ``alpha`` or ``beta``; stop when none can.  Star2 passes
        the successors with its probed bounds as ``prepared``."""
        counters = self.counters
        value = self.value
        lower, upper, lower_sum, upper_sum = prepared or self.setup(state, draws, child_remaining)
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
                counters.cutoffs += 1
                return total + probability * successor_upper + rest_upper
            if child_beta < successor_lower:
                counters.cutoffs += 1
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
                child_value = self.outside(successor, child_value, successor_lower, successor_upper)
            if child_value < child_alpha:
                # child_value bounds the successor from above, and with it
                # the whole node lies below alpha.
                counters.cutoffs += 1
                return total + probability * child_value + rest_upper
            if child_value > child_beta:
                counters.cutoffs += 1
                return total + probability * child_value + rest_lower
            total += probability * child_value
        return total

    def star2(self, state: Hashable, draws: Sequence[tuple[Any, Hashable]], alpha: Any, beta: Any,
              child_remaining: Any, child_level: int) -> Any:
        """Star2 at a chance node: probe the successors, then run Star1
        with the probed bounds; see the module docstring."""
        counters = self.counters
        prepared = self.setup(state, draws, child_remaining)
        if child_level > counters.deepest:
            counters.deepest = child_level
        for index, (probability, successor) in enumerate(draws):
            if probability == 0:
                continue
            terminal = self.game.is_terminal(successor)
            if terminal or child_remaining == 0:
                prepared = self.pin_leaf(prepared, index, probability, successor, terminal)
            else:
                prepared = self.probe(prepared, index, probability, successor, alpha, beta, child_remaining, child_level)
            lower_sum, upper_sum = prepared[2], prepared[3]
            if lower_sum > beta:
                counters.cutoffs += 1
                return lower_sum
            if upper_sum < alpha:
                counters.cutoffs += 1
                return upper_sum
        return self.star1(state, draws, alpha, beta, child_remaining, child_level, prepared)

    def pin_leaf(self, prepared: Prepared, index: int, probability: Any, successor: Hashable, terminal: bool) -> Prepared:
        """A leaf costs as much to probe as to search: take its value now and
        pin its bounds to it, for the Star1 pass to reuse."""
        lower, upper, lower_sum, upper_sum = prepared
        successor_lower = lower[index]
        successor_upper = upper[index]
        self.counters.evaluated += 1
        if terminal:
            leaf_value = self.game.utility(successor)
        else:
            assert self.evaluate is not None
            leaf_value = self.evaluate(successor)
        if leaf_value < successor_lower or leaf_value > successor_upper:
            raise out_of_bounds(self.algorithm, successor, leaf_value, successor_lower, successor_upper)
        if self.observer is not None:
            self.observer.leaf_pinned(index, probability, successor, terminal, leaf_value)
        lower[index] = upper[index] = leaf_value
        lower_sum += probability * (leaf_value - successor_lower)
        upper_sum += probability * (leaf_value - successor_upper)
        return lower, upper, lower_sum, upper_sum

    def probe(self, prepared: Prepared, index: int, probability: Any, successor: Hashable,
              alpha: Any, beta: Any, child_remaining: Any, child_level: int) -> Prepared:
        """Search a successor's first move: a lower bound on a MAX successor,
        an upper bound on a MIN one."""
        lower, upper, lower_sum, upper_sum = prepared
        mover = self.game.to_move(successor)
        # A MAX successor's probe raises lower bounds, which can only cut if
        # the node may still end above beta; a MIN successor's probe only
        # helps if it may end below alpha.  Other probes would be wasted work
        # (under a MAX parent, beta is usually out of reach).  A chance
        # successor has no cheap probe.
        if mover == MAX:
            if upper_sum <= beta:
                return prepared
        elif mover != MIN or lower_sum >= alpha:
            return prepared
        moves = self.game.actions(successor)
        if self.order is not None:
            moves = self.order(successor, moves)
        if not moves:
            raise no_moves_error(successor)
        successor_lower = lower[index]
        successor_upper = upper[index]
        probe_alpha = (alpha - upper_sum + probability * successor_upper) / probability
        probe_beta = (beta - lower_sum + probability * successor_lower) / probability
        if probe_alpha < successor_lower:
            probe_alpha = successor_lower
        if probe_beta > successor_upper:
            probe_beta = successor_upper
        self.counters.generated += 1
        first = self.game.result(successor, moves[0])
        observer = self.observer
        if observer is not None:
            observer.probe_started(index, moves[0])
        probe = self.value(first, probe_alpha, probe_beta, child_remaining - 1, child_level + 1)
        if observer is not None:
            observer.probe_ended()
        if mover == MAX:
            # Unless it failed low, the first move's value (or a lower bound
            # on it) bounds the MAX successor from below.
            if probe < probe_alpha:
                return prepared
            probe = self.checked(successor, probe, successor_lower, successor_upper)
            if probe > successor_lower:
                lower[index] = probe
                lower_sum += probability * (probe - successor_lower)
        elif probe <= probe_beta:
            # Symmetrically, an upper bound on a MIN successor.
            probe = self.checked(successor, probe, successor_lower, successor_upper)
            if probe < successor_upper:
                upper[index] = probe
                upper_sum += probability * (probe - successor_upper)
        return lower, upper, lower_sum, upper_sum

    def checked(self, state: Hashable, found: Any, low: Any, high: Any) -> Any:
        """``found``, checked against its bounds."""
        if beyond(found, low, high):
            return self.outside(state, found, low, high)
        return found

    def outside(self, state: Hashable, found: Any, low: Any, high: Any) -> Any:
        """A searched value outside its bounds: an error in an exact search.
        Under forward pruning (ChanceProbCut, which sets ``exact`` false)
        values are estimates that may contradict bounds learned from other
        estimates (a probe, a table entry); the value is clipped to them."""
        if self.exact:
            raise out_of_bounds(self.algorithm, state, found, low, high)
        return low if found < low else high

