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

from dataclasses import dataclass, field
from typing import Any

from pacsim.engine import GameState, load_layout, play_game

LAYOUTS = ("tinyGhostMaze", "smallClassic", "wideClassic", "trapMaze", "pincerMaze")
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


def game_positions(count: int, seed: int = 7, layouts: tuple[str, ...] = LAYOUTS,
                   turn: int | None = 0) -> list[GameState]:
    """About ``count`` positions from seeded games, every position of each
    game whose mover is ``turn`` (``None``: any mover), spread over ``layouts``."""
    from pacsim.agents import make_ghost, make_pacman

    positions: list[GameState] = []
    game = 0
    while len(positions) < count:
        layout = load_layout(layouts[game % len(layouts)])
        pacman = make_pacman("greedy" if game % 2 else "random")
        agents: list[Any] = [pacman] + [make_ghost("random") for _ in layout.ghost_starts]

        def keep(state: GameState, action: str | None) -> None:
            if not state.is_terminal and (turn is None or state.turn == turn) and len(positions) < count:
                positions.append(state)

        play_game(layout, agents, seed=seed + game, max_moves=150, on_state=keep)
        game += 1
    return positions


def compare_searches(positions: list[GameState], depth: int = 2, specs: tuple[str, ...] = SPECS,
                     root_values: bool = False) -> Agreement:
    """The kernel against the Python search on every position and spec."""
    from pacsim.agents import make_pacman

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
    from pacsim.agents import make_ghost

    python: Any = make_ghost(f"adversarial:depth={depth},engine=python")
    fast: Any = make_ghost(f"adversarial:depth={depth},engine=fast")
    report = Agreement(positions=len(positions))
    for index, state in enumerate(positions):
        report.searches += 1
        expected, found = python.distribution(state), fast.distribution(state)
        if expected != found:
            report.mismatches.append(f"adversarial position {index}: {expected!r} != {found!r}")
    return report
