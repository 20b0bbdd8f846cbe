"""Drawing one game state onto a pygame Surface.

Nothing here opens a window or reads events: :func:`render` draws onto any
Surface, so tests and frame exports render offscreen.  The cell size follows
the surface size, which is what makes the window resizable.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pacsim.agents.api import DEFAULT_VALUES_TITLE
from pacsim.engine.layout import ACTIONS, EAST, NORTH, SOUTH, STOP, WEST, Layout
from pacsim.engine.state import GameState
from pacsim.viewer import style
from pacsim.viewer._pygame import pygame

_FACING_DEGREES = {EAST: 0.0, NORTH: 90.0, WEST: 180.0, SOUTH: 270.0, STOP: 0.0}
MIN_FONT = 8
"""Smallest font size in pixels; below it text is not worth drawing smaller."""
_LOOK = {NORTH: (0.0, -1.0), SOUTH: (0.0, 1.0), EAST: (1.0, 0.0), WEST: (-1.0, 0.0), STOP: (0.0, 0.0)}


@dataclass(frozen=True)
class Geometry:
    """Where the board, the score bar and the value panel go on a surface."""

    cell: float
    """Pixels per cell."""
    left: float
    top: float
    """Top-left corner of the board."""
    board_width: float
    board_height: float
    panel_left: float | None
    """Left edge of the value panel (None: no panel)."""
    width: float
    """Width of the board and the panel together (the score bar's width)."""

    @property
    def status_top(self) -> float:
        return self.top + self.board_height

    def center(self, row: int, column: int) -> tuple[float, float]:
        """Pixel centre of a (row, column) cell."""
        return self.left + (column + 0.5) * self.cell, self.top + (row + 0.5) * self.cell


def geometry(size: tuple[int, int], layout: Layout, panel: bool) -> Geometry:
    """Fit the board, the score bar and (if wanted) the panel into ``size``."""
    width, height = size
    columns = layout.width + (style.PANEL_CELLS if panel else 0.0)
    rows = layout.height + style.STATUS_CELLS
    cell = max(1.0, min(width / columns, height / rows))
    board_width, board_height = layout.width * cell, layout.height * cell
    # Centre horizontally; keep the board at the top so the bar sits under it.
    used_width = columns * cell
    left = (width - used_width) / 2
    panel_left = left + board_width if panel else None
    return Geometry(cell, left, 0.0, board_width, board_height, panel_left, used_width)


def window_size(layout: Layout, zoom: float = 1.0, panel: bool = False) -> tuple[int, int]:
    """The default window: ``CELL_PIXELS`` per cell, or more when a small maze
    would leave the window under MIN_WINDOW in both directions; times ``zoom``;
    shrunk to fit MAX_WINDOW."""
    columns = layout.width + (style.PANEL_CELLS if panel else 0.0)
    rows = layout.height + style.STATUS_CELLS
    min_width, min_height = style.MIN_WINDOW
    max_width, max_height = style.MAX_WINDOW
    readable = max(style.CELL_PIXELS, min(min_width / columns, min_height / rows))
    cell = min(readable * zoom, max_width / columns, max_height / rows)
    cell = max(style.MIN_CELL_PIXELS, int(cell))
    return math.ceil(columns * cell), math.ceil(rows * cell)


def outcome_banner(outcome: str | None) -> str | None:
    """The banner for an engine outcome ("win" -> "WIN"); None while playing."""
    return outcome.upper() if outcome else None


values_heading = style.values_heading


class Renderer:
    """Draws states; keeps the maze picture and fonts between frames, since
    redrawing every wall at 60 frames a second would waste the render loop."""

    def __init__(self) -> None:
        self.heading: tuple[str, ...] = (DEFAULT_VALUES_TITLE,)
        """The values panel's title and the lines under it (see :func:`values_heading`)."""
        self._walls_key: tuple[Layout, float] | None = None
        self._walls: pygame.Surface | None = None
        self._fonts: dict[int, pygame.font.Font] = {}

    def draw(
        self,
        surface: pygame.Surface,
        state: GameState,
        *,
        frame: int = 0,
        values: list[tuple[str, float]] | None = None,
        chosen: str | None = None,
        banner: str | None = None,
        moves: int | None = None,
        note: str | None = None,
        panel: bool | None = None,
    ) -> Geometry:
        """Draw ``state``; ``frame`` drives the animations (mouth, flashing).

        ``values`` are Pacman's root action values, ``chosen`` the action it
        played; the panel shows when ``panel`` is true (default: when values
        are given).  ``banner`` is WIN, LOSS, TIMEOUT or ERROR.
        """
        show_panel = values is not None if panel is None else panel
        place = geometry(surface.get_size(), state.layout, show_panel)
        surface.fill(style.BACKGROUND)
        surface.blit(self._wall_picture(state.layout, place.cell), (round(place.left), round(place.top)))
        self._draw_food(surface, state, place)
        caught = state.is_lose()
        if not caught:
            self._draw_pacman(surface, state, place, frame)
        self._draw_ghosts(surface, state, place, frame)
        if caught:  # over the ghost that caught it, ringed: otherwise the ghost hides it
            self._draw_pacman(surface, state, place, frame, scale=0.75)
            center = _rounded(place.center(*state.layout.cells[state.pacman]))
            pygame.draw.circle(surface, style.CAUGHT, center, round(place.cell * style.PACMAN_RADIUS * 0.85),
                               max(2, round(place.cell * 0.08)))
        self._draw_status(surface, state, place, moves, note)
        if place.panel_left is not None:
            self._draw_panel(surface, place, values, chosen)
        if banner:
            self._draw_banner(surface, place, banner, away_from=state.layout.cells[state.pacman][0])
        return place

    # -- the maze --------------------------------------------------------------
    def _wall_picture(self, layout: Layout, cell: float) -> pygame.Surface:
        key = (layout, cell)
        if self._walls_key != key or self._walls is None:
            self._walls = _draw_walls(layout, cell)
            self._walls_key = key
        return self._walls

    def _draw_food(self, surface: pygame.Surface, state: GameState, place: Geometry) -> None:
        cells = state.layout.cells
        food_radius = max(1, round(place.cell * style.FOOD_RADIUS))
        for cell in state.food_cells():
            pygame.draw.circle(surface, style.FOOD, _rounded(place.center(*cells[cell])), food_radius)
        capsule_radius = max(2, round(place.cell * style.CAPSULE_RADIUS))
        for cell in state.capsule_cells():
            pygame.draw.circle(surface, style.CAPSULE, _rounded(place.center(*cells[cell])), capsule_radius)

    # -- agents ----------------------------------------------------------------
    def _draw_pacman(self, surface: pygame.Surface, state: GameState, place: Geometry, frame: int,
                     scale: float = 1.0) -> None:
        center_x, center_y = place.center(*state.layout.cells[state.pacman])
        radius = place.cell * style.PACMAN_RADIUS * scale
        facing = math.radians(_FACING_DEGREES[ACTIONS[state.directions[0]]])
        mouth = math.radians(style.MOUTH_DEGREES[frame % len(style.MOUTH_DEGREES)])
        # A polygon fan from the centre along the arc outside the mouth.
        steps = 24
        sweep = 2 * math.pi - 2 * mouth
        points = [(center_x, center_y)]
        for step in range(steps + 1):
            angle = facing + mouth + sweep * step / steps
            # Screen y grows downwards, so North (90 degrees) needs -sin.
            points.append((center_x + radius * math.cos(angle), center_y - radius * math.sin(angle)))
        pygame.draw.polygon(surface, style.PACMAN, points)

    def _draw_ghosts(self, surface: pygame.Surface, state: GameState, place: Geometry, frame: int) -> None:
        for index, cell in enumerate(state.ghosts):
            timer = state.scared[index]
            direction = ACTIONS[state.directions[index + 1]]
            center = place.center(*state.layout.cells[cell])
            if timer:
                flashing = timer <= style.FLASH_TIMER and (frame // style.FLASH_FRAMES) % 2 == 1
                color = style.SCARED_FLASH if flashing else style.SCARED
            else:
                color = style.GHOSTS[index % len(style.GHOSTS)]
            _draw_ghost(surface, center, place.cell, color, direction, scared=bool(timer))

    # -- text ------------------------------------------------------------------
    def _font(self, size: int) -> pygame.font.Font:
        size = max(MIN_FONT, size)
        if size not in self._fonts:
            if not pygame.font.get_init():
                pygame.font.init()
            self._fonts[size] = pygame.font.Font(None, size)
        return self._fonts[size]

    def _draw_status(self, surface: pygame.Surface, state: GameState, place: Geometry,
                     moves: int | None, note: str | None) -> None:
        """The score bar: score and moves on the left, the note on the right,
        both made smaller when they would not fit side by side."""
        text = f"Score {state.score}"
        if moves is not None:
            text += f"    Moves {moves}"
        margin = place.cell * 0.3
        sizes = _fitting_sizes(self._font, [(text, place.cell * 0.9), (note or "", place.cell * 0.7)],
                               room=place.width - 2 * margin - (place.cell if note else 0.0))
        middle = round(place.status_top + place.cell * style.STATUS_CELLS / 2)
        label = self._font(sizes[0]).render(text, True, style.TEXT)
        surface.blit(label, label.get_rect(midleft=(round(place.left + margin), middle)))
        if note:
            hint = self._font(sizes[1]).render(note, True, style.DIM_TEXT)
            surface.blit(hint, hint.get_rect(midright=(round(place.left + place.width - margin), middle)))

    def _draw_panel(self, surface: pygame.Surface, place: Geometry,
                    values: list[tuple[str, float]] | None, chosen: str | None) -> None:
        """The search values beside the board, never taller than it: the
        lines get closer and the text smaller on a low board."""
        assert place.panel_left is not None
        width = place.cell * (style.PANEL_CELLS - 0.4)
        left = place.panel_left + place.cell * 0.2
        text_left = round(left + place.cell * 0.3)
        pygame.draw.rect(surface, style.PANEL, pygame.Rect(round(left), 0, round(width), round(place.board_height)))
        margin = place.cell * 0.4
        title, *about = self.heading
        # Spaced for every action, not for this position's legal ones: the
        # text keeps its size from frame to frame.
        rows = len(ACTIONS)
        # The title, the lines about the search, a fifth of a line's gap, the rows.
        line = min(place.cell * 1.1, (place.board_height - 2 * margin) / (rows + len(about) + 2.2))
        font = self._font(round(line * 0.85))
        surface.blit(font.render(title, True, style.TEXT), (text_left, round(margin)))
        small = self._font(round(line * 0.6))
        for index, text in enumerate(about, start=1):
            surface.blit(small.render(text, True, style.DIM_TEXT), (text_left, round(margin + line * index)))
        first_row = len(about) + 1.2
        if not values:
            waiting = font.render("thinking..." if values is None else "no values", True, style.DIM_TEXT)
            surface.blit(waiting, (text_left, round(margin + line * first_row)))
            return
        for row, (action, value) in enumerate(values):
            top = margin + line * (row + first_row)
            color = style.TEXT
            if action == chosen:
                pygame.draw.rect(surface, style.HIGHLIGHT,
                                 pygame.Rect(round(left + place.cell * 0.15), round(top - line * 0.1),
                                             round(width - place.cell * 0.3), round(line)))
                color = style.HIGHLIGHT_TEXT
            surface.blit(font.render(action, True, color), (text_left, round(top)))
            number = font.render(_format_value(value), True, color)
            surface.blit(number, number.get_rect(topright=(round(left + width - place.cell * 0.3), round(top))))

    def _draw_banner(self, surface: pygame.Surface, place: Geometry, banner: str, away_from: int) -> None:
        """The outcome word across the board, in the half without Pacman's
        row (``away_from``): how the game ended stays in sight under it.  Its
        band covers whole rows of cells from edge to edge of the board, so it
        reads as a band, not as part of the maze drawn darker."""
        rows = round(place.board_height / place.cell)
        band_rows = min(rows, 2)
        edge = 1 if rows >= band_rows + 2 else 0  # inside the outer walls where the board is tall enough
        upper = max(edge, rows // 4 - band_rows // 2)
        lower = min(rows - band_rows - edge, (3 * rows) // 4 - band_rows // 2)
        first = lower if abs(away_from - upper) < abs(away_from - lower) else upper
        top, strip_height = place.top + first * place.cell, band_rows * place.cell
        strip = pygame.Surface((max(1, round(place.board_width)), max(1, round(strip_height))), pygame.SRCALPHA)
        strip.fill((0, 0, 0, 200))  # darken the board behind the word, keep it visible
        surface.blit(strip, (round(place.left), round(top)))
        middle_y = top + strip_height / 2
        color = style.BANNERS.get(banner, style.TEXT)
        word = self._font(round(place.cell * 2)).render(banner, True, color)
        surface.blit(word, word.get_rect(center=(round(place.left + place.board_width / 2), round(middle_y))))


def draw_plan(surface: pygame.Surface, place: Geometry, line: Sequence[GameState]) -> None:
    """The best line of a search drawn on the board: Pacman's planned path
    in his colour, each ghost's replies in its own, dots where they stop."""
    if len(line) < 2:
        return
    thickness = max(2, round(place.cell * 0.12))
    walkers = [(0, style.PACMAN)] + [(1 + ghost, style.GHOSTS[ghost % len(style.GHOSTS)])
                                     for ghost in range(len(line[0].ghosts))]
    for agent, color in walkers:
        points = [_rounded(place.center(*state.position(state.agent_cell(agent)))) for state in line]
        if len(set(points)) > 1:
            pygame.draw.lines(surface, color, False, points, thickness)
        pygame.draw.circle(surface, color, points[-1], thickness * 2)


def _fitting_sizes(font: Callable[[int], pygame.font.Font], texts: list[tuple[str, float]], room: float) -> list[int]:
    """Font sizes for ``texts`` (each with its wanted size) set side by side
    in ``room`` pixels: the wanted sizes, scaled down together when needed."""
    scale = 1.0
    for _ in range(4):  # text width is nearly proportional to size: a few rounds settle it
        sizes = [max(MIN_FONT, round(size * scale)) for _, size in texts]
        needed = sum(font(size).size(text)[0] for (text, _), size in zip(texts, sizes) if text)
        if needed <= room or all(size == MIN_FONT for size in sizes):
            return sizes
        scale *= room / needed
    return sizes


def _draw_walls(layout: Layout, cell: float) -> pygame.Surface:
    """The maze as thick rounded blue strokes joining neighbouring walls;
    where four walls meet in a square the square is filled, so a thick wall
    is solid rather than a ring around a hole."""
    picture = pygame.Surface((max(1, math.ceil(layout.width * cell)), max(1, math.ceil(layout.height * cell))))
    picture.fill(style.BACKGROUND)
    half = max(1.0, cell * style.WALL_THICKNESS / 2)
    walls = layout.walls
    for row, column in walls:
        center_x, center_y = (column + 0.5) * cell, (row + 0.5) * cell
        pygame.draw.circle(picture, style.WALL, (round(center_x), round(center_y)), round(half))
        # Join to the right and lower neighbours; the others join to us.
        if (row, column + 1) in walls:
            pygame.draw.rect(picture, style.WALL, _span(center_x, center_y - half, cell, 2 * half))
        if (row + 1, column) in walls:
            pygame.draw.rect(picture, style.WALL, _span(center_x - half, center_y, 2 * half, cell))
        if {(row, column + 1), (row + 1, column), (row + 1, column + 1)} <= walls:
            pygame.draw.rect(picture, style.WALL, _span(center_x, center_y, cell, cell))
    return picture


def _span(left: float, top: float, width: float, height: float) -> pygame.Rect:
    return pygame.Rect(round(left), round(top), round(left + width) - round(left), round(top + height) - round(top))


def _draw_ghost(surface: pygame.Surface, center: tuple[float, float], cell: float,
                color: style.Color, direction: str, scared: bool) -> None:
    center_x, center_y = center
    radius = cell * style.GHOST_RADIUS
    head_y = center_y - cell * 0.12
    bottom = center_y + cell * 0.42
    pygame.draw.circle(surface, color, _rounded((center_x, head_y)), round(radius))
    # Body: a rectangle from the head's middle down to a zig-zag skirt.
    teeth = 6
    points = [(center_x - radius, head_y), (center_x - radius, bottom)]
    for tooth in range(1, teeth):
        x = center_x - radius + 2 * radius * tooth / teeth
        points.append((x, bottom - (cell * 0.12 if tooth % 2 else 0.0)))
    points += [(center_x + radius, bottom), (center_x + radius, head_y)]
    pygame.draw.polygon(surface, color, points)
    if scared:
        _draw_scared_face(surface, center_x, head_y, cell)
    else:
        _draw_eyes(surface, center_x, head_y, cell, direction)


def _draw_eyes(surface: pygame.Surface, center_x: float, eye_y: float, cell: float, direction: str) -> None:
    look_x, look_y = _LOOK[direction]
    for side in (-1, 1):
        eye_x = center_x + side * cell * 0.16
        pygame.draw.circle(surface, style.EYE_WHITE, _rounded((eye_x, eye_y)), max(1, round(cell * 0.11)))
        pupil = (eye_x + look_x * cell * 0.05, eye_y + look_y * cell * 0.05)
        pygame.draw.circle(surface, style.PUPIL, _rounded(pupil), max(1, round(cell * 0.05)))


def _draw_scared_face(surface: pygame.Surface, center_x: float, eye_y: float, cell: float) -> None:
    for side in (-1, 1):
        eye = (center_x + side * cell * 0.13, eye_y)
        pygame.draw.circle(surface, style.SCARED_FACE, _rounded(eye), max(1, round(cell * 0.05)))
    # A wavy mouth, kept above the body's centre so the body colour shows below.
    mouth_y = eye_y + cell * 0.14
    xs = [center_x - cell * 0.22 + cell * 0.088 * step for step in range(6)]
    points = [(x, mouth_y + (cell * 0.04 if step % 2 else -cell * 0.02)) for step, x in enumerate(xs)]
    pygame.draw.lines(surface, style.SCARED_FACE, False, points, max(1, round(cell * 0.04)))


def _rounded(point: tuple[float, float]) -> tuple[int, int]:
    return round(point[0]), round(point[1])


def _format_value(value: float) -> str:
    if isinstance(value, int):  # counts (MCTS visits) stay whole numbers
        return str(value)
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:.1f}"


_DEFAULT_RENDERER: Renderer | None = None


def render(
    surface: pygame.Surface,
    state: GameState,
    *,
    frame: int = 0,
    values: list[tuple[str, float]] | None = None,
    chosen: str | None = None,
    banner: str | None = None,
    moves: int | None = None,
    note: str | None = None,
    panel: bool | None = None,
) -> Geometry:
    """Draw one state onto ``surface`` (see :meth:`Renderer.draw`); returns
    where the board went, so callers can find a cell's pixels."""
    global _DEFAULT_RENDERER
    if _DEFAULT_RENDERER is None:
        _DEFAULT_RENDERER = Renderer()
    return _DEFAULT_RENDERER.draw(surface, state, frame=frame, values=values, chosen=chosen,
                                  banner=banner, moves=moves, note=note, panel=panel)
