"""pacsim from Python: play games and read recorded ones.

>>> games = pacsim.play("tinyGhostMaze", pacman="greedy", ghosts="random", games=2, seed=1)
>>> games[0].score, games[0].outcome          # doctest: +SKIP

In Jupyter a game shows as the HTML player (importing this module inside
IPython registers the display of the engine's records, see
:mod:`pacsim.web.notebook`).
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pacsim.agents.registry import make_ghost, make_pacman
from pacsim.agents.training import ghost_count
from pacsim.engine import load_layout
from pacsim.engine.game import DEFAULT_MAX_MOVES, GameRecord, play_game
from pacsim.engine.layout import Layout
from pacsim.engine.recording import SavedGame, load_game, save_game
from pacsim.engine.state import GameState
from pacsim.errors import ConfigError
from pacsim.runner.experiment import check_time_limit
from pacsim.web import notebook, player


@dataclass(frozen=True)
class PlayedGame:
    """One game played from Python: its record and the maze it was played on."""

    record: GameRecord
    layout: Layout
    pacman: str
    """The Pacman spec, e.g. ``minimax:depth=2``."""
    ghosts: tuple[str, ...] = field(default=())

    @property
    def score(self) -> int:
        return self.record.score

    @property
    def outcome(self) -> str:
        return self.record.outcome

    @property
    def moves(self) -> int:
        return self.record.moves

    def saved(self) -> SavedGame:
        """The game as a replayable record (what ``pacsim.load_record`` returns)."""
        return notebook.saved_from_record(self.record, self.layout, self.pacman, list(self.ghosts))

    def save(self, path: str | Path) -> None:
        """Write the game as JSON, as ``pacsim play --record`` does (read it back with :func:`load_record`)."""
        save_game(path, self.record, self.layout, self.pacman, list(self.ghosts))

    def states(self) -> list[GameState]:
        """Every state of the game, replayed through the rules."""
        return self.saved().states()

    def _repr_html_(self) -> str:
        return player.saved_game_html(self.saved())


class Games(list[PlayedGame]):
    """The games of one :func:`play` call; a notebook shows a table of them and the first game's player."""

    def _repr_html_(self) -> str:
        rows = "".join(f"<tr><td>{index}</td><td>{game.record.seed}</td><td>{html.escape(game.outcome)}</td>"
                       f"<td>{game.score}</td><td>{game.moves}</td></tr>" for index, game in enumerate(self))
        table = f"<table><tr><th>game</th><th>seed</th><th>outcome</th><th>score</th><th>moves</th></tr>{rows}</table>"
        first = self[0]._repr_html_() if self else ""
        return table + ("<p>game 0 (show another with <code>games[i]</code>):</p>" + first if self else "")


def play(layout: str | Path | Layout = "smallClassic", pacman: str = "greedy", ghosts: str = "random", *,
         games: int = 1, seed: int = 0, num_ghosts: int | None = None, max_moves: int = DEFAULT_MAX_MOVES,
         move_time_limit: float | None = None) -> Games:
    """Play ``games`` games (seeds ``seed``, ``seed + 1``, ...) as ``pacsim play`` does.

    ``pacman`` and ``ghosts`` are agent specs as on the command line
    (``"expectimax:depth=3,eval=careful"``); ``num_ghosts`` defaults to every
    ghost in the layout.
    """
    maze = layout if isinstance(layout, Layout) else load_layout(layout)
    if games < 0:
        raise ConfigError(f"games={games}: must be at least 0")
    count = ghost_count(maze, num_ghosts)
    if move_time_limit is not None:  # 0 means no limit, as on the command line
        move_time_limit = check_time_limit(move_time_limit, "move_time_limit") or None
    agents: list[Any] = [make_pacman(pacman), *(make_ghost(ghosts) for _ in range(count))]
    played = Games()
    for game in range(games):
        record = play_game(maze, agents, seed=seed + game, max_moves=max_moves, move_time_limit=move_time_limit)
        played.append(PlayedGame(record, maze, pacman, (ghosts,) * count))
    return played


def load_record(path: str | Path) -> SavedGame:
    """A game recorded by ``pacsim play --record`` (every problem a :class:`~pacsim.errors.ReplayError`)."""
    return load_game(path)


notebook.register()  # inside IPython: records display as players
