"""``pacsim bench``: the speed and memory figures, measured in one run.

Absolute times on shared machines are noisy, so every figure that matters is
also given as a ratio measured in the same run (pruned nodes / plain nodes,
all cores / 1 worker).  Positions are fixed: they come from a seeded game,
so every run searches the same trees.

The memory of a long run is measured in a fresh interpreter, so that it is
the run's own and not what this benchmark's searches left behind.
"""

from __future__ import annotations

import gc
import json
import os
import platform
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import tracemalloc
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pacsim._version import __version__
from pacsim.agents import make_ghost, make_pacman
from pacsim.agents.search_agents import SearchPacman
from pacsim.engine import GameState, apply_move, load_layout, play_game
from pacsim.errors import PacsimError
from pacsim.shipped import shipped_experiment

BENCHED_ALGORITHMS = ("minimax", "alphabeta", "expectimax", "star1", "star2")
"""The algorithms of :data:`pacsim.search.ALGORITHMS` whose speed is measured (expectiminimax is expectimax here)."""
PLAIN = {"alphabeta": "minimax", "star1": "expectimax", "star2": "expectimax"}

THROUGHPUT_EXPERIMENT = shipped_experiment("optimism_pessimism.toml")
"""The batch-throughput workload: the lecture table (`pacsim reproduce`: depth-4 search on its maze)."""
SCALING_TARGET = 1.8
"""Games/s on all cores over games/s on one worker, wanted on 2 cores or more."""

MEMORY_RUN = {
    "name": "bench_memory", "games": 1, "seed": 1, "max_moves": 300,
    "grid": {"pacman": ["greedy"], "ghosts": ["random"], "layout": ["tinyGhostMaze"]},
}
"""A cheap game (about a millisecond), so that ten thousand of them fit in a benchmark."""


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
    skipped: list[str] = field(default_factory=list)
    """Figures that could not be measured here, and why."""

    def add(self, group: str, name: str, value: float, unit: str, note: str = "") -> None:
        self.figures.append(Figure(group, name, value, unit, note))

    def skip(self, reason: str) -> None:
        self.skipped.append(reason)

    def to_dict(self) -> dict[str, Any]:
        return {"machine": self.machine, "figures": [asdict(figure) for figure in self.figures],
                "skipped": list(self.skipped)}

    def to_text(self) -> str:
        lines = [" ".join(f"{key}={value}" for key, value in self.machine.items())]
        group = None
        for figure in self.figures:
            if figure.group != group:
                group = figure.group
                lines.append(f"\n[{group}]")
            value = f"{figure.value:,.0f}" if abs(figure.value) >= 100 else f"{figure.value:.3f}"
            lines.append(f"  {figure.name:<44} {value:>14} {figure.unit:<10} {figure.note}".rstrip())
        if self.skipped:
            lines.append("\n[skipped]")
            lines += [f"  {reason}" for reason in self.skipped]
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


def search_pacman(spec: str) -> SearchPacman:
    """A search Pacman from its spec (the figures below need its search)."""
    agent = make_pacman(spec)
    assert isinstance(agent, SearchPacman), spec
    return agent


def recorded_positions(layout_name: str = "wideClassic", count: int = 5, seed: int = 2026) -> list[GameState]:
    """Pacman-to-move positions from a seeded greedy-vs-directional game, with
    no ghost within 4 steps (so the trees are not cut short by a death),
    every eighth from the tenth on: ghosts out of their house, food partly eaten."""
    layout = load_layout(layout_name)
    states: list[GameState] = []

    def keep(state: GameState, action: str | None) -> None:
        if state.turn == 0 and not state.is_terminal and _ghosts_away(state, 4):
            states.append(state)

    agents: list[Any] = [make_pacman("greedy")] + [make_ghost("directional") for _ in range(2)]
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


def _fastest_search(agent, state: GameState, repeats: int):
    """The fastest of ``repeats`` identical searches (after the first, which
    also fills the layout's lazy distance rows), as pytest-benchmark's min:
    the least disturbed by whatever else the machine is doing."""
    agent.analyze(state, root_values=False)
    best, result = float("inf"), None
    for _ in range(repeats):
        started = time.perf_counter()
        result = agent.analyze(state, root_values=False)
        best = min(best, time.perf_counter() - started)
    return best, result


