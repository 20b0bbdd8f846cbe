"""The whole ``pacsim bench`` run: every group, at full or ``--quick`` sizes."""

from __future__ import annotations

from pathlib import Path

from pacsim.bench.agreement import fast_agreement
from pacsim.bench.capture import capture_figures
from pacsim.bench.dashboard import dashboard_cost
from pacsim.bench.env import env_figures
from pacsim.bench.fast import fast_end_to_end, fast_figures, fast_perft_rate, star_figures
from pacsim.bench.limits import fast_limits
from pacsim.bench.mcts import mcts_figures
from pacsim.bench.memo import memo_figures
from pacsim.bench.memory import memory_figures, planning_figures, report_memory
from pacsim.bench.own import own_agreement, own_figures, own_ghost_figures, own_star_figures
from pacsim.bench.report import Report, machine_info
from pacsim.bench.sandbox import sandbox_figures
from pacsim.bench.search import search_figures, successor_rate, table_figures, tuned_expectimax
from pacsim.bench.startup import kernel_startup_figures, startup_figures
from pacsim.bench.store_scale import store_scale_figures
from pacsim.bench.throughput import batch_throughput
from pacsim.bench.tournament import tournament_speed
from pacsim.bench.tree import TRACE_LAYOUTS, tree_figures
from pacsim.fast import available


def run(quick: bool = False, course: Path | None = None, startup_only: bool = False,
        capture_course: Path | None = None) -> Report:
    """Every group, or (``startup_only``) the start-up group alone; ``course``:
    a CS188 course folder for the start-up group's course commands; ``capture_course``:
    the course's contest folder for the capture group's comparison."""
    report = Report(machine=machine_info())
    startup_figures(report, repeats=3 if quick else 7, course=course, quick=quick)
    kernel_startup_figures(report, repeats=3 if quick else 7)
    if startup_only:
        return report
    for name in ("smallClassic", "wideClassic"):
        rate, nodes = successor_rate(name, depth=15 if quick else 18)
        report.add("successors", f"{name} perft", rate, "states/s", f"{nodes} states")
    search_figures(report, depths=(2, 3) if quick else (2, 3, 4), count=2 if quick else 3)
    fast_figures(report, depths=(2, 3) if quick else (2, 3, 4), count=2 if quick else 3, deep_count=2 if quick else 5)
    star_figures(report, count=4 if quick else 10, repeats=2 if quick else 3)
    if available() is None:
        for name in ("smallClassic", "wideClassic"):
            rate, nodes = fast_perft_rate(name, depth=15 if quick else 18)
            report.add("fast path", f"{name} perft fast", rate, "states/s", f"{nodes} states")
        fast_agreement(report, positions=1000 if quick else 10_000, deep_positions=100 if quick else 500,
                       chase_positions=200 if quick else 2000, whole_games=40 if quick else 200)
        own_agreement(report, positions=20 if quick else 100, games=2 if quick else 5)
        fast_limits(report, trials=5 if quick else 20, budget_moves=40 if quick else 200, checked=5 if quick else 30)
        fast_end_to_end(report, games_per_condition=5 if quick else 20)
        memo_figures(report, games=5 if quick else 20, reproduce_games=50 if quick else None)
    own_figures(report, count=2 if quick else 5)
    own_star_figures(report, count=2 if quick else 5)
    own_ghost_figures(report, count=2 if quick else 5, games=1 if quick else 3)
    tuned_expectimax(report, count=2 if quick else 5)
    mcts_figures(report, iterations=300 if quick else 1000, count=2 if quick else 3)
    env_figures(report, steps=1000 if quick else 5000)
    sandbox_figures(report, games=5 if quick else 20)
    table_figures(report, count=3 if quick else 5)
    tree_figures(report, TRACE_LAYOUTS[:1] if quick else TRACE_LAYOUTS, depth=3 if quick else 4)
    batch_throughput(report, games_per_condition=25 if quick else 100)
    tournament_speed(report, entrants=6 if quick else 30, mazes=3 if quick else 10, pairs=4 if quick else 20)
    tournament_speed(report, entrants=3 if quick else 6, mazes=2 if quick else 3, pairs=2 if quick else 4, sandboxed=True)
    memory_figures(report, peak_games=1000, long_games=1000 if quick else 10_000)
    report_memory(report, small=500 if quick else 2000, large=5000 if quick else 20_000)
    planning_figures(report, mazes=100_000 if quick else 1_000_000)
    dashboard_cost(report, games=1000 if quick else 3000)
    store_scale_figures(report, sizes=(20_000, 200_000) if quick else (20_000, 200_000, 2_000_000))
    capture_figures(report, capture_course, games=5 if quick else 20)
    return report
