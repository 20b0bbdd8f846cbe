"""The lesson map (``pacsim lesson-map``): how often each Pacman is caught
from every start cell of a maze, drawn as the maze.

The games are an experiment's stored games (``starts = "every"``: game i
starts on the i mod C-th of the maze's C start cells, so N x C games play N
from each cell, with the same seeds for every Pacman and ghost).  Every
number here is counted from the store, so the map is the same however the
games were played (``pacsim lesson-map`` or ``pacsim run`` of the same file).

Each start cell where a Pacman was caught names one of those games (the
first by game index) and its *trap move*: the Pacman move (``pacsim tree
--move N``, ``#move=N`` in a replay) whose choice sprang the trap.  It is
the last move of the caught game at which the other Pacman of the map (the
first of the grid's others: minimax for expectimax, expectimax for
minimax), searching the same position, would have chosen otherwise: its
best moves there do not include the move played (``differs``).  Where it
would have played every move the same (or does not search) the trap move is
the caught Pacman's last move from a junction, the last place it chose a
way (``junction``).
"""

from __future__ import annotations

import html
import json
import shlex
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas

from pacsim.engine.game import LOSS, TIMEOUT, WIN
from pacsim.engine.layout import STOP, Layout
from pacsim.engine.recording import SavedGame
from pacsim.engine.state import GameState
from pacsim.errors import ConfigError
from pacsim.runner.store import load_saved_game

DIFFERS, JUNCTION = "differs", "junction"
"""How a trap move was found (see the module docstring)."""
TRAP_RULES = {
    DIFFERS: "the last move at which {other}, searching the same position, would have chosen otherwise",
    JUNCTION: "its last move from a junction before the catch",
}
MAP_READS = ("pacman", "ghosts", "layout", "game_index", "seed", "outcome", "start", "moves",
             "config_hash", "condition_key")
"""The stored columns the map counts from (the replay logs only of the games it links)."""
JUNCTION_EXITS = 3
"""A junction: a cell with at least this many ways out."""


@dataclass(frozen=True)
class CellCount:
    """One condition's games from one start cell."""

    games: int
    caught: int
    won: int
    stalled: int

    @property
    def caught_share(self) -> float:
        return self.caught / self.games if self.games else 0.0


@dataclass(frozen=True)
class TrapGame:
    """A caught game a cell links to, and the move that sprang the trap."""

    game_id: int
    game_index: int
    seed: int
    moves: int
    trap_move: int
    """The Pacman move number (0: the first move) whose position sprang the trap."""
    rule: str
    """:data:`DIFFERS` or :data:`JUNCTION`."""
    other: str | None
    """The Pacman it was compared with (``differs``), else None."""
    specs: tuple[str, ...] = ()
    """With ``differs``: the other Pacman's full spec and the caught one's (what ``pacsim tree --compare`` takes)."""

    def reason(self) -> str:
        return TRAP_RULES[self.rule].format(other=self.other)


@dataclass
class LessonMap:
    """Per Pacman, ghost and start cell: the games' outcomes, and a caught game."""

    layout: Layout
    store: Path
    pacmen: tuple[str, ...]
    ghosts: tuple[str, ...]
    cells: tuple[int, ...]
    games_per_cell: int
    counts: dict[tuple[str, str, int], CellCount]
    traps: dict[tuple[str, str, int], TrapGame] = field(default_factory=dict)
    description: str = ""
    """The setting in words (depth, evaluation, seeds), for the figure and the page."""

    def count(self, pacman: str, ghost: str, cell: int) -> CellCount:
        return self.counts.get((pacman, ghost, cell), CellCount(0, 0, 0, 0))

    def caught_cells(self, pacman: str, ghost: str, share: float = 0.5) -> list[int]:
        """The start cells from which ``pacman`` is caught by ``ghost`` in more than ``share`` of its games."""
        return [cell for cell in self.cells if self.count(pacman, ghost, cell).caught_share > share]

    def totals(self, pacman: str, ghost: str) -> CellCount:
        parts = [self.count(pacman, ghost, cell) for cell in self.cells]
        return CellCount(*(sum(getattr(part, name) for part in parts) for name in ("games", "caught", "won", "stalled")))


