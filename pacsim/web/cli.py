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
    parser.add_argument("--tree", action="store_true",
                        help="with --html: search again at each Pacman move with the recorded Pacman and put the tree it "
                             "searched in the page (its tree button; see docs/tree.md)")
    parser.add_argument("--tree-nodes", type=int, default=2000, metavar="N",
                        help="with --tree: nodes kept per move's tree (default 2000, breadth first, the best line whole)")


def check_html_options(args: argparse.Namespace) -> None:
    """Before the replay: --html-values needs a page to show its values in."""
    if args.html_values and not args.html:
        raise ConfigError("--html-values: only with --html FILE.html")
    if args.tree and not args.html:
        raise ConfigError("--tree: only with --html FILE.html")
    if args.tree_nodes < 1:
        raise ConfigError(f"--tree-nodes {args.tree_nodes}: must be at least 1")


def write_replay_html(args: argparse.Namespace, saved: SavedGame, states: list[GameState], outcome: str | None) -> None:
    """The page asked for with --html, if any."""
    if not args.html:
        return
    from pacsim.web.player import replay_page
    from pacsim.web.values import recorded_action_values, recorded_trees

    values = recorded_action_values(saved, states) if args.html_values else None
    trees = recorded_trees(saved, states, args.tree_nodes) if args.tree else None
    write_page(args.html, replay_page(saved, outcome=outcome, values=values, states=states, trees=trees))


def write_page(path: str, text: str) -> None:
    """Write an HTML page (atomically); a folder that cannot be written is a one-line error."""
    write_atomically(path, text, "the page")
