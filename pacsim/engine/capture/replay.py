"""The course's recorded games (``capture.py --record``), read safely and replayed.

A course ``.replay`` file is a pickle of ``{'layout': layout.Layout,
'agents': [game.Agent, ...], 'actions': [(agent, action), ...], 'length',
'redTeamName', 'blueTeamName'}``.  A pickle can construct any object and
call any function it names, so it is read by :class:`CourseUnpickler`,
whose ``find_class`` hands back, for exactly the three course classes a
replay holds, an empty plain class of pacsim's own (its attributes set from
the pickle's dictionary, no method of the course's run), and refuses every
other name.  The maze is then rebuilt from the layout's own text.
"""

from __future__ import annotations

import io
import pickle
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from pacsim.engine.capture.layout import CaptureLayout, parse_capture_layout
from pacsim.engine.capture.state import MAX_MOVES, CaptureState, initial_state
from pacsim.engine.layout import ACTIONS
from pacsim.errors import LayoutError, ReplayError
from pacsim.files import FileRefused, read_bounded

MAX_REPLAY_BYTES = 16 << 20


class _CourseLayout:
    """Stands in for the course's ``layout.Layout``: attributes only."""


class _CourseGrid:
    """Stands in for the course's ``game.Grid``: attributes only."""


class _CourseAgent:
    """Stands in for the course's ``game.Agent`` (a replay's placeholder agents)."""


ALLOWED_CLASSES = {("layout", "Layout"): _CourseLayout, ("game", "Grid"): _CourseGrid, ("game", "Agent"): _CourseAgent}
"""The only names a course replay may construct, and what each becomes."""


class CourseUnpickler(pickle.Unpickler):
    """An unpickler that constructs only :data:`ALLOWED_CLASSES`' stand-ins."""

    def find_class(self, module: str, name: str) -> type:
        try:
            return ALLOWED_CLASSES[(module, name)]
        except KeyError:
            raise pickle.UnpicklingError(f"a course replay holds no {module}.{name}; refused") from None


@dataclass(frozen=True)
class CourseReplay:
    """A course recording: the maze, the moves in order, the game length."""

    layout: CaptureLayout
    actions: tuple[tuple[int, str], ...]
    length: int
    red_name: str
    blue_name: str

    @property
    def first(self) -> int:
        """The agent that moved first (0: red, 1: blue)."""
        return self.actions[0][0] if self.actions else 0

    def states(self) -> Iterator[CaptureState]:
        """The start and the state after every move, by pacsim's rules."""
        state = initial_state(self.layout, self.first, self.length)
        yield state
        for agent, action in self.actions:
            state = state.successor(action, agent)
            yield state


def read_course_replay(path: str | Path) -> CourseReplay:
    """Read a course ``.replay`` file; every failure is a :class:`ReplayError`."""
    try:
        data = read_bounded(Path(path), MAX_REPLAY_BYTES)
    except FileRefused as error:
        raise ReplayError(str(error)) from None
    return parse_course_replay(data, str(path))


def parse_course_replay(data: bytes, source: str = "<replay>") -> CourseReplay:
    try:
        recorded = CourseUnpickler(io.BytesIO(data), encoding="utf-8").load()
    except Exception as error:  # a pickle fails in many ways (truncated, refused, not a pickle): all say the same
        raise ReplayError(f"{source}: not a course replay ({error})") from None
    if not isinstance(recorded, dict) or not isinstance(recorded.get("layout"), _CourseLayout):
        raise ReplayError(f"{source}: not a course replay (no layout)")
    text = getattr(recorded["layout"], "layoutText", None)
    if not isinstance(text, list) or not all(isinstance(line, str) for line in text):
        raise ReplayError(f"{source}: the replay's layout has no text")
    try:
        layout = parse_capture_layout("\n".join(text), name=Path(source).stem, source=source)
    except LayoutError as error:
        raise ReplayError(f"{source}: its maze: {error}") from None
    return CourseReplay(layout, _actions(recorded.get("actions"), source), _length(recorded.get("length")),
                        str(recorded.get("redTeamName", "Red")), str(recorded.get("blueTeamName", "Blue")))


def _actions(actions: object, source: str) -> tuple[tuple[int, str], ...]:
    if not isinstance(actions, list):
        raise ReplayError(f"{source}: the replay has no list of actions")
    checked = []
    for number, entry in enumerate(actions, start=1):
        if not (isinstance(entry, tuple) and len(entry) == 2 and entry[0] in range(4) and entry[1] in ACTIONS):
            raise ReplayError(f"{source}: move {number} is not (agent 0-3, action): {entry!r:.60}")
        checked.append((int(entry[0]), str(entry[1])))
    return tuple(checked)


def _length(length: object) -> int:
    return length if isinstance(length, int) and length > 0 else MAX_MOVES
