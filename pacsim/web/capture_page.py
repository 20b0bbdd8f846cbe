"""The capture-the-flag page: an HTML replay with a move slider, or the page a live game is watched on.

One page for both (``capture.html`` and ``capture.js``): it draws the frames
of :mod:`pacsim.engine.capture.frames` on a canvas (both halves, food,
capsules, carried food, scared ghosts, the mover's noisy distances and its
``debugDraw`` marks), carried as JSON in a ``<script>`` element through
:func:`~pacsim.web.markup.script_json`; a live page polls for more.
"""

from __future__ import annotations

import html
from string import Template
from typing import Any

from pacsim._version import __version__
from pacsim.web.player import asset


def capture_page(board: dict[str, Any], frames: list[dict[str, Any]], heading: str, *, outcome: str | None = None,
                 live: bool = False, keyboard: str | None = None, key_token: str | None = None) -> str:
    """The page for a game on ``board`` (:func:`~pacsim.engine.capture.frames.board`) with its ``frames``
    under ``heading`` (plain text); ``live``: more frames come from ``frames.json``; ``keyboard``: the
    colour of a keyboard team, whose keys are posted with ``key_token``."""
    from pacsim.web.markup import script_json

    data = {"board": board, "frames": frames, "outcome": outcome, "live": live, "done": not live,
            "keyboard": keyboard, "keyToken": key_token}
    return Template(asset("capture.html")).substitute(
        version=__version__, title=html.escape(f"pacsim capture: {board['layout']}"), heading=html.escape(heading),
        data=script_json(data, compact=True), script=asset("capture.js"))

