"""``pacsim capture --window``: a capture game watched (and played, with a keyboard team) in the pygame window.

It draws the frames of :mod:`pacsim.engine.capture.frames`, as the browser's
page does: red's half and blue's tinted, food in the colour of the half it
lies on, capsules, ghosts in their team's colour (white while scared),
Pacmen with their mouths, a yellow badge with the food an agent carries,
the mover framed; the cells the mover marked with ``debugDraw``; and, for
each opponent the mover did not see, the diamond of cells at the noisy
distance it heard.  The panel on the right says the score, each agent's
role, carried and returned food, and the distances heard.

:class:`CaptureWindow` draws onto any surface and takes its events as
arguments, so a test drives it on SDL's dummy driver.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from pacsim.engine.capture.frames import FrameFeed
from pacsim.viewer import ViewerClosed, ViewerError
from pacsim.viewer._pygame import pygame

Color = tuple[int, int, int]
TEAM: tuple[Color, Color] = ((230, 50, 50), (60, 120, 255))
FOOD: tuple[Color, Color] = ((255, 154, 154), (168, 196, 255))
HALF: tuple[Color, Color] = ((28, 7, 7), (7, 7, 28))
WALL: Color = (43, 43, 214)
SCARED: Color = (240, 240, 255)
MOVER: Color = (255, 230, 0)
TEXT: Color = (235, 235, 235)
DIM: Color = (150, 150, 150)
PANEL_PIXELS = 300
MAX_BOARD_PIXELS = 1000
TICKS_PER_SECOND = 30
END_HOLD_SECONDS = 2.0
STEER = {pygame.K_UP: (0, "North"), pygame.K_DOWN: (0, "South"), pygame.K_RIGHT: (0, "East"), pygame.K_LEFT: (0, "West"),
         pygame.K_w: (1, "North"), pygame.K_s: (1, "South"), pygame.K_d: (1, "East"), pygame.K_a: (1, "West")}
"""A keyboard team's keys: arrows steer its first agent (slot 0), W/A/S/D its second."""
QUIT_KEYS = (pygame.K_ESCAPE, pygame.K_q)


