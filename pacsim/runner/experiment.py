"""Experiment files: a TOML grid of conditions, checked completely before any game runs.

An experiment is the cartesian product of its ``[grid]`` lists (Pacman agent,
ghost agent, layout, ghost count, and any Pacman option), played ``games``
times per condition.  Game ``i`` of every condition uses the same seed, drawn
from ``numpy.random.SeedSequence(seed)``, so conditions can be compared game
by game (common random numbers).

Every mistake is a one-line :class:`~pacsim.errors.ConfigError` that names the
file and the key.

This module is the entry (:func:`load_experiment`, :func:`build_experiment`)
and the :class:`Experiment`; the file's text and type checks are in
:mod:`pacsim.runner.experiment_file`, the grid's conditions in
:mod:`pacsim.runner.plan`, and whether stored games still match the code in
:mod:`pacsim.runner.compatibility`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import heapq
import itertools
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from pacsim.engine import DEFAULT_MAX_MOVES, MAX_MOVES_LIMIT, parse_layout
from pacsim.engine.generate import GENERATOR_VERSION
from pacsim.engine.starts import DECISIONS, DEFAULT_START_DISTANCE, EXPERIMENT_STARTS, LAYOUT, start_cells
from pacsim.engine.streams import PUBLIC_STREAMS, Streams
from pacsim.runner.agent_factory import startup_limit
from pacsim.runner.bounds import MAX_GAMES, MAX_TOTAL_GAMES, check_time_limit
from pacsim.runner.experiment_file import TOP_LEVEL_KEYS, Checker, apply_override, read_toml, sort_key
from pacsim.runner.openings import OpeningBook, check_book, read_book
from pacsim.runner.plan import (
    Condition,
    ConditionGrid,
    GridLayouts,
    count_conditions,
    expand,
    load_layouts,
)
from pacsim.sandbox.limits import Limits

if TYPE_CHECKING:
    import pandas


T = TypeVar("T")


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
    process (:mod:`pacsim.sandbox`); None: plugins play in the worker."""
    streams: Streams = PUBLIC_STREAMS
    """How the agents' random streams are seeded: not part of the config (a
    tournament's secret key must never be stored with it, nor shown)."""

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
        apply_override(raw, override)
    if games is not None:
        raw["games"] = games
    experiment = build_experiment(raw, source, default_name=path.stem)
    if store is not None:
        experiment.store = Path(store)
    return experiment


def build_experiment(raw: dict[str, Any], source: str = "<experiment>", default_name: str = "experiment") -> Experiment:
    """Validate a parsed experiment and expand its grid, building every agent
    and loading every layout once so that nothing fails after games start."""
    checker = Checker(source)
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
    count = count_conditions(checker, grid)  # before any maze is built: a seed range may name billions
    if games * count > MAX_TOTAL_GAMES:
        checker.fail("games", f"{games:,} games x {count:,} conditions is more than {MAX_TOTAL_GAMES:,} games "
                              "in one experiment; split it into several")
    layouts = load_layouts(checker, grid["layout"])
    sandbox = checker.sandbox(raw)
    conditions = expand(checker, grid, layouts, pacman_options, ghost_options, sandbox,
                        startup_limit(sandbox, time_limit))
    if starts != LAYOUT:
        _check_starts(checker, conditions, start_distance)
    book = _opening_book(checker, raw, conditions) if starts == DECISIONS else None
    config = {
        "name": name, "games": games, "seed": seed, "max_moves": max_moves, "time_limit": time_limit,
        "grid": {key: sorted(values, key=sort_key) for key, values in grid.items()},
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


def _opening_book(checker: Checker, raw: dict[str, Any], conditions: Iterable[Condition]) -> OpeningBook:
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


def _check_starts(checker: Checker, conditions: ConditionGrid, start_distance: int) -> None:
    """Every layout has a cell to draw a random start from (once a maze and ghost count)."""
    for condition in conditions.mazes():
        layout = parse_layout(condition.layout_text, name=condition.layout)
        if not start_cells(layout, condition.num_ghosts, start_distance):
            checker.fail("start_distance", f"layout {condition.layout!r} has no empty cell {start_distance} or more "
                                           "steps from every ghost to start Pacman on")


def chunks(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """``items`` in lists of ``size`` (the last one shorter), taken as needed."""
    iterator = iter(items)
    while chunk := list(itertools.islice(iterator, size)):
        yield chunk


def _config_digest(config: dict[str, Any], layouts: GridLayouts) -> str:
    """:func:`config_hash` of the config with ``grid.layout`` the sorted name
    of every maze (what it was before seed ranges stayed one entry, so that
    stores of earlier runs resume), streamed rather than listed."""
    marker = "\x00layouts\x00"
    text = json.dumps({key: value for key, value in config.items() if key != "games"} |
                      {"grid": {**config["grid"], "layout": marker}}, sort_keys=True, separators=(",", ":"))
    before, _, after = text.partition(json.dumps(marker))
    digest = hashlib.sha256(before.encode("utf-8") + b"[")
    streams = [entry.sorted_names() for entry in layouts.entries]
    names = streams[0] if len(streams) == 1 else heapq.merge(*streams, key=json.dumps)  # a name's sort_key
    for index, chunk in enumerate(chunks(names, 10_000)):
        digest.update((("," if index else "") + json.dumps(chunk, separators=(",", ":"))[1:-1]).encode("utf-8"))
    digest.update(b"]" + after.encode("utf-8"))
    return digest.hexdigest()[:16]
