"""The few statistics the reports need, in plain Python (scipy is not a dependency).

Wilson score interval for win rates, t interval for mean scores, the
exact McNemar test for paired wins, and the exact tails a small published
sample is judged by (a binomial count, the mean of a few draws).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy

Z_95 = 1.959963984540054
"""The standard normal 97.5% quantile."""

_T_975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
          2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
          2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)
"""Student t 97.5% quantiles for 1..30 degrees of freedom."""


def t_quantile_975(degrees_of_freedom: int) -> float:
    """Student t 97.5% quantile: the table up to 30, then the Cornish-Fisher
    expansion around the normal quantile (error below 0.001 there)."""
    if degrees_of_freedom < 1:
        return math.nan
    if degrees_of_freedom <= len(_T_975):
        return _T_975[degrees_of_freedom - 1]
    z, n = Z_95, degrees_of_freedom
    return z + (z**3 + z) / (4 * n) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * n**2)


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """Wilson score interval for a proportion: stays inside [0, 1] and is
    sensible at 0/n and n/n, where the normal interval collapses."""
    if trials <= 0:
        return math.nan, math.nan
    rate = successes / trials
    denominator = 1 + z * z / trials
    centre = (rate + z * z / (2 * trials)) / denominator
    half_width = z / denominator * math.sqrt(rate * (1 - rate) / trials + z * z / (4 * trials * trials))
    # At 0/n and n/n the bound is exactly 0 or 1 in exact arithmetic; floats
    # leave 4e-19 or 0.9999999999999999, which print badly and put a bar's
    # error below zero.
    low = 0.0 if successes <= 0 else max(0.0, centre - half_width)
    high = 1.0 if successes >= trials else min(1.0, centre + half_width)
    return low, high


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and its 95% t interval; the interval is NaN with fewer than two values."""
    count = len(values)
    if count == 0:
        return math.nan, math.nan, math.nan
    mean = math.fsum(values) / count
    if count < 2:
        return mean, math.nan, math.nan
    variance = math.fsum((value - mean) ** 2 for value in values) / (count - 1)
    half_width = t_quantile_975(count - 1) * math.sqrt(variance / count)
    return mean, mean - half_width, mean + half_width


def mcnemar_exact(a_only: int, b_only: int) -> float:
    """Two-sided exact McNemar p-value: the discordant pairs (A won and B did
    not, or the reverse) are Binomial(n, 1/2) under no difference."""
    discordant = a_only + b_only
    if discordant == 0:
        return 1.0
    tail = sum(math.comb(discordant, k) for k in range(min(a_only, b_only) + 1)) / 2**discordant
    return min(1.0, 2 * tail)


def binomial_tail(successes: int, trials: int, rate: float, lower: bool) -> float:
    """Exact P(X <= successes) (``lower``) or P(X >= successes) for X ~ Binomial(trials, rate)."""
    counts = range(0, successes + 1) if lower else range(successes, trials + 1)
    return min(1.0, math.fsum(math.comb(trials, k) * rate**k * (1 - rate) ** (trials - k) for k in counts))


def mean_of_draws_tail(values: Sequence[float], draws: int, threshold: float, lower: bool) -> float:
    """Exact P(mean of ``draws`` values drawn with replacement from ``values``
    <= ``threshold``) (``lower``), or >= it: the distribution of the sum,
    enumerated by convolving the values' frequencies (scores are integers;
    others are rounded to one)."""
    integers = numpy.rint(numpy.asarray(values, dtype=float)).astype(numpy.int64)
    smallest = int(integers.min())
    single = numpy.bincount(integers - smallest) / len(integers)
    total = numpy.ones(1)
    for _ in range(draws):
        total = numpy.convolve(total, single)
    sums = numpy.arange(len(total)) + draws * smallest  # total[i] is P(sum == draws * smallest + i)
    limit = threshold * draws
    chosen = sums <= limit + 1e-9 if lower else sums >= limit - 1e-9
    return float(min(1.0, total[chosen].sum()))


def histogram_mean_interval(counts: dict[float, int]) -> tuple[float, float, float]:
    """:func:`mean_interval` of the values ``counts`` holds (value -> how many
    times), without listing them: a group of a million games has a few hundred distinct scores."""
    count = sum(counts.values())
    if count == 0:
        return math.nan, math.nan, math.nan
    mean = math.fsum(value * times for value, times in counts.items()) / count
    if count < 2:
        return mean, math.nan, math.nan
    variance = math.fsum(times * (value - mean) ** 2 for value, times in counts.items()) / (count - 1)
    half_width = t_quantile_975(count - 1) * math.sqrt(variance / count)
    return mean, mean - half_width, mean + half_width


def histogram_median(counts: dict[float, int]) -> float:
    """The median of the values ``counts`` holds (the mean of the middle two for an even count)."""
    count = sum(counts.values())
    if count == 0:
        return math.nan
    wanted = sorted({(count - 1) // 2, count // 2})
    found, seen = [], 0
    for value in sorted(counts):
        seen += counts[value]
        while wanted and wanted[0] < seen:
            found.append(float(value))
            wanted.pop(0)
    return (found[0] + found[-1]) / 2
