"""A capture contest's SQLite store: what was drawn for it, its Swiss rounds and its games (the only SQL of contests).

Each game row is written and committed as soon as its game ends, under a
key that names what decides the game (the contest, both teams' names and
hand-in hashes, the maze's text, the seed, the move cap): a run killed at any
moment (``kill -9``) loses only the games under way, and a second run plays
exactly the planned games whose keys are missing, so nothing is played twice
or stored twice.  A team whose hand-in changed has a new hash, so new keys:
only its games are played again; its old games stay in the store, unused.

What was drawn afresh for a contest (its secret, its mazes and their text,
the machine's speed factor) is written before its first game, so that a
resumed or repeated run plays the same mazes and seeds, and each game's maze
and seed are in its row: the contest can be replayed.  The secret never
leaves this file (each team's child sees only its own hand-in's copy).
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pacsim.errors import ConfigError

SCHEMA = """
CREATE TABLE IF NOT EXISTS contest (name TEXT PRIMARY KEY, secret TEXT NOT NULL, mazes TEXT NOT NULL,
                                    speed_factor REAL NOT NULL, created TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rounds (contest TEXT NOT NULL, round INTEGER NOT NULL, pairs TEXT NOT NULL,
                                   PRIMARY KEY (contest, round));
CREATE TABLE IF NOT EXISTS games (key TEXT PRIMARY KEY, contest TEXT NOT NULL, stage TEXT NOT NULL,
    round INTEGER NOT NULL, red TEXT NOT NULL, blue TEXT NOT NULL, red_digest TEXT NOT NULL, blue_digest TEXT NOT NULL,
    layout TEXT NOT NULL, seed INTEGER NOT NULL, score INTEGER NOT NULL, winner TEXT NOT NULL, reason TEXT NOT NULL,
    culprit INTEGER, fault TEXT NOT NULL, error TEXT NOT NULL, moves TEXT NOT NULL, seconds TEXT NOT NULL,
    speed_factor REAL NOT NULL, move_warning REAL NOT NULL, move_timeout REAL NOT NULL, sandbox TEXT NOT NULL,
    pacsim_version TEXT NOT NULL, machine TEXT NOT NULL, played_at TEXT NOT NULL);
"""
GAME_COLUMNS = ("key", "contest", "stage", "round", "red", "blue", "red_digest", "blue_digest", "layout", "seed",
                "score", "winner", "reason", "culprit", "fault", "error", "moves", "seconds", "speed_factor",
                "move_warning", "move_timeout", "sandbox", "pacsim_version", "machine", "played_at")


@dataclass(frozen=True)
class Drawn:
    """What a contest drew when it was first run, kept for every later run."""

    secret: str
    """The key of its seeds' hash (hex): nobody who lacks it can learn a game's seed beforehand."""
    mazes: tuple[tuple[str, str], ...]
    """Its mazes' names and ``.lay`` texts."""
    speed_factor: float
    """The machine's speed factor when it was first run (:mod:`pacsim.runner.machine_speed`)."""


class ContestStore:
    """The store of one or more contests (see the module's docstring)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileExistsError):  # the secret behind every seed is in it: this user's alone
            os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
        try:
            self.connection = sqlite3.connect(path, timeout=60)
            self.connection.executescript(SCHEMA)
            columns = {row[1] for row in self.connection.execute("PRAGMA table_info(games)")}
        except sqlite3.DatabaseError as error:
            raise ConfigError(f"--store {path}: not a contest store ({error})") from None
        if not set(GAME_COLUMNS) <= columns:  # another kind of store (a Pacman tournament's) named by mistake
            self.connection.close()
            raise ConfigError(f"--store {path}: not a capture contest's store (a Pacman tournament's, or another's)")

    def close(self) -> None:
        self.connection.close()

    def drawn(self, name: str) -> Drawn | None:
        row = self.connection.execute("SELECT secret, mazes, speed_factor FROM contest WHERE name = ?", (name,)).fetchone()
        if row is None:
            return None
        return Drawn(row[0], tuple((str(maze), str(text)) for maze, text in json.loads(row[1])), float(row[2]))

    def keep_drawn(self, name: str, drawn: Drawn, when: str) -> Drawn:
        """Keep what was drawn for contest ``name`` unless an earlier run kept its own; what is kept."""
        with self.connection:
            self.connection.execute("INSERT OR IGNORE INTO contest VALUES (?, ?, ?, ?, ?)",
                                    (name, drawn.secret, json.dumps(drawn.mazes), drawn.speed_factor, when))
        kept = self.drawn(name)
        assert kept is not None
        return kept

    def pairs(self, name: str, round_number: int) -> list[tuple[str, str]] | None:
        """The pairs of a Swiss round planned by an earlier run, or None."""
        row = self.connection.execute("SELECT pairs FROM rounds WHERE contest = ? AND round = ?",
                                      (name, round_number)).fetchone()
        return None if row is None else [(str(first), str(second)) for first, second in json.loads(row[0])]

    def keep_pairs(self, name: str, round_number: int, pairs: Sequence[tuple[str, str]]) -> None:
        with self.connection:
            self.connection.execute("INSERT OR IGNORE INTO rounds VALUES (?, ?, ?)", (name, round_number, json.dumps(pairs)))

    def stored_keys(self, keys: Iterable[str]) -> set[str]:
        wanted = list(keys)
        found: set[str] = set()
        for start in range(0, len(wanted), 500):
            chunk = wanted[start:start + 500]
            marks = ",".join("?" * len(chunk))
            found.update(row[0] for row in self.connection.execute(f"SELECT key FROM games WHERE key IN ({marks})", chunk))
        return found

    def add_game(self, row: dict[str, Any]) -> None:
        """Store one game, committed at once; a game already stored (the same key) is left as it was."""
        with self.connection:
            self.connection.execute(f"INSERT OR IGNORE INTO games ({', '.join(GAME_COLUMNS)}) "
                                    f"VALUES ({', '.join('?' * len(GAME_COLUMNS))})", [row[column] for column in GAME_COLUMNS])

    def games(self, keys: Iterable[str]) -> list[dict[str, Any]]:
        """The stored games of ``keys``, sorted by key (a fixed order for the ratings' bootstrap)."""
        wanted = list(keys)
        rows: list[dict[str, Any]] = []
        for start in range(0, len(wanted), 500):
            chunk = wanted[start:start + 500]
            marks = ",".join("?" * len(chunk))
            cursor = self.connection.execute(f"SELECT {', '.join(GAME_COLUMNS)} FROM games WHERE key IN ({marks})", chunk)
            rows.extend(dict(zip(GAME_COLUMNS, row, strict=True)) for row in cursor)
        return sorted(rows, key=lambda row: row["key"])

    def game(self, key_start: str) -> dict[str, Any] | None:
        """The game whose key starts with ``key_start`` (the board shows 12 characters), or None."""
        cursor = self.connection.execute(f"SELECT {', '.join(GAME_COLUMNS)} FROM games WHERE key LIKE ? LIMIT 2",
                                         (key_start.replace("%", "").replace("_", "") + "%",))
        rows = cursor.fetchall()
        return dict(zip(GAME_COLUMNS, rows[0], strict=True)) if len(rows) == 1 else None


def read_contests(path: Path) -> dict[str, list[dict[str, Any]]] | None:
    """Each contest's stored games (sorted by key) in the store at ``path``, read without writing (as the dashboard
    follows a contest being played), or None when ``path`` is no contest store (a results store, say)."""
    from pacsim.runner.store import connect_read_only

    if not path.is_file():
        return None
    try:
        connection = connect_read_only(path)
    except sqlite3.DatabaseError:
        return None
    try:
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        columns = {row[1] for row in connection.execute("PRAGMA table_info(games)")}
        if not {"contest", "rounds", "games"} <= tables or not set(GAME_COLUMNS) <= columns:
            return None
        contests: dict[str, list[dict[str, Any]]] = {row[0]: [] for row in connection.execute("SELECT name FROM contest")}
        for row in connection.execute(f"SELECT {', '.join(GAME_COLUMNS)} FROM games ORDER BY key"):
            game = dict(zip(GAME_COLUMNS, row, strict=True))
            contests.setdefault(game["contest"], []).append(game)
        return contests
    except sqlite3.DatabaseError:
        return None
    finally:
        connection.close()
