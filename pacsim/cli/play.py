"""``pacsim play``: play games and print how they went, like CS188's pacman.py."""

from __future__ import annotations

import argparse
import secrets
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pacsim.agents.api import ValuingAgent
from pacsim.agents.registry import GHOST, PACMAN, join_spec, make_ghost, make_pacman, parse_options, resolve
from pacsim.agents.sandbox import Limits, needs_sandbox, sandboxed
from pacsim.agents.simple import KEYBOARD_NEEDS, KeyboardPacman
from pacsim.cli.common import add_debug_option, options_given_once, wants_window
from pacsim.cli.cs188 import add_cs188_options, apply_cs188_options, course_layout_folders, training_games
from pacsim.engine import DEFAULT_MAX_MOVES, ERROR, GameRecord, check_max_moves, find_layout, play_game, recording
from pacsim.engine.layout import Layout
from pacsim.engine.names import local_layout
from pacsim.engine.recording import save_game
from pacsim.engine.starts import DEFAULT_START_DISTANCE, LAYOUT, STARTS, draw_start, start_cells, with_pacman_start
from pacsim.engine.state import TEXT_LEGEND, GameState
from pacsim.errors import ConfigError
from pacsim.files import check_output
from pacsim.runner.execute import AllGamesFailed
from pacsim.runner.experiment import MAX_GAMES, check_time_limit
from pacsim.viewer import ViewerClosed
from pacsim.viewer.settings import WindowSettings


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser("play", help="play games (in a window when a display is available)")
    add_arguments(parser)
    parser.set_defaults(run=run)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Every option of ``pacsim play``, in one place so that other option
    sets (CS188's habits) can be added beside them."""
    add_game_options(parser)
    parser.add_argument("-n", "--games", "--numGames", dest="games", type=int, default=1, help="number of games (default 1)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the first game (game i uses seed+i); random if omitted")
    parser.add_argument("--record", metavar="FILE", help="save the game as JSON (FILE-i.json for each game when -n > 1)")
    parser.add_argument("--sandbox", action="store_true",
                        help="play each plugin agent in its own sandboxed process, under the default limits (docs/sandbox.md)")
    add_display_options(parser, quiet_help="no board, one line per game")
    add_cs188_options(parser)


def add_display_options(parser: argparse.ArgumentParser, quiet_help: str, show_values: bool = True) -> None:
    """How a game is shown: quiet, text, or a window (the default with a
    display); ``show_values`` offers --show-values (not to replays, which
    have no agents to search)."""
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument("-q", "--quiet", action="store_true", help=quiet_help)
    shown.add_argument("-t", "--text", action="store_true", help="draw the board in the terminal")
    shown.add_argument("-w", "--window", action="store_true", help="watch in a pygame window (default when a display is available)")
    add_window_options(parser, show_values)


def add_game_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-l", "--layout", default=None,
                        help="NAME (./NAME.lay, ./layouts/NAME.lay, then shipped), a .lay path or generated:w=9,h=7,... "
                             f"(default: {COURSE_DEFAULT_LAYOUT} in a CS188 course folder, as there; else {DEFAULT_LAYOUT})")
    parser.add_argument("-p", "--pacman", default="greedy", help="Pacman agent (default greedy)")
    parser.add_argument("-g", "--ghosts", default="random", help="ghost agent (default random)")
    parser.add_argument("-k", "--num-ghosts", "--numghosts", dest="num_ghosts", type=int, default=None, help="ghosts to use (default: every ghost in the layout)")
    parser.add_argument("-a", "--agent-args", "--agentArgs", dest="agent_args", default="", help="Pacman options, key=value,... (e.g. depth=4,eval=careful)")
    parser.add_argument("--ghost-args", default="", help="ghost options, key=value,... (e.g. attack=0.9)")
    parser.add_argument("--max-moves", type=int, default=DEFAULT_MAX_MOVES, help=f"Pacman moves before a game ends as a timeout (default {DEFAULT_MAX_MOVES})")
    parser.add_argument("--time-limit", type=float, default=None, help="seconds an agent may think per move (0: no limit); over it the game ends as an error")
    parser.add_argument("--starts", choices=STARTS, default=LAYOUT,
                        help="Pacman's start: the layout's P, or a random empty cell drawn from each game's seed (default layout)")
    parser.add_argument("--start-distance", type=int, default=DEFAULT_START_DISTANCE, metavar="STEPS",
                        help=f"with --starts random, the fewest maze steps from every ghost (default {DEFAULT_START_DISTANCE})")
    add_debug_option(parser)


