"""Running an experiment: games fan out to an executor, rows come back to the store.

The coordinator (this process) is the only writer of the store.  Workers get
a small picklable :class:`GameTask` and return a :class:`GameRow`, so any
``concurrent.futures.Executor`` works: a process pool by default, an inline
executor for ``--workers 1``, a Dask ``Client.get_executor()`` later.
Because each game is a pure function of its condition and seed, the rows do
not depend on the executor or the number of workers.  A game whose worker
process dies (its agent called ``os._exit``, say) is stored as a ``crash``
with the worker's exit status; the other games play on.
"""

from __future__ import annotations

import itertools
import json
import os
import signal
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Set
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from pacsim._version import __version__
from pacsim.agents import plugins
from pacsim.agents.ghosts import KernelGhost
from pacsim.agents.notes import notes_said
from pacsim.agents.registry import make_ghost, make_pacman
from pacsim.agents.sandboxed import SandboxedAgent
from pacsim.agents.search_agents import SearchPacman
from pacsim.agents.whole_game import play_in_kernel
from pacsim.engine import ERROR, LOSS, WIN, GameRecord, Layout, parse_layout, play_game
from pacsim.engine.deadline import UserInterrupt
from pacsim.engine.game import Agent, describe_failure
from pacsim.engine.generate import is_generated, parse_maze_specs
from pacsim.engine.layout import WALL
from pacsim.engine.recording import encode_actions
from pacsim.engine.starts import DEFAULT_START_DISTANCE, LAYOUT, game_start, with_pacman_start
from pacsim.engine.stats import MoveStats
from pacsim.engine.streams import PUBLIC_STREAMS, Streams
from pacsim.errors import ConfigError, PacsimError, debug_wanted
from pacsim.fast import MAX_CELLS
from pacsim.provenance import Machine, RunProvenance
from pacsim.runner.agent_factory import StartupOverrun, condition_agents, sandboxed_here, startup_limit
from pacsim.runner.experiment import Experiment, chunks
from pacsim.runner.plan import Condition
from pacsim.runner.pool import WorkerDied, WorkerPool
from pacsim.runner.row import CRASH, MIXED, REPLAYED_OUTCOMES, GameRow
from pacsim.runner.store import ResultStore, storable, utc_now
from pacsim.sandbox.limits import LIMITS, Limits


@dataclass(frozen=True)
class GameTask:
    """One game to play: small and picklable."""

    experiment: str
    config_hash: str
    condition: Condition
    game_index: int
    seed: int
    max_moves: int
    time_limit: float
    """Per-move seconds; 0 means none."""
    starts: str = LAYOUT
    """Pacman's start: the layout's, drawn from the game's seed (``random``) or
    the opening book's cells in turn (``decisions``)."""
    start_distance: int = DEFAULT_START_DISTANCE
    book: tuple[int, ...] = ()
    """With ``decisions`` starts, the opening book's cells for this condition's maze."""
    provenance: RunProvenance = field(default_factory=RunProvenance)
    """The run's commit and numba version, found once by the coordinator."""
    sandbox: Limits | None = None
    """The limits plugin agents play under in their own processes; None: in the worker."""
    streams: Streams = PUBLIC_STREAMS
    """How the agents' random streams are seeded (a tournament's carry its secret key; never in a row)."""


@dataclass
class RunResult:
    """What a run did."""

    store: Path
    config_hash: str
    played: int
    """Games played (and stored) by this run."""
    skipped: int
    """Games already in the store, not replayed."""
    seconds: float
    retried: int = 0
    """Of the games played, how many had ended in ``error`` or ``crash`` in an earlier run."""
    errors: int = 0
    """Of the games played, how many ended in ``error`` this time."""
    first_error: str | None = None
    """The error message of the first of them."""
    crashes: int = 0
    """Of the games played, how many ended in ``crash``: their worker process died."""


