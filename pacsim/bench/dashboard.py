"""The dashboard's cost to a run: the seconds of a run alone, and with a
dashboard looking at its store in another process, once a second (the
page's pace) and without pause (a worst case, far beyond any number of
viewers: each look reads the store again, as the run keeps writing it).
SQLite's write-ahead log lets the run write while the dashboard reads."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pacsim.bench.memory import MEMORY_RUN
from pacsim.bench.report import Report
from pacsim.runner import build_experiment, run_experiment


def watch(store: str, seconds: float, pause: float) -> None:
    """Look at ``store``'s dashboard state every ``pause`` seconds (0: as fast as it goes), for ``seconds``,
    as the server does (read again whenever the run has written since the last look)."""
    from pacsim.web.dashboard_state import DashboardState

    dashboard = DashboardState([store])
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        dashboard.state()
        time.sleep(pause)


def _timed_run(store: Path, games: int, pause: float | None) -> float:
    """Seconds of a ``games``-game run into ``store``, with a dashboard re-reading it every ``pause`` seconds (None: none)."""
    experiment = build_experiment({**MEMORY_RUN, "games": games}, source="<bench dashboard>")
    run_experiment(build_experiment({**MEMORY_RUN, "games": 1}, source="<bench dashboard>"), workers=1,
                   store_path=store, quiet=True)  # the store exists before the dashboard opens it
    watcher = None
    if pause is not None:
        source_root = str(Path(__file__).resolve().parents[2])
        environment = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [source_root, os.environ.get("PYTHONPATH")]))}
        watcher = subprocess.Popen([sys.executable, "-c", f"from pacsim.bench.dashboard import watch; watch({str(store)!r}, 600, {pause})"],
                                   env=environment)
        time.sleep(1.0)  # its imports
    started = time.perf_counter()
    run_experiment(experiment, workers=1, store_path=store, quiet=True)
    seconds = time.perf_counter() - started
    if watcher is not None:
        watcher.terminate()
        watcher.wait(timeout=30)
    return seconds


def dashboard_cost(report: Report, games: int = 3000) -> None:
    """A run's seconds with a dashboard reading its store (once a second, as the page does, and without
    pause), over those alone (each the best of two, alternating)."""
    seconds: dict[float | None, list[float]] = {None: [], 1.0: [], 0.0: []}
    with tempfile.TemporaryDirectory(prefix="pacsim-bench-") as directory:
        for repeat in range(2):
            for pause, runs in seconds.items():
                runs.append(_timed_run(Path(directory) / f"run-{pause}-{repeat}.sqlite", games, pause))
    alone = min(seconds[None])
    for pause, how in ((1.0, "once a second (the page's pace)"), (0.0, "without pause (a worst case)")):
        report.add("dashboard", f"{games}-game run, store re-read {how.split(' (')[0]}", min(seconds[pause]) / alone, "x",
                   f"{min(seconds[pause]):.1f} s watched {how}, {alone:.1f} s alone; 1.0 is no cost; one worker")
