"""The results store: one SQLite file, one row per game.

Only the coordinator writes.  Each batch of finished games is one
transaction of ``INSERT OR IGNORE`` against a UNIQUE (config hash, condition,
game index) key, so a run killed at any instant leaves whole rows only, and
a resumed run can neither duplicate a game nor lose a finished one.  WAL mode
lets ``pacsim report`` read while a run is writing.

The games table's columns are the fields of
:class:`~pacsim.runner.row.GameRow`, and this module holds pacsim's SQL
but the reports' queries (:mod:`pacsim.runner.aggregate`).  A store written by an older pacsim is read as it is (its older forms
computed, its missing newer columns empty) and rebuilt to the current
columns, in one transaction, by the first run that opens it.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import sqlite3
import urllib.parse
from collections.abc import Callable, Collection, Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pacsim.agents.registry import RENAMED_OPTIONS, join_spec, parse_spec
from pacsim.engine import parse_layout
from pacsim.engine.recording import SavedGame, check_num_ghosts, decode_actions, describe, line_of_play
from pacsim.engine.starts import with_pacman_start
from pacsim.engine.streams import STREAM_VERSIONS, STRING_STREAMS
from pacsim.errors import ConfigError, LayoutError, ReplayError, StoreError
from pacsim.files import note_input
from pacsim.runner.row import GAME_COLUMNS, PROTOCOL, REPLAYED_OUTCOMES, GameRow

if TYPE_CHECKING:
    import pandas

    from pacsim.runner.experiment import Experiment
    from pacsim.runner.plan import Condition

NEWER_COLUMNS = ("start", "arch", "cores", "python_version", "numba_version", "git_commit", "searched_by",
                 "worker_exit", "fault", "sandbox", "streams")
"""Columns newer than the first stores: an older store reads them as empty
(and gains them, empty, when a run opens it)."""

EARLIER_FORMS: dict[str, tuple[str, str]] = {
    "levels_reached": ("depth_reached", "depth_reached"),
    "hostname": ("machine", "CASE WHEN instr(machine, ' (') THEN substr(machine, 1, instr(machine, ' (') - 1) "
                            "ELSE machine END"),
    "os": ("machine", "CASE WHEN instr(machine, ' (') THEN substr(machine, instr(machine, ' (') + 2, "
                      "length(machine) - instr(machine, ' (') - 2) ELSE '' END"),
}
"""Columns that older stores held in another form: column -> (the older
column, the SQL computing it from that).  ``depth_reached`` was renamed by its
unit; ``machine`` was the text ``"HOSTNAME (PLATFORM)"``."""

def _create_games(name: str) -> str:
    """The CREATE statement of a games table: one column per :class:`GameRow` field."""
    columns = ", ".join(f"{column} {kind}" for column, kind in GAME_COLUMNS.items())
    return (f"CREATE TABLE IF NOT EXISTS {name} (id INTEGER PRIMARY KEY, {columns}, "
            "UNIQUE (config_hash, condition_key, game_index))")


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
{_create_games("games")};
"""


