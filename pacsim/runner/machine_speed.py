"""Time limits that mean the same amount of work on every machine: the machine measured once, the limits scaled.

The reference workload is fixed, written here and nowhere else, so that no
change to pacsim's own teams or engine moves it: all-pairs maze distances on
the shipped ``defaultCapture`` by breadth-first search in plain Python,
:data:`PASSES` times (the work a course team's ``registerInitialState`` does
with the course's ``distanceCalculator``; pure Python, single-threaded: the
kind of work a team's move does).  Its best time of :data:`REPEATS` runs, divided by
:data:`REFERENCE_SECONDS` (the same workload on the machine the course's
limits are taken to be written for), is the machine's *speed factor*: 2.0 on
a machine half as fast.  A contest multiplies the course's time rules (1 s
warning, 3 s forfeit, 15 s start-up) by it, so a team that passes at home
with the course's limits passes on the contest machine, and the factor is
stored with every game.

A fixed node budget (so many expansions a move) would be exact and free of
noise, but it means nothing to a course team: its code is its own Python,
which pacsim cannot count, and two teams' "nodes" are not the same work.
Scaled wall time keeps the course's rules and needs no change to a team; what
it cannot remove is the noise of a shared machine (docs/tournament.md).
"""

from __future__ import annotations

import time
from collections import deque

REFERENCE_LAYOUT = "layouts/capture/defaultCapture.lay"
REFERENCE_SECONDS = 0.103
"""The reference workload's best time on the reference machine (the 2-core machine pacsim's contests were built on
in December 2026, idle, Python 3.11); a factor of 1 there."""
PASSES = 4
"""All-pairs searches in one timing (0.1 s on the reference machine: long enough for a timer, short at a start)."""
REPEATS = 5
LOWEST, HIGHEST = 0.25, 20.0
"""A factor is kept within these: a measurement outside them is a disturbed machine, not a speed."""


def open_cells(text: str) -> list[tuple[int, int]]:
    """The cells of a layout's text that are not walls."""
    return [(x, y) for y, row in enumerate(text.splitlines()) for x, cell in enumerate(row) if cell != "%"]


def total_maze_distance(cells: list[tuple[int, int]]) -> int:
    """The sum of the maze distances between every pair of ``cells`` (a breadth-first search from each):
    the reference workload, whose answer a test checks against the engine's distances."""
    open_set, total = set(cells), 0
    for source in cells:
        distances = {source: 0}
        waiting = deque([source])
        while waiting:
            x, y = waiting.popleft()
            step = distances[(x, y)] + 1
            for neighbour in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if neighbour in open_set and neighbour not in distances:
                    distances[neighbour] = step
                    waiting.append(neighbour)
        total += sum(distances.values())
    return total


def reference_seconds() -> float:
    """The best of :data:`REPEATS` timings of the reference workload here."""
    from pacsim.shipped import shipped_path

    cells = open_cells(shipped_path(REFERENCE_LAYOUT).read_text(encoding="utf-8"))
    best = float("inf")
    for _ in range(REPEATS):
        started = time.perf_counter()
        for _ in range(PASSES):
            total_maze_distance(cells)
        best = min(best, time.perf_counter() - started)
    return best


def speed_factor() -> float:
    """How many times longer this machine takes for the reference workload than the reference machine."""
    return min(HIGHEST, max(LOWEST, reference_seconds() / REFERENCE_SECONDS))
