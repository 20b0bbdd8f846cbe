"""Game records as versioned JSON (never pickle): enough to replay a game exactly."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pacsim.engine.game import GameRecord, replay
from pacsim.engine.layout import Layout, parse_layout
from pacsim.engine.state import GameState
from pacsim.errors import IllegalActionError, LayoutError, ReplayError
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
    Path(path).write_text(json.dumps(game_to_dict(record, layout, pacman, ghosts), indent=1) + "\n", encoding="utf-8")


def game_from_dict(data: Any, source: str = "<record>") -> SavedGame:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ReplayError(f"{source}: not a pacsim game record (no \"format\": {FORMAT!r})")
    if data.get("version") != VERSION:
        raise ReplayError(f"{source}: record version {data.get('version')!r} is not supported (this pacsim reads {VERSION})")
    try:
        layout_data = data["layout"]
        layout = parse_layout(layout_data["text"], name=layout_data["name"], source=f"{source} (layout)")
        actions = [str(action) for action in data["actions"]]
        saved = SavedGame(
            layout=layout,
            num_ghosts=int(data["num_ghosts"]),
            actions=actions,
            seed=data.get("seed"),
            pacman=str(data.get("pacman", "?")),
            ghosts=[str(ghost) for ghost in data.get("ghosts", [])],
            outcome=data.get("outcome"),
            score=data.get("score"),
        )
    except (KeyError, TypeError, ValueError) as error:
        if isinstance(error, LayoutError):
            raise ReplayError(str(error)) from None
        raise ReplayError(f"{source}: malformed record ({type(error).__name__}: {error})") from None
    return saved


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