_REPLAYED = ", ".join(f"'{outcome}'" for outcome in REPLAYED_OUTCOMES)
"""The outcomes a resumed run plays again, as an SQL list."""


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class ResultStore:
    """A results store opened for writing (created if missing)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.connection = sqlite3.connect(self.path, timeout=30.0)
        except (OSError, sqlite3.DatabaseError) as error:
            raise _read_only(self.path, error) or StoreError(f"{self.path}: cannot open the results store: {error}") from None
        try:
            self.connection.execute("PRAGMA journal_mode=WAL")
            # In WAL mode NORMAL survives a killed process (not a power cut) and is much faster than FULL.
            self.connection.execute("PRAGMA synchronous=NORMAL")
            with self.connection:
                self.connection.executescript(_SCHEMA)
            check_store(self.connection, self.path)  # before a run adds to it (or migrates it)
            _migrate(self.connection)
        except (sqlite3.DatabaseError, StoreError) as error:
            self.connection.close()
            if isinstance(error, StoreError):
                raise
            raise _read_only(self.path, error) or _damaged(self.path, error) from None

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        self.connection.close()

    def register(self, experiment: Experiment) -> None:
        """Record the experiment's config (its conditions are recorded as their games are planned)."""
        with store_errors(self.path), self.connection:
            self.connection.execute(
                "INSERT INTO experiments VALUES (?, ?, ?, ?) ON CONFLICT(config_hash) DO UPDATE SET "
                "config = excluded.config, updated_at = excluded.updated_at",
                (experiment.config_hash, experiment.name, json.dumps(experiment.config, sort_keys=True), utc_now()))

    def add_conditions(self, experiment: Experiment, conditions: list[Condition]) -> None:
        """Record each condition's layout text, once per store, in one transaction
        (a generated maze's text is built here, only for a condition not yet recorded)."""
        digest = experiment.config_hash
        with store_errors(self.path), self.connection:
            known = {key for (key,) in self.connection.execute(
                f"SELECT condition_key FROM conditions WHERE config_hash = ? AND condition_key IN "
                f"({', '.join('?' * len(conditions))})", (digest, *(condition.key for condition in conditions)))}
            try:
                self.connection.executemany(
                    "INSERT OR IGNORE INTO conditions VALUES (?, ?, ?, ?, ?)",
                    ((digest, condition.key, condition.label, condition.layout, condition.layout_text)
                     for condition in conditions if condition.key not in known))
            except ConfigError as error:  # a seed whose maze cannot be made (none of these is stored: a rollback)
                raise ConfigError(f"{experiment.source}: grid.layout: {error}") from None

    def stored_outcomes(self, config_hash: str, game_index: int, keys: list[str]) -> dict[str, str]:
        """Condition key -> outcome of game ``game_index`` of these conditions, for those stored
        (one query per batch of a run's planning: a resume holds no set of every stored game)."""
        with store_errors(self.path):
            return dict(self.connection.execute(
                f"SELECT condition_key, outcome FROM games WHERE config_hash = ? AND game_index = ? AND "
                f"condition_key IN ({', '.join('?' * len(keys))})", (config_hash, game_index, *keys)))

    def has_games(self, config_hash: str) -> bool:
        """Whether any game of this config is stored."""
        with store_errors(self.path):
            return self.connection.execute("SELECT 1 FROM games WHERE config_hash = ? LIMIT 1",
                                           (config_hash,)).fetchone() is not None

    def stream_versions(self, config_hash: str) -> set[int]:
        """The random-stream versions this config's stored games were played with
        (a row from before pacsim recorded them: version 1)."""
        with store_errors(self.path):
            return {version for (version,) in self.connection.execute(
                f"SELECT DISTINCT coalesce(streams, {STRING_STREAMS}) FROM games WHERE config_hash = ?", (config_hash,))}

    def count_results(self, config_hash: str, games: int | None = None) -> int:
        """How many games of this config (of its first ``games`` game indexes,
        if given) are stored with a result (an outcome other than ``error`` and ``crash``)."""
        with store_errors(self.path):
            (count,) = self.connection.execute(
                f"SELECT COUNT(*) FROM games WHERE config_hash = ? AND game_index < ? AND outcome NOT IN ({_REPLAYED})",
                (config_hash, games if games is not None else 1 << 62)).fetchone()
        return count

    def add_games(self, rows: Iterable[GameRow]) -> int:
        """Insert game rows in one transaction; returns how many were stored.

        A game stored as an ``error`` or a ``crash`` is replaced by its new
        row (a re-run plays such games again); any other stored game is kept as it is."""
        names = list(GAME_COLUMNS)
        statement = (f"INSERT INTO games ({', '.join(names)}) VALUES ({', '.join('?' * len(names))}) "
                     "ON CONFLICT (config_hash, condition_key, game_index) DO UPDATE SET "
                     f"{', '.join(f'{name} = excluded.{name}' for name in names)} "
                     f"WHERE games.outcome IN ({_REPLAYED})")
        values = [[getattr(row, name) for name in names] for row in map(storable, rows)]
        with store_errors(self.path), self.connection:
            before = self.connection.total_changes
            self.connection.executemany(statement, values)
            return self.connection.total_changes - before


