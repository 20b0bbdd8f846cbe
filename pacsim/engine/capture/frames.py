"""What a display shows of a capture game: the maze once, then one frame a move, as JSON-ready data.

Both displays draw these and nothing else: the pygame window
(:mod:`pacsim.viewer.capture_window`) and the browser's page, live or as an
HTML replay (:mod:`pacsim.web.capture_page`), so they show the same game.
Cells are the course's ``(x, y)`` (column, and row from the bottom), the
coordinates ``debugDraw`` is given in.

A frame (:func:`frame`) is the whole position after a move (the start
first), with what the agent that moved was handed for it (its noisy
distances, which opponents it saw) and the marks it drew with
``debugDraw``::

    {"move": 12, "mover": 3, "action": "West", "score": -1, "left": 1188, "over": false,
     "agents": [[x, y, direction, pacman, scared, carrying, returned], ...],   # four
     "food": "1f0c...", "capsules": "...",   # hex bitmasks over the board's cell numbers
     "heard": [9, 4, 15, 0] | null, "seen": [true, false, true, true] | null,
     "marks": [[[[x, y], ...], [r, g, b]], ...]}
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from pacsim.engine.capture.game import CaptureResult, CaptureTeam, Observer, ViewWatcher
from pacsim.engine.capture.layout import CaptureLayout, is_red
from pacsim.engine.capture.observation import CaptureView
from pacsim.engine.capture.state import UNSEEN, CaptureState
from pacsim.engine.game import PlayerStopped

MAX_MARKED_CELLS = 4000
"""Cells of ``debugDraw`` marks kept a frame: a team that marks every cell each move still makes a page of bounded size."""


def board(layout: CaptureLayout, red: str, blue: str) -> dict[str, Any]:
    """The maze, once: its size, walls, the ``(x, y)`` of each cell number, the teams' names."""
    maze = layout.maze
    bottom = maze.height - 1
    return {"layout": layout.name, "width": maze.width, "height": maze.height, "red": red, "blue": blue,
            "walls": [[column, bottom - row] for row, column in sorted(maze.walls)],
            "cells": [list(xy) for xy in layout.coordinates]}


def frame(state: CaptureState, mover: int | None = None, action: str | None = None, move: int = 0,
          view: CaptureView | None = None, marks: Iterable[Any] = ()) -> dict[str, Any]:
    """The position ``state`` after ``move`` moves, the last one ``mover``'s ``action``; ``view`` is
    what the mover was handed for it, ``marks`` what it drew (the course's ``(cells, color)`` pairs)."""
    coordinates = state.layout.coordinates
    agents = [[*coordinates[cell], state.directions[agent], int(state.pacman[agent]), state.scared[agent],
               state.carrying[agent], state.returned[agent]] for agent, cell in enumerate(state.positions)]
    return {"move": move, "mover": mover, "action": action, "score": state.score, "left": state.moves_left,
            "over": state.over, "agents": agents, "food": f"{state.food:x}", "capsules": f"{state.capsules:x}",
            "heard": None if view is None else list(view.noisy_distances),
            "seen": None if view is None else [cell != UNSEEN for cell in view.state.positions],
            "marks": clean_marks(marks, state.layout)}


def replay_frames(states: Sequence[CaptureState], actions: Sequence[tuple[int, str]]) -> list[dict[str, Any]]:
    """The frames of a recorded game: its start and a state a move (nothing heard or drawn: a record has neither)."""
    frames = [frame(states[0])]
    frames += [frame(state, agent, action, number) for number, (state, (agent, action))
               in enumerate(zip(states[1:], actions, strict=True), 1)]
    return frames


def clean_marks(marks: Iterable[Any], layout: CaptureLayout) -> list[list[Any]]:
    """``debugDraw``'s marks as plain lists: cells on the board as ``[x, y]``, colours as 0-255 ``[r, g, b]``.

    A student's marks are whatever their code passed: anything that is not a cell or a colour is left out
    rather than stopping the display (the course's display would raise)."""
    cleaned: list[list[Any]] = []
    budget = MAX_MARKED_CELLS
    for mark in marks:
        try:
            cells, color = mark
            kept = [cell for cell in map(_cell, cells) if cell and layout.cell_at(*cell) is not None][:budget]
            rgb = _color(color)
        except (TypeError, ValueError, OverflowError):  # a team's marks are its own: any it gets wrong are skipped
            continue
        if kept and rgb:
            cleaned.append([kept, rgb])
            budget -= len(kept)
    return cleaned


