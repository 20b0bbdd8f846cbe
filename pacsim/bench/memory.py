"""Memory: peak RSS of a run and its growth, each measured in a fresh
interpreter, so that it is the run's own and not what the other figures'
searches left behind."""

from __future__ import annotations

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
from pacsim.runner import InlineExecutor, build_experiment, run_experiment

MEMORY_RUN: dict[str, Any] = {
    "name": "bench_memory", "games": 1, "seed": 1, "max_moves": 300,
    "grid": {"pacman": ["greedy"], "ghosts": ["random"], "layout": ["tinyGhostMaze"]},
}
"""A cheap game (about a millisecond), so that ten thousand of them fit in a benchmark."""


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


def _current_rss_mb() -> float:
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
                samples[self.submitted] = _current_rss_mb()
            return future

    return SamplingExecutor()


def memory_probe(games: int) -> dict[str, float]:
    """Run ``games`` cheap games through ``run_experiment`` in this process
    (one worker, a temporary store) and return RSS figures in MB: after the
    imports, at 10% and 100% of the games, and the peak."""
    experiment = build_experiment({**MEMORY_RUN, "games": games}, source="<bench memory>")
    experiment.seeds()  # numpy's import and the seeds are the run's baseline, not its growth
    gc.collect()
    baseline = _current_rss_mb()
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
    return _in_fresh_interpreter("memory_probe", games)


def _in_fresh_interpreter(probe: str, size: int) -> dict[str, float]:
    """The figures the function ``probe`` of this module returns for ``size``, run in a fresh interpreter."""
    source_root = str(Path(__file__).resolve().parents[2])
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(
        filter(None, [source_root, os.environ.get("PYTHONPATH", "")]))}
    code = (f"import json, sys; from pacsim.bench.memory import {probe}; "
            f"print(json.dumps({probe}(int(sys.argv[1]))))")
    finished = subprocess.run([sys.executable, "-c", code, str(size)], capture_output=True, text=True,
                              env=environment, timeout=1800)
    if finished.returncode != 0:
        last_line = (finished.stderr.strip().splitlines() or [f"exit status {finished.returncode}"])[-1]
        raise PacsimError(f"the {probe.replace('_', ' ')} failed: {last_line}")
    return json.loads(finished.stdout.strip().splitlines()[-1])


def planning_probe(mazes: int) -> dict[str, float]:
    """Plan a run of one game on each of ``mazes`` generated mazes up to its
    first game (checking the grid, recording the config, the first batch of
    conditions and the resume look-up, in a temporary store) and return the
    seconds taken and RSS figures in MB: after the imports, and the peak."""
    from pacsim.runner.execute import Plan
    from pacsim.runner.store import ResultStore

    raw = {**MEMORY_RUN, "grid": {**MEMORY_RUN["grid"], "layout": [f"generated:w=9,h=7,seed=0-{mazes - 1}"]}}
    gc.collect()
    baseline = _current_rss_mb()
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
    planned = _in_fresh_interpreter("planning_probe", mazes)
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
