"""The reports of a store computed in the store (:mod:`pacsim.runner.aggregate`):
the same tables and comparisons as :func:`~pacsim.report.summary.summarize`
and :func:`~pacsim.report.summary.compare` over a frame of every game, in
memory that grows with the groups, not with the games."""

from __future__ import annotations

import itertools
import math
from collections.abc import Collection, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas

from pacsim.errors import PacsimError, did_you_mean
from pacsim.report.runs import RunChoice, chosen_runs
from pacsim.report.stats import histogram_mean_interval, histogram_median, mcnemar_exact, wilson_interval
from pacsim.report.summary import SUMMARY_COLUMNS, Comparison, default_by
from pacsim.runner.aggregate import GroupFigures, Selection, StoreQuery
from pacsim.runner.store import load_runs

if TYPE_CHECKING:
    from pacsim.report.page_games import PageGames
    from pacsim.report.plot import FigureGames


def open_query(store: str | Path, choice: RunChoice | None = None, experiment: str | None = None) -> tuple[StoreQuery, str | None]:
    """The store's chosen runs (:mod:`pacsim.report.runs`) ready to query, and the note saying which."""
    runs, note = chosen_runs(load_runs(store), choice or RunChoice())
    return StoreQuery(store, Selection(runs=runs, experiment=experiment)), note


def store_default_by(query: StoreQuery) -> list[str]:
    """:func:`~pacsim.report.summary.default_by` of the selected games."""
    present = query.runs_present()
    if present.empty:
        return ["condition"]
    return default_by(present)


def summarize_store(query: StoreQuery, by: Sequence[str] | None = None) -> pandas.DataFrame:
    """:func:`~pacsim.report.summary.summarize` of the selected games, computed in SQL."""
    by = list(by) if by else store_default_by(query)
    for column in by:
        query.expression(column)  # an unknown column is refused before the store is read
    groups = query.groups(by)
    if not groups:
        raise PacsimError("no games to summarize")
    keys = query.keys_frame(by, [group.key for group in groups])
    figures = pandas.DataFrame([summary_figures(group) for group in groups], columns=list(SUMMARY_COLUMNS))
    return pandas.concat([keys, figures], axis=1)


def summary_figures(group: GroupFigures) -> dict[str, Any]:
    """One group's :data:`~pacsim.report.summary.SUMMARY_COLUMNS`, as ``summarize`` computes them."""
    count, wins, moves = group.games, group.counts["win"], group.moves
    win_low, win_high = wilson_interval(wins, count)
    score_mean, score_low, score_high = histogram_mean_interval(group.scores)
    return {
        "games": count, "lines": group.lines if group.lines >= 0 else math.nan, "wins": wins, "win_rate": wins / count,
        "win_low": win_low, "win_high": win_high, "score_mean": score_mean, "score_low": score_low,
        "score_high": score_high, "score_median": histogram_median(group.scores),
        "losses": group.counts["loss"], "timeouts": group.counts["timeout"], "errors": group.counts["error"],
        "crashes": group.counts["crash"], "faults": group.counts["faults"], "moves_mean": moves / count,
        "nodes_per_move": group.nodes / moves if moves else math.nan,
        "seconds_per_move": group.thinking / moves if moves else math.nan,
    }