def _time_positions(agent: Any, positions: list[GameState], repeats: int) -> tuple[int, list[float]]:
    """Nodes generated over ``positions`` and the fastest time of each search."""
    nodes, times = 0, []
    for state in positions:
        seconds, result = _fastest_search(agent, state, repeats)
        times.append(seconds)
        nodes += result.stats.generated
    return nodes, times


def search_figures(report: Report, depths=(2, 3, 4), evaluations=("score", "careful"), count: int = 3,
                   repeats: int = 3) -> None:
    positions = recorded_positions(count=count)
    for evaluation in evaluations:
        for depth in depths:
            generated: dict[str, int] = {}
            for algorithm in BENCHED_ALGORITHMS:
                kind = "minimax" if algorithm in ("minimax", "alphabeta") else "expectimax"
                agent = search_pacman(f"{kind}:depth={depth},eval={evaluation},algorithm={algorithm},backend=python")
                nodes, times = _time_positions(agent, positions, repeats)
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
    for label, spec in (("plain", "expectimax:depth=4,eval=careful,backend=python"),
                        ("star2+table", "expectimax:depth=4,eval=careful,algorithm=star2,table=200000,backend=python")):
        agent = search_pacman(spec)
        times, nodes = [], 0
        for state in positions:
            started = time.perf_counter()
            result = agent.analyze(state, root_values=False)
            times.append(time.perf_counter() - started)
            nodes += result.stats.generated
        report.add("depth-4 expectimax (careful)", f"{label} median move", statistics.median(times) * 1000, "ms",
                   f"{nodes} nodes over {len(positions)} positions")


def mcts_figures(report: Report, iterations: int = 1000, count: int = 3) -> None:
    """Iterations/s and simulated (rollout) moves/s of the MCTS Pacman on
    recorded positions, for both ghost assumptions, random rollouts of the
    default depth."""
    from pacsim.agents.mcts_agent import MctsOptions, MctsPacman

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