class AllGamesFailed(PacsimError):
    """Every game a run played ended in ``error``: almost surely a broken
    agent, evaluation or time limit rather than a result."""


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a run; says how far it got."""

    def __init__(self, store: Path, saved: int, total: int) -> None:
        super().__init__(f"{saved} of {total} games are saved in {store}")
        self.store = store
        self.saved = saved
        """Games of the experiment in the store without an error (this run's and earlier ones')."""
        self.total = total


class InlineExecutor(Executor):
    """Runs each task at submit time in this process (``--workers 1``): one
    code path for serial and parallel runs, and tracebacks stay readable."""

    def submit(self, function: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        future: Future = Future()
        try:
            future.set_result(function(*args, **kwargs))
        except Exception as error:  # delivered through the future, as a pool would; a Ctrl-C is not
            future.set_exception(error)
        return future


# -- the worker side ------------------------------------------------------

LAYOUT_CACHE_BYTES = 512 * 1024 * 1024
"""What a worker's recently used layouts may cost, by the estimate of
:meth:`LayoutCache.cost`.  Measured on a maze of 1,521 cells: 21 MB of
Python distance rows (once every row has been asked for) and 19 MB of kernel
tables (30 MB of resident memory while they are built)."""


class LayoutCache:
    """Parsed layouts by name, text and start, least recently used dropped first
    once their estimated memory passes ``budget``.  A layout's distance rows
    and kernel tables live as long as it does (the kernel's are weakly keyed
    by it), so this bounds them too; conditions on one maze share it."""

    def __init__(self, budget: int = LAYOUT_CACHE_BYTES) -> None:
        self.budget = budget
        self._layouts: OrderedDict[tuple[str, str, int | None], Layout] = OrderedDict()
        self._lock = threading.Lock()  # a Dask worker plays in several threads

    @staticmethod
    def cost(layout: Layout) -> int:
        """Bytes at most: cells**2 8-byte distance slots in Python and 8 bytes
        of int32 kernel tables (distance and nearest order) per cell pair."""
        return 16 * layout.num_cells ** 2

    def get(self, key: tuple[str, str, int | None], build: Callable[[], Layout]) -> Layout:
        """The layout kept under ``key`` (name, text, Pacman's start or None), built if missing."""
        with self._lock:
            layout = self._layouts.get(key)
            if layout is not None:
                self._layouts.move_to_end(key)
                return layout
        layout = build()
        with self._lock:
            self._layouts[key] = layout
            total = sum(self.cost(kept) for kept in self._layouts.values())
            while total > self.budget and len(self._layouts) > 1:
                _, dropped = self._layouts.popitem(last=False)
                total -= self.cost(dropped)
        return layout

    def layout_for(self, condition: Condition, start: int | None = None) -> Layout:
        """The condition's layout, with Pacman moved to ``start`` if given
        (a random start has one layout per open cell)."""
        # A generated maze's name fixes its text: it is built only on a cache miss.
        name, key = condition.layout, condition.file_text
        layout = self.get((name, key, None), lambda: parse_layout(condition.layout_text, name=name, source=name))
        if start is None:
            return layout
        return self.get((name, key, start), lambda: with_pacman_start(layout, start))


PROCESS_LAYOUTS = LayoutCache()
"""The layouts of the recent games of this process.  A worker's games share
it through the default of :func:`play_task`: an executor sends the task
alone, so a cache in it would be a fresh copy for every game."""


def play_task(task: GameTask, layouts: LayoutCache = PROCESS_LAYOUTS) -> GameRow:
    """Play one game and return its store row (runs in a worker)."""
    condition = task.condition
    layout = layouts.layout_for(condition)
    if task.starts != LAYOUT:
        start = game_start(layout, condition.num_ghosts, task.seed, task.game_index, task.start_distance, task.book,
                           task.starts)
        layout = layouts.layout_for(condition, start)
    started_at = utc_now()
    # Agents are built afresh for every game (microseconds): a search agent's
    # transposition table outlives ``reset``, and a game must not depend on
    # which games the same worker happened to play before it.
    try:
        with plugins.recording() as used, notes_said():  # the coordinator said them (backend_notes, loading)
            agents = condition_agents(condition, task.sandbox, startup_limit(task.sandbox, task.time_limit))
    except UserInterrupt:
        raise
    except StartupOverrun as overrun:  # the entrant's result, as the sandbox's start-up limit makes it
        return _startup_fault_row(task, overrun, started_at)
    except BaseException as error:  # a plugin's constructor, say: like any agent failure, it ends only this game
        return failed_row(task, f"building the agents {describe_failure(error)}", started_at)
    changed = _changed_since_planned(condition, used)
    if changed:  # its row would claim the planned content: an error, played again (as the new content) next run
        return failed_row(task, f"{changed} changed during the run", started_at)
    with notes_said():  # by the coordinator, once for the run (backend_notes)
        record = play_in_kernel(layout, agents, task.seed, task.max_moves, task.time_limit or None,
                                task.streams) or play_game(layout, agents, seed=task.seed, max_moves=task.max_moves,
                                                           move_time_limit=task.time_limit or None, streams=task.streams)
    if record.error_traceback and debug_wanted():
        print(f"{condition.label}, game {task.game_index}:\n{record.error_traceback}", end="", file=sys.stderr)
    return game_row(task, record, started_at, start=layout.pacman_start, sandbox=sandbox_level(agents))


def _startup_fault_row(task: GameTask, overrun: StartupOverrun, started_at: str) -> GameRow:
    """A start-up overrun's row: a fault of the agent's side, as a sandboxed entrant's ``startup_timeout`` is."""
    record = GameRecord(layout=task.condition.layout, seed=task.seed, num_ghosts=task.condition.num_ghosts,
                        outcome=LOSS if overrun.agent_index == 0 else WIN,
                        error=f"agent {overrun.agent_index} {overrun}", fault="startup_timeout")
    return game_row(task, record, started_at, start=None)


def sandbox_level(agents: list[Agent]) -> str | None:
    """The isolation a game's sandboxed agents ran under (the weakest, if they differ); None without any."""
    levels = {agent.level for agent in agents if isinstance(agent, SandboxedAgent)}
    return LIMITS if LIMITS in levels else next(iter(levels), None)


def _changed_since_planned(condition: Condition, used: list[plugins.PluginCode]) -> str | None:
    """The first plugin or data file whose content differs from the one the
    condition was planned with, or None."""
    planned = {**condition.code, **condition.files}
    for item in used:
        if planned.get(item.label, item.identity) != item.identity:
            return item.label if item.kind == plugins.DATA else f"code of {item.label}"
    return None


def backend_notes(experiment: Experiment) -> list[str]:
    """What the coordinator says once before the games: each search Pacman
    that will search in Python, and each own ghost that will play there, and why (a run with ``backend=fast`` that the
    kernel cannot serve fails here, before any game)."""
    notes: dict[str, None] = {}
    by_pacman: dict[str, dict[str, Condition]] = {}
    for condition in experiment.conditions.samples():  # one agent per Pacman, one condition per layout value
        by_pacman.setdefault(condition.pacman_spec(), {}).setdefault(condition.layout, condition)
    for mazes in by_pacman.values():
        first = next(iter(mazes.values()))
        if sandboxed_here(first.parsed_pacman, experiment.sandbox):
            continue  # a sandboxed plugin is never built here
        try:
            pacman = make_pacman(first.parsed_pacman, first.pacman_options)
        except PacsimError:
            continue  # its games say why, one by one
        if isinstance(pacman, SearchPacman):
            for note in {pacman.backend_note(_open_cells(condition)) for condition in mazes.values()}:
                if note is not None:
                    notes[note] = None
    for condition in {condition.ghosts: condition for condition in experiment.conditions.samples()}.values():
        note = _ghost_note(experiment, condition)
        if note is not None:
            notes[note] = None
    return list(notes)


def _ghost_note(experiment: Experiment, condition: Condition) -> str | None:
    """The note that a user's own ghost plays in Python (numba cannot compile it), or None."""
    if sandboxed_here(condition.parsed_ghosts, experiment.sandbox):
        return None
    try:
        ghost = make_ghost(condition.parsed_ghosts, condition.ghost_options)
    except PacsimError:
        return None  # its games say why, one by one
    return ghost.backend_note() if isinstance(ghost, KernelGhost) else None


def _open_cells(condition: Condition) -> int:
    """The maze's open cells, parsed only when a count from its text (a
    bound from above) is over the kernel's limit: a seed range names
    thousands of mazes, and building each would take seconds."""
    if is_generated(condition.layout):
        spec = parse_maze_specs(condition.layout)[0]
        bound = (spec.width - 2) * (spec.height - 2)
    else:
        bound = len(condition.file_text) - condition.file_text.count(WALL) - condition.file_text.count("\n")
    return bound if bound <= MAX_CELLS else PROCESS_LAYOUTS.layout_for(condition).num_cells


def failed_row(task: GameTask, message: str, started_at: str | None = None) -> GameRow:
    """The row of a game that ended in ``error`` before its first move."""
    record = GameRecord(layout=task.condition.layout, seed=task.seed, num_ghosts=task.condition.num_ghosts,
                        outcome=ERROR, error=message)
    return game_row(task, record, started_at or utc_now(), start=None)


def crashed_row(task: GameTask, died: WorkerDied) -> GameRow:
    """The row of a game whose worker process died while playing it (what it
    played is lost with the process)."""
    record = GameRecord(layout=task.condition.layout, seed=task.seed, num_ghosts=task.condition.num_ghosts,
                        outcome=CRASH, error=str(died))
    return game_row(task, record, utc_now(), start=None, worker_exit=died.exit_status)


def start_worker() -> None:
    """Set up a worker process of the local pool.

    A Ctrl-C in a terminal reaches every process of the foreground group:
    workers ignore it, so that a ``KeyboardInterrupt`` in a worker can only
    be an agent's (its game ends in ``error``) and the coordinator alone
    decides to stop.  And a worker exits as soon as its parent is gone, even
    after a ``kill -9`` that gave the parent no chance to stop it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = os.getppid()
    threading.Thread(target=_exit_when_orphaned, args=(parent,), name="pacsim-orphan-check", daemon=True).start()


ORPHAN_CHECK_SECONDS = 0.25
"""How often a worker checks that its parent is alive."""


def _exit_when_orphaned(parent: int) -> None:
    while os.getppid() == parent:  # an orphan is adopted by another process
        time.sleep(ORPHAN_CHECK_SECONDS)
    os._exit(1)


def game_row(task: GameTask, record: GameRecord, started_at: str, start: int | None = None,
             worker_exit: int | None = None, sandbox: str | None = None) -> GameRow:
    """The store row of a played (or failed) game."""
    condition = task.condition
    levels = [stats.depth for stats in record.search_stats]
    move_seconds = record.move_seconds
    other_options = {key: value for key, value in condition.pacman_options.items() if key != "depth"}
    machine = Machine.here()
    return GameRow(
        experiment=task.experiment, config_hash=task.config_hash, condition_key=condition.key,
        condition=condition.label, pacman=condition.pacman, ghosts=condition.ghosts, layout=condition.layout,
        num_ghosts=record.num_ghosts, depth=condition.depth,
        options=json.dumps({"pacman": other_options, "ghost": condition.ghost_options}, sort_keys=True),
        game_index=task.game_index, seed=task.seed, outcome=record.outcome, score=record.score, moves=record.moves,
        seconds=record.seconds,
        move_seconds_mean=sum(move_seconds) / len(move_seconds) if move_seconds else None,
        move_seconds_max=max(move_seconds) if move_seconds else None,
        nodes=record.nodes, levels_reached=max(levels) if levels else None, error=record.error,
        pacsim_version=__version__, hostname=machine.hostname, os=machine.os, arch=machine.arch,
        cores=machine.cores, python_version=machine.python_version,
        numba_version=machine.numba_version, git_commit=task.provenance.git_commit,
        searched_by=searched_by(record.search_stats), started_at=started_at,
        actions=encode_actions(record.actions), start=start, worker_exit=worker_exit,
        fault=record.fault, sandbox=sandbox, streams=task.streams.version,
    )


def searched_by(search_stats: list[MoveStats]) -> str | None:
    """``fast`` if the kernel searched every Pacman move that reported a
    search, ``python`` if it searched none, ``mixed`` otherwise (a maze or
    option it declined part way); None when no move reported a search."""
    backends = {stats.backend for stats in search_stats}
    if len(backends) > 1:
        return MIXED
    return backends.pop() if backends else None


# -- the coordinator side -------------------------------------------------

PLAN_BATCH = 1000
"""Conditions planned at a time: their layouts recorded in the store and
their stored games looked up in one query each."""


class Plan:
    """The games of ``experiment`` not yet finished in ``store`` (all of them
    without one), found as they are asked for: game index outermost, so that
    a partial run has about as many games of each condition, and a batch of
    conditions at a time, so that the first game of a million-condition grid
    starts at once and planning holds no list of its games.  A game stored as
    an ``error`` or ``crash`` is planned again (``retried`` counts them).
    ``provenance`` is found when the first game is planned, if not given."""

    def __init__(self, experiment: Experiment, store: ResultStore | None = None,
                 provenance: RunProvenance | None = None) -> None:
        self.experiment = experiment
        self.store = store
        self.provenance = provenance
        self.skipped = 0
        """Games found finished so far."""
        self.retried = 0
        """Games planned again so far (an ``error`` or ``crash`` before)."""
        self.streams = experiment.streams
        """The random streams the planned games are played with (a resumed run's own: :func:`resumed_streams`)."""

    def __iter__(self) -> Iterator[GameTask]:
        experiment, store = self.experiment, self.store
        digest = experiment.config_hash
        resuming = store is not None and store.has_games(digest)
        streams = resumed_streams(experiment, store.stream_versions(digest)) if resuming and store else experiment.streams
        self.streams = streams
        for game_index, seed in enumerate(experiment.seeds()):
            for conditions in chunks(experiment.conditions, PLAN_BATCH):
                stored: dict[str, str] = {}
                if store is not None:
                    if game_index == 0:
                        store.add_conditions(experiment, conditions)
                    if resuming:
                        stored = store.stored_outcomes(digest, game_index, [condition.key for condition in conditions])
                for condition in conditions:
                    outcome = stored.get(condition.key)
                    if outcome is not None and outcome not in REPLAYED_OUTCOMES:
                        self.skipped += 1
                        continue
                    self.retried += outcome is not None
                    self.provenance = self.provenance or RunProvenance.here()  # a git call: only if a game is played
                    yield GameTask(experiment.name, digest, condition, game_index, seed, experiment.max_moves,
                                   experiment.time_limit, experiment.starts, experiment.start_distance,
                                   experiment.book_cells(), self.provenance, experiment.sandbox, streams)


def resumed_streams(experiment: Experiment, stored: Set[int]) -> Streams:
    """The random streams a resumed run plays its remaining games with: those
    its stored games were played with (``stored``, their versions), so that a
    run's games never mix versions.  A keyed (tournament) run refuses to go on
    with version-1 streams, which an entrant can read; a store that mixes
    versions already is refused too."""
    if len(stored) > 1:
        raise ConfigError(f"{experiment.store}: run {experiment.config_hash[:8]} holds games of random stream versions "
                          f"{' and '.join(map(str, sorted(stored)))}: its games cannot be compared; give it a new store")
    version = next(iter(stored), experiment.streams.version)
    if version == experiment.streams.version:
        return experiment.streams
    if experiment.streams.keyed:
        raise ConfigError(f"{experiment.store}: its games were played with version-{version} random streams, which an "
                          "entrant can read from its own generator; a tournament does not go on with them: "
                          "give it a new store (docs/experiments.md)")
    return Streams(version)


def _streams_note(streams: Streams) -> list[str]:
    """What a run resumed with older random streams says (docs/experiments.md, "Random streams")."""
    if streams.version == PUBLIC_STREAMS.version:
        return []
    return [f"pacsim: note: this run's stored games were played with version-{streams.version} random streams (which an "
            "agent can read); it goes on with them, so its games stay comparable: a new store plays the current ones"]


def plan_tasks(experiment: Experiment, provenance: RunProvenance | None = None) -> Iterator[GameTask]:
    """Every game of ``experiment``, as :class:`Plan` finds them without a store."""
    return iter(Plan(experiment, provenance=provenance))


def run_experiment(
    experiment: Experiment,
    executor: Executor | None = None,
    workers: int | None = None,
    store_path: str | Path | None = None,
    quiet: bool = False,
    max_pending: int | None = None,
) -> RunResult:
    """Play every game of ``experiment`` not already in its store and store it.

    Games stored as an ``error`` are played again (their rows replaced):
    an error is a failure to fix, not a result.

    ``executor``: any ``concurrent.futures.Executor`` (not shut down here);
    without one, a :class:`~pacsim.runner.pool.WorkerPool` of ``workers``
    processes (default: all cores), or this process alone when
    ``workers == 1``.  A game whose future fails with
    :class:`~pacsim.runner.pool.WorkerDied` is stored as a ``crash``.  At
    most ``max_pending`` games (default four per worker) are submitted at a
    time.  Ctrl-C raises :class:`RunInterrupted`.
    """
    started = time.perf_counter()
    workers = workers or os.cpu_count() or 1
    path = Path(store_path) if store_path is not None else experiment.store
    digest = experiment.config_hash
    with ResultStore(path) as store:
        store.register(experiment)
        total = experiment.games * len(experiment.conditions)
        plan = Plan(experiment, store)
        tasks = iter(plan)
        first = next(tasks, None)
        tally = _Tally()
        if first is not None:
            for note in [*backend_notes(experiment), *_streams_note(plan.streams)]:
                if not quiet:
                    print(note, file=sys.stderr)
            to_play = max(1, total - store.count_results(digest, games=experiment.games))  # for the progress bar
            try:
                with _interrupts_stop_the_run() as ctrl_c:
                    executors = _Executors(executor, workers)
                    ctrl_c.deferred = isinstance(executors.current, WorkerPool)
                    _play_all(executors, itertools.chain([first], tasks), to_play, store,
                              max_pending or 4 * workers, quiet, tally, ctrl_c)
            except KeyboardInterrupt:
                saved = store.count_results(digest)
                raise RunInterrupted(path, saved, total) from None
    return RunResult(store=path, config_hash=digest, played=tally.played, skipped=plan.skipped,
                     seconds=time.perf_counter() - started, retried=plan.retried, errors=tally.errors,
                     first_error=tally.first_error, crashes=tally.crashes)


@dataclass
class _CtrlC:
    """A run's first Ctrl-C; further ones are ignored while the run stops its workers and closes the store.

    Raised at once as :class:`UserInterrupt` where games are played in this thread (a game passes it on
    instead of blaming its agent).  Where a pool plays them (``deferred``), this thread only waits on the
    pool's futures and locks: an exception raised in it between two of their lock operations leaves a
    lock held and the pool's thread waiting on it for ever (tests/test_runner.py makes one happen; a run
    of the suite once hung so after Ctrl-C).  It is then noted, and raised by :meth:`check`, called at
    least once a second."""

    deferred: bool = False
    pressed: bool = False

    def interrupt(self, signum: int, frame: FrameType | None) -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        if not self.deferred:
            raise UserInterrupt()
        self.pressed = True

    def check(self) -> None:
        if self.pressed:
            raise UserInterrupt()


@contextmanager
def _interrupts_stop_the_run() -> Iterator[_CtrlC]:
    """Ctrl-C during a run (:class:`_CtrlC`): in the main thread only, where Python delivers it."""
    ctrl_c = _CtrlC()
    if threading.current_thread() is not threading.main_thread():
        yield ctrl_c
        return
    previous = signal.signal(signal.SIGINT, ctrl_c.interrupt)
    try:
        yield ctrl_c
    finally:
        signal.signal(signal.SIGINT, previous)
    ctrl_c.check()  # noted after the run's last check: still the command's stop (a comparison's next batch would start)


@dataclass
class _Tally:
    """What the stored rows of a run were."""

    played: int = 0
    errors: int = 0
    first_error: str | None = None
    crashes: int = 0

    def add(self, store: ResultStore, rows: list[GameRow]) -> None:
        rows = [storable(row) for row in rows]  # as stored: a number the store cannot hold is its agent's fault
        self.played += store.add_games(rows)  # one transaction per batch of finished games
        for row in rows:
            if row.outcome == ERROR:
                self.errors += 1
                self.first_error = self.first_error or row.error
            self.crashes += row.outcome == CRASH


class _Executors:
    """The executor of a run: the caller's, or its own, which it stops at the end."""

    def __init__(self, given: Executor | None, workers: int) -> None:
        self.given = given
        self.current = given if given is not None else self._new(workers)

    @staticmethod
    def _new(workers: int) -> Executor:
        if workers == 1:
            return InlineExecutor()
        return WorkerPool(workers, initializer=start_worker)

    def keep_up(self) -> None:
        """Replace a pool's dead workers (in this thread: a pool never starts them in its own)."""
        if isinstance(self.current, WorkerPool):
            self.current.keep_up()

    def close(self, completed: bool) -> None:
        if self.given is not None:
            return
        if not completed and isinstance(self.current, WorkerPool):  # workers play on through a Ctrl-C: stop them
            self.current.terminate()
        self.current.shutdown(wait=True, cancel_futures=True)


KEEP_UP_SECONDS = 1.0
"""How often at most a run replaces its pool's dead workers while no game finishes."""


class _Schedule:
    """The games still to play, and the games in flight."""

    def __init__(self, tasks: Iterator[GameTask], max_pending: int) -> None:
        self.tasks = tasks
        self.pending: dict[Future, GameTask] = {}
        self.max_pending = max_pending

    def submit_more(self, executor: Executor) -> None:
        while len(self.pending) < self.max_pending:
            task = next(self.tasks, None)
            if task is None:
                return
            self.pending[executor.submit(play_task, task)] = task


def _play_all(executors: _Executors, tasks: Iterator[GameTask], to_play: int, store: ResultStore,
              max_pending: int, quiet: bool, tally: _Tally, ctrl_c: _CtrlC) -> None:
    from pacsim.runner.progress import progress_bar  # a widget in Jupyter (pacsim.run), text on any terminal

    schedule = _Schedule(tasks, max_pending)
    completed = False
    with progress_bar(to_play, "game", quiet, smoothing=0.05) as progress:
        try:
            schedule.submit_more(executors.current)
            while schedule.pending:
                done, _ = wait(schedule.pending, timeout=KEEP_UP_SECONDS, return_when=FIRST_COMPLETED)
                executors.keep_up()
                rows, failure = _collect(schedule, done)
                tally.add(store, rows)  # every finished game is stored before anything else happens
                progress.update(len(rows))
                if failure is not None:
                    raise failure
                ctrl_c.check()
                schedule.submit_more(executors.current)
            completed = True
        finally:
            if not completed:  # an error or Ctrl-C: keep the games already finished, start no more
                tally.add(store, _finished_rows(schedule))
            executors.close(completed)


def _finished_rows(schedule: _Schedule) -> list[GameRow]:
    """The rows of the games finished but not yet collected; the others are
    cancelled (played again by the next run)."""
    rows = []
    for future in schedule.pending:
        if not future.cancel() and future.done() and future.exception() is None:
            rows.append(future.result())
    return rows


def _collect(schedule: _Schedule, done: Set[Future]) -> tuple[list[GameRow], BaseException | None]:
    """The rows of the finished futures (a crash for a game whose worker
    died), and the first other failure (a bug in pacsim, or a caller's broken
    executor: raised once the rows are stored)."""
    rows, failure = [], None
    for future in done:
        task = schedule.pending.pop(future)
        try:
            rows.append(future.result())
        except WorkerDied as died:
            rows.append(crashed_row(task, died))
        except Exception as error:
            failure = failure or error
    return rows, failure
