"""A tournament's leaderboard: ratings, counts and a crosstable, as values and as text
(its HTML page: :mod:`pacsim.web.leaderboard_page`).

Pacmen are rated against each other through the positions they share (the
same maze, start, ghost and game seed: :mod:`pacsim.report.ratings`); an
outcome ranks ``win`` > ``timeout`` (the move cap) > ``loss`` > a fault,
then the score decides; a fault ranks below every game played to its end
whatever the scores.  Ghost entrants are rated the same way, from the
ghosts' side, when there are two or more.

A fault (:func:`~pacsim.runner.row.fault_of`: a sandbox's ``fault`` column,
or a worker's ``error``, so the board is the same in both modes) is charged
to the agent its message names (``agent 0`` is Pacman): its own fault is an
entrant's worst result, and a game its opponent faulted is its win, as the
rules record it (the faulting side loses), compared with the other entrants'
results on that position by outcome alone (its score, cut short, breaks no
tie).  So a fault never takes a position out of the comparisons: an entrant
that faults against one rival only gives that rival wins (issue 43).  A
crash, or a failure naming no agent, is charged to both.  Faults are counted
by kind (:data:`~pacsim.runner.row.FAULT_KINDS`) and listed with their
messages; wins count the games won by the rules (by a forfeit too), mean
scores the games played to their end only.
"""

from __future__ import annotations

import math
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy
import pandas

from pacsim.engine.game import LOSS, TIMEOUT, WIN
from pacsim.printable import printable
from pacsim.report.ratings import Rating, position_wins, rate
from pacsim.runner.row import BOTH_SIDES, FAULT_KINDS, GHOST_SIDE, PACMAN_SIDE, fault_of

__all__ = ["FAULT_KINDS", "BoardReplay", "FaultNote", "Leaderboard", "Standing", "board_replays", "build_leaderboard", "fault_of",
           "format_leaderboard"]
_PACMAN_RANKS = {WIN: 3, TIMEOUT: 2, LOSS: 1}
_GHOST_RANKS = {LOSS: 3, TIMEOUT: 2, WIN: 1}
FAULT_RANK = 0
MESSAGE_CHARACTERS = 160
"""A fault's message is shown up to this many characters of its first line."""
MESSAGES_PER_ENTRANT = 3
"""Distinct fault messages listed per entrant (the most frequent first); the rest are counted."""
FAULT_REPLAYS = 6
"""Faulted games the page replays (the first game of each message, in the board's order); the others by command."""


@dataclass(frozen=True)
class Standing:
    """One entrant's line: its rating and what its games came to."""

    rating: Rating
    games: int
    wins: int
    """Games its side won by the rules (a Pacman: cleared the maze; a ghost: caught him), a forfeit included."""
    mean_score: float
    faults: dict[str, int]
    """Its faults by kind (:data:`FAULT_KINDS`)."""
    forfeits: int = 0
    """Of its wins, the games its opponent faulted (the rules' win for it: the faulting side loses)."""


@dataclass(frozen=True)
class FaultNote:
    """One message an entrant's faults ended games with, and where to see one such game."""

    entrant: str
    role: str
    """``pacman`` or ``ghosts``."""
    message: str
    """The first line of the game's ``error``, escaped (:func:`~pacsim.printable.printable`) and shortened."""
    count: int
    """Its games that ended with this message."""
    game: int | None
    """The store id of the first of them (None when the rows carry no id)."""

    @property
    def role_name(self) -> str:
        """``Pacman`` or ``ghost``, as the board names the side."""
        return "Pacman" if self.role == PACMAN_SIDE else "ghost"


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
    """Positions the Pacmen were compared on (maze, ghost, game)."""
    isolation: str | None = None
    """What the board says first when its entrants were not fully isolated (None when they were)."""
    faults: list[FaultNote] = field(default_factory=list)
    """The messages of the entrants' faults, by entrant (Pacmen first)."""
    identical: list[tuple[str, ...]] = field(default_factory=list)
    """Groups of entrants of one role that played the same games, move for move, on every position."""
    store: str = ""
    """The store the games came from (the replay commands name it)."""


