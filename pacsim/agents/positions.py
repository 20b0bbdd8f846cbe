"""Positions from seeded games: the sampler that fits (``pacsim probcut``), checks and benchmarks share.

A search measured, compared or fitted on a position a game reached (ghosts
out of their house, food partly eaten, scared ghosts) says more than one on a
start position.  Every game here is seeded, so the same call gives the same
positions.  The benchmark's own fixed sets are :mod:`pacsim.bench.positions`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pacsim.agents.registry import make_ghost, make_pacman
from pacsim.engine import GameState, load_layout, play_game


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
    """Pacman is to move and the game goes on: a position a Pacman searches."""
    return state.turn == 0 and not state.is_terminal



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
