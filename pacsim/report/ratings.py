"""Ratings from paired games: a Bradley-Terry model with bootstrap intervals.

Entrants are compared on *positions*: on each position (a maze, a start and
an opponent's dice, the same for all of them) every entrant played one game,
and of two entrants the one with the better result (its outcome first, then
its score) beat the other; equal results are half a win each.  The model says
entrant ``i`` beats ``j`` with probability ``1 / (1 + exp(r_j - r_i))``; the
ratings ``r`` are fitted by maximum likelihood (``scipy.optimize``: a
maintained optimiser, with the exact gradient) over the counts of wins.  A
weak prior, one drawn game of each entrant against a reference rated 0,
keeps the ratings finite when an entrant won (or lost) every comparison.

Counts do not depend on the order games were played or stored in, so
neither do the ratings.  Their 95% intervals come from a bootstrap over
positions (drawn with replacement, the model fitted again), seeded, so the
same games give the same intervals; each entrant's range of ranks across the
bootstrap says how sure its place is.

Ratings are shown on the Elo scale (400 points: 10 to 1 odds), centred on 0.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy

from pacsim.errors import PacsimError, install_hint

ELO_SCALE = 400 / math.log(10)
"""Rating points per unit of log-odds."""
PRIOR_GAMES = 1.0
"""Drawn games of each entrant against a reference at 0 (keeps an unbeaten entrant's rating finite)."""
BOOTSTRAP_SAMPLES = 200
BOOTSTRAP_SEED = 20260101
INTERVAL = 0.95


@dataclass(frozen=True)
class Rating:
    """One entrant's place."""

    entrant: str
    rating: float
    """Elo-scale points, the entrants' mean at 0."""
    low: float
    high: float
    """The 95% bootstrap interval of the rating."""
    rank: int
    """1 for the best rating."""
    best_rank: int
    worst_rank: int
    """The 95% range of its rank across the bootstrap samples."""
    comparisons: int
    """Comparisons with other entrants (one per other entrant and position)."""
    wins: float
    """Of them, won (draws count a half)."""


def position_wins(values: numpy.ndarray) -> numpy.ndarray:
    """Per position, who beat whom: ``values`` is positions x entrants x 2
    (outcome rank, score; NaN where an entrant has no game there); the result
    is positions x entrants x entrants, ``[p, i, j]`` the wins of ``i`` over ``j``
    on position ``p`` (1, a half for a draw, 0; 0 where either has no game).
    A NaN score beside a rank is a result without a score to compare (a game
    won by the opponent's fault, cut short): equal ranks are then a draw."""
    rank, score = values[..., 0], values[..., 1]
    same_rank = rank[:, :, None] == rank[:, None, :]
    scored = ~numpy.isnan(score)
    both_scored = scored[:, :, None] & scored[:, None, :]
    better = (rank[:, :, None] > rank[:, None, :]) | (same_rank & both_scored & (score[:, :, None] > score[:, None, :]))
    equal = same_rank & (~both_scored | (score[:, :, None] == score[:, None, :]))
    played = ~numpy.isnan(rank)
    both = played[:, :, None] & played[:, None, :]
    wins = numpy.where(better, 1.0, numpy.where(equal, 0.5, 0.0)) * both
    entrants = values.shape[1]
    wins[:, numpy.arange(entrants), numpy.arange(entrants)] = 0.0
    return wins


def fit(wins: numpy.ndarray, prior_games: float = PRIOR_GAMES, start: numpy.ndarray | None = None) -> numpy.ndarray:
    """Bradley-Terry log-strengths (mean 0) maximising the likelihood of
    ``wins`` (``[i, j]``: wins of ``i`` over ``j``) with ``prior_games``
    drawn games of each against a reference at 0."""
    optimize, special = _scipy()
    entrants = wins.shape[0]

    def negative_log_likelihood(strengths: numpy.ndarray) -> tuple[float, numpy.ndarray]:
        difference = strengths[:, None] - strengths[None, :]
        log_beats = -numpy.logaddexp(0.0, -difference)  # log P(i beats j)
        beats = special.expit(difference)
        value = -(wins * log_beats).sum()
        gradient = -(wins * (1 - beats)).sum(axis=1) + (wins.T * (1 - beats.T)).sum(axis=1)
        if prior_games:
            value -= prior_games / 2 * (-numpy.logaddexp(0.0, -strengths) - numpy.logaddexp(0.0, strengths)).sum()
            gradient = gradient + prior_games * (special.expit(strengths) - 0.5)
        return float(value), gradient

    games = wins + wins.T

    def hessian(strengths: numpy.ndarray) -> numpy.ndarray:
        beats = special.expit(strengths[:, None] - strengths[None, :])
        spread = games * beats * (1 - beats)
        matrix = numpy.diag(spread.sum(axis=1)) - spread
        if prior_games:
            prior = special.expit(strengths)
            matrix += numpy.diag(prior_games * prior * (1 - prior))
        return matrix

    # Newton steps in a trust region: a handful of iterations for a model this small (bootstraps fit it hundreds of times).
    initial = numpy.zeros(entrants) if start is None else start
    result = optimize.minimize(negative_log_likelihood, initial, jac=True, hess=hessian, method="trust-exact",
                               options={"gtol": 1e-9})
    strengths = numpy.asarray(result.x, dtype=float)
    return strengths - strengths.mean()


def rate(entrants: Sequence[str], per_position: numpy.ndarray, samples: int = BOOTSTRAP_SAMPLES,
         seed: int = BOOTSTRAP_SEED) -> list[Rating]:
    """The entrants' ratings, best first, from their per-position wins
    (:func:`position_wins`), positions in a fixed order (sorted by their key):
    the bootstrap draws position indexes, so the same games give the same intervals."""
    wins = per_position.sum(axis=0)
    strengths = fit(wins)
    draws = numpy.random.default_rng(seed).integers(0, len(per_position), size=(samples, len(per_position)))
    sampled = numpy.array([fit(numpy.tensordot(numpy.bincount(draw, minlength=len(per_position)), per_position, axes=1),
                                start=strengths)
                           for draw in draws]) if len(per_position) else numpy.zeros((0, len(entrants)))
    return _summarised(entrants, wins, strengths, sampled, samples)


def rate_games(entrants: Sequence[str], first: numpy.ndarray, second: numpy.ndarray, first_points: numpy.ndarray,
               samples: int = BOOTSTRAP_SAMPLES, seed: int = BOOTSTRAP_SEED) -> list[Rating]:
    """The entrants' ratings, best first, from games between two of them each: game ``g`` between entrants
    ``first[g]`` and ``second[g]`` (indexes into ``entrants``), ``first_points[g]`` the first's result (1 a win,
    a half a draw, 0 a loss).  The bootstrap draws games (in the order given: sort them by a fixed key), so
    the same games give the same intervals; memory grows with the games, not with entrants x entrants x games
    (a capture contest of 150 teams)."""
    count = len(entrants)

    def wins_of(weights: numpy.ndarray) -> numpy.ndarray:
        wins = numpy.zeros((count, count))
        numpy.add.at(wins, (first, second), weights * first_points)
        numpy.add.at(wins, (second, first), weights * (1 - first_points))
        return wins

    wins = wins_of(numpy.ones(len(first)))
    strengths = fit(wins)
    draws = numpy.random.default_rng(seed).integers(0, len(first), size=(samples, len(first)))
    sampled = numpy.array([fit(wins_of(numpy.bincount(draw, minlength=len(first))), start=strengths)
                           for draw in draws]) if len(first) else numpy.zeros((0, count))
    return _summarised(entrants, wins, strengths, sampled, samples)


def _summarised(entrants: Sequence[str], wins: numpy.ndarray, strengths: numpy.ndarray, sampled: numpy.ndarray,
                samples: int) -> list[Rating]:
    """Each entrant's rating, interval and rank range from the fitted ``strengths`` and the bootstrap's."""
    tail = (1 - INTERVAL) / 2 * 100
    low, high = (numpy.percentile(sampled, [tail, 100 - tail], axis=0) if len(sampled) else (strengths, strengths))
    ranks = _ranks(strengths)
    sampled_ranks = numpy.array([_ranks(row) for row in sampled]) if len(sampled) else ranks[None, :]
    best, worst = numpy.percentile(sampled_ranks, [tail, 100 - tail], axis=0, method="nearest")
    comparisons = (wins + wins.T).sum(axis=1)  # a comparison is one win, or two halves
    ratings = [Rating(entrant=name, rating=float(strengths[index] * ELO_SCALE), low=float(low[index] * ELO_SCALE),
                      high=float(high[index] * ELO_SCALE), rank=int(ranks[index]), best_rank=int(best[index]),
                      worst_rank=int(worst[index]), comparisons=round(float(comparisons[index])),
                      wins=float(wins[index].sum()))
               for index, name in enumerate(entrants)]
    return sorted(ratings, key=lambda rating: (rating.rank, rating.entrant))


def _ranks(strengths: numpy.ndarray) -> numpy.ndarray:
    """1 for the highest strength; ties share the better rank."""
    return numpy.array([1 + int((strengths > value + 1e-9).sum()) for value in strengths])


def check_ratings_possible() -> None:
    """Raise the one line :func:`_scipy` would, before a tournament plays any
    game rather than after every game is played."""
    import importlib.util

    if importlib.util.find_spec("scipy") is None:
        raise PacsimError(f"a tournament's ratings need scipy, which is not installed: {install_hint('contest')}")


def _scipy():
    try:
        from scipy import optimize, special
    except ImportError:
        raise PacsimError(f"ratings need scipy: {install_hint('contest')}") from None
    return optimize, special
