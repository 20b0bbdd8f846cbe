"""Figures: ``pacsim report --plot`` and the reproduction beside the published table.

The file's suffix picks the format (PNG at :data:`DPI`, PDF or SVG), and is
checked before any work is done.  Labels name only what differs between the
groups; what every group shares goes into the title.
"""

from __future__ import annotations

import bisect
import io
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
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


def missing_plot_note(option: str = "--plot") -> str | None:
    """The one line said instead of a figure when matplotlib is missing (the
    tables asked for are still written, as the HTML report does), or None."""
    import importlib.util

    if importlib.util.find_spec("matplotlib") is not None:
        return None
    return f"{option} needs matplotlib, which is not installed: no figure written; {install_hint('plot')}"


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


def headless_pyplot() -> Any:
    """matplotlib's pyplot drawing into files only (no display needed); without matplotlib, one line naming the extra."""
    try:
        import matplotlib

        matplotlib.use("Agg")  # files only: no display needed
        import matplotlib.pyplot as pyplot
    except ImportError:
        raise PacsimError(f"--plot needs matplotlib; {install_hint('plot')}") from None
    return pyplot


FACET_COLUMNS = ("ghosts", "layout")
"""Columns a grid figure is split by, one panel row per value pair, so that
it stays readable at any grid size."""
BAR_INCHES = 0.3
"""Height of one group's bar in a panel."""


@dataclass(frozen=True)
class FigureGames:
    """What the grid figure needs of the games, without them: each group's
    scores as a histogram (score -> games), the panel rows
    (:func:`facet_rows`), and the experiments' names."""

    scores: list[dict[float, int]]
    facets: dict[tuple[str, tuple[str, ...]], list[int]]
    experiments: list[str]

    @classmethod
    def of(cls, results: pandas.DataFrame, by: Sequence[str]) -> FigureGames:
        groups = results.groupby(list(by), sort=False, dropna=False)
        scores = [{float(score): int(count) for score, count in games["score"].value_counts().items()} for _, games in groups]
        experiments = [str(name) for name in results["experiment"].unique()] if "experiment" in results else []
        return cls(scores, facet_rows(results, by), experiments)


def plot_summary(results: pandas.DataFrame | FigureGames, summary: pandas.DataFrame, by: Sequence[str],
                 path: str | Path | io.BytesIO) -> None:
    """Save the grid figure: a row of two panels per ghost and layout (where
    those differ between groups), win rate per group with Wilson 95% error
    bars and a box plot of the scores per group, as horizontal bars whose
    labels name only what differs within the row; a group keeps its colour
    in every row.  Into a buffer (``io.BytesIO``): as SVG, for a page.
    ``results``: the games, or what the figure needs of them (:class:`FigureGames`)."""
    if not isinstance(path, io.BytesIO):
        check_plot_path(path)
    pyplot = headless_pyplot()
    games = results if isinstance(results, FigureGames) else FigureGames.of(results, by)
    labels = {index: _without(label, shared) for (_, shared), rows in games.facets.items()
              for index, label in zip(rows, group_names(summary.iloc[rows], by)[0])}
    palette = dict(zip(dict.fromkeys(labels.values()), group_colours(pyplot, len(set(labels.values())))))
    heights = [BAR_INCHES * len(rows) + 0.9 for rows in games.facets.values()]
    figure, axes = pyplot.subplots(len(games.facets), 2, figsize=(12, sum(heights) + 0.8), squeeze=False,
                                   gridspec_kw={"height_ratios": heights})
    for ((title, _), rows), (wins_axis, score_axis) in zip(games.facets.items(), axes):
        _facet(wins_axis, score_axis, summary.iloc[rows], [games.scores[row] for row in rows],
               [labels[row] for row in rows], palette)
        wins_axis.set_title(f"Win rate{f' ({title})' if title else ''}", fontsize=9)
        score_axis.set_title(f"Score per game{f' ({title})' if title else ''}", fontsize=9)
    axes[-1][0].set_xlabel("share of games won (Wilson 95% interval)")
    axes[-1][1].set_xlabel("final score")
    figure.suptitle(plot_title(games.experiments, summary, group_names(summary, by)[1]), fontsize=10)
    figure.tight_layout()
    save_figure(figure, pyplot, path)


