"""Positions from seeded games: the one sampler every benchmark, check and fit uses.

A search measured or compared on a position a game reached (ghosts out of
their house, food partly eaten, scared ghosts) says more than one on a start
position.  Every game here is seeded, so the same call gives the same positions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pacsim.agents import make_ghost, make_pacman
from pacsim.engine import GameState, load_layout, play_game

AGREEMENT_LAYOUTS = ("tinyGhostMaze", "smallClassic", "wideClassic", "trapMaze", "pincerMaze")
"""The shipped mazes the agreement check draws its positions from."""


def game_states(layout_name: str, pacman: str, ghost: str, seed: int, max_moves: int,
                keep: Callable[[GameState], bool], num_ghosts: int | None = None) -> list[GameState]:
    """The states of one seeded game (``pacman`` against ``num_ghosts``
    ``ghost``\\ s, by default one per ghost start), start included, that
    ``keep`` accepts, in the order played."""
    layout = load_layout(layout_name)
    ghosts = layout.num_ghosts if num_ghosts is None else num_ghosts
    states: list[GameState] = []

    def collect(state: GameState, action: str | None) -> None:
        if keep(state):
            states.append(state)

    agents: list[Any] = [make_pacman(pacman)] + [make_ghost(ghost) for _ in range(ghosts)]
    play_game(layout, agents, seed=seed, max_moves=max_moves, on_state=collect)
    return states


def pacman_to_move(state: GameState) -> bool:
    return state.turn == 0 and not state.is_terminal


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


def sample_positions(layout_name: str, pacman: str, ghost: str, num_ghosts: int, games: int, seed: int,
                     per_game: int, max_moves: int = 300) -> list[GameState]:
    """``per_game`` Pacman-to-move positions of each of ``games`` games
    (seeds ``seed``, ``seed + 1``, ...), evenly spread over each game (its
    start left out: every game starts there)."""
    positions: list[GameState] = []
    for game_seed in range(seed, seed + games):
        seen = game_states(layout_name, pacman, ghost, game_seed, max_moves, pacman_to_move, num_ghosts)[1:]
        step = max(1, len(seen) // per_game)
        positions += seen[step // 2::step][:per_game]
    return positions