def build_leaderboard(results: pandas.DataFrame, pacmen: dict[str, str], ghosts: dict[str, str],
                      refused: Sequence[tuple[str, str]] = (), isolation: str | None = None,
                      store: str = "") -> Leaderboard:
    """The leaderboard of a tournament's games (its experiment's own rows);
    ``pacmen`` and ``ghosts`` map agent specs to entrant names (shown escaped:
    :func:`~pacsim.printable.printable`); ``store`` is named in replay commands."""
    pacmen, ghosts = ({spec: printable(name) for spec, name in names.items()} for names in (pacmen, ghosts))
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
    pacman_side = _Side(PACMAN_SIDE, "pacman_name", pacman_position, _PACMAN_RANKS, 1, WIN)
    ghost_side = _Side(GHOST_SIDE, "ghost_name", ghost_position, _GHOST_RANKS, -1, LOSS)
    pacman_names, pacman_values = pacman_side.values(games)
    pacman_wins = position_wins(pacman_values)
    return Leaderboard(
        pacmen=pacman_side.standings(games, pacman_names, pacman_wins, kinds),
        ghosts=ghost_side.standings(games, *_wins_of(ghost_side.values(games)), kinds),
        crosstable=_crosstable(games), refused=[(printable(name), printable(why)) for name, why in refused],
        head_to_head=_head_to_head(pacman_names, pacman_wins.sum(axis=0)),
        positions=len(pacman_values), isolation=isolation,
        faults=[*pacman_side.fault_notes(games), *ghost_side.fault_notes(games)],
        identical=[*pacman_side.identical(games), *ghost_side.identical(games)], store=store)


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
    won: str
    """The outcome that is this side's win (Pacman's ``win``; the ghosts' is his ``loss``)."""

    def faulted(self, games: pandas.DataFrame) -> tuple[pandas.Series, pandas.Series]:
        """Per game, whether this side faulted (a crash charged to both included), and whether only its opponent did."""
        own = games["fault_side"].isin([self.side, BOTH_SIDES])
        return own, games["fault_side"].notna() & ~own

    def values(self, games: pandas.DataFrame) -> tuple[list[str], numpy.ndarray]:
        """The entrants, and per position and entrant its (outcome rank, signed score), NaN without a game;
        a game the opponent faulted is this side's win by the rules, its score NaN (cut short: compared by outcome)."""
        names = sorted(games[self.entrant].unique())
        own_fault, forfeit = self.faulted(games)
        rank = games["outcome"].map(self.ranks).where(~forfeit, self.ranks[self.won]).where(~own_fault, FAULT_RANK)
        signed = (self.sign * games["score"]).where(~own_fault, 0).where(~forfeit, numpy.nan)
        usable = games.assign(rank=rank, signed=signed)
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
            own_fault, forfeit = self.faulted(own)
            faults = own["fault_kind"][own_fault]
            played = own[own["fault_side"].isna()]  # a fault's score is no result
            won = int((played["outcome"] == self.won).sum() + forfeit.sum())
            rating = by_name.get(name) or Rating(name, 0.0, 0.0, 0.0, 1, 1, 1, 0, 0.0)
            standings.append(Standing(rating=rating, games=len(own), wins=won, mean_score=float(played["score"].mean()),
                                      faults={kind: int((faults == kind).sum()) for kind in kinds},
                                      forfeits=int(forfeit.sum())))
        return sorted(standings, key=lambda standing: (standing.rating.rank, standing.rating.entrant))

    def fault_notes(self, games: pandas.DataFrame) -> list[FaultNote]:
        """Per entrant, the first lines of its faults' messages, the most frequent first."""
        own = games[self.faulted(games)[0]]
        order = ["game_index", "id"] if "id" in own else ["game_index"]
        notes = []
        for name, faulted in sorted(own.groupby(self.entrant), key=lambda group: str(group[0])):
            faulted = faulted.assign(message=[_first_line(error) for error in faulted["error"]]).sort_values(order)
            counts = faulted["message"].value_counts(sort=False)
            ordered = sorted(counts.items(), key=lambda item: -item[1])  # stable: ties keep the first game's order
            for message, count in ordered[:MESSAGES_PER_ENTRANT]:
                first = faulted[faulted["message"] == message].iloc[0]
                notes.append(FaultNote(str(name), self.side, message, int(count),
                                       int(first["id"]) if "id" in first else None))
            if len(ordered) > MESSAGES_PER_ENTRANT:
                rest = sum(count for _, count in ordered[MESSAGES_PER_ENTRANT:])
                notes.append(FaultNote(str(name), self.side, f"{len(ordered) - MESSAGES_PER_ENTRANT} other messages",
                                       rest, None))
        return notes

    def identical(self, games: pandas.DataFrame) -> list[tuple[str, ...]]:
        """Groups of this side's entrants whose games were the same, move for move, on every position (each
        played at least one to its end): copies of one another, or of a built-in entrant."""
        if "actions" not in games or games.empty:
            return []
        columns = [*self.position, "actions", "outcome", "score"]
        signatures: dict[tuple, list[str]] = {}
        for name, own in games.groupby(self.entrant):
            if own["fault_side"].notna().all():
                continue
            signature = tuple(sorted(own[columns].astype(str).itertuples(index=False, name=None)))
            signatures.setdefault(signature, []).append(str(name))
        return sorted(tuple(sorted(names)) for names in signatures.values() if len(names) > 1)


