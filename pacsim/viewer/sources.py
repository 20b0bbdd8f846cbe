"""Where the window's frames come from: a recorded list of states, or a game
being played in a worker thread.

The live game runs :func:`pacsim.engine.play_game` itself (same rules, same
seeding, so its record is exact) in a daemon thread.  Its ``on_state``
callback hands each state to a small queue, blocking while the window is
paused, and is where stop requests are honoured, between moves.  A deep
search therefore never freezes the window, and closing the window never
waits for one.  No pygame here.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from pacsim.agents.api import ValuingAgent
from pacsim.engine.game import DEFAULT_MAX_MOVES, GameRecord, play_game
from pacsim.engine.layout import Layout
from pacsim.engine.state import GameState

QUEUE_SIZE = 2
"""States the worker may run ahead of the window: small, so a keyboard
Pacman reacts to keys within a frame or two and pausing pauses the game."""
POLL_SECONDS = 0.05


@dataclass
class Frame:
    """One state as the window shows it."""

    state: GameState
    index: int
    """Position in the game: 0 is the start, then one per agent move."""
    moves: int
    """Pacman moves played so far."""
    values: list[tuple[str, float]] | None = None
    """Pacman's root action values in this state (search agents, on request)."""
    values_error: str | None = None
    chosen: str | None = None
    """The action Pacman played from this state (on a ghost's turn: at its
    last move), once known.  The worker sets it after the frame was queued
    (a plain attribute write)."""


def frames_of(states: list[GameState]) -> list[Frame]:
    """Frames for a recorded game, counting Pacman's moves."""
    return list(iter_frames(states))


def iter_frames(states: Iterable[GameState]) -> Iterator[Frame]:
    """The frames one by one, as the states come (a long replay is never held whole)."""
    moves = 0
    previous: GameState | None = None
    for index, state in enumerate(states):
        if previous is not None and previous.turn == 0:
            moves += 1
        yield Frame(state, index, moves)
        previous = state


class RecordedGame:
    """A finished game's states, shown one by one."""

    def __init__(self, states: list[GameState], outcome: str | None) -> None:
        if not states:
            raise ValueError("a recorded game needs at least its start state")
        self.frames = frames_of(states)
        self.outcome = outcome
        self.position = -1
        """Index of the last frame handed out."""

    @property
    def finished(self) -> bool:
        return self.position >= len(self.frames) - 1

    def start(self) -> None:
        pass

    def next_frame(self) -> Frame | None:
        if self.finished:
            return None
        self.position += 1
        return self.frames[self.position]

    def restart(self) -> bool:
        self.position = -1
        return True

    def stop(self) -> None:
        pass

    def check(self) -> None:
        pass


class _StopRequested(Exception):
    """Raised inside the worker's callback to abandon the game."""


@dataclass
class _End:
    record: GameRecord


@dataclass
class _Run:
    """One run of the worker; a restart starts a new one."""

    stop: threading.Event = field(default_factory=threading.Event)
    frames: queue.Queue = field(default_factory=lambda: queue.Queue(maxsize=QUEUE_SIZE))
    thread: threading.Thread | None = None
    error: BaseException | None = None


