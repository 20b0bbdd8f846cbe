"""A capture contest's board (ratings with intervals) and its grade table (each student team against the staff).

Computed here from the stored games (:mod:`pacsim.runner.contest_store`'s
rows), shown by the command.  Ratings are Bradley-Terry on games
(:func:`pacsim.report.ratings.rate_games`: a win 1, a tie a half; the
bootstrap draws games), on the Elo scale with 95% intervals and rank ranges.
A fault (crash, forfeit, timeout) loses that game for the faulting team and
only it: the other team's result is a win, whatever it did.
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy

from pacsim.files import write_atomically
from pacsim.printable import printable
from pacsim.report.ratings import BOOTSTRAP_SAMPLES, Rating, rate_games

POINTS = {"red": 1.0, "tie": 0.5, "blue": 0.0}
"""Red's points by the game's winner."""


@dataclass(frozen=True)
class TeamLine:
    """One team's line on the board."""

    rating: Rating
    staff: bool
    games: int
    wins: int
    ties: int
    losses: int
    faults: dict[str, int]
    """Its own faults by kind (``crash``, ``forfeit``; the sandbox's kind where its child failed)."""


@dataclass
class ContestBoard:
    lines: list[TeamLine]
    refused: list[tuple[str, str]] = field(default_factory=list)
    """Teams that got no games, and why."""
    faults: list[str] = field(default_factory=list)
    """One line per team and fault it made: the key of its first such game (for the replay), the team, what it did
    and in how many games (a hand-in that fails to load fails the same way in every game)."""
    games: int = 0
    faulted_games: int = 0


def ratings(names: Sequence[str], games: Sequence[dict[str, Any]], samples: int = BOOTSTRAP_SAMPLES) -> list[Rating]:
    """The teams' ratings from their games (rows sorted by key)."""
    index = {name: position for position, name in enumerate(names)}
    counted = [game for game in games if game["red"] in index and game["blue"] in index]
    red = numpy.array([index[game["red"]] for game in counted], dtype=int)
    blue = numpy.array([index[game["blue"]] for game in counted], dtype=int)
    points = numpy.array([POINTS[game["winner"]] for game in counted])
    return rate_games(names, red, blue, points, samples=samples)


def rank_ranges(names: Sequence[str], games: list[dict[str, Any]]) -> list[tuple[str, int, int, int]]:
    """What a Swiss contest pairs and stops by (:data:`pacsim.runner.contest.Ranker`): each team's rank and
    95% rank range, best first."""
    return [(rating.entrant, rating.rank, rating.best_rank, rating.worst_rank)
            for rating in ratings(names, games, samples=100)]


def own_result(game: dict[str, Any], team: str) -> str:
    """``win``, ``tie`` or ``loss`` of ``team`` in ``game``."""
    if game["winner"] == "tie":
        return "tie"
    return "win" if (game["winner"] == "red") == (game["red"] == team) else "loss"


def own_score(game: dict[str, Any], team: str) -> int:
    return int(game["score"]) if game["red"] == team else -int(game["score"])


def faulted_team(game: dict[str, Any]) -> str | None:
    """The team whose fault ended the game (red's agents are even), or None."""
    if game["culprit"] is None:
        return None
    return str(game["red"] if int(game["culprit"]) % 2 == 0 else game["blue"])


_PACSIMS_WRAPPER = re.compile(r"raised AgentError at [\w.]+:\d+: ")
_FOLDERS = re.compile(r"(?:/[^/\s:()'\"]+)+/(?=[^/\s:()'\"]+)")


def fault_text(error: str) -> str:
    """A fault's message as the board shows it: pacsim's own account of a team's failure without the line of
    pacsim's that raised it, and paths cut to their file names (a hand-in's copy lies deep in the store's folder),
    so that the cause (``importing myTeam.py raised ModuleNotFoundError: ...``) fits on the line.  The store
    keeps the message whole.  An entrant's message is its own to choose: its escapes and newlines are shown
    as such (:func:`~pacsim.printable.printable`), never acted on by a terminal."""
    return printable(_FOLDERS.sub("", _PACSIMS_WRAPPER.sub("", error, count=1)))


