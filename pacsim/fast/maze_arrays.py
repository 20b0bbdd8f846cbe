"""Layouts and states as the kernel's arrays, and back.

A kernel state is one int64 row::

    [pacman, turn, status, score, food left,
     ghost cells (G), directions (G + 1, Pacman first), scared timers (G),
     food words (W), capsule words (W)]

with ``G`` the ghosts in the game and ``W`` the 32-bit words of the
layout's cell bitsets (food of cell ``c`` is bit ``c % 32`` of word
``c // 32``).
"""

from __future__ import annotations

import weakref
from typing import NamedTuple

import numpy as np

from pacsim.engine import GameState
from pacsim.engine.layout import ACTIONS, EMPTY, PACMAN, Layout
from pacsim.fast.kernel import FIRST_GHOST, PACMAN_TABLE, WORD_BITS_SHIFT, WORD_MASK, breadth_first_distances


class Tables(NamedTuple):
    """A layout's move and distance tables as the kernel's arrays."""

    moves: np.ndarray
    """int64[cells, 6, 11]: ``moves[cell, table]`` is ``[count, action,
    target, action, target, ...]``; table 0 holds Pacman's moves, table
    1 + d the moves of a ghost whose last direction is d (no reverse)."""
    distance: np.ndarray
    """int32[cells, cells]: maze distance (UNREACHABLE when there is no path)."""
    nearest: np.ndarray
    """int32[cells, cells]: for each cell, every cell by increasing distance
    (the nearest food is the first food met in this order)."""
    ghost_starts: np.ndarray
    """int64[ghosts of the layout]: start cells, in agent order."""


_ACTION_INDEX = {action: index for index, action in enumerate(ACTIONS)}
_tables: weakref.WeakKeyDictionary[Layout, Tables] = weakref.WeakKeyDictionary()


def words_for(layout: Layout) -> int:
    """32-bit words of a bitset over the layout's cells."""
    return (layout.num_cells + WORD_MASK) >> WORD_BITS_SHIFT


def layout_tables(layout: Layout) -> Tables:
    """The layout's move and distance tables as arrays, built once per maze
    (every start of Pacman in one maze shares them: :func:`same_maze`)."""
    tables = _tables.get(layout)
    if tables is None:
        tables = _tables.get(same_maze(layout)) or _build_tables(layout)
        _tables[layout] = tables
    return tables


_mazes: weakref.WeakValueDictionary[tuple[str, str], Layout] = weakref.WeakValueDictionary()


def same_maze(layout: Layout) -> Layout:
    """The first layout alive that differs from ``layout`` at most in
    Pacman's start (``--starts random``: ``with_pacman_start``'s copies);
    ``layout`` itself if none.  Such layouts have the same walls, cells,
    numbering, ghost starts, food and capsules, so the same kernel tables
    and the same chase values (:func:`pacsim.fast.memo.chase_memo`)."""
    key = (layout.name, layout.text.replace(PACMAN, EMPTY))
    return _mazes.setdefault(key, layout)


def _build_tables(layout: Layout) -> Tables:
    moves = np.zeros((layout.num_cells, 6, 11), np.int64)
    for cell in range(layout.num_cells):
        _fill(moves[cell, PACMAN_TABLE], layout.pacman_moves[cell])
        for direction in range(5):
            _fill(moves[cell, 1 + direction], layout.ghost_moves[cell][direction])
    distance = breadth_first_distances(moves)
    # int32: half the memory of the two cells-by-cells tables (and of the cache lines they use).
    nearest = np.argsort(distance, axis=1, kind="stable").astype(np.int32)
    distance = distance.astype(np.int32)
    return Tables(moves, distance, nearest, np.array(layout.ghost_starts, np.int64))


def _fill(row: np.ndarray, moves: tuple[tuple[str, int], ...]) -> None:
    row[0] = len(moves)
    for index, (action, target) in enumerate(moves):
        row[1 + 2 * index] = _ACTION_INDEX[action]
        row[2 + 2 * index] = target


def state_row(state: GameState) -> np.ndarray:
    """A GameState as the kernel's int64 row (built as a list, then one
    array: a search per move pays this, and element writes cost 4x more)."""
    words = words_for(state.layout)
    values = [state.pacman, state.turn, state.status, state.score, state.food.bit_count(),
              *state.ghosts, *state.directions, *state.scared]
    values += [(mask >> (word << WORD_BITS_SHIFT)) & 0xFFFFFFFF for mask in (state.food, state.capsules)
               for word in range(words)]
    return np.array(values, np.int64)


def row_state(row: np.ndarray, layout: Layout, num_ghosts: int) -> GameState:
    """The kernel's row back as a GameState of ``layout``."""
    values = [int(value) for value in row]
    words = words_for(layout)
    at = FIRST_GHOST
    ghosts = tuple(values[at:at + num_ghosts])
    directions = tuple(values[at + num_ghosts:at + 2 * num_ghosts + 1])
    scared = tuple(values[at + 2 * num_ghosts + 1:at + 3 * num_ghosts + 1])
    at += 3 * num_ghosts + 1
    food = sum(values[at + word] << (word << WORD_BITS_SHIFT) for word in range(words))
    capsules = sum(values[at + words + word] << (word << WORD_BITS_SHIFT) for word in range(words))
    return GameState(layout=layout, pacman=values[0], ghosts=ghosts, directions=directions, scared=scared,
                     food=food, capsules=capsules, score=values[3], turn=values[1], status=values[2])
