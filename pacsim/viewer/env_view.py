"""Pictures of single states for the environments of :mod:`pacsim.env`:
an RGB array (``render_mode="rgb_array"``) and a window updated one state at
a time (``render_mode="human"``).  Kept here because the viewer is pacsim's
only pygame user; the environments import this module only when rendering."""

from __future__ import annotations

import numpy as np

from pacsim.engine.state import GameState
from pacsim.viewer._pygame import pygame
from pacsim.viewer.render import Renderer, window_size

ENV_ZOOM = 0.5
"""Cells of half the window's size: frames of a training run stay small."""


def state_image(state: GameState, renderer: Renderer, zoom: float = ENV_ZOOM) -> np.ndarray:
    """The state as the viewer draws it: a (height, width, 3) uint8 array."""
    surface = pygame.Surface(window_size(state.layout, zoom))
    renderer.draw(surface, state)
    # surfarray indexes [x][y]; images are [row][column].
    return np.ascontiguousarray(pygame.surfarray.array3d(surface).transpose(1, 0, 2))


class StateWindow:
    """A window showing one state per :meth:`show` call (no game loop of its own)."""

    def __init__(self, title: str = "pacsim") -> None:
        self.title = title
        self.renderer = Renderer()
        self.surface: pygame.Surface | None = None
        self.clock: pygame.time.Clock | None = None

    def show(self, state: GameState, frames_per_second: float) -> None:
        from pacsim.viewer.window import open_window

        if self.surface is None:
            # Opened by a program (render_mode="human"): SDL's dummy driver is allowed, as Gymnasium expects.
            self.surface = open_window(window_size(state.layout), self.title, unseen_allowed=True)
            self.clock = pygame.time.Clock()
        pygame.event.pump()  # a window that never reads its events looks hung
        self.renderer.draw(self.surface, state)
        pygame.display.flip()
        if self.clock is not None and frames_per_second > 0:
            self.clock.tick(frames_per_second)

    def close(self) -> None:
        if self.surface is not None:
            pygame.display.quit()
            self.surface = None
