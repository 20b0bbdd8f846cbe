"""The lesson map's page and its tree pages (``pacsim lesson-map``), drawn
from a :class:`~pacsim.report.lesson_map.LessonMap` (the counts, the traps
and the words are computed in :mod:`pacsim.report.lesson_map`).

The page is one self-contained file: a maze per Pacman and ghost with its
rows and columns numbered as the text names cells, each start cell coloured
by its caught share and linking to its section, which names a caught game,
opens its replay at the trap move (the search's values beside the board, the
trap move marked) and links the search tree there.
"""

from __future__ import annotations

import contextlib
import html
import shlex
from collections.abc import Iterator, Mapping
from typing import Any

from pacsim.errors import ConfigError
from pacsim.report.lesson_map import LessonMap, TrapGame, summary_lines, where
from pacsim.runner.store import load_saved_game
from pacsim.web.markup import SCRIPT_STRINGIFY, script_json

# -- the trees ------------------------------------------------------------


def tree_pages(lesson: LessonMap) -> Iterator[tuple[TrapGame, str]]:
    """Each linked game's search tree at its trap move (:mod:`pacsim.web.tree`),
    as a page: both Pacmen's trees side by side where the other would have
    chosen otherwise, else the caught Pacman's; none for a Pacman that does not search."""
    from pacsim.web.frames import move_positions
    from pacsim.web.tree import compare_page, move_tree, tracing_pacman

    for trap in lesson.traps.values():
        if trap.plugin is not None:  # a store's plugin is never imported: the page says how to trace it as you
            continue
        saved = load_saved_game(lesson.store, trap.game_id)
        title = f"pacsim tree: {saved.layout.name}, game {trap.game_id}, move {trap.trap_move}"
        try:
            if trap.specs:
                state = move_positions(saved.states())[trap.trap_move]
                first, second = (tracing_pacman(spec, option="pacman").trace(state) for spec in trap.specs)
                yield trap, compare_page(first, second, (trap.specs[0], trap.specs[1]), title=title)
            else:
                yield trap, move_tree(saved, trap.trap_move).page()
        except ConfigError:  # not a search Pacman: no tree to draw
            continue


# -- the page -------------------------------------------------------------

PAGE_STYLE = """
body{font-family:system-ui,sans-serif;margin:1.5em;max-width:76em;color:#222}
.panels{display:flex;flex-wrap:wrap;gap:1.5em;margin-bottom:1em}
pre{white-space:pre-wrap}
.maze td.start{outline:2px solid #1f77b4;outline-offset:-2px}
.panel h3{font-size:1em;margin:.3em 0}
.maze{border-collapse:collapse}
.maze td{width:26px;height:26px;padding:0;text-align:center;font-size:10px}
.maze th{font-size:9px;font-weight:normal;color:#777;padding:0 2px;text-align:center}
.maze td.wall{background:#1f2a60}
.maze td.open{background:#e8e8e8}
.maze td a{display:block;width:100%;height:100%;line-height:26px;color:inherit;text-decoration:none}
.food{color:#d9a400}.ghost{color:#b00000;font-weight:bold}
.legend{display:flex;flex-wrap:wrap;align-items:flex-start;gap:.5em 1.3em;font-size:13px;margin:.8em 0}
.scale{display:flex;flex-direction:column}
.scale{width:16em}
.scale .bar{height:14px;border:1px solid #bbb}
.scale .ticks{display:flex;justify-content:space-between;font-size:11px;color:#444}
.key{display:flex;align-items:center;gap:.35em}
.key .swatch{display:inline-block;width:18px;height:18px;text-align:center;line-height:18px;font-size:10px}
section.cell{border-top:1px solid #ccc;padding:.4em 0}
section.cell:target{background:#fff6d6}
code{background:#f3f3f3;padding:0 .25em}
"""
PAGE_SCRIPT = """
const games = JSON.parse(document.getElementById("games").textContent);
for (const link of document.querySelectorAll("a.replay")) {
  link.addEventListener("click", (event) => {
    event.preventDefault();
    const game = games[link.dataset.game];
    const data = (@@SCRIPT_STRINGIFY@@)(game.data);
    const text = games.template.replace(games.headingSlot, () => game.heading).replace(games.gameSlot, () => data);
    const url = URL.createObjectURL(new Blob([text], {type: "text/html"}));
    window.open(`${url}#move=${link.dataset.move}`, "_blank");
  });
}
""".replace("@@SCRIPT_STRINGIFY@@", SCRIPT_STRINGIFY)
SCALE_STEPS = 5
"""The colour legend's steps: 0%, 25%, ... 100%."""


