"""What ``pacsim dashboard`` shows of its stores, as JSON: every run's
progress, its per-condition table (fixed-sample intervals beside the
confidence sequences that hold at every look), a ``compare``'s sequential
test, a tournament's leaderboard.

Numbers are formatted here (the page only lays tables out), and every table
is ``{"title", "columns", "rows", "note"}`` whose cells are text or
``{"text", "href"}``: a link to the games a number rests on.  Per-condition
figures come from SQL over the store (:mod:`pacsim.runner.aggregate`), so a
big store costs the page what it costs ``pacsim report``; a store is read
again only when its files changed.
"""

from __future__ import annotations

import json
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
from pacsim.report.sequences import score_sequence, win_rate_sequence
from pacsim.report.sprt import BY_RESULT, Hypotheses, pair_results, sequential_test
from pacsim.report.stats import histogram_mean_interval, mean_interval, wilson_interval
from pacsim.report.summary import repetition_note
from pacsim.runner.aggregate import ORDINAL, GroupFigures, Selection, StoreQuery
from pacsim.runner.row import REPLAYED_OUTCOMES

RATE_WINDOW_SECONDS = 60
"""Games a second: those started in the last minute (or since the run began)."""
LINES_UP_TO = 200_000
"""A run of more games has its lines of play left to ``pacsim report``: counting
them replays every game's log (seconds a hundred thousand games), too slow to repeat at every look."""
COMPARE_EXPERIMENT = "compare"
"""The experiment name ``pacsim compare`` stores its games under."""
COMPARE_HYPOTHESES = Hypotheses(0.0, 10.0)
"""compare's default hypotheses: the store does not keep those a run was given."""
TOURNAMENT_COLUMNS = ("pacman", "ghosts", "layout", "num_ghosts", "game_index", "outcome", "score", "error")


def cell(text: str, href: str | None = None) -> Any:
    return {"text": text, "href": href} if href else text


def interval(low: float, high: float, digits: int) -> str:
    return "n/a" if math.isnan(low) else f"[{low:.{digits}f}, {high:.{digits}f}]"


@dataclass
class _Cached:
    key: tuple[Any, ...]
    state: dict[str, Any]


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
        rate_stale = cached is not None and time.monotonic() - cached.state.get("_read", 0) > 5
        if cached is None or cached.key != key or rate_stale:
            try:
                # Opened (and checked: a read of every row) once per thread, then kept: a server answers from
                # a pool of threads, and an SQLite connection serves the thread that opened it.
                place = (index, threading.get_ident())
                if place not in self._queries:
                    self._queries[place] = StoreQuery(path)
                state = store_state(self._queries[place], index)
            except PacsimError as error:
                self._queries.pop((index, threading.get_ident()), None)
                state = {"store": path.name, "path": str(path), "error": str(error), "runs": []}
            state["_read"] = time.monotonic()
            self._cache[index] = cached = _Cached(key, state)
        return {name: value for name, value in cached.state.items() if not name.startswith("_")}


def _signature(path: Path) -> tuple[float, int] | None:
    try:
        status = os.stat(path)
    except OSError:
        return None
    return status.st_mtime, status.st_size


def store_state(query: StoreQuery, index: int) -> dict[str, Any]:
    """One store: each run, newest first.  Each query is a read of its own:
    the connection holds no snapshot between looks, so the writer's log can be checkpointed."""
    path = query.path
    runs = query.execute("SELECT config_hash, name, config, updated_at FROM experiments "
                         "ORDER BY updated_at DESC, rowid DESC").fetchall()
    states = [run_state(query, index, *run) for run in runs]
    return {"store": path.name, "path": str(path), "runs": [state for state in states if state is not None]}


