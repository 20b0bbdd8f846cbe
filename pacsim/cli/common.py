"""Options shared by several commands."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING, Any

from pacsim.errors import DEBUG_VARIABLE, AgentError, debug_wanted
from pacsim.files import check_output
from pacsim.viewer.settings import display_available, require_display

if TYPE_CHECKING:
    from pacsim.agents.registry import AgentSpec


def wants_window(args: Any) -> bool:
    """Whether to show the game in a window: when asked with --window (an
    error without a display, see :mod:`pacsim.viewer.settings`), or by
    default when a display is there and neither --quiet nor --text was given."""
    if args.window:
        require_display()
        return True
    return not (args.quiet or args.text) and display_available()


def require_server(command: str, note: str = "") -> None:
    """A live page's server (Starlette on Uvicorn, the dashboard extra), or one line naming the extra."""
    import importlib.util

    from pacsim.errors import PacsimError, install_hint

    if importlib.util.find_spec("starlette") is None or importlib.util.find_spec("uvicorn") is None:
        raise PacsimError(f"{command}: the live page needs Starlette and Uvicorn: {install_hint('dashboard')}{note}")


def add_debug_option(parser: Any) -> None:
    """``--debug``: a raising agent's full traceback (sets PACSIM_DEBUG, so
    worker processes started afterwards print it too)."""
    parser.add_argument("--debug", action=_Debug, nargs=0, default=debug_wanted(),
                        help=f"print the full traceback of an agent that raises (also {DEBUG_VARIABLE}=1)")


class _Debug(argparse.Action):
    def __call__(self, parser: Any, namespace: Any, values: Any, option_string: str | None = None) -> None:
        os.environ[DEBUG_VARIABLE] = "1"
        namespace.debug = True


def options_given_once(spec: str | AgentSpec, text: str, flag: str) -> dict[str, str]:
    """The options of ``flag TEXT`` (``-a depth=3``) for the agent ``spec``
    (parsed here if given as text); an option the spec sets too
    (``expectimax:depth=2``) is an error naming both places, since neither silently wins."""
    from pacsim.agents.registry import as_spec, parse_options  # the agents, only for a command that makes some

    options = parse_options(text)
    parsed = as_spec(spec)
    twice = [key for key in parsed.options if key in options]
    if twice:
        raise AgentError(f"option {twice[0]} given twice: in {parsed.text!r} and in {flag} {text!r}; give it once")
    return options


def add_display_options(parser: argparse.ArgumentParser, quiet_help: str, show_values: bool = True) -> None:
    """How a game is shown: quiet, text, or a window (the default with a
    display); ``show_values`` offers --show-values (not to replays, which
    have no agents to search)."""
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument("-q", "--quiet", action="store_true", help=quiet_help)
    shown.add_argument("-t", "--text", action="store_true", help="draw the board in the terminal")
    shown.add_argument("-w", "--window", action="store_true", help="watch in a pygame window (default when a display is available)")
    add_window_options(parser, show_values)


def add_window_options(parser: argparse.ArgumentParser, show_values: bool = True) -> None:
    parser.add_argument("--frame-time", type=float, default=None,
                        help="seconds between frames in the window and the GIF (default 0.1), and between boards with --text (default 0)")
    parser.add_argument("--zoom", type=float, default=1.0, help="scale of the window and of saved frames (default 1.0)")
    if show_values:
        parser.add_argument("--show-values", action="store_true", help="show the search value of each Pacman action")
    parser.add_argument("--save-frames", metavar="DIR", help="write every frame as a PNG into DIR (DIR/game-i with several games); "
                        "without a window, off-screen at full speed")
    parser.add_argument("--gif", metavar="FILE", help="write the game as an animated GIF (FILE-i.gif with several games); "
                        "without a window, off-screen at full speed")


def check_outputs(args: argparse.Namespace, inputs: list[str] | None = None) -> None:
    """--gif and --save-frames checked before any game is played or replayed
    (``inputs``: the files read, which they must not replace)."""
    for option, path, folder in (("--gif", args.gif, False), ("--save-frames", args.save_frames, True)):
        if path:
            check_output(path, option, folder=folder, inputs=inputs or [])


__all__ = ["add_debug_option", "add_display_options", "add_window_options", "check_outputs", "display_available",
           "options_given_once", "require_server", "wants_window"]
