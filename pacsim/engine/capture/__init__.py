"""Capture the flag: UC Berkeley CS188's contest game on pacsim's engine.

Two teams of two (red 0 and 2, blue 1 and 3) on a maze split in halves; the
rules in :mod:`pacsim.engine.capture.state`, what an agent sees in
:mod:`pacsim.engine.capture.observation`, the game loop in
:mod:`pacsim.engine.capture.game`, the course's mazes and recordings in
:mod:`~pacsim.engine.capture.layout` and :mod:`~pacsim.engine.capture.replay`.
"""

from pacsim.engine.capture.layout import (
    BLUE_AGENTS,
    RED_AGENTS,
    CaptureLayout,
    find_capture_layout,
    parse_capture_layout,
    read_capture_layout,
)
from pacsim.engine.capture.state import MAX_MOVES, SCARED_TIME, UNSEEN, CaptureState, apply_move, initial_state

__all__ = [
    "BLUE_AGENTS", "RED_AGENTS", "CaptureLayout", "find_capture_layout", "parse_capture_layout", "read_capture_layout",
    "MAX_MOVES", "SCARED_TIME", "UNSEEN", "CaptureState", "apply_move", "initial_state",
]
