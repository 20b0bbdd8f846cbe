"""A tournament's leaderboard: ratings, counts and a crosstable, as text and as one HTML page.

Pacmen are rated against each other through the positions they share (the
same maze, start, ghost and game seed: :mod:`pacsim.report.ratings`); an
outcome ranks ``win`` > ``timeout`` (the move cap) > ``loss`` > a fault,
then the score decides; a fault ranks below every game played to its end
whatever the scores.  Ghost entrants are rated the same way, from the
ghosts' side, when there are two or more.

A fault (:func:`~pacsim.runner.row.fault_of`: a sandbox's ``fault`` column,
or a worker's ``error``, so the board is the same in both modes) is charged
to the agent its message names (``agent 0`` is Pacman): a Pacman's fault is
its worst result, a ghost's fault leaves the position out of the Pacmen's
comparisons (and the other way round).  A crash, or a failure naming no
agent, is charged to both.  Faults are counted by kind
(:data:`~pacsim.runner.row.FAULT_KINDS`); wins and mean scores count the
games played to their end only.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy
import pandas

from pacsim.engine.game import LOSS, TIMEOUT, WIN
from pacsim.report.ratings import Rating, position_wins, rate
from pacsim.runner.row import BOTH_SIDES, FAULT_KINDS, GHOST_SIDE, PACMAN_SIDE, fault_of

__all__ = ["FAULT_KINDS", "Leaderboard", "Standing", "build_leaderboard", "fault_of", "format_leaderboard"]
_PACMAN_RANKS = {WIN: 3, TIMEOUT: 2, LOSS: 1}
_GHOST_RANKS = {LOSS: 3, TIMEOUT: 2, WIN: 1}
FAULT_RANK = 0


@dataclass(frozen=True)
class Standing:
    """One entrant's line: its rating and what its games came to."""

    rating: Rating
    games: int
    wins: int
    """Games its side won (a Pacman: cleared the maze; a ghost: caught him)."""
    mean_score: float
    faults: dict[str, int]
    """Its faults by kind (:data:`FAULT_KINDS`)."""


@dataclass
class Leaderboard:
    pacmen: list[Standing]
    ghosts: list[Standing]
    crosstable: pandas.DataFrame
    """Pacman (rows) x ghost (columns): win rate and mean score of the Pacman."""
    head_to_head: pandas.DataFrame = field(default_factory=pandas.DataFrame)
    """Pacman (row) against Pacman (column) on the positions both played: wins-losses of the row."""
    refused: list[tuple[str, str]] = field(default_factory=list)
    """(entrant, why it could not play) of the entrants that got no games."""
    positions: int = 0
    """Positions the Pacmen were compared on (maze, ghost, game), those left out for a ghost's fault aside."""
    isolation: str | None = None
    """What the board says first when its entrants were not fully isolated (None when they were)."""


def build_leaderboard(results: pandas.DataFrame, pacmen: dict[str, str], ghosts: dict[str, str],
                      refused: Sequence[tuple[str, str]] = (), isolation: str | None = None) -> Leaderboard:
    """The leaderboard of a tournament's games (its experiment's own rows);
    ``pacmen`` and ``ghosts`` map agent specs to entrant names."""
    games = results[results["pacman"].isin(list(pacmen)) & results["ghosts"].isin(list(ghosts))].copy()
    games["pacman_name"] = games["pacman"].map(pacmen)
    games["ghost_name"] = games["ghosts"].map(ghosts)
    recorded = games["fault"] if "fault" in games else [None] * len(games)
    faults = [fault_of(outcome, error, fault) for outcome, error, fault in zip(games["outcome"], games["error"], recorded)]
    games["fault_side"] = [fault[0] if fault else None for fault in faults]
    games["fault_kind"] = [fault[1] if fault else None for fault in faults]
    kinds = [*FAULT_KINDS, *sorted({fault[1] for fault in faults if fault} - set(FAULT_KINDS))]
    pacman_position = ["layout", "num_ghosts", "ghosts", "game_index"]
    ghost_position = ["layout", "num_ghosts", "pacman", "game_index"]
    pacman_side = _Side(PACMAN_SIDE, "pacman_name", pacman_position, _PACMAN_RANKS, 1)
    ghost_side = _Side(GHOST_SIDE, "ghost_name", ghost_position, _GHOST_RANKS, -1)
    pacman_names, pacman_values = pacman_side.values(games)
    pacman_wins = position_wins(pacman_values)
    return Leaderboard(
        pacmen=pacman_side.standings(games, pacman_names, pacman_wins, kinds),
        ghosts=ghost_side.standings(games, *_wins_of(ghost_side.values(games)), kinds),
        crosstable=_crosstable(games), refused=list(refused),
        head_to_head=_head_to_head(pacman_names, pacman_wins.sum(axis=0)),
        positions=len(pacman_values), isolation=isolation)


