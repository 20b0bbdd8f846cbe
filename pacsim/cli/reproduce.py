"""``pacsim reproduce``: run the optimism/pessimism experiment and print the
lecture's table beside ours, the paired test of point 3, and which of its
pattern points hold.  ``experiments/README.md`` says what each point means
and how the maze was found."""

from __future__ import annotations

import argparse
from pathlib import Path

from pacsim.cli.run import add_executor_options, execute
from pacsim.errors import ConfigError
from pacsim.shipped import shipped_experiment

EXPERIMENT = "optimism_pessimism.toml"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-n", "--games", type=int, default=None, help="games per cell (default: the file's, 500)")
    parser.add_argument("-j", "--workers", type=int, default=None, help="worker processes (default: all cores)")
    parser.add_argument("--store", default=None, help="results store (default results/optimism_pessimism.sqlite)")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                        help="override a key of the experiment file, e.g. --set seed=9173 (fresh seeds)")
    parser.add_argument("--experiment", default=None, help=f"experiment file (default experiments/{EXPERIMENT})")
    parser.add_argument("--plot", metavar="FILE.png", default=None,
                        help="also save the table beside the published one as a figure (.png, .pdf or .svg)")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    add_executor_options(parser)


def run(args) -> int:
    from pacsim.report.optimism import SHIPPED_CAVEATS, assess, render
    from pacsim.report.plot import check_plot_path, plot_reproduction
    from pacsim.runner import load_experiment, load_results

    if args.games is not None and args.games < 1:
        raise ConfigError(f"--games {args.games}: must be at least 1")
    if args.plot:
        check_plot_path(args.plot)
    path = Path(args.experiment) if args.experiment else shipped_experiment(EXPERIMENT)
    experiment = load_experiment(path, games=args.games, overrides=args.overrides, store=args.store)
    for note in experiment.notes:
        print(f"pacsim: note: {note}")
    result = execute(experiment, args)
    print(f"{experiment.name}: {result.played} games played, {result.skipped} already in {result.store} "
          f"({result.seconds:.1f}s)\n")
    results = load_results(result.store)
    results = results[results["config_hash"] == result.config_hash]
    results = results[results["game_index"] < experiment.games]
    print(render(results))
    if args.experiment is None:
        print("\n" + "\n".join(SHIPPED_CAVEATS))
    if args.plot:
        plot_reproduction(assess(results), args.plot)
        print(f"figure: {args.plot}")
    return 0
