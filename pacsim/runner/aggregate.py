"""Reports computed inside the store: SQL ``GROUP BY`` over the games table,
so that a report's memory does not grow with the number of stored games.

:mod:`pacsim.runner.store` writes and checks stores; this module holds the
read-side queries of the reports (``pacsim report``, ``export``, ``replay
--list``, the dashboard).  Every query returns what grows with the groups
(conditions, distinct scores), never with the games: per-group counts and
sums, each group's score histogram (scores are integers: a few hundred
distinct values however many games), and the few games a report names.
What must read every game (an export) reads it in chunks.
"""

from __future__ import annotations

import functools
import json
import math
import sqlite3
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pacsim.agents.registry import RENAMED_OPTIONS
from pacsim.engine.recording import line_of_play
from pacsim.errors import PacsimError
from pacsim.runner.row import GAME_COLUMNS
from pacsim.runner.store import games_table, open_existing, parse_options, store_errors

if TYPE_CHECKING:
    import pandas

ORDINAL = "printf('%020d|%020d|%020d', coalesce(c.rowid, -1), g.game_index, g.id)"
"""A game's place in :func:`~pacsim.runner.store.load_results`' order (condition
by condition in grid order, then game by game) as text that sorts the same
way: ``min()`` of it is where a group first appears."""

ROWS_AT_ONCE = 20_000
"""The games a chunk of :meth:`StoreQuery.frames` holds (an export's Parquet row group)."""
COMPUTED_COLUMNS = ("line", "root_seed")
PROVENANCE_EXPRESSIONS = {
    "pacsim_version": "g.pacsim_version", "git_commit": "g.git_commit", "python_version": "g.python_version",
    "numba_version": "g.numba_version", "searched_by": "g.searched_by", "machine": "g.hostname || ' (' || g.os || ')'",
}
"""The provenance an HTML report lists per run: column -> its SQL."""
"""Columns a report may group by besides the stored ones and the option columns."""


@dataclass(frozen=True)
class Selection:
    """Which games: those of these runs (config hashes; None: every run), of
    this experiment (and of these), with these ``label_column`` values (as text)."""

    runs: tuple[str, ...] | None = None
    experiment: str | None = None
    experiments: tuple[str, ...] | None = None
    labels: tuple[str, ...] | None = None
    label_column: str = "condition"


@dataclass
class GroupFigures:
    """What a report needs of one group: its counts and sums, and its score histogram."""

    key: tuple[Any, ...]
    games: int
    counts: dict[str, int]
    """Outcome -> games, and ``faults`` -> games with a fault."""
    moves: float
    nodes: float
    thinking: float
    """Sum over games of mean seconds a move times moves."""
    lines: int
    scores: dict[float, int] = field(default_factory=dict)
    """Score -> games."""