def add_window_options(parser: argparse.ArgumentParser, show_values: bool = True) -> None:
    parser.add_argument("--frame-time", type=float, default=None,
                        help="seconds between frames in the window and the GIF (default 0.1), and between boards with --text (default 0)")
    parser.add_argument("--zoom", type=float, default=1.0, help="scale of the window and of saved frames (default 1.0)")
    if show_values:
        parser.add_argument("--show-values", action="store_true", help="show the search value of each Pacman action")
    parser.add_argument("--save-frames", metavar="DIR", help="write every frame as a PNG into DIR (DIR/game-i with several games); "
                        "without a window, off-screen at full speed")
    parser.add_argument("--gif", metavar="FILE", help="write the game as an animated GIF (FILE-i.gif with several games); "
                        "without a window, off-screen at full speed")


DEFAULT_LAYOUT = "wideClassic"
COURSE_DEFAULT_LAYOUT = "mediumClassic"
"""CS188's default maze, which pacsim does not ship (its own differs)."""


def default_layout(course_folders: list[Path]) -> str:
    """CS188's default maze when a course folder holds it, else pacsim's."""
    return DEFAULT_LAYOUT if local_layout(COURSE_DEFAULT_LAYOUT, course_folders) is None else COURSE_DEFAULT_LAYOUT


def build_agents(args: argparse.Namespace, layout: Layout) -> list[Any]:
    """Pacman and the ghosts asked for by -p, -g, -k, -a and --ghost-args."""
    pacman_options = options_given_once(args.pacman, args.agent_args, "-a")
    ghost_options = options_given_once(args.ghosts, args.ghost_args, "--ghost-args")
    ghost_number = ghost_count(args.num_ghosts, layout)
    if getattr(args, "sandbox", False):
        pacman = sandboxed(PACMAN, args.pacman, pacman_options, Limits()) or make_pacman(args.pacman, pacman_options)
        return [pacman] + [sandboxed(GHOST, args.ghosts, ghost_options, Limits()) or make_ghost(args.ghosts, ghost_options)
                           for _ in range(ghost_number)]
    pacman = make_pacman(args.pacman, pacman_options)
    return [pacman, *[make_ghost(args.ghosts, ghost_options) for _ in range(ghost_number)]]


def recorded_specs(args: argparse.Namespace, num_ghosts: int) -> tuple[str, list[str]]:
    """The Pacman and ghost specs a record names: -p with -a, -g with
    --ghost-args, joined as pacsim reads them back (a replay or an analysis rebuilds the agents)."""
    pacman = join_spec(args.pacman, parse_options(args.agent_args))
    return pacman, [join_spec(args.ghosts, parse_options(args.ghost_args))] * num_ghosts


def ghost_count(asked: int | None, layout: Layout) -> int:
    """The ghosts -k asks for; more than the layout has means all of them, as
    in CS188 (with a note: the games have fewer ghosts than typed)."""
    if asked is None:
        return layout.num_ghosts
    if asked < 0:
        raise ConfigError(f"-k {asked}: the number of ghosts cannot be negative")
    if asked > layout.num_ghosts:
        print(f"pacsim: note: -k {asked}: layout {layout.name!r} has {layout.num_ghosts} ghosts; "
              f"playing with those {layout.num_ghosts}, as CS188 does", file=sys.stderr)
        return layout.num_ghosts
    return asked


