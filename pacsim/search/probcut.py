"""ChanceProbCut (seed 004; Schadd, Winands & Uiterwijk 2009): forward pruning
at chance nodes.

Star1 (:mod:`pacsim.search.pruned`) bounds the successors of a chance node
that are not searched yet by ``[L, U]``, numbers every value is *known* to lie
in.  ChanceProbCut replaces them by *predictions*: at a chance node with
``remaining`` levels below it, each successor is first searched shallowly,
``remaining - 1 - reduction`` levels deep, and a linear model fitted on
recorded positions (``deep ~ slope * shallow + intercept``, residual standard
deviation ``sigma``) predicts its deep value within ``confidence * sigma``.
These intervals, clipped to the true bounds, take the place of ``[L, U]`` in
Star1's windows, so the chance node is cut as soon as the exact values
searched so far and the predicted intervals of the rest lie outside
``[alpha, beta]``.  Predictions can be wrong, so unlike Star1 this can change
the value and the move: it is forward pruning, traded against nodes by
``confidence``.

Window convention as in :mod:`pacsim.search.pruned`: closed windows, cuts on
strict inequality, fail-soft values.  Depth counts tree levels.
"""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from time import perf_counter
from typing import Any

from pacsim.errors import SearchError
from pacsim.search.api import search
from pacsim.search.base import (
    CHANCE,
    MAX,
    MIN,
    NEGATIVE_INFINITY,
    POSITIVE_INFINITY,
    Game,
    SearchResult,
    SearchStats,
    no_moves_error,
    node_type_error,
)

Bounds = Callable[[Hashable, Any], tuple[float, float]]


@dataclass(frozen=True)
class ProbCutModel:
    """Linear predictions of deep values from shallow ones, one line per depth."""

    reduction: int
    """Levels the shallow search is shorter than the deep one (``R``)."""
    lines: dict[int, tuple[float, float, float]] = field(default_factory=dict)
    """Deep depth (levels) -> ``(slope, intercept, sigma)``."""
    samples: int = 0
    """Positions the lines were fitted on (per depth)."""

    def predict(self, shallow: float, depth: int) -> tuple[float, float]:
        """``(predicted deep value, sigma)`` for a position ``depth`` levels
        deep, from the line of the nearest fitted depth."""
        nearest = min(self.lines, key=lambda fitted: (abs(fitted - depth), -fitted))
        slope, intercept, sigma = self.lines[nearest]
        return slope * shallow + intercept, sigma

    def save(self, path: str | Path) -> None:
        data = asdict(self)
        data["lines"] = {str(depth): list(line) for depth, line in self.lines.items()}
        Path(path).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> ProbCutModel:
        """Read a saved model; a missing or malformed file is a :class:`SearchError`."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
            lines = {int(depth): (float(a), float(b), float(s)) for depth, (a, b, s) in data["lines"].items()}
            return cls(reduction=int(data["reduction"]), lines=lines, samples=int(data.get("samples", 0)))
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise SearchError(f"{path}: not a ChanceProbCut model ({error})") from None


def fit_probcut(game: Game, positions: Iterable[Hashable], depths: Sequence[int], reduction: int,
                evaluate: Callable[[Hashable], Any], bounds: Any) -> ProbCutModel:
    """Fit one line per deep depth in ``depths`` on ``positions``: the exact
    value ``depth - reduction`` levels deep against ``depth`` levels deep
    (both by Star2 with ``bounds``), by least squares."""
    positions = list(positions)
    lines = {}
    for depth in depths:
        if depth - reduction < 0:
            raise SearchError(f"probcut: depth {depth} is less than the reduction {reduction}")
        shallow = [float(search(game, state, "star2", depth - reduction, evaluate, bounds).value) for state in positions]
        deep = [float(search(game, state, "star2", depth, evaluate, bounds).value) for state in positions]
        lines[depth] = _least_squares(shallow, deep)
    return ProbCutModel(reduction=reduction, lines=lines, samples=len(positions))


def _least_squares(xs: list[float], ys: list[float]) -> tuple[float, float, float]:
    """``(slope, intercept, residual standard deviation)`` of ys on xs."""
    mean_x, mean_y = statistics.fmean(xs), statistics.fmean(ys)
    spread = sum((x - mean_x) ** 2 for x in xs)
    slope = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys)) / spread if spread else 1.0
    intercept = mean_y - slope * mean_x
    residuals = [y - (slope * x + intercept) for x, y in zip(xs, ys)]
    sigma = math.sqrt(sum(r * r for r in residuals) / max(1, len(residuals) - 2))
    return slope, intercept, sigma


def probcut_search(game: Game, state: Hashable, depth: int, evaluate: Callable[[Hashable], Any], bounds: Any,
                   model: ProbCutModel, confidence: float = 1.5) -> SearchResult:
    """Alpha-beta at MAX and MIN nodes, Star1 with ChanceProbCut at chance
    nodes, ``depth`` levels deep.  ``bounds`` is ``(L, U)`` or a function
    ``bounds(state, remaining)`` as for :func:`pacsim.search.search`;
    ``confidence`` is the half-width of a predicted interval in ``sigma``
    (larger: fewer, safer cuts).  ``stats.cutoffs`` counts every cut,
    ``stats.generated`` includes the shallow searches' positions."""
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise SearchError(f"probcut: depth must be a positive integer, not {depth!r}")
    if not (isinstance(confidence, (int, float)) and confidence >= 0):
        raise SearchError(f"probcut: confidence must be a number >= 0, not {confidence!r}")
    if not model.lines:
        raise SearchError("probcut: the model has no fitted lines")
    if not callable(bounds):
        low, high = bounds
        bounds = lambda _state, _remaining: (low, high)  # one pair for the tree
    started = perf_counter()
    searcher = _ProbCut(game, evaluate, bounds, model, confidence)
    value, action = searcher.root(state, depth)
    stats = SearchStats(generated=searcher.generated, evaluated=searcher.evaluated, cutoffs=searcher.cutoffs,
                        seconds=perf_counter() - started, max_depth=searcher.deepest)
    return SearchResult(value=value, action=action, stats=stats, depth=depth)


