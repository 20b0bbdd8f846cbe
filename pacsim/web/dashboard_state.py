"""What ``pacsim dashboard`` shows of its stores, laid out as JSON for the
page: every run's progress, its per-condition table and charts, a
``compare``'s sequential test, a tournament's tables.

The figures are computed in :mod:`pacsim.report.dashboard` from the stores'
rows; this module only formats them: every table is ``{"title", "legend",
"columns", "rows", "notes", "explain"}`` (and ``"groups"``: a heading row
above the columns, ``[text, columns spanned]``; the legend: ``[term,
meaning]`` pairs shown above the table) whose cells are text or ``{"text",
"href"}`` (a link to the game a number rests on) and whose columns are text
or ``{"text", "title"}`` (the title says what the column holds); every chart
is a condition's looks as numbers (null where there is no interval yet), which
the page draws.  A store is read again only when its files changed.
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pacsim.errors import PacsimError
from pacsim.report.contest_board import ContestBoard, ContestProgress, contest_progress, whole
from pacsim.report.dashboard import (
    FINISHED,
    RUNNING,
    Bounds,
    CompareFigures,
    ConditionFigures,
    Look,
    Pace,
    PlainTable,
    RunFigures,
    store_runs,
)
from pacsim.runner.aggregate import StoreQuery
from pacsim.runner.contest_store import read_contests

RECHECK_SECONDS = 5
"""A store whose files did not change is read again after this long: a run may have stopped meanwhile."""

ONE_LOOK = ("one look, 95%",
            "For a number of games fixed in advance, read once (as the final report gives it): "
            "Wilson for the win rate, t for the mean score. Watched game after game it misses far more than 5% of the time.")
ANYTIME = ("anytime, 95%",
           "A confidence sequence: it holds at every look at once, so it may be watched while games arrive "
           "and the run stopped when it is narrow enough (Howard et al. 2021; scores: Waudby-Smith et al. 2024).")
IN_ORDER = ("in order",
            "Games 0 to k-1 by game index, all finished: the rates and intervals rest on these. "
            "Short games finish first in a parallel run, so the games finished so far would lean towards them.")
CONDITIONS_LEGEND = [
    ["in order", "rates and intervals are over games 0 to k-1 by game index, all finished (the games that "
                 "finish first are the short ones: they would bias an early look)"],
    [ONE_LOOK[0], "for one look at a number of games fixed in advance, as the final report gives it (Wilson, t); "
                  "watched game after game it misses far more often than 5%"],
    [ANYTIME[0], "a confidence sequence: it holds at every look at once, so watch it freely and stop when it is "
                 "narrow enough (wider: about 1.5 to 2 times)"]]
"""The legend above the table: each term and what it means."""


def cell(text: str, href: str | None = None) -> Any:
    return {"text": text, "href": href} if href else text


def column(text: str, title: str) -> dict[str, str]:
    return {"text": text, "title": title}


def interval(bounds: Bounds, digits: int) -> str:
    low, high = bounds
    return "n/a" if math.isnan(low) else f"[{low:.{digits}f}, {high:.{digits}f}]"


@dataclass
class _Cached:
    key: tuple[Any, ...]
    state: dict[str, Any]
    read: float


class DashboardState:
    """The state of some stores, read again only when a store's files change
    (the page's state a second old at most: polls in between get the last one)."""

    def __init__(self, stores: Sequence[str | Path]) -> None:
        self.stores = [Path(store) for store in stores]
        self._cache: dict[int, _Cached] = {}
        self._queries: dict[tuple[int, int], StoreQuery] = {}
        self._lock = threading.Lock()

    def state(self) -> dict[str, Any]:
        with self._lock:  # two viewers polling at once read the store once
            return {"stores": [self._store(index) for index in range(len(self.stores))],
                    "at": datetime.now(UTC).isoformat(timespec="seconds")}

    def _store(self, index: int) -> dict[str, Any]:
        path = self.stores[index]
        key = tuple(_signature(Path(f"{path}{suffix}")) for suffix in ("", "-wal"))
        cached = self._cache.get(index)
        if cached is None or cached.key != key or time.monotonic() - cached.read > RECHECK_SECONDS:
            try:
                # Opened (and checked: a read of every row) once per thread, then kept: a server answers from
                # a pool of threads, and an SQLite connection serves the thread that opened it.
                contests = read_contests(path)
                if contests is not None:  # a capture contest's store: its standings as games come in
                    state = contest_store_state(path, contests)
                else:
                    place = (index, threading.get_ident())
                    if place not in self._queries:
                        self._queries[place] = StoreQuery(path)
                    state = store_state(self._queries[place], index)
            except PacsimError as error:
                self._queries.pop((index, threading.get_ident()), None)
                state = {"store": path.name, "path": str(path), "error": str(error), "runs": []}
            self._cache[index] = cached = _Cached(key, state, time.monotonic())
        return cached.state


def _signature(path: Path) -> tuple[float, int] | None:
    try:
        status = os.stat(path)
    except OSError:
        return None
    return status.st_mtime, status.st_size


def store_state(query: StoreQuery, index: int) -> dict[str, Any]:
    """One store: each run, newest first."""
    runs = store_runs(query, time.time())
    return {"store": query.path.name, "path": str(query.path), "runs": [run_state(run, index) for run in runs]}


def run_state(run: RunFigures, index: int) -> dict[str, Any]:
    rate, left = pace_words(run.pace)
    tables = [conditions_table(run.conditions, index)]
    if run.compare is not None:
        tables.append(compare_table(run.compare))
    tables += [plain_table(table) for table in run.tournament]
    return {"run": run.run[:8], "experiment": run.experiment, "updated_at": run.updated_at, "done": run.done,
            "planned": run.planned, "progress": f"{run.done:,} of {run.planned:,} games", "rate": rate, "left": left,
            "failures": run.failures, "faults": run.faults, "tables": tables,
            "charts": [chart(condition) for condition in run.conditions if condition.course]}


def pace_words(pace: Pace) -> tuple[str, str]:
    """The run's pace and time left in words; neither changes once the run stops."""
    if pace.last_finished is None:
        return "no game yet", "n/a"
    last = datetime.fromtimestamp(pace.last_finished, UTC).strftime("%H:%M:%S UTC")
    rate = f"{pace.games_per_second:.1f} games/s"
    if pace.activity == RUNNING:
        return rate, _duration(pace.seconds_left or 0.0)
    if pace.activity == FINISHED:
        return f"finished at {last} ({rate} in its last minute)", "done"
    return f"stopped: no game finished since {last} ({rate} before)", "n/a (stopped)"


def _duration(seconds: float) -> str:
    whole = int(seconds)
    return f"{whole // 3600}h {whole // 60 % 60:02d}m" if whole >= 3600 else f"{whole // 60}m {whole % 60:02d}s"


def conditions_table(conditions: Sequence[ConditionFigures], index: int) -> dict[str, Any]:
    """The per-condition table: win rate and mean score over the games in order, each with both intervals."""
    rows, notes = [], []
    for condition in conditions:
        rows.append(condition_row(condition, index))
        notes += [condition.repetition] if condition.repetition else []
    one_look, anytime = column(*ONE_LOOK), column(*ANYTIME)
    return {"title": "Per condition", "legend": CONDITIONS_LEGEND,
            "groups": [["", 4], ["win rate", 3], ["mean score", 3], ["", 2]], "columns": [
        "condition", column("games", "Games stored, in any order, failures included."), column(*IN_ORDER),
        column("lines", "Distinct lines of play among the stored games."),
        column("estimate", "The win rate over the games in order; links to the first win."), one_look, anytime,
        column("estimate", "The mean score over the games in order; links to the first loss."), one_look, anytime,
        column("failures", "error and crash games: a rerun plays them again."),
        column("faults", "Games a sandboxed entrant's failure ended.")],
        "rows": rows, "notes": notes,
        "explain": "The win rate links to the first win, the mean score to the first loss (by game index)."}


def condition_row(condition: ConditionFigures, index: int) -> list[Any]:
    now = condition.now
    figures: list[Any] = ["n/a"] * 6
    if now is not None:
        figures = [cell(f"{now.win_rate:.3f}", _replay_href(index, condition.first_win)),
                   interval(now.win_one_look, 3), interval(now.win_anytime, 3),
                   cell(f"{now.mean_score:.1f}", _replay_href(index, condition.first_loss)),
                   interval(now.score_one_look, 1), interval(now.score_anytime, 1)]
    lines = "n/a" if condition.lines is None else str(condition.lines)
    return [condition.label, f"{condition.stored:,}", f"{condition.in_order:,}", lines, *figures,
            str(condition.failures), str(condition.faults)]


def _replay_href(index: int, game_id: int | None) -> str | None:
    return None if game_id is None else f"replay/{index}/{game_id}"


def chart(condition: ConditionFigures) -> dict[str, Any]:
    """A condition's course as numbers for the page's charts: per look, games, then the win rate and the mean
    score each with its one-look and anytime bounds (null: no interval yet)."""
    return {"label": condition.label, "looks": [_look_numbers(look) for look in condition.course]}


def _look_numbers(look: Look) -> list[float | None]:
    values = [look.games, look.win_rate, *look.win_one_look, *look.win_anytime,
              look.mean_score, *look.score_one_look, *look.score_anytime]
    return [None if math.isnan(value) else round(value, 4) for value in values]


def compare_table(figures: CompareFigures) -> dict[str, Any]:
    """A ``compare`` run: the sequential test over the pairs both of whose games finished, in game order."""
    hypotheses = figures.hypotheses
    decision = {"H1": f"H1 accepted (>= {hypotheses.high:g} points)",
                "H0": f"H0 accepted (<= {hypotheses.low:g} points)"}.get(figures.decision, "play on")
    advantage = "n/a" if math.isnan(figures.advantage) else f"{figures.advantage:+.1f}"
    rows = [[f"{figures.labels[0]} vs {figures.labels[1]}", f"{figures.pairs:,} of {figures.finished:,}",
             f"{figures.llr:.2f}", f"[{figures.lower:.2f}, {figures.upper:.2f}]", decision, advantage,
             interval(figures.advantage_one_look, 1)]]
    return {"title": "Sequential test (compare)",
            "legend": [["log-likelihood ratio", "holds at every look: watch it pair by pair"],
                       [ONE_LOOK[0], "the net advantage's interval, for one look at the end"]],
            "columns": [
                "A vs B", "pairs tested of finished", "log-likelihood ratio", "bounds", "decision",
                "net advantage of A (points, finished pairs)", column(*ONE_LOOK)],
            "rows": rows, "notes": [],
            "explain": "The sequential probability ratio test holds at every look: the log-likelihood ratio may be "
                       "watched pair by pair and the test stops when it leaves its bounds (compare's default "
                       f"hypotheses, H0 {hypotheses.low:g} and H1 {hypotheses.high:g} points; a run given others "
                       "decides by its own). The estimate's interval is for one look."}


def plain_table(table: PlainTable) -> dict[str, Any]:
    return {"title": table.title, "legend": [], "columns": list(table.columns),
            "rows": [[str(value) for value in row] for row in table.rows], "notes": [], "explain": ""}


def contest_store_state(path: Path, contests: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """A capture contest's store: each contest, as a run is shown, with its standings so far."""
    now = time.time()
    return {"store": path.name, "path": str(path),
            "runs": [contest_state(contest_progress(name, games, now)) for name, games in sorted(contests.items())]}


def contest_state(progress: ContestProgress) -> dict[str, Any]:
    board = progress.board
    if progress.last_played is None:
        rate = "no game yet"
    elif progress.playing:
        rate = f"{progress.games_per_second:.2f} games/s"
    else:
        rate = f"no game stored since {progress.last_played} ({progress.games_per_second:.2f} games/s before)"
    return {"run": progress.contest, "experiment": "capture contest", "updated_at": progress.last_played or "n/a",
            "done": board.games, "planned": 0, "progress": f"{board.games:,} games stored", "rate": rate,
            "left": "n/a (a Swiss contest stops when its ranking separates)", "failures": 0,
            "faults": board.faulted_games, "tables": [standings_table(board)], "charts": []}


def standings_table(board: ContestBoard) -> dict[str, Any]:
    rows = []
    for line in board.lines:
        rating = line.rating
        faults = ", ".join(f"{kind} {count}" for kind, count in sorted(line.faults.items())) or "-"
        rows.append([str(rating.rank), rating.entrant + (" (staff)" if line.staff else ""), whole(rating.rating),
                     f"[{whole(rating.low)}, {whole(rating.high)}]", f"{rating.best_rank}-{rating.worst_rank}",
                     str(line.games), f"{line.wins}-{line.ties}-{line.losses}", faults])
    return {"title": "Standings", "legend": [], "rows": rows, "notes": board.faults[:20], "columns": [
        "rank", "team", column("rating", "Bradley-Terry on games, Elo scale, the teams' mean at 0."),
        column("95% interval", "Bootstrap over the games stored so far."),
        column("ranks", "The 95% range of the team's rank."), "games", column("W-T-L", "Wins, ties, losses."),
        column("faults", "The team's own faults (each lost it that game and no other team's).")],
        "explain": "Standings from the games stored so far, read again as games come in; the final board is "
                   "pacsim tournament --game capture's."}