def run(args: argparse.Namespace) -> int:
    for note in apply_cs188_options(args):
        print(f"pacsim: note: {note}", file=sys.stderr)
    if not 1 <= args.games <= MAX_GAMES:
        raise ConfigError(f"-n {args.games}: the number of games must be from 1 to {MAX_GAMES:,} (as in an experiment)")
    check_max_moves(args.max_moves, f"--max-moves {args.max_moves}")
    if args.time_limit is not None:  # 0 means no limit, as in an experiment file
        args.time_limit = check_time_limit(args.time_limit, f"--time-limit {args.time_limit}") or None
    settings = WindowSettings.from_options(args)
    sandboxed_pacman = getattr(args, "sandbox", False) and needs_sandbox(args.pacman)  # never imported here: no CS188 training
    training = training_games(args, not sandboxed_pacman and resolve(PACMAN, args.pacman).cs188)
    unseen = 0 if args.count_training else training  # --count-training: every game shown, counted and recorded
    games = args.games - unseen
    window = wants_window(args)
    folders = course_layout_folders(args)
    found = find_layout(args.layout or default_layout(folders), folders)
    if found.note:
        print(f"pacsim: note: {found.note}", file=sys.stderr)
    layout = found.layout
    agents = build_agents(args, layout)  # the layout, plugins and weights read: inputs no output may replace
    if isinstance(agents[0], KeyboardPacman) and not window and not sys.stdin.isatty():
        raise ConfigError(f"-p {args.pacman}: {KEYBOARD_NEEDS}")
    check_outputs(args)
    if args.record:
        check_output(_record_path(args.record, 0, games), "--record")
    check_starts(args, layout, len(agents) - 1)
    for note in display_notes(args, window, settings, agents[0]):
        print(f"pacsim: note: {note}", file=sys.stderr)
    if args.record and args.max_moves * len(agents) > recording.MAX_RECORD_ACTIONS:  # never write what replay refuses
        raise ConfigError(f"--record with --max-moves {args.max_moves:,} and {len(agents)} agents: a game could reach "
                          f"{args.max_moves * len(agents):,} actions, more than a record holds "
                          f"({recording.MAX_RECORD_ACTIONS:,}); lower --max-moves")
    first_seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    if unseen:
        _train(args, layout, agents, first_seed, unseen)
    tally = Tally()  # not the records: a million games' records do not fit in memory, their summary does
    try:
        _play_games(args, layout, agents, first_seed + unseen, games, window, settings, tally)
    except KeyboardInterrupt:  # Ctrl-C: what finished is kept, and said
        print(f"interrupted: {tally.summary_line()}{_records_written(args.record, tally.recorded, games)}")
        raise
    print(tally.summary_line())
    if tally.games and tally.errors == tally.games:  # as run: such results mean nothing
        hint = "" if args.debug else " (--debug prints its traceback)"
        raise AllGamesFailed(f"all {tally.games} games ended in error; the first: {tally.first_error}{hint}")
    return 0


def _play_games(args: argparse.Namespace, layout: Layout, agents: list[Any], first_seed: int, games: int,
                window: bool, settings: WindowSettings, tally: Tally) -> None:
    """The counted games, one line each, recorded as asked, added to ``tally``."""
    for game in range(games):
        seed = first_seed + game
        game_settings = settings.for_game(game, games)
        game_layout = start_layout(args, layout, len(agents) - 1, seed)
        try:
            record = _play_one(args, game_layout, agents, seed, window, game_settings)
        except ViewerClosed:  # q, Esc or the close button: the person has seen enough
            print(f"game {game + 1}/{games} (seed {seed}): quit in the window")
            break
        tally.add(record)
        if args.debug and record.error_traceback:
            print(record.error_traceback, end="", file=sys.stderr)
        line = _game_line(game, games, record)
        if game_settings.exporting:
            line += f"  ({game_settings.describe_exports()})"
        print(line)
        if args.record:
            save_game(_record_path(args.record, game, games), record, game_layout,
                      *recorded_specs(args, len(agents) - 1))
            tally.recorded += 1


def _records_written(record: str | None, recorded: int, games: int) -> str:
    """Where the records of the finished games are, after Ctrl-C."""
    if not record or not recorded:
        return "; no record written" if record else ""
    if games == 1:
        return f"; its record is {record}"
    first, last = _record_path(record, 0, games), _record_path(record, recorded - 1, games)
    return f"; the record of game 1 is {first}" if recorded == 1 else f"; their records are {first} ... {last}"


def check_starts(args: argparse.Namespace, layout: Layout, num_ghosts: int) -> None:
    """With ``--starts random``: a distance some empty cell satisfies, checked before any game."""
    if args.starts == LAYOUT:
        return
    if args.start_distance < 1:
        raise ConfigError(f"--start-distance {args.start_distance}: must be at least 1")
    if not start_cells(layout, num_ghosts, args.start_distance):
        raise ConfigError(f"--start-distance {args.start_distance}: layout {layout.name!r} has no empty cell that far "
                          "from every ghost to start Pacman on")


def start_layout(args: argparse.Namespace, layout: Layout, num_ghosts: int, seed: int) -> Layout:
    """The layout of the game with ``seed``: with ``--starts random``, Pacman
    moved to the cell drawn from the seed (the saved record holds it)."""
    if args.starts == LAYOUT:
        return layout
    return with_pacman_start(layout, draw_start(layout, num_ghosts, seed, args.start_distance))


def _train(args: argparse.Namespace, layout: Layout, agents: list[Any], first_seed: int, training: int) -> None:
    """CS188's training games: the same agents, unseen, at full speed, not
    counted or recorded; one line says how they went."""
    tally = Tally()
    for game in range(training):
        seed = first_seed + game
        tally.add(play_game(start_layout(args, layout, len(agents) - 1, seed), agents, seed=seed,
                            max_moves=args.max_moves, move_time_limit=args.time_limit))
    line = f"training: {tally.summary_line()} (not counted below)"
    if tally.errors:
        line += f"; {tally.errors} ended in error, the first: {tally.first_error}"
    print(line)