def build_board(names: Sequence[str], staff: set[str], games: Sequence[dict[str, Any]],
                refused: Sequence[tuple[str, str]] = (), samples: int = BOOTSTRAP_SAMPLES) -> ContestBoard:
    results: dict[str, Counter[str]] = {name: Counter() for name in names}
    faults: dict[str, Counter[str]] = {name: Counter() for name in names}
    notes: dict[tuple[str, str, str], list[Any]] = {}
    for game in games:
        for team in (game["red"], game["blue"]):
            if team in results:
                results[team][own_result(game, team)] += 1
        culprit = faulted_team(game)
        if culprit in faults:
            faults[culprit][game["fault"] or game["reason"]] += 1
            note = notes.setdefault((culprit, game["reason"], fault_text(game["error"])[:160]), [game["key"], 0])
            note[1] += 1
    lines = [TeamLine(rating, rating.entrant in staff, sum(results[rating.entrant].values()),
                      results[rating.entrant]["win"], results[rating.entrant]["tie"], results[rating.entrant]["loss"],
                      dict(faults[rating.entrant]))
             for rating in (ratings(names, games, samples) if names else [])]
    shown = [f"{key[:12]}: {culprit} ({reason}) {message}" + (f" [{count} games]" if count > 1 else "")
             for (culprit, reason, message), (key, count) in sorted(notes.items())]
    return ContestBoard(lines, list(refused), shown, len(games), sum(count for _, count in notes.values()))


def whole(value: float) -> str:
    """A rating as a whole number; a rating just under 0 shows as 0, not -0."""
    return str(round(value))


NAME_WIDTH = 24, 64
"""The board's team column: at least this wide, and as wide as its longest name up to the second (a folder named
after a repository, ``owner__course-contest-project``, is told from its neighbours by its end)."""


def format_board(board: ContestBoard, shown_faults: int = 20) -> str:
    names = [line.rating.entrant + (" (staff)" if line.staff else "") for line in board.lines]
    width = max(NAME_WIDTH[0], min(NAME_WIDTH[1], max(map(len, names + [name for name, _ in board.refused]), default=0)))
    rows = [f"{'rank':>4}  {'team':<{width}} {'rating':>7}  {'95% interval':<15} {'ranks':<8} {'games':>5}  "
            f"{'W-T-L':<13} faults"]
    for line, name in zip(board.lines, names):
        rating = line.rating
        faults = ", ".join(f"{kind} {count}" for kind, count in sorted(line.faults.items())) or "-"
        rows.append(f"{rating.rank:>4}  {name[:width]:<{width}} {whole(rating.rating):>7}  "
                    f"[{whole(rating.low):>5}, {whole(rating.high):>5}]  {rating.best_rank:>3}-{rating.worst_rank:<4} "
                    f"{line.games:>5}  {f'{line.wins}-{line.ties}-{line.losses}':<13} {faults}")
    for name, why in board.refused:
        rows.append(f"   -  {name[:width]:<{width}} no games: {why}")
    if board.faults:
        rows.append(f"faulted games ({board.faulted_games}, by team and fault; replay one with pacsim tournament "
                    "--game capture --store STORE --replay KEY):")
        rows.extend(f"  {note}" for note in board.faults[:shown_faults])
        if len(board.faults) > shown_faults:
            rows.append(f"  ... and {len(board.faults) - shown_faults} more")
    return "\n".join(rows)


GRADE_COLUMNS = ("team", "hand_in_sha256", "opponent", "games", "wins", "ties", "losses", "win_rate", "mean_score",
                 "own_faults")


