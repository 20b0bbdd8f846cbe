"""``pacsim report STORE``: per-condition summary with intervals, paired comparisons, plots."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pacsim.errors import PacsimError
from pacsim.files import check_output


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from pacsim.report.format import FORMATS

    # nargs="?": ``--by a b STORE`` lets --by swallow STORE; run() takes it back.
    parser.add_argument("store", metavar="STORE", nargs="?", help="a results store (.sqlite) written by pacsim run")
    parser.add_argument("--by", nargs="+", default=None, metavar="COLUMN",
                        help="group by these columns (default: condition), e.g. --by pacman ghosts or --by pacman,depth")
    parser.add_argument("--experiment", default=None, help="only the games of this experiment name")
    parser.add_argument("--format", dest="style", choices=FORMATS, default="table", help="output format (default table)")
    parser.add_argument("--out", metavar="FILE", default=None, help="write the report to FILE instead of printing it")
    parser.add_argument("--plot", metavar="FILE.png", default=None,
                        help="also save win rates and score distributions as a figure: .png, .pdf or .svg "
                             "(needs matplotlib)")
    parser.add_argument("--compare", nargs=2, metavar=("A", "B"), default=None,
                        help="paired comparison of two conditions (labels as in the summary)")
    parser.add_argument("--runs", dest="list_runs", action="store_true", help="list the runs in the store and stop")
    add_run_options(parser)
    parser.add_argument("--html", metavar="FILE.html", default=None,
                        help="also write the report as one self-contained HTML page: tables, figures, provenance, replays")


def add_run_options(parser) -> None:
    """Which run of a store holding several (see :mod:`pacsim.report.runs`)."""
    runs = parser.add_argument_group("runs", "a store holding several runs of an experiment is reported on its latest run")
    chosen = runs.add_mutually_exclusive_group()
    chosen.add_argument("--root-seed", type=int, default=None, metavar="N", help="the run with this root seed")
    chosen.add_argument("--run", dest="run_id", default=None, metavar="ID", help="the run with this id (as --runs lists it)")
    chosen.add_argument("--all", dest="all_runs", action="store_true", help="pool every run")


def chosen_results(args, store: str, root_seeds: bool = False):
    """The games of the runs ``args`` choose, saying in one line (on stderr)
    what was left out; ``root_seeds`` adds each game's run's root seed."""
    from pacsim.report.runs import RunChoice, choose_runs, with_root_seeds
    from pacsim.runner import load_results
    from pacsim.runner.store import load_runs

    runs = load_runs(store)
    choice = RunChoice(root_seed=args.root_seed, run=args.run_id, pool=args.all_runs)
    results, note = choose_runs(load_results(store), runs, choice)
    if note and not args.quiet:
        print(f"pacsim: note: {note}", file=sys.stderr)
    return with_root_seeds(results, runs) if root_seeds else results


def run(args) -> int:
    from pacsim.report import compare, summarize
    from pacsim.report.format import replay_list, summary_text, terminal_width
    from pacsim.report.plot import check_plot_path
    from pacsim.report.summary import default_by

    if args.store is None and args.by:
        args.store = args.by.pop()  # ``--by pacman depth STORE``
    if args.store is None:
        raise PacsimError("report: which results store? (pacsim report STORE)")
    if args.list_runs:
        from pacsim.report.runs import runs_table
        from pacsim.runner.store import load_runs

        print(runs_table(load_runs(args.store)))
        return 0
    if args.plot:
        check_plot_path(args.plot)
        check_output(args.plot, "--plot")
    if args.out:
        check_output(args.out, "--out")
    if args.html:
        check_output(args.html, "--html")
    results = chosen_results(args, args.store, root_seeds=True)
    if args.experiment is not None:
        results = results[results["experiment"] == args.experiment]
    if results.empty:
        raise PacsimError(f"{args.store}: no games" + (f" of experiment {args.experiment!r}" if args.experiment else ""))
    by = [column for item in args.by for column in item.split(",") if column] if args.by else default_by(results)
    comparison = compare(results, *args.compare) if args.compare else None
    summary = summarize(results, by=by)
    if comparison is not None and "condition" in by:
        # The two compared conditions' own rows and games (the figure and the HTML page too), not the whole grid's.
        summary = summary[summary["condition"].astype(str).isin(args.compare)].reset_index(drop=True)
        results = results[results["condition"].astype(str).isin(args.compare)]
    text = summary_text(summary, args.style, None if args.out else terminal_width(), notes=not args.quiet)
    if args.style == "table" and comparison is None and not args.quiet:
        text += "\n\n" + replay_list(results, args.store)
    if comparison is not None:
        text += "\n" + (comparison.to_frame().to_csv(index=False) if args.style == "csv" else "\n" + comparison.to_text())
    if args.plot:
        from pacsim.report.plot import plot_summary

        plot_summary(results, summary, by, args.plot)
    if args.html:
        from pacsim.report.html import write_report_page

        write_report_page(args.html, args.store, results, summary, by, comparison)
    if args.out:
        _write(args.out, text)
        if not args.quiet:
            print(f"wrote the {args.style} report ({len(summary)} rows) to {args.out}")
    else:
        print(text)
    if args.plot and not args.quiet:
        print(f"wrote the plot to {args.plot}")
    return 0


def _write(path: str, text: str) -> None:
    try:
        Path(path).write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")
    except OSError as error:
        raise PacsimError(f"{path}: cannot write the report: {error.strerror or error}") from None
