"""Summary tables as text, Markdown, CSV or HTML."""

from __future__ import annotations

import math
import shutil

import pandas

from pacsim.errors import PacsimError
from pacsim.report.summary import SUMMARY_COLUMNS

FORMATS = ("table", "markdown", "csv", "html")
FALLBACK_WIDTH = 100
"""Columns a table may use when the output is not a terminal (and $COLUMNS is unset)."""


def terminal_width() -> int:
    """The terminal's width (``$COLUMNS`` first); wider tables wrap into blocks of columns."""
    return shutil.get_terminal_size((FALLBACK_WIDTH, 24)).columns


def format_summary(summary: pandas.DataFrame, style: str = "table") -> str:
    """CSV keeps every number at full precision; the other formats show the
    readable table (intervals in brackets, per-move time in milliseconds)."""
    if style == "csv":
        return summary.to_csv(index=False)
    readable = readable_summary(summary)
    if style == "table":
        return readable.to_string(index=False, line_width=terminal_width())
    if style == "markdown":
        return markdown_table(readable)
    if style == "html":
        return readable.to_html(index=False)
    raise PacsimError(f"unknown format {style!r} (known: {', '.join(FORMATS)})")


def readable_summary(summary: pandas.DataFrame) -> pandas.DataFrame:
    by = [column for column in summary.columns if column not in SUMMARY_COLUMNS]
    rows = []
    for row in summary.to_dict("records"):
        rows.append({
            **{column: row[column] for column in by},
            "games": row["games"],
            "lines": _number(row["lines"], 0),
            "wins": row["wins"],
            "win rate [95% CI]": f"{row['win_rate']:.3f} {_interval(row['win_low'], row['win_high'], 3)}",
            "mean score [95% CI]": f"{row['score_mean']:.1f} {_interval(row['score_low'], row['score_high'], 1)}",
            "median": _number(row["score_median"], 1),
            "losses": row["losses"], "timeouts": row["timeouts"], "errors": row["errors"],
            "crashes": row["crashes"], "faults": row["faults"],
            "moves": _number(row["moves_mean"], 1),
            "nodes/move": _number(row["nodes_per_move"], 0),
            "ms/move": _number(row["seconds_per_move"] * 1000, 2),
        })
    frame = pandas.DataFrame(rows)
    if "faults" in frame.columns and not frame["faults"].any():  # only sandboxed entrants have them: no empty column
        frame = frame.drop(columns="faults")
    return frame


def _interval(low: float, high: float, digits: int) -> str:
    if math.isnan(low):
        return "[n/a]"
    return f"[{low:.{digits}f}, {high:.{digits}f}]"


def _number(value: float, digits: int) -> str:
    return "n/a" if value is None or math.isnan(value) else f"{value:.{digits}f}"


def markdown_table(frame: pandas.DataFrame) -> str:
    """A GitHub Markdown table (pandas' own needs the tabulate package)."""
    header = [str(column) for column in frame.columns]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    for row in frame.itertuples(index=False):
        lines.append("| " + " | ".join(_cell(value) for value in row) + " |")
    return "\n".join(lines)


def _cell(value: object) -> str:
    return str(value).replace("|", "\\|")