def grade_rows(students: Sequence[tuple[str, str]], staff: Sequence[str],
               games: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each student team (name, hand-in hash) against each staff team, and against all of them (``opponent``
    ``all staff``): games, wins, ties, losses, win rate (a tie a half), mean score from its side, its own faults."""
    rows = []
    for team, digest in students:
        mine = [game for game in games if team in (game["red"], game["blue"])]
        for opponent in [*staff, "all staff"]:
            against = [game for game in mine if ({game["red"], game["blue"]} - {team}) & (set(staff) if opponent == "all staff" else {opponent})]
            results = Counter(own_result(game, team) for game in against)
            played = len(against)
            rows.append({"team": spreadsheet_text(team), "hand_in_sha256": digest, "opponent": spreadsheet_text(opponent),
                         "games": played,
                         "wins": results["win"], "ties": results["tie"], "losses": results["loss"],
                         "win_rate": round((results["win"] + results["tie"] / 2) / played, 4) if played else "",
                         "mean_score": round(sum(own_score(game, team) for game in against) / played, 3) if played else "",
                         "own_faults": sum(1 for game in against if faulted_team(game) == team)})
    return rows


def spreadsheet_text(name: str) -> str:
    """A team's name as a spreadsheet shows it, never as a formula (a folder named ``=HYPERLINK(...)``)."""
    return "'" + name if name[:1] in ("=", "+", "-", "@", "\t", "\r") else name


def write_grades(path: str | Path, rows: Sequence[dict[str, Any]]) -> None:
    """The grade table as CSV, written atomically."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=GRADE_COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    write_atomically(path, buffer.getvalue(), "the grade table")


FOLLOW_SAMPLES = 200
"""Bootstrap samples of the ratings at each look of the dashboard (the command's board uses the full count)."""
RATE_WINDOW_SECONDS = 60
"""Games a second: those stored in the last minute before the latest game."""
IDLE_AFTER_SECONDS = 30
"""A contest none of whose games was stored for this long is not being played now."""


@dataclass(frozen=True)
class ContestProgress:
    """A contest as the dashboard follows it: its standings so far, from the games stored up to now."""

    contest: str
    board: ContestBoard
    last_played: str | None
    """When its latest game was stored (ISO, UTC), None before its first."""
    games_per_second: float
    """Over the last minute of its play."""
    playing: bool
    """Whether a game was stored in the last :data:`IDLE_AFTER_SECONDS`."""


def current_games(games: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The games of each team's latest hand-in: a team whose hand-in changed has its games played again under
    its new hash, and its old games stay in the store, unused (its hash then is the one of its latest game)."""
    latest: dict[str, tuple[str, str]] = {}
    for game in games:
        for side in ("red", "blue"):
            known = latest.get(game[side])
            if known is None or game["played_at"] >= known[0]:
                latest[game[side]] = (game["played_at"], game[f"{side}_digest"])
    return [game for game in games
            if all(game[f"{side}_digest"] == latest[game[side]][1] for side in ("red", "blue"))]


def staff_teams(games: Sequence[dict[str, Any]]) -> set[str]:
    """The teams that play the staff stage and no Swiss round (the store names no team as staff: in a staff
    game one side is a staff team, and staff teams sit out the rounds)."""
    in_staff = {team for game in games if game["stage"] == "staff" for team in (game["red"], game["blue"])}
    in_rounds = {team for game in games if game["stage"] != "staff" for team in (game["red"], game["blue"])}
    return in_staff - in_rounds if in_rounds else set()


def contest_progress(contest: str, games: Sequence[dict[str, Any]], now: float,
                     samples: int = FOLLOW_SAMPLES) -> ContestProgress:
    """The standings of ``contest`` from its stored ``games`` (rows sorted by key), at time ``now`` (epoch s)."""
    games = current_games(games)
    names = sorted({team for game in games for team in (game["red"], game["blue"])})
    board = build_board(names, staff_teams(games), games, samples=samples)
    times = sorted(datetime.fromisoformat(game["played_at"]).timestamp() for game in games)
    if not times:
        return ContestProgress(contest, board, None, 0.0, False)
    recent = [moment for moment in times if moment > times[-1] - RATE_WINDOW_SECONDS]
    span = max(times[-1] - min(recent), 1.0) if len(recent) > 1 else RATE_WINDOW_SECONDS
    last = datetime.fromtimestamp(times[-1], UTC).isoformat(timespec="seconds")
    return ContestProgress(contest, board, last, len(recent) / span, now - times[-1] < IDLE_AFTER_SECONDS)
