"""Options shared by several commands."""

from __future__ import annotations

import os


def display_available() -> bool:
    """Whether a window can open (X11 or Wayland display, not SDL's dummy driver)."""
    if os.environ.get("SDL_VIDEODRIVER") in ("dummy", "offscreen"):
        return False
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
