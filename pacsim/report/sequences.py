"""Confidence sequences: intervals that hold at every look, for pages whose
numbers move as games arrive (``pacsim dashboard``).

A 95% interval computed after each new game misses the true value, at some
look, far more often than 5% of the time: it was built for one look.  A
confidence sequence covers the true value at every look at once with
probability 95%, so it can be watched and a run stopped whenever it says
enough.  It is wider than the fixed-sample interval (about 1.5 to 2 times,
near the number of games it is tuned for): the final report keeps the
fixed-sample intervals for the one look at the end.

Both sequences below use the two-sided normal mixture boundary (Robbins
1970) as Howard, Ramdas, McAuliffe and Sekhon give it for sub-Gaussian
observations in "Time-uniform, nonparametric, nonasymptotic confidence
sequences", Annals of Statistics 49(2), 2021: the mixture over lambda ~
N(0, 1/rho) of the supermartingales exp(lambda S_t - lambda^2 V_t / 2) is at
least 1/alpha exactly when

    |S_t - t mu| < sqrt((V_t + rho) log((V_t + rho) / (rho alpha^2)))   for every t,

with probability at least 1 - alpha, where V_t = sigma^2 t.

* Win rates: a game's win is in [0, 1], so sigma = 1/2 (Hoeffding): exact,
  for any number of games.
* Mean scores: scores have no known bound, so sigma is the sample standard
  deviation: the asymptotic confidence sequence of Waudby-Smith, Arbour,
  Sinha, Kennedy and Ramdas, "Time-uniform central limit theory and
  asymptotic confidence sequences" (Annals of Statistics, 2024): the same
  boundary, valid as the games grow, as the t interval is.

``rho`` tunes where the sequence is tightest; it is chosen for ``tuned_for``
games (the run's planned games per condition) by Howard et al.'s closed
form (the one their ``confseq`` package's ``normal_mixture_bound`` uses).
"""

from __future__ import annotations

import math

ALPHA = 0.05
DEFAULT_TUNED_FOR = 100
"""Games a sequence is tightest at when the planned count is unknown."""


def mixture_rho(intrinsic_time: float, alpha: float = ALPHA) -> float:
    """The mixture's ``rho`` that makes the boundary about tightest at
    ``intrinsic_time`` (sigma^2 times the games), Howard et al.'s closed form."""
    level = -2 * math.log(alpha)
    return intrinsic_time / (level + math.log(level + 1))


def normal_mixture_boundary(intrinsic_time: float, rho: float, alpha: float = ALPHA) -> float:
    """The two-sided normal mixture boundary on |S_t| at intrinsic time V_t (Howard et al. 2021)."""
    total = intrinsic_time + rho
    return math.sqrt(total * math.log(total / (rho * alpha * alpha)))


def mean_sequence(mean: float, sigma: float, games: int, tuned_for: int = DEFAULT_TUNED_FOR,
                  alpha: float = ALPHA) -> tuple[float, float]:
    """The confidence sequence's interval after ``games`` observations of
    ``mean`` whose increments are sub-Gaussian with ``sigma``; NaN before any game."""
    if games <= 0 or math.isnan(sigma):
        return math.nan, math.nan
    rho = mixture_rho(sigma * sigma * max(tuned_for, 1), alpha) or 1e-12  # sigma 0: all games alike
    radius = normal_mixture_boundary(sigma * sigma * games, rho, alpha) / games
    return mean - radius, mean + radius


def win_rate_sequence(wins: int, games: int, tuned_for: int = DEFAULT_TUNED_FOR, alpha: float = ALPHA) -> tuple[float, float]:
    """The anytime-valid interval of a win rate (Hoeffding normal mixture, sigma = 1/2), clipped to [0, 1]."""
    if games <= 0:
        return math.nan, math.nan
    low, high = mean_sequence(wins / games, 0.5, games, tuned_for, alpha)
    return max(0.0, low), min(1.0, high)


def score_sequence(mean: float, standard_deviation: float, games: int, tuned_for: int = DEFAULT_TUNED_FOR,
                   alpha: float = ALPHA) -> tuple[float, float]:
    """The asymptotic anytime-valid interval of a mean score (Waudby-Smith et al. 2024); NaN below two games."""
    if games < 2:
        return math.nan, math.nan
    return mean_sequence(mean, standard_deviation, games, tuned_for, alpha)
