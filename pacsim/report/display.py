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
    notes = []
    if isinstance(source, pandas.DataFrame):
        results = source
    elif isinstance(source, str | Path):
        results, note = _latest_runs(source)
        notes += [note] if note else []
    else:
        raise ConfigError(f"report({source!r}): give a results store's path or a DataFrame of games")
    if results.empty:
        raise PacsimError(f"{source if not isinstance(source, pandas.DataFrame) else 'the DataFrame'}: no games")
    summary = summarize(results, by=list(by) if by is not None else default_by(results))
    return Report(summary, notes + repetition_notes(summary))


def _latest_runs(store: str | Path) -> tuple[pandas.DataFrame, str | None]:
    from pacsim.report.runs import RunChoice, choose_runs, with_root_seeds
    from pacsim.runner.store import load_results, load_runs

    runs = load_runs(store)
    results, note = choose_runs(load_results(store), runs, RunChoice())
    return with_root_seeds(results, runs), note