def _wins_of(named: tuple[list[str], numpy.ndarray]) -> tuple[list[str], numpy.ndarray]:
    names, values = named
    return names, position_wins(values)


@dataclass(frozen=True)
class _Side:
    """How one side's entrants are compared: its name, its entrant column, what a position is, its outcome ranks."""

    side: str
    entrant: str
    position: list[str]
    ranks: dict[str, int]
    sign: int
    """+1: a higher score is better for this side; -1: lower."""

    def values(self, games: pandas.DataFrame) -> tuple[list[str], numpy.ndarray]:
        """The entrants, and per position and entrant its (outcome rank, signed score), NaN without a game."""
        names = sorted(games[self.entrant].unique())
        own_fault = games["fault_side"].isin([self.side, BOTH_SIDES])
        other_fault = games["fault_side"].notna() & ~own_fault
        rank = games["outcome"].map(self.ranks).where(~own_fault, FAULT_RANK)
        usable = games.assign(rank=rank, signed=self.sign * games["score"].where(~own_fault, 0))[~other_fault]
        keys = sorted(usable.groupby(self.position).groups) if len(usable) else []  # a fixed order: the bootstrap's draws mean the same
        values = numpy.full((len(keys), len(names), 2), numpy.nan)
        row_of = {key: index for index, key in enumerate(keys)}
        column_of = {name: index for index, name in enumerate(names)}
        for key, name, value, score in zip(usable[self.position].itertuples(index=False, name=None),
                                           usable[self.entrant], usable["rank"], usable["signed"]):
            values[row_of[key], column_of[name]] = (value, score)
        return names, values

    def standings(self, games: pandas.DataFrame, names: list[str], per_position: numpy.ndarray,
                  kinds: Sequence[str]) -> list[Standing]:
        ratings = rate(names, per_position) if len(names) > 1 else []
        by_name = {rating.entrant: rating for rating in ratings}
        standings = []
        for name in names:
            own = games[games[self.entrant] == name]
            faults = own["fault_kind"][own["fault_side"].isin([self.side, BOTH_SIDES])]
            played = own[own["fault_side"].isna()]  # a fault's score (and a win it gave the other side) is no result
            won = int((played["outcome"] == (WIN if self.side == PACMAN_SIDE else LOSS)).sum())
            rating = by_name.get(name) or Rating(name, 0.0, 0.0, 0.0, 1, 1, 1, 0, 0.0)
            standings.append(Standing(rating=rating, games=len(own), wins=won, mean_score=float(played["score"].mean()),
                                      faults={kind: int((faults == kind).sum()) for kind in kinds}))
        return sorted(standings, key=lambda standing: (standing.rating.rank, standing.rating.entrant))


def _head_to_head(names: Sequence[str], wins: numpy.ndarray) -> pandas.DataFrame:
    """Row against column over their shared positions: wins-losses (draws a half each)."""
    cells = [[f"{wins[row, column]:g}-{wins[column, row]:g}" if row != column else "" for column in range(len(names))]
             for row in range(len(names))]
    return pandas.DataFrame(cells, index=pandas.Index(names, name="pacman"), columns=list(names))


def _crosstable(games: pandas.DataFrame) -> pandas.DataFrame:
    if games.empty:
        return pandas.DataFrame()
    grouped = games.groupby(["pacman_name", "ghost_name"])
    cells = grouped.apply(_crosstable_cell, include_groups=False)
    table = cells.unstack("ghost_name").fillna("")
    return table.rename_axis(index="pacman", columns="ghost")


def _crosstable_cell(cell: pandas.DataFrame) -> str:
    """The Pacman's win rate and mean score over the games played to their end
    (a game the ghost faulted is left out), then his faults: a fault is no
    score and no win, so a Pacman that faults cannot look better than one that lost."""
    own_fault = cell["fault_side"].isin([PACMAN_SIDE, BOTH_SIDES])
    counted = cell[own_fault | cell["fault_side"].isna()]
    played = cell[cell["fault_side"].isna()]
    if counted.empty:
        return "ghost faults"
    text = f"{(played['outcome'] == WIN).sum() / len(counted):.0%}"
    text += f" ({played['score'].mean():.0f})" if not played.empty else ""
    faults = int(own_fault.sum())
    return text + (f" {faults} fault{'s' if faults > 1 else ''}" if faults else "")


# -- text -----------------------------------------------------------------

def standings_frame(standings: Sequence[Standing], role: str) -> pandas.DataFrame:
    """The table of one role's standings, as printed and as the page shows it."""
    rows = []
    for standing in standings:
        rating = standing.rating
        ranks = f"{rating.best_rank}" if rating.best_rank == rating.worst_rank else f"{rating.best_rank}-{rating.worst_rank}"
        rows.append({"rank": rating.rank, role: rating.entrant, "rating": f"{rating.rating:+.0f}",
                     "95% interval": f"[{rating.low:+.0f}, {rating.high:+.0f}]", "rank 95%": ranks,
                     "games": standing.games, "wins": standing.wins, "mean score": _mean(standing.mean_score),
                     **standing.faults})
    return pandas.DataFrame(rows)


