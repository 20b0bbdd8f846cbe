"""The MCTS Pacman's figures: iterations/s and simulated moves/s."""

from __future__ import annotations

from pacsim.agents.mcts_agent import MctsOptions, MctsPacman
from pacsim.bench.positions import recorded_positions
from pacsim.bench.report import Report


def mcts_figures(report: Report, iterations: int = 1000, count: int = 3) -> None:
    """Iterations/s and simulated (rollout) moves/s of the MCTS Pacman on
    recorded positions, for both ghost assumptions, random rollouts of the
    default depth."""
    positions = recorded_positions(count=count)
    for ghosts in ("chance", "min"):
        agent = MctsPacman(MctsOptions(iterations=iterations, ghosts=ghosts))
        seconds = done = simulated = 0.0
        for state in positions:
            result = agent.analyze(state)
            seconds += result.stats.seconds
            done += result.stats.iterations
            simulated += result.stats.simulated
        note = f"{iterations} iterations x {len(positions)} positions, wideClassic"
        report.add("mcts", f"ghosts={ghosts} iterations/s", done / seconds, "iterations/s", note)
        report.add("mcts", f"ghosts={ghosts} simulated moves/s", simulated / seconds, "moves/s", note)
