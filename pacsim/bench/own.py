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

from pacsim.bench.agreement import MCTS_COUNTS, MCTS_FIELDS, Agreement, result_difference, untimed
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
GAME_PACMAN = "expectimax:depth=2,eval=careful"
"""The Pacman of the own ghost's games (the kernel plays a game only with a kernel Pacman).  It does not
model the ghost: the loop is copied around the ghost alone (a Pacman modelling it doubles the compile; the
model's searches are the figures before the games')."""


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
MODEL_SPECS = (
    "expectimax:depth={depth},model={ghost}",
    "expectimax:depth={depth},model={ghost},trust=0.6,eval=careful",
    "expectiminimax:depth={depth},model={ghost},slip=0.2",
)
"""Searches modelling the example ghost (the plain search's copy around its policy)."""
AGREEMENT_SPECS = ("expectimax:depth={depth},model={ghost},eval={evaluation}", *MODEL_SPECS)
"""Searches with both example functions at once (an own evaluation beside an own model), and the model alone."""
STAR_SPECS = tuple(
    f"{kind}:depth={{depth}},eval={{evaluation}},algorithm={algorithm}{extra}"
    for kind, algorithm, extra in (
        ("expectimax", "star2", ""), ("expectimax", "star1", ""),
        ("expectimax", "star2", ",table=10000"), ("expectiminimax", "star1", ",kinds=MC,table=300"),
        ("expectimax", "star2", ",model=directional,trust=0.6,slip=0.2,table=128"),
        ("minimax", "alphabeta", ",table=500"),
        ("expectimax", "expectimax", ",model=adversarial"), ("expectimax", "star2", ",model=adversarial,table=1000"),
    )
)
"""The example evaluation in the kernel's copy of the star search (its bounds at every chance node), with
transposition tables and the adversarial model."""
STAR_MAZES = ("tinyGhostMaze", "smallClassic", "trapMaze",
              "generated:w=11,h=9,food=10,capsules=2,ghosts=2,loops=0.5,seed=4")
AGREEMENT_GAMES = (
    ("expectimax:depth=1,model={ghost}", ("{ghost}", "{ghost}")),
    ("expectimax:depth=1,model={ghost},trust=0.7", ("{ghost}", "adversarial")),
    ("expectimax:depth=1,eval=careful", ("{ghost}",)),
    ("expectimax:depth=1,eval=careful", ("{ghost}", "directional")),
    ("alphabeta:depth=1,eval=careful,ties=random", ("random", "{ghost}")),
    ("expectimax:depth=1,eval={evaluation}", ("random", "random")),
    ("expectimax:depth=1,eval={evaluation}", ("directional", "directional")),
    ("expectimax:depth=1,eval={evaluation}", ("adversarial", "adversarial")),
)
"""(Pacman, ghosts): games of a Pacman modelling the example ghost it plays (the kernel's whole-game
loop copied around the ghost and the Pacman's search around its model), of one that does not model it,
the ghost alone or beside a built-in one (the loop copied around the ghost only), and of a Pacman with
the example evaluation against built-in ghosts (copied around the evaluation)."""
MCTS_SPECS = tuple(f"mcts:iterations=150,ghosts={ghosts},eval={{evaluation}},rollout_depth={rollout_depth}"
                   for ghosts in ("chance", "min") for rollout_depth in (0, 6))
"""The example evaluation in the kernel's copy of MCTS, at the leaves and after rollouts, against chance and
minimizing ghosts."""
REFUSED_GAMES = (("expectimax:depth=1", "{careless}"), ("expectimax:depth=1,model={careless}", "random"))
"""(Pacman, ghost): games in which the example ``careless`` ghost's distribution goes bad (its move, or the
model of a Pacman's search): the kernel refuses the game, Python ends it with an error naming the policy."""
CARELESS = "examples/kernel_ghost.py:careless"


