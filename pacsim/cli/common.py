"""Options shared by several commands."""

from __future__ import annotations

import argparse
import os
from typing import Any

from pacsim.errors import DEBUG_VARIABLE, AgentError, debug_wanted
from pacsim.viewer.settings import display_available, require_display


def wants_window(args: Any) -> bool:
    """Whether to show the game in a window: when asked with --window (an
    error without a display, see :mod:`pacsim.viewer.settings`), or by
    default when a display is there and neither --quiet nor --text was given."""
    if args.window:
        require_display()
        return True
    return not (args.quiet or args.text) and display_available()


def add_debug_option(parser: Any) -> None:
    """``--debug``: a raising agent's full traceback (sets PACSIM_DEBUG, so
    worker processes started afterwards print it too)."""
    parser.add_argument("--debug", action=_Debug, nargs=0, default=debug_wanted(),
                        help=f"print the full traceback of an agent that raises (also {DEBUG_VARIABLE}=1)")


class _Debug(argparse.Action):
    def __call__(self, parser: Any, namespace: Any, values: Any, option_string: str | None = None) -> None:
        os.environ[DEBUG_VARIABLE] = "1"
        namespace.debug = True


def options_given_once(spec: str, text: str, flag: str) -> dict[str, str]:
    """The options of ``flag TEXT`` (``-a depth=3``) for the agent ``spec``;
    an option the spec sets too (``expectimax:depth=2``) is an error naming
    both places, since neither silently wins."""
    from pacsim.agents.registry import parse_options, parse_spec  # the agents, only for a command that makes some

    options = parse_options(text)
    twice = [key for key in parse_spec(spec).options if key in options]
    if twice:
        raise AgentError(f"option {twice[0]} given twice: in {spec!r} and in {flag} {text!r}; give it once")
    return options


__all__ = ["add_debug_option", "display_available", "options_given_once", "wants_window"]
