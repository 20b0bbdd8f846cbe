"""The grid world: layouts, immutable states, the classic rules, the game loop.

Imports neither pygame nor pandas; everything else in pacsim stands on it.
"""

from pacsim.engine.game import (
    DEFAULT_MAX_MOVES,
    ERROR,
    LOSS,
    MAX_MOVES_LIMIT,
    OUTCOMES,
    TIMEOUT,
    WIN,
    Agent,
    GameRecord,
    agent_rng,
    check_max_moves,
    play_game,
    replay,
)
from pacsim.engine.layout import (
    ACTIONS,
    EAST,
    NORTH,
    SOUTH,
    STOP,
    WEST,
    Layout,
    parse_layout,
    read_layout,
    shipped_layouts,
)
from pacsim.engine.names import FoundLayout, find_layout, load_layout
from pacsim.engine.state import LOST, PLAYING, SCARED_TIME, WON, GameState, apply_move, initial_state
from pacsim.engine.stats import MoveStats

__all__ = [
    "ACTIONS", "NORTH", "SOUTH", "EAST", "WEST", "STOP",
    "Layout", "FoundLayout", "find_layout", "load_layout", "parse_layout", "read_layout", "shipped_layouts",
    "GameState", "apply_move", "initial_state", "PLAYING", "WON", "LOST", "SCARED_TIME",
    "Agent", "GameRecord", "MoveStats", "agent_rng", "check_max_moves", "play_game", "replay",
    "WIN", "LOSS", "TIMEOUT", "ERROR", "OUTCOMES", "DEFAULT_MAX_MOVES", "MAX_MOVES_LIMIT",
]
