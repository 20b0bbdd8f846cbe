"""``pacsim replay``: replay a recorded game through the rules and check its score.

The record is a JSON file written by ``pacsim play --record`` or a game in a
results store (``results/x.sqlite --game 17``).  Every state is recomputed
from the recorded actions, so the replay shows exactly what happened and
proves the recorded score.  Exit status 1 when the replayed score differs.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path

from pacsim.cli.common import add_display_options, check_outputs, wants_window
from pacsim.engine.recording import SavedGame, load_game
from pacsim.engine.state import TEXT_LEGEND, GameState
from pacsim.errors import ConfigError
from pacsim.files import check_output
from pacsim.viewer.settings import WindowSettings
from pacsim.web.cli import add_html_options, check_html_options, write_replay_html

STORE_SUFFIXES = (".sqlite", ".db")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", help="a game record (.json) or a results store (.sqlite/.db, with --game)")
    parser.add_argument("--game", type=int, default=None, help="the game's id in a results store")
    parser.add_argument("--list", dest="list_games", action="store_true",
                        help="with a results store: list games worth replaying (first win, first loss, longest) and their ids")
    # No --show-values: a replay has no agents to search (pacsim analyze --game F --move N does).
    add_display_options(parser, quiet_help="only the final line", show_values=False)
    add_html_options(parser)


def load_replay(path: str, game_id: int | None = None) -> SavedGame:
    """A recorded game from a JSON file, or game ``game_id`` of a results store."""
    if Path(path).suffix.lower() in STORE_SUFFIXES:
        from pacsim.runner.store import load_saved_game  # the runner: only for a store

        if game_id is None:
            raise ConfigError(f"{path} is a results store: choose a game with --game ID (--list names some)")
        return load_saved_game(path, game_id)
    if game_id is not None:
        raise ConfigError(f"--game {game_id}: only a results store (.sqlite/.db) holds several games")
    _check_numbered_records(Path(path))
    return load_game(path)


def _check_numbered_records(path: Path) -> None:
    """``play -n 10 --record game.json`` writes game-1.json ... game-10.json:
    replaying game.json then names those, rather than only "no such file"."""
    if path.exists() or not path.parent.is_dir():
        return
    numbered = sorted((int(entry.stem[len(path.stem) + 1:]), entry.name)
                      for entry in path.parent.glob(f"{path.stem}-*{path.suffix}")
                      if entry.stem[len(path.stem) + 1:].isdigit())
    if numbered:
        first, last = numbered[0][1], numbered[-1][1]
        held = first if len(numbered) == 1 else f"{first} ... {last}"
        raise ConfigError(f"{path}: no such file; play -n N --record {path.name} wrote one record a game "
                          f"({held}): replay one of those")


def run(args: argparse.Namespace) -> int:
    if args.list_games:
        return list_games(args.record)
    settings = WindowSettings.from_options(args)
    window = (args.window or not args.html) and wants_window(args)  # --html alone: no window
    check_outputs(args, inputs=[args.record])
    check_html_options(args)
    if args.html:
        check_output(args.html, "--html", inputs=[args.record])
    saved = load_replay(args.record, args.game)
    # The window steps back and forth and a page holds every position: those need all the states at once.
    states = saved.states() if window or args.html or args.html_values else None  # ReplayError at an illegal action
    outcome = replay_outcome(saved, states[-1]) if states is not None else None
    if states is not None:
        write_replay_html(args, saved, states, outcome)
    if window and states is not None:
        from pacsim.viewer import replay_in_window

        replay_in_window(states, outcome=outcome, options=settings,
                         title=f"pacsim replay: {Path(args.record).name}")
        final, moves = _Counted(iter(states), show=False).to_the_end()
    else:
        final, moves = _replay_streamed(saved, iter(states) if states is not None else saved.iter_states(), args,
                                        settings)
    line, matches = summary(saved, final, moves)
    if settings.exporting:
        line += f"  ({settings.describe_exports()})"
    print(line)
    return 0 if matches else 1


def list_games(store: str) -> int:
    """``--list``: the games of a results store worth replaying, with their ids."""
    if Path(store).suffix.lower() not in STORE_SUFFIXES:
        raise ConfigError(f"--list: {store} is not a results store (.sqlite/.db); a record holds one game")
    from pacsim.report.format import replay_list
    from pacsim.report.store_report import store_games_to_replay
    from pacsim.runner.aggregate import StoreQuery

    with StoreQuery(store) as query:  # three queries in the store: no frame of every game
        print(replay_list(None, store, store_games_to_replay(query)))
    return 0


def _replay_streamed(saved: SavedGame, states: Iterator[GameState], args: argparse.Namespace,
                     settings: WindowSettings) -> tuple[GameState, int]:
    """Replay without a window, one state at a time (memory stays that of the
    record however long the game): the boards for --text, the files for
    --save-frames and --gif.  The final state and Pacman's moves."""
    counted = _Counted(states, show=args.text)
    if settings.exporting:
        from pacsim.viewer import replay_to_files

        replay_to_files(counted, outcome_of=lambda final: replay_outcome(saved, final), options=settings)
    return counted.to_the_end()


class _Counted:
    """The states of a replay passed on one by one, counting Pacman's moves,
    keeping the last, and printing the boards when asked."""

    def __init__(self, states: Iterator[GameState], show: bool) -> None:
        self.states = states
        self.show = show
        self.final: GameState | None = None
        self.moves = 0

    def __iter__(self) -> Iterator[GameState]:
        for state in self.states:
            first = self.final is None
            if self.final is not None and self.final.turn == 0:
                self.moves += 1
            self.final = state
            if self.show and (state.turn == 0 or state.is_terminal):
                if first:
                    print(TEXT_LEGEND)
                print(state.to_text())
                print(f"score {state.score}\n")
            yield state

    def to_the_end(self) -> tuple[GameState, int]:
        """The final state and Pacman's moves, once the states left are passed through."""
        for _ in self:
            pass
        assert self.final is not None  # a replay has at least its start state
        return self.final, self.moves


def replay_outcome(saved: SavedGame, final: GameState) -> str | None:
    """How the replayed game ended: the rules decide win and loss; a game that
    stopped early keeps its recorded reason (timeout, error, an entrant's fault)."""
    if saved.fault is not None and not final.is_terminal:
        return saved.outcome
    if final.is_win():
        return "win"
    if final.is_lose():
        return "loss"
    return saved.outcome if saved.outcome in ("timeout", "error") else None


def summary(saved: SavedGame, final: GameState, moves: int) -> tuple[str, bool]:
    """The final line and whether the replay (ending in ``final`` after
    ``moves`` Pacman moves) agrees with the record."""
    outcome = replay_outcome(saved, final) or "unfinished"
    line = f"replay {saved.layout.name}: {outcome} score {final.score} moves {moves}"
    if saved.score is None:
        return line + ", no recorded score to compare", True
    matches = saved.score == final.score and (saved.outcome is None or saved.outcome == outcome)
    if matches:
        return line + f", matches the recorded score {saved.score}", True
    return line + f", DOES NOT match the record (score {saved.score}, {saved.outcome})", False
