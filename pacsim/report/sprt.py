"""A sequential probability ratio test on paired games (``pacsim compare``).

A *pair* is two games on one seed (same maze, start, opponents and random
numbers), one played by A and one by B.  Each pair is scored for A: 1 if A
did better, 1/2 if they did equally well, 0 if B did better.  The pairs are
a trinomial sample; its expected score ``s`` is ``1/2 + delta/2``, where

    delta = P(A better on a pair) - P(B better on a pair)

is A's *net advantage*.  The hypotheses are ``H0: delta <= d0`` and
``H1: delta >= d1`` (``d0 < d1``); between them either answer is acceptable.

The test is the generalized SPRT (GSPRT) of the chess engine testers
(fishtest's ``LLR_logistic``, fastchess's ``logistic`` model): the
probability of "equal" is a nuisance parameter, replaced under each
hypothesis by its maximum likelihood estimate given ``s = s0`` or ``s = s1``
(M. Van den Bergh, "Comments on normalized Elo", proposition 1.1: the
constrained estimate is ``p_i = phat_i / (1 + theta (a_i - s))`` with
``theta`` the root of ``sum_i phat_i (a_i - s) / (1 + theta (a_i - s)) = 0``).
The log-likelihood ratio is compared with Wald's bounds
``log(beta / (1 - alpha))`` and ``log((1 - beta) / alpha)``.  Empty cells get
a count of 1e-3, as in fishtest and fastchess, so that the estimates exist.

Everything here is vectorised over leading axes: the LLR of every prefix of
a sequence of pairs is one call, which is what makes the test sequential
pair by pair whatever the batches the games were played in.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy
from numpy.typing import ArrayLike, NDArray

EMPTY_CELL = 1e-3
"""The count an empty cell is given (fishtest's ``regularize``, fastchess's ``regularize``)."""

H0, H1, CONTINUE = "H0", "H1", ""
"""Decisions of the test."""

_BISECTIONS = 64
"""Halvings of theta's interval: the interval, at most 1/s + 1/(1 - s) wide, down to about 1e-18."""


@dataclass(frozen=True)
class Hypotheses:
    """``H0: delta <= low``, ``H1: delta >= high``, ``delta`` in points (percent)
    of A's net advantage on a pair, with the error rates ``alpha`` (accepting H1
    when ``delta = low``) and ``beta`` (accepting H0 when ``delta = high``)."""

    low: float
    high: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not -100 < self.low < self.high < 100:
            raise ValueError(f"the hypotheses need -100 < H0 < H1 < 100 points, not H0 {self.low:g}, H1 {self.high:g}")
        if not (0 < self.alpha < 1 and 0 < self.beta < 1 and self.alpha + self.beta < 1):
            raise ValueError(f"the error rates need 0 < alpha, beta and alpha + beta < 1, not {self.alpha:g}, {self.beta:g}")

    @property
    def scores(self) -> tuple[float, float]:
        """The expected pair scores ``s0`` and ``s1`` of the two hypotheses."""
        return score_of(self.low), score_of(self.high)

    @property
    def bounds(self) -> tuple[float, float]:
        return llr_bounds(self.alpha, self.beta)


def score_of(points: float) -> float:
    """The expected pair score of a net advantage of ``points`` (percent)."""
    return 0.5 + points / 200


def llr_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's bounds: accept H0 at or below the first, H1 at or above the second."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


@dataclass(frozen=True)
class PairCounts:
    """How many pairs B did better on, how many were equal, how many A did better on."""

    b_better: int = 0
    equal: int = 0
    a_better: int = 0

    @property
    def pairs(self) -> int:
        return self.b_better + self.equal + self.a_better

    def as_array(self) -> NDArray[numpy.float64]:
        """The counts from the lowest pair score to the highest, as the LLR functions take them."""
        return numpy.array([self.b_better, self.equal, self.a_better], dtype=float)

    @classmethod
    def of(cls, results: ArrayLike) -> PairCounts:
        """The counts of pair results (-1: B better, 0: equal, 1: A better)."""
        values = numpy.asarray(results)
        return cls(int((values < 0).sum()), int((values == 0).sum()), int((values > 0).sum()))


