"""Games shown as the HTML player in Jupyter (or any IPython display).

The engine's :class:`GameRecord` and :class:`SavedGame` cannot know about
HTML (the engine imports nothing above it), so instead of a ``_repr_html_``
method they get an IPython HTML formatter, registered when :mod:`pacsim.api`
is imported inside IPython (``pacsim.play`` and ``pacsim.load_record`` do
that) or with ``%load_ext pacsim.web.notebook``.  A record names its layout,
not its maze: it is shown on a maze of that name that ``pacsim.play`` played
in this session (the user's own file included), else on the maze the name
leads to (``./NAME.lay``, a shipped layout, a ``generated:`` spec), when the
record replays on it; otherwise IPython falls back to the plain ``repr``.
"""

from __future__ import annotations

import sys
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

from pacsim.engine import load_layout
from pacsim.engine.game import GameRecord
from pacsim.engine.layout import Layout
from pacsim.engine.recording import SavedGame
from pacsim.errors import LayoutError, ReplayError
from pacsim.web.player import saved_game_html


def saved_from_record(record: GameRecord, layout: Layout, pacman: str = "?", ghosts: list[str] | None = None) -> SavedGame:
    """A game record with its maze, ready to replay."""
    return SavedGame(layout=layout, num_ghosts=record.num_ghosts, actions=list(record.actions), seed=record.seed,
                     pacman=pacman, ghosts=list(ghosts or []), outcome=record.outcome, score=record.score,
                     streams=record.streams)


REMEMBERED_LAYOUTS = 32
"""Mazes :func:`remember_layout` keeps by name, the latest first (a maze is a few kB)."""
_played_layouts: OrderedDict[str, Layout] = OrderedDict()
"""The session's played mazes: a record holds only its maze's name, and a
user's own file may be anywhere (the names rule finds it only in ``./``)."""


def remember_layout(layout: Layout) -> None:
    """Keep ``layout`` for showing records of games played on it."""
    _played_layouts[layout.name] = layout
    _played_layouts.move_to_end(layout.name)
    while len(_played_layouts) > REMEMBERED_LAYOUTS:
        _played_layouts.popitem(last=False)


def record_html(record: GameRecord) -> str | None:
    """The player for a record (see the module docstring for where its maze
    is looked for); None (IPython then shows the ``repr``) when no maze of
    its name replays it."""
    for layout in _layouts_named(record.layout):
        try:
            return saved_game_html(saved_from_record(record, layout))
        except ReplayError:  # another maze of the same name
            continue
    return None


def _layouts_named(name: str) -> Iterator[Layout]:
    if name in _played_layouts:
        yield _played_layouts[name]
    try:
        yield load_layout(name)
    except LayoutError:  # a name that leads nowhere from here
        return


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
