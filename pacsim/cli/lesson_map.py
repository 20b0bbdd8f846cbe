"""``pacsim lesson-map``: where on the maze optimism walks into the trap.

Plays, from every empty start cell of a maze, N games of each Pacman of an
experiment (by default the optimism/pessimism reproduction's) against each
of its ghosts, on the same seeds for every Pacman, as an experiment of its
own (``starts = "every"``: game i starts on the i mod C-th of the C start
cells), stored and resumed like every run.  Then draws the maze as a heat
map of how often each Pacman was caught from each cell (PNG, and an HTML
page linking each caught cell to a replay and to the search tree at the
move that sprang the trap): one map per value of each of the grid's other
axes (depth, an option), never pooled, each in files of its own.  :mod:`pacsim.report.lesson_map` says what the
trap move is.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from pacsim.cli.run import add_executor_options, execute
from pacsim.errors import ConfigError, PacsimError, install_hint
from pacsim.files import check_output, write_atomically
from pacsim.shipped import shipped_experiment

if TYPE_CHECKING:  # --help imports neither pandas nor the runner
    from pacsim.report.lesson_map import LessonMap, MapSetting
    from pacsim.runner.experiment import Experiment

EXPERIMENT = "optimism_pessimism.toml"
DEFAULT_GAMES = 20
"""Games from each start cell for each Pacman and ghost (50 cells x 4 conditions x 20 is 4,000 games on optimismHalls)."""
DEFAULT_START_DISTANCE = 1
"""Every empty cell but a ghost's own: the cells next to a ghost show where no Pacman escapes."""
MAP_SUFFIX = "-map"
"""The map's experiment is named after the one it maps: ``optimism_pessimism-map``."""
TREE_COMMAND = "pacsim tree"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-l", "--layout", default=None,
                        help="the maze (default: the experiment's, optimismHalls); shipped name, file or generated spec")
    parser.add_argument("-n", "--games", type=int, default=DEFAULT_GAMES,
                        help=f"games from each start cell for each Pacman and ghost (default {DEFAULT_GAMES})")
    parser.add_argument("--depth", type=int, default=None, help="the Pacmen's search depth (default: the experiment's, 4)")
    parser.add_argument("--start-distance", type=int, default=DEFAULT_START_DISTANCE,
                        help="fewest maze steps between a start cell and every ghost (default 1: every empty cell)")
    parser.add_argument("--experiment", default=None, help=f"experiment file (default experiments/{EXPERIMENT})")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                        help="override a key of the experiment file, e.g. --set seed=4711")
    parser.add_argument("--store", default=None, help="results store (default: the experiment's)")
    parser.add_argument("--png", metavar="FILE.png", default=None,
                        help="the heat map as a figure (default results/NAME-map-MAZE-SETTINGS.png; needs the plot extra)")
    parser.add_argument("--html", metavar="FILE.html", default=None,
                        help="the map as a self-contained page (default results/NAME-map-MAZE-SETTINGS.html)")
    parser.add_argument("--no-trees", action="store_true",
                        help="no tree pages (by default each linked game's search tree at its trap move is written "
                             "beside the page, in PAGE-trees/)")
    parser.add_argument("-j", "--workers", type=int, default=None, help="worker processes (default: all cores)")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    add_executor_options(parser)


def run(args: argparse.Namespace) -> int:
    from pacsim.report.lesson_map import MAP_READS, build_map, map_settings, summary_lines
    from pacsim.runner import load_results

    experiment, cells, layout = plan(args)
    settings = map_settings(experiment.conditions.grid, list(experiment.conditions))
    outputs = [output_paths(args, experiment, layout.name, setting, len(settings)) for setting in settings]
    for png, page in outputs:
        if png.suffix.lower() != ".png":
            raise ConfigError(f"--png {png}: must end in .png")
        check_output(png, "--png", inputs=[experiment.store])
        check_output(page, "--html", inputs=[experiment.store])
    result = execute(experiment, args)
    print(f"{experiment.name}: {result.played} games played, {result.skipped} already in {result.store} "
          f"({result.seconds:.1f}s)")
    games = experiment.own_games(load_results(result.store, columns=MAP_READS))
    for setting, (png, page) in zip(settings, outputs):
        mine = games[games["condition_key"].isin(setting.conditions)]
        lesson = build_map(mine, layout, result.store, cells, args.games, describe(experiment, setting),
                           setting=setting.words())
        print("\n".join(summary_lines(lesson)))
        draw(lesson, png, page, args.no_trees)
    return 0


def draw(lesson: LessonMap, png: Path, page: Path, no_trees: bool) -> None:
    """One map's page (and its trees) and figure."""
    from pacsim.report.lesson_map import plot_map
    from pacsim.web.cli import write_page
    from pacsim.web.lesson_map import map_page

    write_page(str(page), map_page(lesson, TREE_COMMAND, write_trees(lesson, page, none=no_trees)))
    print(f"page: {page}")
    try:
        plot_map(lesson, png)
        print(f"figure: {png}")
    except PacsimError as error:
        if "matplotlib" not in str(error):
            raise
        print(f"pacsim: note: no figure: it needs matplotlib; {install_hint('plot')}")


