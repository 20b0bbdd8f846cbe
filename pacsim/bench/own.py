"""A user's own kernel evaluation (:mod:`pacsim.fast.view`): the kernel
beside Python on the same function, with the same answers.

The evaluation is the shipped example ``examples/kernel_eval.py:hungry``.
Each position is searched once by each backend; the figures are nodes/s
(the kernel's first search, which compiles it, apart: its seconds are a
figure of their own) and their ratio, target 20x, with whether every value,
move and node count was identical.
"""

from __future__ import annotations

import time

from pacsim.bench.agreement import result_difference
from pacsim.bench.positions import recorded_positions
from pacsim.bench.report import Report
from pacsim.bench.search import search_pacman
from pacsim.fast import available
from pacsim.shipped import shipped_path

OWN_EVALUATION = "examples/kernel_eval.py:hungry"
OWN_TARGET = 20.0
"""Kernel over Python nodes/s wanted for a user's evaluation (issue 28)."""
GROUP = "own"


def own_figures(report: Report, depth: int = 4, count: int = 5, algorithm: str = "expectimax") -> None:
    """The ``own`` group: ``algorithm`` at ``depth`` with the example
    evaluation, over ``count`` positions of wideClassic."""
    reason = available()
    if reason is not None:
        report.skip(f"{GROUP}: {reason}")
        return
    file, _, function = OWN_EVALUATION.rpartition(":")
    evaluation = f"{shipped_path(file).resolve()}:{function}"
    spec = f"expectimax:depth={depth},eval={evaluation},algorithm={algorithm}"
    python, fast = search_pacman(f"{spec},backend=python"), search_pacman(f"{spec},backend=fast")
    positions = recorded_positions(count=count)
    started = time.perf_counter()
    fast.analyze(positions[0])  # compiles the search for this function (not cached: see pacsim.fast.own)
    report.add(GROUP, f"{function} compile", time.perf_counter() - started, "s", "the first search, once per process")
    seconds = {"python": 0.0, "fast": 0.0}
    nodes, differences = 0, []
    for index, state in enumerate(positions):
        results = {}
        for backend, agent in (("python", python), ("fast", fast)):
            started = time.perf_counter()
            results[backend] = agent.analyze(state)
            seconds[backend] += time.perf_counter() - started
        nodes += results["python"].stats.generated
        difference = result_difference(results["python"], results["fast"])
        if difference:
            differences.append(f"position {index}: {difference}")
    label = f"{function} depth {depth} {algorithm}"
    for backend in ("python", "fast"):
        report.add(GROUP, f"{label} {backend} nodes/s", nodes / seconds[backend], "nodes/s",
                   f"{nodes} nodes over {count} positions of wideClassic")
    ratio = seconds["python"] / seconds["fast"]
    same = "identical values, moves and node counts" if not differences else f"DIFFERENT: {differences[0]}"
    report.add(GROUP, f"{label} fast/python", ratio, "ratio",
               f"target {OWN_TARGET:.0f}x: {'met' if ratio >= OWN_TARGET else 'NOT met'}; {same}")
    report.add(GROUP, f"{label} mismatches", len(differences), "positions", "kernel against Python")


def own_star_figures(report: Report, depth: int = 5, count: int = 5, entries: int = 100_000) -> None:
    """One line of the ``own`` group: the example evaluation with Star2 and
    a transposition table (its bounds at every chance node), the kernel's
    copy of the star search (:mod:`pacsim.fast.own_searches`) beside Python,
    each with one agent searching ``count`` positions of wideClassic in
    order (its table living through them, as through a game) after a first
    search that compiles the copy; the speed ratio, and whether every
    value, move and node count was identical."""
    if available() is not None:
        return  # own_figures says why
    file, _, function = OWN_EVALUATION.rpartition(":")
    spec = f"expectimax:depth={depth},eval={shipped_path(file).resolve()}:{function},algorithm=star2,table={entries}"
    positions = recorded_positions(count=count)
    started = time.perf_counter()
    search_pacman(f"{spec},backend=fast").analyze(positions[0], root_values=False)  # compiles (see pacsim.fast.own)
    compile_seconds = time.perf_counter() - started
    seconds, results = {}, {}
    for backend in ("python", "fast"):
        agent = search_pacman(f"{spec},backend={backend}")
        started = time.perf_counter()
        results[backend] = [agent.analyze(state, root_values=False) for state in positions]
        seconds[backend] = time.perf_counter() - started
    differences = [f"position {index}: {difference}" for index, (expected, found)
                   in enumerate(zip(results["python"], results["fast"]))
                   if (difference := result_difference(expected, found))]
    nodes = sum(result.stats.generated for result in results["python"])
    same = "identical values, moves and node counts" if not differences else f"DIFFERENT: {differences[0]}"
    report.add(GROUP, f"{function} depth {depth} star2 table fast/python", seconds["python"] / seconds["fast"], "ratio",
               f"{nodes} nodes over {count} positions of wideClassic, one agent (one table) per backend, after a "
               f"first search of {compile_seconds:.1f} s that compiles the copy; {same}")
