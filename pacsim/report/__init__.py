"""Reading results: per-condition summaries with intervals, paired comparisons, tables and plots."""

from pacsim.report.format import FORMATS, format_summary, markdown_table, readable_summary
from pacsim.report.stats import mcnemar_exact, mean_interval, t_quantile_975, wilson_interval
from pacsim.report.summary import SUMMARY_COLUMNS, Comparison, compare, default_by, summarize
from pacsim.runner.store import load_results

__all__ = [
    "load_results", "summarize", "compare", "Comparison", "default_by", "SUMMARY_COLUMNS",
    "format_summary", "readable_summary", "markdown_table", "FORMATS",
    "wilson_interval", "mean_interval", "mcnemar_exact", "t_quantile_975",
]
