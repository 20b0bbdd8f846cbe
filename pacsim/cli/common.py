"""Options shared by several commands."""

from __future__ import annotations

from typing import Any

from pacsim.agents.registry import parse_options, parse_spec
from pacsim.errors import AgentError
from pacsim.viewer.settings import display_available, require_display


def wants_window(args: Any) -> bool:
    """Whether to show the game in a window: when asked with --window (an
    error without a display, see :mod:`pacsim.viewer.settings`), or by
    default when a display is there and neither --quiet nor --text was given."""
    if args.window:
        require_display()
        return True
    return not (args.quiet or args.text) and display_available()


def options_given_once(spec: str, text: str, flag: str) -> dict[str, str]:
    """The options of ``flag TEXT`` (``-a depth=3``) for the agent ``spec``;
    an option the spec sets too (``expectimax:depth=2``) is an error naming
    both places, since neither silently wins."""
    options = parse_options(text)
    twice = [key for key in parse_spec(spec).options if key in options]
    if twice:
        raise AgentError(f"option {twice[0]} given twice: in {spec!r} and in {flag} {text!r}; give it once")
    return options


__all__ = ["display_available", "options_given_once", "wants_window"]