def env_figures(report: Report, steps: int = 2000, num_envs: int = 8) -> None:
    """Environment steps/s of the Gymnasium vector form on smallClassic,
    uniform random actions (an illegal one is Stop) against random
    ghosts, observations encoded."""
    try:
        from pacsim.env import make_vector_env
    except ImportError:
        report.skip("env: gymnasium is not installed (pip install 'pacsim[env]')")
        return
    vector = make_vector_env("smallClassic", num_envs=num_envs)
    vector.reset(seed=0)
    vector.action_space.seed(0)
    started = time.perf_counter()
    for _ in range(steps // num_envs):
        vector.step(vector.action_space.sample())
    seconds = time.perf_counter() - started
    vector.close()
    done = (steps // num_envs) * num_envs
    report.add("env", f"SyncVectorEnv x{num_envs} steps/s", done / seconds, "steps/s",
               f"{done} steps, smallClassic, random ghosts, uniform random actions")


# -- batch throughput -------------------------------------------------------

def batch_throughput(report: Report, games_per_condition: int, experiment_path: Path = THROUGHPUT_EXPERIMENT,
                     cores: int | None = None) -> None:
    """Games/s of a real ``run_experiment`` (process pool, store and all) on
    one worker and on every core, and the ratio of the two.  The clock runs
    from the first submission to the last stored row, pool start included."""
    from pacsim.runner import load_experiment, run_experiment

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


# -- memory -----------------------------------------------------------------

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
    from pacsim.runner import InlineExecutor

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
    from pacsim.runner import build_experiment, run_experiment

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
    source_root = str(Path(__file__).resolve().parents[1])
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(
        filter(None, [source_root, os.environ.get("PYTHONPATH", "")]))}
    code = "import json, sys; from pacsim.benchmark import memory_probe; print(json.dumps(memory_probe(int(sys.argv[1]))))"
    finished = subprocess.run([sys.executable, "-c", code, str(games)], capture_output=True, text=True,
                              env=environment, timeout=1800)
    if finished.returncode != 0:
        last_line = (finished.stderr.strip().splitlines() or [f"exit status {finished.returncode}"])[-1]
        raise PacsimError(f"the memory probe failed: {last_line}")
    return json.loads(finished.stdout.strip().splitlines()[-1])


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


def table_figures(report: Report, bound: int = 2000, depth: int = 4, count: int = 5) -> None:
    """The transposition table keeps to its bound, and what an entry costs.

    The bound is small enough for the searches to overflow it, so the figure
    shows eviction at work.  Bytes per entry are what the table keeps alive
    (its entries and the states they key), traced with ``tracemalloc`` after
    a warm-up search has built the layout's caches."""
    spec = f"expectimax:depth={depth},eval=careful,algorithm=star2,table={bound},backend=python"
    positions = recorded_positions(count=count)
    search_pacman(spec).analyze(positions[0], root_values=False)  # warm-up: distance tables and the like
    agent = search_pacman(spec)
    table = agent.table
    assert table is not None  # the spec asks for one
    gc.collect()
    tracemalloc.start()
    try:
        before, _ = tracemalloc.get_traced_memory()
        largest = 0
        for state in positions:  # one table for every position, as within one game
            agent.analyze(state, root_values=False)
            largest = max(largest, len(table))
        agent.last_result = None
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    report.add("transposition table", "largest size / bound", largest / bound, "ratio",
               f"bound {bound}, {table.stores} stores, {table.evictions} evictions; at most 1")
    report.add("transposition table", "memory per entry", held / max(1, len(table)), "bytes",
               f"{len(table)} entries hold {held / 1024:.0f} KiB: "
               f"{held / max(1, len(table)) * 200_000 / 2**20:.0f} MB at table=200000")


# -- the fast path -----------------------------------------------------------

FAST_ALGORITHMS = ("minimax", "alphabeta", "expectimax")
FAST_TARGETS = {"score depth 4 expectimax": 20.0, "careful depth 4 expectimax": 10.0}
"""Kernel over Python nodes/s wanted (issue 14)."""


def fast_figures(report: Report, depths=(2, 3, 4), evaluations=("score", "careful"), count: int = 3,
                 repeats: int = 3, deep_count: int = 5) -> None:
    """The kernel's nodes/s beside the Python figures of :func:`search_figures`
    (same positions, same algorithms; named as their Python counterpart plus
    ``fast``), the ratio of the two, the kernel's perft rate and the median
    depth-6 expectimax move with the careful evaluation."""
    from pacsim.fast import available

    reason = available()
    if reason is not None:
        report.skip(f"fast path: {reason}")
        return
    python_rates = {figure.name: figure.value for figure in report.figures if figure.group == "search"}
    positions = recorded_positions(count=count)
    for evaluation in evaluations:
        for depth in depths:
            for algorithm in FAST_ALGORITHMS:
                kind = "minimax" if algorithm in ("minimax", "alphabeta") else "expectimax"
                agent = make_pacman(f"{kind}:depth={depth},eval={evaluation},algorithm={algorithm},backend=fast")
                nodes, times = _time_positions(agent, positions, repeats)
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


def fast_perft_rate(layout_name: str, depth: int, repeats: int = 3) -> tuple[float, int]:
    """The kernel's states/s on :func:`successor_rate`'s expansion."""
    from pacsim.fast import kernel
    from pacsim.fast.tables import layout_tables, state_row, words_for

    state = recorded_positions(layout_name, count=1)[0]
    tables = layout_tables(state.layout)
    row = state_row(state)
    best, nodes = float("inf"), 0
    for _ in range(repeats):
        started = time.perf_counter()
        nodes = kernel.perft(tables.moves, tables.ghost_starts, len(state.ghosts), words_for(state.layout), row, depth)
        best = min(best, time.perf_counter() - started)
    return nodes / best, nodes


def fast_agreement(report: Report, positions: int, deep_positions: int, chase_positions: int) -> None:
    """The agreement check: the kernel against the Python search on
    ``positions`` positions from seeded games (every supported
    configuration, depth 1), ``deep_positions`` at depth 2 with every root
    value, and the adversarial ghost on ``chase_positions`` ghost turns.
    Disagreements are figures (want 0) and the first few are noted."""
    from pacsim.agents.agreement import compare_chase, compare_searches, game_positions
    from pacsim.fast import available

    if available() is not None:
        return
    started = time.perf_counter()
    pacman_positions = game_positions(positions)
    checks = (
        ("depth 1, every configuration", compare_searches(pacman_positions, depth=1)),
        ("depth 2, every root value", compare_searches(pacman_positions[:deep_positions], depth=2, root_values=True)),
        ("adversarial ghost", compare_chase(
            [state for state in game_positions(chase_positions * 2, seed=5, turn=None) if state.turn > 0][:chase_positions])),
    )
    for label, agreement in checks:
        report.add("fast path agreement", f"{label}: disagreements", len(agreement.mismatches), "searches",
                   f"{agreement.searches} searches on {agreement.positions} positions from games; want 0"
                   + (f"; first: {agreement.mismatches[0]}" if agreement.mismatches else ""))
    report.add("fast path agreement", "check time", time.perf_counter() - started, "s")


DEEP_KERNEL_SEARCH = "expectimax:depth=12,eval=careful,backend=fast"
"""A kernel search that only a limit ends (hours on wideClassic)."""


def fast_limits(report: Report, trials: int, budget_moves: int, checked: int) -> None:
    """How soon the kernel stops: after the move time limit (``trials``
    searches under 0.2 s), after a Ctrl-C (``trials`` SIGINTs 0.1 s into a
    search) and with ``time=0.05`` (``budget_moves`` positions from games,
    the deepest finished iteration of the first ``checked`` compared with
    Python's search at that depth).  Each as median and maximum seconds past the limit."""
    from pacsim.fast import available

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
    from pacsim.engine import initial_state

    return initial_state(load_layout(name))


def _add_lateness(report: Report, label: str, late: list[float]) -> None:
    ordered = sorted(late)
    report.add("fast path limits", f"{label}: median seconds late", statistics.median(ordered), "s",
               f"{len(ordered)} trials; 90th percentile {ordered[int(0.9 * (len(ordered) - 1))]:.4f} s")
    report.add("fast path limits", f"{label}: most seconds late", ordered[-1], "s", "want under 0.1 s")


def _time_limit_overrun(state: GameState, limit: float) -> float:
    from pacsim.engine.deadline import AgentTimeout, call_with_deadline

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
    from pacsim.agents.agreement import game_positions

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


def fast_end_to_end(report: Report, games_per_condition: int, experiment_path: Path = THROUGHPUT_EXPERIMENT) -> None:
    """The lecture experiment (what ``pacsim reproduce`` runs) played on one
    worker with the fast path off and on: games/s of each and the ratio,
    target 5x.  The clock includes the worker's start (and its loading of
    the compiled kernel); the rows stored are the same either way."""
    from pacsim.agents.backend import ENVIRONMENT_SWITCH
    from pacsim.fast import available
    from pacsim.runner import load_experiment, run_experiment

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
               f"target 5x: {'met' if ratio >= 5 else 'NOT met'}")


