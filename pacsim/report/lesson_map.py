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

import hashlib
import itertools
import json
import re
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas

from pacsim.agents.registry import named_code
from pacsim.engine.game import LOSS, TIMEOUT, WIN
from pacsim.engine.layout import STOP, Layout
from pacsim.engine.recording import SavedGame
from pacsim.engine.state import GameState
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
PANEL_AXES = ("pacman", "ghosts")
"""The grid's axes a map draws side by side: a maze per Pacman (columns) and ghost (rows)."""
MAZE_AXES = {"layout": "-l NAME", "num_ghosts": "--set grid.num_ghosts=[N]"}
"""The axes a map cannot split (the start cells, and so the games, are the maze's): how to choose one value."""
_UNSET = object()


@dataclass(frozen=True)
class MapSetting:
    """One map of an experiment: a value of each of its grid's other axes (depth, an option)."""

    values: tuple[tuple[str, Any], ...]
    """(axis, value) of each such axis, in grid order; empty when the grid has none."""
    conditions: frozenset[str]
    """The condition keys whose games the map counts (a Pacman without the axis's option is in every map)."""

    def words(self) -> str:
        return ", ".join(f"{axis}={value}" for axis, value in self.values)

    def slug(self) -> str:
        """The values as a file name's part: ``depth2``."""
        return "-".join(_file_part(f"{axis}{value}") for axis, value in self.values)


def map_settings(grid: dict[str, list[Any]], conditions: Sequence[Any]) -> list[MapSetting]:
    """One map per combination of the values of ``grid``'s axes other than :data:`PANEL_AXES` and
    :data:`MAZE_AXES` (the caller refuses several mazes), each with its conditions.  A single-valued axis
    (``depth = [4]``) splits nothing but is named all the same: it is part of what the map shows."""
    axes = [axis for axis in grid if axis not in PANEL_AXES and axis not in MAZE_AXES]
    settings = []
    for combination in itertools.product(*(grid[axis] for axis in axes)):
        keys = frozenset(condition.key for condition in conditions
                         if all(_axis_value(condition, axis) in (_UNSET, value) for axis, value in zip(axes, combination)))
        settings.append(MapSetting(tuple(zip(axes, combination)), keys))
    return settings


def _axis_value(condition: Any, axis: str) -> Any:
    """A condition's value of an option axis; :data:`_UNSET` for an agent that does not take the option."""
    return condition.pacman_options.get(axis, condition.ghost_options.get(axis, _UNSET))


def map_name(experiment: str, layout: str, setting: MapSetting, identity: Sequence[Any]) -> str:
    """The map's files' name: the experiment's, the maze, the split values and six hex digits of the
    rest of its settings (``identity``: its conditions, seed, move cap), so that two maps never share files
    and the same map drawn again replaces its own."""
    digest = hashlib.sha256(json.dumps(list(identity), sort_keys=True, default=str).encode()).hexdigest()[:6]
    parts = [_file_part(experiment), _file_part(short_maze_name(layout)), setting.slug(), digest]
    return "-".join(part for part in parts if part)


def short_maze_name(name: str) -> str:
    """A shipped maze's name as it is; a maze file's without its folders and suffix (``pocket``)."""
    return Path(name).stem if name.endswith(".lay") else name


def _file_part(text: str) -> str:
    return re.sub(r"[^-A-Za-z0-9_.=]+", "_", text).strip("_")


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
    plugin: str | None = None
    """The caught Pacman's stored spec when it runs plugin code: never searched
    again from the store (no tree page), since that would import it."""

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
    setting: str = ""
    """The values of the grid's other axes this map draws (``depth=2``, see :func:`map_settings`); empty without any."""

    @property
    def title(self) -> str:
        """The maze (a file's by its name alone) and the map's values: what tells it from the experiment's other maps."""
        return short_maze_name(self.layout.name) + (f", {self.setting}" if self.setting else "")

    def games_from_each(self) -> str:
        """The games actually stored from each start cell, per Pacman and ghost: ``3`` or ``1 to 3``."""
        counts = {self.count(pacman, ghost, cell).games for pacman in self.pacmen for ghost in self.ghosts
                  for cell in self.cells}
        low, high = (min(counts), max(counts)) if counts else (0, 0)
        return str(low) if low == high else f"{low} to {high}"

    def games_from_each_words(self) -> str:
        """``1 game``, ``3 games``, ``1 to 3 games``."""
        count = self.games_from_each()
        return f"{count} game{'' if count == '1' else 's'}"

    def count(self, pacman: str, ghost: str, cell: int) -> CellCount:
        return self.counts.get((pacman, ghost, cell), CellCount(0, 0, 0, 0))

    def caught_cells(self, pacman: str, ghost: str, share: float = 0.5) -> list[int]:
        """The start cells from which ``pacman`` is caught by ``ghost`` in more than ``share`` of its games."""
        return [cell for cell in self.cells if self.count(pacman, ghost, cell).caught_share > share]

    def totals(self, pacman: str, ghost: str) -> CellCount:
        parts = [self.count(pacman, ghost, cell) for cell in self.cells]
        return CellCount(*(sum(getattr(part, name) for part in parts) for name in ("games", "caught", "won", "stalled")))


