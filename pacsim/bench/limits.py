"""How soon the kernel stops: after a move time limit, a Ctrl-C, a time budget."""

from __future__ import annotations

import os
import signal
import statistics
import threading
import time
from typing import Any

from pacsim.agents import make_pacman
from pacsim.bench.positions import game_positions
from pacsim.bench.report import Report
from pacsim.engine import GameState, initial_state, load_layout
from pacsim.engine.deadline import AgentTimeout, call_with_deadline
from pacsim.errors import PacsimError
from pacsim.fast import available

DEEP_KERNEL_SEARCH = "expectimax:depth=12,eval=careful,backend=fast"
"""A kernel search that only a limit ends (hours on wideClassic)."""


def fast_limits(report: Report, trials: int, budget_moves: int, checked: int) -> None:
    """How soon the kernel stops: after the move time limit (``trials``
    searches under 0.2 s), after a Ctrl-C (``trials`` SIGINTs 0.1 s into a
    search) and with ``time=0.05`` (``budget_moves`` positions from games,
    the deepest finished iteration of the first ``checked`` compared with
    Python's search at that depth).  Each as median and maximum seconds past the limit."""
    if available() is not None:
        return
    state = load_layout_state("wideClassic")
    late = [_time_limit_overrun(state, 0.2) for _ in range(trials)]
    _add_lateness(report, "move time limit 0.2 s", late)
    if threading.current_thread() is threading.main_thread() and hasattr(signal, "SIGINT"):
        _add_lateness(report, "Ctrl-C", [_interrupt_delay(state, 0.1) for _ in range(trials)])
    times, mismatches = _time_budget_moves(budget_moves, checked)
    _add_lateness(report, "time=0.05 budget", [seconds - 0.05 for seconds in times])
    report.add("fast path limits", "time=0.05 moves over 0.1 s", sum(seconds > 0.1 for seconds in times), "moves",
               f"of {len(times)} moves")
    report.add("fast path agreement", "time=0.05, deepest iteration against Python: disagreements", len(mismatches),
               "searches", f"{min(checked, len(times))} searches; want 0" + (f"; first: {mismatches[0]}" if mismatches else ""))


def load_layout_state(name: str) -> GameState:
    return initial_state(load_layout(name))


def _add_lateness(report: Report, label: str, late: list[float]) -> None:
    ordered = sorted(late)
    report.add("fast path limits", f"{label}: median seconds late", statistics.median(ordered), "s",
               f"{len(ordered)} trials; 90th percentile {ordered[int(0.9 * (len(ordered) - 1))]:.4f} s")
    report.add("fast path limits", f"{label}: most seconds late", ordered[-1], "s", "want under 0.1 s")


def _time_limit_overrun(state: GameState, limit: float) -> float:
    agent = make_pacman(DEEP_KERNEL_SEARCH)
    started = time.perf_counter()
    try:
        call_with_deadline(lambda: agent.get_action(state), limit)
    except AgentTimeout:
        return time.perf_counter() - started - limit
    raise PacsimError("a depth-12 kernel search finished under the time limit")


def _interrupt_delay(state: GameState, after: float) -> float:
    """Seconds from the moment a SIGINT is due, ``after`` seconds into a deep
    kernel search, to its KeyboardInterrupt.  The sending thread must first
    wake and take the GIL, so this is an upper bound."""
    agent: Any = make_pacman(DEEP_KERNEL_SEARCH)
    timer = threading.Timer(after, os.kill, (os.getpid(), signal.SIGINT))
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    due = time.perf_counter() + after
    try:
        timer.start()
        agent.analyze(state, root_values=False)
    except KeyboardInterrupt:
        return time.perf_counter() - due
    finally:
        timer.join()
        signal.signal(signal.SIGINT, previous)
    raise PacsimError("a depth-12 kernel search finished before the interrupt")


def _time_budget_moves(count: int, checked: int) -> tuple[list[float], list[str]]:
    """Wall seconds of ``time=0.05`` kernel moves on ``count`` positions from
    games, and where the first ``checked`` results are not Python's
    fixed-depth search at their depth (about a second each)."""
    timed: Any = make_pacman("expectimax:depth=12,eval=careful,time=0.05,backend=fast")
    times, mismatches = [], []
    for index, state in enumerate(game_positions(count, seed=77, layouts=("wideClassic", "smallClassic"))):
        started = time.perf_counter()
        result = timed.analyze(state, root_values=False)
        times.append(time.perf_counter() - started)
        if index >= checked:
            continue
        rounds = result.depth // state.num_agents
        python: Any = make_pacman(f"expectimax:depth={rounds},eval=careful,backend=python")
        expected = python.analyze(state, root_values=False)
        if (result.value, result.action, result.stats.generated) != (expected.value, expected.action, expected.stats.generated):
            mismatches.append(f"position {index} at depth {rounds}: {result.value!r} != {expected.value!r}")
    return times, mismatches