def run(quick: bool = False) -> Report:
    report = Report(machine=machine_info())
    for name in ("smallClassic", "wideClassic"):
        rate, nodes = successor_rate(name, depth=15 if quick else 18)
        report.add("successors", f"{name} perft", rate, "states/s", f"{nodes} states")
    search_figures(report, depths=(2, 3) if quick else (2, 3, 4), count=2 if quick else 3)
    fast_figures(report, depths=(2, 3) if quick else (2, 3, 4), count=2 if quick else 3, deep_count=2 if quick else 5)
    from pacsim.fast import available

    if available() is None:
        for name in ("smallClassic", "wideClassic"):
            rate, nodes = fast_perft_rate(name, depth=15 if quick else 18)
            report.add("fast path", f"{name} perft fast", rate, "states/s", f"{nodes} states")
        fast_agreement(report, positions=1000 if quick else 10_000, deep_positions=100 if quick else 500,
                       chase_positions=200 if quick else 2000)
        fast_limits(report, trials=5 if quick else 20, budget_moves=40 if quick else 200, checked=5 if quick else 30)
        fast_end_to_end(report, games_per_condition=5 if quick else 20)
    tuned_expectimax(report, count=2 if quick else 5)
    mcts_figures(report, iterations=300 if quick else 1000, count=2 if quick else 3)
    env_figures(report, steps=1000 if quick else 5000)
    table_figures(report, count=3 if quick else 5)
    batch_throughput(report, games_per_condition=25 if quick else 100)
    memory_figures(report, peak_games=1000, long_games=1000 if quick else 10_000)
    return report
