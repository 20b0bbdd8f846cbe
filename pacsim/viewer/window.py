"""The window: a render loop that shows frames from a source at the chosen pace.

:class:`ViewerLoop` takes its events, clock and display flip as arguments, so
a test drives it with a scripted event list on an offscreen surface.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import Any, Protocol

from pacsim.engine.game import DEFAULT_MAX_MOVES, GameRecord
from pacsim.engine.layout import Layout
from pacsim.engine.state import GameState
from pacsim.viewer import ViewerClosed, ViewerError
from pacsim.viewer._pygame import pygame
from pacsim.viewer.capture import Capture
from pacsim.viewer.controls import KEYBOARD_HINT, Controls, describe, handle_event
from pacsim.viewer.render import Renderer, draw_plan, outcome_banner, values_heading, window_size
from pacsim.viewer.settings import WindowSettings, display_available, hidden_window_allowed, require_display
from pacsim.viewer.sources import Frame, LiveGame, RecordedGame

TICKS_PER_SECOND = 30
"""Redraws per second: keeps the window responsive and the mouth moving."""
TICKS_PER_ANIMATION_FRAME = 2
END_HOLD_SECONDS = 2.0
"""How long a finished game stays on screen before the window returns
(pausing keeps it open)."""
KEY_POLL_SECONDS = 0.02
"""How often a keyboard game waiting for its first key looks again."""


class Source(Protocol):
    """Where the loop's frames come from: :class:`RecordedGame` or :class:`LiveGame`."""

    @property
    def finished(self) -> bool:
        """True once the last frame was handed out."""
        ...

    @property
    def outcome(self) -> str | None: ...
    def start(self) -> None: ...
    def next_frame(self) -> Frame | None:
        """The next frame if there is one yet (never blocks)."""
        ...

    def restart(self) -> bool: ...
    def stop(self) -> None: ...
    def check(self) -> None:
        """Re-raise a failure of the source's own worker, if any."""
        ...


class ViewerLoop:
    """Shows a source's frames; :meth:`run` returns True when the game was
    shown to its end, False when the user quit first."""

    def __init__(
        self,
        source: Source,
        surface: pygame.Surface,
        *,
        controls: Controls | None = None,
        panel: bool = False,
        capture: Capture | None = None,
        hold_seconds: float | None = END_HOLD_SECONDS,
        events: Callable[[], Iterable[pygame.event.Event]] | None = None,
        now: Callable[[], float] = time.monotonic,
        wait: Callable[[int], Any] | None = None,
        present: Callable[[], Any] | None = None,
        on_frame: Callable[[Frame], Any] | None = None,
        on_tree: Callable[[GameState], Sequence[GameState]] | None = None,
    ) -> None:
        self.source = source
        self.surface = surface
        self.controls = controls or Controls()
        self.panel = panel
        self.capture = capture
        self.hold_seconds = hold_seconds
        # Looked up per call, not bound now: tests replace pygame's functions.
        self.events = events or (lambda: pygame.event.get())
        self.now = now
        self.wait = wait or pygame.time.Clock().tick
        self.present = present or (lambda: pygame.display.flip())
        self.on_frame = on_frame
        self.on_tree = on_tree
        """``t``: opens the tree searched at a Pacman position and returns its best line (the plan drawn)."""
        self.plan: tuple[GameState, Sequence[GameState]] | None = None
        """The position whose plan is drawn, and the plan's positions."""
        self.renderer = Renderer()
        self.current: Frame | None = None
        self.shown_at = 0.0
        self.finished = False
        self.finished_at = 0.0
        self.restarting = False
        self.ticks = 0

    def pressed_direction(self) -> str | None:
        """For a keyboard Pacman (called from the worker thread: a plain read)."""
        return self.controls.direction

    def wait_for_direction(self) -> None:
        """For a keyboard Pacman's first move (on the worker thread): until
        a direction is pressed, or the window is quitting or restarting."""
        while self.controls.direction is None and not (self.controls.quit or self.controls.restart):
            time.sleep(KEY_POLL_SECONDS)

    def run(self) -> bool:
        while self.tick():
            pass
        return self.finished

    def tick(self) -> bool:
        """Handle events, maybe advance, redraw.  False when the loop should end."""
        for event in self.events():
            self.controls = handle_event(self.controls, event)
            if event.type == pygame.VIDEORESIZE and pygame.display.get_surface() is not None:
                self.surface = pygame.display.get_surface()
        if self.controls.quit:
            return False
        if self.controls.restart:
            self._restart()
        if self.controls.tree:
            self._open_tree()
        self.source.check()
        was_finished = self.finished
        shown = self._advance()
        self._draw()
        self._export(shown, just_finished=self.finished and not was_finished)
        self.present()
        if self._done():
            return False
        self.wait(TICKS_PER_SECOND)
        self.ticks += 1
        return True

    # -- steps of a tick ---------------------------------------------------------
    def _restart(self) -> None:
        self.controls = replace(self.controls, restart=False)
        self.source.restart()
        self.restarting = True
        self.finished = False
        if self.capture:
            self.capture.reset()

    def _open_tree(self) -> None:
        """``t``: the tree of the position shown, when Pacman is to move there."""
        self.controls = replace(self.controls, tree=False)
        state = self.current.state if self.current is not None else None
        if self.on_tree is None or state is None or state.turn != 0 or state.is_terminal:
            return
        self.plan = (state, self.on_tree(state))

    def _advance(self) -> Frame | None:
        """Take the next frame when it is due; returns it, or None."""
        if self.finished:
            return None
        now = self.now()
        stepping = self.controls.paused and self.controls.steps > 0
        first = self.current is None or self.restarting  # the start shows at once, even paused
        due = first or (not self.controls.paused and now - self.shown_at >= self.controls.frame_time)
        if not (due or stepping):
            return None
        frame = self.source.next_frame()
        if frame is None:
            if self.source.finished and not self.restarting:
                self.finished, self.finished_at = True, now
                self.controls = replace(self.controls, steps=0)
            return None
        self.current, self.shown_at, self.restarting = frame, now, False
        if stepping and not first:
            self.controls = replace(self.controls, steps=self.controls.steps - 1)
        return frame

    def _export(self, shown: Frame | None, just_finished: bool) -> None:
        """Hand the frame just shown to the exports and the listener."""
        if shown is not None:
            if self.capture:
                self.capture.frame(shown)
            if self.on_frame:
                self.on_frame(shown)
        if just_finished and self.capture:
            self.capture.finish(self.source.outcome)

    def _done(self) -> bool:
        if not self.finished or self.controls.paused or self.hold_seconds is None:
            return False
        return self.now() - self.finished_at >= self.hold_seconds

    def _draw(self) -> None:
        if self.current is None:
            self.surface.fill((0, 0, 0))
        else:
            frame = self.current
            note = "restarting..." if self.restarting else describe(self.controls)
            values = [] if frame.values_error else frame.values  # [] reads "no values"
            place = self.renderer.draw(
                self.surface, frame.state, frame=self.ticks // TICKS_PER_ANIMATION_FRAME,
                values=values, chosen=frame.chosen, moves=frame.moves, note=note, panel=self.panel,
                banner=outcome_banner(self.source.outcome) if self.finished else None,
            )
            if self.plan is not None and self.plan[0] is frame.state:
                draw_plan(self.surface, place, self.plan[1])


