"""``pacsim report STORE``: per-condition summary with intervals, paired comparisons, plots."""

from __future__ import annotations

import argparse
import sys

from pacsim.errors import PacsimError
from pacsim.files import check_output, write_atomically


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
                        help="write the report as one self-contained HTML page (tables, figures, provenance, replays) "
                             "instead of printing it (--out still writes the text too)")
    parser.add_argument("--tree", action="store_true",
                        help="with --html: each replayed game's Pacman searches again at every move and the replay "
                             "gets its trees (the tree button; docs/tree.md)")


def add_run_options(parser) -> None:
    """Which run of a store holding several (see :mod:`pacsim.report.runs`)."""
    runs = parser.add_argument_group("runs", "a store holding several runs of an experiment is reported on its latest run")
    chosen = runs.add_mutually_exclusive_group()
    chosen.add_argument("--root-seed", type=int, default=None, metavar="N", help="the run with this root seed")
    chosen.add_argument("--run", dest="run_id", default=None, metavar="ID", help="the run with this id (as --runs lists it)")
    chosen.add_argument("--all", dest="all_runs", action="store_true", help="pool every run")


def chosen_results(args, store: str, root_seeds: bool = False, columns=None):
    """The games of the runs ``args`` choose, saying in one line (on stderr)
    what was left out; ``root_seeds`` adds each game's run's root seed;
    ``columns``: only these (see :func:`~pacsim.runner.store.load_results`)."""
    from pacsim.report.runs import RunChoice, choose_runs, with_root_seeds
    from pacsim.runner import load_results
    from pacsim.runner.store import load_runs

    runs = load_runs(store)
    choice = RunChoice(root_seed=args.root_seed, run=args.run_id, pool=args.all_runs)
    results, note = choose_runs(load_results(store, columns), runs, choice)
    if note and not args.quiet:
        print(f"pacsim: note: {note}", file=sys.stderr)
    return with_root_seeds(results, runs) if root_seeds else results


def run(args) -> int:
    from pacsim.report import compare, summarize
    from pacsim.report.format import replay_list, summary_text, terminal_width
    from pacsim.report.lesson import LESSON_READS
    from pacsim.report.plot import check_plot_path
    from pacsim.report.summary import REPORT_READS, check_columns, default_by
    from pacsim.runner.row import GAME_COLUMNS

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
    for option, path in (("--plot", args.plot), ("--out", args.out), ("--html", args.html)):
        if path:
            check_output(path, option, inputs=[args.store])
    if args.tree and not args.html:
        raise PacsimError("--tree: only with --html FILE.html")
    asked_by = [column for item in args.by for column in item.split(",") if column] if args.by else []
    # Only the columns the report reads: a store's replay logs and provenance are most of its size.
    columns = {*REPORT_READS, *LESSON_READS, *asked_by}  # the reproduction's story, when the store holds it
    if args.html:
        from pacsim.report.html import PROVENANCE_READS

        columns |= set(PROVENANCE_READS)
    results = chosen_results(args, args.store, root_seeds=True, columns=columns)
    if args.experiment is not None:
        results = results[results["experiment"] == args.experiment]
    if results.empty:
        raise PacsimError(f"{args.store}: no games" + (f" of experiment {args.experiment!r}" if args.experiment else ""))
    check_columns(results, asked_by, known=["id", *GAME_COLUMNS])  # naming the columns a report did not read too
    by = asked_by or default_by(results)
    comparison = compare(results, *args.compare) if args.compare else None
    summary = summarize(results, by=by)
    if comparison is not None and "condition" in by:
        # The two compared conditions' own rows and games (the figure and the HTML page too), not the whole grid's.
        summary = summary[summary["condition"].astype(str).isin(args.compare)].reset_index(drop=True)
        results = results[results["condition"].astype(str).isin(args.compare)]
    text = summary_text(summary, args.style, None if args.out else terminal_width(), notes=not args.quiet)
    if args.style == "table" and comparison is None:
        from pacsim.report.lesson import story_for_store

        lesson = story_for_store(results)  # the reproduction's store: the verdicts pacsim reproduce printed
        text += f"\n\n{lesson}" if lesson else ""
        if not args.quiet:
            text += "\n\n" + replay_list(results, args.store)
    if comparison is not None:
        text += "\n" + (comparison.to_frame().to_csv(index=False) if args.style == "csv" else "\n" + comparison.to_text())
    if args.plot:
        from pacsim.report.plot import plot_summary

        plot_summary(results, summary, by, args.plot)
    if args.html:
        from pacsim.report.html import write_report_page

        write_report_page(args.html, args.store, results, summary, by, comparison, tree_nodes=2000 if args.tree else 0)
    if args.out:
        _write(args.out, text)
        if not args.quiet:
            print(f"wrote the {args.style} report ({len(summary)} rows) to {args.out}")
    elif not args.html:  # the page holds the table: printing it too would bury the line that says where the page is
        print(text)
    if args.html and not args.quiet:
        print(f"wrote the HTML report ({len(summary)} rows) to {args.html}")
    if args.plot and not args.quiet:
        print(f"wrote the plot to {args.plot}")
    return 0


def _write(path: str, text: str) -> None:
    write_atomically(path, text if text.endswith("\n") else text + "\n", "the report")
