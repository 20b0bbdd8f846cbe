"""The command-line side of the HTML pages: ``pacsim replay --html`` options,
kept here so the replay command itself changes by a few lines."""

from __future__ import annotations

import argparse

from pacsim.engine.recording import SavedGame
from pacsim.engine.state import GameState
from pacsim.errors import ConfigError
from pacsim.files import write_atomically


def add_html_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--html", metavar="FILE.html", default=None,
                        help="write the game as one self-contained HTML page (no window); open it in any browser")
    parser.add_argument("--html-values", action="store_true",
                        help="with --html: search again at each Pacman move with the recorded Pacman and show "
                             "each action's searched value (MCTS: visits), as play's values panel shows them")


def check_html_options(args: argparse.Namespace) -> None:
    """Before the replay: --html-values needs a page to show its values in."""
    if args.html_values and not args.html:
        raise ConfigError("--html-values: only with --html FILE.html")


def write_replay_html(args: argparse.Namespace, saved: SavedGame, states: list[GameState], outcome: str | None) -> None:
    """The page asked for with --html, if any."""
    if not args.html:
        return
    from pacsim.web.player import replay_page
    from pacsim.web.values import recorded_action_values

    values = recorded_action_values(saved, states) if args.html_values else None
    write_page(args.html, replay_page(saved, outcome=outcome, values=values, states=states))


def write_page(path: str, text: str) -> None:
    """Write an HTML page (atomically); a folder that cannot be written is a one-line error."""
    write_atomically(path, text, "the page")
