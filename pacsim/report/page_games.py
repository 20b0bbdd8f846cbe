"""What the results page (``pacsim report STORE --html``) shows of the games
besides the summary, as plain values: the paired comparisons, the figure's
scores, each run's provenance and the games each condition replays.

Computed here from a frame of every game, or in the store by
:func:`pacsim.report.store_report.page_games`; :mod:`pacsim.web.report_page`
lays them out.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import pandas

from pacsim.errors import PacsimError
from pacsim.provenance import short_commit
from pacsim.report.plot import FigureGames
from pacsim.report.summary import Comparison, compare

MAX_PAIRED_CONDITIONS = 8
"""Without --compare, every pair of conditions is compared when there are at
most this many (28 pairs); beyond that the page would be a wall of pairs."""

REPLAYED_OUTCOMES = ("loss", "win")
"""The games replayed per condition: the first of each of these outcomes."""


class ConditionReplays(NamedTuple):
    """One condition's games on the page (per experiment and condition when a store holds several runs)."""

    title: str
    chosen: list[tuple[str, Any]]
    """The games it replays, each with why (``first loss``): :func:`chosen_games`."""
    games: int
    """How many games it played."""


@dataclass
class PageGames:
    """What the page needs of the games besides the summary: the paired
    comparisons, the figure's scores, each run's provenance, and the games
    each condition replays.
    Built from a frame of every game (:meth:`of`) or in the store
    (:func:`pacsim.report.store_report.page_games`)."""

    comparisons: list[Comparison]
    figure: FigureGames
    provenance: list[dict[str, Any]]
    replays: list[ConditionReplays]

    @classmethod
    def of(cls, results: pandas.DataFrame, by: Sequence[str], comparison: Comparison | None = None) -> PageGames:
        return cls([comparison] if comparison is not None else all_pairs(results), FigureGames.of(results, by),
                   provenance_rows(results), replayed_games(results))


def all_pairs(results: pandas.DataFrame) -> list[Comparison]:
    """Every pair of conditions played on the same seeds, when there are few."""
    conditions = [str(label) for label in results["condition"].unique()]
    if len(conditions) > MAX_PAIRED_CONDITIONS or results["config_hash"].nunique() > 1:
        return []
    pairs = []
    for a, b in itertools.combinations(conditions, 2):
        try:
            pairs.append(compare(results, a, b))
        except PacsimError:  # no shared seeds: not a pair
            continue
    return pairs


def provenance_rows(results: pandas.DataFrame) -> list[dict[str, Any]]:
    """Where the numbers came from, one row per run: experiment, versions, machines, seeds, dates."""
    rows = []
    for (experiment, config_hash), games in results.groupby(["experiment", "config_hash"], sort=False):
        seeds = sorted(set(games["seed"]))
        rows.append({
            "experiment": experiment, "config hash": config_hash, "games": len(games),
            "conditions": games["condition"].nunique(), "seeds": describe_seeds(len(seeds), seeds[:3], seeds[-1], seeds),
            "pacsim": ", ".join(sorted(set(games["pacsim_version"]))),
            "commits": _distinct(games["git_commit"].map(short_commit, na_action="ignore")),
            "python": _distinct(games["python_version"]), "numba": _distinct(games["numba_version"]),
            "searched by": _distinct(games["searched_by"], missing="no search"),
            "machines": ", ".join(sorted(set(games["hostname"] + " (" + games["os"] + ")"))),
            "played": f"{games['started_at'].min()} to {games['started_at'].max()}",
        })
    return rows


def _distinct(values: pandas.Series, missing: str = "unknown") -> str:
    """The different values of a provenance column, ``missing`` standing for its empty cells."""
    known = sorted(set(values.dropna()))
    return ", ".join(known + ([missing] if values.isna().any() else []))


def describe_seeds(count: int, first: Sequence[int], last: int, every: Sequence[int] = ()) -> str:
    """A run's seeds: all of them when few (``every``, at most 6), else the count, the first three and the last."""
    if count <= 6:
        return ", ".join(map(str, every))
    return f"{count} seeds: {', '.join(map(str, first[:3]))}, ..., {last}"


def replayed_games(results: pandas.DataFrame) -> list[ConditionReplays]:
    """Per condition (per experiment and condition when a store holds several runs), the games it replays."""
    # Condition labels repeat across experiments in one store: then group by both.
    keys = ["experiment", "condition"] if results["config_hash"].nunique() > 1 else ["condition"]
    return [ConditionReplays(" / ".join(str(part) for part in (key if isinstance(key, tuple) else (key,))),
                             chosen_games(games), len(games))
            for key, games in results.groupby(keys, sort=False)]


def chosen_games(games: pandas.DataFrame) -> list[tuple[str, Any]]:
    """The games a condition shows, each with its label: the first of each
    :data:`REPLAYED_OUTCOMES`, or when it has none of them (all timeouts,
    say), its first game."""
    ordered = games.sort_values("game_index")
    chosen = [(f"first {outcome}", ordered[ordered["outcome"] == outcome].iloc[0])
              for outcome in REPLAYED_OUTCOMES if (ordered["outcome"] == outcome).any()]
    return chosen or [(f"first game ({ordered.iloc[0]['outcome']})", ordered.iloc[0])]
