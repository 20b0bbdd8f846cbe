"""pacsim's capture records (``pacsim capture --record``): reading one, and
the views its agents were handed.

A record holds the game's seed and its moves; the seed decides who moved
first and the stream the noisy distances were drawn from, so every view the
game handed an agent can be made again, draw for draw, without playing a
team: :func:`recorded_views` follows the game loop's order of looks
(:func:`~pacsim.engine.capture.game.play_capture_game`: each agent's first
look at the start, in index order, then one look before each move, the
mover's).  A team that decides from its views (a belief kept from the
noisy distances) then stands, at any move, where it stood in the game.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pacsim.engine.capture.game import game_streams
from pacsim.engine.capture.layout import NUM_AGENTS, CaptureLayout, find_capture_layout
from pacsim.engine.capture.observation import CaptureView, observe
from pacsim.engine.capture.state import MAX_MOVES, CaptureState, apply_move, initial_state
from pacsim.errors import ReplayError

RECORD_LIMIT = 16 << 20
"""A record's size at most, in bytes."""


@dataclass(frozen=True)
class CaptureRecord:
    """A game as ``pacsim capture --record`` wrote it."""

    layout: CaptureLayout
    seed: int
    first: int
    moves: tuple[tuple[int, str], ...]
    length: int
    """The game's length in moves (``-i``; records older than the field: the moves played)."""
    teams: tuple[str, str]
    """Red's and blue's team, as named on the command line."""
    options: tuple[dict[str, str], dict[str, str]]
    """Red's and blue's ``createTeam`` options (``--redOpts``)."""


def record_dict(path: str | Path) -> dict[str, Any] | None:
    """The JSON object of a capture record at ``path``, or None when the file is
    not one (another kind of record, or not JSON): a reader tells them apart."""
    from pacsim.files import FileRefused, read_bounded

    try:
        data = json.loads(read_bounded(path, RECORD_LIMIT))
    except (FileRefused, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("game") == "capture" else None


def read_capture_record(path: str | Path) -> CaptureRecord:
    """The capture record at ``path``; a one-line :class:`ReplayError` when it is not one."""
    data = record_dict(path)
    if data is None:
        raise ReplayError(f"{path}: not a capture record (pacsim capture --record writes them)")
    try:
        moves = tuple((int(agent), str(action)) for agent, action in data["moves"])
        options = tuple({str(key): str(value) for key, value in dict(data.get(name) or {}).items()}
                        for name in ("redOpts", "blueOpts"))
        record = CaptureRecord(find_capture_layout(str(data["layout"])), int(data["seed"]), int(data["first"]), moves,
                               int(data.get("length") or len(moves) or MAX_MOVES), (str(data["red"]), str(data["blue"])),
                               (options[0], options[1]))
    except (KeyError, TypeError, ValueError) as error:
        raise ReplayError(f"{path}: not a capture record ({type(error).__name__}: {error})") from None
    if record.first != game_streams(record.seed)[0]:
        raise ReplayError(f"{path}: its first mover {record.first} is not the one its seed {record.seed} draws")
    return record


def recorded_views(record: CaptureRecord) -> Iterator[tuple[int | None, CaptureView, CaptureState]]:
    """Every look the game handed an agent, in the game's order: ``(move, view,
    true state)``, ``move`` None for the four first looks, else the number
    (from 0) of the move the view was handed for.  A recorded move that is not
    legal where it was played is a :class:`ReplayError`."""
    _, noise = game_streams(record.seed)
    state = initial_state(record.layout, record.first, record.length)
    for agent in range(NUM_AGENTS):
        yield None, observe(state, agent, noise), state
    for number, (agent, action) in enumerate(record.moves):
        if agent != state.turn or state.over:
            raise ReplayError(f"move {number}: agent {agent} moved, but it was agent {state.turn}'s turn")
        yield number, observe(state, agent, noise), state
        for legal, target in state.legal_moves(agent):
            if legal == action:
                state = apply_move(state, agent, legal, target)
                break
        else:
            raise ReplayError(f"move {number}: {action!r} is not legal for agent {agent}")

