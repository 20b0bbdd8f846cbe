"""Reading results: per-condition summaries with intervals, paired comparisons, tables and plots.

The names below are loaded on first use: ``from pacsim.report.format import
FORMATS`` (``pacsim report --help``) must not import pandas.
"""

from __future__ import annotations

import importlib
from typing import Any

_HOMES = {
    "pacsim.report.format": ("FORMATS", "format_summary", "markdown_table", "readable_summary"),
    "pacsim.report.stats": ("mcnemar_exact", "mean_interval", "t_quantile_975", "wilson_interval"),
    "pacsim.report.summary": ("SUMMARY_COLUMNS", "Comparison", "compare", "default_by", "summarize"),
    "pacsim.runner.store": ("load_results",),
}
_HOME_OF = {name: module for module, names in _HOMES.items() for name in names}

__all__ = [
    "load_results", "summarize", "compare", "Comparison", "default_by", "SUMMARY_COLUMNS",
    "format_summary", "readable_summary", "markdown_table", "FORMATS",
    "wilson_interval", "mean_interval", "mcnemar_exact", "t_quantile_975",
]


def __getattr__(name: str) -> Any:
    if name in _HOME_OF:
        return getattr(importlib.import_module(_HOME_OF[name]), name)
    raise AttributeError(f"module 'pacsim.report' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
