"""What ``pacsim dashboard`` shows of a store, as plain values computed from
its rows: each run's progress and pace, per condition the win rate and mean
score with both kinds of interval (and their course as the games arrived), a
``compare``'s sequential test and a tournament's tables.  No text is
formatted here and nothing here knows of pages: :mod:`pacsim.web.dashboard_state`
lays these values out.

Every interval of a condition rests on its *finished prefix*: games 0 to
k - 1 by game index, all finished (as a ``compare``'s test rests on the
pairs both of whose games finished).  Games finish in the order they are
quick, not in the order they were drawn: in a parallel run the short games
(mostly losses) come first, so the games finished so far are not a sample of
the condition, while a prefix of game indices is, at every look.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pacsim.report.sequences import score_sequence, win_rate_sequence
from pacsim.report.sprt import BY_RESULT, Hypotheses, pair_results, sequential_test
from pacsim.report.stats import mean_interval, t_quantile_975, wilson_interval
from pacsim.report.summary import repetition_note
from pacsim.runner.aggregate import GroupFigures, Selection, StoreQuery
from pacsim.runner.row import REPLAYED_OUTCOMES

RATE_WINDOW_SECONDS = 60
"""Games a second: those finished in the last minute of play (or since the run began)."""
IDLE_AFTER_SECONDS = 30
"""A run none of whose games finished for this long, with games still to play, has stopped."""
LINES_UP_TO = 200_000
"""A run of more games has its lines of play left to ``pacsim report``: counting
them replays every game's log (seconds a hundred thousand games), too slow to repeat at every look."""
CHART_POINTS = 60
"""Looks drawn per condition's chart: the finished prefix at this many evenly spaced lengths."""
COMPARE_EXPERIMENT = "compare"
"""The experiment name ``pacsim compare`` stores its games under."""
COMPARE_HYPOTHESES = Hypotheses(0.0, 10.0)
"""compare's default hypotheses: the store does not keep those a run was given."""
TOURNAMENT_COLUMNS = ("pacman", "ghosts", "layout", "num_ghosts", "game_index", "outcome", "score", "error")
RUNNING, STOPPED, FINISHED = "running", "stopped", "finished"
"""A run's activity."""

Bounds = tuple[float, float]
"""An interval's low and high end (NaN, NaN: not enough games)."""


@dataclass(frozen=True)
class Look:
    """A condition's figures over its first ``games`` games by game index."""

    games: int
    win_rate: float
    win_one_look: Bounds
    """Wilson's 95% interval: for one look at a number of games fixed in advance."""
    win_anytime: Bounds
    """The 95% confidence sequence: holds at every look at once."""
    mean_score: float
    score_one_look: Bounds
    """The t interval, for one look."""
    score_anytime: Bounds
    """The asymptotic confidence sequence, for every look."""


@dataclass(frozen=True)
class ConditionFigures:
    """One condition of a run."""

    label: str
    stored: int
    """Games stored, in any order (failures included)."""
    in_order: int
    """The finished prefix: games 0 to ``in_order - 1`` by game index all finished."""
    lines: int | None
    """Distinct lines of play among the stored games; None when not counted (:data:`LINES_UP_TO`)."""
    now: Look | None
    """The figures over the finished prefix; None while it is empty."""
    course: tuple[Look, ...]
    """The same at up to :data:`CHART_POINTS` prefix lengths, the last being ``now``."""
    failures: int
    faults: int
    first_win: int | None
    """The store id of the condition's first win by game index (None: no win yet)."""
    first_loss: int | None
    repetition: str | None
    """The words for a condition whose games are mostly one line of play repeated."""


@dataclass(frozen=True)
class Pace:
    """How fast a run goes, read from its games' finishing times (not from the clock: it stops when the run stops)."""

    activity: str
    """:data:`RUNNING`, :data:`STOPPED` (games left, none finished for :data:`IDLE_AFTER_SECONDS`) or :data:`FINISHED`."""
    games_per_second: float
    """Over the last :data:`RATE_WINDOW_SECONDS` of play before its last game finished."""
    last_finished: float | None
    """When its last game finished (seconds since the epoch)."""
    seconds_left: float | None
    """Games left at that rate, while running."""


@dataclass(frozen=True)
class CompareFigures:
    """A ``compare`` run's sequential test over the pairs both of whose games finished, in game order."""

    labels: tuple[str, str]
    pairs: int
    finished: int
    llr: float
    lower: float
    upper: float
    decision: str
    """``H0``, ``H1`` or ``continue``."""
    advantage: float
    """A's net advantage in points (100 x the mean pair result), NaN without pairs."""
    advantage_one_look: Bounds
    hypotheses: Hypotheses