INTEGER_RANGE = range(-(1 << 63), 1 << 63)
"""What SQLite's INTEGER holds."""
ENTRANT_NUMBERS = ("depth", "nodes", "levels_reached")
"""The numbers of a row that Pacman's agent gives (its depth, its searches' statistics); pacsim computes the others."""


def storable(row: GameRow) -> GameRow:
    """``row`` as the store can hold it: a value of the wrong type or out of
    SQLite's range would fail the whole batch's transaction (and every resume
    the same way), so it is clamped here; if Pacman's agent gave it, the game
    is Pacman's ``protocol`` fault (a loss, never replayed, never pacsim's error)."""
    changed: dict[str, Any] = {}
    for name, kind in GAME_COLUMNS.items():
        value = getattr(row, name)
        fixed = _storable_value(value, kind)
        if fixed is not value:
            changed[name] = fixed
    if not changed:
        return row
    reported = [name for name in ENTRANT_NUMBERS if name in changed]
    if reported and row.fault is None:
        value = repr(getattr(row, reported[0]))
        shown = value if len(value) <= 40 else f"{value[:20]}...({len(value)} digits)"
        changed.update(outcome="loss", fault=PROTOCOL, error=f"agent 0 reported {reported[0]} = {shown}, "
                                                              "which the store cannot hold (a 64-bit integer)")
    return dataclasses.replace(row, **changed)


def _storable_value(value: Any, kind: str) -> Any:
    """``value`` if a column declared ``kind`` can hold it, else the nearest value it can."""
    required = "NOT NULL" in kind
    if value is None:
        return value if not required else {"TEXT": "", "INTEGER": 0, "REAL": 0.0}[kind.split()[0]]
    if kind.startswith("INTEGER"):
        if type(value) is int and value in INTEGER_RANGE:
            return value
        if not isinstance(value, int):
            return None if not required else 0
        return min(max(int(value), INTEGER_RANGE.start), INTEGER_RANGE.stop - 1)
    if kind.startswith("REAL"):
        if type(value) is float and math.isfinite(value):
            return value
        number = float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else math.nan
        if math.isfinite(number):
            return number
        return None if not required else 0.0
    text = value if type(value) is str else str(value) if isinstance(value, str) else repr(value)[:200]
    try:
        text.encode()
    except UnicodeEncodeError:  # a lone surrogate, say, from an agent's exception message
        text = text.encode(errors="backslashreplace").decode()
    return value if text == value and type(value) is str else text


def _finished(connection: sqlite3.Connection, config_hash: str) -> set[tuple[str, int]]:
    query = "SELECT condition_key, game_index FROM games WHERE config_hash = ?"
    return {(key, index) for key, index in connection.execute(query, (config_hash,))}


def finished_games(path: str | Path, config_hash: str) -> set[tuple[str, int]]:
    """(condition key, game index) of every game of this config already in
    the store at ``path`` (none if there is no store yet); read only."""
    if not Path(path).is_file():
        return set()
    connection = open_existing(path)
    try:
        with store_errors(Path(path)):
            return _finished(connection, config_hash)
    finally:
        connection.close()


# -- older stores ---------------------------------------------------------