def check_outputs(args: argparse.Namespace, inputs: list[str] | None = None) -> None:
    """--gif and --save-frames checked before any game is played or replayed
    (``inputs``: the files read, which they must not replace)."""
    for option, path, folder in (("--gif", args.gif, False), ("--save-frames", args.save_frames, True)):
        if path:
            check_output(path, option, folder=folder, inputs=inputs or [])


def _play_one(args: argparse.Namespace, layout: Layout, agents: list[Any], seed: int, window: bool,
              settings: WindowSettings) -> GameRecord:
    """One game, shown as asked: in the window, or played at full speed with
    the board printed (--text) and the frames written off-screen (--save-frames, --gif)."""
    if window:
        from pacsim.viewer import play_in_window

        return play_in_window(layout, agents, seed=seed, max_moves=args.max_moves,
                              move_time_limit=args.time_limit, options=settings)
    on_state = text_display(agents[0], args.show_values, args.frame_time or 0.0) if args.text else None
    if settings.exporting:
        from pacsim.viewer import play_to_files

        return play_to_files(layout, agents, seed=seed, max_moves=args.max_moves,
                             move_time_limit=args.time_limit, options=settings, on_state=on_state)
    return play_game(layout, agents, seed=seed, max_moves=args.max_moves,
                     move_time_limit=args.time_limit, on_state=on_state)


def text_display(pacman: Any, show_values: bool, frame_time: float) -> Callable[[GameState, str | None], None]:
    """``--text``: the board after each round, with Pacman's search values
    under it (``--show-values``), ``frame_time`` seconds apart (CS188's
    ``--frameTime`` paces its text display too)."""
    values = pacman.action_values if show_values and isinstance(pacman, ValuingAgent) else None

    def show(state: GameState, action: str | None) -> None:
        if not (state.turn == 0 or state.is_terminal):
            return
        if action is None:  # the start of a game
            print(TEXT_LEGEND)
        print(state.to_text())
        print(f"score {state.score}")
        if values is not None and not state.is_terminal:
            print("values: " + "  ".join(f"{move} {_value_text(value)}" for move, value in values(state)))
        print()
        if frame_time:
            time.sleep(frame_time)

    return show


def _value_text(value: float) -> str:
    return str(value) if isinstance(value, int) else f"{value:.1f}"


def display_notes(args: argparse.Namespace, window: bool, settings: WindowSettings, pacman: Any) -> list[str]:
    """Display options that cannot do what they ask here, each said once."""
    notes = []
    shown = window or args.text or settings.exporting
    if args.show_values and not shown:
        notes.append("--show-values: nothing is drawn with -q; use --text, the window, --gif or --save-frames")
    elif args.show_values and not isinstance(pacman, ValuingAgent):
        notes.append(f"--show-values: Pacman {args.pacman!r} has no search values to show")
    if args.frame_time is not None and not shown:
        notes.append("--frame-time: nothing is drawn with -q, so games run at full speed")
    return notes


def _game_line(game: int, games: int, record: GameRecord) -> str:
    line = f"game {game + 1}/{games} (seed {record.seed}): {record.outcome:<7} score {record.score:>5}  moves {record.moves}"
    if record.error:
        line += f"  [{record.error}]"
    return line


@dataclass
class Tally:
    """What the last line needs of the games played."""

    games: int = 0
    wins: int = 0
    total_score: int = 0
    errors: int = 0
    first_error: str = ""
    recorded: int = 0
    """Games whose record is written (--record)."""

    def add(self, record: GameRecord) -> None:
        self.games += 1
        self.wins += record.outcome == "win"
        self.total_score += record.score
        if record.outcome == ERROR:
            self.errors += 1
            self.first_error = self.first_error or record.error or ""

    def summary_line(self) -> str:
        """The last line: how the finished games went."""
        if not self.games:
            return "no game finished"
        games = "1 game" if self.games == 1 else f"{self.games} games"
        return (f"{games}, {self.wins} win{'' if self.wins == 1 else 's'}, win rate {self.wins / self.games:.2f}, "
                f"average score {self.total_score / self.games:.1f}")


def _record_path(name: str, game: int, games: int) -> Path:
    path = Path(name)
    if games == 1:
        return path
    return path.with_name(f"{path.stem}-{game + 1}{path.suffix or '.json'}")