def run_state(query: StoreQuery, index: int, run: str, name: str, config_text: str, updated_at: str) -> dict[str, Any] | None:
    query.selection = Selection(runs=(run,))
    config = json.loads(config_text)
    groups = query.groups(["condition"], lines=query.count() <= LINES_UP_TO)
    done = sum(group.games for group in groups)
    conditions = query.execute("SELECT count(*) FROM conditions WHERE config_hash = ?", (run,)).fetchone()[0]
    per_condition = int(config.get("games", 0) or 0)
    planned = max(per_condition * max(conditions, len(groups)), done)
    rate = _rate(query, run)
    failures = sum(group.counts["error"] + group.counts["crash"] for group in groups)
    faults = sum(group.counts["faults"] for group in groups)
    state: dict[str, Any] = {
        "run": run[:8], "experiment": name, "updated_at": updated_at, "done": done, "planned": planned,
        "progress": f"{done:,} of {planned:,} games", "rate": f"{rate:.1f} games/s" if rate else "idle",
        "left": _time_left(planned - done, rate), "failures": failures, "faults": faults,
        "tables": [conditions_table(query, index, groups, per_condition)],
    }
    if name == COMPARE_EXPERIMENT and len(groups) == 2:
        state["tables"].append(compare_table(query, index))
    drawn = Path(f"{query.path}.tournament.json")
    if drawn.is_file() and name != COMPARE_EXPERIMENT:
        state["tables"] += tournament_tables(query)
    return state


def _rate(query: StoreQuery, run: str) -> float:
    """Games a second over the last :data:`RATE_WINDOW_SECONDS` (0 when none started then)."""
    now = datetime.now(UTC).timestamp()
    since = now - RATE_WINDOW_SECONDS
    count, first = query.execute(
        "SELECT count(*), min(strftime('%s', started_at)) FROM games WHERE config_hash = ? "
        "AND CAST(strftime('%s', started_at) AS INTEGER) >= ?",
        (run, int(since))).fetchone()
    if not count:
        return 0.0
    return count / max(1.0, now - max(since, float(first)))


def _time_left(games: int, rate: float) -> str:
    if games <= 0:
        return "done"
    if not rate:
        return "n/a"
    seconds = int(games / rate)
    return f"{seconds // 3600}h {seconds // 60 % 60:02d}m" if seconds >= 3600 else f"{seconds // 60}m {seconds % 60:02d}s"


def conditions_table(query: StoreQuery, index: int, groups: list[GroupFigures], planned: int) -> dict[str, Any]:
    """The per-condition table: win rate and mean score, each with its fixed-sample 95% interval
    (for one look, as the final report gives it) and its 95% confidence sequence (for every look)."""
    replays = _replays(query)
    rows, notes = [], []
    for group in groups:
        label = str(group.key[0])
        count, wins = group.games, group.counts["win"]
        mean, low, high = histogram_mean_interval(group.scores)
        spread = _standard_deviation(group.scores, mean)
        links = replays.get(label, {})
        rows.append([
            label, f"{count:,}", str(group.lines) if group.lines >= 0 else "n/a",
            cell(f"{wins / count:.3f}", _replay_href(index, links.get("win"))),
            interval(*wilson_interval(wins, count), 3), interval(*win_rate_sequence(wins, count, planned or 100), 3),
            cell(f"{mean:.1f}", _replay_href(index, links.get("loss"))), interval(low, high, 1),
            interval(*score_sequence(mean, spread, count, planned or 100), 1),
            str(group.counts["error"] + group.counts["crash"]), str(group.counts["faults"]),
        ])
        note = repetition_note(label, count, group.lines) if group.lines >= 0 else None
        notes += [note] if note else []
    return {"title": "Per condition", "columns": [
        "condition", "games", "lines", "win rate", "95% CI (one look)", "95% anytime", "mean score",
        "95% CI (one look)", "95% anytime", "failures", "faults"], "rows": rows, "notes": notes,
        "explain": "'one look' intervals (Wilson, t) hold for a count fixed in advance, as in the final report; "
                   "'anytime' intervals are confidence sequences (Howard et al. 2021; scores: Waudby-Smith et al. 2024, "
                   "asymptotic) that hold at every look, so they may be watched while games arrive. "
                   "The win rate links to the first win, the mean score to the first loss."}


def _standard_deviation(scores: dict[float, int], mean: float) -> float:
    count = sum(scores.values())
    if count < 2:
        return math.nan
    return math.sqrt(math.fsum(times * (value - mean) ** 2 for value, times in scores.items()) / (count - 1))


def _replays(query: StoreQuery) -> dict[str, dict[str, int]]:
    """Condition -> outcome -> the id of its first game of that outcome (SQLite's bare columns of min())."""
    source, parameters = query.source()
    found: dict[str, dict[str, int]] = {}
    for label, outcome, game_id, _ in query.execute(
            f"SELECT g.condition, g.outcome, g.id, min({ORDINAL}){source} GROUP BY g.condition, g.outcome", parameters):
        found.setdefault(str(label), {})[outcome] = game_id
    return found


