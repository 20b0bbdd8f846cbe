"""A team a person plays from the window's or the page's keys (``-r keyboard``).

The team's first agent (0 for red, 1 for blue) takes the arrow keys, its
second agent W/A/S/D, as the course's two keyboard agents do.  Each agent
holds the last direction pressed for it while that stays legal, as the
classic keyboard Pacman does, and stops otherwise.  The game starts when
the person presses a first key, not before.  The display feeds the keys in
through :meth:`KeyboardTeam.press`, from its own thread.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from pacsim.engine.capture.game import CaptureTeam
from pacsim.engine.capture.observation import CaptureView
from pacsim.engine.game import PlayerStopped
from pacsim.engine.layout import ACTIONS, STOP

KEY_WAIT_SECONDS = 0.05
"""How often a team waiting for its first key looks whether the display has gone."""


class KeyboardTeam(CaptureTeam):
    """Two agents steered by a person: slot 0 (the team's first agent) and slot 1 (its second)."""

    name = "keyboard"

    def __init__(self, is_red: bool) -> None:
        self.first = 0 if is_red else 1
        self.held = [STOP, STOP]
        self.pressed: list[str | None] = [None, None]
        self.any_key = threading.Event()
        self.gone: Callable[[], bool] = lambda: False
        """Whether the display has closed (then a team waiting for its first key gives up)."""
        self.lock = threading.Lock()

    def press(self, slot: int, action: str) -> bool:
        """A direction pressed for the team's first (``slot`` 0) or second agent; False for anything else."""
        if slot not in (0, 1) or action not in ACTIONS:
            return False
        with self.lock:
            self.pressed[slot] = action
        self.any_key.set()
        return True

    def act(self, index: int, view: CaptureView) -> str:
        while not self.any_key.wait(KEY_WAIT_SECONDS):
            if self.gone():
                raise PlayerStopped("the display closed before the first key")
        slot = 0 if index == self.first else 1
        legal = view.state.legal_actions(index)
        with self.lock:
            pressed, self.pressed[slot] = self.pressed[slot], None
        if pressed in legal:
            self.held[slot] = pressed
        return self.held[slot] if self.held[slot] in legal else STOP
