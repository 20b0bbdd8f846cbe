"""A recorded game as one self-contained HTML page: the frames, a small
renderer and its stylesheet inline, nothing fetched from the network.

The page's script and stylesheet are package data (``player.js``,
``player.css``, ``page.html`` beside this module), read with
:mod:`importlib.resources`.  :func:`replay_page` is the whole page (``pacsim
replay --html``); :func:`embedded` puts a page in an ``<iframe srcdoc>``, so
several players share a report or a notebook without sharing element ids.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from functools import cache
from importlib.resources import files
from string import Template
from typing import Any

from pacsim._version import __version__
from pacsim.engine.recording import SavedGame
from pacsim.engine.state import GameState
from pacsim.report.markup import script_json
from pacsim.viewer import style
from pacsim.web.frames import MoveTrees, SearchValues, game_data, move_positions


@cache
def asset(name: str) -> str:
    """A file of the page's (script, stylesheet, template) from the package."""
    return files("pacsim.web").joinpath(name).read_text(encoding="utf-8")


def describe_game(saved: SavedGame, states: Sequence[GameState], outcome: str | None) -> str:
    """The page's heading: maze, agents, and how it ended, as ``pacsim replay`` says it."""
    moves = len(move_positions(states)) - 1
    agents = saved.pacman + (f" vs {', '.join(sorted(set(saved.ghosts)))}" if saved.ghosts else "")
    seed = f", seed {saved.seed}" if saved.seed is not None else ""
    return f"{saved.layout.name}: {agents}{seed} · {outcome or 'unfinished'} score {states[-1].score} moves {moves}"


def replay_page(saved: SavedGame, *, outcome: str | None = None, values: SearchValues | None = None,
                states: list[GameState] | None = None, standalone: bool = True, trees: MoveTrees | None = None) -> str:
    """The HTML page replaying ``saved``; ``outcome`` defaults to the rules'
    verdict (win, loss) or the recorded one; ``values`` are Pacman's action
    values at each shown position (see :mod:`pacsim.web.values`).
    ``standalone``: a page of its own, which follows and sets ``#move=N`` in
    its address, grows the board to fill the window and opens at the start.
    Else the page goes in an iframe (a report, a notebook), whose address is
    not the reader's: the board keeps the viewer's cell size at most, and it
    opens at the last move, so that several players side by side each show
    how their game ended rather than one same starting position.
    ``trees``: each shown position's search tree (see
    :func:`pacsim.web.values.recorded_trees`), opened by the page's tree button."""
    states = saved.states() if states is None else states
    final = states[-1]
    if outcome is None:
        outcome = "win" if final.is_win() else "loss" if final.is_lose() else saved.outcome
    title = f"pacsim replay: {saved.layout.name}"
    data = game_data(states, title=title, outcome=outcome, recorded_score=saved.score, values=values)
    data["standalone"] = standalone
    if trees is not None:
        data.update(trees=trees.packed, treePage=trees.page, treeData=trees.placeholder)
    return page(data, heading=describe_game(saved, states, outcome))


def page(data: dict[str, Any], heading: str) -> str:
    """The page for player ``data`` (:func:`pacsim.web.frames.game_data`) under ``heading`` (plain text)."""
    return _filled(html.escape(data["title"]), html.escape(heading), script_json(data, compact=True), values="values" in data, trees="trees" in data)


def _filled(title: str, heading: str, data: str, values: bool = False, trees: bool = False) -> str:
    """The page's template with its parts (``title`` and ``heading`` as HTML, ``data`` as JSON text)."""
    return Template(asset("page.html")).substitute(
        version=__version__, title=title, heading=heading, css=asset("player.css"),
        values_hidden="" if values else " hidden", tree_hidden="" if trees else " hidden",
        data=data, script=asset("player.js"))


HEADING_SLOT, GAME_SLOT = "<!--pacsim:heading-->", "/*pacsim:game*/"
"""Where :func:`page_template` leaves the heading (HTML) and the game's data (JSON)."""


def page_template(title: str) -> str:
    """The player's page without a game: its heading and data left as
    :data:`HEADING_SLOT` and :data:`GAME_SLOT`, which a page holding several
    games fills in the browser to open one (``pacsim lesson-map``), so the
    player's script is carried once rather than once a game."""
    return _filled(html.escape(title), HEADING_SLOT, GAME_SLOT)


def page_size(layout_width: int, layout_height: int, values: bool = False) -> tuple[int, int]:
    """Pixels an embedded page needs: the board at the viewer's cell size, plus the controls."""
    cell = style.CELL_PIXELS
    width = layout_width * cell + (180 if values else 0) + 40
    return max(width, 600), layout_height * cell + 190


def embedded(page_text: str, size: tuple[int, int]) -> str:
    """``page_text`` inside an iframe: its own document, so its ids and
    script stay apart from the page around it."""
    width, height = size
    return (f'<iframe srcdoc="{html.escape(page_text, quote=True)}" width="{width}" height="{height}" '
            'style="border:0;background:#000" title="pacsim replay"></iframe>')


def saved_game_html(saved: SavedGame, trees: MoveTrees | None = None) -> str:
    """The player for a recorded game, embedded in another page (a notebook
    cell, the results page); ``trees``: its moves' search trees (the tree button)."""
    width, height = page_size(saved.layout.width, saved.layout.height)
    size = (max(width, 900), height + 600) if trees is not None else (width, height)  # room for the tree under the board
    return embedded(replay_page(saved, standalone=False, trees=trees), size)
