"""Options shared by several commands."""

from __future__ import annotations

from typing import Any

from pacsim.viewer.settings import display_available, require_display


def wants_window(args: Any) -> bool:
    """Whether to show the game in a window: when asked with --window (an
    error without a display, see :mod:`pacsim.viewer.settings`), or by
    default when a display is there and neither --quiet nor --text was given."""
    if args.window:
        require_display()
        return True
    return not (args.quiet or args.text) and display_available()


__all__ = ["display_available", "wants_window"]