def _column_sources(present: set[str]) -> dict[str, str] | str:
    """Each column as SQL over a games table with the ``present`` columns
    (the column itself, its :data:`EARLIER_FORMS`, or NULL for the
    :data:`NEWER_COLUMNS`); the first column it lacks if it is no pacsim store's."""
    sources = {}
    for name in GAME_COLUMNS:
        earlier, computed = EARLIER_FORMS.get(name, ("", ""))
        if name in present:
            sources[name] = name
        elif earlier in present:
            sources[name] = computed
        elif name in NEWER_COLUMNS:
            sources[name] = "NULL"
        else:
            return name
    return sources


def games_table(connection: sqlite3.Connection) -> str:
    """The games table as the current schema reads it, for a FROM clause:
    ``games`` itself, or a query computing the columns an older store lacks
    (check_store has made sure it can)."""
    sources = _column_sources(_game_columns(connection))
    assert isinstance(sources, dict)
    if all(source == name for name, source in sources.items()):
        return "games"
    return f"(SELECT id, {', '.join(f'{source} AS {name}' for name, source in sources.items())} FROM games)"


def _migrate(connection: sqlite3.Connection) -> None:
    """Bring an older store's games table to the current columns, in one
    transaction (a kill leaves the old table or the new one, never half):
    a copy with every id and value, the older forms computed, the newer columns empty."""
    if games_table(connection) == "games":
        return
    names = ", ".join(GAME_COLUMNS)
    try:
        connection.execute("BEGIN IMMEDIATE")
        games = games_table(connection)  # again, under the lock: another run may have migrated it meanwhile
        if games == "games":
            connection.rollback()
            return
        connection.execute(_create_games("games_migrated"))
        connection.execute(f"INSERT INTO games_migrated (id, {names}) SELECT id, {names} FROM {games}")
        connection.execute("DROP TABLE games")
        connection.execute("ALTER TABLE games_migrated RENAME TO games")
        connection.commit()
    except BaseException:
        connection.rollback()
        raise


def _game_columns(connection: sqlite3.Connection) -> set[str]:
    return {row[1] for row in connection.execute("PRAGMA table_info(games)")}


@contextmanager
def store_errors(path: Path) -> Iterator[None]:
    """SQLite's own errors (a damaged page, a full disk, a lock held too long) as one line naming the store."""
    try:
        yield
    except sqlite3.DatabaseError as error:
        raise _read_only(path, error) or StoreError(f"{path}: the results store cannot be used: {error}") from None


def _damaged(path: Path, error: sqlite3.Error) -> StoreError:
    return StoreError(f"{path}: not a results store, or a damaged one ({error})")


def _read_only(path: Path, error: Exception) -> StoreError | None:
    """The error for a store that cannot be written because it, its folder or
    its file system is read-only (not "damaged"); None for any other error."""
    name = getattr(error, "sqlite_errorname", "")
    cannot_open = name == "SQLITE_CANTOPEN" or isinstance(error, OSError)
    writable = os.access(path.parent, os.W_OK) and (not path.exists() or os.access(path, os.W_OK))
    if name.startswith("SQLITE_READONLY") or (cannot_open and not writable):
        return StoreError(f"{path}: the results store is read-only (it, its folder or its disk cannot be written): "
                          "report, export and replay read it; a run needs a writable copy")
    return None


# -- checking -------------------------------------------------------------

_SQLITE_TYPES = {"TEXT": ("text",), "INTEGER": ("integer",), "REAL": ("real", "integer")}
_PYTHON_TYPES = {"text": str, "integer": int, "real": float}
_EXPECTED = {"TEXT": "text", "INTEGER": "an integer", "REAL": "a number"}


def _allowed_types(kind: str) -> tuple[str, ...]:
    """The SQLite storage classes a column declared ``kind`` may hold in a pacsim store."""
    allowed = _SQLITE_TYPES[kind.split()[0]]
    return allowed if "NOT NULL" in kind else (*allowed, "null")


