"""ChanceProbCut: forward pruning at chance nodes (Schadd, Winands & Uiterwijk 2009).

ProbCut (Buro) observes that a shallow search predicts a deeper one well:
``v_deep ~ slope * v_shallow + intercept`` with a residual standard
deviation ``sigma``.  ChanceProbCut applies this at chance nodes.  A chance
node with ``d`` levels left to search (``d >= min_depth``) has successors
that a full search would search ``d - 1`` levels deep; each is first
searched only ``d - 1 - reduction`` levels deep, and its value is predicted
to lie in

    ``[slope * v_shallow + intercept - t * sigma,  slope * v_shallow + intercept + t * sigma]``

(``t`` is the *confidence*), clipped to the successor's bounds.  The line
may differ by deep depth (``by_depth``: in Pacman the intercept grows with
it), the pooled one serving the depths without their own.  As in Star2's
probing phase, the probability-weighted sums of these intervals (the bounds
of the successors not yet predicted standing in for the rest) bound *the
whole chance node*; when its lower bound exceeds ``beta`` or its upper bound
falls below ``alpha`` the chance node is cut, returning that bound (the
seed's description: the predicted bounds of the full value lie outside
``[alpha, beta]``).  Otherwise the chance node is searched exactly by
Star1/Star2 with its true bounds: a predicted interval is never used as a
bound, because it is not one.

The shallow searches are null-window searches: a cut below ``alpha`` stays
possible only while the successor's shallow value lies below a threshold
(what the predictions so far leave, with the later successors at their
tightest possible prediction), so a search at that threshold tells, and its
fail-soft answer bounds the value on the side that matters.  Once neither
cut is possible the remaining shallow searches are skipped.  Values that
forward pruning made inexact may contradict bounds Star2 learnt elsewhere
(a probe, another cut); in a search with ChanceProbCut they are clipped to
those bounds instead of raising the error an exact search raises.

It is *forward* pruning: a cut trusts the model and may change the value and
the move; a larger ``t`` cuts less and errs less.  When ``t * sigma`` is so
large that no prediction could be tighter than the node's own bounds, the
shallow searches are skipped altogether, so a huge ``t`` is exactly Star2.

Fitting a model is :mod:`pacsim.search.probcut_fit` (it runs whole
searches, so it sits above :func:`pacsim.search.search`, which this module
serves).  :func:`save_model` and :func:`load_model` keep a model in a small
JSON file.
"""

from __future__ import annotations

import json
import math
from collections.abc import Hashable, Sequence
from dataclasses import MISSING, asdict, dataclass, replace
from dataclasses import fields as dataclass_fields
from pathlib import Path
from typing import Any

from pacsim.errors import ConfigError, SearchError
from pacsim.files import FileRefused, read_bounded, write_atomically
from pacsim.search.base import NEGATIVE_INFINITY, POSITIVE_INFINITY
from pacsim.search.star import ChanceValue, StarSearch
from pacsim.shipped import shipped_path

FORMAT = "pacsim-probcut"
"""The ``format`` field of a model file."""
MODEL_FILE_LIMIT = 1_000_000
"""Largest model file read (bytes); a model is a few hundred."""


@dataclass(frozen=True, slots=True)
class DepthLine:
    """The line of one deep depth, where it differs from the pooled one."""

    depth: int
    """Levels of the deep search of a chance node's successor (one less than
    the chance node's levels left)."""
    slope: float
    intercept: float
    sigma: float

    def __post_init__(self) -> None:
        if isinstance(self.depth, bool) or not isinstance(self.depth, int) or self.depth < 1:
            raise SearchError(f"probcut: a line's depth must be a positive integer, not {self.depth!r}")
        _check_line(self.slope, self.intercept, self.sigma, f" at depth {self.depth}")


