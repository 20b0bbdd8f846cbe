"""Figures: ``pacsim report --plot`` and the reproduction beside the published table.

The file's suffix picks the format (PNG at :data:`DPI`, PDF or SVG), and is
checked before any work is done.  Labels name only what differs between the
groups; what every group shares goes into the title.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas

from pacsim.errors import PacsimError, install_hint
from pacsim.files import atomic_file

if TYPE_CHECKING:
    from pacsim.report.optimism import Assessment

SUFFIXES = (".png", ".pdf", ".svg")
DPI = 200
"""Resolution of PNG figures (print quality)."""


def check_plot_path(path: str | Path) -> None:
    """Raise a one-line error unless ``path`` ends in a supported suffix."""
    suffix = Path(path).suffix.lower()
    if suffix not in SUFFIXES:
        raise PacsimError(f"{path}: cannot plot to {suffix or 'a file without a suffix'!r} "
                          f"(use {', '.join(SUFFIXES)})")


def varying_labels(labels: Sequence[str], separator: str = "/") -> tuple[list[str], str]:
    """Shorten ``a/b/c`` labels to the parts that differ; return them and the shared parts.

    Labels with different numbers of parts are kept whole."""
    split = [label.split(separator) for label in labels]
    if len({len(parts) for parts in split}) != 1 or len(split) < 2:
        return list(labels), ""
    keep = [index for index in range(len(split[0])) if len({parts[index] for parts in split}) > 1]
    shared = separator.join(split[0][index] for index in range(len(split[0])) if index not in keep)
    return [separator.join(parts[index] for index in keep) for parts in split], shared


def group_names(summary: pandas.DataFrame, by: Sequence[str]) -> tuple[list[str], str]:
    """One label per summary row from the ``by`` columns that vary, and a
    description of the columns that do not."""
    columns = list(by)
    varying = [column for column in columns if summary[column].astype(str).nunique() > 1] or columns[-1:]
    fixed = [column for column in columns if column not in varying]
    labels = [" ".join(str(value) for value in values) for values in summary[varying].itertuples(index=False)]
    shared = [f"{column}={summary[column].iloc[0]}" for column in fixed]
    if varying == ["condition"]:
        labels, common = varying_labels(labels)
        shared += [common] if common else []
    return labels, ", ".join(shared)


def _pyplot() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")  # files only: no display needed
        import matplotlib.pyplot as pyplot
    except ImportError:
        raise PacsimError(f"--plot needs matplotlib; {install_hint('plot')}") from None
    return pyplot


def plot_summary(results: pandas.DataFrame, summary: pandas.DataFrame, by: Sequence[str], path: str | Path | io.BytesIO) -> None:
    """Save a two-panel figure: win rate per group with Wilson 95% error bars,
    and a box plot of the scores per group; into a buffer (``io.BytesIO``) as SVG."""
    if not isinstance(path, io.BytesIO):
        check_plot_path(path)
    pyplot = _pyplot()
    labels, shared = group_names(summary, by)
    scores = [games["score"].to_numpy() for _, games in results.groupby(list(by), sort=False, dropna=False)]
    width = max(6.0, 0.7 * len(labels) + 2)
    figure, (wins_axis, score_axis) = pyplot.subplots(1, 2, figsize=(2 * width, 5.2))
    positions = list(range(len(labels)))
    colours = group_colours(pyplot, len(labels))
    wins_axis.bar(positions, summary["win_rate"], yerr=_error_bars(summary, "win"), capsize=4,
                  color=colours, edgecolor="black")
    wins_axis.set_ylim(0, 1.05)
    wins_axis.set_title("Win rate")
    wins_axis.set_ylabel("share of games won (Wilson 95% interval)")
    boxes = score_axis.boxplot(scores, positions=positions, patch_artist=True, medianprops={"color": "black"})
    for box, colour in zip(boxes["boxes"], colours):
        box.set_facecolor(colour)
    score_axis.set_title("Score per game")
    score_axis.set_ylabel("final score")
    axis_label = " / ".join(by) if by != ["condition"] else "condition"
    for axis in (wins_axis, score_axis):
        axis.set_xticks(positions)
        axis.set_xticklabels(labels, rotation=30 if len(labels) > 3 else 0, ha="right" if len(labels) > 3 else "center",
                             fontsize=8)
        axis.set_xlabel(axis_label)
    figure.suptitle(plot_title(results, summary, shared), fontsize=10)
    figure.tight_layout()
    _save(figure, pyplot, path)


def group_colours(pyplot: Any, count: int) -> list[Any]:
    """One distinct colour per group (tab10, then tab20 for more groups)."""
    palette = pyplot.get_cmap("tab10" if count <= 10 else "tab20")
    return [palette(index % palette.N) for index in range(count)]


def plot_title(results: pandas.DataFrame, summary: pandas.DataFrame, shared: str) -> str:
    """What was run: the experiment(s), the games, and what every group shares."""
    experiments = ", ".join(str(name) for name in results["experiment"].unique()) if "experiment" in results else ""
    title = f"{experiments}: " if experiments else ""
    title += f"{int(summary['games'].sum())} games in {len(summary)} groups"
    return title + (f" ({shared})" if shared else "")


def _error_bars(summary: pandas.DataFrame, prefix: str) -> list[list[float]]:
    """Distances from the estimate to its bounds, never negative (matplotlib refuses those)."""
    rate = summary[f"{prefix}_rate"]
    return [[max(0.0, value) for value in rate - summary[f"{prefix}_low"]],
            [max(0.0, value) for value in summary[f"{prefix}_high"] - rate]]


def plot_reproduction(assessment: Assessment, path: str | Path) -> None:
    """The four cells beside the published table: win rates (with Wilson
    intervals; the published 5 games too) and mean scores (with t intervals)."""
    from pacsim.report.optimism import GHOSTS, PACMEN, PUBLISHED_NUMBERS
    from pacsim.report.stats import wilson_interval

    check_plot_path(path)
    pyplot = _pyplot()
    keys = [(pacman, ghost) for pacman in PACMEN for ghost in GHOSTS]
    labels = [f"{pacman}\nvs {ghost}" for pacman, ghost in keys]
    figure, (wins_axis, score_axis) = pyplot.subplots(1, 2, figsize=(11, 4.6))
    positions = range(len(keys))
    ours = [assessment.cells[key] for key in keys]
    games = ours[0].games
    published_wins = [PUBLISHED_NUMBERS[key][0] for key in keys]
    published_intervals = [wilson_interval(wins, 5) for wins in published_wins]
    bar = 0.38
    left = [position - bar / 2 for position in positions]
    right = [position + bar / 2 for position in positions]
    wins_axis.bar(left, [cell.wins / cell.games for cell in ours], bar, color="#f2c200", edgecolor="black",
                  yerr=_bounds([cell.wins / cell.games for cell in ours], [(c.win_low, c.win_high) for c in ours]),
                  capsize=4, label=f"pacsim ({games} games a cell)")
    wins_axis.bar(right, [wins / 5 for wins in published_wins], bar, color="#9fb7d9", edgecolor="black",
                  yerr=_bounds([wins / 5 for wins in published_wins], published_intervals), capsize=4,
                  label="published (5 games)")
    wins_axis.set_ylim(0, 1.05)
    wins_axis.set_ylabel("share of games won (Wilson 95% interval)")
    wins_axis.set_title("Win rate")
    score_axis.bar(left, [cell.score_mean for cell in ours], bar, color="#f2c200", edgecolor="black",
                   yerr=_bounds([cell.score_mean for cell in ours], [(c.score_low, c.score_high) for c in ours]),
                   capsize=4, label=f"pacsim ({games} games a cell)")
    score_axis.bar(right, [PUBLISHED_NUMBERS[key][1] for key in keys], bar, color="#9fb7d9", edgecolor="black",
                   label="published (5 games)")
    score_axis.axhline(0, color="black", linewidth=0.8)
    score_axis.set_ylabel("mean score (95% t interval)")
    score_axis.set_title("Average score")
    for axis in (wins_axis, score_axis):
        axis.set_xticks(list(positions))
        axis.set_xticklabels(labels, fontsize=8)
        axis.set_xlabel("Pacman and ghost")
        axis.legend(fontsize=8, loc="lower left")
    paired = assessment.paired
    figure.suptitle("Optimism and pessimism: depth-4 Pacman, careful evaluation; expectimax - minimax vs the random "
                    f"ghost {paired.difference:+.1f} [{paired.difference_low:+.1f}, {paired.difference_high:+.1f}]",
                    fontsize=10)
    figure.tight_layout()
    _save(figure, pyplot, path)


def _bounds(values: Sequence[float], intervals: Sequence[tuple[float, float]]) -> list[list[float]]:
    lows = [0.0 if math.isnan(low) else max(0.0, value - low) for value, (low, _) in zip(values, intervals)]
    highs = [0.0 if math.isnan(high) else max(0.0, high - value) for value, (_, high) in zip(values, intervals)]
    return [lows, highs]


def _save(figure: Any, pyplot: Any, path: str | Path | io.BytesIO) -> None:
    try:
        if isinstance(path, io.BytesIO):  # a page's figure: no file of its own
            figure.savefig(path, dpi=DPI, format="svg")
            return
        with atomic_file(path, "the plot") as file:
            figure.savefig(file, dpi=DPI, format=Path(path).suffix.lstrip(".").lower())
    finally:
        pyplot.close(figure)