def compare_store(query: StoreQuery, a: str, b: str, by: str = "condition") -> Comparison:
    """:func:`~pacsim.report.summary.compare` of the selected games, computed in SQL."""
    known = [str(value) for value in query.label_values(by)]
    for label in (a, b):
        if label not in known:
            raise PacsimError(f"no games with {by} {label!r} (known: {', '.join(known)}){did_you_mean(label, known)}")
    rows, repeated = query.paired(by, a, b)
    for label, extra in zip((a, b), repeated):
        if extra:
            raise PacsimError(f"{by} {label!r} holds several games per index: {runs_holding(query, by, label)}")
    pairs = sum(row[-1] for row in rows)
    if not pairs:
        raise PacsimError(f"{a!r} and {b!r} have no games with the same seed to compare")
    differences: dict[float, int] = {}
    for score_a, score_b, _, _, count in rows:
        differences[float(score_a - score_b)] = differences.get(float(score_a - score_b), 0) + count
    difference, low, high = histogram_mean_interval(differences)
    wins_a = sum(count for _, _, won_a, _, count in rows if won_a)
    wins_b = sum(count for _, _, _, won_b, count in rows if won_b)
    a_only = sum(count for _, _, won_a, won_b, count in rows if won_a and not won_b)
    b_only = sum(count for _, _, won_a, won_b, count in rows if won_b and not won_a)
    return Comparison(a=a, b=b, pairs=pairs, score_a=sum(row[0] * row[-1] for row in rows) / pairs,
                      score_b=sum(row[1] * row[-1] for row in rows) / pairs, difference=difference,
                      difference_low=low, difference_high=high, wins_a=wins_a, wins_b=wins_b,
                      a_only=a_only, b_only=b_only, p_value=mcnemar_exact(a_only, b_only))


def runs_holding(query: StoreQuery, by: str, label: str) -> str:
    """Which chosen runs hold games of ``label``, and the option that picks one of them: ``--experiment``
    for runs of different experiments (``pacsim reproduce`` stores the slide's games beside its run, with
    the same root seed), ``--root-seed`` for runs of one experiment on different seeds, else ``--run``."""
    source, parameters = query.source()
    joined = " AND " if " WHERE " in source else " WHERE "
    runs = query.execute(
        f"SELECT DISTINCT g.experiment, g.config_hash, json_extract(e.config, '$.seed'){source}{joined}"
        f"CAST({query.expression(by)} AS TEXT) = ? ORDER BY g.experiment, g.config_hash", [*parameters, label]).fetchall()
    described = "; ".join(f"{experiment} root seed {seed} (run {run[:8]})" for experiment, run, seed in runs)
    experiments = list(dict.fromkeys(experiment for experiment, _, _ in runs))
    seeds = {seed for _, _, seed in runs}
    if len(experiments) == len(runs):
        how = " or ".join(f"--experiment {experiment}" for experiment in experiments)
    elif len(seeds) == len(runs):
        how = " or ".join(f"--root-seed {seed}" for seed in sorted(seeds))
    else:
        how = " or ".join(f"--run {run[:8]}" for _, run, _ in runs)
    return f"it is in {len(runs)} runs ({described}); pick one with {how}"


def store_games_to_replay(query: StoreQuery) -> list[tuple[str, dict[str, Any]]]:
    """:func:`~pacsim.report.summary.games_to_replay` of the selected games: three queries, no frame."""
    picks = []
    for why, outcome in (("first win", "win"), ("first loss", "loss")):
        game = query.first_game(f"g.outcome = '{outcome}'")
        if game is not None:
            picks.append((why, game))
    longest = query.first_game(order="g.moves DESC, ")
    if longest is not None:
        picks.append(("longest", longest))
    return picks


def selected_frame(query: StoreQuery, columns: Collection[str], experiments: tuple[str, ...] | None = None) -> pandas.DataFrame:
    """The selected games (of these ``experiments`` only, if given) as one
    frame of these ``columns``, as ``load_results`` and ``with_root_seeds``
    give them: for what needs every game's values (a figure, a page)."""
    narrowed = StoreQuery(query.path, replace(query.selection, experiments=experiments)) if experiments else query
    try:
        parts = list(narrowed.frames({*columns, "root_seed"}))
    finally:
        if narrowed is not query:
            narrowed.connection.close()
    if not parts:
        return pandas.DataFrame(columns=["id", *columns])
    return parts[0] if len(parts) == 1 else pandas.concat(parts, ignore_index=True).infer_objects()


