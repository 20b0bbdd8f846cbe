"""Game records as versioned JSON (never pickle): enough to replay a game exactly."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pacsim.engine.game import GameRecord, replay
from pacsim.engine.layout import Layout, parse_layout
from pacsim.engine.state import GameState
from pacsim.errors import ConfigError, IllegalActionError, LayoutError, ReplayError
from pacsim.files import FileRefused, read_bounded

FORMAT = "pacsim-game"
VERSION = 1
MAX_RECORD_BYTES = 64 << 20
"""Largest record read (a 1,000-move game with four ghosts is about 100 KB)."""


@dataclass
class SavedGame:
    """A recorded game read back: its layout, agents and actions."""

    layout: Layout
    num_ghosts: int
    actions: list[str]
    seed: int | None
    pacman: str
    ghosts: list[str]
    outcome: str | None
    score: int | None

    def states(self) -> list[GameState]:
        """Every state of the game, replayed through the rules."""
        try:
            return replay(self.layout, self.num_ghosts, self.actions)
        except IllegalActionError as error:
            raise ReplayError(f"the recorded actions do not fit the layout: {error}") from None


def game_to_dict(record: GameRecord, layout: Layout, pacman: str, ghosts: list[str]) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "layout": {"name": layout.name, "text": layout.text},
        "pacman": pacman,
        "ghosts": list(ghosts),
        "num_ghosts": record.num_ghosts,
        "seed": record.seed,
        "actions": list(record.actions),
        "outcome": record.outcome,
        "score": record.score,
        "moves": record.moves,
        "error": record.error,
    }


def save_game(path: str | Path, record: GameRecord, layout: Layout, pacman: str, ghosts: list[str]) -> None:
    try:
        Path(path).write_text(json.dumps(game_to_dict(record, layout, pacman, ghosts), indent=1) + "\n", encoding="utf-8")
    except OSError as error:  # a full disk, say: the place itself was checked before the game (files.check_output)
        raise ConfigError(f"{path}: cannot write the record: {error.strerror or error}") from None


def game_from_dict(data: Any, source: str = "<record>") -> SavedGame:
    """A record read back from its JSON form; anything missing or of the wrong
    type is a one-line :class:`ReplayError` naming the field."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ReplayError(f"{source}: not a pacsim game record (no \"format\": {FORMAT!r})")
    if data.get("version") != VERSION:
        raise ReplayError(f"{source}: record version {describe(data.get('version'))} is not supported "
                          f"(this pacsim reads {VERSION})")
    layout_data = _field(data, "layout", dict, source)
    try:
        layout = parse_layout(_field(layout_data, "text", str, source, "layout."),
                              name=_field(layout_data, "name", str, source, "layout."), source=f"{source} (layout)")
    except LayoutError as error:
        raise ReplayError(str(error)) from None
    return SavedGame(
        layout=layout,
        num_ghosts=check_num_ghosts(layout, _field(data, "num_ghosts", int, source), source),
        actions=_strings(_field(data, "actions", list, source), "actions", source),
        seed=_field(data, "seed", int, source, optional=True),
        pacman=_field(data, "pacman", str, source, optional=True) or "?",
        ghosts=_strings(_field(data, "ghosts", list, source, optional=True) or [], "ghosts", source),
        outcome=_field(data, "outcome", str, source, optional=True),
        score=_field(data, "score", int, source, optional=True),
    )


_KIND_NAMES = {dict: "an object", list: "an array", str: "a string", int: "an integer"}


def _field(data: dict, key: str, kind: type, source: str, prefix: str = "", optional: bool = False) -> Any:
    """``data[key]`` if it is a ``kind`` (a bool is no integer); an optional
    field may be missing or null (then None)."""
    value = data.get(key)
    if value is None and optional:
        return None
    if key not in data:
        raise ReplayError(f"{source}: malformed record: no \"{prefix}{key}\"")
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ReplayError(f"{source}: malformed record: \"{prefix}{key}\" must be {_KIND_NAMES[kind]}, not {describe(value)}")
    return value


def _strings(values: list, key: str, source: str) -> list[str]:
    for index, value in enumerate(values):
        if not isinstance(value, str):
            raise ReplayError(f"{source}: malformed record: \"{key}\"[{index}] must be a string, not {describe(value)}")
    return values


def check_num_ghosts(layout: Layout, num_ghosts: int, source: str) -> int:
    """``num_ghosts`` if the layout has that many ghosts, else a :class:`ReplayError`."""
    if not 0 <= num_ghosts <= layout.num_ghosts:
        raise ReplayError(f"{source}: {num_ghosts} ghosts recorded, but the layout has {layout.num_ghosts}")
    return num_ghosts


def describe(value: Any) -> str:
    """A value for a message: short scalars as themselves, containers by kind
    only (a deeply nested one would overflow ``repr``)."""
    if isinstance(value, (list, dict)):
        return f"{_KIND_NAMES[type(value)]} of {len(value)} items"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def load_game(path: str | Path) -> SavedGame:
    """Read a game record written by :func:`save_game`; every failure is a :class:`ReplayError`."""
    path = Path(path)
    try:
        data = json.loads(read_bounded(path, MAX_RECORD_BYTES).decode("utf-8"))
    except FileRefused as error:
        raise ReplayError(f"{path}: {error}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ReplayError(f"{path}: not a JSON game record ({error})") from None
    except RecursionError:
        raise ReplayError(f"{path}: not a game record (JSON nested too deeply)") from None
    return game_from_dict(data, str(path))