def build_map(results: pandas.DataFrame, layout: Layout, store: str | Path, cells: Sequence[int],
              games_per_cell: int, description: str = "", traps: bool = True) -> LessonMap:
    """The map of ``results`` (an experiment's own games, :data:`MAP_READS`
    columns and ``id``) on ``layout``'s start ``cells``; ``traps``: also find
    each caught cell's game and trap move (reads their replay logs)."""
    pacmen = tuple(dict.fromkeys(results["pacman"]))
    ghosts = tuple(dict.fromkeys(results["ghosts"]))
    counts = {}
    for (pacman, ghost, cell), games in results.groupby(["pacman", "ghosts", "start"], sort=False):
        outcomes = games["outcome"]
        counts[(pacman, ghost, int(cell))] = CellCount(games=len(games), caught=int((outcomes == LOSS).sum()),
                                                       won=int((outcomes == WIN).sum()),
                                                       stalled=int((outcomes == TIMEOUT).sum()))
    lesson = LessonMap(layout=layout, store=Path(store), pacmen=pacmen, ghosts=ghosts, cells=tuple(cells),
                       games_per_cell=games_per_cell, counts=counts, description=description)
    if traps:
        lesson.traps = find_traps(results, store)
    return lesson


def find_traps(results: pandas.DataFrame, store: str | Path) -> dict[tuple[str, str, int], TrapGame]:
    """For each Pacman, ghost and start cell with a catch: its first caught game and trap move."""
    pacmen = list(dict.fromkeys(results["pacman"]))
    caught = results[results["outcome"] == LOSS].sort_values("game_index")
    specs: dict[tuple[str, str], str | None] = {}
    traps = {}
    for row in caught.drop_duplicates(["pacman", "ghosts", "start"]).itertuples(index=False):
        other = next((pacman for pacman in pacmen if pacman != row.pacman), None)
        if other is not None and (other, row.ghosts) not in specs:
            specs[(other, row.ghosts)] = _spec(results, store, other, row.ghosts)
        saved = load_saved_game(store, int(row.id))
        other_spec = specs.get((other, row.ghosts)) if other else None
        move, rule = trap_move(saved, other_spec)
        differs = rule == DIFFERS and other_spec is not None
        traps[(row.pacman, row.ghosts, int(row.start))] = TrapGame(
            game_id=int(row.id), game_index=int(row.game_index), seed=int(row.seed), moves=int(row.moves),
            trap_move=move, rule=rule, other=other if differs else None,
            specs=(other_spec, saved.pacman) if differs and other_spec is not None else ())
    return traps


def _spec(results: pandas.DataFrame, store: str | Path, pacman: str, ghost: str) -> str | None:
    """``pacman``'s full spec (its options, its model of ``ghost`` with
    ``model = "true"``) as one of its stored games against ``ghost`` gives it."""
    games = results[(results["pacman"] == pacman) & (results["ghosts"] == ghost)]
    return load_saved_game(store, int(games["id"].min())).pacman if len(games) else None


def trap_move(caught: SavedGame, other: str | None) -> tuple[int, str]:
    """The Pacman move that sprang the trap in ``caught`` and how it was
    found: the last at which Pacman ``other`` (a spec), searching the same
    position, would not have played the move played (:data:`DIFFERS`); else
    (``other`` agrees throughout, does not search, or is None) the last
    move from a junction (:data:`JUNCTION`)."""
    from pacsim.agents.api import ValuingAgent
    from pacsim.agents.registry import make_pacman
    from pacsim.engine.game import agent_rng
    from pacsim.engine.streams import streams_of

    states = caught.states()
    agent = make_pacman(other) if other is not None else None
    if isinstance(agent, ValuingAgent):
        agent.reset(0, agent_rng(caught.seed or 0, 0, streams_of(caught.streams)))
        moves = [(index, state) for index, state in enumerate(states[:-1]) if state.turn == 0]
        for move in range(len(moves) - 1, -1, -1):
            index, state = moves[move]
            # An MCTS Pacman's actions may come as (action, ...) pairs: the action is the first.
            values = [(action[0] if isinstance(action, tuple) else action, value)
                      for action, value in agent.action_values(state)]
            best = max(value for _, value in values)
            if caught.actions[index] not in {action for action, value in values if value >= best - 1e-9}:
                return move, DIFFERS
    return last_junction_move(states), JUNCTION


