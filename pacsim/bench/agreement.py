"""The agreement check: the kernel against the Python search, position by position.

Positions come from seeded games (a random and a greedy Pacman against
random ghosts on the shipped mazes), so they cover what games reach:
ghosts in corridors and junctions, scared ghosts, nearly finished boards.
For every position and configuration, the search Pacman is asked twice,
``backend=python`` and ``backend=fast``; the value, move, per-move values and
node counts must be equal (values bit for bit).  The adversarial ghost's
search is compared the same way on the ghosts' turns.  Whole games played
in the kernel are compared with the Python game loop's (every agent
``backend=python``), record for record.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field, replace
from typing import Any

from pacsim.agents import make_ghost, make_pacman
from pacsim.agents.whole_game import play_in_kernel
from pacsim.bench.positions import game_positions
from pacsim.bench.report import Report
from pacsim.engine import GameRecord, GameState, Layout, load_layout, play_game
from pacsim.engine.starts import draw_start, with_pacman_start
from pacsim.engine.stats import PYTHON
from pacsim.fast import available

SPECS = tuple(
    f"{kind}:depth={{depth}},eval={evaluation},algorithm={algorithm}{model}"
    for evaluation in ("score", "careful")
    for kind, algorithm, model in (
        ("minimax", "minimax", ""), ("minimax", "alphabeta", ""), ("expectimax", "expectimax", ""),
        ("expectimax", "expectimax", ",model=random,trust=0.7"), ("expectimax", "expectimax", ",model=directional"),
        ("expectiminimax", "expectiminimax", ""), ("expectimax", "expectimax", ",slip=0.1"),
        ("expectiminimax", "expectiminimax", ",slip=0.25,model=directional,trust=0.5"),
        ("expectimax", "star2", ",table=10000"), ("expectiminimax", "star1", ",kinds=MC,model=directional"),
        ("minimax", "alphabeta", ",table=500"),
    )
)
"""Every configuration the kernel covers (``{depth}`` is filled in)."""


@dataclass
class Agreement:
    """What one check compared and where it disagreed."""

    positions: int = 0
    searches: int = 0
    """Searches compared (one per position and configuration)."""
    mismatches: list[str] = field(default_factory=list)

    @property
    def agrees(self) -> bool:
        return not self.mismatches


def compare_searches(positions: list[GameState], depth: int = 2, specs: tuple[str, ...] = SPECS,
                     root_values: bool = False) -> Agreement:
    """The kernel against the Python search on every position and spec."""
    report = Agreement(positions=len(positions))
    for template in specs:
        spec = template.format(depth=depth)
        python: Any = make_pacman(f"{spec},backend=python")
        fast: Any = make_pacman(f"{spec},backend=fast")
        for index, state in enumerate(positions):
            expected = python.analyze(state, root_values=root_values)
            found = fast.analyze(state, root_values=root_values)
            report.searches += 1
            difference = result_difference(expected, found)
            if difference:
                report.mismatches.append(f"{spec} position {index}: {difference}")
    return report


SEARCH_FIELDS = ("value", "action", "action_values")
SEARCH_COUNTS = ("generated", "evaluated", "cutoffs", "max_depth")
MCTS_FIELDS = (*SEARCH_FIELDS, "action_visits")
MCTS_COUNTS = ("generated", "evaluated", "max_depth", "iterations", "simulated", "tree_nodes")
"""What :func:`result_difference` compares of an MCTS result: its tree's visits, and its own counts."""


def result_difference(expected, found, fields=SEARCH_FIELDS, counts=SEARCH_COUNTS) -> str:
    """How a kernel result differs from the Python one in ``fields`` and the ``counts`` of its stats
    (empty: not at all)."""
    for name in fields:
        if getattr(expected, name) != getattr(found, name):
            return f"{name} {getattr(expected, name)!r} != {getattr(found, name)!r}"
    if type(expected.value) is not type(found.value):  # 3 == 3.0, yet a stored row would differ
        return f"value type {type(expected.value).__name__} != {type(found.value).__name__}"
    for name in counts:
        if getattr(expected.stats, name) != getattr(found.stats, name):
            return f"{name} {getattr(expected.stats, name)} != {getattr(found.stats, name)}"
    return ""


def compare_chase(positions: list[GameState], depth: int = 2) -> Agreement:
    """The adversarial ghost's move distribution, kernel against Python, on
    positions where a ghost is to move."""
    python: Any = make_ghost(f"adversarial:depth={depth},backend=python")
    fast: Any = make_ghost(f"adversarial:depth={depth},backend=fast")
    report = Agreement(positions=len(positions))
    for index, state in enumerate(positions):
        report.searches += 1
        expected, found = python.distribution(state), fast.distribution(state)
        if expected != found:
            report.mismatches.append(f"adversarial position {index}: {expected!r} != {found!r}")
    return report


WHOLE_GAME_MAZES = ("optimismHalls", "smallClassic", "tinyGhostMaze",
                    "generated:w=11,h=9,food=5,capsules=1,ghosts=2,loops=0.4,seed=3")