class _ProbCut:
    def __init__(self, game: Game, evaluate: Callable[[Hashable], Any], bounds: Bounds, model: ProbCutModel,
                 confidence: float) -> None:
        self.game = game
        self.evaluate = evaluate
        self.bounds = bounds
        self.model = model
        self.confidence = confidence
        self.generated = self.evaluated = self.cutoffs = self.deepest = 0

    def root(self, state: Hashable, depth: int) -> tuple[Any, Any]:
        game = self.game
        if game.is_terminal(state):
            self.evaluated += 1
            return game.utility(state), None
        mover = game.to_move(state)
        if mover == CHANCE:
            return self.value(state, NEGATIVE_INFINITY, POSITIVE_INFINITY, depth, 0), None
        moves = game.actions(state)
        if not moves:
            raise no_moves_error(state)
        maximising = mover == MAX
        best_value: Any = None
        best_action = None
        for move in moves:
            self.generated += 1
            child = game.result(state, move)
            if best_value is None:
                value = self.value(child, NEGATIVE_INFINITY, POSITIVE_INFINITY, depth - 1, 1)
            elif maximising:
                value = self.value(child, best_value, POSITIVE_INFINITY, depth - 1, 1)
            else:
                value = self.value(child, NEGATIVE_INFINITY, best_value, depth - 1, 1)
            if best_value is None or (value > best_value if maximising else value < best_value):
                best_value, best_action = value, move
        return best_value, best_action

    def value(self, state: Hashable, alpha: Any, beta: Any, remaining: int, level: int) -> Any:
        game = self.game
        if level > self.deepest:
            self.deepest = level
        if game.is_terminal(state):
            self.evaluated += 1
            return game.utility(state)
        if remaining == 0:
            self.evaluated += 1
            return self.evaluate(state)
        mover = game.to_move(state)
        if mover in (MAX, MIN):
            return self.decision(state, mover == MAX, alpha, beta, remaining, level)
        if mover == CHANCE:
            return self.chance(state, alpha, beta, remaining, level)
        raise node_type_error("probcut", mover)

    def decision(self, state: Hashable, maximising: bool, alpha: Any, beta: Any, remaining: int, level: int) -> Any:
        """Fail-soft alpha-beta; cuts on strict inequality."""
        game = self.game
        moves = game.actions(state)
        if not moves:
            raise no_moves_error(state)
        best = NEGATIVE_INFINITY if maximising else POSITIVE_INFINITY
        for move in moves:
            self.generated += 1
            value = self.value(game.result(state, move), alpha, beta, remaining - 1, level + 1)
            if maximising:
                if value > best:
                    best = value
                if best > beta:
                    self.cutoffs += 1
                    return best
                if best > alpha:
                    alpha = best
            else:
                if value < best:
                    best = value
                if best < alpha:
                    self.cutoffs += 1
                    return best
                if best < beta:
                    beta = best
        return best

    def chance(self, state: Hashable, alpha: Any, beta: Any, remaining: int, level: int) -> Any:
        """Star1 whose unsearched successors are bounded by predicted intervals."""
        draws = [(probability, successor) for probability, successor in self.game.outcomes(state) if probability]
        if not draws:
            raise no_moves_error(state)
        self.generated += len(draws)
        low, high = self.bounds(state, remaining)
        lows, highs = self.predicted_intervals(draws, low, high, remaining, level)
        rest_low = sum(p * bound for (p, _), bound in zip(draws, lows))
        rest_high = sum(p * bound for (p, _), bound in zip(draws, highs))
        searched: Any = 0  # an int, so Fractions stay exact
        for index, (probability, successor) in enumerate(draws):
            if searched + rest_high < alpha or searched + rest_low > beta:
                self.cutoffs += 1
                return searched + (rest_high if searched + rest_high < alpha else rest_low)
            rest_low -= probability * lows[index]
            rest_high -= probability * highs[index]
            child_alpha = (alpha - searched - rest_high) / probability
            child_beta = (beta - searched - rest_low) / probability
            value = self.value(successor, max(child_alpha, low), min(child_beta, high), remaining - 1, level + 1)
            if value < child_alpha:
                self.cutoffs += 1
                return searched + probability * value + rest_high
            if value > child_beta:
                self.cutoffs += 1
                return searched + probability * value + rest_low
            searched += probability * value
        return searched

    def predicted_intervals(self, draws: list[tuple[Any, Hashable]], low: float, high: float, remaining: int,
                            level: int) -> tuple[list[float], list[float]]:
        """Per successor, the interval its deep value is predicted in (the
        true bounds when too shallow to predict)."""
        deep = remaining - 1
        shallow_depth = deep - self.model.reduction
        if shallow_depth < 1:
            return [low] * len(draws), [high] * len(draws)
        lows, highs = [], []
        for _, successor in draws:
            shallow = self.value(successor, NEGATIVE_INFINITY, POSITIVE_INFINITY, shallow_depth, level + 1)
            predicted, sigma = self.model.predict(float(shallow), deep)
            margin = self.confidence * sigma
            lows.append(min(max(predicted - margin, low), high))
            highs.append(max(min(predicted + margin, high), low))
        return lows, highs