def cell_pixels(board: dict[str, Any]) -> int:
    return max(8, min(28, MAX_BOARD_PIXELS // board["width"]))


def window_size(board: dict[str, Any]) -> tuple[int, int]:
    cell = cell_pixels(board)
    return board["width"] * cell + PANEL_PIXELS, max(board["height"] * cell, 320)


class CaptureWindow:
    """Draws one frame at a time onto ``surface`` (the board, then the panel)."""

    def __init__(self, surface: pygame.Surface, board: dict[str, Any]) -> None:
        self.surface, self.board = surface, board
        self.cell = cell_pixels(board)
        self.middle = board["width"] // 2
        if not pygame.font.get_init():
            pygame.font.init()
        self.font = pygame.font.Font(None, 22)
        self.small = pygame.font.Font(None, max(12, round(self.cell * 0.6)))

    def centre(self, x: int, y: int) -> tuple[int, int]:
        cell = self.cell
        return x * cell + cell // 2, (self.board["height"] - 1 - y) * cell + cell // 2

    def draw(self, frame: dict[str, Any], outcome: str | None = None) -> None:
        self.surface.fill((0, 0, 0))
        self.surface.set_clip(pygame.Rect(0, 0, self.board["width"] * self.cell, self.board["height"] * self.cell))
        self._maze()
        self._marks(frame["marks"])
        self._items(frame)
        self._heard(frame)
        for index, agent in enumerate(frame["agents"]):
            self._agent(index, agent, frame["mover"])
        self.surface.set_clip(None)
        self._panel(frame, outcome)

    def _maze(self) -> None:
        cell, width, height = self.cell, self.board["width"], self.board["height"]
        self.surface.fill(HALF[0], pygame.Rect(0, 0, self.middle * cell, height * cell))
        self.surface.fill(HALF[1], pygame.Rect(self.middle * cell, 0, (width - self.middle) * cell, height * cell))
        for x, y in self.board["walls"]:
            cx, cy = self.centre(x, y)
            side = round(cell * 0.84)
            self.surface.fill(WALL, pygame.Rect(cx - side // 2, cy - side // 2, side, side))

    def _marks(self, marks: list[list[Any]]) -> None:
        cell = self.cell
        for cells, color in marks:
            tint = pygame.Surface((cell, cell), pygame.SRCALPHA)
            tint.fill((*color, 115))
            for x, y in cells:
                cx, cy = self.centre(x, y)
                self.surface.blit(tint, (cx - cell // 2, cy - cell // 2))

    def _items(self, frame: dict[str, Any]) -> None:
        food, capsules = int(frame["food"], 16), int(frame["capsules"], 16)
        for number, (x, y) in enumerate(self.board["cells"]):
            if (food >> number) & 1:
                pygame.draw.circle(self.surface, FOOD[x >= self.middle], self.centre(x, y), max(2, round(self.cell * 0.12)))
            if (capsules >> number) & 1:
                pygame.draw.circle(self.surface, SCARED, self.centre(x, y), max(3, round(self.cell * 0.28)))

    def _heard(self, frame: dict[str, Any]) -> None:
        """The noisy distance to each opponent the mover did not see: the diamond of cells that far from it."""
        mover, heard, seen = frame["mover"], frame["heard"], frame["seen"]
        if mover is None or heard is None:
            return
        mx, my = frame["agents"][mover][:2]
        for other in range(len(heard)):
            if other % 2 == mover % 2 or seen[other] or heard[other] < 0:
                continue
            reach = heard[other]
            corners = [self.centre(mx, my + reach), self.centre(mx + reach, my), self.centre(mx, my - reach), self.centre(mx - reach, my)]
            pygame.draw.polygon(self.surface, TEAM[other % 2], corners, 1)

    def _agent(self, index: int, agent: list[int], mover: int | None) -> None:
        x, y, direction, pacman, scared, carrying = agent[:6]
        cx, cy = self.centre(x, y)
        cell, color = self.cell, TEAM[index % 2]
        if pacman:
            pygame.draw.circle(self.surface, color, (cx, cy), round(cell * 0.45))
            dx, dy = {0: (0, -1), 1: (0, 1), 2: (1, 0), 3: (-1, 0)}.get(direction, (1, 0))
            mouth = [(cx, cy), (cx + dx * cell // 2 - dy * cell // 4, cy + dy * cell // 2 - dx * cell // 4),
                     (cx + dx * cell // 2 + dy * cell // 4, cy + dy * cell // 2 + dx * cell // 4)]
            pygame.draw.polygon(self.surface, HALF[x >= self.middle], mouth)
        else:
            radius = round(cell * 0.42)
            body = pygame.Rect(cx - radius, cy - radius, 2 * radius, 2 * radius)
            pygame.draw.rect(self.surface, SCARED if scared else color, body, border_top_left_radius=radius, border_top_right_radius=radius)
            if scared:
                pygame.draw.rect(self.surface, color, body, 2, border_top_left_radius=radius, border_top_right_radius=radius)
        label = self.small.render(str(index), True, color if scared and not pacman else (0, 0, 0))
        self.surface.blit(label, label.get_rect(center=(cx, cy)))
        if index == mover:
            pygame.draw.rect(self.surface, MOVER, pygame.Rect(cx - cell // 2, cy - cell // 2, cell, cell), 2)
        if carrying:
            badge = (cx + round(cell * 0.42), cy - round(cell * 0.42))
            pygame.draw.circle(self.surface, MOVER, badge, max(5, round(cell * 0.3)))
            number = self.small.render(str(carrying), True, (0, 0, 0))
            self.surface.blit(number, number.get_rect(center=badge))

    def _panel(self, frame: dict[str, Any], outcome: str | None) -> None:
        left, top = self.board["width"] * self.cell + 12, 10
        lines: list[tuple[str, Color]] = [
            (f"{self.board['red']} (red)", TEAM[0]), (f"{self.board['blue']} (blue)", TEAM[1]),
            (f"score {frame['score']}   move {frame['move']}, {frame['left']} left", TEXT)]
        if frame["mover"] is not None:
            lines.append((f"agent {frame['mover']}: {frame['action']}", TEXT))
        for index, agent in enumerate(frame["agents"]):
            role = "Pacman" if agent[3] else f"scared ghost ({agent[4]})" if agent[4] else "ghost"
            lines.append((f"{index} {role}: carries {agent[5]}, returned {agent[6]}", TEAM[index % 2]))
        if frame["heard"] is not None:
            heard = ", ".join(f"{other}: {distance}{' (seen)' if frame['seen'][other] else ''}"
                              for other, distance in enumerate(frame["heard"]) if other != frame["mover"])
            lines += [(f"agent {frame['mover']} heard:", DIM), (heard, DIM)]
        if outcome:
            lines.append((outcome.upper(), MOVER))
        for text, color in lines:
            self.surface.blit(self.font.render(text, True, color), (left, top))
            top += 24


def open_window(board: dict[str, Any], title: str) -> pygame.Surface:
    from pacsim.viewer.settings import display_available, hidden_window_allowed

    if not (display_available() or hidden_window_allowed()):
        raise ViewerError("--window: no display to show a window on; use --browser, or --html OUT.html to watch the game later")
    try:
        pygame.display.init()
        pygame.display.set_caption(title)
        return pygame.display.set_mode(window_size(board))
    except pygame.error as error:
        raise ViewerError(f"cannot open a window ({error}); use -q or --browser") from None


def watch_in_window(feed: FrameFeed, board: dict[str, Any], title: str, *, keyboard: Any = None,
                    surface: pygame.Surface | None = None, events: Callable[[], Iterable[Any]] | None = None,
                    present: Callable[[], Any] | None = None, hold_seconds: float = END_HOLD_SECONDS) -> None:
    """Show ``feed``'s game until its end has been on screen ``hold_seconds``; a keyboard team takes the window's
    keys.  Raises :class:`ViewerClosed` when the window is closed first (the game is stopped then)."""
    window = CaptureWindow(surface or open_window(board, title), board)
    events = events or pygame.event.get
    present = present or pygame.display.flip
    if keyboard is not None:
        keyboard.gone = feed.stopped.is_set
    last, shown, ended_at = None, 0, None
    feed.start()
    try:
        while ended_at is None or time.monotonic() - ended_at < hold_seconds:
            if not _handle(events(), keyboard):
                if ended_at is not None:
                    return
                raise ViewerClosed("the window was closed before the game ended")
            frames, done = feed.since(shown)
            shown += len(frames)
            last = frames[-1] if frames else last
            if last is not None and (frames or (done and ended_at is None)):
                window.draw(last, feed.outcome() if done else None)
                present()
            if done and ended_at is None:
                ended_at = time.monotonic()
            time.sleep(1 / TICKS_PER_SECOND)
    finally:
        feed.stop()


def _handle(events: Iterable[Any], keyboard: Any) -> bool:
    """Pass steering keys to the keyboard team; False when the person closed the window or pressed Esc/Q."""
    for event in events:
        if event.type == pygame.QUIT or (event.type == pygame.KEYDOWN and event.key in QUIT_KEYS):
            return False
        if event.type == pygame.KEYDOWN and keyboard is not None and event.key in STEER:
            keyboard.press(*STEER[event.key])
    return True
