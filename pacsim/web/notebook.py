"""Games shown as the HTML player in Jupyter (or any IPython display).

The engine's :class:`GameRecord` and :class:`SavedGame` cannot know about
HTML (the engine imports nothing above it), so instead of a ``_repr_html_``
method they get an IPython HTML formatter, registered when :mod:`pacsim.api`
is imported inside IPython (``pacsim.play`` and ``pacsim.load_record`` do
that) or with ``%load_ext pacsim.web.notebook``.  A record names its layout,
not its maze: it is shown when the name is a shipped layout; else IPython
falls back to the plain ``repr``.
"""

from __future__ import annotations

import sys
from typing import Any

from pacsim.engine import load_layout
from pacsim.engine.game import GameRecord
from pacsim.engine.layout import Layout, shipped_layouts
from pacsim.engine.recording import SavedGame
from pacsim.web.player import saved_game_html


def saved_from_record(record: GameRecord, layout: Layout, pacman: str = "?", ghosts: list[str] | None = None) -> SavedGame:
    """A game record with its maze, ready to replay."""
    return SavedGame(layout=layout, num_ghosts=record.num_ghosts, actions=list(record.actions), seed=record.seed,
                     pacman=pacman, ghosts=list(ghosts or []), outcome=record.outcome, score=record.score)


def record_html(record: GameRecord) -> str | None:
    """The player for a record on a shipped layout; None (IPython then shows
    the ``repr``) when the maze cannot be found from the record's name."""
    if record.layout not in shipped_layouts():
        return None
    return saved_game_html(saved_from_record(record, load_layout(record.layout)))


def register(shell: Any = None) -> bool:
    """Show records as players in ``shell`` (default: the running IPython);
    False when there is none."""
    if shell is None:
        ipython = sys.modules.get("IPython")  # never import IPython just to find it absent
        shell = ipython.get_ipython() if ipython is not None else None
    if shell is None or not hasattr(shell, "display_formatter"):
        return False
    formatter = shell.display_formatter.formatters["text/html"]
    formatter.for_type(SavedGame, saved_game_html)
    formatter.for_type(GameRecord, record_html)
    return True


def load_ipython_extension(shell: Any) -> None:
    """``%load_ext pacsim.web.notebook``."""
    register(shell)
