"""pacsim from Python: play games, run experiments, read recorded ones.

>>> games = pacsim.play("tinyGhostMaze", pacman="greedy", ghosts="random", games=2, seed=1)
>>> games[0].score, games[0].outcome          # doctest: +SKIP
>>> frame = pacsim.run("optimism_pessimism", games=2, store="op.sqlite")   # doctest: +SKIP
>>> pacsim.report(frame)                      # doctest: +SKIP

In Jupyter a game shows as the HTML player (importing this module inside
IPython registers the display of the engine's records, see
:mod:`pacsim.web.notebook`).  Every argument is checked here: a wrong type
or range is one :class:`~pacsim.errors.ConfigError` naming it.
"""

from __future__ import annotations

import html
import secrets
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pacsim import arguments
from pacsim.agents.registry import make_ghost, make_pacman
from pacsim.agents.training import ghost_count
from pacsim.engine import load_layout
from pacsim.engine.game import DEFAULT_MAX_MOVES, MAX_MOVES_LIMIT, GameRecord, play_game
from pacsim.engine.layout import Layout
from pacsim.engine.recording import SavedGame, load_game, save_game
from pacsim.engine.state import GameState
from pacsim.errors import ConfigError
from pacsim.runner.experiment import MAX_GAMES, Experiment, build_experiment, check_time_limit, load_experiment
from pacsim.shipped import find_experiment
from pacsim.web import notebook, player
from pacsim.web.tree import TreeView, move_tree

if TYPE_CHECKING:
    import pandas

MAX_PLAYED_GAMES = 1_000
"""The most games one :func:`play` call keeps in memory (every record, with
its replay log and per-move statistics: about 120 KiB a game of alpha-beta
at depth 2 on smallClassic, so at most a few hundred MB); more games belong
in a results store: :func:`run` or ``pacsim run``."""
RANDOM_SEEDS = 2**31
"""``seed=None`` draws from ``0 .. RANDOM_SEEDS - 1``, as ``pacsim play`` without ``--seed`` does."""


@dataclass(frozen=True, repr=False)
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

    def tree(self, move: int, pacman: str | None = None) -> TreeView:
        """The tree Pacman searched before his move ``move`` (0: the start),
        searched again in Python; ``pacman`` (a spec) searches instead of the
        game's own.  Jupyter shows it as the tree page (docs/tree.md)."""
        return move_tree(self.saved(), move, pacman or self.pacman)  # the spec this game was played with, as given

    def __repr__(self) -> str:
        # The record's own repr lists every action and every move's statistics: too much to read.
        return (f"<PlayedGame {self.layout.name}: {_agents(self.pacman, self.ghosts)}, seed {self.record.seed}: "
                f"{self.outcome} score {self.score} moves {self.moves}>")

    def _repr_html_(self) -> str:
        return player.saved_game_html(self.saved())


def _agents(pacman: str, ghosts: tuple[str, ...]) -> str:
    return pacman + (f" vs {', '.join(sorted(set(ghosts)))}" if ghosts else "")


class Games(list[PlayedGame]):
    """The games of one :func:`play` call; a notebook shows a table of them
    and the first game's player, ``repr`` one line, :meth:`to_frame` a
    DataFrame."""

    def to_frame(self) -> pandas.DataFrame:
        """One row per game: ``game`` (its index here), ``layout``, ``pacman``,
        ``ghosts``, ``seed``, ``outcome``, ``score``, ``moves``, ``seconds``
        (wall time of the game) and ``nodes`` (search nodes generated)."""
        import pandas  # only when asked for: ``import pacsim`` stays light

        columns = ["game", "layout", "pacman", "ghosts", "seed", "outcome", "score", "moves", "seconds", "nodes"]
        rows = [(index, game.layout.name, game.pacman, ",".join(game.ghosts), game.record.seed, game.outcome,
                 game.score, game.moves, game.record.seconds, game.record.nodes) for index, game in enumerate(self)]
        return pandas.DataFrame(rows, columns=columns)

    def __repr__(self) -> str:
        if not self:
            return "<Games: none>"
        first = self[0]
        seeds = sorted(game.record.seed for game in self)
        wins = sum(game.outcome == "win" for game in self)
        mean = sum(game.score for game in self) / len(self)
        return (f"<Games: {len(self)} on {first.layout.name}, {_agents(first.pacman, first.ghosts)}, "
                f"seeds {seeds[0]}..{seeds[-1]}: {wins} won, mean score {mean:.1f} "
                "(games[i] one game, .to_frame() a table)>")

    def _repr_html_(self) -> str:
        rows = "".join(f"<tr><td>{index}</td><td>{game.record.seed}</td><td>{html.escape(game.outcome)}</td>"
                       f"<td>{game.score}</td><td>{game.moves}</td></tr>" for index, game in enumerate(self))
        table = f"<table><tr><th>game</th><th>seed</th><th>outcome</th><th>score</th><th>moves</th></tr>{rows}</table>"
        first = self[0]._repr_html_() if self else ""
        return table + ("<p>game 0 (show another with <code>games[i]</code>):</p>" + first if self else "")


