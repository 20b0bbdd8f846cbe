"""A recorded game turned into the frames the HTML player draws.

The browser never applies a rule: every frame is computed here from the
recorded actions through pacsim's own rules (:meth:`SavedGame.states`), so
the page shows exactly the game the terminal replays.  A frame is the
position after each Pacman move and the ghosts' answers (the start first,
the final position last), which is what "move N" means in ``#move=N``.

Frames are flat integer arrays, small enough for a 1,000-move game to fit in
a few tens of kilobytes::

    [pacman cell, pacman direction, ghost cells..., ghost directions...,
     scared timers..., score, cells eaten on this move...]

Directions index :data:`~pacsim.engine.layout.ACTIONS`; cells are the
layout's cell numbers; "cells eaten" are the food and capsules gone since
the previous frame (the page keeps the rest).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pacsim.engine.layout import ACTIONS, Layout
from pacsim.engine.state import GameState
from pacsim.viewer import style

ActionValues = list[tuple[str, float]]
"""A Pacman position's searched value (or MCTS visits) of each action."""


@dataclass(frozen=True)
class SearchValues:
    """Pacman's action values at every shown position, and what they are."""

    heading: tuple[str, ...]
    """The panel's title and the lines under it, as the viewer's panel shows
    them (e.g. ``("Visits", "MCTS, 200 iterations", "ghosts: min")``)."""
    rows: list[ActionValues | None]
    """One per position :func:`move_positions` gives; None where Pacman does not move."""


@dataclass(frozen=True)
class MoveTrees:
    """Pacman's search tree at every shown position, for the player's tree view."""

    packed: list[str | None]
    """One per position :func:`move_positions` gives (see :func:`pacsim.web.tree.packed`); None where Pacman does not move."""
    page: str
    """The tree page, with ``placeholder`` where a move's packed tree goes."""
    placeholder: str


def move_positions(states: Sequence[GameState]) -> list[GameState]:
    """The positions the player shows: the start, each position where Pacman
    is to move, and the end."""
    return [state for state in states[:-1] if state.turn == 0] + [states[-1]]


def frame(state: GameState, previous: GameState | None) -> list[int]:
    """One position as a flat integer array (see the module docstring)."""
    eaten = 0 if previous is None else (previous.food | previous.capsules) & ~(state.food | state.capsules)
    return [state.pacman, state.directions[0], *state.ghosts, *state.directions[1:], *state.scared,
            state.score, *_cells(eaten)]


def _cells(mask: int) -> list[int]:
    return [cell for cell in range(mask.bit_length()) if (mask >> cell) & 1]


def layout_data(layout: Layout) -> dict[str, Any]:
    """The maze as the page needs it: its size, walls and cell positions
    (the food is the first position's, see :func:`game_data`)."""
    rows = [["%" if (row, column) in layout.walls else " " for column in range(layout.width)] for row in range(layout.height)]
    return {
        "name": layout.name,
        "width": layout.width,
        "height": layout.height,
        "walls": ["".join(row) for row in rows],
        "cells": [coordinate for cell in layout.cells for coordinate in cell],
    }


def style_data() -> dict[str, Any]:
    """The pygame viewer's colours and proportions, so both draw the same board."""
    names = ("BACKGROUND", "WALL", "FOOD", "CAPSULE", "PACMAN", "GHOSTS", "SCARED", "SCARED_FLASH", "SCARED_FACE",
             "EYE_WHITE", "PUPIL", "TEXT", "DIM_TEXT", "PANEL", "HIGHLIGHT", "HIGHLIGHT_TEXT", "BANNERS",
             "CELL_PIXELS", "MIN_CELL_PIXELS", "WALL_THICKNESS", "FOOD_RADIUS", "CAPSULE_RADIUS", "PACMAN_RADIUS", "GHOST_RADIUS",
             "MOUTH_DEGREES", "FLASH_TIMER")
    return {name: getattr(style, name) for name in names}


def game_data(states: Sequence[GameState], *, title: str, outcome: str | None, recorded_score: int | None,
              values: SearchValues | None = None) -> dict[str, Any]:
    """Everything the player needs, ready for JSON: the maze, the frames,
    how the game ended and (optionally) Pacman's action values per move."""
    shown = move_positions(states)
    frames = [frame(state, previous) for previous, state in zip([None, *shown[:-1]], shown)]
    data: dict[str, Any] = {
        "title": title,
        "layout": layout_data(states[0].layout),
        "food": _cells(states[0].food),
        "capsules": _cells(states[0].capsules),
        "ghosts": len(states[0].ghosts),
        "actions": list(ACTIONS),
        "frames": frames,
        "outcome": outcome,
        "score": shown[-1].score,
        "recordedScore": recorded_score,
        "style": style_data(),
    }
    if values is not None:
        data["valuesHeading"] = list(values.heading)
        data["values"] = [values_row(row) for row in values.rows]
    return data


def values_row(row: ActionValues | None) -> list[list[Any]] | None:
    """One position's action values for JSON (None where Pacman does not move)."""
    return None if row is None else [[action, _number(value)] for action, value in row]


def _number(value: float) -> float | str:
    """A value for JSON, which has no infinity (a won or lost position's value) nor NaN."""
    if math.isfinite(value):
        return round(value, 3)
    return "nan" if math.isnan(value) else "+inf" if value > 0 else "-inf"