WHOLE_GAME_PACMEN = ("minimax:depth=1,eval=careful", "alphabeta:depth=2,eval=careful,ties=random",
                     "expectimax:depth=2,eval=careful,ties=random", "expectimax:depth=2,model=directional,trust=0.7",
                     "expectiminimax:depth=1,kinds=MC,slip=0.2,eval=careful", "alphabeta:depth=2",
                     "minimax:depth=2,eval=careful,ties=random")
WHOLE_GAME_GHOSTS = ("random", "directional:attack=0.6,flee=0.9", "adversarial:depth=1",
                     "adversarial:p=0.7,depth=1", "adversarial:p=0")


def whole_game_cases(count: int, seed: int = 20):
    """``count`` games as (maze, Pacman, ghosts, seed, random start): the
    mazes, Pacmen and ghosts above crossed (a ghost kind per ghost of a
    two-ghost maze), every third game from a random start."""
    draw = random.Random(seed)
    for game in range(count):
        maze, pacman = WHOLE_GAME_MAZES[game % len(WHOLE_GAME_MAZES)], WHOLE_GAME_PACMEN[game % len(WHOLE_GAME_PACMEN)]
        ghosts = tuple(WHOLE_GAME_GHOSTS[(game + ghost) % len(WHOLE_GAME_GHOSTS)] for ghost in range(2))
        yield maze, pacman, ghosts, draw.randrange(10_000), game % 3 == 0


def case_layout(maze: str, seed: int, random_start: bool) -> Layout:
    """The maze of a case, with Pacman on a start drawn from ``seed`` (3 steps from the ghosts) if asked."""
    layout = load_layout(maze)
    if random_start:
        layout = with_pacman_start(layout, draw_start(layout, layout.num_ghosts, seed, 3))
    return layout


def untimed(record: GameRecord) -> tuple[Any, ...]:
    """A game record's fields that depend neither on the clock nor on which
    backend searched (what its row stores, times and provenance apart)."""
    stats = [replace(move, seconds=0.0, backend=PYTHON) for move in record.search_stats]
    return (record.layout, record.seed, record.num_ghosts, record.outcome, record.score, record.moves,
            record.actions, record.error, stats)


def compare_whole_games(count: int, max_moves: int = 60) -> Agreement:
    """Games played whole by the kernel against the same games in the
    Python loop with every agent searching in Python."""
    report = Agreement()
    for index, (maze, pacman, ghosts, seed, random_start) in enumerate(whole_game_cases(count)):
        layout = case_layout(maze, seed, random_start)
        kernel = play_in_kernel(layout, [make_pacman(pacman), *map(make_ghost, ghosts)], seed, max_moves)
        python_ghosts = [make_ghost(ghost + (",backend=python" if ghost.startswith("adversarial") else ""))
                         for ghost in ghosts]
        python = play_game(layout, [make_pacman(f"{pacman},backend=python"), *python_ghosts], seed, max_moves)
        report.positions += python.moves
        report.searches += 1
        if kernel is None or untimed(kernel) != untimed(python):
            report.mismatches.append(f"game {index} ({maze}, {pacman} against {', '.join(ghosts)}, seed {seed}): "
                                     + ("not played in the kernel" if kernel is None else "records differ"))
    return report


def fast_agreement(report: Report, positions: int, deep_positions: int, chase_positions: int,
                   whole_games: int = 0) -> None:
    """The agreement check: the kernel against the Python search on
    ``positions`` positions from seeded games (every supported
    configuration, depth 1), ``deep_positions`` at depth 2 with every root
    value, the adversarial ghost on ``chase_positions`` ghost turns, and
    ``whole_games`` games played whole in the kernel against the Python loop.
    Disagreements are figures (want 0) and the first few are noted."""
    if available() is not None:
        return
    started = time.perf_counter()
    pacman_positions = game_positions(positions)
    checks: list[tuple[str, Agreement]] = [
        ("depth 1, every configuration", compare_searches(pacman_positions, depth=1)),
        ("depth 2, every root value", compare_searches(pacman_positions[:deep_positions], depth=2, root_values=True)),
        ("adversarial ghost", compare_chase(
            [state for state in game_positions(chase_positions * 2, seed=5, turn=None) if state.turn > 0][:chase_positions])),
    ]
    if whole_games:
        checks.append(("whole games", compare_whole_games(whole_games)))
    for label, agreement in checks:
        compared = (f"{agreement.searches} games ({agreement.positions} Pacman moves), records as the Python loop's"
                    if label == "whole games" else f"{agreement.searches} searches on {agreement.positions} positions from games")
        unit = "games" if label == "whole games" else "searches"
        report.add("fast path agreement", f"{label}: disagreements", len(agreement.mismatches), unit,
                   f"{compared}; want 0"
                   + (f"; first: {agreement.mismatches[0]}" if agreement.mismatches else ""))
    report.add("fast path agreement", "check time", time.perf_counter() - started, "s")
