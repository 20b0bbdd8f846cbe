"""``pacsim bench``: the speed and memory figures, measured in one run.

Absolute times on shared machines are noisy, so every figure that matters is
also given as a ratio measured in the same run (pruned nodes / plain nodes,
2 workers / 1 worker).  Positions are fixed: they come from a seeded game,
so every run searches the same trees.
"""

from __future__ import annotations

import gc
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from typing import Any

from pacsim import __version__
from pacsim.agents import make_ghost, make_pacman
from pacsim.engine import GameState, apply_move, load_layout, play_game

ALGORITHMS = ("minimax", "alphabeta", "expectimax", "star1", "star2")
PLAIN = {"alphabeta": "minimax", "star1": "expectimax", "star2": "expectimax"}


@dataclass
class Figure:
    """One measured number."""

    group: str
    name: str
    value: float
    unit: str
    note: str = ""


@dataclass
class Report:
    figures: list[Figure] = field(default_factory=list)
    machine: dict[str, Any] = field(default_factory=dict)

    def add(self, group: str, name: str, value: float, unit: str, note: str = "") -> None:
        self.figures.append(Figure(group, name, value, unit, note))

    def to_dict(self) -> dict[str, Any]:
        return {"machine": self.machine, "figures": [asdict(figure) for figure in self.figures]}

    def to_text(self) -> str:
        lines = [" ".join(f"{key}={value}" for key, value in self.machine.items())]
        group = None
        for figure in self.figures:
            if figure.group != group:
                group = figure.group
                lines.append(f"\n[{group}]")
            value = f"{figure.value:,.0f}" if abs(figure.value) >= 100 else f"{figure.value:.3f}"
            lines.append(f"  {figure.name:<44} {value:>14} {figure.unit:<10} {figure.note}")
        return "\n".join(lines)


def machine_info() -> dict[str, Any]:
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                                cwd=os.path.dirname(__file__), timeout=5).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit = ""
    return {
        "pacsim": __version__, "commit": commit or "?", "python": platform.python_version(),
        "machine": platform.machine(), "cores": os.cpu_count(), "time": time.strftime("%Y-%m-%dT%H:%M:%S"),
    }


def recorded_positions(layout_name: str = "mediumClassic", count: int = 5, seed: int = 2026) -> list[GameState]:
    """Pacman-to-move positions from a seeded greedy-vs-directional game, with
    no ghost within 4 steps (so the trees are not cut short by a death),
    every eighth from the tenth on: ghosts out of their house, food partly eaten."""
    layout = load_layout(layout_name)
    states: list[GameState] = []

    def keep(state: GameState, action: str | None) -> None:
        if state.turn == 0 and not state.is_terminal and _ghosts_away(state, 4):
            states.append(state)

    agents = [make_pacman("greedy")] + [make_ghost("directional") for _ in range(2)]
    play_game(layout, agents, seed=seed, max_moves=200, on_state=keep)
    picked = states[10::8][:count]
    return picked or states[:count]


def _ghosts_away(state: GameState, distance: int) -> bool:
    from_pacman = state.layout.distances_from(state.pacman)
    return all(from_pacman[cell] >= distance for cell in state.ghosts)


def successor_rate(layout_name: str, depth: int = 6, repeats: int = 3) -> tuple[float, int]:
    """States/s of a full expansion (perft) of ``depth`` levels from a
    recorded position (at the start the ghosts' moves are forced)."""
    state = recorded_positions(layout_name, count=1)[0]

    def expand(node: GameState, levels: int) -> int:
        if levels == 0 or node.status:
            return 0
        total = 0
        for action, target in node.legal_moves():
            total += 1 + expand(apply_move(node, action, target), levels - 1)
        return total

    best = float("inf")
    nodes = 0
    for _ in range(repeats):
        started = time.perf_counter()
        nodes = expand(state, depth)
        best = min(best, time.perf_counter() - started)
    return nodes / best, nodes


