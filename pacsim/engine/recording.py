"""Game records as versioned JSON (never pickle): enough to replay a game exactly.

Version 2 writes the actions as one letter each (``"NSEWX"``), as the results
store does: a record of millions of moves stays a few megabytes, and reading
it back needs memory in proportion.  Version 1 records (a JSON list of action
names) are still read.  A record says which random streams its agents were
given (``"streams"``, :mod:`pacsim.engine.streams`); one without says
nothing because it was played before there was a choice: version 1.  Replays walk the states one at a time
(:meth:`SavedGame.iter_states`); only the window keeps them all."""

from __future__ import annotations

import hashlib
import json
import json.decoder
import json.scanner
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pacsim.engine.game import GameRecord, short_repr
from pacsim.engine.layout import ACTIONS, MAX_FILE_BYTES, Layout, parse_layout
from pacsim.engine.state import GameState, initial_state
from pacsim.engine.streams import STREAM_VERSION, STREAM_VERSIONS, STRING_STREAMS
from pacsim.errors import ConfigError, IllegalActionError, LayoutError, ReplayError
from pacsim.files import FileRefused, read_bounded, write_atomically

FORMAT = "pacsim-game"
VERSION = 2
READ_VERSIONS = (1, 2)
MAX_RECORD_ACTIONS = 10_000_000
"""Most actions in a record, written or read: the one limit both sides keep
(``pacsim play --record`` refuses, before the game, a move cap that could exceed it)."""
MAX_RECORD_BYTES = 64 << 20
"""Largest record read: a version-2 record of :data:`MAX_RECORD_ACTIONS`
actions (one byte each) and the largest layout fits with room to spare, as
does a version-1 record of a 1,000,000-action game."""
# What --record may write must be readable: the letters, a layout file's text escaped (two bytes a byte at most), the rest.
assert MAX_RECORD_ACTIONS + 2 * MAX_FILE_BYTES + (1 << 20) <= MAX_RECORD_BYTES

_LETTER = {"North": "N", "South": "S", "East": "E", "West": "W", "Stop": "X"}
_ACTION = {letter: action for action, letter in _LETTER.items()}
assert set(_LETTER) == set(ACTIONS)


@dataclass(repr=False)
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
    fault: str | None = None
    """A sandboxed entrant's fault that ended the game early (its outcome then stands as recorded)."""
    streams: int = STREAM_VERSION
    """The version of the random streams the game's agents had (:mod:`pacsim.engine.streams`):
    what rebuilding its Pacman's searches along the replay needs."""

    __repr__ = short_repr

    def states(self) -> list[GameState]:
        """Every state of the game, replayed through the rules (a window needs them all)."""
        return list(self.iter_states())

    def iter_states(self) -> Iterator[GameState]:
        """The states one by one, each computed when asked for: memory stays
        that of the actions, however long the game."""
        state = initial_state(self.layout, self.num_ghosts)
        yield state
        for action in self.actions:
            try:
                state = state.successor(action)
            except IllegalActionError as error:
                raise ReplayError(f"the recorded actions do not fit the layout: {error}") from None
            yield state


def encode_actions(actions: list[str]) -> str:
    """The replay log as one letter per action (a JSON list if an action has no letter)."""
    if all(action in _LETTER for action in actions):
        return "".join(_LETTER[action] for action in actions)
    return json.dumps(actions)


def decode_actions(text: str) -> list[str]:
    """The actions of a replay log; ``ValueError`` names what is wrong with a damaged one."""
    if text.startswith("["):
        try:
            actions = json.loads(text)
        except (json.JSONDecodeError, RecursionError):
            raise ValueError("a replay log that is not a JSON list") from None
        if not isinstance(actions, list) or not all(isinstance(action, str) for action in actions):
            raise ValueError("a replay log that is not a list of action names")
        return actions
    unknown = set(text) - set(_ACTION)
    if unknown:
        raise ValueError(f"unknown action letter {min(unknown)!r} in the replay log (known: {''.join(_ACTION)})")
    return [_ACTION[letter] for letter in text]  # the five shared names: 8 bytes an action


def pacman_actions(log: str, num_ghosts: int) -> str:
    """Pacman's moves from a replay log (every agent's actions, Pacman first in each round)."""
    if not log.startswith("["):  # one letter per action: slicing is enough
        return log[::num_ghosts + 1]
    return ",".join(decode_actions(log)[::num_ghosts + 1])


def line_of_play(log: str, num_ghosts: int, start: int | None) -> int:
    """A game's line of play (Pacman's start and his moves; the ghosts' left
    out) as a 64-bit fingerprint: games of one line share it, two lines
    share one with odds of 2**-64 a pair.  A damaged log is a line of its own."""
    try:
        moves = pacman_actions(log, num_ghosts)
    except ValueError:
        moves = log
    digest = hashlib.blake2b(f"{start}:{moves}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)  # signed: an SQLite integer


def game_to_dict(record: GameRecord, layout: Layout, pacman: str, ghosts: list[str]) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "layout": {"name": layout.name, "text": layout.text},
        "pacman": pacman,
        "ghosts": list(ghosts),
        "num_ghosts": record.num_ghosts,
        "seed": record.seed,
        "streams": record.streams,
        "actions": encode_actions(record.actions),
        "outcome": record.outcome,
        "score": record.score,
        "moves": record.moves,
        "error": record.error,
        **({"fault": record.fault} if record.fault else {}),  # records without a fault stay as they were
    }


