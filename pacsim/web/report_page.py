"""``pacsim report STORE --html``: the results as one self-contained page.

The page holds what the terminal report prints (the per-condition table with
intervals, the paired comparisons) and what it cannot: the figures as inline
SVG, provenance, and for each condition a replay of its first loss and first
win with the same player as ``pacsim replay --html``.  Every number comes
from :mod:`pacsim.report` (the games' part: :mod:`pacsim.report.page_games`);
this module only lays them out.
"""

from __future__ import annotations

import dataclasses
import html
import importlib.util
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas

from pacsim._version import __version__
from pacsim.errors import PacsimError, install_hint
from pacsim.report.format import format_summary
from pacsim.report.page_games import ConditionReplays, PageGames, provenance_rows, replayed_games
from pacsim.report.plot import FigureGames, varying_labels
from pacsim.report.summary import Comparison, repetition_notes
from pacsim.runner.store import load_saved_game
from pacsim.web.cli import write_page
from pacsim.web.player import asset, page_size, saved_game_html
from pacsim.web.values import recorded_trees

HEADING = re.compile(r"<th>([^<]*)</th>")
"""A heading cell of a table pandas wrote (its text escaped: no tags inside)."""


def report_page(store: str, results: pandas.DataFrame | PageGames, summary: pandas.DataFrame, by: Sequence[str],
                comparison: Comparison | None = None, tree_nodes: int = 0) -> str:
    """The whole page; ``comparison`` is the one asked for with --compare
    (else every pair of conditions, see :data:`~pacsim.report.page_games.MAX_PAIRED_CONDITIONS`);
    ``tree_nodes``: each replay carries its moves' search trees, cut to that
    many nodes (0: none; see :func:`pacsim.web.values.recorded_trees`)."""
    games = results if isinstance(results, PageGames) else PageGames.of(results, by, comparison)
    labels = ShortLabels.of(summary)
    sections = [
        f"<h1>pacsim report: {html.escape(Path(store).name)}</h1>",
        "<h2>Per condition</h2>",
        "<p>Win rate with its Wilson 95% interval, mean score with its 95% t interval; "
        f"lines: distinct lines of play (start and Pacman's moves) among the games.{labels.note()}</p>",
        wide(format_summary(labels.shorten(summary), "html"), "conditions"),
        notes_section(repetition_notes(summary)),
        comparisons_section(games.comparisons, labels),
        figures_section(games.figure, summary, by),
        provenance_table(games.provenance),
        replays_of(store, games.replays, tree_nodes),
    ]
    body = "\n".join(section for section in sections if section)
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="generator" content="pacsim {__version__}">\n'
            f"<title>pacsim report: {html.escape(Path(store).name)}</title>\n<style>\n{asset('report.css')}</style>\n</head>\n<body>\n{body}\n</body>\n</html>\n")


@dataclass(frozen=True)
class ShortLabels:
    """The tables name conditions by the parts of their labels that differ
    (``greedy/random`` for ``greedy/random/smallClassic``), as the figure
    does, so that they fit a 1200-pixel window; the page says the shared part once."""

    short: dict[str, str]
    shared: str

    @classmethod
    def of(cls, summary: pandas.DataFrame) -> ShortLabels:
        if "condition" not in summary.columns:  # grouped --by other columns: no condition labels
            return cls({}, "")
        labels = [str(label) for label in summary["condition"]]
        short, shared = varying_labels(labels)
        return cls(dict(zip(labels, short, strict=True)), shared)

    def __call__(self, label: str) -> str:
        return self.short.get(label, label)

    def shorten(self, summary: pandas.DataFrame) -> pandas.DataFrame:
        return summary.assign(condition=summary["condition"].astype(str).map(self)) if self.shared else summary

    def note(self) -> str:
        return f" Every condition's label also holds <code>{html.escape(self.shared)}</code>: the tables show the rest." if self.shared else ""


def notes_section(notes: list[str]) -> str:
    """The notes the terminal report prints under its table (conditions that mostly repeat one game)."""
    return "".join(f"<p>note: {html.escape(note)}</p>\n" for note in notes)


def wide(table: str, kind: str) -> str:
    """A table that scrolls sideways on a narrow screen instead of spilling
    out; ``kind`` (a class of report.css) says which of its columns hold text.
    Its headings may break (:func:`_breakable`)."""
    table = HEADING.sub(lambda found: f'<th>{_breakable(found[1])}</th>', table)
    return f'<div class="wide {kind}">{table}</div>'


def _breakable(heading: str) -> str:
    """A heading that may break after a slash or between ``time`` and ``outs`` (over a column of one-digit counts), never inside ``[95% CI]``."""
    return heading.replace("/", "/<wbr>").replace(" CI]", "&nbsp;CI]").replace("timeouts", "time<wbr>outs")


