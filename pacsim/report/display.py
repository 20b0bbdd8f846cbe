"""``pacsim.report(store_or_frame)``: the summary ``pacsim report`` prints,
as an object that prints as that text and shows as an HTML table in a
notebook (``_repr_html_``).

The package :mod:`pacsim.report` itself is callable (see its ``__init__``),
so ``pacsim.report(...)`` works however the name was reached.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas

from pacsim.errors import ConfigError, PacsimError
from pacsim.report.format import format_summary
from pacsim.report.summary import default_by, repetition_notes, summarize


@dataclass(frozen=True)
class Report:
    """A per-condition summary with intervals, and the notes that go with it."""

    summary: pandas.DataFrame
    """The numbers at full precision (:func:`pacsim.summarize`'s columns)."""
    notes: list[str] = field(default_factory=list)
    """Lines to read with the table: which run of a store, repeated games."""

    def __str__(self) -> str:
        return format_summary(self.summary, "table") + "".join(f"\nnote: {note}" for note in self.notes)

    def __repr__(self) -> str:
        return str(self)

    def _repr_html_(self) -> str:
        notes = "".join(f"<p>note: {html.escape(note)}</p>" for note in self.notes)
        return format_summary(self.summary, "html") + notes


def report(source: str | Path | pandas.DataFrame, by: Sequence[str] | None = None) -> Report:
    """The summary of a results store (its latest run of each experiment, as
    ``pacsim report STORE`` says) or of a DataFrame of games
    (:func:`pacsim.run`, :func:`pacsim.load_results`), grouped ``by`` these
    columns (default: the condition)."""
    if isinstance(source, pandas.DataFrame):
        if source.empty:
            raise PacsimError("the DataFrame: no games")
        summary = summarize(source, by=list(by) if by is not None else default_by(source))
        return Report(summary, repetition_notes(summary))
    if not isinstance(source, str | Path):
        raise ConfigError(f"report({source!r}): give a results store's path or a DataFrame of games")
    from pacsim.report.store_report import open_query, summarize_store

    query, note = open_query(source)  # the latest run of each experiment, summed up in the store
    with query:
        if not query.count():
            raise PacsimError(f"{source}: no games")
        summary = summarize_store(query, by)
    return Report(summary, ([note] if note else []) + repetition_notes(summary))
