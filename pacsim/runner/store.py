"""The results store: one SQLite file, one row per game.

Only the coordinator writes.  Each batch of finished games is one
transaction of ``INSERT OR IGNORE`` against a UNIQUE (config hash, condition,
game index) key, so a run killed at any instant leaves whole rows only, and
a resumed run can neither duplicate a game nor lose a finished one.  WAL mode
lets ``pacsim report`` read while a run is writing.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pacsim.engine import ACTIONS, parse_layout
from pacsim.engine.recording import SavedGame
from pacsim.errors import LayoutError, PacsimError, ReplayError

if TYPE_CHECKING:
    import pandas

    from pacsim.runner.experiment import Experiment

GAME_COLUMNS: dict[str, str] = {
    "experiment": "TEXT NOT NULL",
    "config_hash": "TEXT NOT NULL",
    "condition_key": "TEXT NOT NULL",
    "condition": "TEXT NOT NULL",
    "pacman": "TEXT NOT NULL",
    "ghosts": "TEXT NOT NULL",
    "layout": "TEXT NOT NULL",
    "num_ghosts": "INTEGER NOT NULL",
    "depth": "INTEGER",
    "options": "TEXT NOT NULL",
    "game_index": "INTEGER NOT NULL",
    "seed": "INTEGER NOT NULL",
    "outcome": "TEXT NOT NULL",
    "score": "INTEGER NOT NULL",
    "moves": "INTEGER NOT NULL",
    "seconds": "REAL NOT NULL",
    "move_seconds_mean": "REAL",
    "move_seconds_max": "REAL",
    "nodes": "INTEGER NOT NULL",
    "depth_reached": "INTEGER",
    "error": "TEXT",
    "pacsim_version": "TEXT NOT NULL",
    "machine": "TEXT NOT NULL",
    "started_at": "TEXT NOT NULL",
    "actions": "TEXT NOT NULL",
}
"""The columns of a game row, in order (besides the integer primary key ``id``)."""

TIMING_COLUMNS = ("seconds", "move_seconds_mean", "move_seconds_max", "started_at", "machine")
"""Columns that differ between two runs of the same games."""

_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS experiments (
    config_hash TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    config TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS conditions (
    config_hash TEXT NOT NULL,
    condition_key TEXT NOT NULL,
    condition TEXT NOT NULL,
    layout TEXT NOT NULL,
    layout_text TEXT NOT NULL,
    PRIMARY KEY (config_hash, condition_key)
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    {", ".join(f"{name} {kind}" for name, kind in GAME_COLUMNS.items())},
    UNIQUE (config_hash, condition_key, game_index)
);
"""

# One letter per action keeps a 300-move replay log under a kilobyte.
_LETTER = {"North": "N", "South": "S", "East": "E", "West": "W", "Stop": "X"}
_ACTION = {letter: action for action, letter in _LETTER.items()}
assert set(_LETTER) == set(ACTIONS)


def encode_actions(actions: list[str]) -> str:
    """The replay log as one letter per action (a JSON list if an action has no letter)."""
    if all(action in _LETTER for action in actions):
        return "".join(_LETTER[action] for action in actions)
    return json.dumps(actions)