def _check_line(slope: Any, intercept: Any, sigma: Any, where: str = "") -> None:
    for name, number in (("slope", slope), ("intercept", intercept), ("sigma", sigma)):
        if isinstance(number, bool) or not isinstance(number, (int, float)) or not math.isfinite(number):
            raise SearchError(f"probcut: {name}{where} must be a finite number, not {number!r}")
    if sigma < 0:
        raise SearchError(f"probcut: sigma{where} must not be negative, not {sigma!r}")
    if slope <= 0:
        raise SearchError(f"probcut: slope{where} must be positive (a deeper value growing with the shallow one), "
                          f"not {slope!r}")


@dataclass(frozen=True, slots=True)
class ProbCutModel:
    """The linear model of ChanceProbCut and when to apply it.

    Deep values are predicted as ``slope * shallow + intercept``, within
    ``confidence * sigma``.  In ProbCut's usual letters: ``R = reduction``,
    ``a = slope``, ``b = intercept``, ``t = confidence``.
    """

    reduction: int
    """Levels fewer in the shallow search than in the deep one (R >= 1)."""
    slope: float
    """a: the deep value per unit of shallow value."""
    intercept: float
    """b: the deep value at a shallow value of 0."""
    sigma: float
    """Standard deviation of the deep value around the prediction (>= 0)."""
    confidence: float = 1.0
    """t: the half-width of the predicted interval in sigmas (> 0); larger cuts less."""
    min_depth: int = 0
    """Fewest levels left at a chance node for ProbCut to be tried there
    (0: ``reduction + 2``, the least that leaves a shallow search of one level)."""
    by_depth: tuple[DepthLine, ...] = ()
    """Lines fitted for single deep depths; a depth without one uses the
    pooled line above."""

    def __post_init__(self) -> None:
        if isinstance(self.reduction, bool) or not isinstance(self.reduction, int) or self.reduction < 1:
            raise SearchError(f"probcut: reduction must be a positive integer, not {self.reduction!r}")
        if isinstance(self.min_depth, bool) or not isinstance(self.min_depth, int) or self.min_depth < 0:
            raise SearchError(f"probcut: min_depth must be a non-negative integer, not {self.min_depth!r}")
        if self.min_depth and self.min_depth < self.reduction + 2:
            raise SearchError(f"probcut: min_depth={self.min_depth} leaves no shallow search; "
                              f"it must be at least reduction + 2 = {self.reduction + 2}")
        _check_line(self.slope, self.intercept, self.sigma)
        confidence = self.confidence
        if isinstance(confidence, bool) or not isinstance(confidence, (int, float)) or not math.isfinite(confidence):
            raise SearchError(f"probcut: confidence must be a finite number, not {confidence!r}")
        if confidence <= 0:
            raise SearchError(f"probcut: confidence must be positive, not {confidence!r}")
        if not isinstance(self.by_depth, tuple) or not all(isinstance(line, DepthLine) for line in self.by_depth):
            raise SearchError(f"probcut: by_depth must be a tuple of DepthLine, not {self.by_depth!r}")
        depths = [line.depth for line in self.by_depth]
        if len(set(depths)) < len(depths):
            raise SearchError(f"probcut: by_depth has two lines for one depth ({sorted(depths)})")

    @property
    def first_depth(self) -> int:
        """The fewest levels left at which a chance node is tried."""
        return self.min_depth or self.reduction + 2

    def predictors(self) -> dict[int, tuple[float, float, float]]:
        """``(slope, intercept, half-width)`` by deep depth, for the depths
        with their own line; the pooled one is ``self.predictor()``."""
        return {line.depth: (line.slope, line.intercept, self.confidence * line.sigma) for line in self.by_depth}

    def predictor(self) -> tuple[float, float, float]:
        """The pooled ``(slope, intercept, half-width)``."""
        return self.slope, self.intercept, self.confidence * self.sigma

    def with_confidence(self, confidence: float) -> ProbCutModel:
        """The same model at another confidence ``t``."""
        return replace(self, confidence=confidence)


