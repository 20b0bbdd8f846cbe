"""Users' own kernel functions (:mod:`pacsim.fast.view`): the kernel beside
Python on the same function, with the same answers.

The evaluation is the shipped example ``examples/kernel_eval.py:hungry``,
the ghost ``examples/kernel_ghost.py:cutter``.  The positions are searched
by each backend in 3 passes, the fastest counting; the figures are nodes/s (the kernel's first search,
which compiles it, apart: its seconds are a figure of their own) and their
ratio, target 20x, with whether every value, move and node count was
identical.  The ghost is measured twice: as the chance model of an
expectimax Pacman (called at every chance node), and playing whole games
against a search Pacman (each game played by the kernel and by Python).
"""

from __future__ import annotations

import time
from typing import Any

from pacsim.bench.agreement import Agreement, result_difference
from pacsim.bench.positions import recorded_positions
from pacsim.bench.report import Report
from pacsim.bench.search import search_pacman
from pacsim.fast import available
from pacsim.shipped import shipped_path

OWN_EVALUATION = "examples/kernel_eval.py:hungry"
OWN_GHOST = "examples/kernel_ghost.py:cutter"
OWN_TARGET = 20.0
"""Kernel over Python speed wanted for a user's evaluation or ghost (issue 28)."""
GROUP = "own"
REPEATS = 3
"""Passes over the positions by each backend; the fastest counts."""
GAME_LAYOUT = "smallClassic"
GAME_PACMAN = "expectimax:depth=2,eval=careful,model={ghost}"
"""The Pacman of the own ghost's games, modelling it (the kernel plays a game only with a kernel Pacman)."""


def shipped_spec(example: str) -> str:
    """``examples/file.py:function`` with the file's absolute path."""
    file, _, function = example.rpartition(":")
    return f"{shipped_path(file).resolve()}:{function}"


def own_figures(report: Report, depth: int = 4, count: int = 5, algorithm: str = "expectimax") -> None:
    """The ``own`` group: ``algorithm`` at ``depth`` with the example
    evaluation, over ``count`` positions of wideClassic (the example ghost:
    :func:`own_ghost_figures`)."""
    reason = available()
    if reason is not None:
        report.skip(f"{GROUP}: {reason}")
        return
    spec = f"expectimax:depth={depth},eval={shipped_spec(OWN_EVALUATION)},algorithm={algorithm}"
    function = OWN_EVALUATION.rpartition(":")[2]
    _compare_searches(report, spec, f"{function} depth {depth} {algorithm}", function, count)


AGREEMENT_GROUP = "fast path agreement"
"""The agreement group (:func:`pacsim.bench.agreement.fast_agreement`), where :func:`own_agreement` reports."""
AGREEMENT_SPECS = ("expectimax:depth={depth},model={ghost},eval={evaluation}",)
"""Searches with both example functions at once: an own evaluation beside an own model."""
AGREEMENT_GAMES = (
    ("expectimax:depth=1,eval=careful", ("{ghost}",)),
    ("expectimax:depth=1,eval=careful", ("{ghost}", "directional")),
    ("alphabeta:depth=1,eval=careful,ties=random", ("random", "{ghost}")),
)
"""(Pacman, ghosts): games of a Pacman that does not model the example ghost, which plays
alone or beside a built-in one (the kernel's whole-game loop copied around the ghost only)."""