def output_paths(args: argparse.Namespace, experiment: Experiment, maze: str, setting: MapSetting,
                 maps: int) -> tuple[Path, Path]:
    """A map's figure and page: by default named after the experiment, the maze and the map's settings (two
    maps never share files); ``--png``/``--html`` as given, with the split values added when there are several maps."""
    from pacsim.report.lesson_map import map_name

    identity = [sorted(setting.conditions), experiment.seed, experiment.max_moves, args.start_distance]
    name = map_name(experiment.name, maze, setting, identity)
    png = Path(args.png) if args.png else experiment.store.parent / f"{name}.png"
    page = Path(args.html) if args.html else experiment.store.parent / f"{name}.html"
    if maps > 1:
        png = png.with_name(f"{png.stem}-{setting.slug()}{png.suffix}") if args.png else png
        page = page.with_name(f"{page.stem}-{setting.slug()}{page.suffix}") if args.html else page
    return png, page


TREE_PAGE = "game*-move*.html"
"""The tree pages' names in a map's folder (what a new map of the same page replaces)."""


def write_trees(lesson: LessonMap, page: Path, none: bool = False) -> dict[int, str]:
    """Each linked game's tree page, in a folder beside ``page``: game id -> its address from the page.
    Tree pages of an earlier map of the same page that this one does not link are removed (``none``: all)."""
    from pacsim.web.lesson_map import tree_pages

    folder = page.with_name(f"{page.stem}-trees")
    written: dict[int, str] = {}
    for trap, text in ([] if none else tree_pages(lesson)):
        path = check_output(folder / f"game{trap.game_id}-move{trap.trap_move}.html", "--html")
        write_atomically(path, text, "the tree")
        written[trap.game_id] = f"{folder.name}/{path.name}"
    stale = [path for path in folder.glob(TREE_PAGE) if f"{folder.name}/{path.name}" not in written.values()]
    for path in stale:
        path.unlink()
    if folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
    if written or stale:
        print(f"trees: {len(written)} pages in {folder}" + (f" (removed {len(stale)} old one{'' if len(stale) == 1 else 's'})" if stale else ""))
    plugins = sorted({trap.plugin for trap in lesson.traps.values() if trap.plugin is not None})
    if plugins:
        print(f"pacsim: note: no trees for {', '.join(map(repr, plugins))}: plugin code, which pacsim never imports "
              f"from a store; to trace one as you, name it yourself: {TREE_COMMAND} --store STORE --game ID --pacman SPEC")
    return written


def plan(args: argparse.Namespace):
    """The map's experiment (games = N x the start cells), its start cells and its maze (Pacman at its own start)."""
    from pacsim.engine import parse_layout
    from pacsim.engine.starts import EVERY, start_cells
    from pacsim.runner import load_experiment

    if args.games < 1:
        raise ConfigError(f"--games {args.games}: must be at least 1")
    if args.start_distance < 1:
        raise ConfigError(f"--start-distance {args.start_distance}: must be at least 1")
    path = Path(args.experiment) if args.experiment else shipped_experiment(EXPERIMENT)
    overrides = [*args.overrides, f"starts={EVERY}", f"start_distance={args.start_distance}"]
    if args.layout is not None:
        _check_maze(args.layout)
        overrides.append(f"grid.layout={_toml_list(args.layout)}")
    if args.depth is not None:
        overrides.append(f"grid.depth=[{args.depth}]")
    first = load_experiment(path, games=1, overrides=overrides, store=args.store)
    _check_one_maze(path, first.conditions.grid)
    mazes = {(condition.layout, condition.num_ghosts, condition.layout_text) for condition in first.conditions}
    if len(mazes) != 1:
        raise ConfigError(f"{path}: a lesson map draws one maze with one ghost count; this grid has {len(mazes)} "
                          "(choose one with -l)")
    name, num_ghosts, text = mazes.pop()
    layout = parse_layout(text, name=name, source=name)
    cells = start_cells(layout, num_ghosts, args.start_distance)
    experiment = load_experiment(path, games=args.games * len(cells), store=args.store,
                                 overrides=[*overrides, f"name={first.name}{MAP_SUFFIX}"])
    return experiment, cells, layout


def _check_one_maze(path: Path, grid: dict) -> None:
    """A grid of several mazes (or ghost counts) is refused, naming the axis and how to choose: each maze has
    its own start cells, and so its own games."""
    from pacsim.report.lesson_map import MAZE_AXES

    for axis, choose in MAZE_AXES.items():
        values = grid.get(axis, [])
        if len(values) > 1:
            shown = ", ".join(map(str, values))
            raise ConfigError(f"{path}: grid.{axis} has {len(values)} values ({shown}): a lesson map draws one maze "
                              f"with one ghost count; choose one with {choose}")


def _check_maze(name: str) -> None:
    """A maze ``-l`` names that leads nowhere is said as ``-l``'s mistake, not the experiment file's."""
    from pacsim.engine import find_layout
    from pacsim.engine.generate import is_generated

    if is_generated(name):
        return  # the experiment checks a generated spec, naming it
    try:
        find_layout(name)
    except PacsimError as error:
        raise ConfigError(f"-l {error}") from None


def _toml_list(name: str) -> str:
    """``[ "NAME" ]`` as TOML, the name's quotes and backslashes escaped."""
    return '["' + name.replace("\\", "\\\\").replace('"', '\\"') + '"]'


def describe(experiment: Experiment, setting: MapSetting) -> str:
    """The map's setting in a few words: its Pacmen's options (depth first), root seed and move cap."""
    condition = next(condition for condition in experiment.conditions if condition.key in setting.conditions)
    searching = next((other for other in experiment.conditions
                      if other.key in setting.conditions and other.depth is not None), condition)
    options = ", ".join(f"{key}={value}" for key, value in searching.pacman_options.items() if key != "depth")
    depth = f"depth {searching.depth}, " if searching.depth is not None else ""
    return (f"{depth}{options or 'default options'}, root seed {experiment.seed}, "
            f"{experiment.max_moves}-move cap")
