"""``pacsim bench``: speed and memory figures (a benchmark, never a timed test)."""

from __future__ import annotations

import argparse
import json


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--quick", action="store_true", help="smaller depths and counts (a smoke run)")


def run(args) -> int:
    from pacsim.bench.suite import run as run_bench  # the benchmark's imports, only when asked for

    report = run_bench(quick=args.quick)
    print(json.dumps(report.to_dict(), indent=1) if args.json else report.to_text())
    return 0
