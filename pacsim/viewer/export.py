"""Frames and GIFs without a window: off-screen, at full speed.

``--save-frames`` and ``--gif`` do not need anyone watching.  These functions
play or replay a game as fast as it goes and draw each state on an off-screen
surface (no display is opened), giving the same files the window would.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from pacsim.agents.api import ValuingAgent
from pacsim.engine.game import DEFAULT_MAX_MOVES, GameRecord, play_game
from pacsim.engine.layout import Layout
from pacsim.engine.state import GameState
from pacsim.viewer.capture import Capture
from pacsim.viewer.render import values_heading
from pacsim.viewer.settings import WindowSettings
from pacsim.viewer.sources import FrameMaker, iter_frames


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
    valued = pacman if settings.show_values and isinstance(pacman, ValuingAgent) else None
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


def replay_to_files(states: Iterable[GameState], outcome_of: Callable[[GameState], str | None],
                    options: Any = None) -> GameState:
    """Write a recorded game's frames as asked by ``options``, taking the
    states one by one; ``outcome_of(final state)`` is the closing banner's
    outcome.  Returns the final state."""
    settings = WindowSettings.from_options(options)
    capture: Capture | None = None
    frame = None
    try:
        for frame in iter_frames(states):
            capture = capture or Capture(settings, frame.state.layout)
            capture.frame(frame)
        if capture is None or frame is None:
            raise ValueError("a recorded game needs at least its start state")
        capture.finish(outcome_of(frame.state))
    finally:
        if capture is not None:
            capture.close()
    return frame.state
