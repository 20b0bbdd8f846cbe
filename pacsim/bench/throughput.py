"""Batch throughput: games/s of a real experiment run on one worker and on every core."""

from __future__ import annotations

import os
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from pacsim.bench.report import Report
from pacsim.runner import load_experiment, run_experiment
from pacsim.shipped import shipped_experiment

THROUGHPUT_EXPERIMENT = shipped_experiment("optimism_pessimism.toml")
"""The batch-throughput workload: the lecture table (`pacsim reproduce`: depth-4 search on its maze)."""
SCALING_TARGET = 1.8
"""Games/s on all cores over games/s on one worker, wanted on 2 cores or more."""


def batch_throughput(report: Report, games_per_condition: int, experiment_path: Path = THROUGHPUT_EXPERIMENT,
                     cores: int | None = None) -> None:
    """Games/s of a real ``run_experiment`` (process pool, store and all) on
    one worker and on every core, and the ratio of the two.  The clock runs
    from the first submission to the last stored row, pool start included."""
    if not experiment_path.is_file():
        report.skip(f"batch throughput: no {experiment_path.name} here (it ships with the source checkout)")
        return
    cores = cores or os.cpu_count() or 1
    group = f"batch throughput ({experiment_path.stem})"
    rates: dict[int, float] = {}
    with tempfile.TemporaryDirectory(prefix="pacsim-bench-") as directory:
        for workers in sorted({1, cores}):
            # A fresh store each time, so that no game is skipped as already played.
            experiment = load_experiment(experiment_path, games=games_per_condition,
                                         store=Path(directory) / f"workers{workers}.sqlite")
            # A pool even for one worker: both figures then pay for the same
            # machinery (process start, pickling), and neither plays in this
            # process, whose heap the other figures have grown.
            with ProcessPoolExecutor(max_workers=workers) as pool:
                result = run_experiment(experiment, executor=pool, workers=workers, quiet=True)
            rates[workers] = result.played / result.seconds
            report.add(group, f"{workers} worker{'s' if workers > 1 else ''}", rates[workers], "games/s",
                       f"{result.played} games in {result.seconds:.1f} s")
    if cores > 1:
        ratio = rates[cores] / rates[1]
        verdict = "met" if ratio >= SCALING_TARGET else "NOT met"
        report.add(group, f"scaling {cores} workers / 1 worker", ratio, "ratio",
                   f"target {SCALING_TARGET}x: {verdict}")
    else:
        report.skip("batch scaling: one core only")