def own_agreement(report: Report, positions: int, games: int) -> None:
    """Users' functions in the agreement group: each of :data:`AGREEMENT_SPECS`
    on ``positions`` positions from seeded games at depth 2 with every root
    value, and each of :data:`AGREEMENT_GAMES` in ``games`` games (seeds 3,
    4, ...), the kernel against Python, value for value and node count for
    node count.  Each compiles a copy of the kernel (5-10 s), which is why
    they are checked here and not by the test suite; tests/test_own_ghost.py
    keeps one of each kind (an own model, an own ghost in whole games)."""
    if available() is not None:
        return  # own_figures says why
    from pacsim.bench.agreement import compare_searches
    from pacsim.bench.positions import game_positions

    functions = {"evaluation": shipped_spec(OWN_EVALUATION), "ghost": shipped_spec(OWN_GHOST)}
    specs = tuple(spec.format(depth="{depth}", **functions) for spec in AGREEMENT_SPECS)
    checks = [("users' functions: searches", compare_searches(game_positions(positions), depth=2, specs=specs, root_values=True)),
              ("users' functions: whole games", compare_own_games(functions["ghost"], games))]
    for label, agreement in checks:
        unit = "games" if label.endswith("games") else "searches"
        report.add(AGREEMENT_GROUP, f"{label}: disagreements", len(agreement.mismatches), unit,
                   f"{agreement.searches} {unit}, the kernel against Python; want 0"
                   + (f"; first: {agreement.mismatches[0]}" if agreement.mismatches else ""))


def compare_own_games(ghost: str, games: int) -> Agreement:
    """Each of :data:`AGREEMENT_GAMES` with ``ghost`` for ``{ghost}``, played
    by the kernel and by Python over ``games`` seeds on smallClassic:
    the same moves, score, outcome and every search's node counts and value."""
    from pacsim.agents import make_ghost, make_pacman
    from pacsim.agents.whole_game import play_in_kernel
    from pacsim.engine import load_layout, play_game
    from pacsim.engine.stats import FAST

    layout = load_layout(GAME_LAYOUT)
    agreement = Agreement()
    for pacman, ghost_specs in AGREEMENT_GAMES:
        ghosts = [spec.format(ghost=ghost) for spec in ghost_specs]
        python_ghosts = [f"{spec}:backend=python" if spec == ghost else spec for spec in ghosts]
        for seed in range(3, 3 + games):
            kernel = play_in_kernel(layout, [make_pacman(pacman), *map(make_ghost, ghosts)], seed=seed, max_moves=60)
            python = play_game(layout, [make_pacman(f"{pacman},backend=python"), *map(make_ghost, python_ghosts)],
                               seed=seed, max_moves=60)
            agreement.searches += 1
            agreement.positions += python.moves
            if kernel is None or {stats.backend for stats in kernel.search_stats} != {FAST}:
                agreement.mismatches.append(f"{pacman} against {ghost_specs}, seed {seed}: not played by the kernel")
            elif _game_line(kernel) != _game_line(python):
                agreement.mismatches.append(f"{pacman} against {ghost_specs}, seed {seed}: a different game")
    return agreement


def _game_line(record: Any) -> tuple[Any, ...]:
    """What the kernel's game must share with Python's: moves, score, outcome, and each search's counts and value."""
    return (record.actions, record.score, record.outcome, record.error,
            [(stats.generated, stats.evaluated, stats.cutoffs, stats.value) for stats in record.search_stats])


def own_ghost_figures(report: Report, depth: int = 4, count: int = 5, games: int = 3) -> None:
    """The example ghost: as an expectimax Pacman's model at ``depth`` over
    ``count`` positions, and in ``games`` whole games (seeds 1, 2, ...)."""
    reason = available()
    if reason is not None:
        report.skip(f"{GROUP}: {reason}")
        return
    function = OWN_GHOST.rpartition(":")[2]
    spec = f"expectimax:depth={depth},eval=careful,model={shipped_spec(OWN_GHOST)}"
    _compare_searches(report, spec, f"{function} model depth {depth} expectimax", f"{function} model", count)
    _compare_games(report, function, games)