def decode_actions(text: str) -> list[str]:
    if text.startswith("["):
        return [str(action) for action in json.loads(text)]
    return [_ACTION[letter] for letter in text]


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class ResultStore:
    """A results store opened for writing (created if missing)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.connection = sqlite3.connect(self.path, timeout=30.0)
            self.connection.execute("PRAGMA journal_mode=WAL")
            # In WAL mode NORMAL survives a killed process (not a power cut) and is much faster than FULL.
            self.connection.execute("PRAGMA synchronous=NORMAL")
            with self.connection:
                self.connection.executescript(_SCHEMA)
        except (OSError, sqlite3.DatabaseError) as error:
            raise PacsimError(f"{self.path}: cannot open the results store: {error}") from None

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        self.connection.close()

    def register(self, experiment: Experiment) -> None:
        """Record the experiment's config and each condition's layout text (once)."""
        digest = experiment.config_hash
        with self.connection:
            self.connection.execute(
                "INSERT INTO experiments VALUES (?, ?, ?, ?) ON CONFLICT(config_hash) DO UPDATE SET "
                "config = excluded.config, updated_at = excluded.updated_at",
                (digest, experiment.name, json.dumps(experiment.config, sort_keys=True), utc_now()))
            self.connection.executemany(
                "INSERT OR IGNORE INTO conditions VALUES (?, ?, ?, ?, ?)",
                [(digest, condition.key, condition.label, condition.layout, condition.layout_text)
                 for condition in experiment.conditions])

    def finished(self, config_hash: str, outcome: str | None = None) -> set[tuple[str, int]]:
        """(condition key, game index) of every game already stored for this
        config (with this ``outcome`` only, if given)."""
        query = "SELECT condition_key, game_index FROM games WHERE config_hash = ?"
        parameters: tuple[str, ...] = (config_hash,)
        if outcome is not None:
            query, parameters = query + " AND outcome = ?", (config_hash, outcome)
        return {(key, index) for key, index in self.connection.execute(query, parameters)}

    def add_games(self, rows: Iterable[dict[str, Any]]) -> int:
        """Insert game rows in one transaction; returns how many were stored.

        A game stored as an ``error`` is replaced by its new row (a re-run
        plays such games again); any other stored game is kept as it is."""
        names = list(GAME_COLUMNS)
        statement = (f"INSERT INTO games ({', '.join(names)}) VALUES ({', '.join('?' * len(names))}) "
                     "ON CONFLICT (config_hash, condition_key, game_index) DO UPDATE SET "
                     f"{', '.join(f'{name} = excluded.{name}' for name in names)} WHERE games.outcome = 'error'")
        with self.connection:
            before = self.connection.total_changes
            self.connection.executemany(statement, [[row[name] for name in names] for row in rows])
            return self.connection.total_changes - before


# -- reading --------------------------------------------------------------

def open_existing(path: str | Path) -> sqlite3.Connection:
    """Open a store for reading; a missing file or a non-store is a one-line error."""
    path = Path(path)
    if not path.is_file():
        raise PacsimError(f"{path}: no such results store")
    connection = sqlite3.connect(path, timeout=30.0)
    try:
        tables = {name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError as error:  # not an SQLite file at all
        connection.close()
        raise PacsimError(f"{path}: not a results store ({error})") from None
    if not {"games", "conditions"} <= tables:
        connection.close()
        raise PacsimError(f"{path}: not a pacsim results store (no games table)")
    return connection


def load_results(path: str | Path) -> pandas.DataFrame:
    """Every game in the store, one row each: condition by condition in the
    experiment's grid order (not the order parallel workers finished them),
    game by game within each.

    Besides the stored columns, each Pacman option becomes a column of its
    own (``eval``, ``model``, ...) and each ghost option ``ghost_<name>``,
    so that they can be grouped by."""
    import pandas

    connection = open_existing(path)
    try:
        frame = pandas.read_sql_query(
            "SELECT g.* FROM games g LEFT JOIN conditions c "
            "ON c.config_hash = g.config_hash AND c.condition_key = g.condition_key "
            "ORDER BY c.rowid, g.game_index, g.id", connection)
    finally:
        connection.close()
    return _expand_options(frame)


def _expand_options(frame: pandas.DataFrame) -> pandas.DataFrame:
    parsed = [json.loads(text) for text in frame["options"]]
    columns: dict[str, list[Any]] = {}
    for row, options in enumerate(parsed):
        flat = {**options.get("pacman", {}), **{f"ghost_{key}": value for key, value in options.get("ghost", {}).items()}}
        for key, value in flat.items():
            if key not in frame.columns:
                columns.setdefault(key, [None] * len(parsed))[row] = value
    for key, values in columns.items():
        frame[key] = values
    return frame


def load_saved_game(path: str | Path, game_id: int) -> SavedGame:
    """The game with primary key ``game_id``, ready to replay (``pacsim replay STORE --game ID``)."""
    connection = open_existing(path)
    try:
        row = connection.execute(
            "SELECT g.layout, c.layout_text, g.num_ghosts, g.actions, g.seed, g.pacman, g.ghosts, g.options, "
            "g.depth, g.outcome, g.score FROM games g JOIN conditions c "
            "ON c.config_hash = g.config_hash AND c.condition_key = g.condition_key WHERE g.id = ?",
            (int(game_id),)).fetchone()
        if row is None:
            count, low, high = connection.execute("SELECT COUNT(*), MIN(id), MAX(id) FROM games").fetchone()
            known = f"ids {low}..{high}" if count else "the store is empty"
            raise ReplayError(f"{path}: no game {game_id} ({known})")
    finally:
        connection.close()
    layout_name, layout_text, num_ghosts, actions, seed, pacman, ghosts, options, depth, outcome, score = row
    options = json.loads(options)
    try:
        layout = parse_layout(layout_text, name=layout_name, source=f"{path} (game {game_id} layout)")
    except LayoutError as error:
        raise ReplayError(str(error)) from None
    pacman_options = dict(options.get("pacman", {}))
    if depth is not None:  # the configured depth (an agent's default is the same game)
        pacman_options = {"depth": depth, **pacman_options}
    return SavedGame(
        layout=layout, num_ghosts=num_ghosts, actions=decode_actions(actions), seed=seed,
        pacman=_spec(pacman, pacman_options), ghosts=[_spec(ghosts, options.get("ghost", {}))] * num_ghosts,
        outcome=outcome, score=score)


def _spec(name: str, options: dict[str, Any]) -> str:
    if not options:
        return name
    return name + ("," if ":" in name else ":") + ",".join(f"{key}={value}" for key, value in options.items())
