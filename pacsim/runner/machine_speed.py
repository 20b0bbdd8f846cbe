"""Time limits that mean the same amount of work on every machine: the machine measured once, the limits scaled.

The reference workload is fixed and is the kind of work a course team does,
written here in plain Python and nothing of pacsim's: breadth-first maze
distances from every open cell of the shipped ``defaultCapture`` (what a
course team's ``distanceCalculator`` computes when it starts), single-threaded,
no sandbox.  Its best time of :data:`REPEATS` runs, divided by
:data:`REFERENCE_SECONDS` (the same workload on the machine the course's
limits are taken to be written for), is the machine's *speed factor*: 2.0 on
a machine half as fast.  A contest multiplies the course's time rules (1 s
warning, 3 s forfeit, 15 s start-up) by it, so a team that passes at home with
the course's limits passes on the contest machine, and the factor is stored
with every game.

The workload was once pacsim's own baseline team playing itself (16 to 40 ms):
its time fell as pacsim's caches warmed within the process and as pacsim got
faster, so a factor of 0.33 came out on the very machine the reference was
taken on, and the course's 1 s a move became 0.33 s.  pacsim's speed must not
move a contest's limits; this workload's code does not change with pacsim's.

A fixed node budget (so many expansions a move) would be exact and free of
noise, but it means nothing to a course team: its code is its own Python,
which pacsim cannot count, and two teams' "nodes" are not the same work.
Scaled wall time keeps the course's rules and needs no change to a team; what
it cannot remove is the noise of a shared machine (docs/tournament.md).
"""

from __future__ import annotations

import time
from collections import deque

REFERENCE_MAZE = "defaultCapture"
REFERENCE_SECONDS = 0.024
"""The reference workload's best time on the reference machine (the 2-core machine pacsim's contests were built on,
December 2026, Python 3.11, measured with the machine otherwise idle); a factor of 1 there."""
REPEATS = 9
LOWEST, HIGHEST = 0.25, 20.0
"""A factor is kept within these: a measurement outside them is a disturbed machine, not a speed."""


def reference_workload(text: str) -> int:
    """Maze distances from every open cell of a maze's text, breadth first, in plain Python; the sum of them all
    (a check that the work was done)."""
    open_cells = {(x, y) for y, row in enumerate(text.splitlines()) for x, char in enumerate(row) if char != "%"}
    total = 0
    for source in open_cells:
        distances = {source: 0}
        frontier = deque([source])
        while frontier:
            cell = frontier.popleft()
            x, y = cell
            for neighbour in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if neighbour in open_cells and neighbour not in distances:
                    distances[neighbour] = distances[cell] + 1
                    frontier.append(neighbour)
        total += sum(distances.values())
    return total


def reference_seconds() -> float:
    """The best of :data:`REPEATS` timings of the reference workload here."""
    from pacsim.engine.capture.layout import capture_layout_text

    text = capture_layout_text(REFERENCE_MAZE)[0]
    best = float("inf")
    for _ in range(REPEATS):
        started = time.perf_counter()
        reference_workload(text)
        best = min(best, time.perf_counter() - started)
    return best


def speed_factor() -> float:
    """How many times longer this machine takes for the reference workload than the reference machine."""
    return min(HIGHEST, max(LOWEST, reference_seconds() / REFERENCE_SECONDS))