def last_junction_move(states: Sequence[GameState]) -> int:
    """The number of Pacman's last move from a junction (0 if it never stood on one)."""
    layout = states[0].layout
    move, last = 0, 0
    for state in states[:-1]:
        if state.turn != 0:
            continue
        exits = sum(action != STOP for action, _ in layout.pacman_moves[state.pacman])
        if exits >= JUNCTION_EXITS:
            last = move
        move += 1
    return last


# -- in words -------------------------------------------------------------

def where(layout: Layout, cell: int) -> str:
    """A cell as a person finds it on the maze: row and column from 1, top left."""
    row, column = layout.cells[cell]
    return f"row {row + 1}, column {column + 1}"


def summary_lines(lesson: LessonMap) -> list[str]:
    """What the map shows, in a few lines of text."""
    lines = [f"{len(lesson.cells)} start cells, {lesson.games_per_cell} games from each, per Pacman and ghost"
             + (f" ({lesson.description})" if lesson.description else "")]
    for ghost in lesson.ghosts:
        for pacman in lesson.pacmen:
            total = lesson.totals(pacman, ghost)
            mostly = lesson.caught_cells(pacman, ghost)
            lines.append(f"  {pacman} vs {ghost}: caught in {total.caught} of {total.games} games "
                         f"(won {total.won}, stalled {total.stalled}); caught in most games from "
                         f"{len(mostly)} of {len(lesson.cells)} cells")
    lines += lesson_cells_lines(lesson)
    return lines


def lesson_cells_lines(lesson: LessonMap) -> list[str]:
    """The cells where the lesson holds: the first Pacman (the pessimist)
    never caught, another caught in most games, against each ghost."""
    if len(lesson.pacmen) < 2:
        return []
    lines = []
    pessimist = lesson.pacmen[0]
    for ghost in lesson.ghosts:
        for optimist in lesson.pacmen[1:]:
            cells = [cell for cell in lesson.caught_cells(optimist, ghost)
                     if lesson.count(pessimist, ghost, cell).caught == 0]
            shown = "; ".join(where(lesson.layout, cell) for cell in cells[:12])
            more = f"; and {len(cells) - 12} more" if len(cells) > 12 else ""
            lines.append(f"  vs {ghost}: {optimist} caught in most games and {pessimist} never, from "
                         f"{len(cells)} cells" + (f": {shown}{more}" if cells else ""))
    return lines


# -- the figure -----------------------------------------------------------

def plot_map(lesson: LessonMap, path: str | Path, dpi: int = 100) -> None:
    """The maze once per Pacman (columns) and ghost (rows), each start cell
    coloured by how often that Pacman was caught from it by that ghost."""
    from pacsim.report.plot import _pyplot, _save

    pyplot = _pyplot()
    colours = pyplot.get_cmap("Reds")
    layout = lesson.layout
    rows, columns = len(lesson.ghosts), len(lesson.pacmen)
    figure, axes = pyplot.subplots(rows, columns, squeeze=False,
                                   figsize=(0.32 * layout.width * columns + 1.2, 0.32 * layout.height * rows + 1.0))
    for row, ghost in enumerate(lesson.ghosts):
        for column, pacman in enumerate(lesson.pacmen):
            total = lesson.totals(pacman, ghost)
            axis = axes[row][column]
            image = axis.imshow(_grid(lesson, pacman, ghost), cmap=colours, vmin=0, vmax=1)
            _draw_maze(axis, layout, lesson.cells)
            _draw_counts(axis, lesson, pacman, ghost)
            axis.set_title(f"{pacman} vs {ghost}: caught {total.caught}/{total.games}", fontsize=8)
            axis.set_xticks([])
            axis.set_yticks([])
    colourbar = figure.colorbar(image, ax=axes, shrink=0.8)
    colourbar.set_label("share of games caught", fontsize=8)
    colourbar.ax.tick_params(labelsize=7)
    figure.suptitle(f"{layout.name}: games caught of {lesson.games_per_cell} from each start cell "
                    "(framed: the maze's own start)", fontsize=9)
    _save(figure, pyplot, path, dpi=dpi)


