"""``pacsim export STORE --format parquet|csv --out FILE``: every game as one table row."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from pacsim.cli.report import add_run_options
from pacsim.errors import PacsimError
from pacsim.files import atomic_file, check_output

if TYPE_CHECKING:
    import pandas

EXPORT_FORMATS = ("parquet", "csv")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("store", metavar="STORE", help="a results store (.sqlite)")
    parser.add_argument("--format", dest="style", choices=EXPORT_FORMATS, default=None,
                        help="parquet or csv (default: from the --out suffix)")
    parser.add_argument("--out", metavar="FILE", required=True, help="the file to write")
    add_run_options(parser)


def run(args) -> int:
    from pacsim.cli.report import chosen_query

    style = args.style or _style_from_suffix(args.out)
    check_output(args.out, "--out", inputs=[args.store])
    with chosen_query(args, args.store) as query:
        games = export_chunks(query.frames, args.out, style)
    print(f"wrote {games} games to {args.out}")
    return 0


def export_chunks(chunks: Callable[[], Iterator[pandas.DataFrame]], path: str | Path, style: str) -> int:
    """The games ``chunks()`` yields, chunk after chunk, to ``path``
    (atomically): Parquet row groups, or CSV lines, one chunk in memory at a
    time.  ``chunks`` is called twice: a first pass finds each column's type
    in the whole (a column of integers with a missing value somewhere is a
    column of numbers, as in one frame of every game); returns the games written."""
    import pandas
    import pyarrow
    import pyarrow.parquet

    schemas = [pyarrow.Schema.from_pandas(chunk, preserve_index=False) for chunk in chunks()]
    if not schemas:
        schemas = [pyarrow.Schema.from_pandas(pandas.DataFrame(columns=["id"]), preserve_index=False)]
    schema = pyarrow.unify_schemas(schemas, promote_options="permissive")
    written = 0
    with atomic_file(path, "the export") as file:
        writer = pyarrow.parquet.ParquetWriter(file, schema) if style == "parquet" else None
        for chunk in chunks():
            table = pyarrow.Table.from_pandas(chunk, preserve_index=False).select(schema.names).cast(schema)
            if writer is not None:
                writer.write_table(table)
            else:
                table.to_pandas().to_csv(file, index=False, header=written == 0, encoding="utf-8")
            written += len(chunk)
        if writer is not None:
            writer.close()
        elif written == 0:
            pandas.DataFrame(columns=schema.names).to_csv(file, index=False, encoding="utf-8")
    return written


def _style_from_suffix(path: str) -> str:
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix in EXPORT_FORMATS:
        return suffix
    raise PacsimError(f"--out {path}: give --format parquet or csv (the suffix does not say)")