def _distribution(counts: ArrayLike) -> tuple[NDArray[numpy.float64], NDArray[numpy.float64], NDArray[numpy.float64]]:
    """The counts with empty cells filled, their total, and the empirical
    distribution over the equally spaced scores 0, ..., 1 of the last axis."""
    filled = numpy.asarray(counts, dtype=float)
    filled = numpy.where(filled > 0, filled, EMPTY_CELL)
    total = filled.sum(axis=-1)
    return filled, total, filled / total[..., None]


def _scores(cells: int) -> NDArray[numpy.float64]:
    return numpy.linspace(0.0, 1.0, cells)


def constrained_estimate(empirical: ArrayLike, score: float) -> NDArray[numpy.float64]:
    """The distribution closest in likelihood to ``empirical`` (over the scores
    0, ..., 1 of the last axis; every cell positive) whose expected score is
    ``score``: Van den Bergh's proposition 1.1, theta found by bisection
    (the secular function decreases in theta)."""
    probabilities = numpy.asarray(empirical, dtype=float)
    offsets = _scores(probabilities.shape[-1]) - score
    low = numpy.full(probabilities.shape[:-1], -1 / offsets.max())
    high = numpy.full(probabilities.shape[:-1], -1 / offsets.min())
    for _ in range(_BISECTIONS):
        middle = (low + high) / 2
        secular = (probabilities * offsets / (1 + middle[..., None] * offsets)).sum(axis=-1)
        low = numpy.where(secular > 0, middle, low)
        high = numpy.where(secular > 0, high, middle)
    theta = (low + high) / 2
    return probabilities / (1 + theta[..., None] * offsets)


def gsprt_llr(counts: ArrayLike, s0: float, s1: float) -> NDArray[numpy.float64]:
    """The generalized log-likelihood ratio of ``s = s1`` against ``s = s0``
    for result counts (last axis: lowest score first; three cells for pairs
    scored 0, 1/2, 1, five for chess's game pairs)."""
    filled, _, empirical = _distribution(counts)
    under_h0, under_h1 = constrained_estimate(empirical, s0), constrained_estimate(empirical, s1)
    return (filled * (numpy.log(under_h1) - numpy.log(under_h0))).sum(axis=-1)


def approximate_llr(counts: ArrayLike, s0: float, s1: float) -> NDArray[numpy.float64]:
    """Van den Bergh's normal approximation of :func:`gsprt_llr` (fishtest's
    ``LLR_alt2``): ``N (s1 - s0) (2 s - s0 - s1) / (2 var)`` with ``s`` and
    ``var`` the sample's mean score and variance per observation.  Shown beside
    the exact value; it overshoots on lopsided samples, where pacsim's pairs often are."""
    _, total, empirical = _distribution(counts)
    scores = _scores(empirical.shape[-1])
    mean = (empirical * scores).sum(axis=-1)
    variance = (empirical * (scores - mean[..., None]) ** 2).sum(axis=-1)
    return total * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)


@dataclass(frozen=True)
class SprtState:
    """The test after ``counts.pairs`` pairs: the counts, the LLR, the bounds and the decision."""

    counts: PairCounts
    llr: float
    lower: float
    upper: float
    decision: str = CONTINUE
    """:data:`H0`, :data:`H1`, or :data:`CONTINUE` (empty: play on)."""

    @property
    def pairs(self) -> int:
        return self.counts.pairs


def decide(llr: float, lower: float, upper: float) -> str:
    if llr >= upper:
        return H1
    if llr <= lower:
        return H0
    return CONTINUE


