"""Time limits that mean the same amount of work on every machine: the machine measured once, the limits scaled.

The reference workload is fixed: pacsim's baseline capture team playing
itself for :data:`REFERENCE_MOVES` moves on the shipped ``defaultCapture`` with
seed 0, in this process, no sandbox (pure Python, single-threaded: the
kind of work a course team's move does).  Its best time of
:data:`REPEATS` runs, divided by :data:`REFERENCE_SECONDS` (the same
workload on the machine the course's limits are taken to be written for), is the
machine's *speed factor*: 2.0 on a machine half as fast.  A contest
multiplies the course's time rules (1 s warning, 3 s forfeit, 15 s start-up)
by it, so a team that passes at home with the course's limits passes on the
contest machine, and the factor is stored with every game.

A fixed node budget (so many expansions a move) would be exact and free of
noise, but it means nothing to a course team: its code is its own Python,
which pacsim cannot count, and two teams' "nodes" are not the same work.
Scaled wall time keeps the course's rules and needs no change to a team; what
it cannot remove is the noise of a shared machine (docs/tournament.md).
"""

from __future__ import annotations

import time

REFERENCE_MOVES = 1200
"""Moves of the reference game (both teams, all four agents)."""
REFERENCE_SECONDS = 0.045
"""The reference workload's best time on the reference machine (the 2-core machine pacsim's contests were built on
in December 2026, Python 3.11+); a factor of 1 there."""
REPEATS = 5
LOWEST, HIGHEST = 0.25, 20.0
"""A factor is kept within these: a measurement outside them is a disturbed machine, not a speed."""


def reference_seconds() -> float:
    """The best of :data:`REPEATS` timings of the reference workload here."""
    from pacsim.agents.capture import build_team
    from pacsim.engine.capture import find_capture_layout
    from pacsim.engine.capture.game import play_capture_game

    layout = find_capture_layout("defaultCapture")
    best = float("inf")
    for _ in range(REPEATS):
        red, blue = build_team("baseline", True), build_team("baseline", False)
        started = time.perf_counter()
        play_capture_game(layout, red, blue, seed=0, max_moves=REFERENCE_MOVES)
        best = min(best, time.perf_counter() - started)
    return best


def speed_factor() -> float:
    """How many times longer this machine takes for the reference workload than the reference machine."""
    return min(HIGHEST, max(LOWEST, reference_seconds() / REFERENCE_SECONDS))
