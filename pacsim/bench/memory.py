"""Memory: peak RSS of a run and its growth, each measured in a fresh
interpreter, so that it is the run's own and not what the other figures'
searches left behind."""

from __future__ import annotations

import dataclasses
import gc
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any

from pacsim.bench.report import Report
from pacsim.errors import PacsimError
from pacsim.runner import GameRow, InlineExecutor, ResultStore, build_experiment, load_results, run_experiment
from pacsim.runner.row import GAME_COLUMNS

MEMORY_RUN: dict[str, Any] = {
    "name": "bench_memory", "games": 1, "seed": 1, "max_moves": 300,
    "grid": {"pacman": ["greedy"], "ghosts": ["random"], "layout": ["tinyGhostMaze"]},
}
"""A cheap game (about a millisecond), so that ten thousand of them fit in a benchmark."""
REPORT_GAMES_PLAYED = 20
REPORT_RUN = {
    "name": "bench_report_memory", "seed": 1, "max_moves": 300,
    "grid": {"pacman": ["greedy"], "ghosts": ["random"], "layout": ["smallClassic"]},
}
"""Games (:data:`REPORT_GAMES_PLAYED` of them) whose rows a report's store
repeats: a classic maze's two ghosts and full replay logs, as an experiment's stores hold."""


def peak_rss_mb() -> float:
    """This process's peak RSS.  Linux's ``VmHWM`` first: ``ru_maxrss``
    survives ``exec``, so a child started from a big parent would report the
    parent's size."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    usage = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return usage / 1024 if sys.platform != "darwin" else usage / (1024 * 1024)


def current_rss_mb() -> float:
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / (1024 * 1024)
    except OSError:  # no /proc (macOS): the peak is the best there is
        return peak_rss_mb()


def _sampling_executor(checkpoints: set[int], samples: dict[int, float]) -> Executor:
    """An inline executor that notes the current RSS when its n-th game
    (n in ``checkpoints``) has been played, inside a real ``run_experiment``."""
    class SamplingExecutor(InlineExecutor):
        submitted = 0

        def submit(self, function: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
            future = super().submit(function, *args, **kwargs)
            self.submitted += 1
            if self.submitted in checkpoints:
                samples[self.submitted] = current_rss_mb()
            return future

    return SamplingExecutor()


def memory_probe(games: int) -> dict[str, float]:
    """Run ``games`` cheap games through ``run_experiment`` in this process
    (one worker, a temporary store) and return RSS figures in MB: after the
    imports, at 10% and 100% of the games, and the peak."""
    experiment = build_experiment({**MEMORY_RUN, "games": games}, source="<bench memory>")
    experiment.seeds()  # numpy's import and the seeds are the run's baseline, not its growth
    gc.collect()
    baseline = current_rss_mb()
    tenth, last = max(1, games // 10), games
    samples: dict[int, float] = {}
    with tempfile.TemporaryDirectory(prefix="pacsim-bench-") as directory:
        result = run_experiment(experiment, executor=_sampling_executor({tenth, last}, samples), workers=1,
                                store_path=Path(directory) / "memory.sqlite", quiet=True)
    # The kernel updates the high-water mark lazily; a sample may be above it.
    peak = max(peak_rss_mb(), *samples.values())
    return {"baseline": baseline, "at_10_percent": samples[tenth], "at_100_percent": samples[last],
            "peak": peak, "games": result.played, "seconds": result.seconds}


def run_memory_probe(games: int) -> dict[str, float]:
    """:func:`memory_probe` in a fresh interpreter."""
    return in_fresh_interpreter("memory_probe", games)


def in_fresh_interpreter(probe: str, argument: int | str, module: str = __name__) -> dict[str, float]:
    """``probe(argument)``, a function of ``module`` (this one) returning figures, run in a fresh interpreter."""
    source_root = str(Path(__file__).resolve().parents[2])
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(
        filter(None, [source_root, os.environ.get("PYTHONPATH", "")]))}
    code = f"import json; from {module} import {probe}; print(json.dumps({probe}({argument!r})))"
    finished = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              env=environment, timeout=1800)
    if finished.returncode != 0:
        last_line = (finished.stderr.strip().splitlines() or [f"exit status {finished.returncode}"])[-1]
        raise PacsimError(f"the {probe.replace('_', ' ')} failed: {last_line}")
    return json.loads(finished.stdout.strip().splitlines()[-1])


def report_store(path: Path, games: int) -> None:
    """A store of ``games`` games: :data:`REPORT_RUN`'s games played once,
    then stored again and again under new game indices."""
    experiment = build_experiment({**REPORT_RUN, "games": min(games, REPORT_GAMES_PLAYED)}, source="<bench report memory>")
    with tempfile.TemporaryDirectory(prefix="pacsim-bench-") as directory:
        played = run_experiment(experiment, workers=1, store_path=Path(directory) / "played.sqlite", quiet=True)
        rows = _stored_rows(played.store)
    with ResultStore(path) as store:
        store.register(experiment)
        store.add_games(dataclasses.replace(rows[index % len(rows)], game_index=index) for index in range(games))


def _stored_rows(path: Path) -> list[GameRow]:
    """The store's games as the rows the runner wrote."""
    games = load_results(path).assign(started_at=lambda frame: frame["started_at"].map(lambda when: when.isoformat()))
    return [GameRow(**{name: _plain(record[name]) for name in GAME_COLUMNS}) for record in games.to_dict("records")]


