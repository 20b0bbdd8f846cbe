"""Saving a game's frames: PNG files into a directory, or an animated GIF."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from pacsim.engine.layout import Layout
from pacsim.engine.state import GameState
from pacsim.errors import install_hint
from pacsim.files import atomic_file, check_output
from pacsim.viewer import ViewerError
from pacsim.viewer._pygame import pygame
from pacsim.viewer.render import Renderer, outcome_banner, window_size
from pacsim.viewer.settings import WindowSettings
from pacsim.viewer.sources import Frame

GIF_COLORS = 64
"""Palette size per GIF frame: the board has few colours, and a small
palette keeps a long game's frames affordable in memory."""
FINAL_HOLD_SECONDS = 2.0
"""How long the GIF lingers on the final frame with its banner."""


def require_pillow() -> None:
    """Fail early, before a game is played, when GIFs cannot be written."""
    if importlib.util.find_spec("PIL") is None:
        raise ViewerError(f"--gif needs pillow, which is not installed; {install_hint('gif')}")


class FrameSaver:
    """Writes every shown frame as ``frame-00000.png`` ... into a directory."""

    def __init__(self, directory: str | Path) -> None:
        self.directory = check_output(directory, "--save-frames", folder=True)
        self.count = 0

    def capture(self, surface: pygame.Surface) -> None:
        path = self.directory / f"frame-{self.count:05d}.png"
        try:
            with atomic_file(path, "the frame") as file:
                pygame.image.save(surface, file, path.name)  # the name says PNG
        except pygame.error as error:
            raise ViewerError(f"{path}: cannot write the frame: {error}") from None
        self.count += 1

    def reset(self) -> None:
        """A restarted game writes its frames from number 0 again."""
        self.count = 0

    def close(self) -> None:
        pass


class GifWriter:
    """Collects frames and writes them as one animated GIF when closed.

    Only one frame per round (Pacman to move) is kept: a long game shown move
    by move would hold thousands of frames in memory.  Each lasts as long as
    the round took in the window."""

    def __init__(self, path: str | Path, frame_time: float) -> None:
        require_pillow()
        self.path = check_output(path, "--gif")
        self.frame_time = frame_time
        self.images: list[Any] = []  # PIL images; PIL is optional, so not named here
        self.durations: list[int] = []

    def capture(self, surface: pygame.Surface, state: GameState, hold: float | None = None) -> None:
        if hold is None and state.turn != 0 and not state.is_terminal:
            return
        from PIL import Image

        picture = Image.frombytes("RGB", surface.get_size(), pygame.image.tobytes(surface, "RGB"))
        self.images.append(picture.quantize(colors=GIF_COLORS))
        seconds = hold if hold is not None else self.frame_time * state.num_agents
        self.durations.append(max(20, round(seconds * 1000)))  # viewers ignore shorter delays

    def reset(self) -> None:
        self.images.clear()
        self.durations.clear()

    def close(self) -> None:
        if not self.images:
            return
        first, *rest = self.images
        try:
            with atomic_file(self.path, "the GIF") as file:
                first.save(file, format="GIF", save_all=True, append_images=rest, duration=self.durations, loop=0)
        except ValueError as error:
            raise ViewerError(f"--gif {self.path}: cannot write the GIF: {error}") from None
        self.reset()


class Capture:
    """Draws frames for export on its own off-screen surface and hands them to
    the PNG saver and the GIF writer.

    The window and headless exports both feed it :class:`Frame` objects, so
    their files are the same: drawn at the size of the default window, with no
    speed note, each frame written once the next one arrives (by then the
    action Pacman chose in it is known and highlighted in the panel)."""

    def __init__(self, settings: WindowSettings, layout: Layout, panel: bool = False) -> None:
        self.saver = FrameSaver(settings.save_frames) if settings.save_frames else None
        self.gif = GifWriter(settings.gif, settings.frame_time) if settings.gif else None
        self.surface = pygame.Surface(window_size(layout, settings.zoom, panel))
        self.panel = panel
        self.renderer = Renderer()
        self.pending: Frame | None = None
        self.note: str | None = None
        """The footer's note on every frame: a keyboard game's keys (the window's speed note is left out)."""

    def frame(self, frame: Frame) -> None:
        """Take the next frame; the one before it is written now."""
        if self.pending is not None:
            self._write(self.pending)
        self.pending = frame

    def finish(self, outcome: str | None) -> None:
        """The game ended: write the last frame, then it again with the outcome banner."""
        last, self.pending = self.pending, None
        if last is None:
            return
        self._write(last)
        self._write(last, banner=outcome_banner(outcome), hold=FINAL_HOLD_SECONDS)

    def reset(self) -> None:
        """A restarted game writes its frames from the start again."""
        self.pending = None
        for target in (self.saver, self.gif):
            if target:
                target.reset()

    def close(self) -> None:
        """Write what is still pending (a game quit before its end) and the GIF."""
        last, self.pending = self.pending, None
        if last is not None:
            self._write(last)
        for target in (self.saver, self.gif):
            if target:
                target.close()

    def _write(self, frame: Frame, banner: str | None = None, hold: float | None = None) -> None:
        values = [] if frame.values_error else frame.values  # [] reads "no values"
        self.renderer.draw(self.surface, frame.state, frame=frame.index, values=values, chosen=frame.chosen,
                           moves=frame.moves, panel=self.panel, banner=banner, note=self.note)
        if self.saver:
            self.saver.capture(self.surface)
        if self.gif:
            self.gif.capture(self.surface, frame.state, hold=hold)