def sequential_test(results: ArrayLike, hypotheses: Hypotheses, start: int = 0) -> SprtState:
    """Run the test over ``results`` (-1, 0, 1 per pair, in the pairs' fixed
    order) one pair at a time: the state at the first pair whose LLR reaches a
    bound, or after the last pair.  ``start`` skips the LLRs of the first
    pairs (a caller that has already tested them without a decision)."""
    values = numpy.asarray(results)
    lower, upper = hypotheses.bounds
    if len(values) == 0:
        return SprtState(PairCounts(), 0.0, lower, upper)
    cells = numpy.stack([values < 0, values == 0, values > 0], axis=-1).astype(float)
    cumulative = numpy.cumsum(cells, axis=0)[min(start, len(values) - 1):]
    llrs = gsprt_llr(cumulative, *hypotheses.scores)
    crossed = numpy.flatnonzero((llrs >= upper) | (llrs <= lower))
    at = int(crossed[0]) if len(crossed) else len(llrs) - 1
    counts = PairCounts(*(int(count) for count in cumulative[at]))
    return SprtState(counts, float(llrs[at]), lower, upper, decide(float(llrs[at]), lower, upper))


BY_RESULT, BY_WIN = "result", "win"
"""What makes one game of a pair better: its outcome, then its score (``result``), or a win alone (``win``)."""
BETTER_BY = (BY_RESULT, BY_WIN)
OUTCOME_RANK = {"loss": 0, "timeout": 1, "win": 2}
"""Pacman's outcomes from worst to best: caught, still going at the move cap, cleared the maze."""


def pair_results(outcomes_a: Iterable[str], scores_a: ArrayLike, outcomes_b: Iterable[str], scores_b: ArrayLike,
                 better_by: str = BY_RESULT) -> NDArray[numpy.int64]:
    """Each pair's result for A, from Pacman's side: 1 if A's game went better,
    0 if equally, -1 if worse.  ``result``: the better outcome (win, then
    timeout, then loss), equal outcomes by the higher score; ``win``: a win
    against no win (then ``delta`` is exactly A's win rate minus B's)."""
    ranks_a, ranks_b = (numpy.array([OUTCOME_RANK[outcome] for outcome in outcomes], dtype=numpy.int64)
                        for outcomes in (outcomes_a, outcomes_b))
    if better_by == BY_WIN:
        won = OUTCOME_RANK["win"]
        return numpy.sign((ranks_a == won).astype(numpy.int64) - (ranks_b == won))
    by_score = numpy.sign(numpy.asarray(scores_a, dtype=float) - numpy.asarray(scores_b, dtype=float)).astype(numpy.int64)
    return numpy.where(ranks_a != ranks_b, numpy.sign(ranks_a - ranks_b), by_score)


def with_forfeits(results: ArrayLike, same_outcome: ArrayLike, forfeit_a: ArrayLike,
                  forfeit_b: ArrayLike) -> NDArray[numpy.int64]:
    """``results`` (-1, 0, 1 per pair, for A) where a game the opponent faulted
    (a forfeit: the rules' win for the side that did not fault, as recorded)
    breaks no tie by its score, cut short at the fault: the same outcome is
    then an equal pair.  So the opponent's fault never takes a pair out of
    the test, and a forfeit is worth what a win is, no more."""
    either = numpy.asarray(forfeit_a, dtype=bool) | numpy.asarray(forfeit_b, dtype=bool)
    return numpy.where(either & numpy.asarray(same_outcome, dtype=bool), 0, numpy.asarray(results)).astype(numpy.int64)


def with_faults(results: ArrayLike, faulted_a: ArrayLike, faulted_b: ArrayLike) -> NDArray[numpy.int64]:
    """``results`` (-1, 0, 1 per pair, for A) with each entrant's own faults put
    last: a fault is worse than any game played to its end, whatever its score
    (a Pacman that spins until his time runs out must not beat one that lost);
    two faults are equal."""
    faulted_a, faulted_b = numpy.asarray(faulted_a, dtype=bool), numpy.asarray(faulted_b, dtype=bool)
    return numpy.where(faulted_a | faulted_b, faulted_b.astype(numpy.int64) - faulted_a, numpy.asarray(results))
