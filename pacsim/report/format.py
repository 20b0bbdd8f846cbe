"""Summary tables as text, Markdown, CSV or HTML.

A text table is never wrapped into blocks of columns: in a terminal it
fits the width by leaving out its least needed columns (and says which);
in a pipe or a file it keeps every column on one line per row.  pandas is
imported by the functions that need it, so :data:`FORMATS` (``pacsim report
--help``) costs nothing.
"""

from __future__ import annotations

import math
import shutil
import sys
import textwrap
from typing import TYPE_CHECKING

from pacsim.errors import PacsimError

if TYPE_CHECKING:
    import pandas

FORMATS = ("table", "markdown", "csv", "html")
COLUMN_GAP = "  "
LEFT_OUT_FIRST = ("lines", "timeouts", "errors", "median", "moves", "nodes/move", "ms/move", "games", "losses", "wins")
"""The readable table's columns a narrow terminal loses, first to last (a
column of zeros before any other, see :func:`text_table`): the groups, the
win rate and the mean score are always kept, wins and losses to the last."""
KEPT = ("wins", "losses")
"""Left out last, even as zeros: how the games ended is what a reader looks for."""
UNTOLD_IF_ZERO = ("crashes", "errors")
"""Columns the readable table (terminal, Markdown, HTML) leaves out when every row is 0: no worker died,
no agent failed, and a column of zeros says only that (wins, losses and timeouts are how games ended, zeros
or not; CSV keeps every column)."""


def terminal_width() -> int | None:
    """The terminal's width when standard output is one, else None: a pipe
    or a file gets whole lines, however long."""
    if not sys.stdout.isatty():
        return None
    return shutil.get_terminal_size().columns


def format_summary(summary: pandas.DataFrame, style: str = "table", width: int | None = None) -> str:
    """CSV keeps every number at full precision; the other formats show the
    readable table (intervals in brackets, per-move time in milliseconds).
    ``width``: the columns a text table may use (None: no limit)."""
    if style == "csv":
        return summary.to_csv(index=False)
    readable = readable_summary(summary)
    if style == "table":
        return text_table(readable, width)
    if style == "markdown":
        return markdown_table(readable)
    if style == "html":
        return readable.to_html(index=False)
    raise PacsimError(f"unknown format {style!r} (known: {', '.join(FORMATS)})")


def summary_text(summary: pandas.DataFrame, style: str = "table", width: int | None = None, notes: bool = True) -> str:
    """The summary as ``pacsim report`` and ``pacsim run`` print it: the
    table, then (``notes``, in the table and Markdown formats) a note for each
    condition whose games are mostly one line of play repeated."""
    from pacsim.report.summary import repetition_notes

    text = format_summary(summary, style, width)
    if notes and style in ("table", "markdown"):
        text += "".join(f"\nnote: {note}" for note in repetition_notes(summary))
    return text


def readable_summary(summary: pandas.DataFrame) -> pandas.DataFrame:
    import pandas

    from pacsim.report.summary import SUMMARY_COLUMNS

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
    frame = pandas.DataFrame(rows, columns=[*by, *READABLE_COLUMNS])
    if not frame["faults"].any():  # only sandboxed entrants have them: no column of zeros
        frame = frame.drop(columns="faults")
    return frame.drop(columns=[column for column in UNTOLD_IF_ZERO if not frame[column].any()])


READABLE_COLUMNS = ("games", "lines", "wins", "win rate [95% CI]", "mean score [95% CI]", "median", "losses",
                    "timeouts", "errors", "crashes", "faults", "moves", "nodes/move", "ms/move")
"""The readable table's columns after the groups (``faults``, ``crashes`` and ``errors`` only when some condition has them)."""


def _interval(low: float, high: float, digits: int) -> str:
    if math.isnan(low):
        return "[n/a]"
    return f"[{low:.{digits}f}, {high:.{digits}f}]"


def _number(value: float, digits: int) -> str:
    return "n/a" if value is None or math.isnan(value) else f"{value:.{digits}f}"


def text_table(frame: pandas.DataFrame, width: int | None = None) -> str:
    """``frame`` as aligned text, one line per row: group columns to the
    left, the figures to the right.  Wider than ``width``, it leaves out
    columns (:data:`LEFT_OUT_FIRST`) until it fits, and a last line names them."""
    cells = {str(column): [str(column), *(_text(value) for value in frame[column])] for column in frame.columns}
    zeros = {column for column, texts in cells.items() if set(texts[1:]) <= {"0"}}
    shown = list(cells)
    left_out: list[str] = []
    while width is not None and _line_width(cells, shown) > width:
        order = [column for column in LEFT_OUT_FIRST if column in shown]
        # Stable: the lines of play first (a count the report lists below), then columns of zeros, then the rest.
        candidates = sorted(order, key=lambda column: (column != "lines", column not in zeros or column in KEPT))
        if not candidates:
            break  # the groups alone are wider: the terminal wraps the lines, not pacsim
        shown.remove(candidates[0])
        left_out.append(candidates[0])
    widths = {column: max(map(len, cells[column])) for column in shown}
    lines = []
    for index in range(len(frame) + 1):
        parts = [cells[column][index].rjust(widths[column]) if column in READABLE_COLUMNS
                 else cells[column][index].ljust(widths[column]) for column in shown]
        lines.append(COLUMN_GAP.join(parts).rstrip())
    if left_out:
        note = f"(left out to fit the terminal: {', '.join(left_out)}; --format csv or a pipe shows every column)"
        lines += textwrap.wrap(note, width or len(note))
    return "\n".join(lines)


def _line_width(cells: dict[str, list[str]], columns: list[str]) -> int:
    return sum(max(map(len, cells[column])) for column in columns) + len(COLUMN_GAP) * (len(columns) - 1)


def _text(value: object) -> str:
    if isinstance(value, float) and math.isnan(value):
        return "n/a"
    return str(value)


def markdown_table(frame: pandas.DataFrame) -> str:
    """A GitHub Markdown table (pandas' own needs the tabulate package):
    figures right-aligned."""
    header = [str(column) for column in frame.columns]
    rule = ["---:" if column in READABLE_COLUMNS else "---" for column in header]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(rule) + "|"]
    for row in frame.itertuples(index=False):
        lines.append("| " + " | ".join(_cell(value) for value in row) + " |")
    return "\n".join(lines)


def _cell(value: object) -> str:
    return _text(value).replace("|", "\\|")


def replay_list(results: pandas.DataFrame | None, store: str, picks: list[tuple[str, dict]] | None = None) -> str:
    """The games of ``results`` (or the ``picks`` of
    :func:`~pacsim.report.summary.games_to_replay`) worth replaying first,
    with their ids and the command that replays them (a game picked twice is listed once)."""
    from pacsim.report.summary import games_to_replay

    reasons: dict[int, list[str]] = {}
    games = {}
    for why, game in picks if picks is not None else games_to_replay(results):
        reasons.setdefault(int(game["id"]), []).append(why)
        games[int(game["id"])] = game
    if not games:
        return "no games to replay"
    whys = {game_id: ", ".join(why) for game_id, why in reasons.items()}
    why_width, id_width = max(map(len, whys.values())), max(len(str(game_id)) for game_id in games)
    lines = [f"games worth replaying (pacsim replay {store} --game ID):"]
    for game_id, game in games.items():
        lines.append(f"  {whys[game_id]:<{why_width}}  game {game_id:<{id_width}}  {game['outcome']:<7} "
                     f"score {game['score']:>5}  moves {game['moves']:>4}  {game['condition']}")
    return "\n".join(lines)