def _mean(score: float) -> str:
    return "-" if math.isnan(score) else f"{score:.1f}"


EXPLANATION = ("Ratings: Bradley-Terry on the Elo scale (mean 0) from paired comparisons on the same positions "
               "(maze, start, opponent, seed); 95% interval and range of ranks from a bootstrap over positions. "
               "Entrants whose rank ranges overlap are not separated by these games.")


HEAD_TO_HEAD = "Head to head: the row Pacman's wins-losses against the column's on the positions both played"


def format_leaderboard(board: Leaderboard) -> str:
    parts = [board.isolation] if board.isolation else []
    parts += [f"Pacmen ({board.positions} positions)", standings_frame(board.pacmen, "pacman").to_string(index=False)]
    if len(board.ghosts) > 1:
        parts += ["", "Ghosts", standings_frame(board.ghosts, "ghosts").to_string(index=False)]
    if len(board.head_to_head) > 1:
        parts += ["", HEAD_TO_HEAD, board.head_to_head.to_string()]
    if not board.crosstable.empty:
        parts += ["", "Crosstable: the Pacman's win rate (mean score) against each ghost",
                  board.crosstable.to_string()]
    parts += ["", EXPLANATION, *_unseparated(board.pacmen)]
    parts += [f"not played: {name}: {why}" for name, why in board.refused]
    return "\n".join(parts)


def _unseparated(standings: Sequence[Standing]) -> list[str]:
    """One line per group of places whose rank ranges overlap."""
    groups = sorted({(standing.rating.best_rank, standing.rating.worst_rank) for standing in standings
                     if standing.rating.best_rank != standing.rating.worst_rank})
    lines = [f"ranks {best}-{worst} are not separated by these games" for best, worst in groups]
    return lines


# -- HTML -----------------------------------------------------------------

def leaderboard_page(board: Leaderboard, name: str, store: str, results: pandas.DataFrame) -> str:
    """The whole page: the tables and a replay of one game of each Pacman."""
    from pacsim.report.html import replay_figure
    from pacsim.web.player import asset

    sections = [f"<h1>Tournament: {html.escape(name)}</h1>"]
    if board.isolation:
        sections.append(f'<p class="warning"><strong>{html.escape(board.isolation)}</strong></p>')
    sections += [f"<p>{html.escape(EXPLANATION)}</p>",
                "<h2>Pacmen</h2>", standings_frame(board.pacmen, "pacman").to_html(index=False)]
    sections += [f"<p>{html.escape(line)}</p>" for line in _unseparated(board.pacmen)]
    if len(board.ghosts) > 1:
        sections += ["<h2>Ghosts</h2>", standings_frame(board.ghosts, "ghosts").to_html(index=False)]
    if len(board.head_to_head) > 1:
        sections += [f"<h2>Head to head</h2><p>{html.escape(HEAD_TO_HEAD)}</p>", board.head_to_head.to_html()]
    if not board.crosstable.empty:
        sections += ["<h2>Crosstable</h2><p>The Pacman's win rate (mean score) against each ghost.</p>",
                     board.crosstable.to_html()]
    if board.refused:
        items = "".join(f"<li>{html.escape(entrant)}: {html.escape(why)}</li>" for entrant, why in board.refused)
        sections.append(f"<h2>Not played</h2><ul>{items}</ul>")
    sections.append("<h2>Games</h2><p>Each Pacman's first win (else its first game), replayed from the store; "
                    "open any game with <code>pacsim replay STORE --game ID --html FILE</code>.</p>")
    for standing in board.pacmen:
        own = results[results["pacman_name"] == standing.rating.entrant] if "pacman_name" in results else results.iloc[:0]
        if own.empty:
            continue
        wins = own[own["outcome"] == WIN]
        row = (wins if not wins.empty else own).sort_values(["game_index", "id"]).iloc[0]
        label = f"{standing.rating.entrant} ({'first win' if not wins.empty else 'first game'})"
        sections.append(f'<div class="replays">{replay_figure(store, row, label, len(own))}</div>')
    body = "\n".join(sections)
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f"<title>Tournament: {html.escape(name)}</title>\n<style>\n{asset('report.css')}</style>\n</head>\n"
            f"<body>\n{body}\n</body>\n</html>\n")


def write_leaderboard_page(path: str | Path, board: Leaderboard, name: str, store: str,
                           results: pandas.DataFrame, pacmen: dict[str, str]) -> None:
    from pacsim.web.cli import write_page

    named = results.assign(pacman_name=results["pacman"].map(pacmen))
    write_page(str(path), leaderboard_page(board, name, store, named))
