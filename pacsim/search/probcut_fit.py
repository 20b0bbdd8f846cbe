"""Fitting a ChanceProbCut model: shallow and deep values of chance nodes'
successors, and a least-squares line through them.

:func:`chance_pairs` records ``(shallow, deep)`` values of the successors of
given chance nodes; :func:`fit_model` fits slope, intercept and sigma to them
(:class:`~pacsim.search.probcut.ProbCutModel`, which
:mod:`pacsim.search.probcut` uses at search time).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy

from pacsim.errors import SearchError
from pacsim.search.api import search
from pacsim.search.base import Game
from pacsim.search.probcut import DepthLine, ProbCutModel


@dataclass(frozen=True, slots=True)
class ValuePair:
    """A successor of a chance node searched shallow and deep."""

    depth: int
    """Levels of the deep search (the shallow one has ``reduction`` fewer)."""
    shallow: float
    deep: float


@dataclass(frozen=True, slots=True)
class LinearFit:
    """Least-squares line through value pairs."""

    slope: float
    intercept: float
    sigma: float
    """Residual standard deviation (two parameters fitted)."""
    pairs: int


def chance_pairs(game: Game, chance_nodes: Iterable[Hashable], evaluate: Callable[[Hashable], Any],
                 bounds: Any, reduction: int, depths: Sequence[int], algorithm: str = "star2") -> list[ValuePair]:
    """``(shallow, deep)`` exact values of the successors of ``chance_nodes``:
    each non-terminal successor with a positive probability is searched
    ``depth`` levels deep, for every ``depth`` in ``depths``, and
    ``depth - reduction`` levels deep (both with a full window, so both are
    exact depth-limited values)."""
    if isinstance(reduction, bool) or not isinstance(reduction, int) or reduction < 1:
        raise SearchError(f"probcut: reduction must be a positive integer, not {reduction!r}")
    if not depths or any(depth < reduction + 1 for depth in depths):
        raise SearchError(f"probcut: deep depths {list(depths)!r} must each exceed the reduction {reduction}")
    pairs = []
    for node in chance_nodes:
        for probability, successor in game.outcomes(node):
            if probability == 0 or game.is_terminal(successor):
                continue
            for depth in depths:
                shallow = search(game, successor, algorithm, depth=depth - reduction, evaluate=evaluate, bounds=bounds)
                deep = search(game, successor, algorithm, depth=depth, evaluate=evaluate, bounds=bounds)
                pairs.append(ValuePair(depth, float(shallow.value), float(deep.value)))
    return pairs


def fit_line(pairs: Sequence[ValuePair]) -> LinearFit:
    """``deep ~ slope * shallow + intercept`` by least squares."""
    if len(pairs) < 3:
        raise SearchError(f"probcut: {len(pairs)} value pairs are too few to fit a line (3 at least)")
    shallow = numpy.array([pair.shallow for pair in pairs], dtype=float)
    deep = numpy.array([pair.deep for pair in pairs], dtype=float)
    if numpy.ptp(shallow) == 0:
        raise SearchError("probcut: every shallow value is the same; no line can be fitted")
    design = numpy.column_stack([shallow, numpy.ones_like(shallow)])
    (slope, intercept), *_ = numpy.linalg.lstsq(design, deep, rcond=None)
    residuals = deep - (slope * shallow + intercept)
    sigma = math.sqrt(float(residuals @ residuals) / (len(pairs) - 2))
    return LinearFit(float(slope), float(intercept), sigma, len(pairs))


def fit_by_depth(pairs: Sequence[ValuePair]) -> dict[int, LinearFit]:
    """One line per deep depth (depths with fewer than 3 pairs or a single
    shallow value are left out): whether one model fits every depth."""
    fits = {}
    for depth in sorted({pair.depth for pair in pairs}):
        chosen = [pair for pair in pairs if pair.depth == depth]
        try:
            fits[depth] = fit_line(chosen)
        except SearchError:
            continue
    return fits


def fit_model(pairs: Sequence[ValuePair], reduction: int, confidence: float = 1.0, min_depth: int = 0,
              per_depth: int = 0) -> ProbCutModel:
    """A :class:`ProbCutModel` from value pairs pooled over their depths;
    with ``per_depth=N``, also a line of its own for every deep depth with
    at least ``N`` pairs."""
    line = fit_line(pairs)
    lines: tuple[DepthLine, ...] = ()
    if per_depth:
        lines = tuple(DepthLine(depth, fit.slope, fit.intercept, fit.sigma)
                      for depth, fit in fit_by_depth(pairs).items() if fit.pairs >= per_depth)
    return ProbCutModel(reduction, line.slope, line.intercept, line.sigma, confidence, min_depth, lines)