def map_page(lesson: LessonMap, tree_command: str = "pacsim tree", trees: Mapping[int, str] | None = None) -> str:
    """The map as one self-contained HTML page (see the module docstring)."""
    from pacsim.web.player import GAME_SLOT, HEADING_SLOT, page_template

    games: dict[str, Any] = {"template": page_template(f"pacsim replay: {lesson.layout.name}"),
                             "headingSlot": HEADING_SLOT, "gameSlot": GAME_SLOT}
    for trap in lesson.traps.values():
        games[str(trap.game_id)] = replay_data(lesson, trap)
    panels = ['<div class="panels">' + "".join(_panel(lesson, pacman, ghost) for pacman in lesson.pacmen) + "</div>"
              for ghost in lesson.ghosts]  # a row per ghost, the Pacmen side by side
    sections = [_cell_section(lesson, cell, tree_command, trees or {}) for cell in lesson.cells
                if any((pacman, ghost, cell) in lesson.traps for pacman in lesson.pacmen for ghost in lesson.ghosts)]
    title = f"pacsim lesson map: {lesson.title}"
    data = script_json(games, compact=True)
    summary = "\n".join(html.escape(line) for line in summary_lines(lesson))
    return "\n".join([
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">', f"<title>{html.escape(title)}</title>",
        f"<style>{PAGE_STYLE}</style></head><body>", f"<h1>{html.escape(title)}</h1>",
        f"<p>How often each Pacman is caught, by the cell it starts on: {lesson.games_from_each_words()} from each "
        f"start cell for every Pacman and ghost, the same seeds for every Pacman"
        + (f" ({html.escape(lesson.description)})" if lesson.description else "") + ". Store: "
        f"<code>{html.escape(str(lesson.store))}</code>. Click a cell for a game in which it was caught. Rows and "
        "columns are numbered from the top left, as the text names cells.</p>",
        f"<pre>{summary}</pre>", _legend(lesson), *panels,
        "<h2>Caught games, cell by cell</h2>",
        "<p>The trap move is the Pacman move whose choice sprang the trap: where the caught game parted from "
        "the other Pacman's game on the same seed (when a Pacman's choice parted them), else the caught "
        "Pacman's last move from a junction. <em>replay</em> opens the game at that move, with the caught "
        "Pacman's search values beside the board and the trap move marked; the command draws "
        "the tree the Pacman searched there.</p>",
        *sections, f'<script type="application/json" id="games">{data}</script>',
        f"<script>{PAGE_SCRIPT}</script>", "</body></html>", ""])


def replay_data(lesson: LessonMap, trap: TrapGame) -> dict[str, Any]:
    """A linked game for the player: its frames, the caught Pacman's action values at each move (where it
    searches: the values that chose the moves) and the trap move marked."""
    from pacsim.web.frames import game_data
    from pacsim.web.player import describe_game
    from pacsim.web.values import recorded_action_values

    saved = load_saved_game(lesson.store, trap.game_id)
    states = saved.states()
    values = None  # a Pacman that does not search, or runs plugin code (never imported from a store): no values
    if trap.plugin is None:
        with contextlib.suppress(ConfigError):
            values = recorded_action_values(saved, states)
    data = game_data(states, title=f"pacsim replay: {saved.layout.name}", outcome=saved.outcome,
                     recorded_score=saved.score, values=values)
    data["standalone"] = True
    data["marks"] = {str(trap.trap_move): f"the trap move: {trap.reason()}"}
    return {"data": data, "heading": html.escape(describe_game(saved, states, saved.outcome))}


def _colour(share: float) -> str:
    """White (never caught) to deep red (always), as the PNG's scale."""
    red, green, blue = 255 - int(52 * share), 245 - int(230 * share), 240 - int(220 * share)
    return f"rgb({red},{green},{blue})"


def _legend(lesson: LessonMap) -> str:
    """The colour scale with its ticks under it, and what the numbers and marks on the mazes are."""
    steps = [index / (SCALE_STEPS - 1) for index in range(SCALE_STEPS)]
    gradient = ", ".join(_colour(step) for step in steps)  # the colour is linear in the share: so is the bar
    ticks = "".join(f"<span>{step:.0%}</span>" for step in steps)
    keys = [(f'<span class="swatch" style="background:{_colour(0.5)}">3</span>',
             f"a start cell: the number is the games caught from it (of {lesson.games_from_each()})"),
            ('<span class="swatch" style="outline:2px solid #1f77b4;outline-offset:-2px;background:#fff"></span>',
             "the maze's own start"),
            ('<span class="swatch" style="background:#e8e8e8;color:#b00000;font-weight:bold">G</span>', "a ghost's start"),
            ('<span class="swatch" style="background:#e8e8e8;color:#d9a400">&#9679;</span>', "food (not a start cell)"),
            ('<span class="swatch" style="background:#1f2a60"></span>', "wall")]
    return ('<div class="legend"><div class="scale"><div>share of its games caught</div>'
            f'<div class="bar" style="background:linear-gradient(to right, {gradient})"></div>'
            f'<div class="ticks">{ticks}</div></div>'
            + "".join(f'<div class="key">{swatch} {html.escape(words)}</div>' for swatch, words in keys) + "</div>")


