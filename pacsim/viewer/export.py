"""Frames and GIFs without a window: off-screen, at full speed.

``--save-frames`` and ``--gif`` do not need anyone watching.  These functions
play or replay a game as fast as it goes and draw each state on an off-screen
surface (no display is opened), giving the same files the window would.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pacsim.engine.game import DEFAULT_MAX_MOVES, GameRecord, play_game
from pacsim.engine.layout import Layout
from pacsim.engine.state import GameState
from pacsim.viewer.capture import Capture
from pacsim.viewer.render import values_heading
from pacsim.viewer.settings import WindowSettings
from pacsim.viewer.sources import FrameMaker, frames_of


def play_to_files(
    layout: Layout,
    agents: list[Any],
    seed: int = 0,
    max_moves: int = DEFAULT_MAX_MOVES,
    move_time_limit: float | None = None,
    options: Any = None,
    on_state: Callable[[GameState, str | None], None] | None = None,
) -> GameRecord:
    """Play one game with :func:`pacsim.engine.play_game` (same record) and
    write its frames as asked by ``options`` (see :class:`WindowSettings`).
    ``on_state`` is passed on, for a text display at the same time."""
    settings = WindowSettings.from_options(options)
    pacman = agents[0]
    valued = pacman if settings.show_values and hasattr(pacman, "action_values") else None
    capture = Capture(settings, layout, panel=valued is not None)
    capture.renderer.heading = values_heading(pacman)
    maker = FrameMaker(valued)

    def show(state: GameState, action: str | None) -> None:
        if on_state is not None:
            on_state(state, action)
        capture.frame(maker.next(state, action))

    try:
        record = play_game(layout, agents, seed=seed, max_moves=max_moves,
                           move_time_limit=move_time_limit, on_state=show)
        capture.finish(record.outcome)
    finally:
        capture.close()
    return record


def replay_to_files(states: list[GameState], outcome: str | None = None, options: Any = None) -> None:
    """Write a recorded game's frames as asked by ``options``."""
    settings = WindowSettings.from_options(options)
    capture = Capture(settings, states[0].layout)
    try:
        for frame in frames_of(states):
            capture.frame(frame)
        capture.finish(outcome)
    finally:
        capture.close()
