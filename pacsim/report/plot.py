"""``pacsim report --plot``: win rates with their intervals, and score distributions."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas

from pacsim.errors import PacsimError, install_hint
from pacsim.report.format import group_labels


def plot_summary(results: pandas.DataFrame, summary: pandas.DataFrame, by: Sequence[str], path: str | Path) -> None:
    """Save a two-panel figure: win rate per group with Wilson 95% error bars,
    and a box plot of the scores per group."""
    try:
        import matplotlib

        matplotlib.use("Agg")  # files only: no display needed
        import matplotlib.pyplot as pyplot
    except ImportError:
        raise PacsimError(f"--plot needs matplotlib; {install_hint('plot')}") from None
    labels = group_labels(summary, by)
    scores = [games["score"].to_numpy() for _, games in results.groupby(list(by), sort=False, dropna=False)]
    width = max(6.0, 0.9 * len(labels) + 2)
    figure, (wins_axis, score_axis) = pyplot.subplots(1, 2, figsize=(2 * width, 4.8))
    positions = range(len(labels))
    errors = [summary["win_rate"] - summary["win_low"], summary["win_high"] - summary["win_rate"]]
    wins_axis.bar(positions, summary["win_rate"], yerr=errors, capsize=4, color="#f2c200", edgecolor="black")
    wins_axis.set_ylim(0, 1.05)
    wins_axis.set_ylabel("win rate (Wilson 95% interval)")
    score_axis.boxplot(scores, positions=list(positions))
    score_axis.set_ylabel("score")
    for axis in (wins_axis, score_axis):
        axis.set_xticks(list(positions))
        axis.set_xticklabels(labels, rotation=30, ha="right", fontsize=8)
    figure.tight_layout()
    try:
        figure.savefig(path, dpi=120)
    except OSError as error:
        raise PacsimError(f"{path}: cannot write the plot: {error.strerror or error}") from None
    finally:
        pyplot.close(figure)