def _replay_href(index: int, game_id: int | None) -> str | None:
    return None if game_id is None else f"replay/{index}/{game_id}"


def compare_table(query: StoreQuery, index: int) -> dict[str, Any]:
    """A ``compare`` run: the sequential test over the pairs both of whose games finished, in game order."""
    parts = list(query.frames(["condition_key", "condition", "game_index", "outcome", "score"]))
    import pandas

    frame = pandas.concat(parts, ignore_index=True) if parts else pandas.DataFrame()
    labels = list(dict.fromkeys(frame["condition"]))
    sides = [frame[frame["condition"] == label].set_index("game_index").sort_index() for label in labels]
    limit = min(int(side.index.max()) + 1 if len(side) else 0 for side in sides)
    sides = [side[~side.index.duplicated()].reindex(range(limit)) for side in sides]
    finished = [(side["outcome"].notna() & ~side["outcome"].isin(REPLAYED_OUTCOMES)).to_numpy() for side in sides]
    complete = finished[0] & finished[1]
    count = int(complete.argmin()) if len(complete) and not complete.all() else len(complete)
    a, b = (side.iloc[:count] for side in sides)
    results = pair_results(a["outcome"], a["score"], b["outcome"], b["score"], BY_RESULT)
    state = sequential_test(results, COMPARE_HYPOTHESES)
    estimate, low, high = (100 * value for value in mean_interval(results.astype(float).tolist()))
    decision = {"H1": f"H1 accepted (>= {COMPARE_HYPOTHESES.high:g} points)",
                "H0": f"H0 accepted (<= {COMPARE_HYPOTHESES.low:g} points)"}.get(state.decision, "play on")
    rows = [[f"{labels[0]} vs {labels[1]}", f"{state.pairs:,} of {count:,}", f"{state.llr:.2f}", f"[{state.lower:.2f}, {state.upper:.2f}]",
             decision, f"{estimate:+.1f}" if count else "n/a", interval(low, high, 1)]]
    return {"title": "Sequential test (compare)", "columns": [
        "A vs B", "pairs tested of finished", "log-likelihood ratio", "bounds", "decision", "net advantage of A (points, finished pairs)", "95% CI (one look)"],
        "rows": rows, "notes": [],
        "explain": "The sequential probability ratio test holds at every look: the log-likelihood ratio may be watched "
                   "pair by pair and the test stops when it leaves its bounds (compare's default hypotheses, "
                   f"H0 {COMPARE_HYPOTHESES.low:g} and H1 {COMPARE_HYPOTHESES.high:g} points; a run given others "
                   "decides by its own). The estimate's interval is for one look."}


def tournament_tables(query: StoreQuery) -> list[dict[str, Any]]:
    """A tournament's ratings with intervals and rank ranges, faults, and the crosstable (entrants named by their specs)."""
    import pandas

    from pacsim.report.leaderboard import build_leaderboard, standings_frame

    parts = list(query.frames(TOURNAMENT_COLUMNS))
    if not parts:
        return []
    games = pandas.concat(parts, ignore_index=True)
    pacmen = {spec: _entrant_name(spec) for spec in games["pacman"].unique()}
    ghosts = {spec: _entrant_name(spec) for spec in games["ghosts"].unique()}
    board = build_leaderboard(games, pacmen, ghosts)
    tables = [_frame_table("Tournament: Pacmen", standings_frame(board.pacmen, "pacman"))]
    if len(board.ghosts) > 1:
        tables.append(_frame_table("Tournament: ghosts", standings_frame(board.ghosts, "ghosts")))
    if not board.crosstable.empty:
        tables.append(_frame_table("Crosstable: win rate (mean score) of the row Pacman",
                                   board.crosstable.reset_index()))
    return tables


def _entrant_name(spec: str) -> str:
    """A plugin entrant's file name without its folders (``students/ada/agent.py:Agent`` -> ``ada/agent.py:Agent``)."""
    parts = spec.replace("\\", "/").split("/")
    return "/".join(parts[-2:])


def _frame_table(title: str, frame: Any) -> dict[str, Any]:
    return {"title": title, "columns": [str(column) for column in frame.columns],
            "rows": [[str(value) for value in row] for row in frame.itertuples(index=False)], "notes": [], "explain": ""}