def save_game(path: str | Path, record: GameRecord, layout: Layout, pacman: str, ghosts: list[str]) -> None:
    if len(record.actions) > MAX_RECORD_ACTIONS:  # play checks its move cap first: this is the last guard
        raise ConfigError(f"{path}: {len(record.actions):,} actions, more than a record holds ({MAX_RECORD_ACTIONS:,})")
    write_atomically(path, json.dumps(game_to_dict(record, layout, pacman, ghosts), indent=1) + "\n", "the record")


def game_from_dict(data: Any, source: str = "<record>") -> SavedGame:
    """A record read back from its JSON form; anything missing or of the wrong
    type is a one-line :class:`ReplayError` naming the field."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ReplayError(f"{source}: not a pacsim game record (no \"format\": {FORMAT!r})")
    if data.get("version") not in READ_VERSIONS:
        raise ReplayError(f"{source}: record version {describe(data.get('version'))} is not supported "
                          f"(this pacsim reads {' and '.join(map(str, READ_VERSIONS))})")
    layout_data = _field(data, "layout", dict, source)
    try:
        layout = parse_layout(_field(layout_data, "text", str, source, "layout."),
                              name=_field(layout_data, "name", str, source, "layout."), source=f"{source} (layout)")
    except LayoutError as error:
        raise ReplayError(str(error)) from None
    return SavedGame(
        layout=layout,
        num_ghosts=check_num_ghosts(layout, _field(data, "num_ghosts", int, source), source),
        actions=_actions(data, source),
        seed=_field(data, "seed", int, source, optional=True),
        pacman=_field(data, "pacman", str, source, optional=True) or "?",
        ghosts=_strings(_field(data, "ghosts", list, source, optional=True) or [], "ghosts", source),
        outcome=_field(data, "outcome", str, source, optional=True),
        score=_field(data, "score", int, source, optional=True),
        fault=_field(data, "fault", str, source, optional=True),
        streams=_stream_version(data, source),
    )


def _stream_version(data: dict, source: str) -> int:
    """The record's random-stream version: absent in records from before there were two (version 1)."""
    version = _field(data, "streams", int, source, optional=True)
    if version is None:
        return STRING_STREAMS
    if version not in STREAM_VERSIONS:
        raise ReplayError(f"{source}: random stream version {describe(version)} is not one this pacsim knows "
                          f"({', '.join(map(str, STREAM_VERSIONS))})")
    return version


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


def _actions(data: dict, source: str) -> list[str]:
    """The recorded actions: letters (version 2) or a list of names (version 1), at most :data:`MAX_RECORD_ACTIONS`."""
    actions = data.get("actions")
    if isinstance(actions, str):
        try:
            decoded = decode_actions(actions)
        except ValueError as error:
            raise ReplayError(f"{source}: malformed record: \"actions\": {error}") from None
    else:
        names = _strings(_field(data, "actions", list, source), "actions", source)
        decoded = [_ACTION.get(_LETTER.get(name, ""), name) for name in names]  # shared names, not a copy each
    if len(decoded) > MAX_RECORD_ACTIONS:
        raise ReplayError(f"{source}: {len(decoded):,} actions, more than a record holds ({MAX_RECORD_ACTIONS:,})")
    return decoded


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
        data = _parse_record(read_bounded(path, MAX_RECORD_BYTES).decode("utf-8"))
    except FileRefused as error:
        raise ReplayError(f"{path}: {error}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ReplayError(f"{path}: not a JSON game record ({error})") from None
    except RecursionError:
        raise ReplayError(f"{path}: not a game record (JSON nested too deeply)") from None
    return game_from_dict(data, str(path))


LARGE_RECORD_CHARS = MAX_RECORD_ACTIONS + (4 << 20)
"""Longer than any version-2 record (its actions and the largest layout): a
version-1 record with a list of millions of action names."""


def _parse_record(text: str) -> Any:
    """The JSON of a record.  A large one is parsed keeping one string per
    action name: a string object per action (about 60 bytes each) would need
    ten times the file's size; this needs about twice it, at the speed of
    Python's own (slower) parser, for version-1 records only."""
    if len(text) <= LARGE_RECORD_CHARS:
        return json.loads(text)
    decoder = json.JSONDecoder()
    scan = json.decoder.scanstring  # type: ignore[attr-defined]  # public in the module, missing from its stubs

    def shared_string(string: str, end: int, strict: bool) -> tuple[str, int]:
        value, end = scan(string, end, strict)
        return _ACTION.get(_LETTER.get(value, ""), value), end

    decoder.parse_string = shared_string  # type: ignore[attr-defined]  # the pure-Python scanner looks it up
    decoder.scan_once = json.scanner.py_make_scanner(decoder)  # type: ignore[attr-defined]
    return decoder.decode(text)
