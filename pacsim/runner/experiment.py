"""Experiment files: a TOML grid of conditions, checked completely before any game runs.

An experiment is the cartesian product of its ``[grid]`` lists (Pacman agent,
ghost agent, layout, ghost count, and any Pacman option), played ``games``
times per condition.  Game ``i`` of every condition uses the same seed, drawn
from ``numpy.random.SeedSequence(seed)``, so conditions can be compared game
by game (common random numbers).

Every mistake is a one-line :class:`~pacsim.errors.ConfigError` that names the
file and the key.
"""

from __future__ import annotations

import dataclasses
import hashlib
import heapq
import itertools
import json
import math
import re
import tomllib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar, overload

from pacsim.agents import plugins
from pacsim.agents.registry import (
    GHOST,
    PACMAN,
    RENAMED_OPTIONS,
    join_spec,
    make_ghost,
    make_pacman,
    option_names,
    parse_spec,
    resolve,
)
from pacsim.agents.sandbox import Limits, check_in_sandbox, needs_sandbox
from pacsim.engine import DEFAULT_MAX_MOVES, MAX_MOVES_LIMIT, Layout, find_layout, parse_layout
from pacsim.engine.generate import GENERATOR_VERSION, generate_layout, is_generated, maze_count, maze_names, parse_maze_specs
from pacsim.engine.layout import layouts_directory
from pacsim.engine.starts import DECISIONS, DEFAULT_START_DISTANCE, EXPERIMENT_STARTS, LAYOUT, start_cells
from pacsim.errors import AgentError, ConfigError, PacsimError, did_you_mean, nearest
from pacsim.files import FileRefused, read_bounded
from pacsim.runner.openings import OpeningBook, check_book, read_book

if TYPE_CHECKING:
    import pandas

TOP_LEVEL_KEYS = ("name", "games", "seed", "max_moves", "time_limit", "starts", "start_distance", "book", "store",
                  "sandbox", "grid", "pacman_options", "ghost_options")
REQUIRED_GRID_KEYS = ("pacman", "ghosts", "layout")
AGENT_KEYS = ("pacman", "ghosts", "layout", "num_ghosts")
"""Grid keys that are not Pacman options."""

MAX_EXPERIMENT_BYTES = 1 << 20
"""Largest experiment file read."""
MAX_GAMES = 100_000
"""Most games per condition (seeds for them all are drawn before the first game)."""
MAX_TOTAL_GAMES = 1_000_000
"""Most games in one experiment (conditions times games); split a larger one."""
MAX_TIME_LIMIT = 3600.0
"""Largest per-move time limit, in seconds."""

Scalar = str | int | float | bool
T = TypeVar("T")


@dataclass(frozen=True)
class Condition:
    """One cell of the grid: everything a worker needs to play its games.

    Small and picklable: the layout travels as text, so a worker needs no
    access to the coordinator's files."""

    key: str
    """Canonical JSON of the condition: with the config hash, it identifies its games in the store."""
    label: str
    """Readable name, e.g. ``expectimax/adversarial/tinyGhostMaze/depth=4`` (what ``--compare`` takes)."""
    pacman: str
    ghosts: str
    layout: str
    file_text: str
    """The text of a layout read from a file; empty for a generated maze, which
    is built from its name when needed (a million of them are never held at once)."""
    num_ghosts: int
    pacman_options: dict[str, Scalar] = field(hash=False)
    ghost_options: dict[str, Scalar] = field(hash=False)
    depth: int | None = None
    """The Pacman's search depth (its option, or the agent's default); None for non-search agents."""

    @property
    def layout_text(self) -> str:
        """The layout's text (a generated maze's is built again on each call)."""
        if is_generated(self.layout):
            return generate_layout(parse_maze_specs(self.layout)[0])
        return self.file_text

    def pacman_spec(self) -> str:
        """The Pacman as one spec string, e.g. ``expectimax:depth=4,eval=careful``."""
        return join_spec(self.pacman, self.pacman_options)

    @property
    def code(self) -> dict[str, str]:
        """The plugin code its agents run: label -> identity (empty for built-in agents)."""
        return dict(json.loads(self.key).get("code", {}))

    @property
    def files(self) -> dict[str, str]:
        """The data files it reads (a layout file, a probcut model): label -> content hash."""
        return dict(json.loads(self.key).get("files", {}))

@dataclass
class Experiment:
    """A validated experiment file (with command-line overrides applied)."""

    name: str
    games: int
    seed: int
    max_moves: int
    time_limit: float
    """Per-move seconds; 0 means no limit."""
    store: Path
    conditions: ConditionGrid
    """The grid's conditions, each made when asked for."""
    config: dict[str, Any]
    """The normalised configuration (what the hash covers, plus ``games``); a
    generated seed range stays one entry of ``grid.layout`` here, and the hash
    covers the name of each of its mazes."""
    source: str = "<experiment>"
    notes: list[str] = field(default_factory=list)
    """One line for each layout name a local file took over from a shipped layout."""
    starts: str = LAYOUT
    """Pacman's start: ``layout`` (its ``P``), ``random`` (drawn per game from the seed)
    or ``decisions`` (the opening book's cells in turn)."""
    start_distance: int = DEFAULT_START_DISTANCE
    """With random starts, the fewest maze steps between Pacman's start and every ghost."""
    book: OpeningBook | None = None
    """With ``decisions`` starts, the opening book the starts are taken from."""
    sandbox: Limits | None = None
    """The limits every plugin agent plays under, each in its own sandboxed
    process (:mod:`pacsim.agents.sandbox`); None: plugins play in the worker."""

    def book_cells(self) -> tuple[int, ...]:
        """The opening book's start cells (none without ``decisions`` starts)."""
        return self.book.cells if self.book is not None and self.starts == DECISIONS else ()
    digest: str = ""
    """The config hash, found once (a million mazes are hashed by name); empty: from ``config``."""

    @property
    def config_hash(self) -> str:
        return self.digest or config_hash(self.config)

    def seeds(self) -> list[int]:
        return game_seeds(self.seed, self.games)

    def own_games(self, results: pandas.DataFrame) -> pandas.DataFrame:
        """The rows of ``results`` (a loaded store) that are this experiment's
        games: its configuration, its conditions as this code builds them, and
        the games asked for (not those of an earlier, longer run)."""
        keys = [condition.key for condition in self.conditions]
        mine = (results["config_hash"] == self.config_hash) & results["condition_key"].isin(keys)
        return results[mine & (results["game_index"] < self.games)]


