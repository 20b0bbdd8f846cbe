"""Progress bars where users look: a text bar on any terminal (one whose
size is unknown too: a pseudo-terminal opened without one reports zero
columns and rows, and tqdm then hid its bar as below the last row), a widget
in a notebook (``tqdm.auto``), nothing in a pipe or a file, or when asked
to be quiet."""

from __future__ import annotations

import os
import sys
from typing import Any, TextIO

FALLBACK_COLUMNS, FALLBACK_ROWS = 80, 24
"""The size of a terminal that does not say its own."""


def progress_bar(total: int, unit: str, quiet: bool = False, stream: TextIO | None = None, **options: Any) -> Any:
    """A ``tqdm.auto`` bar of ``total`` ``unit``\\ s on ``stream`` (standard error)."""
    from tqdm.auto import tqdm
    from tqdm.autonotebook import tqdm as chosen

    stream = stream or sys.stderr
    in_notebook = chosen.__module__ == "tqdm.notebook"  # the widget: the kernel's streams are no terminals
    terminal = _is_terminal(stream)
    disable = quiet or not (terminal or in_notebook)
    columns, rows = terminal_size(stream) if terminal and not in_notebook else (None, None)
    return tqdm(total=total, unit=unit, disable=disable, file=None if in_notebook else stream, ncols=columns, nrows=rows,
                **options)


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False


def terminal_size(stream: TextIO) -> tuple[int, int]:
    """The terminal's columns and rows, each :data:`FALLBACK_COLUMNS` or
    :data:`FALLBACK_ROWS` when it says none (zero) or cannot be asked."""
    try:
        columns, rows = os.get_terminal_size(stream.fileno())
    except (AttributeError, OSError, ValueError):
        columns, rows = 0, 0
    return (columns or int(os.environ.get("COLUMNS", "0") or 0) or FALLBACK_COLUMNS,
            rows or int(os.environ.get("LINES", "0") or 0) or FALLBACK_ROWS)