class ChanceProbCut:
    """A chance-node function (like ``StarSearch.star2``) that first tries
    a ChanceProbCut and otherwise calls the exact one, ``exact``."""

    def __init__(self, model: ProbCutModel, star: StarSearch, exact: ChanceValue) -> None:
        self.model = model
        self.star = star
        star.exact = False
        self.exact = exact
        self.first_depth = model.first_depth
        self.pooled = model.predictor()
        self.by_depth = model.predictors()

    def __call__(self, state: Hashable, draws: Sequence[tuple[Any, Hashable]], alpha: Any, beta: Any,
                 child_remaining: Any, child_level: int) -> Any:
        if child_remaining + 1 >= self.first_depth and (alpha > NEGATIVE_INFINITY or beta < POSITIVE_INFINITY):
            cut = self.predicted_cut(state, draws, alpha, beta, child_remaining, child_level)
            if cut is not None:
                self.star.counters.probcuts += 1
                return cut
        return self.exact(state, draws, alpha, beta, child_remaining, child_level)

    def predicted_cut(self, state: Hashable, draws: Sequence[tuple[Any, Hashable]], alpha: Any, beta: Any,
                      child_remaining: Any, child_level: int) -> Any:
        """The bound the chance node is cut at, or None.

        The successors are predicted one by one.  A cut below ``alpha``
        stays possible while the upper ends predicted so far, plus the
        lowest upper end any later successor could get, stay below it; so
        each successor's shallow search only has to tell whether its value
        lies below the threshold that keeps it possible, a null-window
        search whose fail-soft answer bounds the value.  Likewise above
        ``beta``; once neither is possible the shallow searches stop."""
        lower, upper, _, _ = self.star.setup(state, draws, child_remaining)
        low_bound, high_bound = lower[0], upper[0]  # every successor shares the chance node's bounds
        slope, intercept, margin = self.by_depth.get(child_remaining, self.pooled)
        if not can_narrow(slope, intercept, margin, low_bound, high_bound):
            return None
        # The tightest ends a predicted interval can have.
        least_high = max(min(slope * low_bound + intercept + margin, high_bound), low_bound)
        most_low = min(max(slope * high_bound + intercept - margin, low_bound), high_bound)
        rest = sum(probability for probability, _ in draws)  # probability not predicted yet
        high_total = low_total = 0.0  # sums of the predicted ends so far
        try_low = rest * least_high < alpha
        try_high = rest * most_low > beta
        shallow_remaining = child_remaining - self.model.reduction
        value = self.star.value
        is_terminal = self.star.game.is_terminal
        for probability, successor in draws:
            if not (try_low or try_high):
                return None
            if probability == 0:
                continue
            rest -= probability
            # Its value must lie below shallow_alpha for a cut below alpha to
            # stay possible, above shallow_beta for one above beta.
            shallow_alpha = shallow_beta = POSITIVE_INFINITY
            if try_low:
                shallow_alpha = ((alpha - high_total - rest * least_high) / probability - intercept - margin) / slope
            if try_high:
                shallow_beta = ((beta - low_total - rest * most_low) / probability - intercept + margin) / slope
            else:
                shallow_beta = shallow_alpha
            if not try_low:
                shallow_alpha = shallow_beta
            if shallow_alpha > shallow_beta:  # both stay possible whatever it is worth: search it exactly
                shallow_alpha, shallow_beta = NEGATIVE_INFINITY, POSITIVE_INFINITY
            shallow = value(successor, shallow_alpha, shallow_beta, shallow_remaining, child_level)
            if is_terminal(successor):
                high = low = shallow  # its utility, exact at any depth
            else:
                # A fail-low answer bounds the value from above only, a fail-high one from below only.
                high = high_bound if shallow > shallow_beta else \
                    max(min(slope * shallow + intercept + margin, high_bound), low_bound)
                low = low_bound if shallow < shallow_alpha else \
                    min(max(slope * shallow + intercept - margin, low_bound), high_bound)
            high_total += probability * high
            low_total += probability * low
            if try_low:
                if high_total + rest * high_bound < alpha:
                    return high_total + rest * high_bound
                try_low = high_total + rest * least_high < alpha
            if try_high:
                if low_total + rest * low_bound > beta:
                    return low_total + rest * low_bound
                try_high = low_total + rest * most_low > beta
        return None