def _grid(lesson: LessonMap, pacman: str, ghost: str) -> Any:
    """The caught share of every start cell as an image; NaN (not drawn) elsewhere."""
    import numpy

    grid = numpy.full((lesson.layout.height, lesson.layout.width), numpy.nan)
    for cell in lesson.cells:
        row, column = lesson.layout.cells[cell]
        grid[row, column] = lesson.count(pacman, ghost, cell).caught_share
    return grid


def _draw_counts(axis: Any, lesson: LessonMap, pacman: str, ghost: str) -> None:
    """Each start cell's caught games as a number (none where none was caught); the maze's own start framed."""
    from matplotlib.patches import Rectangle

    for cell in lesson.cells:
        row, column = lesson.layout.cells[cell]
        count = lesson.count(pacman, ghost, cell)
        if count.caught:
            axis.text(column, row, str(count.caught), ha="center", va="center", fontsize=5,
                      color="white" if count.caught_share > 0.6 else "black")
    row, column = lesson.layout.cells[lesson.layout.pacman_start]
    axis.add_patch(Rectangle((column - 0.45, row - 0.45), 0.9, 0.9, fill=False, edgecolor="#1f77b4", linewidth=1.2))


def _draw_maze(axis: Any, layout: Layout, cells: Sequence[int]) -> None:
    """Walls as dark squares, food as dots, ghosts' starts as G, other non-start cells pale."""
    from matplotlib.patches import Rectangle

    for row, column in layout.walls:
        axis.add_patch(Rectangle((column - 0.5, row - 0.5), 1, 1, color="#1f2a60"))
    starts = set(cells)
    for cell, (row, column) in enumerate(layout.cells):
        if cell in starts:
            continue
        axis.add_patch(Rectangle((column - 0.5, row - 0.5), 1, 1, color="#e8e8e8"))
        if layout.food >> cell & 1:
            axis.plot(column, row, "o", color="#d9a400", markersize=3)
        if cell in layout.ghost_starts:
            axis.text(column, row, "G", ha="center", va="center", fontsize=7, color="#b00000")
    axis.set_xlim(-0.5, layout.width - 0.5)
    axis.set_ylim(layout.height - 0.5, -0.5)


# -- the trees ------------------------------------------------------------

