"""Running an experiment: games fan out to an executor, rows come back to the store.

The coordinator (this process) is the only writer of the store.  Workers get
a small picklable :class:`GameTask` and return a plain dict row, so any
``concurrent.futures.Executor`` works: a process pool by default, an inline
executor for ``--workers 1``, a Dask ``Client.get_executor()`` later.
Because each game is a pure function of its condition and seed, the rows do
not depend on the executor or the number of workers.
"""

from __future__ import annotations

import json
import os
import platform
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pacsim
from pacsim.agents.registry import make_ghost, make_pacman
from pacsim.engine import GameRecord, Layout, parse_layout, play_game
from pacsim.runner.experiment import Condition, Experiment
from pacsim.runner.store import ResultStore, encode_actions, utc_now


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


class InlineExecutor(Executor):
    """Runs each task at submit time in this process (``--workers 1``): one
    code path for serial and parallel runs, and tracebacks stay readable."""

    def submit(self, function: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        future: Future = Future()
        try:
            future.set_result(function(*args, **kwargs))
        except BaseException as error:  # delivered through the future, as a pool would
            future.set_exception(error)
        return future


# -- the worker side ------------------------------------------------------

_LAYOUTS: dict[str, Layout] = {}
"""Per worker process: parsed layouts by condition key."""


def play_task(task: GameTask) -> dict[str, Any]:
    """Play one game and return its store row (runs in a worker)."""
    condition = task.condition
    layout = _layout_for(condition)
    # Agents are built afresh for every game (microseconds): a search agent's
    # transposition table outlives ``reset``, and a game must not depend on
    # which games the same worker happened to play before it.
    agents = [make_pacman(condition.pacman, condition.pacman_options)]
    agents += [make_ghost(condition.ghosts, condition.ghost_options) for _ in range(condition.num_ghosts)]
    started_at = utc_now()
    record = play_game(layout, agents, seed=task.seed, max_moves=task.max_moves,
                       move_time_limit=task.time_limit or None)
    return game_row(task, record, started_at)


def _layout_for(condition: Condition) -> Layout:
    layout = _LAYOUTS.get(condition.key)
    if layout is None:
        layout = parse_layout(condition.layout_text, name=condition.layout, source=condition.layout)
        _LAYOUTS[condition.key] = layout
    return layout


def game_row(task: GameTask, record: GameRecord, started_at: str) -> dict[str, Any]:
    condition = task.condition
    depths = [stats["depth"] for stats in record.search_stats if isinstance(stats.get("depth"), int)]
    move_seconds = record.move_seconds
    other_options = {key: value for key, value in condition.pacman_options.items() if key != "depth"}
    return {
        "experiment": task.experiment,
        "config_hash": task.config_hash,
        "condition_key": condition.key,
        "condition": condition.label,
        "pacman": condition.pacman,
        "ghosts": condition.ghosts,
        "layout": condition.layout,
        "num_ghosts": record.num_ghosts,
        "depth": condition.depth,
        "options": json.dumps({"pacman": other_options, "ghost": condition.ghost_options}, sort_keys=True),
        "game_index": task.game_index,
        "seed": task.seed,
        "outcome": record.outcome,
        "score": record.score,
        "moves": record.moves,
        "seconds": record.seconds,
        "move_seconds_mean": sum(move_seconds) / len(move_seconds) if move_seconds else None,
        "move_seconds_max": max(move_seconds) if move_seconds else None,
        "nodes": record.nodes,
        "depth_reached": max(depths) if depths else None,
        "error": record.error,
        "pacsim_version": pacsim.__version__,
        "machine": f"{platform.node()} ({platform.platform()})",
        "started_at": started_at,
        "actions": encode_actions(record.actions),
    }


# -- the coordinator side -------------------------------------------------

def plan_tasks(experiment: Experiment, finished: set[tuple[str, int]] = frozenset()) -> list[GameTask]:
    """Every game not yet finished, game index outermost so that a partial
    run has about as many games of each condition."""
    digest = experiment.config_hash
    tasks = []
    for game_index, seed in enumerate(experiment.seeds()):
        for condition in experiment.conditions:
            if (condition.key, game_index) not in finished:
                tasks.append(GameTask(experiment.name, digest, condition, game_index, seed,
                                      experiment.max_moves, experiment.time_limit))
    return tasks


def run_experiment(
    experiment: Experiment,
    executor: Executor | None = None,
    workers: int | None = None,
    store_path: str | Path | None = None,
    quiet: bool = False,
    max_pending: int | None = None,
) -> RunResult:
    """Play every game of ``experiment`` not already in its store and store it.

    ``executor``: any ``concurrent.futures.Executor`` (not shut down here);
    without one, ``workers`` processes (default: all cores), or this process
    alone when ``workers == 1``.  At most ``max_pending`` games (default four
    per worker) are submitted at a time.
    """
    started = time.perf_counter()
    workers = workers or os.cpu_count() or 1
    path = Path(store_path) if store_path is not None else experiment.store
    with ResultStore(path) as store:
        store.register(experiment)
        total = experiment.games * len(experiment.conditions)
        tasks = plan_tasks(experiment, store.finished(experiment.config_hash))
        played = 0
        if tasks:
            own_executor = None
            if executor is None:
                own_executor = InlineExecutor() if workers == 1 else ProcessPoolExecutor(max_workers=workers)
            try:
                played = _play_all(own_executor or executor, tasks, store, max_pending or 4 * workers, quiet)
            finally:
                if own_executor is not None:
                    own_executor.shutdown(wait=True, cancel_futures=True)
    return RunResult(store=path, config_hash=experiment.config_hash, played=played,
                     skipped=total - len(tasks), seconds=time.perf_counter() - started)


def _play_all(executor: Executor, tasks: list[GameTask], store: ResultStore, max_pending: int, quiet: bool) -> int:
    from tqdm import tqdm

    remaining: Iterator[GameTask] = iter(tasks)
    pending: set[Future] = set()
    played = 0
    # disable=None: tqdm shows the bar only on a terminal.
    with tqdm(total=len(tasks), unit="game", disable=True if quiet else None, smoothing=0.05) as progress:
        try:
            _submit_more(executor, remaining, pending, max_pending)
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                rows = [future.result() for future in done]
                played += store.add_games(rows)  # one transaction per batch of finished games
                progress.update(len(rows))
                _submit_more(executor, remaining, pending, max_pending)
        finally:
            for future in pending:  # on an error or Ctrl-C: nothing more starts; unfinished games are redone next run
                future.cancel()
    return played


def _submit_more(executor: Executor, remaining: Iterator[GameTask], pending: set[Future], max_pending: int) -> None:
    for task in remaining:
        pending.add(executor.submit(play_task, task))
        if len(pending) >= max_pending:
            return
