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
from pacsim.viewer import style
from pacsim.web.frames import MoveTrees, SearchValues, game_data, move_positions
from pacsim.web.markup import script_json


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


MAX_PAGE_MOVES = 10_000
"""The most Pacman moves a replay page draws.  A record may hold millions of
actions (a 2,000,000-move record took 7 s and 800 MB to make one page, its
JSON 30 MB for the browser to hold); past this, the page draws the game's
start and says so, and ``pacsim replay`` plays the whole game."""


def drawn_states(saved: SavedGame, states: list[GameState] | None = None) -> tuple[list[GameState], int]:
    """The states a page draws (all of them up to :data:`MAX_PAGE_MOVES`
    Pacman moves, only those replayed when ``states`` is None) and how many
    moves Pacman made in the whole game."""
    if states is not None:
        moves = len(move_positions(states)) - 1
    else:  # Pacman moves first in every round: his moves are the rounds begun
        moves = -(-len(saved.actions) // (saved.num_ghosts + 1))
    if moves <= MAX_PAGE_MOVES:
        return (saved.states() if states is None else states), moves
    drawn, starts = [], 0
    for state in saved.iter_states() if states is None else states:
        drawn.append(state)
        starts += state.turn == 0
        if starts > MAX_PAGE_MOVES:  # the start and MAX_PAGE_MOVES positions after it
            break
    return drawn, moves


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
    :func:`pacsim.web.values.recorded_trees`), opened by the page's tree button.
    A game longer than :data:`MAX_PAGE_MOVES` has its first moves drawn, and
    its heading says so and gives the record's own outcome and score."""
    states, moves = drawn_states(saved, states)
    cut = moves > MAX_PAGE_MOVES
    final = states[-1]
    if outcome is None:
        outcome = "win" if final.is_win() else "loss" if final.is_lose() else saved.outcome
    title = f"pacsim replay: {saved.layout.name}"
    if cut:  # the end is not drawn: no outcome, no score to hold against the record's
        values = None if values is None else SearchValues(values.heading, values.rows[:MAX_PAGE_MOVES + 1])
        data = game_data(states, title=title, outcome=None, recorded_score=None, values=values)
        heading = cut_heading(saved, moves)
    else:
        data = game_data(states, title=title, outcome=outcome, recorded_score=saved.score, values=values)
        heading = describe_game(saved, states, outcome)
    data["standalone"] = standalone
    if trees is not None:
        data.update(trees=trees.packed[:MAX_PAGE_MOVES + 1], treePage=trees.page, treeData=trees.placeholder)
    return page(data, heading=heading)


def cut_heading(saved: SavedGame, moves: int) -> str:
    """The heading of a page that draws only a long game's start."""
    agents = saved.pacman + (f" vs {', '.join(sorted(set(saved.ghosts)))}" if saved.ghosts else "")
    seed = f", seed {saved.seed}" if saved.seed is not None else ""
    return (f"{saved.layout.name}: {agents}{seed} · the record: {saved.outcome or 'unfinished'} score {saved.score} "
            f"moves {moves:,} · drawn here: the first {MAX_PAGE_MOVES:,} moves only (pacsim replay plays them all)")


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