@dataclass(frozen=True)
class PlainTable:
    """A table of plain values (a tournament's standings)."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]


@dataclass(frozen=True)
class RunFigures:
    run: str
    """The run's config hash."""
    experiment: str
    updated_at: str
    done: int
    planned: int
    failures: int
    faults: int
    pace: Pace
    conditions: tuple[ConditionFigures, ...]
    compare: CompareFigures | None
    tournament: tuple[PlainTable, ...]


def store_runs(query: StoreQuery, now: float) -> list[RunFigures]:
    """Every run of a store, newest first, as it stands at ``now`` (seconds since the epoch).
    A look is one read transaction: its counts and its games in order come from one snapshot of the store
    (a run writing meanwhile cannot make them disagree), and the connection holds none between looks."""
    query.execute("BEGIN")
    try:
        runs = query.execute("SELECT config_hash, name, config, updated_at FROM experiments "
                             "ORDER BY updated_at DESC, rowid DESC").fetchall()
        return [run_figures(query, run, name, config, updated_at, now) for run, name, config, updated_at in runs]
    finally:
        query.connection.rollback()  # it read only: ending the snapshot lets the writer's log be checkpointed


def run_figures(query: StoreQuery, run: str, name: str, config_text: str, updated_at: str, now: float) -> RunFigures:
    query.selection = Selection(runs=(run,))
    config = json.loads(config_text)
    groups = query.groups(["condition"], lines=query.count() <= LINES_UP_TO)
    done = sum(group.games for group in groups)
    conditions = query.execute("SELECT count(*) FROM conditions WHERE config_hash = ?", (run,)).fetchone()[0]
    per_condition = int(config.get("games", 0) or 0)
    planned = max(per_condition * max(conditions, len(groups)), done)
    games = _games_in_order(query)
    figures = tuple(condition_figures(group, games.get(str(group.key[0]), []), per_condition or 100)
                    for group in groups)
    drawn = Path(f"{query.path}.tournament.json")
    return RunFigures(
        run=run, experiment=name, updated_at=updated_at, done=done, planned=planned,
        failures=sum(group.counts["error"] + group.counts["crash"] for group in groups),
        faults=sum(group.counts["faults"] for group in groups), pace=pace(query, run, planned - done, now),
        conditions=figures,
        compare=compare_figures(games, [str(group.key[0]) for group in groups]) if name == COMPARE_EXPERIMENT and len(groups) == 2 else None,
        tournament=tournament_tables(query) if drawn.is_file() and name != COMPARE_EXPERIMENT else ())


StoredGame = tuple[int, str, float, int]
"""A stored game as the dashboard reads it: game index, outcome, score, store id."""


def _games_in_order(query: StoreQuery) -> dict[str, list[StoredGame]]:
    """Each condition's stored games by game index (the store holds one row per condition and index:
    a rerun replaces a failed game's), read in the order of the store's own index."""
    source, parameters = query.source()
    found: dict[str, list[StoredGame]] = {}
    for label, index, outcome, score, game_id in query.execute(
            f"SELECT g.condition, g.game_index, g.outcome, g.score, g.id{source} "
            "ORDER BY g.config_hash, g.condition_key, g.game_index", parameters):
        found.setdefault(str(label), []).append((index, outcome, score, game_id))
    return found


def finished_prefix(games: list[StoredGame]) -> list[StoredGame]:
    """Games 0, 1, ... by game index up to the first not (yet) finished: a failure (played again by a
    rerun) or a game still being played ends the prefix."""
    prefix: list[StoredGame] = []
    for game in games:
        index, outcome = game[0], game[1]
        if index != len(prefix) or outcome in REPLAYED_OUTCOMES:
            break
        prefix.append(game)
    return prefix


def condition_figures(group: GroupFigures, games: list[StoredGame], tuned_for: int) -> ConditionFigures:
    """A condition's figures: counts over every stored game, rates and intervals over its finished prefix."""
    label = str(group.key[0])
    prefix = finished_prefix(games)
    course = looks(prefix, tuned_for)
    return ConditionFigures(
        label=label, stored=group.games, in_order=len(prefix), lines=group.lines if group.lines >= 0 else None,
        now=course[-1] if course else None, course=course,
        failures=group.counts["error"] + group.counts["crash"], faults=group.counts["faults"],
        first_win=next((game[3] for game in prefix if game[1] == "win"), None),
        first_loss=next((game[3] for game in prefix if game[1] == "loss"), None),
        repetition=repetition_note(label, group.games, group.lines) if group.lines >= 0 else None)


def looks(prefix: list[StoredGame], tuned_for: int, points: int = CHART_POINTS) -> tuple[Look, ...]:
    """The figures over the first n games of ``prefix`` for up to ``points`` evenly spaced n, the last n the whole prefix."""
    count = len(prefix)
    lengths = sorted({max(1, round(count * step / points)) for step in range(1, points + 1)}) if count else []
    found, wins, total, squares, games = [], 0, 0.0, 0.0, 0
    for length in lengths:
        for _, outcome, score, _ in prefix[games:length]:
            wins += outcome == "win"
            total += score
            squares += score * score
        games = length
        found.append(look(games, wins, total, squares, tuned_for))
    return tuple(found)


