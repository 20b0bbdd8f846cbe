"""``pacsim report STORE``: per-condition summary with intervals, paired comparisons, plots."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace

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


def chosen_query(args, store: str, experiment: str | None = None):
    """The games of the runs ``args`` choose, ready for reports computed in
    the store (:mod:`pacsim.report.store_report`), saying in one line (on
    stderr) what was left out."""
    from pacsim.report.runs import RunChoice
    from pacsim.report.store_report import open_query

    query, note = open_query(store, RunChoice(root_seed=args.root_seed, run=args.run_id, pool=args.all_runs), experiment)
    if note and not args.quiet:
        print(f"pacsim: note: {note}", file=sys.stderr)
    return query


def run(args) -> int:
    from pacsim.report.format import replay_list, summary_text, terminal_width
    from pacsim.report.plot import check_plot_path, missing_plot_note
    from pacsim.report.store_report import compare_store, store_default_by, store_games_to_replay, summarize_store

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
        note = missing_plot_note()
        if note:  # the table asked for is still printed, as the HTML page keeps its tables
            print(f"pacsim: note: {note}", file=sys.stderr)
            args.plot = None
    for option, path in (("--plot", args.plot), ("--out", args.out), ("--html", args.html)):
        if path:
            check_output(path, option, inputs=[args.store])
    if args.tree and not args.html:
        raise PacsimError("--tree: only with --html FILE.html")
    asked_by = [column for item in args.by for column in item.split(",") if column] if args.by else []
    # Counted, summed and compared in the store: the memory grows with the conditions, not with the games.
    with chosen_query(args, args.store, args.experiment) as query:
        if not query.count():
            raise PacsimError(f"{args.store}: no games" + (f" of experiment {args.experiment!r}" if args.experiment else ""))
        for column in asked_by:
            query.expression(column)  # an unknown column: one line listing the known ones
        by = asked_by or store_default_by(query)
        comparison = compare_store(query, *args.compare) if args.compare else None
        if comparison is not None and "condition" in by:
            # The two compared conditions' own rows and games (the figure and the HTML page too), not the whole grid's.
            query.selection = replace(query.selection, labels=tuple(args.compare))
        summary = summarize_store(query, by)
        text = summary_text(summary, args.style, None if args.out else terminal_width(), notes=not args.quiet)
        if args.style == "table" and comparison is None:
            text += _lesson(query)
            if not args.quiet:
                text += "\n\n" + replay_list(None, args.store, store_games_to_replay(query))
        if comparison is not None:
            text += "\n" + (comparison.to_frame().to_csv(index=False) if args.style == "csv" else "\n" + comparison.to_text())
        if args.plot or args.html:
            _figures_and_page(args, query, summary, by, comparison)
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


def _lesson(query) -> str:
    """The reproduction's story when the store holds its games (the verdicts
    pacsim reproduce printed): read as a frame, the reproduction's games only."""
    from pacsim.report.lesson import LESSON_READS, REPRODUCTION, SLIDE_SETTING_SUFFIX, story_for_store
    from pacsim.report.store_report import selected_frame
    from pacsim.report.summary import REPORT_READS

    experiments = set(query.runs_present()["experiment"])
    if REPRODUCTION not in experiments:
        return ""
    wanted = tuple(name for name in (REPRODUCTION, REPRODUCTION + SLIDE_SETTING_SUFFIX) if name in experiments)
    lesson = story_for_store(selected_frame(query, {*REPORT_READS, *LESSON_READS}, experiments=wanted))
    return f"\n\n{lesson}" if lesson else ""


def _figures_and_page(args, query, summary, by, comparison) -> None:
    """The figure and the page, from the store too: each group's scores as a
    histogram, the first games of each condition, each run's provenance."""
    from pacsim.report.store_report import figure_games, page_games

    if args.plot:
        from pacsim.report.plot import plot_summary

        plot_summary(figure_games(query, by), summary, by, args.plot)
    if args.html:
        from pacsim.web.report_page import write_report_page

        write_report_page(args.html, args.store, page_games(query, by, comparison), summary, by, comparison,
                          tree_nodes=2000 if args.tree else 0)


def _write(path: str, text: str) -> None:
    write_atomically(path, text if text.endswith("\n") else text + "\n", "the report")
