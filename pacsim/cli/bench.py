"""``pacsim bench``: speed and memory figures (a benchmark, never a timed test)."""

from __future__ import annotations

import json


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("bench", help="measure successor and search rates, batch throughput, memory")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--quick", action="store_true", help="smaller depths and counts (a smoke run)")
    parser.set_defaults(run=run)


def run(args) -> int:
    from pacsim.bench.suite import run as run_bench  # the benchmark's imports, only when asked for

    report = run_bench(quick=args.quick)
    print(json.dumps(report.to_dict(), indent=1) if args.json else report.to_text())
    return 0
