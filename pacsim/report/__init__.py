"""Reading results: per-condition summaries with intervals, paired comparisons, tables and plots.

Its names are imported on first use (:mod:`pacsim.lazy`): ``pacsim report
--help`` reads :data:`~pacsim.report.format.FORMATS` without pandas.
"""

from __future__ import annotations

import sys
import types
from typing import TYPE_CHECKING, Any

from pacsim.lazy import lazy_attribute

if TYPE_CHECKING:
    from pacsim.report.display import Report, report
    from pacsim.report.format import FORMATS, format_summary, markdown_table, readable_summary
    from pacsim.report.stats import mcnemar_exact, mean_interval, t_quantile_975, wilson_interval
    from pacsim.report.summary import SUMMARY_COLUMNS, Comparison, compare, default_by, summarize
    from pacsim.runner.store import load_results

_HOMES = {
    "pacsim.report.display": ("Report", "report"),
    "pacsim.report.format": ("FORMATS", "format_summary", "markdown_table", "readable_summary"),
    "pacsim.report.stats": ("mcnemar_exact", "mean_interval", "t_quantile_975", "wilson_interval"),
    "pacsim.report.summary": ("SUMMARY_COLUMNS", "Comparison", "compare", "default_by", "summarize"),
    "pacsim.runner.store": ("load_results",),
}

__all__ = [
    "report", "Report", "load_results", "summarize", "compare", "Comparison", "default_by", "SUMMARY_COLUMNS",
    "format_summary", "readable_summary", "markdown_table", "FORMATS",
    "wilson_interval", "mean_interval", "mcnemar_exact", "t_quantile_975",
]


def __getattr__(name: str) -> Any:
    return lazy_attribute(__name__, name, _HOMES)


class _CallableModule(types.ModuleType):
    """This package, callable: ``pacsim.report(store_or_frame)`` is
    :func:`pacsim.report.display.report`.  A function of that name in
    ``pacsim`` would be replaced by the package the first time anything
    imports ``pacsim.report``."""

    def __call__(self, source: Any, by: Any = None) -> Report:
        from pacsim.report.display import report

        return report(source, by)


sys.modules[__name__].__class__ = _CallableModule
