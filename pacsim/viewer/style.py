"""Colours and proportions of the board.  Sizes are fractions of a cell, so
the picture scales with the window."""

from __future__ import annotations

from typing import Any

from pacsim.agents.api import DEFAULT_VALUES_TITLE, ValuingAgent

Color = tuple[int, int, int]

BACKGROUND: Color = (0, 0, 0)
WALL: Color = (33, 33, 222)
FOOD: Color = (255, 224, 200)
CAPSULE: Color = (255, 224, 200)
PACMAN: Color = (255, 230, 0)
CAUGHT: Color = (255, 60, 60)
"""The ring round a caught Pacman, drawn over the ghost that caught it (the text board's X)."""
GHOSTS: tuple[Color, ...] = (
    (230, 30, 30),  # red
    (255, 150, 205),  # pink
    (60, 220, 235),  # cyan
    (255, 165, 60),  # orange
)
SCARED: Color = (40, 90, 255)
SCARED_FLASH: Color = (245, 245, 255)
SCARED_FACE: Color = (255, 200, 170)
EYE_WHITE: Color = (255, 255, 255)
PUPIL: Color = (20, 40, 160)
TEXT: Color = (235, 235, 235)
DIM_TEXT: Color = (150, 150, 150)
PANEL: Color = (22, 22, 40)
HIGHLIGHT: Color = (255, 230, 0)
HIGHLIGHT_TEXT: Color = (0, 0, 0)
BANNERS: dict[str, Color] = {
    "WIN": (80, 230, 80),
    "LOSS": (240, 60, 60),
    "TIMEOUT": (255, 170, 40),
    "ERROR": (230, 80, 230),
}

CELL_PIXELS = 28
"""Cell size at zoom 1."""
MIN_CELL_PIXELS = 6
MIN_WINDOW = (720, 480)
"""The default window grows its cells until it is at least this wide or this
tall, so a small maze is not a thumbnail (tinyGhostMaze was 252x236)."""
MAX_WINDOW = (1280, 800)
"""The default window is capped to fit this."""
STATUS_CELLS = 1.4
"""Height of the score bar below the board, in cells."""
PANEL_CELLS = 7.0
"""Width of the search-value panel, in cells."""

WALL_THICKNESS = 0.5
FOOD_RADIUS = 0.1
CAPSULE_RADIUS = 0.26
PACMAN_RADIUS = 0.45
GHOST_RADIUS = 0.42
MOUTH_DEGREES = (40, 28, 14, 28)
"""Half-angle of Pacman's mouth, cycled by frame number; never shut, so every
still frame (the first, a saved PNG) shows a Pacman facing somewhere, as the
browser's player does."""
FLASH_TIMER = 6
"""Scared ghosts flash white when this many scared moves or fewer are left."""
FLASH_FRAMES = 8
"""Frames per half-period of the flashing."""


def values_heading(agent: Any) -> tuple[str, ...]:
    """The values panel's title and what the values come from, for an agent
    that shows values (a :class:`~pacsim.agents.api.ValuingAgent`: e.g.
    ``("Visits", "MCTS, 200 iterations", "ghosts: chance, uniform")``); the
    plain title otherwise.  Here, free of pygame, so the HTML player's panel
    says the same as the window's."""
    return tuple(agent.values_heading()) if isinstance(agent, ValuingAgent) else (DEFAULT_VALUES_TITLE,)
