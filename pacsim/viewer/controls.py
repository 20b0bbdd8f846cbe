"""The window's keyboard controls as a pure function of (controls, event).

space pause/resume · right arrow or . one step while paused · + / - speed ·
r restart · t the current move's search tree (when Pacman searches) · q or Esc quit.  Arrow keys and WASD also set the direction a
keyboard Pacman reads.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from pacsim.engine.layout import EAST, NORTH, SOUTH, WEST
from pacsim.viewer._pygame import pygame

FASTEST = 0.005
"""Below this frame time, '+' goes straight to 0 (as fast as possible)."""
SLOWEST = 2.0

_DIRECTIONS = {
    pygame.K_UP: NORTH, pygame.K_w: NORTH,
    pygame.K_DOWN: SOUTH, pygame.K_s: SOUTH,
    pygame.K_RIGHT: EAST, pygame.K_d: EAST,
    pygame.K_LEFT: WEST, pygame.K_a: WEST,
}
_FASTER_KEYS = {pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS}
_SLOWER_KEYS = {pygame.K_MINUS, pygame.K_KP_MINUS, pygame.K_UNDERSCORE}
_STEP_KEYS = {pygame.K_RIGHT, pygame.K_PERIOD}
_QUIT_KEYS = {pygame.K_q, pygame.K_ESCAPE}


@dataclass(frozen=True)
class Controls:
    """What the keys have asked for so far."""

    frame_time: float = 0.1
    """Seconds between frames."""
    paused: bool = False
    steps: int = 0
    """Single steps asked for while paused and not yet taken."""
    restart: bool = False
    """A restart is wanted (the loop clears it once done)."""
    quit: bool = False
    direction: str | None = None
    """The last arrow or WASD direction pressed, for a keyboard Pacman."""
    keyboard: bool = False
    """A person plays Pacman: the footer shows the keys, and the start waits for one."""
    tree: bool = False
    """The tree searched at the position shown is wanted (the loop clears it once opened)."""


def handle_event(controls: Controls, event: pygame.event.Event) -> Controls:
    """The controls after ``event``; events that mean nothing return them unchanged."""
    if event.type == pygame.QUIT:
        return replace(controls, quit=True)
    if event.type != pygame.KEYDOWN:
        return controls
    key = event.key
    text = getattr(event, "unicode", "")
    if key in _DIRECTIONS:
        controls = replace(controls, direction=_DIRECTIONS[key])
    if key in _QUIT_KEYS:
        return replace(controls, quit=True)
    if key == pygame.K_SPACE:
        return replace(controls, paused=not controls.paused, steps=0)
    if key in _STEP_KEYS:
        # Right arrow is also East for a keyboard Pacman: it steps only while paused.
        return replace(controls, steps=controls.steps + 1) if controls.paused else controls
    if key in _FASTER_KEYS or text == "+":
        return replace(controls, frame_time=faster(controls.frame_time))
    if key in _SLOWER_KEYS or text == "-":
        return replace(controls, frame_time=slower(controls.frame_time))
    if key == pygame.K_r:
        return replace(controls, restart=True, steps=0)
    if key == pygame.K_t and not controls.keyboard:  # a person playing needs t for nothing else, but keeps it quiet
        return replace(controls, tree=True)
    return controls


def faster(frame_time: float) -> float:
    half = frame_time / 2
    return 0.0 if half < FASTEST else half


def slower(frame_time: float) -> float:
    return min(SLOWEST, max(FASTEST * 2, frame_time * 2))


def describe(controls: Controls) -> str:
    """A short status note: paused or the current speed, and the keys when a person plays."""
    if controls.keyboard and controls.direction is None:
        return "press an arrow key or WASD to start · q quits"
    speed = f"{controls.frame_time:.3g}s/frame" if controls.frame_time else "fastest"
    note = f"paused · {speed}" if controls.paused else speed
    return f"{note} · {KEYBOARD_HINT}" if controls.keyboard else note


KEYBOARD_HINT = "arrows/WASD move · space pause · q quit"