def _cell(value: Any) -> list[int] | None:
    x, y = value
    if not all(isinstance(part, (int, float)) and math.isfinite(part) for part in (x, y)):
        return None
    return [int(x), int(y)]


def _color(value: Any) -> list[int] | None:
    """The course's colours are three floats in [0, 1] (``[1, 0, 0]``); a 0-255 triple is taken as it is."""
    parts = [float(part) for part in value]
    if len(parts) != 3 or not all(math.isfinite(part) and part >= 0 for part in parts):
        return None
    scale = 255 if max(parts) <= 1 else 1
    return [min(255, round(part * scale)) for part in parts]


class FrameRecorder:
    """Makes a frame of every move of a game being played: hand :meth:`saw` to
    :func:`~pacsim.engine.capture.game.play_capture_game` as ``on_view`` and :meth:`moved` as ``observer``."""

    def __init__(self, red: CaptureTeam, blue: CaptureTeam) -> None:
        self.teams = (red, blue)
        self.frames: list[dict[str, Any]] = []
        self.view: CaptureView | None = None

    def saw(self, view: CaptureView) -> None:
        """The view the agent about to move was handed."""
        self.view = view

    def moved(self, state: CaptureState, mover: int | None, action: str | None) -> None:
        marks = () if mover is None else self.teams[0 if is_red(mover) else 1].debug_marks(mover)
        view = self.view if self.view is not None and self.view.agent == mover else None
        self.frames.append(frame(state, mover, action, len(self.frames), view, marks))
        self.view = None


class FrameFeed:
    """A game played in a background thread for a display to watch: its frames, under a lock, as they come.

    The game waits ``frame_time`` seconds after each move, so that a person can follow it (and steer a
    keyboard team); it gives up (:class:`~pacsim.engine.game.PlayerStopped`) once :meth:`stop` was called."""

    def __init__(self, play: Callable[[Observer, ViewWatcher], CaptureResult], recorder: FrameRecorder,
                 frame_time: float) -> None:
        """``play(observer, on_view)`` plays the game, handing both to
        :func:`~pacsim.engine.capture.game.play_capture_game`."""
        self.recorder, self.frame_time = recorder, frame_time
        self.result: CaptureResult | None = None
        self.error: BaseException | None = None
        self.finished, self.stopped = threading.Event(), threading.Event()
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._run, args=(play,), name="pacsim capture game", daemon=True)

    def moved(self, state: CaptureState, mover: int | None, action: str | None) -> None:
        if self.stopped.is_set():
            raise PlayerStopped("the display was closed during the game")
        with self.lock:
            self.recorder.moved(state, mover, action)
        if self.frame_time and not state.over and self.stopped.wait(self.frame_time):
            raise PlayerStopped("the display was closed during the game")

    def _run(self, play: Callable[[Observer, ViewWatcher], CaptureResult]) -> None:
        try:
            self.result = play(self.moved, self.recorder.saw)
        except BaseException as error:  # said by the display's caller, in its own thread
            self.error = error
        finally:
            self.finished.set()

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        """The display has gone: the game stops at its next move."""
        self.stopped.set()

    def since(self, start: int) -> tuple[list[dict[str, Any]], bool]:
        """The frames after the first ``start``, and whether the game is over (then these are the last)."""
        with self.lock:
            done = self.finished.is_set()
            return self.recorder.frames[start:], done

    def outcome(self) -> str | None:
        """How the game ended, in a few words, once it has."""
        return None if self.result is None else describe_result(self.result)


def describe_result(result: CaptureResult) -> str:
    """``red wins by 3``, ``tie``, ``blue wins: red agent 2 crashed``."""
    if result.reason in ("crash", "forfeit"):
        side = "red" if result.culprit is not None and is_red(result.culprit) else "blue"
        return f"{result.winner} wins: {side} agent {result.culprit} {'crashed' if result.reason == 'crash' else 'forfeited'}"
    if result.winner == "tie":
        return "tie"
    return f"{result.winner} wins by {abs(result.score)}" + (" (returned its food)" if result.reason == "food" else "")