def _first_line(error: object) -> str:
    lines = str(error).strip().splitlines() if isinstance(error, str) else []
    line = printable(lines[0]) if lines else "(no message)"
    return line if len(line) <= MESSAGE_CHARACTERS else line[:MESSAGE_CHARACTERS - 3] + "..."


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
    """The Pacman's win rate by the rules over all his games (a game the ghost
    faulted is his win by forfeit), his mean score over the games played to
    their end, then his faults and forfeits: a fault is no score and no win,
    so a Pacman that faults cannot look better than one that lost."""
    own_fault = cell["fault_side"].isin([PACMAN_SIDE, BOTH_SIDES])
    forfeits = int((cell["fault_side"].notna() & ~own_fault).sum())
    played = cell[cell["fault_side"].isna()]
    text = f"{((played['outcome'] == WIN).sum() + forfeits) / len(cell):.0%}"
    text += f" ({played['score'].mean():.0f})" if not played.empty else ""
    faults = int(own_fault.sum())
    text += f" {faults} fault{'s' if faults > 1 else ''}" if faults else ""
    return text + (f" {forfeits} by forfeit" if forfeits else "")


# -- text -----------------------------------------------------------------

def standings_frame(standings: Sequence[Standing], role: str) -> pandas.DataFrame:
    """The table of one role's standings, as printed and as the page shows it."""
    rows = []
    for standing in standings:
        rating = standing.rating
        ranks = f"{rating.best_rank}" if rating.best_rank == rating.worst_rank else f"{rating.best_rank}-{rating.worst_rank}"
        rows.append({"rank": rating.rank, role: rating.entrant, "rating": f"{rating.rating:+.0f}",
                     "95% interval": f"[{rating.low:+.0f}, {rating.high:+.0f}]", "rank 95%": ranks,
                     "games": standing.games, "wins": standing.wins, "by forfeit": standing.forfeits,
                     "mean score": _mean(standing.mean_score),
                     **standing.faults})
    return pandas.DataFrame(rows)


def _mean(score: float) -> str:
    return "-" if math.isnan(score) else f"{score:.1f}"


