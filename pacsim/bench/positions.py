"""The benchmark's fixed positions, drawn from seeded games by
:mod:`pacsim.agents.positions` (the sampler ``pacsim probcut`` fits on too):
the same call gives the same positions, so every run searches the same trees.
"""

from __future__ import annotations

from pacsim.agents.positions import game_states, pacman_to_move
from pacsim.engine import GameState

AGREEMENT_LAYOUTS = ("tinyGhostMaze", "smallClassic", "wideClassic", "trapMaze", "pincerMaze")
"""The shipped mazes the agreement check draws its positions from."""


def recorded_positions(layout_name: str = "wideClassic", count: int = 5, seed: int = 2026) -> list[GameState]:
    """The benchmark's fixed positions: Pacman to move in a seeded
    greedy-vs-directional game, with no ghost within 4 steps (so the trees
    are not cut short by a death), every eighth from the tenth on: ghosts
    out of their house, food partly eaten."""
    states = game_states(layout_name, "greedy", "directional", seed, 200, num_ghosts=2,
                         keep=lambda state: pacman_to_move(state) and _ghosts_away(state, 4))
    picked = states[10::8][:count]
    return picked or states[:count]


def _ghosts_away(state: GameState, distance: int) -> bool:
    from_pacman = state.layout.distances_from(state.pacman)
    return all(from_pacman[cell] >= distance for cell in state.ghosts)


def game_positions(count: int, seed: int = 7, layouts: tuple[str, ...] = AGREEMENT_LAYOUTS,
                   turn: int | None = 0) -> list[GameState]:
    """About ``count`` positions from seeded games (a random and a greedy
    Pacman by turns, against random ghosts), every position of each game
    whose mover is ``turn`` (``None``: any mover), spread over ``layouts``."""
    positions: list[GameState] = []
    game = 0
    while len(positions) < count:
        positions += game_states(
            layouts[game % len(layouts)], "greedy" if game % 2 else "random", "random", seed + game, 150,
            keep=lambda state: not state.is_terminal and (turn is None or state.turn == turn))
        game += 1
    return positions[:count]
