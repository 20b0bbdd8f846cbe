"""``pacsim bench``: speed and memory figures (a benchmark, never a timed test).

The command lives with the benchmark, not in :mod:`pacsim.cli`: the
benchmark measures the commands themselves (it runs :func:`pacsim.cli.main`),
so it stands above the CLI, which loads this module by its name
(:data:`pacsim.cli.COMMAND_MODULES`) as it loads every command's.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from pacsim.errors import ConfigError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--quick", action="store_true", help="smaller depths and counts (a smoke run)")
    parser.add_argument("--startup", action="store_true", help="only the start-up group (whole-process times of commands)")
    parser.add_argument("--course", metavar="DIR", default=None,
                        help="a CS188 course folder (its pacman.py): the start-up group times the course's commands "
                             "there, through pacsim and through the course's own code")
    parser.add_argument("--capture", action="store_true", help="only the capture-the-flag group (games a second)")
    parser.add_argument("--contest", action="store_true",
                        help="only the capture contest group (sandboxed games a second, a 150-team contest's time)")
    parser.add_argument("--capture-course", metavar="DIR", default=None,
                        help="the course's contest folder (its capture.py, baselineTeam.py, kept outside pacsim): "
                             "the capture group times the course's engine and its team file against pacsim; "
                             "with --contest, contests of its baselineTeam.py (course-cost teams)")


def run(args) -> int:
    from pacsim.bench.suite import run as run_bench  # the benchmark's imports, only when asked for

    course = Path(args.course) if args.course else None
    if course is not None and not course.is_dir():
        raise ConfigError(f"--course {args.course}: not a folder")
    capture_course = Path(args.capture_course) if args.capture_course else None
    if capture_course is not None and not capture_course.is_dir():
        raise ConfigError(f"--capture-course {args.capture_course}: not a folder")
    if args.contest:
        from pacsim.bench.contest import contest_figures
        from pacsim.bench.report import Report, machine_info

        report = Report(machine=machine_info())
        contest_figures(report, games=3 if args.quick else 10, teams=4 if args.quick else 6, course=capture_course)
    elif args.capture:
        from pacsim.bench.capture import capture_figures
        from pacsim.bench.report import Report, machine_info

        report = Report(machine=machine_info())
        capture_figures(report, capture_course, games=5 if args.quick else 20)
    else:
        report = run_bench(quick=args.quick, course=course, startup_only=args.startup, capture_course=capture_course)
    print(json.dumps(report.to_dict(), indent=1) if args.json else report.to_text())
    return 0
