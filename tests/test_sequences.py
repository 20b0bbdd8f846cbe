"""Confidence sequences: they hold at every look (by simulation), and the
boundary is where the normal mixture martingale reaches 1/alpha."""

import math

import numpy
import pytest

from pacsim.report.sequences import mixture_rho, normal_mixture_boundary, score_sequence, win_rate_sequence
from pacsim.report.stats import wilson_interval


def test_the_boundary_is_where_the_mixture_martingale_reaches_one_over_alpha():
    # The mixture of exp(l S - l^2 V / 2) over l ~ N(0, 1/rho), integrated numerically, at S on the boundary.
    for v, rho, alpha in ((100.0, 20.0, 0.05), (2500.0, 300.0, 0.05), (10.0, 1.0, 0.01)):
        s = normal_mixture_boundary(v, rho, alpha)
        lambdas = numpy.linspace(-12 / math.sqrt(rho), 12 / math.sqrt(rho), 400_001)
        density = numpy.sqrt(rho / (2 * math.pi)) * numpy.exp(-rho * lambdas**2 / 2)
        mixture = numpy.trapezoid(numpy.exp(lambdas * s - lambdas**2 * v / 2) * density, lambdas)
        assert mixture == pytest.approx(1 / alpha, rel=1e-6)


def test_rho_makes_the_boundary_about_tightest_at_the_tuned_time():
    for v in (25.0, 250.0, 5000.0):
        chosen = normal_mixture_boundary(v, mixture_rho(v))
        best = min(normal_mixture_boundary(v, v * factor) for factor in numpy.geomspace(0.01, 10, 2000))
        assert best <= chosen <= 1.01 * best


def test_win_rate_sequences_cover_at_every_look_and_fixed_intervals_do_not():
    generator = numpy.random.default_rng(7)
    runs, looks, rate = 200, 500, 0.3
    wins = numpy.cumsum(generator.random((runs, looks)) < rate, axis=1)
    sequence_missed = fixed_missed = 0
    for run, row in enumerate(wins):
        sequences = [win_rate_sequence(int(count), games + 1, tuned_for=looks) for games, count in enumerate(row)]
        sequence_missed += any(not low <= rate <= high for low, high in sequences)
        if run < 60:
            fixed = [wilson_interval(int(count), games + 1) for games, count in enumerate(row)]
            fixed_missed += any(not low <= rate <= high for low, high in fixed)
    assert sequence_missed / runs <= 0.05  # at every look, the stated rate
    assert fixed_missed / 60 > 0.2  # a 95% interval watched at every look misses far more often


def test_score_sequences_cover_at_every_look():
    generator = numpy.random.default_rng(8)
    runs, looks = 200, 400
    scores = generator.choice([-500.0, 10.0, 300.0, 1200.0], p=[0.4, 0.3, 0.2, 0.1], size=(runs, looks))
    truth = -500 * 0.4 + 10 * 0.3 + 300 * 0.2 + 1200 * 0.1
    missed = 0
    for row in scores:
        counts = numpy.arange(1, looks + 1)
        means = numpy.cumsum(row) / counts
        deviations = numpy.sqrt(numpy.maximum(numpy.cumsum(row**2) / counts - means**2, 0) * counts / numpy.maximum(counts - 1, 1))
        bounds = [score_sequence(means[i], deviations[i], i + 1, tuned_for=looks) for i in range(30, looks)]
        missed += any(not low <= truth <= high for low, high in bounds)
    assert missed / runs <= 0.05 + 0.02  # asymptotic: from the 30th game on