def check_time_limit(seconds: float, where: str) -> float:
    """A per-move time limit: 0 (none) or up to :data:`MAX_TIME_LIMIT` seconds.
    NaN, infinities and negatives are a :class:`ConfigError` that starts with ``where``."""
    if not (math.isfinite(seconds) and 0 <= seconds <= MAX_TIME_LIMIT):
        raise ConfigError(f"{where}: must be at least 0 and at most {MAX_TIME_LIMIT:g} seconds a move "
                          f"(0: no limit), not {seconds}")
    return seconds


def game_seeds(root_seed: int, games: int) -> list[int]:
    """The seed of each game index: independent streams from one root seed.

    ``spawn`` children are prefix-stable (child i does not depend on how many
    are spawned), so ``--games`` can extend a run without changing old seeds."""
    from numpy.random import SeedSequence

    return [int(child.generate_state(1)[0]) for child in SeedSequence(root_seed).spawn(games)]


def config_hash(config: dict[str, Any]) -> str:
    """Hash of the normalised config without ``games`` (so ``--games`` extends a run)."""
    hashed = {key: value for key, value in config.items() if key != "games"}
    text = json.dumps(hashed, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


# -- reading --------------------------------------------------------------

def load_experiment(
    path: str | Path,
    games: int | None = None,
    overrides: list[str] | None = None,
    store: str | Path | None = None,
) -> Experiment:
    """Read, override (``--games``, ``--set key=value``, ``--store``) and validate an experiment file."""
    path = Path(path)
    source = str(path)
    raw = read_toml(path)
    for override in overrides or []:
        apply_override(raw, override, source)
    if games is not None:
        raw["games"] = games
    experiment = build_experiment(raw, source, default_name=path.stem)
    if store is not None:
        experiment.store = Path(store)
    return experiment


def read_toml(path: Path) -> dict[str, Any]:
    try:
        text = read_bounded(path, MAX_EXPERIMENT_BYTES).decode("utf-8")
    except FileRefused as error:
        raise ConfigError(f"{path}: {error}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(_toml_error_message(str(path), str(error))) from None


def _toml_error_message(source: str, message: str) -> str:
    """tomllib says ``... (at line 3, column 7)``; make it ``FILE:3:7: ...`` like layout errors."""
    match = re.search(r"\s*\(at line (\d+), column (\d+)\)\s*$", message)
    if match is None:
        return f"{source}: TOML syntax error: {message}"
    return f"{source}:{match.group(1)}:{match.group(2)}: TOML syntax error: {message[:match.start()]}"


def parse_override_value(text: str) -> Any:
    """A ``--set`` value as a TOML value (``500``, ``[1, 2]``, ``"x"``, ``true``), else the plain string."""
    try:
        return tomllib.loads(f"value = {text}")["value"]
    except tomllib.TOMLDecodeError:
        return text


def apply_override(raw: dict[str, Any], override: str, source: str = "<experiment>") -> None:
    """Apply ``key=value`` (dotted keys reach into tables: ``pacman_options.eval=careful``)."""
    key, equals, value = override.partition("=")
    parts = [part.strip() for part in key.split(".")]
    if not equals or not all(parts):
        raise ConfigError(f"--set {override!r}: expected key=value, e.g. max_moves=500 or pacman_options.eval=careful")
    table = raw
    for depth, part in enumerate(parts[:-1]):
        table = table.setdefault(part, {})
        if not isinstance(table, dict):
            raise ConfigError(f"--set {override!r}: {'.'.join(parts[:depth + 1])} is not a table")
    table[parts[-1]] = parse_override_value(value.strip())


# -- validating -----------------------------------------------------------

def build_experiment(raw: dict[str, Any], source: str = "<experiment>", default_name: str = "experiment") -> Experiment:
    """Validate a parsed experiment and expand its grid, building every agent
    and loading every layout once so that nothing fails after games start."""
    checker = _Checker(source)
    unknown = sorted(set(raw) - set(TOP_LEVEL_KEYS))
    if unknown:
        checker.fail(unknown[0], f"unknown key (known: {', '.join(TOP_LEVEL_KEYS)})")
    name = checker.string(raw, "name", default_name)
    games = checker.integer(raw, "games", None, minimum=1, maximum=MAX_GAMES)
    seed = checker.integer(raw, "seed", 0, minimum=0)
    max_moves = checker.integer(raw, "max_moves", DEFAULT_MAX_MOVES, minimum=1, maximum=MAX_MOVES_LIMIT)
    time_limit = check_time_limit(checker.number(raw, "time_limit", 0.0), f"{source}: time_limit")
    store = checker.string(raw, "store", f"results/{name}.sqlite")
    starts = checker.choice(raw, "starts", LAYOUT, EXPERIMENT_STARTS)
    start_distance = checker.integer(raw, "start_distance", DEFAULT_START_DISTANCE, minimum=1)
    pacman_options = checker.options(raw, "pacman_options")
    ghost_options = checker.options(raw, "ghost_options")
    grid = checker.grid(raw, pacman_options)
    count = _count_conditions(checker, grid)  # before any maze is built: a seed range may name billions
    if games * count > MAX_TOTAL_GAMES:
        checker.fail("games", f"{games:,} games x {count:,} conditions is more than {MAX_TOTAL_GAMES:,} games "
                              "in one experiment; split it into several")
    layouts = _GridLayouts([_load_layout(checker, str(value)) for value in grid["layout"]])
    _check_overlaps(checker, layouts)
    sandbox = checker.sandbox(raw)
    conditions = _expand(checker, grid, layouts, pacman_options, ghost_options, sandbox)
    if starts != LAYOUT:
        _check_starts(checker, conditions, start_distance)
    book = _opening_book(checker, raw, conditions) if starts == DECISIONS else None
    config = {
        "name": name, "games": games, "seed": seed, "max_moves": max_moves, "time_limit": time_limit,
        "grid": {key: sorted(values, key=_sort_key) for key, values in grid.items()},
        "pacman_options": pacman_options, "ghost_options": ghost_options,
    }
    if any(entry.seeds is not None for entry in layouts.entries):
        config["generator_version"] = GENERATOR_VERSION  # a new generator never resumes an old run
    if starts != LAYOUT:  # only then: the hashes (and stored games) of fixed-start experiments stay as they were
        config.update(starts=starts, start_distance=start_distance)
    if book is not None:  # the cells themselves: another book is another run
        config.update(book=list(book.cells))
    if sandbox is not None:  # only then, as for starts: other limits can change an entrant's results
        config.update(sandbox=dataclasses.asdict(sandbox))
    return Experiment(name=name, games=games, seed=seed, max_moves=max_moves, time_limit=time_limit,
                      store=Path(store), conditions=conditions, config=config, source=source,
                      notes=[entry.note for entry in layouts.entries if entry.note],
                      starts=starts, start_distance=start_distance, book=book, sandbox=sandbox,
                      digest=_config_digest(config, layouts))


def _opening_book(checker: _Checker, raw: dict[str, Any], conditions: Iterable[Condition]) -> OpeningBook:
    """The ``book`` file (relative to the experiment file), screened on the
    experiment's one maze and ghost count (see :mod:`pacsim.runner.openings`)."""
    if "book" not in raw:
        checker.fail("book", 'starts = "decisions" needs an opening book file (experiments/optimism_pessimism/screen_decisions.py writes one)')
    name = checker.string(raw, "book", "")
    path = Path(checker.source).parent / name if checker.source != "<experiment>" else Path(name)
    book = read_book(path)
    mazes = {(condition.layout, condition.num_ghosts): condition for condition in conditions}
    if len(mazes) != 1:
        checker.fail("book", "an opening book serves one maze and ghost count; this grid has "
                             f"{len(mazes)} (split the experiment)")
    condition = next(iter(mazes.values()))
    check_book(book, parse_layout(condition.layout_text, name=condition.layout), condition.num_ghosts,
               f"{checker.source}: book")
    return book


def _check_starts(checker: _Checker, conditions: ConditionGrid, start_distance: int) -> None:
    """Every layout has a cell to draw a random start from (once a maze and ghost count)."""
    for condition in conditions.mazes():
        layout = parse_layout(condition.layout_text, name=condition.layout)
        if not start_cells(layout, condition.num_ghosts, start_distance):
            checker.fail("start_distance", f"layout {condition.layout!r} has no empty cell {start_distance} or more "
                                           "steps from every ghost to start Pacman on")


class _Checker:
    """Type checks that fail with ``FILE: KEY: what is wrong``."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, key: str, message: str) -> NoReturn:
        raise ConfigError(f"{self.source}: {key}: {message}")

    def string(self, raw: dict, key: str, default: str) -> str:
        value = raw.get(key, default)
        if not isinstance(value, str) or not value:
            self.fail(key, f"must be a non-empty string, not {value!r}")
        return value

    def integer(self, raw: dict, key: str, default: int | None, minimum: int, maximum: int | None = None) -> int:
        if key not in raw and default is None:
            self.fail(key, "missing (required)")
        value = raw.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(key, f"must be an integer, not {value!r}")
        if value < minimum:
            self.fail(key, f"must be at least {minimum}, not {value}")
        if maximum is not None and value > maximum:
            self.fail(key, f"must be at most {maximum:,}, not {value:,}")
        return value

    def choice(self, raw: dict, key: str, default: str, choices: tuple[str, ...]) -> str:
        value = raw.get(key, default)
        if value not in choices:
            self.fail(key, f"must be one of {', '.join(map(repr, choices))}, not {value!r}")
        return value

    def number(self, raw: dict, key: str, default: float) -> float:
        value = raw.get(key, default)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.fail(key, f"must be a number, not {value!r}")
        return float(value)

    def sandbox(self, raw: dict) -> Limits | None:
        """``sandbox = true`` (the default limits), ``false``, or a table of
        :class:`~pacsim.agents.sandbox.Limits` fields to change."""
        value = raw.get("sandbox", False)
        if isinstance(value, bool):
            return Limits() if value else None
        if not isinstance(value, dict):
            self.fail("sandbox", f"must be true, false or a table of limits, not {value!r}")
        known = [item.name for item in dataclasses.fields(Limits)]
        for key, given in value.items():
            if key not in known:
                self.fail(f"sandbox.{key}", f"unknown limit (known: {', '.join(known)})")
            if isinstance(given, bool) or not isinstance(given, (int, float, str)):
                self.fail(f"sandbox.{key}", f"must be a number (isolation: a name), not {given!r}")
        try:
            return Limits(**value)
        except ConfigError as error:
            self.fail("sandbox", str(error))

    def options(self, raw: dict, key: str) -> dict[str, Scalar]:
        table = raw.get(key, {})
        if not isinstance(table, dict):
            self.fail(key, "must be a table of option = value")
        for option, value in table.items():
            if not isinstance(value, (str, int, float, bool)):
                self.fail(f"{key}.{option}", f"must be a string or a number, not {value!r}")
        return dict(table)

    def grid(self, raw: dict, pacman_options: dict[str, Scalar]) -> dict[str, list[Scalar]]:
        table = raw.get("grid")
        if not isinstance(table, dict):
            self.fail("grid", "missing: a [grid] table with pacman, ghosts and layout lists")
        grid: dict[str, list[Scalar]] = {}
        for key in REQUIRED_GRID_KEYS:
            if key not in table:
                typo = nearest(key, [other for other in table if other not in AGENT_KEYS])
                self.fail(f"grid.{key}", "missing (required)" + (f"; is grid.{typo} a typo of it?" if typo else ""))
        for key, values in table.items():
            if not isinstance(values, list):
                values = [values]  # a single value is a one-element list
            if not values:
                self.fail(f"grid.{key}", "empty list")
            for value in values:
                self._check_grid_value(key, value)
            if len({_sort_key(value) for value in values}) != len(values):
                self.fail(f"grid.{key}", "a value appears twice")
            if key in pacman_options:
                self.fail(f"grid.{key}", "also set in [pacman_options]; set it in one place")
            grid[key] = values
        return grid

    def _check_grid_value(self, key: str, value: Any) -> None:
        if key in ("pacman", "ghosts", "layout"):
            if not isinstance(value, str) or not value:
                self.fail(f"grid.{key}", f"values must be non-empty strings, not {value!r}")
        elif key == "num_ghosts":
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                self.fail("grid.num_ghosts", f"values must be integers >= 0, not {value!r}")
        elif not isinstance(value, (str, int, float, bool)):
            self.fail(f"grid.{key}", f"values must be strings or numbers, not {value!r}")


@dataclass(frozen=True)
class _GridLayout:
    """What the grid needs of one of its ``layout`` values: a layout, or a
    generated spec's mazes (their texts are not kept)."""

    name: str
    """The layout's name; a generated spec's maze names but for the seed (:func:`maze_names`)."""
    num_ghosts: int
    file_text: str
    """The text of a layout file; empty for generated mazes."""
    files: dict[str, str]
    """Its file's content hash, as :func:`_layout_file` gives it."""
    note: str | None = None
    """One line when a local file took over from a shipped layout of the same name."""
    seeds: range | None = None
    """A generated spec's seeds (maze ``name + str(seed)`` for each); None for a layout."""

    def __len__(self) -> int:
        return 1 if self.seeds is None else len(self.seeds)

    def name_at(self, index: int) -> str:
        return self.name if self.seeds is None else self.name + str(self.seeds[index])

    def sorted_names(self) -> Iterator[str]:
        """Its maze names in the order of :func:`_sort_key` (for the config hash)."""
        if self.seeds is None:
            return iter([self.name])
        return (self.name + str(seed) for seed in _decimal_order(self.seeds))


def _decimal_order(seeds: range) -> Iterator[int]:
    """A step-1 range of integers >= 0 in the order of their decimal text
    (0, 1, 10, 100, 11, ..., 2, 20, ...) without listing them: the order the
    names ending in them sort in.  A walk of the tree of digit prefixes in
    pre-order, skipping the subtrees that hold no seed."""
    low, high = seeds.start, seeds.stop - 1

    def reaches(prefix: int) -> bool:  # some seed's digits start with the prefix's
        width = 1
        while prefix * width <= high:
            if (prefix + 1) * width - 1 >= low:
                return True
            width *= 10
        return False

    if low == 0:
        yield 0
    current = 1
    while True:
        if current <= high and (current >= low or reaches(current)):
            if current >= low:
                yield current
            if current * 10 <= high:
                current *= 10  # its first child
                continue
        while current % 10 == 9 or current + 1 > high:  # no next sibling: up
            current //= 10
            if current == 0:
                return
        current += 1


class _GridLayouts(Sequence[tuple[str, _GridLayout]]):
    """The grid's layouts, each generated maze a layout of its own: (name, what the grid needs of it)."""

    def __init__(self, entries: list[_GridLayout]) -> None:
        self.entries = entries

    def __len__(self) -> int:
        return sum(len(entry) for entry in self.entries)

    @overload
    def __getitem__(self, index: int) -> tuple[str, _GridLayout]: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[tuple[str, _GridLayout]]: ...

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return [self[position] for position in range(len(self))[index]]
        position = range(len(self))[index]  # IndexError as a list's
        for entry in self.entries:
            if position < len(entry):
                return entry.name_at(position), entry
            position -= len(entry)
        raise AssertionError("unreachable")

    def __iter__(self) -> Iterator[tuple[str, _GridLayout]]:
        for entry in self.entries:
            for position in range(len(entry)):
                yield entry.name_at(position), entry


@dataclass(frozen=True)
class _Agents:
    """What a condition needs of its built agents."""

    code: dict[str, str]
    files: dict[str, str]
    depth: int | None


def _expand(checker: _Checker, grid: dict[str, list[Any]], layouts: _GridLayouts, pacman_options: dict,
            ghost_options: dict, sandbox: Limits | None = None) -> ConditionGrid:
    """The grid's conditions, checked: every agent built once (a plugin in
    its sandbox when ``sandbox`` is set), every layout's ghosts counted once
    (a generated spec's mazes have the same count)."""
    # list[Any]: the grid's values were checked (_check_grid_value): names are strings, ghost counts integers.
    _check_agent_names(checker, grid, sandbox)
    option_keys = [key for key in grid if key not in AGENT_KEYS]
    declared = _declared_options(checker, grid["pacman"], option_keys, pacman_options, sandbox)
    conditions = ConditionGrid(grid, layouts, pacman_options, ghost_options, declared)
    for entry in layouts.entries:
        for num_ghosts in grid.get("num_ghosts", []):
            if num_ghosts > entry.num_ghosts:
                checker.fail("grid.num_ghosts", f"layout {entry.name_at(0)!r} has only {entry.num_ghosts} ghosts, "
                                                f"not {num_ghosts}")
    for pacman in grid["pacman"]:
        for ghosts, *option_values in itertools.product(grid["ghosts"], *conditions.option_axes(pacman)):
            varied, own_options = conditions.options_of(pacman, option_values)
            pacman_spec, options = _true_model(pacman, {**own_options, **varied}, ghosts, ghost_options, checker)
            agents_key = (pacman_spec, _sort_key(options), ghosts)
            if agents_key not in conditions.agents:
                conditions.agents[agents_key] = _build_agents(checker, pacman_spec, options, varied, ghosts,
                                                              ghost_options, sandbox)
    return conditions


_UNSET = object()
"""An option a Pacman of the grid does not declare: left out of its conditions."""


class ConditionGrid(Sequence[Condition]):
    """The conditions of a checked grid in grid order, each made when asked
    for: a million generated mazes cost no memory until their games are
    planned, one at a time.  An option applies to the Pacmen that declare it
    (``declared``): the others play one condition, not one per value."""

    def __init__(self, grid: dict[str, list[Any]], layouts: _GridLayouts, pacman_options: dict,
                 ghost_options: dict, declared: dict[Any, set[str]]) -> None:
        self.grid = grid
        self.layouts = layouts
        self.pacman_options = pacman_options
        self.ghost_options = ghost_options
        self.declared = declared
        self.option_keys = [key for key in grid if key not in AGENT_KEYS]
        self.agents: dict[tuple[str, str, str], _Agents] = {}
        """What each agent combination needs, filled by :func:`_expand` (agents are the same on every maze)."""

    def option_axes(self, pacman: Any) -> list[Sequence[Any]]:
        """The grid's option values for ``pacman``: one :data:`_UNSET` for an option it does not declare."""
        return [self.grid[key] if key in self.declared[pacman] else [_UNSET] for key in self.option_keys]

    def options_of(self, pacman: Any, option_values: Sequence[Any]) -> tuple[dict, dict]:
        """The varied options and the [pacman_options] that apply to ``pacman``."""
        varied = {key: value for key, value in zip(self.option_keys, option_values) if value is not _UNSET}
        own = {key: value for key, value in self.pacman_options.items() if key in self.declared[pacman]}
        return varied, own

    def _axes(self, pacman: Any) -> list[Sequence[Any]]:
        return [self.grid["ghosts"], self.layouts, self.grid.get("num_ghosts", [None]), *self.option_axes(pacman)]

    def _block(self, pacman: Any) -> int:
        return math.prod(len(axis) for axis in self._axes(pacman))

    def __len__(self) -> int:
        return sum(self._block(pacman) for pacman in self.grid["pacman"])

    @overload
    def __getitem__(self, index: int) -> Condition: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Condition]: ...

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return [self[position] for position in range(len(self))[index]]
        position = range(len(self))[index]  # IndexError as a list's
        for pacman in self.grid["pacman"]:  # a block of conditions a Pacman, in grid order
            if position >= self._block(pacman):
                position -= self._block(pacman)
                continue
            values = []
            for axis in reversed(self._axes(pacman)):  # itertools.product's order: the last axis varies fastest
                position, offset = divmod(position, len(axis))
                values.append(axis[offset])
            return self._condition(pacman, *reversed(values))
        raise IndexError(index)

    def __iter__(self) -> Iterator[Condition]:
        # itertools.product would hold the layouts (a million generated mazes) in a tuple: they are walked instead.
        for pacman in self.grid["pacman"]:
            rest = list(itertools.product(self.grid.get("num_ghosts", [None]), *self.option_axes(pacman)))
            for ghosts in self.grid["ghosts"]:
                for layout in self.layouts:
                    for values in rest:
                        yield self._condition(pacman, ghosts, layout, *values)

    def samples(self) -> Iterator[Condition]:
        """One condition for each agent combination and ``layout`` value (a
        generated spec's first maze stands for all of its mazes)."""
        entries = [(entry.name_at(0), entry) for entry in self.layouts.entries]
        for pacman in self.grid["pacman"]:
            for values in itertools.product(self.grid["ghosts"], entries, self.grid.get("num_ghosts", [None]),
                                            *self.option_axes(pacman)):
                yield self._condition(pacman, *values)

    def mazes(self) -> Iterator[Condition]:
        """One condition for each layout (each generated maze) and ghost count."""
        pacman = self.grid["pacman"][0]
        for layout in self.layouts:
            for num_ghosts in self.grid.get("num_ghosts", [None]):
                yield self._condition(pacman, self.grid["ghosts"][0], layout, num_ghosts,
                                      *(axis[0] for axis in self.option_axes(pacman)))

    def _condition(self, pacman: str, ghosts: str, named_layout: tuple[str, _GridLayout], num_ghosts: int | None,
                   *option_values: Any) -> Condition:
        layout_name, layout = named_layout
        varied, own_options = self.options_of(pacman, option_values)
        pacman_spec, options = _true_model(pacman, {**own_options, **varied}, ghosts, self.ghost_options,
                                           _Checker("<grid>"))  # checked by _expand: it cannot fail here
        agents = self.agents[(pacman_spec, _sort_key(options), ghosts)]
        files = {**layout.files, **agents.files}
        label = _label(pacman, ghosts, layout_name, num_ghosts, varied)
        if num_ghosts is None:
            num_ghosts = layout.num_ghosts
        # Games of edited plugin code or data are another condition: reports must not pool them.
        if agents.code:
            label += f"/code={_code_tag(agents.code)}"
        if files:
            label += f"/files={_code_tag(files)}"
        return _condition(pacman_spec, ghosts, layout_name, layout, num_ghosts, options, self.ghost_options, label,
                          agents, files)


def _declared_options(checker: _Checker, pacmen: list[Any], option_keys: list[str],
                      pacman_options: dict, sandbox: Limits | None = None) -> dict[Any, set[str]]:
    """Each Pacman spec's options (:func:`~pacsim.agents.registry.option_names`;
    a sandboxed plugin's as its sandbox tells them); an option of the grid or
    of [pacman_options] that none of them declares is an error naming the key
    and the nearest option they have."""
    declared = {pacman: _option_names(checker, str(pacman), sandbox) for pacman in pacmen}
    known = set().union(*declared.values())
    for key, where in [*((key, f"grid.{key}") for key in option_keys),
                       *((key, f"pacman_options.{key}") for key in pacman_options)]:
        if key not in known:
            checker.fail(where, f"no Pacman of the grid takes option {key!r} "
                                f"(their options: {', '.join(sorted(known - set(RENAMED_OPTIONS))) or 'none'})"
                                f"{did_you_mean(key, [*known, *AGENT_KEYS])}")
    return declared


def _option_names(checker: _Checker, pacman: str, sandbox: Limits | None) -> set[str]:
    if sandbox is None or not needs_sandbox(pacman):
        return option_names(resolve(PACMAN, pacman))
    try:
        return set(check_in_sandbox(PACMAN, pacman, {}, sandbox).options)
    except AgentError as error:
        checker.fail("grid.pacman", str(error))


TRUE_MODEL = "true"
"""``model = "true"``: an expectimax Pacman models the ghosts by the
condition's own ghost spec (the Pacman that knows its opponent)."""


def _true_model(pacman: str, options: dict, ghosts: str, ghost_options: dict,
                checker: _Checker) -> tuple[str, dict]:
    """The Pacman spec and options with ``model=true`` (in either) replaced
    by the condition's ghost spec."""
    in_spec = parse_spec(pacman).options.get("model") == TRUE_MODEL
    if not in_spec and options.get("model") != TRUE_MODEL:
        return pacman, options
    ghost = join_spec(ghosts, ghost_options)
    if "," in ghost:  # Pacman options are split on commas: a ghost spec with several options cannot be one
        checker.fail("model", f"model={TRUE_MODEL} takes a ghost with at most one option, not {ghost!r}")
    if in_spec:
        return pacman.replace(f"model={TRUE_MODEL}", f"model={ghost}"), options
    return pacman, {**options, "model": ghost}


def _build_agents(checker: _Checker, pacman: str, options: dict, varied: dict, ghosts: str,
                  ghost_options: dict, sandbox: Limits | None = None) -> _Agents:
    if sandbox is not None and (needs_sandbox(pacman) or needs_sandbox(ghosts)):
        return _checked_in_sandbox(checker, pacman, options, varied, ghosts, ghost_options, sandbox)
    with plugins.recording() as used:  # the plugin code and data files these agents read are part of the condition
        agent = _build_pacman(checker, pacman, options, varied)
        _build_ghost(checker, ghosts, ghost_options)
    depth = getattr(agent, "depth", None)
    return _Agents(code={item.label: item.identity for item in used if item.kind == plugins.CODE},
                   files={item.label: item.identity for item in used if item.kind == plugins.DATA},
                   depth=depth if isinstance(depth, int) else None)


def _checked_in_sandbox(checker: _Checker, pacman: str, options: dict, varied: dict, ghosts: str,
                        ghost_options: dict, sandbox: Limits) -> _Agents:
    """:func:`_build_agents` for a sandboxed run: each plugin built in its
    sandbox (never imported here), a built-in agent here as ever."""
    code: dict[str, str] = {}
    files: dict[str, str] = {}
    depth = None
    for key, role, spec, spec_options in (("grid.pacman", PACMAN, pacman, options),
                                          ("grid.ghosts", GHOST, ghosts, ghost_options)):
        if needs_sandbox(spec):
            try:
                checked = check_in_sandbox(role, spec, spec_options, sandbox)
            except AgentError as error:
                checker.fail(key, str(error))
            code.update(checked.code)
            files.update(checked.files)
            depth = checked.depth if role == PACMAN else depth
        elif role == PACMAN:
            built = getattr(_build_pacman(checker, spec, spec_options, varied), "depth", None)
            depth = built if isinstance(built, int) else None
        else:
            _build_ghost(checker, spec, spec_options)
    return _Agents(code=code, files=files, depth=depth)


def _condition(pacman, ghosts, layout_name, layout: _GridLayout, num_ghosts, options, ghost_options, label,
               agents: _Agents, files: dict[str, str]) -> Condition:
    identity = {"pacman": pacman, "pacman_options": options, "ghosts": ghosts, "ghost_options": ghost_options,
                "layout": layout_name, "num_ghosts": num_ghosts}
    # Only plugins and user files add these, so keys of other conditions (and their stored games) stay as they were.
    if agents.code:
        identity["code"] = agents.code
    if files:
        identity["files"] = files
    key = json.dumps(identity, sort_keys=True, separators=(",", ":"))
    return Condition(key=key, label=label, pacman=pacman, ghosts=ghosts, layout=layout_name,
                     file_text=layout.file_text, num_ghosts=num_ghosts, pacman_options=dict(options),
                     ghost_options=dict(ghost_options), depth=agents.depth)


def _count_conditions(checker: _Checker, grid: dict[str, list[Scalar]]) -> int:
    """The grid's size, each generated spec counted as its number of mazes."""
    count = 1
    for key, values in grid.items():
        count *= sum(_maze_count(checker, str(value)) for value in values) if key == "layout" else len(values)
    return count


def _maze_count(checker: _Checker, name: str) -> int:
    if not is_generated(name):
        return 1
    try:
        return maze_count(name)
    except PacsimError as error:
        checker.fail("grid.layout", str(error))


def _load_layout(checker: _Checker, name: str) -> _GridLayout:
    """What the grid needs of a layout value, the name resolved as ``play``
    resolves it (:func:`~pacsim.engine.find_layout`): a file is read; of a
    generated spec's mazes only the first is built (a spec no maze can
    satisfy fails here, naming the key; the others when their games are planned)."""
    try:
        if is_generated(name):
            prefix, seeds = maze_names(name)
            spec = parse_maze_specs(prefix + str(seeds[0]))[0]
            generate_layout(spec)
            return _GridLayout(name=prefix, num_ghosts=spec.ghosts, file_text="", files={}, seeds=seeds)
        found = find_layout(name)
    except PacsimError as error:
        checker.fail("grid.layout", str(error))
    layout = found.layout
    return _GridLayout(name=name, num_ghosts=layout.num_ghosts, file_text=layout.text,
                       files=_layout_file(name, layout), note=found.note)


def _check_overlaps(checker: _Checker, layouts: _GridLayouts) -> None:
    """No generated maze twice: seed ranges of the same spec do not overlap."""
    ranges = sorted((entry.name, entry.seeds.start, entry.seeds.stop) for entry in layouts.entries if entry.seeds)
    for (name, _, stop), (next_name, next_start, _) in itertools.pairwise(ranges):
        if name == next_name and next_start < stop:
            checker.fail("grid.layout", "a generated maze appears twice (overlapping seed ranges?)")


def chunks(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """``items`` in lists of ``size`` (the last one shorter), taken as needed."""
    iterator = iter(items)
    while chunk := list(itertools.islice(iterator, size)):
        yield chunk


def _config_digest(config: dict[str, Any], layouts: _GridLayouts) -> str:
    """:func:`config_hash` of the config with ``grid.layout`` the sorted name
    of every maze (what it was before seed ranges stayed one entry, so that
    stores of earlier runs resume), streamed rather than listed."""
    marker = "\x00layouts\x00"
    text = json.dumps({key: value for key, value in config.items() if key != "games"} |
                      {"grid": {**config["grid"], "layout": marker}}, sort_keys=True, separators=(",", ":"))
    before, _, after = text.partition(json.dumps(marker))
    digest = hashlib.sha256(before.encode("utf-8") + b"[")
    streams = [entry.sorted_names() for entry in layouts.entries]
    names = streams[0] if len(streams) == 1 else heapq.merge(*streams, key=json.dumps)  # a name's _sort_key
    for index, chunk in enumerate(chunks(names, 10_000)):
        digest.update((("," if index else "") + json.dumps(chunk, separators=(",", ":"))[1:-1]).encode("utf-8"))
    digest.update(b"]" + after.encode("utf-8"))
    return digest.hexdigest()[:16]


def _layout_file(name: str, layout: Layout) -> dict[str, str]:
    """``{"layout NAME": content hash}`` for a layout read from the user's
    file; empty for a shipped one (pacsim's version identifies it)."""
    if Path(layout.source).resolve().parent == layouts_directory().resolve():
        return {}
    return {f"layout {name}": "sha256:" + hashlib.sha256(layout.text.encode("utf-8")).hexdigest()[:16]}


def _check_agent_names(checker: _Checker, grid: dict[str, list[Any]], sandbox: Limits | None = None) -> None:
    """Every agent spec names an agent (importing its plugin code if it has
    some; a sandboxed run's plugins are checked in their sandboxes instead)."""
    for key, role in (("pacman", PACMAN), ("ghosts", GHOST)):
        for spec in grid[key]:
            if sandbox is not None and needs_sandbox(str(spec)):
                continue
            try:
                resolve(role, str(spec))
            except AgentError as error:
                checker.fail(f"grid.{key}", str(error))


def _build_pacman(checker: _Checker, spec: str, options: dict, varied: dict):
    try:
        return make_pacman(spec, options)
    except AgentError as error:
        if error.option in options:  # name the key that caused it
            checker.fail(f"grid.{error.option}" if error.option in varied else f"pacman_options.{error.option}",
                         str(error))
        checker.fail("grid.pacman", f"{join_spec(spec, options)}: {error}")


def _build_ghost(checker: _Checker, spec: str, options: dict) -> None:
    try:
        make_ghost(spec, options)
    except AgentError as error:
        if error.option in options:
            checker.fail(f"ghost_options.{error.option}", str(error))
        checker.fail("grid.ghosts", f"{spec}: {error}")


def _label(pacman: str, ghosts: str, layout: str, num_ghosts: int | None, varied: dict) -> str:
    """Readable and shell-friendly: the agent names, the layout, then each grid option."""
    parts = [_agent_label(pacman), _agent_label(ghosts), layout]
    if num_ghosts is not None:
        parts.append(f"k{num_ghosts}")
    parts += [f"{key}={value}" for key, value in varied.items()]
    return "/".join(parts)


def _agent_label(spec: str) -> str:
    """A spec as a label names it: a plugin file by its stem (``cautious:Cautious``),
    not by the absolute path the experiment's folder made of it."""
    parsed = parse_spec(spec)
    if parsed.attribute is None or not plugins.is_file_target(parsed.target):
        return spec
    return Path(parsed.target).stem + spec[spec.index(parsed.target) + len(parsed.target):]


def _sort_key(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


# -- plugin code and data files -------------------------------------------

def plugin_notes(experiment: Experiment, stored: Callable[[], set[tuple[str, int]]]) -> list[str]:
    """What ``pacsim run`` says about plugin code and data files: each module
    it imported, and each file whose content differs from the one the games
    in the store (``stored()``: their condition keys and game indexes, asked
    only of a grid with such files) read (those games are played again: the
    content is part of the condition)."""
    used = {label: identity for condition in experiment.conditions.samples() for label, identity in condition.code.items()}
    notes = [f"plugin code: {label} code={code_id(identity)} ({identity})" for label, identity in used.items()]
    for change, games in identity_changes(experiment, stored).items():
        notes.append(f"{change}: {games} games to play")
    return notes


def identity_changes(experiment: Experiment, stored_games: Callable[[], set[tuple[str, int]]]) -> dict[str, int]:
    """What changed -> games to play, for each plugin or data file whose
    content differs from the one stored games of the same condition (same
    config, same condition but for the files) ran with.

    Stored games from before data files were recorded (no ``files`` in their
    key) are another condition too: their content is unknown, so they are
    said to predate the check rather than silently kept or silently replaced."""
    if not any(condition.code or condition.files for condition in experiment.conditions.samples()):
        return {}  # nothing to compare (a grid of a million shipped or generated mazes is not walked)
    stored = stored_games()
    stored_versions: dict[str, list[dict[str, dict[str, str]]]] = {}
    for key in {key for key, _ in stored}:
        base, versions = _split_identity(key)
        stored_versions.setdefault(base, []).append(versions)
    changes: dict[str, int] = {}
    for condition in experiment.conditions:
        base, versions = _split_identity(condition.key)
        to_play = sum((condition.key, index) not in stored for index in range(experiment.games))
        if not to_play:
            continue
        for change in _changes(versions, stored_versions.get(base, [])):
            changes[change] = changes.get(change, 0) + to_play
    return changes


def _split_identity(key: str) -> tuple[str, dict[str, dict[str, str]]]:
    """A condition key without its file identities, and those identities by kind."""
    identity = json.loads(key)
    versions = {"code": identity.pop("code", {}), "files": identity.pop("files", {})}
    return json.dumps(identity, sort_keys=True), versions


def _changes(versions: dict[str, dict[str, str]], earlier: list[dict[str, dict[str, str]]]) -> list[str]:
    changes = []
    for old in earlier:
        for label, digest in versions["code"].items():
            if old["code"].get(label, digest) != digest:
                changes.append(f"code of {label} changed")
        for label, digest in versions["files"].items():
            if not old["files"]:
                changes.append(f"{label}: the stored games do not record its content (stored before pacsim checked it)")
            elif old["files"].get(label, digest) != digest:
                changes.append(f"{label} changed")
    return sorted(set(changes))


def _code_tag(code: dict[str, str]) -> str:
    """The condition label's name for one version of its plugin code: each
    plugin's :func:`code_id`, joined by ``+``, the ids ``run`` prints."""
    return "+".join(code_id(identity) for _, identity in sorted(code.items()))


def code_id(identity: str) -> str:
    """Eight hex digits naming one version of a plugin: the start of its file's
    sha256 (what ``plugin code:`` shows in full), or of its identity's hash
    when it has no file."""
    digest = identity.partition("sha256:")[2]
    return digest[:8] if len(digest) >= 8 else hashlib.sha256(identity.encode("utf-8")).hexdigest()[:8]