def check_store(connection: sqlite3.Connection, path: Path) -> None:
    """Refuse, in one line naming the file (and the game), a file that is not a
    pacsim store or holds a row pacsim cannot have written (text in a
    numeric column, say).  Reads every row: a damaged page raises here, as
    :class:`sqlite3.DatabaseError`, rather than halfway through a report."""
    tables = {name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if not {"games", "conditions"} <= tables:
        raise StoreError(f"{path}: not a pacsim results store (no games table)")
    sources = _column_sources(_game_columns(connection))
    if isinstance(sources, str):
        raise StoreError(f"{path}: not a pacsim results store (its games table has no {sources} column)")
    names = [name for name, source in sources.items() if source != "NULL"]
    wrong = " OR ".join(f"typeof({name}) NOT IN ({', '.join(repr(kind) for kind in _allowed_types(GAME_COLUMNS[name]))})"
                        for name in names)
    row = connection.execute(f"SELECT id, {', '.join(names)} FROM {games_table(connection)} WHERE {wrong} LIMIT 1").fetchone()
    if row is not None:
        game_id, *values = row
        for name, value in zip(names, values):
            allowed = {_PYTHON_TYPES.get(kind, type(None)) for kind in _allowed_types(GAME_COLUMNS[name])}
            if type(value) not in allowed:
                raise StoreError(f"{path}: game {game_id}: column {name} holds {describe(value)}, "
                                 f"not {_EXPECTED[GAME_COLUMNS[name].split()[0]]}: a damaged or foreign store")
    _check_json_column(connection, path, "options", ("pacman", "ghost"), parse_options)
    _check_json_column(connection, path, "condition_key", ("code", "files"), parse_condition_key)  # a resume reads them
    if "experiments" in tables:  # a report reads each run's seed from its config
        _check_json_column(connection, path, "config", (), _parse_config, table="experiments", identity="name")


def _bad_json_objects(column: str, members: tuple[str, ...], table: str, identity: str) -> str:
    """The query of the first row whose ``column`` is not a JSON object whose
    ``members`` (where present) are objects."""
    inner = "".join(f" OR coalesce(json_type({column}, '$.{member}'), 'object') != 'object'" for member in members)
    return (f"SELECT {identity}, {column} FROM {table} WHERE CASE WHEN typeof({column}) = 'text' AND json_valid({column}) "
            f"THEN json_type({column}) != 'object'{inner} ELSE 1 END LIMIT 1")


def _check_json_column(connection: sqlite3.Connection, path: Path, column: str, members: tuple[str, ...],
                       parse: Callable[[str, str], Any], table: str = "games", identity: str = "id") -> None:
    """Every row's JSON ``column`` as ``parse`` wants it: found by SQLite's JSON
    functions, explained by ``parse`` (which raises the one-line error)."""
    try:
        suspects = connection.execute(_bad_json_objects(column, members, table, identity)).fetchall()
    except sqlite3.OperationalError:  # an SQLite without JSON functions: every row in Python
        suspects = connection.execute(f"SELECT {identity}, {column} FROM {table}").fetchall()
    for key, text in suspects:
        parse(text, f"{path}: game {key}" if table == "games" else f"{path}: experiment {key!r}")


def _parse_config(text: Any, where: str) -> dict[str, Any]:
    """An experiment's stored ``config``: a JSON object; anything else is a one-line :class:`StoreError`."""
    try:
        config = json.loads(text) if isinstance(text, str) else text
    except (json.JSONDecodeError, RecursionError):
        raise StoreError(f"{where}: config is not JSON: {describe(text)}") from None
    if not isinstance(config, dict):
        raise StoreError(f"{where}: config must be a JSON object, not {describe(config)}")
    return config


def parse_condition_key(text: str, where: str) -> dict[str, Any]:
    """A row's ``condition_key``: a JSON object whose ``code`` and ``files``
    (if any) are objects; anything else is a one-line :class:`StoreError`."""
    try:
        identity = json.loads(text)
    except json.JSONDecodeError:
        raise StoreError(f"{where}: condition_key is not JSON: {describe(text)}") from None
    except RecursionError:
        raise StoreError(f"{where}: condition_key is JSON nested too deeply") from None
    if not isinstance(identity, dict) or not all(isinstance(identity.get(part, {}), dict) for part in ("code", "files")):
        raise StoreError(f"{where}: condition_key must be an object (with code and files objects), "
                         f"not {describe(identity)}")
    return identity


# -- reading --------------------------------------------------------------

def open_existing(path: str | Path) -> sqlite3.Connection:
    """Open a store for reading and check it (:func:`check_store`); a missing
    file, a non-store or a damaged one is a one-line :class:`StoreError`."""
    path = Path(path)
    if not path.is_file():
        raise StoreError(f"{path}: no such results store")
    try:
        connection = connect_read_only(path)
    except sqlite3.DatabaseError as error:  # not an SQLite file at all
        raise _damaged(path, error) from None
    note_input(path)
    try:
        check_store(connection, path)
    except sqlite3.DatabaseError as error:  # not an SQLite file at all, or a damaged one
        connection.close()
        raise _damaged(path, error) from None
    except StoreError:
        connection.close()
        raise
    return connection


def connect_read_only(path: Path) -> sqlite3.Connection:
    """A connection that cannot write.  Opened read-write where the folder
    allows, with writes refused (``query_only``): the last connection to close
    then removes the -wal and -shm files a read of a WAL store creates (one
    opened read-only cannot, and left them beside a finished run's store).
    In a read-only folder SQLite cannot create the WAL index beside a store;
    one without a write-ahead log (a finished run leaves none) is then read as
    immutable: nothing can be writing it."""
    uri = "file:" + urllib.parse.quote(str(path.absolute()))
    if os.access(path.parent, os.W_OK) and os.access(path, os.W_OK):
        connection = sqlite3.connect(uri + "?mode=rw", uri=True, timeout=30.0)
        connection.execute("PRAGMA query_only = 1")
        return connection
    connection = sqlite3.connect(uri + "?mode=ro", uri=True, timeout=30.0)
    try:
        connection.execute("SELECT count(*) FROM sqlite_master").fetchone()  # opens the file
    except sqlite3.DatabaseError as error:
        connection.close()
        if getattr(error, "sqlite_errorname", "") != "SQLITE_CANTOPEN":
            raise
        log = path.with_name(path.name + "-wal")
        if log.exists() and log.stat().st_size:
            raise StoreError(f"{path}: cannot read the results store: its folder is read-only and {log.name} "
                             "holds writes not yet in the store: copy both files to a writable folder") from None
        connection = sqlite3.connect(uri + "?immutable=1", uri=True)
    return connection


def load_results(path: str | Path, columns: Collection[str] | None = None) -> pandas.DataFrame:
    """Every game in the store, one row each: condition by condition in the
    experiment's grid order (not the order parallel workers finished them),
    game by game within each.

    The columns are ``id`` and the :class:`~pacsim.runner.row.GameRow`
    fields in order (a store older than some reads them as empty).
    Besides them, each Pacman option becomes a column of its
    own (``eval``, ``model``, ...) and each ghost option ``ghost_<name>``,
    so that they can be grouped by; ``options`` itself stays the stored JSON
    text, ``{"pacman": {...}, "ghost": {...}}`` (``json.loads`` gives the
    dicts).  ``started_at`` is a timezone-aware (UTC) datetime.

    ``columns`` reads only those of them (and ``id``; other names are
    ignored), and may name ``line``: each game's
    :func:`~pacsim.engine.recording.line_of_play`, which a report reads in
    place of the replay logs that are most of a store."""
    import pandas

    wanted = set(GAME_COLUMNS) if columns is None else set(columns)
    selected = [f"g.{name}" for name in GAME_COLUMNS if name in wanted]
    connection = open_existing(path)
    if "line" in wanted:
        connection.create_function("line_of_play", 3, line_of_play, deterministic=True)
        selected.append("line_of_play(g.actions, g.num_ghosts, g.start) AS line")
    try:
        with store_errors(Path(path)):
            # The columns named: an older store (read, not migrated) gives them in the same order.
            frame = _read_frame(connection,
                f"SELECT g.id, {', '.join(selected)} FROM {games_table(connection)} g "
                "LEFT JOIN conditions c ON c.config_hash = g.config_hash AND c.condition_key = g.condition_key "
                "ORDER BY c.rowid, g.game_index, g.id")
    finally:
        connection.close()
    if "started_at" in frame:
        # Written by utc_now(); anything else (a hand-edited row) becomes NaT rather than an error.
        frame["started_at"] = pandas.to_datetime(frame["started_at"], utc=True, format="ISO8601", errors="coerce")
    return _expand_options(frame, Path(path)) if "options" in frame else frame


def _read_frame(connection: sqlite3.Connection, query: str, rows_at_once: int = 1000) -> pandas.DataFrame:
    """The rows of ``query`` as a frame, built ``rows_at_once`` rows at a time:
    a whole store's rows as Python objects would take several times the frame."""
    import pandas

    cursor = connection.execute(query)
    names = [column[0] for column in cursor.description]
    parts = [pandas.DataFrame.from_records(rows, columns=names, coerce_float=True)
             for rows in iter(lambda: cursor.fetchmany(rows_at_once), [])]
    if len(parts) <= 1:
        return parts[0] if parts else pandas.DataFrame.from_records([], columns=names)
    # A part whose values in a column are all NULL holds it as objects: the types of the whole, as one part would have them.
    return pandas.concat(parts, ignore_index=True).infer_objects()


def load_runs(path: str | Path) -> pandas.DataFrame:
    """One row per run (one config of one experiment) in the store: ``run``
    (its config hash), ``experiment``, ``root_seed``, ``updated_at`` (when a
    run last started on it), ``games`` and ``conditions``, oldest first."""
    connection = open_existing(path)
    try:
        with store_errors(Path(path)):
            return _read_frame(connection,
                "SELECT e.config_hash AS run, e.name AS experiment, json_extract(e.config, '$.seed') AS root_seed, "
                "e.updated_at, count(g.id) AS games, count(DISTINCT g.condition_key) AS conditions "
                "FROM experiments e LEFT JOIN games g ON g.config_hash = e.config_hash "
                "GROUP BY e.config_hash ORDER BY e.updated_at, e.rowid")
    finally:
        connection.close()


def parse_options(text: str, where: str) -> dict[str, dict[str, Any]]:
    """A row's ``options``: ``{"pacman": {...}, "ghost": {...}}``; a damaged one is a :class:`StoreError`."""
    try:
        options = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise StoreError(f"{where}: options is not JSON: {describe(text)}") from None
    if not isinstance(options, dict) or not all(isinstance(options.get(role, {}), dict) for role in ("pacman", "ghost")):
        raise StoreError(f"{where}: options must be an object of pacman and ghost options, not {describe(options)}")
    return {role: options.get(role, {}) for role in ("pacman", "ghost")}


def _current_names(options: dict[str, Any]) -> dict[str, Any]:
    """Options under their current names: a row stored as ``engine=fast`` and
    one stored as ``backend=fast`` fall in one column."""
    return {RENAMED_OPTIONS.get(key, key): value for key, value in options.items()}


def _expand_options(frame: pandas.DataFrame, path: Path) -> pandas.DataFrame:
    flat: dict[str, dict[str, Any]] = {}  # each distinct options text parsed once: a condition's games share it
    for text, game_id in zip(frame["options"], frame["id"]):
        if text not in flat:
            options = parse_options(text, f"{path}: game {game_id}")
            pacman, ghost = (_current_names(options[side]) for side in ("pacman", "ghost"))
            flat[text] = {**pacman, **{f"ghost_{key}": value for key, value in ghost.items()}}
    keys = dict.fromkeys(key for options in flat.values() for key in options if key not in frame.columns)
    for key in keys:
        frame[key] = [flat[text].get(key) for text in frame["options"]]
    return frame


def load_saved_game(path: str | Path, game_id: int) -> SavedGame:
    """The game with primary key ``game_id``, ready to replay (``pacsim replay STORE --game ID``).
    Every problem is a one-line :class:`ReplayError` or :class:`StoreError` naming the store and the game."""
    path = Path(path)
    where = f"{path}: game {game_id}"
    connection = open_existing(path)
    try:
        with store_errors(path):
            row = _saved_game_row(connection, path, game_id)
    finally:
        connection.close()
    (layout_name, layout_text, num_ghosts, actions, seed, pacman, ghosts, options, depth, outcome, score, start, fault,
     streams) = row
    if not isinstance(layout_text, str):
        raise ReplayError(f"{where}: the stored layout is {describe(layout_text)}, not text")
    try:
        layout = parse_layout(layout_text, name=layout_name, source=f"{path} (game {game_id} layout)")
        if start is not None:
            layout = with_pacman_start(layout, start)
        decoded = decode_actions(actions)
    except ValueError as error:  # LayoutError is one, with its place
        raise ReplayError(str(error) if isinstance(error, LayoutError) else f"{where}: {error}") from None
    options = parse_options(options, where)
    pacman_options = dict(options["pacman"])
    if depth is not None:  # the configured depth (an agent's default is the same game)
        pacman_options = {"depth": depth, **pacman_options}
    return SavedGame(
        layout=layout, num_ghosts=check_num_ghosts(layout, num_ghosts, where), actions=decoded, seed=seed,
        pacman=_spec(pacman, pacman_options), ghosts=[_spec(ghosts, options["ghost"])] * num_ghosts,
        outcome=outcome, score=score, fault=fault, streams=_stream_version(streams, where))


def _stream_version(stored: Any, where: str) -> int:
    """A stored game's random-stream version (empty: stored before there were two, version 1)."""
    if stored is None:
        return STRING_STREAMS
    if stored not in STREAM_VERSIONS:
        raise ReplayError(f"{where}: random stream version {describe(stored)} is not one this pacsim knows "
                          f"({', '.join(map(str, STREAM_VERSIONS))})")
    return int(stored)


def _saved_game_row(connection: sqlite3.Connection, path: Path, game_id: int) -> tuple:
    count, low, high = connection.execute("SELECT COUNT(*), MIN(id), MAX(id) FROM games").fetchone()
    if not count or not low <= game_id <= high:  # also keeps a huge id away from SQLite's 64-bit integers
        known = f"ids {low}..{high}" if count else "the store is empty"
        raise ReplayError(f"{path}: no game {game_id} ({known})")
    row = connection.execute(
        "SELECT g.layout, c.layout_text, g.num_ghosts, g.actions, g.seed, g.pacman, g.ghosts, g.options, "
        f"g.depth, g.outcome, g.score, g.start, g.fault, g.streams FROM {games_table(connection)} g LEFT JOIN conditions c "
        "ON c.config_hash = g.config_hash AND c.condition_key = g.condition_key WHERE g.id = ?",
        (game_id,)).fetchone()
    if row is None:
        raise ReplayError(f"{path}: no game {game_id} (ids {low}..{high}, some missing)")
    return row


def _spec(name: str, options: dict[str, Any]) -> str:
    """``name`` with ``options`` added, but for those it gives itself (a grid's
    ``alphabeta:depth=1`` has its depth in the depth column too: given twice,
    the agent refuses the spec)."""
    given = parse_spec(name).options
    return join_spec(name, {key: value for key, value in options.items() if key not in given})