def play(layout: str | Path | Layout = "smallClassic", pacman: str = "greedy", ghosts: str = "random", *,
         games: int = 1, seed: int | None = 0, num_ghosts: int | None = None, max_moves: int = DEFAULT_MAX_MOVES,
         move_time_limit: float | None = None) -> Games:
    """Play ``games`` games (seeds ``seed``, ``seed + 1``, ...) as ``pacsim play`` does.

    ``pacman`` and ``ghosts`` are agent specs as on the command line
    (``"expectimax:depth=3,eval=careful"``); ``num_ghosts`` defaults to every
    ghost in the layout.

    ``seed`` defaults to 0, so that a notebook cell plays the same games
    each time it runs; ``seed=None`` draws a random first seed, as ``pacsim
    play`` does without ``--seed`` (each record keeps its seed either way).
    Every game is kept in memory, so ``games`` is at most
    :data:`MAX_PLAYED_GAMES`; :func:`run` plays any number into a store.
    """
    maze = _layout(layout)
    pacman = arguments.text(pacman, "pacman", "greedy")
    ghosts = arguments.text(ghosts, "ghosts", "random")
    games = arguments.integer(games, "games", 0)
    if games > MAX_PLAYED_GAMES:
        raise ConfigError(f"games={games}: play keeps every game in memory, at most {MAX_PLAYED_GAMES:,}; "
                          "pacsim.run (or the command pacsim run) plays any number into a results store")
    first_seed = secrets.randbelow(RANDOM_SEEDS) if seed is None else arguments.integer(seed, "seed", 0)
    max_moves = arguments.integer(max_moves, "max_moves", 1, MAX_MOVES_LIMIT)
    count = ghost_count(maze, num_ghosts)
    if move_time_limit is not None:  # 0 means no limit, as on the command line
        move_time_limit = check_time_limit(_number(move_time_limit, "move_time_limit"), "move_time_limit") or None
    agents: list[Any] = [make_pacman(pacman), *(make_ghost(ghosts) for _ in range(count))]
    notebook.remember_layout(maze)  # a bare record of this game can then show as the player too
    played = Games()
    for game in range(games):
        record = play_game(maze, agents, seed=first_seed + game, max_moves=max_moves, move_time_limit=move_time_limit)
        played.append(PlayedGame(record, maze, pacman, (ghosts,) * count))
    return played


def _layout(layout: Any) -> Layout:
    if isinstance(layout, Layout):
        return layout
    if not isinstance(layout, str | Path):
        raise ConfigError(f"layout={layout!r}: must be a layout name, a .lay path or a Layout")
    return load_layout(layout)


def _number(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ConfigError(f"{name}={value!r}: must be a number of seconds")
    return float(value)


def run(config: str | Path | Mapping[str, Any], *, games: int | None = None, store: str | Path | None = None,
        workers: int | None = None, progress: bool = True) -> pandas.DataFrame:
    """Run an experiment as ``pacsim run`` does; its games, one row each (the
    columns of :func:`pacsim.load_results`).

    ``config``: an experiment file, a shipped experiment's name
    (``"optimism_pessimism"``), or a dict in the file's shape
    (``{"games": 10, "grid": {"pacman": [...], "ghosts": [...], "layout": [...]}}``).
    ``games`` overrides the file's count.  Games go to a results store and a
    run resumes there (only the games not yet stored are played): ``store``
    when given, else the file's (its ``store`` key, by default
    ``results/NAME.sqlite``).  A dict without a ``store`` key plays into a
    temporary store, removed once its games are read: nothing is written,
    nothing resumes.  ``workers``: processes (default every core; 1 plays
    here).  ``progress``: a ``tqdm.auto`` bar (a widget in Jupyter when
    ipywidgets is installed).  A game whose agent failed is a row with
    outcome ``error``; the next run plays it again.
    """
    if games is not None:
        games = arguments.integer(games, "games", 1, MAX_GAMES)
    if workers is not None:
        workers = arguments.integer(workers, "workers", 1)
    experiment = _experiment(config, games, store)
    if store is None and isinstance(config, Mapping) and "store" not in config:
        with tempfile.TemporaryDirectory(prefix="pacsim-run-") as folder:
            experiment.store = Path(folder) / "results.sqlite"
            return _play_experiment(experiment, workers, progress)
    return _play_experiment(experiment, workers, progress)


def _experiment(config: Any, games: int | None, store: str | Path | None) -> Experiment:
    if isinstance(config, Mapping):
        raw = dict(config)
        if games is not None:
            raw["games"] = games
        experiment = build_experiment(raw, source="<config>")
    elif isinstance(config, str | Path):
        experiment = load_experiment(find_experiment(config), games=games)
    else:
        raise ConfigError(f"config={config!r}: must be an experiment file, a shipped experiment's name or a dict")
    if store is not None:
        experiment.store = Path(store)
    return experiment


def _play_experiment(experiment: Experiment, workers: int | None, progress: bool) -> pandas.DataFrame:
    from pacsim.runner import load_results, run_experiment

    if progress:
        for note in experiment.notes:
            print(f"pacsim: note: {note}", file=sys.stderr)
    result = run_experiment(experiment, workers=workers, quiet=not progress)
    return experiment.own_games(load_results(result.store)).reset_index(drop=True)


def load_record(path: str | Path) -> SavedGame:
    """A game recorded by ``pacsim play --record`` (every problem a :class:`~pacsim.errors.ReplayError`)."""
    return load_game(path)


notebook.register()  # inside IPython: records display as players