class StoreQuery:
    """A store opened read-only for reports computed in SQL."""

    def __init__(self, path: str | Path, selection: Selection = Selection()) -> None:
        self.path = Path(path)
        self.connection = open_existing(self.path)
        self.connection.create_function("line_of_play", 3, line_of_play, deterministic=True)
        self.connection.create_function("option_value", 2, _option_value, deterministic=True)
        self.selection = selection
        self._option_columns: dict[str, str] | None = None

    def __enter__(self) -> StoreQuery:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.connection.close()

    def execute(self, query: str, parameters: Sequence[Any] = ()) -> sqlite3.Cursor:
        with store_errors(self.path):
            return self.connection.execute(query, parameters)

    # -- the games a report speaks of ---------------------------------------

    def source(self) -> tuple[str, list[Any]]:
        """The FROM and WHERE clauses of the selected games, and their parameters."""
        clauses: list[str] = []
        parameters: list[Any] = []
        if self.selection.runs is not None:
            clauses.append(f"g.config_hash IN ({', '.join('?' * len(self.selection.runs))})")
            parameters += self.selection.runs
        if self.selection.experiment is not None:
            clauses.append("g.experiment = ?")
            parameters.append(self.selection.experiment)
        if self.selection.experiments is not None:
            clauses.append(f"g.experiment IN ({', '.join('?' * len(self.selection.experiments))})")
            parameters += self.selection.experiments
        if self.selection.labels is not None:
            label = self.expression(self.selection.label_column)
            clauses.append(f"CAST({label} AS TEXT) IN ({', '.join('?' * len(self.selection.labels))})")
            parameters += self.selection.labels
        where = f" WHERE {' AND '.join(clauses)}" if clauses else ""
        return (f" FROM {games_table(self.connection)} g LEFT JOIN conditions c ON c.config_hash = g.config_hash "
                "AND c.condition_key = g.condition_key LEFT JOIN experiments e ON e.config_hash = g.config_hash"
                + where), parameters

    def option_columns(self) -> dict[str, str]:
        """Column name -> the SQL giving it, for each Pacman option (``eval``)
        and ghost option (``ghost_attack``) any stored game has: the distinct
        options texts are few (a condition's games share one)."""
        if self._option_columns is None:
            names: dict[str, str] = {}
            for (text,) in self.execute("SELECT DISTINCT options FROM games"):
                options = parse_options(text, f"{self.path}: options {text!r}")
                for side, prefix in (("pacman", ""), ("ghost", "ghost_")):
                    for key in options[side]:
                        name = prefix + RENAMED_OPTIONS.get(key, key)
                        if name not in GAME_COLUMNS and name != "id":
                            names.setdefault(name, f"option_value(g.options, {_quoted(name)})")
            self._option_columns = names
        return self._option_columns

    def known_columns(self) -> list[str]:
        return ["id", *GAME_COLUMNS, *self.option_columns(), *COMPUTED_COLUMNS]

    def expression(self, column: str) -> str:
        """The SQL of a column a report may group by; an unknown name is a one-line error listing the known ones."""
        if column == "id" or column in GAME_COLUMNS:
            return f"g.{column}"
        if column == "root_seed":
            return "json_extract(e.config, '$.seed')"
        if column == "line":
            return "line_of_play(g.actions, g.num_ghosts, g.start)"
        options = self.option_columns()
        if column in options:
            return options[column]
        raise PacsimError(f"unknown column {column!r} (columns: {', '.join(self.known_columns())})")

    def keys_frame(self, by: Sequence[str], rows: list[tuple[Any, ...]]) -> pandas.DataFrame:
        """Group keys as a frame whose columns have the types a frame of every game would give them."""
        import pandas

        options = [index for index, column in enumerate(by) if column in self.option_columns()]
        if options:  # JSON text: the values as a group key of load_results' frame (a missing one NaN)
            columns = list(zip(*rows)) if rows else [() for _ in by]
            return pandas.DataFrame({column: [math.nan if text is None else json.loads(text) for text in values]
                                     if index in options else pandas.Series(values).infer_objects()
                                     for index, (column, values) in enumerate(zip(by, columns))})
        if not rows:
            return pandas.DataFrame(columns=list(by))
        return pandas.DataFrame.from_records(rows, columns=list(by), coerce_float=True)

    # -- reports --------------------------------------------------------------

    def runs_present(self) -> pandas.DataFrame:
        """The distinct (experiment, config hash, root seed) of the selected games:
        what :func:`~pacsim.report.summary.default_by` looks at."""
        source, parameters = self.source()
        return _frame(self.execute(
            f"SELECT g.experiment, g.config_hash, json_extract(e.config, '$.seed') AS root_seed{source} "
            f"GROUP BY g.experiment, g.config_hash ORDER BY min({ORDINAL})", parameters))

    def count(self) -> int:
        source, parameters = self.source()
        return int(self.execute(f"SELECT count(*){source}", parameters).fetchone()[0])

    def groups(self, by: Sequence[str], lines: bool = True) -> list[GroupFigures]:
        """Each group's figures, in the order groups first appear in
        :func:`~pacsim.runner.store.load_results`' order."""
        keys = [self.expression(column) for column in by]
        source, parameters = self.source()
        named = ", ".join(f"{key} AS k{index}" for index, key in enumerate(keys))
        grouped = ", ".join(f"k{index}" for index in range(len(keys)))
        distinct_lines = "count(DISTINCT line_of_play(g.actions, g.num_ghosts, g.start))" if lines else "NULL"
        figures = []
        for row in self.execute(
                f"SELECT {named}, count(*), sum(g.outcome = 'win'), sum(g.outcome = 'loss'), "
                "sum(g.outcome = 'timeout'), sum(g.outcome = 'error'), sum(g.outcome = 'crash'), count(g.fault), "
                f"sum(g.moves), sum(g.nodes), total(coalesce(g.move_seconds_mean, 0.0) * g.moves), {distinct_lines}"
                f"{source} GROUP BY {grouped} ORDER BY min({ORDINAL})", parameters):
            key, (games, wins, losses, timeouts, errors, crashes, faults, moves, nodes, thinking, distinct) = \
                tuple(row[:len(keys)]), row[len(keys):]
            figures.append(GroupFigures(
                key=key, games=games, moves=moves or 0, nodes=nodes or 0, thinking=thinking,
                counts={"win": wins, "loss": losses, "timeout": timeouts, "error": errors, "crash": crashes,
                        "faults": faults},
                lines=distinct if distinct is not None else -1))
        by_key = {_group_key(group.key): group for group in figures}
        for row in self.execute(f"SELECT {named}, g.score, count(*){source} GROUP BY {grouped}, g.score", parameters):
            by_key[_group_key(tuple(row[:len(keys)]))].scores[row[-2]] = row[-1]
        return figures

    def column_spread(self, by: Sequence[str], column: str) -> tuple[list[tuple[int, Any]], int]:
        """Per group (in :meth:`groups`' order): how many distinct values of
        ``column`` it has (a missing one counting as one) and its least; and
        how many distinct values all the selected games have."""
        keys = ", ".join(self.expression(name) for name in by)
        value = self.expression(column)
        distinct = f"count(DISTINCT {value}) + max({value} IS NULL)"
        source, parameters = self.source()
        per_group = [(count, least) for count, least, _ in self.execute(
            f"SELECT {distinct}, min({value}), min({ORDINAL}){source} GROUP BY {keys} ORDER BY 3", parameters)]
        (overall,) = self.execute(f"SELECT {distinct}{source}", parameters).fetchone()
        return per_group, overall

    def runs_provenance(self) -> list[dict[str, Any]]:
        """Per run (experiment and config hash, in report order): its games,
        conditions, seeds (count, the first six, the last), first and last
        start, and the distinct values of each provenance column (None for a missing one)."""
        source, parameters = self.source()
        glue = " AND " if "WHERE" in source else " WHERE "
        runs = self.execute(
            "SELECT g.experiment, g.config_hash, count(*), count(DISTINCT g.condition), count(DISTINCT g.seed), "
            f"max(g.seed), min(g.started_at), max(g.started_at){source} GROUP BY g.experiment, g.config_hash "
            f"ORDER BY min({ORDINAL})", parameters).fetchall()
        found = []
        for experiment, run, games, conditions, seeds, last_seed, first_start, last_start in runs:
            mine = f"{source}{glue}g.experiment = ? AND g.config_hash = ?"
            arguments = [*parameters, experiment, run]
            values = {column: [value for (value,) in self.execute(f"SELECT DISTINCT {expression}{mine}", arguments)]
                      for column, expression in PROVENANCE_EXPRESSIONS.items()}
            first_seeds = [seed for (seed,) in self.execute(f"SELECT DISTINCT g.seed{mine} ORDER BY g.seed LIMIT 6",
                                                            arguments)]
            found.append({"experiment": experiment, "config_hash": run, "games": games, "conditions": conditions,
                          "seeds": seeds, "first_seeds": first_seeds, "last_seed": last_seed,
                          "first_start": first_start, "last_start": last_start, "values": values})
        return found

    def first_by_outcome(self, by: Sequence[str]) -> list[tuple[tuple[Any, ...], int, dict[str, dict[str, Any]]]]:
        """Per group (in report order): its key, its games, and per outcome
        its first game by game index (then report order), and ``""`` its first game of any outcome."""
        keys = [self.expression(column) for column in by]
        named = ", ".join(keys)
        source, parameters = self.source()
        first = f"min(printf('%020d', g.game_index) || {ORDINAL})"
        columns = "g.id, g.game_index, g.seed, g.score, g.outcome"
        groups: dict[tuple[Any, ...], tuple[int, dict[str, dict[str, Any]]]] = {}
        for row in self.execute(f"SELECT {named}, count(*), {columns}, {first}{source} GROUP BY {named} "
                                f"ORDER BY min({ORDINAL})", parameters):
            key, games, game = tuple(row[:len(keys)]), row[len(keys)], row[len(keys) + 1:-1]
            groups[key] = (games, {"": dict(zip(("id", "game_index", "seed", "score", "outcome"), game))})
        for row in self.execute(f"SELECT {named}, {columns}, {first}{source} GROUP BY {named}, g.outcome", parameters):
            key, game = tuple(row[:len(keys)]), row[len(keys):-1]
            groups[key][1][game[-1]] = dict(zip(("id", "game_index", "seed", "score", "outcome"), game))
        return [(key, games, firsts) for key, (games, firsts) in groups.items()]

    def first_game(self, where: str = "1", order: str = "") -> dict[str, Any] | None:
        """The first selected game (in report order, after ``order``) matching ``where``, as a dict."""
        source, parameters = self.source()
        glue = " AND " if "WHERE" in source else " WHERE "
        cursor = self.execute(
            f"SELECT g.id, g.outcome, g.score, g.moves, g.condition, g.experiment, g.config_hash{source}{glue}{where} "
            f"ORDER BY {order}{ORDINAL} LIMIT 1", parameters)
        row = cursor.fetchone()
        return None if row is None else dict(zip((column[0] for column in cursor.description), row))

    def label_values(self, column: str) -> list[Any]:
        source, parameters = self.source()
        expression = self.expression(column)
        return [value for (value,) in self.execute(
            f"SELECT {expression}{source} GROUP BY {expression} ORDER BY min({ORDINAL})", parameters)]

    def paired(self, column: str, a: str, b: str) -> tuple[list[tuple[Any, ...]], tuple[int, int]]:
        """Games of ``column`` value ``a`` paired with those of ``b`` on (game
        index, seed): per (score of A, score of B, A won, B won), how many
        pairs; and how many games of A and of B share a game index with
        another of their side (several runs pooled)."""
        source, parameters = self.source()
        label = self.expression(column)
        side = f"SELECT g.game_index AS game_index, g.seed AS seed, g.score AS score, g.outcome = 'win' AS won{source}" \
               f"{' AND ' if 'WHERE' in source else ' WHERE '}CAST({label} AS TEXT) = ?"
        rows = self.execute(
            f"WITH a AS ({side}), b AS ({side}) SELECT a.score, b.score, a.won, b.won, count(*) FROM a "
            "JOIN b ON a.game_index = b.game_index AND a.seed = b.seed GROUP BY 1, 2, 3, 4",
            [*parameters, a, *parameters, b]).fetchall()
        repeated = []
        for value in (a, b):
            (count, distinct), = self.execute(f"WITH s AS ({side}) SELECT count(*), count(DISTINCT game_index) FROM s",
                                              [*parameters, value])
            repeated.append(count - distinct)
        return rows, (repeated[0], repeated[1])

    def frames(self, columns: Collection[str] | None = None, rows_at_once: int | None = None) -> Iterator[pandas.DataFrame]:
        """The selected games in report order, ``rows_at_once`` at a time, as
        :func:`~pacsim.runner.store.load_results` gives them (option columns
        included), each chunk with the same columns."""
        import pandas

        names = [name for name in GAME_COLUMNS if columns is None or name in columns]
        selected = [f"g.{name}" for name in names]
        selected += [f"{self.expression(name)} AS {name}" for name in COMPUTED_COLUMNS if columns and name in columns]
        source, parameters = self.source()
        cursor = self.execute(f"SELECT g.id, {', '.join(selected)}{source} ORDER BY {ORDINAL}", parameters)
        options = list(self.option_columns()) if "options" in names else []
        header = [column[0] for column in cursor.description]
        for rows in iter(lambda: cursor.fetchmany(rows_at_once or ROWS_AT_ONCE), []):
            frame = pandas.DataFrame.from_records(rows, columns=header, coerce_float=True)
            if "started_at" in frame:
                frame["started_at"] = pandas.to_datetime(frame["started_at"], utc=True, format="ISO8601",
                                                         errors="coerce")
            for option in options:
                frame[option] = [_option(text, option) for text in frame["options"]]
            yield frame