def tree_pages(lesson: LessonMap) -> Iterator[tuple[TrapGame, str]]:
    """Each linked game's search tree at its trap move (:mod:`pacsim.web.tree`),
    as a page: both Pacmen's trees side by side where the other would have
    chosen otherwise, else the caught Pacman's; none for a Pacman that does not search."""
    from pacsim.web.frames import move_positions
    from pacsim.web.tree import compare_page, move_tree, tracing_pacman

    for trap in lesson.traps.values():
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
body{font-family:system-ui,sans-serif;margin:1.5em;max-width:70em;color:#222}
.panels{display:flex;flex-wrap:wrap;gap:1.5em;margin-bottom:1em}
pre{white-space:pre-wrap}
.maze td.start{outline:2px solid #1f77b4;outline-offset:-2px}
.panel h3{font-size:1em;margin:.3em 0}
.maze{border-collapse:collapse}
.maze td{width:26px;height:26px;padding:0;text-align:center;font-size:10px}
.maze td.wall{background:#1f2a60}
.maze td.open{background:#e8e8e8}
.maze td a{display:block;width:100%;height:100%;line-height:26px;color:inherit;text-decoration:none}
.food{color:#d9a400}.ghost{color:#b00000;font-weight:bold}
.legend span{display:inline-block;width:2.2em;text-align:center;font-size:11px}
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
    const data = JSON.stringify(game.data).replace(/<\\//g, "<\\\\/");
    const text = games.template.replace(games.headingSlot, () => game.heading).replace(games.gameSlot, () => data);
    const url = URL.createObjectURL(new Blob([text], {type: "text/html"}));
    window.open(`${url}#move=${link.dataset.move}`, "_blank");
  });
}
"""


def map_page(lesson: LessonMap, tree_command: str = "pacsim tree", trees: Mapping[int, str] | None = None) -> str:
    """The map as one self-contained HTML page: a maze per Pacman and ghost,
    each start cell coloured by its caught share and linking to its cell's
    section, which names a caught game, opens its replay at the trap move
    and gives the command that draws the search tree there."""
    from pacsim.web.player import GAME_SLOT, HEADING_SLOT, page_template

    games: dict[str, Any] = {"template": page_template(f"pacsim replay: {lesson.layout.name}"),
                             "headingSlot": HEADING_SLOT, "gameSlot": GAME_SLOT}
    for trap in lesson.traps.values():
        games[str(trap.game_id)] = _replay_data(lesson, trap)
    panels = ['<div class="panels">' + "".join(_panel(lesson, pacman, ghost) for pacman in lesson.pacmen) + "</div>"
              for ghost in lesson.ghosts]  # a row per ghost, the Pacmen side by side
    sections = [_cell_section(lesson, cell, tree_command, trees or {}) for cell in lesson.cells
                if any((pacman, ghost, cell) in lesson.traps for pacman in lesson.pacmen for ghost in lesson.ghosts)]
    title = f"pacsim lesson map: {lesson.layout.name}"
    data = json.dumps(games, separators=(",", ":")).replace("</", "<\\/")
    summary = "\n".join(html.escape(line) for line in summary_lines(lesson))
    return "\n".join([
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">', f"<title>{html.escape(title)}</title>",
        f"<style>{PAGE_STYLE}</style></head><body>", f"<h1>{html.escape(title)}</h1>",
        f"<p>How often each Pacman is caught, by the cell it starts on: {lesson.games_per_cell} games from each "
        f"start cell for every Pacman and ghost, the same seeds for every Pacman. Store: "
        f"<code>{html.escape(str(lesson.store))}</code>. Click a cell for a game in which it was caught; the framed cell is the maze's own start.</p>",
        f"<pre>{summary}</pre>", _legend(), *panels,
        "<h2>Caught games, cell by cell</h2>",
        "<p>The trap move is the Pacman move whose choice sprang the trap: where the caught game parted from "
        "the other Pacman's game on the same seed (when a Pacman's choice parted them), else the caught "
        "Pacman's last move from a junction. <em>replay</em> opens the game at that move; the command draws "
        "the tree the Pacman searched there.</p>",
        *sections, f'<script type="application/json" id="games">{data}</script>',
        f"<script>{PAGE_SCRIPT}</script>", "</body></html>", ""])


def _replay_data(lesson: LessonMap, trap: TrapGame) -> dict[str, Any]:
    from pacsim.web.frames import game_data
    from pacsim.web.player import describe_game

    saved = load_saved_game(lesson.store, trap.game_id)
    states = saved.states()
    data = game_data(states, title=f"pacsim replay: {saved.layout.name}", outcome=saved.outcome,
                     recorded_score=saved.score)
    data["standalone"] = True
    return {"data": data, "heading": html.escape(describe_game(saved, states, saved.outcome))}


def _colour(share: float) -> str:
    """White (never caught) to deep red (always), as the PNG's scale."""
    red, green, blue = 255 - int(52 * share), 245 - int(230 * share), 240 - int(220 * share)
    return f"rgb({red},{green},{blue})"


def _legend() -> str:
    steps = [index / 4 for index in range(5)]
    spans = "".join(f'<span style="background:{_colour(step)}">{step:.0%}</span>' for step in steps)
    return f'<p class="legend">share of games caught: {spans}</p>'


def _panel(lesson: LessonMap, pacman: str, ghost: str) -> str:
    layout = lesson.layout
    total = lesson.totals(pacman, ghost)
    starts = set(lesson.cells)
    rows = []
    for row in range(layout.height):
        cells = []
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
    heading = f"{pacman} vs {ghost}: caught {total.caught}/{total.games}"
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
                               f"--move {trap.trap_move}")
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
                f"<code>pacsim replay {store} --game {trap.game_id} --html game{trap.game_id}.html</code></li>")
    return (f'<section class="cell" id="cell-{cell}"><h3>Start {where(lesson.layout, cell)}</h3>'
            f"<ul>{''.join(items)}</ul></section>")
