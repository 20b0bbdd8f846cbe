"""The kernel's figures: nodes/s beside Python's, its perft rate, a deep
search's move time, and a whole experiment with the fast path off and on."""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from pacsim.agents import make_pacman
from pacsim.agents.backend import ENVIRONMENT_SWITCH
from pacsim.bench.positions import recorded_positions
from pacsim.bench.report import Report
from pacsim.bench.search import agent_kind, search_pacman, time_positions
from pacsim.bench.throughput import THROUGHPUT_EXPERIMENT
from pacsim.fast import available
from pacsim.runner import load_experiment, run_experiment

FAST_ALGORITHMS = ("minimax", "alphabeta", "expectimax")
FAST_TARGETS = {"score depth 4 expectimax": 20.0, "careful depth 4 expectimax": 10.0}
"""Kernel over Python nodes/s wanted (issue 14)."""
STAR_CONFIGURATIONS = {"star2+table": "algorithm=star2,table=200000", "star1": "algorithm=star1"}
STAR_TARGETS = {"star2+table": 20.0}
"""Kernel over Python nodes/s wanted (issue 20)."""
END_TO_END_TARGET = 20.0
"""Kernel over Python games/s wanted for the lecture experiment (issue 20)."""


def fast_figures(report: Report, depths=(2, 3, 4), evaluations=("score", "careful"), count: int = 3,
                 repeats: int = 3, deep_count: int = 5) -> None:
    """The kernel's nodes/s beside the Python figures of :func:`search_figures`
    (same positions, same algorithms; named as their Python counterpart plus
    ``fast``), the ratio of the two, the kernel's perft rate and the median
    depth-6 expectimax move with the careful evaluation."""
    reason = available()
    if reason is not None:
        report.skip(f"fast path: {reason}")
        return
    python_rates = {figure.name: figure.value for figure in report.figures if figure.group == "search"}
    positions = recorded_positions(count=count)
    for evaluation in evaluations:
        for depth in depths:
            for algorithm in FAST_ALGORITHMS:
                agent = make_pacman(f"{agent_kind(algorithm)}:depth={depth},eval={evaluation},algorithm={algorithm},backend=fast")
                nodes, times = time_positions(agent, positions, repeats)
                label = f"{evaluation} depth {depth} {algorithm}"
                rate = nodes / sum(times)
                report.add("fast path", f"{label} fast nodes/s", rate, "nodes/s",
                           f"{nodes} nodes, median move {statistics.median(times) * 1000:.2f} ms")
                python_rate = python_rates.get(f"{label} nodes/s")
                if python_rate:
                    target = FAST_TARGETS.get(label)
                    verdict = f"; target {target:.0f}x: {'met' if rate / python_rate >= target else 'NOT met'}" if target else ""
                    report.add("fast path", f"{label} fast/python", rate / python_rate, "ratio",
                               f"nodes/s, same positions{verdict}")
    deep: Any = make_pacman("expectimax:depth=6,eval=careful,backend=fast")
    times, nodes = [], 0
    for state in recorded_positions(count=deep_count):
        started = time.perf_counter()
        result = deep.analyze(state, root_values=False)
        times.append(time.perf_counter() - started)
        nodes += result.stats.generated
    report.add("fast path", "careful depth 6 expectimax fast median move", statistics.median(times) * 1000, "ms",
               f"{nodes} nodes over {len(times)} positions of wideClassic, 2 ghosts")


def star_figures(report: Report, depth: int = 4, count: int = 10, repeats: int = 3) -> None:
    """Star1 and Star2 with a transposition table (``careful``), the kernel
    beside Python: nodes/s over the same positions searched in order by one
    agent, so that its table lives through them as through a game (a fresh
    agent per pass, the fastest of ``repeats`` passes), and the ratio."""
    if available() is not None:
        return
    positions = recorded_positions(count=count)
    for label, options in STAR_CONFIGURATIONS.items():
        rates = {}
        for backend in ("python", "fast"):
            spec = f"expectimax:depth={depth},eval=careful,{options},backend={backend}"
            search_pacman(spec).analyze(positions[0], root_values=False)  # warm-up: distance rows, the compiled kernel
            best, nodes = float("inf"), 0
            for _ in range(repeats):
                agent = search_pacman(spec)
                started, nodes = time.perf_counter(), 0
                for state in positions:
                    nodes += agent.analyze(state, root_values=False).stats.generated
                best = min(best, time.perf_counter() - started)
            rates[backend] = nodes / best
            name = f"careful depth {depth} {label}{' fast' if backend == 'fast' else ''} nodes/s"
            report.add("fast path star", name, rates[backend], "nodes/s",
                       f"{nodes} nodes over {len(positions)} positions of wideClassic, one agent per pass")
        target = STAR_TARGETS.get(label)
        ratio = rates["fast"] / rates["python"]
        verdict = f"; target {target:.0f}x: {'met' if ratio >= target else 'NOT met'}" if target else ""
        report.add("fast path star", f"careful depth {depth} {label} fast/python", ratio, "ratio",
                   f"nodes/s, same positions{verdict}")


def fast_perft_rate(layout_name: str, depth: int, repeats: int = 3) -> tuple[float, int]:
    """The kernel's states/s on :func:`successor_rate`'s expansion."""
    from pacsim.fast import kernel  # numba is optional
    from pacsim.fast.maze_arrays import layout_tables, state_row, words_for

    state = recorded_positions(layout_name, count=1)[0]
    tables = layout_tables(state.layout)
    row = state_row(state)
    best, nodes = float("inf"), 0
    for _ in range(repeats):
        started = time.perf_counter()
        nodes = kernel.perft(tables.moves, tables.ghost_starts, len(state.ghosts), words_for(state.layout), row, depth)
        best = min(best, time.perf_counter() - started)
    return nodes / best, nodes


def fast_end_to_end(report: Report, games_per_condition: int, experiment_path: Path = THROUGHPUT_EXPERIMENT) -> None:
    """The lecture experiment (what ``pacsim reproduce`` runs) played on one
    worker with the fast path off and on (on, each game is played whole in
    the kernel): games/s of each and the ratio, target 20x.  The clock
    includes the worker's start (and its loading of the compiled kernel);
    the rows stored are the same either way."""
    if available() is not None or not experiment_path.is_file():
        return
    rates: dict[str, float] = {}
    previous = os.environ.get(ENVIRONMENT_SWITCH)
    with tempfile.TemporaryDirectory(prefix="pacsim-bench-") as directory:
        for engine in ("python", "auto"):
            os.environ[ENVIRONMENT_SWITCH] = engine  # the worker inherits it
            try:
                experiment = load_experiment(experiment_path, games=games_per_condition,
                                             store=Path(directory) / f"{engine}.sqlite")
                with ProcessPoolExecutor(max_workers=1) as pool:
                    result = run_experiment(experiment, executor=pool, workers=1, quiet=True)
            finally:
                if previous is None:
                    os.environ.pop(ENVIRONMENT_SWITCH, None)
                else:
                    os.environ[ENVIRONMENT_SWITCH] = previous
            rates[engine] = result.played / result.seconds
            label = "fast path off" if engine == "python" else "fast path on"
            report.add("fast path end to end", f"{experiment_path.stem}, {label}", rates[engine], "games/s",
                       f"{result.played} games in {result.seconds:.1f} s, one worker")
    ratio = rates["auto"] / rates["python"]
    report.add("fast path end to end", f"{experiment_path.stem} fast/python", ratio, "ratio",
               f"target {END_TO_END_TARGET:.0f}x: {'met' if ratio >= END_TO_END_TARGET else 'NOT met'}")
