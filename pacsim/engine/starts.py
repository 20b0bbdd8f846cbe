"""Random starts: Pacman's start cell drawn per game, a pure function of the game's seed.

Drawn from every empty cell far enough from the ghosts (``random``), taken
in turn from an opening book's cells (``decisions``: where the Pacmen under
study part ways, see :mod:`pacsim.runner.openings`; game i on cell i mod the
book's size), or taken in turn from every such cell (``every``: game i on the
i mod C-th of the C start cells, so that N x C games play N from each cell,
what ``pacsim lesson-map`` draws).

A fixed start makes every game of a deterministic Pacman against a
deterministic ghost the same game; drawing the start from the seed turns a
condition's games into a sample of positions while each game stays
reproducible.  The draw uses its own random stream (not an agent's), so the
same seed gives the same start whatever agents play.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from pacsim.engine.layout import EMPTY, PACMAN, UNREACHABLE, Layout, parse_layout
from pacsim.errors import LayoutError

LAYOUT, RANDOM, DECISIONS, EVERY = "layout", "random", "decisions", "every"
STARTS = (LAYOUT, RANDOM, DECISIONS)
"""Where Pacman starts: the layout's ``P``, a random cell per game, or an
opening book's cells in turn."""
EXPERIMENT_STARTS = (*STARTS, EVERY)
"""What an experiment file's ``starts`` may say: also every start cell in
turn (a sweep of the maze, not a sample: ``play`` and ``reproduce`` do not offer it)."""
DEFAULT_START_DISTANCE = 6
"""Fewest maze steps between a random start and every ghost: six steps are
more than a depth-4 search's horizon of ghost moves, so no start is lost at
once, while most cells of a small maze still qualify."""


def start_cells(layout: Layout, num_ghosts: int, min_distance: int) -> list[int]:
    """The cells a random start may be drawn from, in cell order: empty
    (no food, no capsule, no ghost), reachable from the layout's own start,
    and at least ``min_distance`` maze steps from every ghost's start."""
    reachable = layout.distances_from(layout.pacman_start)
    ghost_rows = [layout.distances_from(cell) for cell in layout.ghost_starts[:num_ghosts]]
    occupied = (layout.food | layout.capsules)
    return [cell for cell in range(layout.num_cells)
            if reachable[cell] < UNREACHABLE and not occupied >> cell & 1
            and cell not in layout.ghost_starts
            and all(row[cell] >= min_distance for row in ghost_rows)]


def draw_start(layout: Layout, num_ghosts: int, seed: int, min_distance: int) -> int:
    """Pacman's start cell in the game with ``seed``: uniform over :func:`start_cells`."""
    cells = start_cells(layout, num_ghosts, min_distance)
    if not cells:
        raise LayoutError(f"no empty cell at least {min_distance} steps from every ghost for a random start",
                          layout.source)
    return random.Random(f"pacsim:{seed}:start").choice(cells)


def game_start(layout: Layout, num_ghosts: int, seed: int, game_index: int, min_distance: int,
               book: Sequence[int] = (), starts: str = RANDOM) -> int:
    """Pacman's start cell in game ``game_index`` (seed ``seed``): the opening
    ``book``'s cells in turn if one is given (each played equally often, as
    an engine-testing tool plays its openings), every start cell in turn
    with ``every`` starts (:func:`every_start`), else :func:`draw_start`."""
    if book:
        return book[game_index % len(book)]
    if starts == EVERY:
        return every_start(layout, num_ghosts, game_index, min_distance)
    return draw_start(layout, num_ghosts, seed, min_distance)


def every_start(layout: Layout, num_ghosts: int, game_index: int, min_distance: int) -> int:
    """Game ``game_index``'s start with ``every`` starts: the start cells
    (:func:`start_cells`) in turn, so that every cell is played equally
    often and a longer run (``--games``) adds games to every cell alike."""
    cells = start_cells(layout, num_ghosts, min_distance)
    if not cells:
        raise LayoutError(f"no empty cell at least {min_distance} steps from every ghost to start Pacman on",
                          layout.source)
    return cells[game_index % len(cells)]


def with_pacman_start(layout: Layout, cell: int) -> Layout:
    """The same maze (same name, same cell numbers) with Pacman starting on
    ``cell``: its text moves the ``P``, so a saved game replays as it was played."""
    if cell == layout.pacman_start:
        return layout
    if not 0 <= cell < layout.num_cells:
        raise LayoutError(f"start cell {cell} is not one of the layout's {layout.num_cells} open cells", layout.source)
    rows = [list(line) for line in layout.text.splitlines()]
    old_row, old_column = layout.cells[layout.pacman_start]
    new_row, new_column = layout.cells[cell]
    if rows[new_row][new_column] != EMPTY:
        raise LayoutError(f"start cell {cell} (row {new_row + 1}, column {new_column + 1}) is not empty", layout.source)
    rows[old_row][old_column] = EMPTY
    rows[new_row][new_column] = PACMAN
    moved = parse_layout("\n".join("".join(row) for row in rows) + "\n", name=layout.name, source=layout.source)
    # Same walls, same cell numbers: the maze distances are the same, computed once for every start.
    object.__setattr__(moved, "_distance_rows", layout._distance_rows)
    return moved