def can_narrow(slope: float, intercept: float, margin: float, low: Any, high: Any) -> bool:
    """Whether a shallow value in ``[low, high]`` (the successors' bounds,
    which bound the shallow search's leaves too) can give an interval
    narrower than those bounds; if not, no shallow search can cut.  The
    prediction is linear, so the ends of ``[low, high]`` decide."""
    for shallow in (low, high):
        predicted = slope * shallow + intercept
        if predicted - margin > low or predicted + margin < high:
            return True
    return False


# -- files ----------------------------------------------------------------

def save_model(path: str | Path, model: ProbCutModel, about: dict[str, Any] | None = None) -> None:
    """Write ``model`` as JSON, with ``about`` (how it was fitted) beside it."""
    document = {"format": FORMAT, "version": 1, "model": asdict(model), "about": about or {}}
    write_atomically(path, json.dumps(document, indent=1) + "\n", "the model")


def load_model(path: str | Path) -> ProbCutModel:
    """The model saved in ``path``; a :class:`ConfigError` naming the file
    (one line) if it cannot be read or is not a valid model."""
    try:
        data = read_bounded(shipped_path(path), MODEL_FILE_LIMIT)
    except FileRefused as error:
        raise ConfigError(f"{path}: {error}") from None
    try:
        document = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not a ProbCut model (not UTF-8 text)") from None
    except json.JSONDecodeError as error:
        raise ConfigError(f"{path}:{error.lineno}:{error.colno}: not a ProbCut model (not JSON: {error.msg})") from None
    except RecursionError:
        raise ConfigError(f"{path}: not a ProbCut model (nested too deeply)") from None
    except ValueError as error:  # an integer of thousands of digits, which Python refuses to convert
        raise ConfigError(f"{path}: not a ProbCut model ({error})") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ConfigError(f"{path}: not a ProbCut model (no \"format\": \"{FORMAT}\"; write one with pacsim probcut fit)")
    fields = document.get("model")
    if not isinstance(fields, dict):
        raise ConfigError(f"{path}: \"model\" must be an object of reduction, slope, intercept, sigma, confidence, min_depth")
    known = set(ProbCutModel.__dataclass_fields__)
    unknown = sorted(set(fields) - known)
    if unknown:
        raise ConfigError(f"{path}: unknown model field {unknown[0]!r} (fields: {', '.join(ProbCutModel.__dataclass_fields__)})")
    lines = fields.get("by_depth", [])
    if not isinstance(lines, list) or not all(isinstance(line, dict) for line in lines):
        raise ConfigError(f"{path}: \"by_depth\" must be a list of objects of depth, slope, intercept, sigma")
    try:
        by_depth = tuple(DepthLine(**line) for line in lines)
    except TypeError:
        raise ConfigError(f"{path}: each line of \"by_depth\" has exactly depth, slope, intercept, sigma") from None
    except (SearchError, OverflowError) as error:  # OverflowError: an integer too large for a float
        raise ConfigError(f"{path}: {error}") from None
    try:
        return ProbCutModel(**(fields | {"by_depth": by_depth}))
    except TypeError:
        required = [field.name for field in dataclass_fields(ProbCutModel) if field.default is MISSING]
        missing = [name for name in required if name not in fields]
        raise ConfigError(f"{path}: model field {missing[0]!r} missing") from None
    except (SearchError, OverflowError) as error:
        raise ConfigError(f"{path}: {error}") from None