def open_window(size: tuple[int, int], title: str, unseen_allowed: bool = False) -> pygame.Surface:
    """The window, or :class:`ViewerError` when nobody could see it (see
    :mod:`pacsim.viewer.settings` for the rule, and the way tests get round it).
    ``unseen_allowed``: a program asked for it (an environment's ``human``
    render mode), so SDL's invisible drivers are the program's choice, as
    Gymnasium's checkers run under ``SDL_VIDEODRIVER=dummy``."""
    if not unseen_allowed:
        require_display()
    if not display_available() and hidden_window_allowed():
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # asked for: a window nobody sees
    # Named before it exists: some window managers read a window's name only
    # when it first appears, and showed it blank.
    try:
        pygame.display.init()
        pygame.font.init()
        pygame.display.set_caption(title)
        surface = pygame.display.set_mode(size, pygame.RESIZABLE)
    except pygame.error as error:
        raise ViewerError(f"cannot open a window ({error}); use --text or --quiet") from None
    pygame.display.set_caption(title)
    return surface


def play_in_window(
    layout: Layout,
    agents: list[Any],
    seed: int = 0,
    max_moves: int = DEFAULT_MAX_MOVES,
    move_time_limit: float | None = None,
    options: Any = None,
    on_tree: Callable[[GameState], Sequence[GameState]] | None = None,
) -> GameRecord:
    """Play one game in a window and return its record, exactly the record
    :func:`pacsim.engine.play_game` gives for the same arguments.
    ``on_tree`` answers the ``t`` key (see :class:`ViewerLoop`).

    Raises :class:`ViewerClosed` when the window is closed mid-game."""
    settings = WindowSettings.from_options(options)
    source = LiveGame(layout, agents, seed=seed, max_moves=max_moves,
                      move_time_limit=move_time_limit, show_values=settings.show_values)
    capture = Capture(settings, layout, panel=source.show_values) if settings.exporting else None
    size = window_size(layout, settings.zoom, panel=source.show_values)
    surface = open_window(size, f"pacsim: {layout.name} (seed {seed})")
    loop = ViewerLoop(source, surface, controls=Controls(frame_time=settings.frame_time),
                      panel=source.show_values, capture=capture, hold_seconds=END_HOLD_SECONDS, on_tree=on_tree)
    for renderer in (loop.renderer, capture.renderer if capture else None):
        if renderer is not None:
            renderer.heading = values_heading(agents[0])
    restore_keys = _wire_keyboard(agents[0], loop)
    try:
        source.start()
        loop.run()
    finally:
        source.stop()
        restore_keys()
        pygame.display.quit()
        if capture:
            capture.close()
    if not source.finished or source.record is None:
        raise ViewerClosed("the window was closed before the game ended")
    return source.record


def replay_in_window(states: list[GameState], outcome: str | None = None, options: Any = None,
                     title: str = "pacsim replay") -> bool:
    """Show recorded states in a window; True when shown to the end."""
    settings = WindowSettings.from_options(options)
    source = RecordedGame(states, outcome)
    capture = Capture(settings, states[0].layout) if settings.exporting else None
    surface = open_window(window_size(states[0].layout, settings.zoom), title)
    loop = ViewerLoop(source, surface, controls=Controls(frame_time=settings.frame_time), capture=capture,
                      hold_seconds=END_HOLD_SECONDS)
    try:
        return loop.run()
    finally:
        pygame.display.quit()
        if capture:
            capture.close()


def _wire_keyboard(agent: Any, loop: ViewerLoop) -> Callable[[], None]:
    """Point a keyboard Pacman at the window's keys; returns the undo."""
    from pacsim.agents.simple import KeyboardPacman

    if not isinstance(agent, KeyboardPacman):
        return lambda: None
    original = agent.keys
    agent.keys, agent.wait_for_key = loop.pressed_direction, loop.wait_for_direction
    loop.controls = replace(loop.controls, keyboard=True)
    if loop.capture:  # saved frames show the keys too (docs/playing.md)
        loop.capture.note = KEYBOARD_HINT

    def restore() -> None:
        agent.keys, agent.wait_for_key = original, None

    return restore
