"""The agreement check: the kernel against the Python search, position by position.

Positions come from seeded games (a random and a greedy Pacman against
random ghosts on the shipped mazes), so they cover what games reach:
ghosts in corridors and junctions, scared ghosts, nearly finished boards.
For every position and configuration, the search Pacman is asked twice,
``engine=python`` and ``engine=fast``; the value, move, per-move values and
node counts must be equal (values bit for bit).  The adversarial ghost's
search is compared the same way on the ghosts' turns.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from pacsim.agents import make_ghost, make_pacman
from pacsim.bench.positions import game_positions
from pacsim.bench.report import Report
from pacsim.engine import GameState
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
        python: Any = make_pacman(f"{spec},engine=python")
        fast: Any = make_pacman(f"{spec},engine=fast")
        for index, state in enumerate(positions):
            expected = python.analyze(state, root_values=root_values)
            found = fast.analyze(state, root_values=root_values)
            report.searches += 1
            difference = _difference(expected, found)
            if difference:
                report.mismatches.append(f"{spec} position {index}: {difference}")
    return report


def _difference(expected, found) -> str:
    for name in ("value", "action", "action_values"):
        if getattr(expected, name) != getattr(found, name):
            return f"{name} {getattr(expected, name)!r} != {getattr(found, name)!r}"
    if type(expected.value) is not type(found.value):  # 3 == 3.0, yet a stored row would differ
        return f"value type {type(expected.value).__name__} != {type(found.value).__name__}"
    for name in ("generated", "evaluated", "cutoffs", "max_depth"):
        if getattr(expected.stats, name) != getattr(found.stats, name):
            return f"{name} {getattr(expected.stats, name)} != {getattr(found.stats, name)}"
    return ""


def compare_chase(positions: list[GameState], depth: int = 2) -> Agreement:
    """The adversarial ghost's move distribution, kernel against Python, on
    positions where a ghost is to move."""
    python: Any = make_ghost(f"adversarial:depth={depth},engine=python")
    fast: Any = make_ghost(f"adversarial:depth={depth},engine=fast")
    report = Agreement(positions=len(positions))
    for index, state in enumerate(positions):
        report.searches += 1
        expected, found = python.distribution(state), fast.distribution(state)
        if expected != found:
            report.mismatches.append(f"adversarial position {index}: {expected!r} != {found!r}")
    return report


def fast_agreement(report: Report, positions: int, deep_positions: int, chase_positions: int) -> None:
    """The agreement check: the kernel against the Python search on
    ``positions`` positions from seeded games (every supported
    configuration, depth 1), ``deep_positions`` at depth 2 with every root
    value, and the adversarial ghost on ``chase_positions`` ghost turns.
    Disagreements are figures (want 0) and the first few are noted."""
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