EXPLANATION = ("Ratings: Bradley-Terry on the Elo scale (mean 0) from paired comparisons on the same positions "
               "(maze, start, opponent, seed); 95% interval and range of ranks from a bootstrap over positions. "
               "Entrants whose rank ranges overlap are not separated by these games. Wins are by the rules: a game "
               "the opponent faulted is a win by forfeit (compared by outcome alone), an entrant's own fault its "
               "worst result.")


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
    parts += ["", EXPLANATION, *unseparated_lines(board.pacmen), *identical_lines(board)]
    if board.faults:
        parts += ["", "Faults: the first line of each message, and how to replay the first game it ended"]
        parts += [f"  {_fault_line(note)}" + (f"; replay: {replay_command(board.store, note.game)}"
                                               if note.game is not None else "") for note in board.faults]
    parts += [f"not played: {name}: {why}" for name, why in board.refused]
    return "\n".join(parts)


def identical_lines(board: Leaderboard) -> list[str]:
    """One line per group of entrants that played the same games on every position."""
    return [f"identical games: {', '.join(group)} played the same moves in every game of every position "
            "(copies of one another, or of a built-in?)" for group in board.identical]


def _fault_line(note: FaultNote) -> str:
    return f"{note.entrant} ({note.role_name}): {note.count} x {note.message}"


def replay_command(store: str, game: int) -> str:
    """The command that writes a stored game's replay page."""
    return f"pacsim replay {shlex.quote(store or 'STORE')} --game {game} --html game-{game}.html"


def unseparated_lines(standings: Sequence[Standing]) -> list[str]:
    """One line per group of places whose rank ranges overlap."""
    groups = sorted({(standing.rating.best_rank, standing.rating.worst_rank) for standing in standings
                     if standing.rating.best_rank != standing.rating.worst_rank})
    return [f"ranks {best}-{worst} are not separated by these games" for best, worst in groups]


# -- the games the page replays ---------------------------------------------

@dataclass(frozen=True)
class BoardReplay:
    """A game the leaderboard's page replays: its row of the results (its
    ``pacman_name`` the entrant's), its caption's label, and how many games
    its Pacman played."""

    row: pandas.Series
    label: str
    games: int

    @property
    def game(self) -> int:
        """Its store id (the page's anchor)."""
        return int(self.row["id"])


def replayed_faults(board: Leaderboard) -> list[int]:
    """The faulted games the page replays: the first game of each message, in the board's order (at most :data:`FAULT_REPLAYS`)."""
    return [note.game for note in board.faults if note.game is not None][:FAULT_REPLAYS]


def board_replays(board: Leaderboard, results: pandas.DataFrame, pacmen: dict[str, str]) -> list[BoardReplay]:
    """Each Pacman's first win played to its end (else its first game), then
    the faulted games of :func:`replayed_faults`; ``pacmen`` maps specs to
    entrant names, as for :func:`build_leaderboard`."""
    results = results.assign(pacman_name=results["pacman"].map({spec: printable(name) for spec, name in pacmen.items()}))
    replays = []
    for standing in board.pacmen:
        own = results[results["pacman_name"] == standing.rating.entrant]
        if own.empty:
            continue
        wins = own[(own["outcome"] == WIN) & own["error"].isna()]  # a forfeit is no game to show
        row = (wins if not wins.empty else own).sort_values(["game_index", "id"]).iloc[0]
        replays.append(BoardReplay(row, f"{standing.rating.entrant} ({'first win' if not wins.empty else 'first game'})",
                                   len(own)))
    shown = {replay.game for replay in replays}
    notes = {note.game: note for note in board.faults}
    for game in replayed_faults(board):
        rows = results[results["id"] == game]
        if rows.empty or game in shown:
            continue
        note, row = notes[game], rows.iloc[0]
        replays.append(BoardReplay(row, f"{note.entrant} ({note.role_name} fault)",
                                   int((results["pacman"] == row["pacman"]).sum())))
    return replays