def _facet(wins_axis: Any, score_axis: Any, summary: pandas.DataFrame, scores: list[dict[float, int]], labels: list[str],
           palette: dict[str, Any]) -> None:
    """One row of the grid figure: its groups' win rates and scores, the first group on top."""
    positions = list(range(len(labels)))
    colours = [palette[label] for label in labels]
    wins_axis.barh(positions, summary["win_rate"], xerr=_error_bars(summary, "win"), capsize=3,
                   color=colours, edgecolor="black")
    wins_axis.set_xlim(0, 1.05)
    boxes = score_axis.bxp([box_statistics(counts) for counts in scores], positions=positions, patch_artist=True,
                           medianprops={"color": "black"}, **_horizontal())
    for box, colour in zip(boxes["boxes"], colours):
        box.set_facecolor(colour)
    for axis in (wins_axis, score_axis):
        axis.set_yticks(positions)
        axis.set_yticklabels(labels, fontsize=8)
        axis.invert_yaxis()
    score_axis.set_yticklabels([])  # the win rate panel beside it names the groups


def box_statistics(counts: dict[float, int], whisker: float = 1.5) -> dict[str, Any]:
    """The box of a box plot (matplotlib's ``boxplot_stats``: quartiles by
    linear interpolation, whiskers at the farthest values within ``whisker``
    times the box's length) from a histogram of the values; each outlying
    value is drawn once, however many games scored it."""
    values = sorted(counts)
    total = sum(counts.values())
    if not total:
        return {"med": math.nan, "q1": math.nan, "q3": math.nan, "whislo": math.nan, "whishi": math.nan, "fliers": []}
    cumulative = list(itertools.accumulate(counts[value] for value in values))

    def at(rank: int) -> float:  # the value at this place of the sorted games
        return float(values[bisect.bisect_right(cumulative, rank)])

    def percentile(share: float) -> float:
        place = share * (total - 1)
        low = math.floor(place)
        return at(low) + (at(min(low + 1, total - 1)) - at(low)) * (place - low)

    first, median, third = (percentile(share) for share in (0.25, 0.5, 0.75))
    reach = whisker * (third - first)
    inside = [value for value in values if first - reach <= value <= third + reach]
    low_whisker = min(inside) if inside else first
    high_whisker = max(inside) if inside else third
    return {"med": median, "q1": first, "q3": third, "whislo": low_whisker, "whishi": high_whisker,
            "fliers": [value for value in values if value < low_whisker or value > high_whisker]}


def _horizontal() -> dict[str, Any]:
    """Horizontal boxes, in the words of this matplotlib (``vert`` is deprecated from 3.10 on)."""
    import matplotlib

    major, minor = (int(part) for part in matplotlib.__version__.split(".")[:2])
    return {"orientation": "horizontal"} if (major, minor) >= (3, 10) else {"vert": False}


def facet_rows(results: pandas.DataFrame, by: Sequence[str]) -> dict[tuple[str, tuple[str, ...]], list[int]]:
    """The summary rows (by position) of each panel row of the grid figure,
    under its title (``ghosts=random, layout=smallClassic``) and the values
    its groups share: split by each of :data:`FACET_COLUMNS` that is one
    value within every group and differs between groups; one untitled row
    when none does."""
    groups = results.groupby(list(by), sort=False, dropna=False)
    columns = [column for column in FACET_COLUMNS if column in results.columns
               and groups[column].nunique(dropna=False).max() == 1 and results[column].nunique(dropna=False) > 1]
    if not columns:
        return {("", ()): list(range(groups.ngroups))}
    facets: dict[tuple[str, tuple[str, ...]], list[int]] = {}
    for row, key in enumerate(groups[columns].first().itertuples(index=False)):
        title = ", ".join(f"{column}={value}" for column, value in zip(columns, key))
        facets.setdefault((title, tuple(map(str, key))), []).append(row)
    return facets


def _without(label: str, shared: tuple[str, ...], separator: str = "/") -> str:
    """A group's label without the parts its panel row's title names
    (``minimax/random/smallClassic/depth=2`` -> ``minimax/depth=2``)."""
    parts = label.split(separator)
    for value in shared:  # the last such part: a random Pacman against random ghosts keeps its first 'random'
        if value in parts[1:]:
            del parts[len(parts) - 1 - parts[::-1].index(value)]
    return separator.join(parts)


def group_colours(pyplot: Any, count: int) -> list[Any]:
    """One distinct colour per group (tab10, then tab20 for more groups)."""
    palette = pyplot.get_cmap("tab10" if count <= 10 else "tab20")
    return [palette(index % palette.N) for index in range(count)]


def plot_title(experiments: Sequence[str], summary: pandas.DataFrame, shared: str) -> str:
    """What was run: the experiment(s), the games, and what every group shares."""
    title = f"{', '.join(experiments)}: " if experiments else ""
    title += f"{int(summary['games'].sum())} games in {len(summary)} groups"
    return title + (f" ({shared})" if shared else "")