def iter_results(path: str | Path, columns: Collection[str] | None = None,
                 rows_at_once: int | None = None) -> Iterator[pandas.DataFrame]:
    """Every game in the store, as :func:`~pacsim.runner.store.load_results`
    gives them (same order, same columns, ``line`` and ``root_seed`` if
    named), ``rows_at_once`` at a time (default :data:`ROWS_AT_ONCE`): for a
    store too big to hold in one frame."""
    with StoreQuery(path) as query:
        yield from query.frames(columns, rows_at_once)


def _frame(cursor: sqlite3.Cursor) -> pandas.DataFrame:
    import pandas

    return pandas.DataFrame.from_records(cursor.fetchall(), columns=[column[0] for column in cursor.description])


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _group_key(key: tuple[Any, ...]) -> tuple[Any, ...]:
    """A key as a dictionary key: SQLite groups 4 and 4.0 together, as pandas does."""
    return tuple(float(value) if isinstance(value, int) else value for value in key)


@functools.lru_cache(maxsize=4096)
def _flat_options(text: str) -> dict[str, Any]:
    """A row's options as load_results' option columns: Pacman's by their current names, the ghosts' as ``ghost_NAME``."""
    options = parse_options(text, "options")
    pacman = {RENAMED_OPTIONS.get(key, key): value for key, value in options["pacman"].items()}
    return {**pacman, **{f"ghost_{RENAMED_OPTIONS.get(key, key)}": value for key, value in options["ghost"].items()}}


def _option(text: str, name: str) -> Any:
    return _flat_options(text).get(name)


def _option_value(text: str, name: str) -> str | None:
    """An option's value as JSON text (SQLite would turn True into 1), None when the game has no such option."""
    value = _option(text, name)
    return None if value is None else json.dumps(value, sort_keys=True)
