"""An experiment's bounds on games and time, on their own: ``pacsim play``
checks ``-n`` and ``--time-limit`` against them without importing the
experiment machinery (files, plans, the sandbox) it does not use."""

from __future__ import annotations

import math

from pacsim.errors import ConfigError

MAX_GAMES = 100_000
"""Most games per condition (seeds for them all are drawn before the first game)."""
MAX_TOTAL_GAMES = 1_000_000
"""Most games in one experiment (conditions times games); split a larger one."""
MAX_TIME_LIMIT = 3600.0
"""Largest per-move time limit, in seconds."""


def check_time_limit(seconds: float, where: str) -> float:
    """A per-move time limit: 0 (none) or up to :data:`MAX_TIME_LIMIT` seconds.
    NaN, infinities and negatives are a :class:`ConfigError` that starts with ``where``."""
    if not (math.isfinite(seconds) and 0 <= seconds <= MAX_TIME_LIMIT):
        raise ConfigError(f"{where}: must be at least 0 and at most {MAX_TIME_LIMIT:g} seconds a move "
                          f"(0: no limit), not {seconds}")
    return seconds