def _error_bars(summary: pandas.DataFrame, prefix: str) -> list[list[float]]:
    """Distances from the estimate to its bounds, never negative (matplotlib refuses those)."""
    rate = summary[f"{prefix}_rate"]
    return [[max(0.0, value) for value in rate - summary[f"{prefix}_low"]],
            [max(0.0, value) for value in summary[f"{prefix}_high"] - rate]]


def plot_reproduction(assessment: Assessment, path: str | Path) -> None:
    """The table in the slide's shape: Pacman rows by ghost columns.  Each
    panel shows the shares of pacsim's games won, caught and stalled (Wilson
    intervals) with the published win share marked (its 5-game interval too),
    and both mean scores in its title; the legend sits below the panels."""
    from pacsim.report.optimism import GHOSTS, PACMEN, PUBLISHED_NUMBERS, SLIDE_GAMES
    from pacsim.report.stats import wilson_interval

    check_plot_path(path)
    pyplot = headless_pyplot()
    figure, axes = pyplot.subplots(len(PACMEN), len(GHOSTS), figsize=(9, 6.4), sharey=True)
    outcomes = ("won", "caught", "stalled")
    colours = ("#f2c200", "#d9534f", "#9a9a9a")
    for row, pacman in enumerate(PACMEN):
        for column, ghost in enumerate(GHOSTS):
            axis, cell = axes[row][column], assessment.cells[(pacman, ghost)]
            counts = (cell.wins, cell.losses, cell.timeouts)
            shares = [count / cell.games for count in counts]
            intervals = [wilson_interval(count, cell.games) for count in counts]
            axis.bar(range(3), shares, 0.6, color=colours, edgecolor="black", yerr=_bounds(shares, intervals),
                     capsize=4)
            wins, score = PUBLISHED_NUMBERS[(pacman, ghost)]
            low, high = wilson_interval(wins, SLIDE_GAMES)
            axis.errorbar([0.4], [wins / SLIDE_GAMES], yerr=[[wins / SLIDE_GAMES - low], [high - wins / SLIDE_GAMES]],
                          fmt="D", color="#1f4e9c", markersize=9, capsize=6, zorder=3)
            axis.set_xticks(range(3))
            axis.set_xticklabels(outcomes)
            axis.set_ylim(0, 1.08)
            axis.set_title(f"{pacman.capitalize()} Pacman vs {ghost} ghost\npacsim mean {cell.score_mean:.0f} "
                           f"[{cell.score_low:.0f}, {cell.score_high:.0f}]; published {score}", fontsize=9)
            if column == 0:
                axis.set_ylabel("share of games (95% interval)")
    handles = [pyplot.Rectangle((0, 0), 1, 1, facecolor=colour, edgecolor="black") for colour in colours]
    handles.append(pyplot.Line2D([], [], marker="D", color="#1f4e9c", linestyle="none", markersize=8))
    games = assessment.cells[(PACMEN[0], GHOSTS[0])].games
    figure.legend(handles, [f"pacsim: {name} ({games} games a cell)" for name in outcomes]
                  + [f"published: won ({SLIDE_GAMES} games, Wilson 95% interval)"],
                  loc="lower center", ncol=2, fontsize=8, frameon=False)
    paired = assessment.paired
    figure.suptitle("Optimism and pessimism, in the slide's shape; expectimax - minimax vs the random ghost "
                    f"{paired.difference:+.1f} [{paired.difference_low:+.1f}, {paired.difference_high:+.1f}]",
                    fontsize=10)
    figure.tight_layout(rect=(0, 0.09, 1, 1))
    save_figure(figure, pyplot, path)


def _bounds(values: Sequence[float], intervals: Sequence[tuple[float, float]]) -> list[list[float]]:
    lows = [0.0 if math.isnan(low) else max(0.0, value - low) for value, (low, _) in zip(values, intervals)]
    highs = [0.0 if math.isnan(high) else max(0.0, high - value) for value, (_, high) in zip(values, intervals)]
    return [lows, highs]


def save_figure(figure: Any, pyplot: Any, path: str | Path | io.BytesIO, dpi: int = DPI) -> None:
    """``figure`` written atomically to ``path`` (its format from the suffix; into a buffer: SVG), then closed."""
    try:
        if isinstance(path, io.BytesIO):  # a page's figure: no file of its own
            figure.savefig(path, dpi=dpi, format="svg")
            return
        with atomic_file(path, "the plot") as file:
            figure.savefig(file, dpi=dpi, format=Path(path).suffix.lstrip(".").lower())
    finally:
        pyplot.close(figure)
