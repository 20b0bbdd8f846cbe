"""The pygame viewer: watch games live, replay recorded ones, save frames.

Importing this package does not import pygame: the names below load their
modules on first use, so the command line and the engine stay pygame-free
until a window is actually wanted.

* :func:`play_in_window` plays a game (same rules and seeding as
  :func:`pacsim.engine.play_game`) in a window and returns its record.
* :func:`replay_in_window` shows a list of recorded states.
* :func:`play_to_files` / :func:`replay_to_files` write a game's PNG frames
  or GIF without a window, at full speed.
* :class:`WindowSettings` holds the viewing options.
* :func:`state_image` / :class:`StateWindow` draw single states for the
  environments of :mod:`pacsim.env`.
* :func:`render` / :class:`Renderer` draw one state onto any pygame Surface.
* :func:`handle_event` / :class:`Controls` are the keyboard controller.
"""

from __future__ import annotations

import importlib
from typing import Any

from pacsim.errors import PacsimError


class ViewerError(PacsimError):
    """The window cannot be used (no display, a bad frame directory, no pillow)."""


class ViewerClosed(PacsimError):
    """The window was closed before the game it was playing had ended."""


_LAZY = {
    "play_in_window": "pacsim.viewer.window",
    "replay_in_window": "pacsim.viewer.window",
    "ViewerLoop": "pacsim.viewer.window",
    "play_to_files": "pacsim.viewer.export",
    "replay_to_files": "pacsim.viewer.export",
    "WindowSettings": "pacsim.viewer.settings",
    "render": "pacsim.viewer.render",
    "Renderer": "pacsim.viewer.render",
    "window_size": "pacsim.viewer.render",
    "handle_event": "pacsim.viewer.controls",
    "Controls": "pacsim.viewer.controls",
    "Frame": "pacsim.viewer.sources",
    "LiveGame": "pacsim.viewer.sources",
    "RecordedGame": "pacsim.viewer.sources",
    "state_image": "pacsim.viewer.env_view",
    "StateWindow": "pacsim.viewer.env_view",
}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'pacsim.viewer' has no attribute {name!r}")
    return getattr(importlib.import_module(_LAZY[name]), name)


__all__ = ["ViewerError", "ViewerClosed", *_LAZY]