def _plain(value: Any) -> Any:
    """A value from a frame as SQLite takes it: numpy's numbers as Python's, missing ones as None."""
    if value is None or value != value:  # NaN
        return None
    return value.item() if hasattr(value, "item") else value


def report_probe(store: str) -> dict[str, float]:
    """RSS figures in MB of ``pacsim report STORE`` in this process: after the
    report's imports, and the peak."""
    from pacsim.cli import main
    from pacsim.report import summarize  # noqa: F401  (its imports are the baseline, not the report's growth)

    gc.collect()
    baseline = current_rss_mb()
    with tempfile.TemporaryDirectory(prefix="pacsim-bench-") as directory:
        if main(["report", store, "--out", str(Path(directory) / "report.txt")]) != 0:
            raise PacsimError(f"pacsim report {store} failed")
    return {"baseline": baseline, "peak": peak_rss_mb()}


def report_memory(report: Report, small: int = 2000, large: int = 20_000) -> None:
    """The memory ``pacsim report`` holds a stored game: its peak RSS on a
    store of ``large`` games less that on one of ``small``, per game."""
    peaks = {}
    with tempfile.TemporaryDirectory(prefix="pacsim-bench-") as directory:
        for games in (small, large):
            path = Path(directory) / f"report-{games}.sqlite"
            report_store(path, games)
            peaks[games] = in_fresh_interpreter("report_probe", str(path))["peak"]
    per_game = (peaks[large] - peaks[small]) * 1024 / (large - small)
    report.add("memory", "pacsim report, memory a stored game", per_game, "KB",
               f"peak RSS {peaks[small]:.1f} MB with {small} games, {peaks[large]:.1f} MB with {large}; target < 1 KB")


def planning_probe(mazes: int) -> dict[str, float]:
    """Plan a run of one game on each of ``mazes`` generated mazes up to its
    first game (checking the grid, recording the config, the first batch of
    conditions and the resume look-up, in a temporary store) and return the
    seconds taken and RSS figures in MB: after the imports, and the peak."""
    from pacsim.runner.execute import Plan
    from pacsim.runner.store import ResultStore

    raw = {**MEMORY_RUN, "grid": {**MEMORY_RUN["grid"], "layout": [f"generated:w=9,h=7,seed=0-{mazes - 1}"]}}
    gc.collect()
    baseline = current_rss_mb()
    started = time.perf_counter()
    experiment = build_experiment(raw, source="<bench planning>")
    checked = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="pacsim-bench-") as directory, \
            ResultStore(Path(directory) / "planning.sqlite") as store:
        store.register(experiment)
        next(iter(Plan(experiment, store)))
        first_game = time.perf_counter()
    return {"conditions": len(experiment.conditions), "checking": checked - started,
            "first_game": first_game - started, "baseline": baseline, "peak": peak_rss_mb()}


def planning_figures(report: Report, mazes: int) -> None:
    """Seconds and peak RSS from an experiment file of ``mazes`` conditions to its first game."""
    planned = in_fresh_interpreter("planning_probe", mazes)
    report.add("memory", f"seconds to the first game of a {mazes:,}-condition grid", planned["first_game"], "s",
               f"{planned['checking']:.1f} s checking the grid and hashing its config; fresh interpreter")
    report.add("memory", f"peak RSS planning a {mazes:,}-condition grid", planned["peak"], "MB",
               f"{planned['baseline']:.1f} MB after imports; flat in the number of conditions")


def memory_figures(report: Report, peak_games: int = 1000, long_games: int = 10_000) -> None:
    """Peak RSS of a ``peak_games`` run and RSS growth from 10% to 100% of a
    ``long_games`` run (one probe when the two counts are equal)."""
    peak_run = run_memory_probe(peak_games)
    long_run = peak_run if long_games == peak_games else run_memory_probe(long_games)
    report.add("memory", f"peak RSS of a {peak_games}-game run", peak_run["peak"], "MB",
               f"{peak_run['baseline']:.1f} MB after imports; fresh interpreter, one worker")
    growth = long_run["at_100_percent"] - long_run["at_10_percent"]
    report.add("memory", f"RSS growth, game {long_games // 10} to {long_games}", growth, "MB",
               f"{long_run['at_10_percent']:.1f} -> {long_run['at_100_percent']:.1f} MB in "
               f"{long_run['seconds']:.1f} s; flat is ~0 (SQLite's page cache, at most 2 MB, fills early)")
