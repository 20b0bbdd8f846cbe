"""Saving what the window shows: PNG frames into a directory, or an animated GIF."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from pacsim.engine.state import GameState
from pacsim.errors import install_hint
from pacsim.viewer import ViewerError
from pacsim.viewer._pygame import pygame

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
        self.directory = Path(directory)
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise ViewerError(f"--save-frames {directory}: cannot create the directory: {error.strerror or error}") from None
        self.count = 0

    def capture(self, surface: pygame.Surface) -> None:
        path = self.directory / f"frame-{self.count:05d}.png"
        try:
            pygame.image.save(surface, str(path))
        except (pygame.error, OSError) as error:
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
        self.path = Path(path)
        self.frame_time = frame_time
        self.images: list = []
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
            first.save(self.path, save_all=True, append_images=rest, duration=self.durations, loop=0)
        except (OSError, ValueError) as error:
            raise ViewerError(f"--gif {self.path}: cannot write the GIF: {error}") from None
        self.reset()


class Capture:
    """Both exports behind one interface; does nothing when neither is wanted."""

    def __init__(self, frames_directory: str | None, gif_path: str | None, frame_time: float) -> None:
        self.saver = FrameSaver(frames_directory) if frames_directory else None
        self.gif = GifWriter(gif_path, frame_time) if gif_path else None

    @property
    def active(self) -> bool:
        return self.saver is not None or self.gif is not None

    def frame(self, surface: pygame.Surface, state: GameState) -> None:
        if self.saver:
            self.saver.capture(surface)
        if self.gif:
            self.gif.capture(surface, state)

    def final(self, surface: pygame.Surface, state: GameState) -> None:
        """The last picture, with the outcome banner."""
        if self.saver:
            self.saver.capture(surface)
        if self.gif:
            self.gif.capture(surface, state, hold=FINAL_HOLD_SECONDS)

    def reset(self) -> None:
        for target in (self.saver, self.gif):
            if target:
                target.reset()

    def close(self) -> None:
        for target in (self.saver, self.gif):
            if target:
                target.close()