def own_agreement(report: Report, positions: int, games: int) -> None:
    """Users' functions in the agreement group, the kernel against Python, value for value and node count
    for node count: each of :data:`AGREEMENT_SPECS` on ``positions`` positions from seeded games at depth 2
    with every root value; :data:`STAR_SPECS` on as many positions of :data:`STAR_MAZES` at depth 1 and
    on a third of them at depth 2, and their tables along a game; :data:`MCTS_SPECS` on half as many; each
    of :data:`AGREEMENT_GAMES` in ``games`` games (seeds 3, 4, ...); :data:`REFUSED_GAMES`.  Each compiles a
    copy of the kernel (3-15 s), which is why they are checked here and not by the test suite; it keeps
    one, the plain search's around an own evaluation (the copy the README's example compiles), and checks
    these comparisons with Python standing in for the kernel."""
    if available() is not None:
        return  # own_figures says why
    from pacsim.bench.agreement import compare_searches
    from pacsim.bench.positions import game_positions

    functions = {"evaluation": shipped_spec(OWN_EVALUATION), "ghost": shipped_spec(OWN_GHOST)}
    specs = tuple(spec.format(depth="{depth}", **functions) for spec in AGREEMENT_SPECS)
    star_positions = game_positions(positions, seed=21, layouts=STAR_MAZES)
    checks = [("users' functions: searches", compare_searches(game_positions(positions), depth=2, specs=specs, root_values=True)),
              ("users' functions: star searches", compare_own_star(star_positions, functions["evaluation"])),
              ("users' functions: star tables along a game", compare_own_tables(star_positions[:10], functions["evaluation"])),
              ("users' functions: MCTS", compare_own_mcts(star_positions[::2], functions["evaluation"])),
              ("users' functions: whole games", compare_own_games(functions, games)),
              ("users' functions: a bad distribution's games", compare_refused_games(shipped_spec(CARELESS)))]
    for label, agreement in checks:
        unit = "games" if label.endswith("games") else "searches"
        report.add(AGREEMENT_GROUP, f"{label}: disagreements", len(agreement.mismatches), unit,
                   f"{agreement.searches} {unit}, the kernel against Python; want 0"
                   + (f"; first: {agreement.mismatches[0]}" if agreement.mismatches else ""))


def compare_own_star(positions: list[Any], evaluation: str) -> Agreement:
    """:data:`STAR_SPECS` with ``evaluation``: every position at depth 1, every third at depth 2 with root values."""
    from pacsim.bench.agreement import compare_searches

    specs = tuple(spec.replace("{evaluation}", evaluation) for spec in STAR_SPECS)
    shallow = compare_searches(positions, depth=1, specs=specs)
    deep = compare_searches(positions[::3], depth=2, specs=specs, root_values=True)
    return Agreement(positions=len(positions), searches=shallow.searches + deep.searches,
                     mismatches=shallow.mismatches + deep.mismatches)


def compare_own_tables(positions: list[Any], evaluation: str) -> Agreement:
    """Each table spec of :data:`STAR_SPECS` at depth 3, one agent per backend searching ``positions`` in order
    (a small table evicts): the same results, and the tables' lengths and counters equal after each search."""
    from pacsim.agents import make_pacman

    agreement = Agreement(positions=len(positions))
    for template in (spec for spec in STAR_SPECS if "table=" in spec):
        spec = template.replace("{evaluation}", evaluation).format(depth=3)
        fast: Any = make_pacman(f"{spec},backend=fast")
        python: Any = make_pacman(f"{spec},backend=python")
        for index, state in enumerate(positions):
            agreement.searches += 1
            difference = result_difference(python.analyze(state, root_values=False), fast.analyze(state, root_values=False))
            kernel_table, python_table = fast.kernel_table.get(), python.table
            counters = [(len(table), table.hits, table.misses, table.stores, table.evictions)
                        for table in (python_table, kernel_table)]
            if difference or counters[0] != counters[1]:
                agreement.mismatches.append(f"{spec} position {index}: {difference or f'table {counters[0]} != {counters[1]}'}")
    return agreement