def build_map(results: pandas.DataFrame, layout: Layout, store: str | Path, cells: Sequence[int],
              games_per_cell: int, description: str = "", traps: bool = True, setting: str = "") -> LessonMap:
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
                       games_per_cell=games_per_cell, counts=counts, description=description, setting=setting)
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
            specs=(other_spec, saved.pacman) if differs and other_spec is not None else (),
            plugin=saved.pacman if named_code(saved.pacman) is not None else None)
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
    (``other`` agrees throughout, does not search, runs plugin code, or is None) the last
    move from a junction (:data:`JUNCTION`)."""
    from pacsim.agents.api import ValuingAgent
    from pacsim.agents.registry import make_pacman
    from pacsim.engine.game import agent_rng
    from pacsim.engine.streams import streams_of

    states = caught.states()
    searchable = other is not None and named_code(other) is None  # a store's plugin is never imported
    agent = make_pacman(other) if other is not None and searchable else None
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
    lines = [f"{lesson.title}: {len(lesson.cells)} start cells, {lesson.games_from_each_words()} from each, "
             "per Pacman and ghost" + (f" ({lesson.description})" if lesson.description else "")]
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
                         f"{len(cells)} cell{'' if len(cells) == 1 else 's'}" + (f": {shown}{more}" if cells else ""))
    return lines


# -- the figure -----------------------------------------------------------

def plot_map(lesson: LessonMap, path: str | Path, dpi: int = 100) -> None:
    """The maze once per Pacman (columns) and ghost (rows), each start cell
    coloured by how often that Pacman was caught from it by that ghost."""
    from pacsim.report.plot import headless_pyplot, save_figure

    pyplot = headless_pyplot()
    colours = pyplot.get_cmap("Reds")
    layout = lesson.layout
    rows, columns = len(lesson.ghosts), len(lesson.pacmen)
    width = max(0.32 * layout.width, 3.2) * columns + 1.6  # a small maze's panel still holds its two-line title
    words = (f"{lesson.title}: games caught of the {lesson.games_from_each()} played from each start cell "
             f"({lesson.description + '; ' if lesson.description else ''}framed: the maze's own start; "
             "rows and columns numbered as the text names cells)")
    heading = textwrap.fill(words, int(width * 11))
    above = 0.2 * (heading.count("\n") + 1) + 0.3  # inches the heading takes, so it clears the panels' titles
    height = (0.32 * layout.height + 0.7) * rows + above + 0.3
    figure, axes = pyplot.subplots(rows, columns, squeeze=False, figsize=(width, height))
    figure.subplots_adjust(top=1 - above / height, bottom=0.3 / height, hspace=0.45)
    for row, ghost in enumerate(lesson.ghosts):
        for column, pacman in enumerate(lesson.pacmen):
            total = lesson.totals(pacman, ghost)
            axis = axes[row][column]
            image = axis.imshow(_grid(lesson, pacman, ghost), cmap=colours, vmin=0, vmax=1)
            _draw_maze(axis, layout, lesson.cells)
            _draw_counts(axis, lesson, pacman, ghost)
            axis.set_title(f"{pacman} vs {ghost}\ncaught in {total.caught} of {total.games} games", fontsize=8)
            _number_rows_and_columns(axis, layout)
    colourbar = figure.colorbar(image, ax=axes, shrink=0.8)
    colourbar.set_label("share of games caught", fontsize=8)
    colourbar.ax.tick_params(labelsize=7)
    figure.suptitle(heading, fontsize=9)
    save_figure(figure, pyplot, path, dpi=dpi)


def _number_rows_and_columns(axis: Any, layout: Layout) -> None:
    """Rows and columns numbered from 1, top left, as :func:`where` names a cell."""
    step = 1 if max(layout.width, layout.height) <= 30 else 2
    axis.set_xticks(range(0, layout.width, step), [str(column + 1) for column in range(0, layout.width, step)])
    axis.set_yticks(range(0, layout.height, step), [str(row + 1) for row in range(0, layout.height, step)])
    axis.tick_params(labelsize=5, length=1.5, pad=1, top=True, labeltop=True)


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