def look(games: int, wins: int, total: float, squares: float, tuned_for: int) -> Look:
    """One look's figures from its counts and sums (scores: their sum and sum of squares)."""
    mean = total / games
    spread = math.sqrt(max(0.0, squares - games * mean * mean) / (games - 1)) if games > 1 else math.nan
    margin = t_quantile_975(games - 1) * spread / math.sqrt(games) if games > 1 else math.nan
    return Look(games=games, win_rate=wins / games, win_one_look=wilson_interval(wins, games),
                win_anytime=win_rate_sequence(wins, games, tuned_for), mean_score=mean,
                score_one_look=(mean - margin, mean + margin),
                score_anytime=score_sequence(mean, spread, games, tuned_for))


def pace(query: StoreQuery, run: str, games_left: int, now: float) -> Pace:
    """Games a second over the last minute of play, ending at the run's last finished game (not at ``now``:
    a run that stopped keeps the pace it had); stopped when nothing finished for :data:`IDLE_AFTER_SECONDS`."""
    finish = "(CAST(strftime('%s', started_at) AS REAL) + coalesce(seconds, 0))"
    first, last = query.execute(f"SELECT min({finish}), max({finish}) FROM games WHERE config_hash = ?",
                                (run,)).fetchone()
    if last is None:
        return Pace(STOPPED if games_left else FINISHED, 0.0, None, None)
    since = max(first, last - RATE_WINDOW_SECONDS)
    (count,) = query.execute(f"SELECT count(*) FROM games WHERE config_hash = ? AND {finish} >= ?",
                             (run, since)).fetchone()
    rate = count / max(1.0, last - since)
    if games_left <= 0:
        return Pace(FINISHED, rate, last, None)
    if now - last > IDLE_AFTER_SECONDS:
        return Pace(STOPPED, rate, last, None)
    return Pace(RUNNING, rate, last, games_left / rate)


def compare_figures(games: dict[str, list[StoredGame]], labels: list[str]) -> CompareFigures:
    """A ``compare`` of ``labels`` (A, B): the sequential test over the pairs 0 to k - 1 both of whose games finished."""
    sides = [finished_prefix(games.get(label, [])) for label in labels]
    count = min(len(side) for side in sides)
    a, b = (side[:count] for side in sides)
    results = pair_results([game[1] for game in a], [game[2] for game in a],
                           [game[1] for game in b], [game[2] for game in b], BY_RESULT)
    state = sequential_test(results, COMPARE_HYPOTHESES)
    estimate, low, high = (100 * value for value in mean_interval(results.astype(float).tolist()))
    return CompareFigures(labels=(labels[0], labels[1]), pairs=state.pairs, finished=count, llr=state.llr,
                          lower=state.lower, upper=state.upper, decision=state.decision, advantage=estimate,
                          advantage_one_look=(low, high), hypotheses=COMPARE_HYPOTHESES)


def tournament_tables(query: StoreQuery) -> tuple[PlainTable, ...]:
    """A tournament's ratings with intervals and rank ranges, faults, and the crosstable (entrants named by their specs)."""
    import pandas

    from pacsim.report.leaderboard import build_leaderboard, standings_frame

    parts = list(query.frames(TOURNAMENT_COLUMNS))
    if not parts:
        return ()
    games = pandas.concat(parts, ignore_index=True)
    pacmen = {spec: entrant_name(spec) for spec in games["pacman"].unique()}
    ghosts = {spec: entrant_name(spec) for spec in games["ghosts"].unique()}
    board = build_leaderboard(games, pacmen, ghosts)
    tables = [_plain("Tournament: Pacmen", standings_frame(board.pacmen, "pacman"))]
    if len(board.ghosts) > 1:
        tables.append(_plain("Tournament: ghosts", standings_frame(board.ghosts, "ghosts")))
    if not board.crosstable.empty:
        tables.append(_plain("Crosstable: win rate (mean score) of the row Pacman", board.crosstable.reset_index()))
    return tuple(tables)


def entrant_name(spec: str) -> str:
    """A plugin entrant's file name without its folders (``students/ada/agent.py:Agent`` -> ``ada/agent.py:Agent``)."""
    parts = spec.replace("\\", "/").split("/")
    return "/".join(parts[-2:])


def _plain(title: str, frame: Any) -> PlainTable:
    return PlainTable(title, tuple(str(column) for column in frame.columns),
                      tuple(tuple(row) for row in frame.itertuples(index=False)))