def compare_own_mcts(positions: list[Any], evaluation: str) -> Agreement:
    """Each of :data:`MCTS_SPECS` with ``evaluation`` on ``positions`` (the seed: the position's index): the
    kernel (``backend=fast``: the kernel or an error) grows Python's tree, its value, move, moves' values and
    visits, and every count equal."""
    from pacsim.agents import make_pacman

    agreement = Agreement(positions=len(positions))
    for template in MCTS_SPECS:
        spec = template.replace("{evaluation}", evaluation)
        fast: Any = make_pacman(f"{spec},backend=fast")
        python: Any = make_pacman(f"{spec},backend=python")
        for index, state in enumerate(positions):
            agreement.searches += 1
            difference = result_difference(python.analyze(state, seed=index), fast.analyze(state, seed=index),
                                           MCTS_FIELDS, MCTS_COUNTS)
            if difference:
                agreement.mismatches.append(f"{spec} position {index}: {difference}")
    return agreement


def compare_own_games(functions: dict[str, str], games: int) -> Agreement:
    """Each of :data:`AGREEMENT_GAMES` with ``functions`` (``{ghost}``, ``{evaluation}``), played
    by the kernel and by Python over ``games`` seeds on smallClassic: the same records, clock and backend
    apart (:func:`~pacsim.bench.agreement.untimed`)."""
    from pacsim.agents import make_ghost, make_pacman
    from pacsim.agents.whole_game import play_in_kernel
    from pacsim.engine import load_layout, play_game
    from pacsim.engine.stats import FAST

    layout = load_layout(GAME_LAYOUT)
    agreement = Agreement()
    for template, ghost_specs in AGREEMENT_GAMES:
        pacman = template.format(**functions)
        ghosts = [spec.format(**functions) for spec in ghost_specs]
        python_ghosts = [f"{spec}:backend=python" if spec in (functions["ghost"], "adversarial") else spec for spec in ghosts]
        for seed in range(3, 3 + games):
            kernel = play_in_kernel(layout, [make_pacman(pacman), *map(make_ghost, ghosts)], seed=seed, max_moves=60)
            python = play_game(layout, [make_pacman(f"{pacman},backend=python"), *map(make_ghost, python_ghosts)],
                               seed=seed, max_moves=60)
            agreement.searches += 1
            agreement.positions += python.moves
            if kernel is None or {stats.backend for stats in kernel.search_stats} != {FAST}:
                agreement.mismatches.append(f"{template} against {ghost_specs}, seed {seed}: not played by the kernel")
            elif untimed(kernel) != untimed(python):
                agreement.mismatches.append(f"{template} against {ghost_specs}, seed {seed}: a different game")
    return agreement


def compare_refused_games(careless: str) -> Agreement:
    """Each of :data:`REFUSED_GAMES` with ``careless`` on smallClassic, seed 2: the kernel plays its first
    move (the distribution is sound while the score is below 20) but refuses the whole game, and Python's
    game ends with an error naming the policy."""
    from pacsim.agents.whole_game import play_in_kernel
    from pacsim.engine import load_layout, play_game

    layout = load_layout(GAME_LAYOUT)
    agreement = Agreement()
    named = f"ghost policy {careless.rpartition(':')[2]}() gave probabilities summing to 0.6"
    for template, ghost_template in REFUSED_GAMES:
        pacman, ghost = template.format(careless=careless), ghost_template.format(careless=careless)
        python = play_game(layout, _agents(f"{pacman},backend=python", ghost), seed=2, max_moves=150)
        agreement.searches += 1
        if play_in_kernel(layout, _agents(pacman, ghost), seed=2, max_moves=1) is None:
            agreement.mismatches.append(f"{template}: the kernel refused a sound first move")
        elif play_in_kernel(layout, _agents(pacman, ghost), seed=2, max_moves=150) is not None:
            agreement.mismatches.append(f"{template}: the kernel played past the bad distribution")
        elif python.error is None or named not in python.error:
            agreement.mismatches.append(f"{template}: Python's game ended {python.error or 'without an error'}")
    return agreement


def _agents(pacman: str, ghost: str) -> list[Any]:
    """A Pacman, ``ghost`` and a random ghost."""
    from pacsim.agents import make_ghost, make_pacman

    return [make_pacman(pacman), make_ghost(ghost), make_ghost("random")]


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
