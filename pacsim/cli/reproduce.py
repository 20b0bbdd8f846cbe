"""``pacsim reproduce``: run the optimism/pessimism experiment and tell its
story (:mod:`pacsim.report.lesson`): the published table, pacsim in the
slide's own setting (the maze's own start, 5 games a cell), pacsim measured
on genuine samples, the slide read as a sample of each measured cell, the
lesson point by point, and every choice made.
``experiments/optimism_pessimism/README.md`` says how the maze was found."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pacsim.cli.run import add_executor_options, execute
from pacsim.engine.starts import DECISIONS, LAYOUT, STARTS
from pacsim.errors import ConfigError
from pacsim.files import check_output
from pacsim.shipped import shipped_experiment

EXPERIMENT = "optimism_pessimism.toml"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-n", "--games", type=int, default=None, help="games per cell (default: the file's, 500)")
    parser.add_argument("-j", "--workers", type=int, default=None, help="worker processes (default: all cores)")
    parser.add_argument("--store", default=None, help="results store (default results/optimism_pessimism.sqlite)")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                        help="override a key of the experiment file, e.g. --set seed=9173 (fresh seeds)")
    parser.add_argument("--starts", choices=STARTS, default=None,
                        help="where Pacman starts in the measured table: the maze's own start (layout), a random "
                             "cell (random, the default), or a cell of the opening book where the Pacmen part "
                             "ways (decisions)")
    parser.add_argument("--experiment", default=None, help=f"experiment file (default experiments/{EXPERIMENT})")
    parser.add_argument("--plot", metavar="FILE.png", default=None,
                        help="also save the table beside the published one as a figure (.png, .pdf or .svg)")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    add_executor_options(parser)


def run(args) -> int:
    from pacsim.report.lesson import SLIDE_SETTING_SUFFIX, Setting, story
    from pacsim.report.optimism import SLIDE_GAMES, assess
    from pacsim.report.plot import check_plot_path, missing_plot_note, plot_reproduction
    from pacsim.runner import load_experiment

    if args.games is not None and args.games < 1:
        raise ConfigError(f"--games {args.games}: must be at least 1")
    if args.plot:
        check_plot_path(args.plot)
        note = missing_plot_note()
        if note:  # said before the games, which still play and tell their story
            print(f"pacsim: note: {note}", file=sys.stderr)
            args.plot = None
    path = Path(args.experiment) if args.experiment else shipped_experiment(EXPERIMENT)
    overrides = args.overrides + ([f"starts={args.starts}"] if args.starts else [])
    experiment = load_experiment(path, games=args.games, overrides=overrides, store=args.store)
    if args.plot:  # before the games: neither a place that cannot be written nor an input (the store, the file)
        check_output(args.plot, "--plot", inputs=[experiment.store])
    # The slide's own sample: the maze's own start, 5 games a cell (fewer if --games
    # says so), the same root seed, stored as its own experiment beside the measured one.
    slide = load_experiment(path, games=min(SLIDE_GAMES, experiment.games), store=experiment.store,
                            overrides=overrides + [f"starts={LAYOUT}", f"name={experiment.name}{SLIDE_SETTING_SUFFIX}"])
    for note in experiment.notes:
        print(f"pacsim: note: {note}")
    slide_games = _play(slide, args)
    results = _play(experiment, args)
    print()
    setting = Setting(root_seed=experiment.seed, starts=starts_in_words(experiment), shipped=args.experiment is None,
                      book=experiment.book.disclosure() if experiment.starts == DECISIONS and experiment.book else None)
    print(story(results, setting, slide_games))
    if args.plot:
        plot_reproduction(assess(results), args.plot)
        print(f"figure: {args.plot}")
    return 0


def _play(experiment, args):
    """Play what the store lacks; the experiment's games (this run's, first ``games`` of each condition)."""
    from pacsim.runner import load_results

    result = execute(experiment, args)
    print(f"{experiment.name}: {result.played} games played, {result.skipped} already in {result.store} "
          f"({result.seconds:.1f}s)")
    results = load_results(result.store)
    results = results[results["config_hash"] == result.config_hash]
    return results[results["game_index"] < experiment.games]


def starts_in_words(experiment) -> str:
    if experiment.starts == LAYOUT:
        return "from the maze's own start"
    if experiment.starts == DECISIONS:
        return "decision starts (the opening book's cells in turn)"
    return (f"random starts (an empty cell at least {experiment.start_distance} steps from the ghost, "
            "drawn from each game's seed)")
