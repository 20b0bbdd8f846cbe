"""Reading results: per-condition summaries with intervals, paired comparisons, tables and plots."""

import sys
import types
from typing import Any

from pacsim.report.display import Report, report
from pacsim.report.format import FORMATS, format_summary, markdown_table, readable_summary
from pacsim.report.stats import mcnemar_exact, mean_interval, t_quantile_975, wilson_interval
from pacsim.report.summary import SUMMARY_COLUMNS, Comparison, compare, default_by, summarize
from pacsim.runner.store import load_results

__all__ = [
    "report", "Report", "load_results", "summarize", "compare", "Comparison", "default_by", "SUMMARY_COLUMNS",
    "format_summary", "readable_summary", "markdown_table", "FORMATS",
    "wilson_interval", "mean_interval", "mcnemar_exact", "t_quantile_975",
]


class _CallableModule(types.ModuleType):
    """This package, callable: ``pacsim.report(store_or_frame)`` is
    :func:`pacsim.report.display.report`.  A function of that name in
    ``pacsim`` would be replaced by the package the first time anything
    imports ``pacsim.report``."""

    def __call__(self, source: Any, by: Any = None) -> Report:
        return report(source, by)


sys.modules[__name__].__class__ = _CallableModule
