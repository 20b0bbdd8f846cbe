"""The MCTS Pacman's figures: iterations/s and simulated moves/s, in Python
and in the kernel, and the ratio of the two."""

from __future__ import annotations

from pacsim.agents.mcts_agent import MctsOptions, MctsPacman
from pacsim.bench.positions import recorded_positions
from pacsim.bench.report import Report
from pacsim.fast import available

MCTS_TARGET = 20.0
"""Kernel over Python iterations/s wanted (issue 20)."""


def mcts_figures(report: Report, iterations: int = 1000, count: int = 3) -> None:
    """Iterations/s and simulated (rollout) moves/s of the MCTS Pacman on
    recorded positions, for both ghost assumptions, random rollouts of the
    default depth; with numba, the same searches in the kernel (the same
    trees: same seeds, same draws) and the ratio of iterations/s."""
    positions = recorded_positions(count=count)
    backends = ("python",) if available() is not None else ("python", "fast")
    for ghosts in ("chance", "min"):
        rates = {}
        for backend in backends:
            agent = MctsPacman(MctsOptions(iterations=iterations, ghosts=ghosts, backend=backend))
            seconds = done = simulated = 0.0
            for state in positions:
                result = agent.analyze(state)
                seconds += result.stats.seconds
                done += result.stats.iterations
                simulated += result.stats.simulated
            rates[backend] = done / seconds
            suffix = " fast" if backend == "fast" else ""
            note = f"{iterations} iterations x {len(positions)} positions, wideClassic"
            report.add("mcts", f"ghosts={ghosts}{suffix} iterations/s", rates[backend], "iterations/s", note)
            report.add("mcts", f"ghosts={ghosts}{suffix} simulated moves/s", simulated / seconds, "moves/s", note)
        if "fast" in rates:
            ratio = rates["fast"] / rates["python"]
            report.add("mcts", f"ghosts={ghosts} fast/python", ratio, "ratio",
                       f"iterations/s, same searches; target {MCTS_TARGET:.0f}x: {'met' if ratio >= MCTS_TARGET else 'NOT met'}")
