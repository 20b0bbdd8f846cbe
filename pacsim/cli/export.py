"""``pacsim export STORE --format parquet|csv --out FILE``: every game as one table row."""

from __future__ import annotations

import argparse
from pathlib import Path

from pacsim.cli.report import add_run_options, chosen_results
from pacsim.errors import PacsimError
from pacsim.files import atomic_file, check_output

EXPORT_FORMATS = ("parquet", "csv")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("store", metavar="STORE", help="a results store (.sqlite)")
    parser.add_argument("--format", dest="style", choices=EXPORT_FORMATS, default=None,
                        help="parquet or csv (default: from the --out suffix)")
    parser.add_argument("--out", metavar="FILE", required=True, help="the file to write")
    add_run_options(parser)


def run(args) -> int:
    style = args.style or _style_from_suffix(args.out)
    check_output(args.out, "--out", inputs=[args.store])
    results = chosen_results(args, args.store)
    export_results(results, args.out, style)
    print(f"wrote {len(results)} games to {args.out}")
    return 0


def export_results(results, path: str | Path, style: str) -> None:
    with atomic_file(path, "the export") as file:
        if style == "parquet":
            results.to_parquet(file, index=False)
        else:
            results.to_csv(file, index=False, encoding="utf-8")


def _style_from_suffix(path: str) -> str:
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix in EXPORT_FORMATS:
        return suffix
    raise PacsimError(f"--out {path}: give --format parquet or csv (the suffix does not say)")