class LiveGame:
    """A game played by its agents in a worker thread while the window shows it."""

    def __init__(
        self,
        layout: Layout,
        agents: list[Any],
        seed: int = 0,
        max_moves: int = DEFAULT_MAX_MOVES,
        move_time_limit: float | None = None,
        show_values: bool = False,
    ) -> None:
        self.layout = layout
        self.agents = agents
        self.seed = seed
        self.max_moves = max_moves
        self.move_time_limit = move_time_limit
        self.show_values = show_values and isinstance(agents[0], ValuingAgent)
        self.record: GameRecord | None = None
        self.finished = False
        self._run: _Run | None = None
        self._restart_wanted = False

    def start(self) -> None:
        """Start playing (separate from construction so a keyboard Pacman can
        be wired to the window before its first move)."""
        if self._run is None:
            self._start()

    @property
    def outcome(self) -> str | None:
        return self.record.outcome if self.record else None

    # -- the window's side -----------------------------------------------------
    def next_frame(self) -> Frame | None:
        """The next state if the worker has produced it (never blocks)."""
        if self._restart_wanted:
            self._try_restart()
            return None
        run = self._run
        if run is None or self.finished:
            return None
        self.check()
        try:
            item = run.frames.get_nowait()
        except queue.Empty:
            return None
        if isinstance(item, _End):
            self.record = item.record
            self.finished = True
            return None
        return item

    def check(self) -> None:
        """Re-raise, in the window's thread, a failure of pacsim itself in the
        worker (agent errors are game outcomes and never get here)."""
        if self._run is not None and self._run.error is not None:
            error, self._run.error = self._run.error, None
            raise error

    def restart(self) -> bool:
        """Ask for the game to start again; True once the new game runs.
        The old worker is allowed to finish its move first: agents are shared,
        and two games drawing on one agent's random stream would spoil both."""
        self._restart_wanted = True
        self.stop()
        return self._try_restart()

    def stop(self) -> None:
        if self._run is not None:
            self._run.stop.set()

    # -- internals -------------------------------------------------------------
    def _try_restart(self) -> bool:
        run = self._run
        if run is not None and run.thread is not None and run.thread.is_alive():
            return False
        self._restart_wanted = False
        self._start()
        return True

    def _start(self) -> None:
        self.record = None
        self.finished = False
        run = _Run()
        run.thread = threading.Thread(target=self._work, args=(run,), name="pacsim-game", daemon=True)
        self._run = run
        run.thread.start()

    def _work(self, run: _Run) -> None:
        emitter = _Emitter(run, self.agents[0] if self.show_values else None)
        try:
            record = play_game(self.layout, self.agents, seed=self.seed, max_moves=self.max_moves,
                               move_time_limit=self.move_time_limit, on_state=emitter.on_state)
            emitter.put(_End(record))
        except _StopRequested:
            pass
        except BaseException as error:  # a pacsim bug: hand it to the window's thread
            run.error = error


class FrameMaker:
    """Turns the ``on_state(state, action)`` calls of a game into frames:
    numbers them, counts Pacman's moves, attaches Pacman's search values and
    marks the action it chose.  Used by the window's worker and by headless
    exports alike, so both show the same frames."""

    def __init__(self, valued_agent: ValuingAgent | None = None) -> None:
        self.valued_agent = valued_agent
        """Pacman, when its ``action_values`` should be shown; else None."""
        self.previous: Frame | None = None
        self.moves = 0

    def next(self, state: GameState, action: str | None) -> Frame:
        """The frame of ``state``, reached by ``action``.  Marks ``action`` as
        chosen on the previous frame when Pacman played it."""
        previous = self.previous
        if previous is not None and previous.state.turn == 0:
            previous.chosen = action
            self.moves += 1
        frame = Frame(state, 0 if previous is None else previous.index + 1, self.moves)
        if self.valued_agent is not None:
            if state.turn == 0 and not state.is_terminal:
                self._attach_values(self.valued_agent, frame)
            elif previous is not None:
                # While the ghosts move, the panel keeps Pacman's last decision.
                frame.values, frame.values_error, frame.chosen = previous.values, previous.values_error, previous.chosen
        self.previous = frame
        return frame

    @staticmethod
    def _attach_values(agent: ValuingAgent, frame: Frame) -> None:
        # Computed here, outside play_game's timing of get_action, so the
        # overlay never counts against the move time limit.
        try:
            frame.values = list(agent.action_values(frame.state))
        except Exception as error:  # the agent's own failure shows in the game
            frame.values_error = f"{type(error).__name__}: {error}"


class _Emitter:
    """The worker's ``on_state`` callback: makes frames and feeds the queue,
    giving up when a stop is requested."""

    def __init__(self, run: _Run, valued_agent: Any | None) -> None:
        self.run = run
        self.maker = FrameMaker(valued_agent)

    def on_state(self, state: GameState, action: str | None) -> None:
        if self.run.stop.is_set():  # before a search for the values, which may be long
            raise _StopRequested()
        self.put(self.maker.next(state, action))

    def put(self, item: Frame | _End) -> None:
        while True:
            if self.run.stop.is_set():
                raise _StopRequested()
            try:
                self.run.frames.put(item, timeout=POLL_SECONDS)
                return
            except queue.Full:
                continue
