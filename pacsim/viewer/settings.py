"""What the viewer was asked for, and whether a window can be seen.  No pygame
here: the command line reads these before deciding to import it.

The display rule: a window is seen when the platform has a desktop (macOS,
Windows) or, elsewhere, when ``DISPLAY`` or ``WAYLAND_DISPLAY`` is set; never
when ``SDL_VIDEODRIVER`` is ``dummy`` or ``offscreen``, SDL's invisible
drivers.  ``--window`` without a display is a user's mistake (one line, exit
status 2), not a game played unseen.  Tests and scripts that mean to run the
window code invisibly set ``PACSIM_HIDDEN_WINDOW=1``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pacsim.viewer import ViewerError

HIDDEN_WINDOW_VARIABLE = "PACSIM_HIDDEN_WINDOW"
"""Set to 1 to allow a window nobody can see (tests drive the window code
with SDL's dummy driver this way)."""
INVISIBLE_DRIVERS = ("dummy", "offscreen")
MAX_FRAME_TIME = 60.0
MAX_ZOOM = 10.0
"""Beyond this a cell would be larger than any screen (the window is capped anyway)."""


def display_available(environ: Mapping[str, str] = os.environ, platform: str = sys.platform) -> bool:
    """Whether a window would be seen by someone (see the module docstring)."""
    if environ.get("SDL_VIDEODRIVER", "").lower() in INVISIBLE_DRIVERS:
        return False
    if platform in ("darwin", "win32"):
        return True
    return bool(environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"))


def hidden_window_allowed(environ: Mapping[str, str] = os.environ) -> bool:
    return environ.get(HIDDEN_WINDOW_VARIABLE, "") == "1"


def require_display(environ: Mapping[str, str] = os.environ, platform: str = sys.platform) -> None:
    """Raise :class:`ViewerError` when a window would not be seen."""
    if display_available(environ, platform) or hidden_window_allowed(environ):
        return
    driver = environ.get("SDL_VIDEODRIVER", "")
    if driver.lower() in INVISIBLE_DRIVERS:
        reason = f"SDL_VIDEODRIVER={driver} shows no window"
    else:
        reason = "no display (DISPLAY and WAYLAND_DISPLAY are unset)"
    raise ViewerError(f"--window: {reason}; use --text or --quiet, and --save-frames DIR or --gif FILE "
                      "to watch the game later")


@dataclass(frozen=True)
class WindowSettings:
    """The viewing options of ``pacsim play`` and ``pacsim replay``."""

    frame_time: float = 0.1
    """Seconds between frames in the window (exports ignore it and run at full speed)."""
    zoom: float = 1.0
    """Scale of the window and of exported frames."""
    show_values: bool = False
    """Show Pacman's searched action values beside the board."""
    save_frames: str | None = None
    """Directory for one PNG per frame."""
    gif: str | None = None
    """Path of an animated GIF of the game."""

    def __post_init__(self) -> None:
        if not 0 <= self.frame_time <= MAX_FRAME_TIME:  # also refuses NaN
            raise ViewerError(f"--frame-time {self.frame_time}: must be from 0 to {MAX_FRAME_TIME:g} seconds")
        if not 0 < self.zoom <= MAX_ZOOM:
            raise ViewerError(f"--zoom {self.zoom}: must be more than 0 and at most {MAX_ZOOM:g}")

    @classmethod
    def from_options(cls, options: Any) -> WindowSettings:
        """Read an argparse namespace (missing attributes keep their defaults);
        settings pass through unchanged."""
        if isinstance(options, WindowSettings):
            return options
        defaults = cls()
        given = {name: getattr(options, name, None) for name in ("frame_time", "zoom", "show_values", "save_frames", "gif")}
        return cls(**{name: getattr(defaults, name) if value is None else value for name, value in given.items()})

    @property
    def exporting(self) -> bool:
        """Whether frames are to be written (PNG files or a GIF)."""
        return bool(self.save_frames or self.gif)

    def for_game(self, game: int, games: int) -> WindowSettings:
        """The export paths of game ``game`` (from 0) of ``games``: with several
        games, frames go to ``DIR/game-N`` and the GIF to ``FILE-N.gif`` so
        no game overwrites another."""
        if games == 1:
            return self
        number = game + 1
        frames = str(Path(self.save_frames) / f"game-{number}") if self.save_frames else None
        gif = None
        if self.gif:
            path = Path(self.gif)
            gif = str(path.with_name(f"{path.stem}-{number}{path.suffix or '.gif'}"))
        return replace(self, save_frames=frames, gif=gif)

    def describe_exports(self) -> str:
        """Where the frames went, for the command's output ('' when none)."""
        places = []
        if self.save_frames:
            places.append(f"frames in {self.save_frames}")
        if self.gif:
            places.append(f"GIF {self.gif}")
        return ", ".join(places)
