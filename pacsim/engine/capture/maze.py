"""Seeded contest mazes (``-l RANDOM13``): mirrored, connected, food and capsules on both sides.

The left half is a maze carved on its odd squares by pacsim's own generator
(:mod:`pacsim.engine.generate`: a randomized depth-first search, every dead
end braided into a loop, a share of pillars opened into rooms); the right
half is the left turned half a turn about the centre, as the course's
mazes are, so both teams play the same maze.  Every odd row of the last
left column meets its mirror across the middle, so the halves are joined
by several crossings and the whole maze is connected.  Red's agents 1 and 3
start in the bottom-left corner, blue's 2 and 4 in the top-right; food and
capsules go on random open cells of the left half and their mirrors.

The same seed always gives the same text (a test holds it so): a contest can
be reproduced from its maze names alone.
"""

from __future__ import annotations

import random

from pacsim.engine.generate import _braid, _carve, _open_rooms

HALF_WIDTH = 16
"""Columns of one half (the maze is twice as wide); even, so the middle column is an odd one."""
HEIGHT = 17
FOOD_PER_SIDE = 20
CAPSULES_PER_SIDE = 2
ROOMS = 0.15
"""The share of interior pillars opened into rooms."""


def generate_capture_maze(seed: int) -> str:
    """The capture maze of ``seed``, as ``.lay`` text."""
    rng = random.Random(seed)
    # The left half with one extra wall column that the carving keeps closed (it is dropped).
    grid = [[True] * (HALF_WIDTH + 1) for _ in range(HEIGHT)]
    _carve(grid, rng)
    _braid(grid, rng, 1.0)
    _open_rooms(grid, rng, ROOMS)
    left = [row[:HALF_WIDTH] for row in grid]
    starts = (HEIGHT - 2, 1), (HEIGHT - 3, 1)
    for row, column in starts:
        left[row][column] = False  # (HEIGHT-3, 1) joins two carved squares: still connected
    marks = _marks(left, rng, starts)
    return "\n".join(_row(left, marks, row) for row in range(HEIGHT)) + "\n"


def _marks(left: list[list[bool]], rng: random.Random, starts: tuple[tuple[int, int], ...]) -> dict[tuple[int, int], str]:
    """What stands on the left half's cells: the red agents, food, capsules."""
    marks = {starts[0]: "1", starts[1]: "3"}
    free = [(row, column) for row, line in enumerate(left) for column, wall in enumerate(line)
            if not wall and (row, column) not in marks and column > 2]
    chosen = rng.sample(free, min(len(free), FOOD_PER_SIDE + CAPSULES_PER_SIDE))
    for number, square in enumerate(chosen):
        marks[square] = "o" if number < CAPSULES_PER_SIDE else "."
    return marks


_MIRRORED = {"1": "2", "3": "4"}


def _row(left: list[list[bool]], marks: dict[tuple[int, int], str], row: int) -> str:
    """One text row: the left half's, then the right half's (the left turned half a turn)."""
    def left_char(r: int, column: int) -> str:
        return "%" if left[r][column] else marks.get((r, column), " ")

    own = "".join(left_char(row, column) for column in range(HALF_WIDTH))
    mirror_row = HEIGHT - 1 - row
    turned = "".join(left_char(mirror_row, column) for column in reversed(range(HALF_WIDTH)))
    return own + "".join(_MIRRORED.get(char, char) for char in turned)