def comparisons_section(comparisons: list[Comparison], labels: ShortLabels) -> str:
    if not comparisons:
        return ""
    rows = [{
        "A": labels(pair.a), "B": labels(pair.b), "pairs": pair.pairs, "mean A": f"{pair.score_a:.1f}", "mean B": f"{pair.score_b:.1f}",
        "A - B [95% CI]": f"{pair.difference:+.1f} [{pair.difference_low:+.1f}, {pair.difference_high:+.1f}]",
        "wins A": pair.wins_a, "wins B": pair.wins_b, "only A won": pair.a_only, "only B won": pair.b_only,
        "McNemar p": f"{pair.p_value:.4g}",
    } for pair in comparisons]
    return ("<h2>Paired comparisons</h2>\n<p>Conditions A and B on the same seeds: the mean score difference with "
            "its 95% t interval, and the exact McNemar test on wins.</p>\n"
            + wide(pandas.DataFrame(rows).to_html(index=False), "pairs"))


def figures_section(results: pandas.DataFrame | FigureGames, summary: pandas.DataFrame, by: Sequence[str]) -> str:
    """The ``--plot`` figure as inline SVG; a note instead when matplotlib is missing."""
    if importlib.util.find_spec("matplotlib") is None:  # the page without figures: the tables hold the same numbers
        return f"<h2>Figures</h2>\n<p>The figures need matplotlib: {html.escape(install_hint('plot'))}.</p>"
    from pacsim.report.plot import plot_summary

    buffer = io.BytesIO()
    plot_summary(results, summary, by, buffer)
    svg = buffer.getvalue().decode("utf-8")
    return "<h2>Figures</h2>\n" + svg[svg.index("<svg"):]


def provenance_section(results: pandas.DataFrame) -> str:
    """Where the numbers came from: experiments, versions, machines, seeds, dates."""
    return provenance_table(provenance_rows(results))


def provenance_table(rows: list[dict[str, Any]]) -> str:
    # One column per experiment: its machines and seeds are long texts that a row of columns would squeeze.
    table = pandas.DataFrame(rows).set_index("experiment").transpose()
    return (f"<h2>Provenance</h2>\n<p>Report written by pacsim {html.escape(__version__)}.</p>\n"
            + wide(table.to_html(index_names=False), "provenance"))


def replays_section(store: str, results: pandas.DataFrame, tree_nodes: int = 0) -> str:
    """The first loss and the first win of each condition, replayed."""
    return replays_of(store, replayed_games(results), tree_nodes)


def replays_of(store: str, replays: Sequence[ConditionReplays], tree_nodes: int = 0) -> str:
    """The games section: each condition's chosen games, replayed."""
    parts = ["<h2>Games</h2>\n<p>Per condition, its first loss and first win (by game index; with neither, its first "
             "game), replayed through the rules from the stored actions; each opens at its end. Every condition "
             "plays the same seeds in the same order, so game 3 of one condition and game 3 of another share a "
             "seed. Open one alone with <code>pacsim replay STORE --game ID --html FILE</code> (ID: its store id).</p>"]
    for title, chosen, games in replays:
        figures = [replay_figure(store, row, label, games, tree_nodes) for label, row in chosen]
        parts.append(f"<h3>{html.escape(title)}</h3>\n<div class=\"replays\">{''.join(figures)}</div>")
    return "\n".join(parts)


def replay_figure(store: str, row: Any, label: str, games: int, tree_nodes: int = 0) -> str:
    game_id = int(row["id"])
    caption = html.escape(f"{label}: game {int(row['game_index']) + 1} of {games} (store id {game_id}), "
                          f"seed {int(row['seed'])}, score {int(row['score'])}")
    try:
        saved = load_saved_game(store, game_id)
    except PacsimError as error:  # one damaged game: said where its replay would be, the report still written
        return f"<figure><figcaption>{caption}</figcaption><p>cannot replay: {html.escape(str(error))}</p></figure>"
    entrant = row.get("pacman_name")  # a tournament's: the student's name, not the path of pacsim's copy of their code
    if isinstance(entrant, str) and entrant:
        saved = dataclasses.replace(saved, pacman=entrant)
    width, _ = page_size(saved.layout.width, saved.layout.height)
    # Two players side by side on a 1200-pixel page even when each, at the viewer's cell size, is a little wider
    # (the player shrinks its board to fit); never wider than that size.
    sizing = f"flex: 1 1 {round(width * 0.8)}px; max-width: {width}px"
    trees = None
    if tree_nodes:
        try:
            trees = recorded_trees(saved, saved.states(), tree_nodes)
        except PacsimError as error:  # a Pacman that does not search, or plugin code: the replay without trees
            caption += html.escape(f" (no search trees: {error})")
    return f'<figure style="{sizing}"><figcaption>{caption}</figcaption>{saved_game_html(saved, trees)}</figure>'


def write_report_page(path: str, store: str, results: pandas.DataFrame | PageGames, summary: pandas.DataFrame,
                      by: Sequence[str], comparison: Comparison | None = None, tree_nodes: int = 0) -> None:
    write_page(path, report_page(store, results, summary, by, comparison, tree_nodes))