def search_figures(report: Report, depths=(2, 3, 4), evaluations=("score", "careful"), count: int = 3) -> None:
    positions = recorded_positions(count=count)
    for evaluation in evaluations:
        for depth in depths:
            generated: dict[str, int] = {}
            for algorithm in ALGORITHMS:
                kind = "minimax" if algorithm in ("minimax", "alphabeta") else "expectimax"
                agent = make_pacman(f"{kind}:depth={depth},eval={evaluation},algorithm={algorithm}")
                nodes, times = 0, []
                for state in positions:
                    started = time.perf_counter()
                    result = agent.analyze(state, root_values=False)
                    times.append(time.perf_counter() - started)
                    nodes += result.stats.generated
                generated[algorithm] = nodes
                label = f"{evaluation} depth {depth} {algorithm}"
                report.add("search", f"{label} nodes/s", nodes / sum(times), "nodes/s",
                           f"{nodes} nodes, median move {statistics.median(times) * 1000:.1f} ms")
            for pruned, plain in PLAIN.items():
                report.add("pruning", f"{evaluation} depth {depth} {pruned}/{plain}",
                           generated[pruned] / generated[plain], "ratio", "generated nodes")


def tuned_expectimax(report: Report, count: int = 5) -> None:
    """Depth-4 expectimax with the careful evaluation on the medium maze: plain
    versus Star2 with a transposition table."""
    positions = recorded_positions(count=count)
    for label, spec in (("plain", "expectimax:depth=4,eval=careful"),
                        ("star2+table", "expectimax:depth=4,eval=careful,algorithm=star2,table=200000")):
        agent = make_pacman(spec)
        times, nodes = [], 0
        for state in positions:
            started = time.perf_counter()
            result = agent.analyze(state, root_values=False)
            times.append(time.perf_counter() - started)
            nodes += result.stats.generated
        report.add("depth-4 expectimax (careful)", f"{label} median move", statistics.median(times) * 1000, "ms",
                   f"{nodes} nodes over {len(positions)} positions")


def peak_rss_mb() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return usage / 1024 if sys.platform != "darwin" else usage / (1024 * 1024)


def memory_figures(report: Report, games: int = 1000) -> None:
    layout = load_layout("tinyMaze")
    agents = [make_pacman("greedy")] + [make_ghost("random") for _ in layout.ghost_starts]
    gc.collect()
    before = peak_rss_mb()
    rss_at: list[float] = []
    for seed in range(games):
        play_game(layout, agents, seed=seed, max_moves=300)
        if seed in (games // 10, games - 1):
            rss_at.append(_current_rss_mb())
    report.add("memory", f"peak RSS after {games} games", peak_rss_mb(), "MB", f"before {before:.1f} MB")
    if len(rss_at) == 2:
        report.add("memory", "RSS growth from game 10% to 100%", rss_at[1] - rss_at[0], "MB", "flat is ~0")
    agent = make_pacman("expectimax:depth=4,eval=careful,algorithm=star2,table=200000")
    for state in recorded_positions(count=3):
        agent.analyze(state, root_values=False)
    report.add("memory", "peak RSS after depth-4 search with table", peak_rss_mb(), "MB",
               f"table bound {agent.table.max_entries} entries")


def _current_rss_mb() -> float:
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / (1024 * 1024)
    except OSError:
        return peak_rss_mb()


def run(quick: bool = False) -> Report:
    report = Report(machine=machine_info())
    for name in ("smallClassic", "mediumClassic"):
        rate, nodes = successor_rate(name, depth=9 if quick else 12)
        report.add("successors", f"{name} perft", rate, "states/s", f"{nodes} states")
    search_figures(report, depths=(2, 3) if quick else (2, 3, 4), count=2 if quick else 3)
    tuned_expectimax(report, count=2 if quick else 5)
    memory_figures(report, games=100 if quick else 1000)
    return report