def _panel(lesson: LessonMap, pacman: str, ghost: str) -> str:
    layout = lesson.layout
    total = lesson.totals(pacman, ghost)
    starts = set(lesson.cells)
    numbers = "".join(f"<th>{column + 1}</th>" for column in range(layout.width))
    rows = [f"<tr><th></th>{numbers}</tr>"]  # columns numbered from 1, as where() names them
    for row in range(layout.height):
        cells = [f"<th>{row + 1}</th>"]
        for column in range(layout.width):
            cell = layout.cell_of.get((row, column))
            if cell is None:
                cells.append('<td class="wall"></td>')
            elif cell in starts:
                cells.append(_start_cell(lesson, pacman, ghost, cell))
            else:
                mark = ('<span class="ghost">G</span>' if cell in layout.ghost_starts
                        else '<span class="food">&#9679;</span>' if layout.food >> cell & 1 else "")
                cells.append(f'<td class="open">{mark}</td>')
        rows.append(f"<tr>{''.join(cells)}</tr>")
    heading = f"{pacman} vs {ghost}: caught in {total.caught} of {total.games} games"
    return (f'<div class="panel"><h3>{html.escape(heading)}</h3>'
            f'<table class="maze">{"".join(rows)}</table></div>')


def _start_cell(lesson: LessonMap, pacman: str, ghost: str, cell: int) -> str:
    count = lesson.count(pacman, ghost, cell)
    tip = (f"{where(lesson.layout, cell)}: caught {count.caught}, won {count.won}, stalled {count.stalled} "
           f"of {count.games}")
    text = str(count.caught) if count.caught else ""
    inner = f'<a href="#cell-{cell}">{text}</a>' if (pacman, ghost, cell) in lesson.traps else text
    framed = ' class="start"' if cell == lesson.layout.pacman_start else ""  # the maze's own start, as the figure frames it
    return f'<td{framed} style="background:{_colour(count.caught_share)}" title="{html.escape(tip)}">{inner}</td>'


def _cell_section(lesson: LessonMap, cell: int, tree_command: str, trees: Mapping[int, str]) -> str:
    items = []
    for ghost in lesson.ghosts:
        for pacman in lesson.pacmen:
            trap = lesson.traps.get((pacman, ghost, cell))
            if trap is None:
                continue
            count = lesson.count(pacman, ghost, cell)
            store = html.escape(str(lesson.store))
            tree = html.escape(f"{tree_command} --store {shlex.quote(str(lesson.store))} --game {trap.game_id} "
                               f"--move {trap.trap_move}"  # a stored plugin runs only when the reader names it
                               + (f" --pacman {shlex.quote(trap.plugin)}" if trap.plugin is not None else ""))
            items.append(
                f"<li>{html.escape(pacman)} vs {html.escape(ghost)}: caught in {count.caught} of {count.games}. "
                f"Game {trap.game_id} (game index {trap.game_index}, seed {trap.seed}, {trap.moves} moves): "
                f"trap at move {trap.trap_move}, {html.escape(trap.reason())}. "
                f'<a href="#" class="replay" data-game="{trap.game_id}" data-move="{trap.trap_move}">replay</a> '
                + (f'&middot; <a class="tree" href="{html.escape(trees[trap.game_id])}">tree</a> '
                   if trap.game_id in trees else "")
                + f"&middot; tree: <code>{tree}</code>"
                + (f" &middot; both trees there: <code>{tree} --compare "
                   f"{html.escape(' '.join(map(shlex.quote, trap.specs)))}</code>"
                   if trap.specs else "") + " &middot; "
                f"<code>pacsim replay {store} --game {trap.game_id} --html game{trap.game_id}.html "
                "--html-values</code></li>")
    return (f'<section class="cell" id="cell-{cell}"><h3>Start {where(lesson.layout, cell)}</h3>'
            f"<ul>{''.join(items)}</ul></section>")