def figure_games(query: StoreQuery, by: Sequence[str]) -> FigureGames:
    """:class:`~pacsim.report.plot.FigureGames` of the selected games, from SQL:
    the figure of ``report --plot`` and ``--html`` without a frame of every game."""
    from pacsim.report.plot import FACET_COLUMNS, FigureGames

    groups = query.groups(by, lines=False)
    spreads = {column: query.column_spread(by, column) for column in FACET_COLUMNS}
    columns = [column for column, (per_group, overall) in spreads.items()
               if max(count for count, _ in per_group) == 1 and overall > 1]
    facets: dict[tuple[str, tuple[str, ...]], list[int]] = {}
    if not columns:
        facets[("", ())] = list(range(len(groups)))
    for row in range(len(groups)) if columns else ():
        key = [spreads[column][0][row][1] for column in columns]
        title = ", ".join(f"{column}={value}" for column, value in zip(columns, key))
        facets.setdefault((title, tuple(map(str, key))), []).append(row)
    experiments = [str(name) for name in dict.fromkeys(query.runs_present()["experiment"])]
    return FigureGames([group.scores for group in groups], facets, experiments)


def page_games(query: StoreQuery, by: Sequence[str], comparison: Comparison | None = None) -> PageGames:
    """:class:`~pacsim.report.page_games.PageGames` of the selected games, from SQL:
    the HTML report's comparisons, figure, provenance and replays without a frame of every game."""
    from pacsim.report.page_games import MAX_PAIRED_CONDITIONS, ConditionReplays, PageGames

    runs = query.runs_present()
    comparisons = [comparison] if comparison is not None else []
    labels = [str(label) for label in query.label_values("condition")]
    if comparison is None and len(labels) <= MAX_PAIRED_CONDITIONS and runs["config_hash"].nunique() <= 1:
        for a, b in itertools.combinations(labels, 2):
            try:
                comparisons.append(compare_store(query, a, b))
            except PacsimError:  # no shared seeds: not a pair
                continue
    keys = ["experiment", "condition"] if runs["config_hash"].nunique() > 1 else ["condition"]
    replays = [ConditionReplays(" / ".join(str(part) for part in key), _chosen(firsts), games)
               for key, games, firsts in query.first_by_outcome(keys)]
    return PageGames(comparisons, figure_games(query, by), [_provenance(run) for run in query.runs_provenance()], replays)


def _chosen(firsts: dict[str, dict[str, Any]]) -> list[tuple[str, Any]]:
    """:func:`~pacsim.report.page_games.chosen_games` of a group from its first game of each outcome."""
    from pacsim.report.page_games import REPLAYED_OUTCOMES

    chosen = [(f"first {outcome}", firsts[outcome]) for outcome in REPLAYED_OUTCOMES if outcome in firsts]
    return chosen or [(f"first game ({firsts['']['outcome']})", firsts[""])]


def _provenance(run: dict[str, Any]) -> dict[str, Any]:
    """:func:`~pacsim.report.page_games.provenance_rows`' row of a run, from its figures in the store."""
    from pacsim.provenance import short_commit
    from pacsim.report.page_games import describe_seeds

    values = run["values"]

    def distinct(known: list[Any], missing: str = "unknown") -> str:
        return ", ".join(sorted({value for value in known if value is not None}) + ([missing] if None in known else []))

    played = (pandas.to_datetime(pandas.Series([run["first_start"], run["last_start"]]), utc=True, format="ISO8601",
                                 errors="coerce"))
    return {
        "experiment": run["experiment"], "config hash": run["config_hash"], "games": run["games"],
        "conditions": run["conditions"], "seeds": describe_seeds(run["seeds"], run["first_seeds"], run["last_seed"],
                                                                 run["first_seeds"]),
        "pacsim": ", ".join(sorted(values["pacsim_version"])),
        "commits": distinct([None if commit is None else short_commit(commit) for commit in values["git_commit"]]),
        "python": distinct(values["python_version"]), "numba": distinct(values["numba_version"]),
        "searched by": distinct(values["searched_by"], missing="no search"),
        "machines": ", ".join(sorted(values["machine"])), "played": f"{played[0]} to {played[1]}",
    }
