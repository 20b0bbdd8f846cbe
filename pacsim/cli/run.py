"""``pacsim run EXP.toml``: play an experiment into its results store (resumable), then summarize it."""

from __future__ import annotations

import argparse
import functools
from pathlib import Path
from typing import TYPE_CHECKING

from pacsim.cli.common import add_debug_option
from pacsim.errors import ConfigError, did_you_mean
from pacsim.shipped import find_experiment, shipped_experiments

if TYPE_CHECKING:
    from pacsim.runner import Experiment, RunResult


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("experiment", metavar="EXP.toml", help="the experiment file, or a shipped experiment's name (pacsim experiments lists them)")
    parser.add_argument("-j", "--workers", type=int, default=None,
                        help="worker processes (default: all cores; 1 plays in this process)")
    parser.add_argument("-n", "--games", type=int, default=None, help="games per condition (overrides the file)")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                        help="override a setting, e.g. max_moves=500 or pacman_options.eval=careful (repeatable)")
    parser.add_argument("--store", default=None, help="results store (default: the file's store)")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bar and no summary")
    parser.add_argument("--sandbox", action="store_true",
                        help="play each plugin agent in its own sandboxed process (as sandbox = true in the file; docs/sandbox.md)")
    add_debug_option(parser)
    add_executor_options(parser)


def add_executor_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--executor", choices=("local", "dask"), default="local",
                        help="where the games run: a local process pool (default) or a Dask cluster")
    # The flag's first name; "backend" now means the search's (the agents' backend= option).
    parser.add_argument("--backend", dest="executor", choices=("local", "dask"), help=argparse.SUPPRESS)
    parser.add_argument("--scheduler", metavar="tcp://HOST:8786", default=None,
                        help="Dask scheduler address (default: start a LocalCluster)")


def execute(experiment: Experiment, args: argparse.Namespace) -> RunResult:
    """Run ``experiment`` on the executor the options ask for.

    A run whose every game ended in ``error`` raises :class:`AllGamesFailed`
    (exit status 2): its results would mean nothing."""
    from pacsim.runner import run_experiment
    from pacsim.runner.execute import AllGamesFailed

    if args.scheduler and args.executor != "dask":
        raise ConfigError("--scheduler goes with --executor dask")
    if args.executor == "dask":
        from pacsim.runner.dask_executor import dask_executor

        with dask_executor(args.scheduler, args.workers) as executor:
            result = run_experiment(experiment, executor=executor, workers=args.workers, quiet=args.quiet)
    else:
        result = run_experiment(experiment, workers=args.workers, quiet=args.quiet)
    if result.played and result.errors == result.played:
        raise AllGamesFailed(f"all {result.played} games played ended in error; the first: {_first_line(result.first_error)}")
    if result.played and result.crashes == result.played:
        raise AllGamesFailed(f"all {result.played} games played crashed: their worker process died")
    return result


def _first_line(text: str | None) -> str:
    """An agent's message as a line for the terminal: its first line, escape codes shown escaped."""
    from pacsim.printable import printable

    return printable((text or "").strip().splitlines()[0]) if (text or "").strip() else "(no message)"


def describe(experiment: Experiment, result: RunResult) -> str:
    """The line saying what a run did."""
    retried = f" ({result.retried} of them errors or crashes of an earlier run, played again)" if result.retried else ""
    line = (f"{experiment.name}: played {result.played} games{retried}, {result.skipped} already in {result.store} "
            f"({result.seconds:.1f}s)")
    if result.errors:
        line += f"\n{result.errors} ended in error (played again by the next run); the first: {_first_line(result.first_error)}"
    if result.crashes:
        line += f"\n{result.crashes} crashed: the worker process playing them died (played again by the next run)"
    return line


def experiment_file(name: str) -> Path:
    """The file ``pacsim run NAME`` reads: a file, else a shipped experiment;
    neither is one line naming both places looked in and the nearest
    shipped name."""
    path = find_experiment(name)
    if path.exists():
        return path
    shipped = shipped_experiments()
    raise ConfigError(f"{name}: no such file, and no shipped experiment of that name "
                      f"(pacsim experiments lists them){did_you_mean(Path(name).stem, shipped)}")


def run(args: argparse.Namespace) -> int:
    from pacsim.report import summarize
    from pacsim.report.format import summary_text, terminal_width
    from pacsim.runner import load_experiment, load_results
    from pacsim.runner.compatibility import plugin_notes
    from pacsim.runner.store import finished_games

    if args.workers is not None and args.workers < 1:
        raise ConfigError(f"--workers {args.workers}: must be at least 1")
    if args.games is not None and args.games < 1:
        raise ConfigError(f"--games {args.games}: must be at least 1")
    experiment = load_experiment(experiment_file(args.experiment), games=args.games,
                                 overrides=[*args.overrides, *(["sandbox=true"] * args.sandbox)], store=args.store)
    for note in experiment.notes:
        print(f"pacsim: note: {note}")
    stored = functools.partial(finished_games, experiment.store, experiment.config_hash)
    for note in plugin_notes(experiment, stored):  # an experiment naming plugins runs their code: say which
        print(note)
    if experiment.sandbox is not None:
        from pacsim.sandbox.isolation import isolation_level
        print(f"sandbox: each plugin agent plays in its own process, isolated by {isolation_level(experiment.sandbox)}")
    result = execute(experiment, args)
    if args.quiet:
        return 0
    print(describe(experiment, result))
    results = experiment.own_games(load_results(result.store))
    print(summary_text(summarize(results, by=["condition"]), width=terminal_width()))
    return 0