def _compare_searches(report: Report, spec: str, label: str, compiled: str, count: int) -> None:
    """Search ``count`` positions with ``spec`` in Python and in the kernel."""
    python, fast = search_pacman(f"{spec},backend=python"), search_pacman(f"{spec},backend=fast")
    positions = recorded_positions(count=count)
    started = time.perf_counter()
    fast.analyze(positions[0])  # compiles the search for this function (not cached: see pacsim.fast.own)
    report.add(GROUP, f"{compiled} compile", time.perf_counter() - started, "s", "the first search, once per process")
    seconds = {"python": float("inf"), "fast": float("inf")}
    results: dict[str, list[Any]] = {}
    for backend, agent in (("python", python), ("fast", fast)):
        for _ in range(REPEATS):  # the fastest pass: a kernel pass takes a millisecond, which one hiccup doubles
            started = time.perf_counter()
            results[backend] = [agent.analyze(state) for state in positions]
            seconds[backend] = min(seconds[backend], time.perf_counter() - started)
    nodes = sum(result.stats.generated for result in results["python"])
    differences = [f"position {index}: {difference}" for index, (python_result, fast_result)
                   in enumerate(zip(results["python"], results["fast"]))
                   if (difference := result_difference(python_result, fast_result))]
    for backend in ("python", "fast"):
        report.add(GROUP, f"{label} {backend} nodes/s", nodes / seconds[backend], "nodes/s",
                   f"{nodes} nodes over {count} positions of wideClassic")
    _ratio(report, label, seconds, differences, "identical values, moves and node counts")


def _compare_games(report: Report, function: str, games: int) -> None:
    """``games`` games of :data:`GAME_PACMAN` against two example ghosts,
    played by the kernel and by Python (the kernel's first game, which
    compiles its loop, apart)."""
    from pacsim.agents import make_ghost, make_pacman
    from pacsim.agents.whole_game import play_in_kernel
    from pacsim.engine import load_layout, play_game

    layout = load_layout(GAME_LAYOUT)
    ghost = shipped_spec(OWN_GHOST)

    def agents(backend: str) -> list[Any]:
        return [make_pacman(f"{GAME_PACMAN.format(ghost=ghost)},backend={backend}"), make_ghost(ghost), make_ghost(ghost)]

    started = time.perf_counter()
    play_in_kernel(layout, agents("fast"), seed=0, max_moves=5)
    report.add(GROUP, f"{function} games compile", time.perf_counter() - started, "s", "the first game, once per process")
    seconds = {"python": 0.0, "fast": 0.0}
    differences, moves = [], 0
    for seed in range(1, games + 1):
        started = time.perf_counter()
        python = play_game(layout, agents("python"), seed=seed, max_moves=200)
        seconds["python"] += time.perf_counter() - started
        started = time.perf_counter()
        kernel = play_in_kernel(layout, agents("fast"), seed=seed, max_moves=200)
        seconds["fast"] += time.perf_counter() - started
        moves += python.moves
        if kernel is None or (kernel.actions, kernel.score, kernel.outcome) != (python.actions, python.score, python.outcome):
            differences.append(f"seed {seed}: {'not played by the kernel' if kernel is None else 'a different game'}")
        elif [stats.value for stats in kernel.search_stats] != [stats.value for stats in python.search_stats]:
            differences.append(f"seed {seed}: different search values")
    label = f"{function} games"
    for backend in ("python", "fast"):
        report.add(GROUP, f"{label} {backend} moves/s", moves / seconds[backend], "moves/s",
                   f"{games} games of {GAME_PACMAN.format(ghost=OWN_GHOST)} against two {function} ghosts on {GAME_LAYOUT}")
    _ratio(report, label, seconds, differences, "identical games (actions, score, outcome, search values)")


def _ratio(report: Report, label: str, seconds: dict[str, float], differences: list[str], same: str) -> None:
    ratio = seconds["python"] / seconds["fast"]
    verdict = same if not differences else f"DIFFERENT: {differences[0]}"
    report.add(GROUP, f"{label} fast/python", ratio, "ratio",
               f"target {OWN_TARGET:.0f}x: {'met' if ratio >= OWN_TARGET else 'NOT met'}; {verdict}")
    report.add(GROUP, f"{label} mismatches", len(differences), "positions" if "games" not in label else "games",
               "kernel against Python")


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
