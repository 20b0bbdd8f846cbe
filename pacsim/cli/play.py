"""``pacsim play``: play games and print how they went, like CS188's pacman.py.

The agents, the runner and the viewer are imported where they are used, not
at the top: ``pacsim play --help`` and a short game start as fast as CS188's
own ``pacman.py`` (``pacsim bench`` measures it), and pygame loads only when a
window opens.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pacsim.cli.common import add_debug_option, add_display_options, check_outputs, options_given_once, wants_window
from pacsim.cli.cs188 import add_cs188_options, apply_cs188_options, course_layout_folders, training_games
from pacsim.engine import DEFAULT_MAX_MOVES, ERROR, GameRecord, check_max_moves, find_layout, play_game
from pacsim.engine.layout import Layout
from pacsim.engine.names import local_layout
from pacsim.engine.starts import DEFAULT_START_DISTANCE, LAYOUT, STARTS, draw_start, start_cells, with_pacman_start
from pacsim.engine.state import TEXT_LEGEND, GameState
from pacsim.engine.stats import FAST, PYTHON
from pacsim.errors import ConfigError
from pacsim.files import check_output
from pacsim.viewer.settings import WindowSettings


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
    add_browser_options(parser)
    add_cs188_options(parser)


def add_browser_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--browser", action="store_true",
                        help="show the game in a local web page as it is played, keys there for -p keyboard "
                             "(the dashboard extra; docs/web.md)")
    parser.add_argument("--host", default="127.0.0.1", help="with --browser, the address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=0, help="with --browser, the port to listen on (default 0: any free port)")


def reword_options(parser: argparse.ArgumentParser, helps: dict[str, str]) -> None:
    """Give play's options, added to another command, that command's meaning: ``helps`` by option dest."""
    for action in parser._actions:
        if action.dest in helps:
            action.help = helps[action.dest]


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


DEFAULT_LAYOUT = "wideClassic"
COURSE_DEFAULT_LAYOUT = "mediumClassic"
"""CS188's default maze, which pacsim does not ship (its own differs)."""


def default_layout(course_folders: list[Path]) -> str:
    """CS188's default maze when a course folder holds it, else pacsim's."""
    return DEFAULT_LAYOUT if local_layout(COURSE_DEFAULT_LAYOUT, course_folders) is None else COURSE_DEFAULT_LAYOUT


def build_agents(args: argparse.Namespace, layout: Layout, chosen: dict[str, str] | None = None) -> list[Any]:
    """Pacman and the ghosts asked for by -p, -g, -k, -a and --ghost-args;
    ``chosen``: Pacman options pacsim chose (not recorded: a replay rebuilds what was asked for)."""
    from pacsim.agents.registry import GHOST, PACMAN, make_ghost, make_pacman, parse_spec

    pacman_spec, ghost_spec = parse_spec(args.pacman), parse_spec(args.ghosts)  # once, for every agent below
    pacman_options = {**options_given_once(pacman_spec, args.agent_args, "-a"), **(chosen or {})}
    ghost_options = options_given_once(ghost_spec, args.ghost_args, "--ghost-args")
    ghost_number = ghost_count(args.num_ghosts, layout)
    if getattr(args, "sandbox", False):  # docs/sandbox.md: each plugin agent in its own process
        from pacsim.agents.sandboxed import sandboxed  # its processes' machinery: only when asked for
        from pacsim.sandbox.limits import Limits

        pacman = sandboxed(PACMAN, pacman_spec, pacman_options, Limits()) or make_pacman(pacman_spec, pacman_options)
        return [pacman] + [sandboxed(GHOST, ghost_spec, ghost_options, Limits()) or make_ghost(ghost_spec, ghost_options)
                           for _ in range(ghost_number)]
    pacman = make_pacman(pacman_spec, pacman_options)
    return [pacman, *[make_ghost(ghost_spec, ghost_options) for _ in range(ghost_number)]]


def sandboxed_pacman(args: argparse.Namespace) -> bool:
    """Whether Pacman plays in a sandbox (``--sandbox`` and a plugin): it is never imported here."""
    if not getattr(args, "sandbox", False):
        return False
    from pacsim.agents.sandboxed import needs_sandbox

    return needs_sandbox(args.pacman)


KERNEL_LOAD_SECONDS = 0.7
"""What loading the compiled searches costs a process on numba's JIT path
(its cache warm), measured as ``play -p minimax -a depth=1`` with backend
auto against python; building the ahead-of-time module costs more."""
AOT_LOAD_SECONDS = 0.02
"""What loading the ahead-of-time module costs beyond the imports (:mod:`pacsim.fast.aot`)."""
PYTHON_SECONDS_PER_LEAF = 6e-6
"""A Python search game's seconds per ``3 ** levels`` of its depth (a game
of a hundred-odd moves; measured at depths 2 to 4 on smallClassic)."""


SHORT_RUN = "a run this short ends in Python before the compiled kernel would have loaded (-a backend=fast insists)"
"""Why ``play`` searched in Python on its own (:func:`search_in_python`), as the line after its last says."""


def search_in_python(args: argparse.Namespace, num_ghosts: int) -> bool:
    """Whether Pacman should search in Python (``backend=python``): when the
    games asked for would take less time there than loading the compiled
    kernel takes (the last line then says so, :data:`SHORT_RUN`); False
    when the kernel is left to decide (a longer run, a backend other than
    ``auto`` or a time per move given, the environment's switch, an agent
    without a depth, a user's evaluation, whose author wants to see whether it compiles)."""
    from pacsim.agents.backend import kernel_wanted
    from pacsim.agents.registry import PACMAN, build_options, parse_spec, resolve
    if sandboxed_pacman(args):
        return False
    spec = parse_spec(args.pacman)
    given = {**spec.options, **options_given_once(args.pacman, args.agent_args, "-a")}
    resolved = resolve(PACMAN, spec)
    chosen = given.get("backend", given.get("engine", "auto"))
    if resolved.cs188 or chosen != "auto" or not kernel_wanted("auto"):  # backend=auto is the default, not a choice
        return False
    options = build_options(resolved.cls, given, spec.target if spec.attribute is None else args.pacman)
    if getattr(options, "backend", None) != "auto" or getattr(options, "time", 0) or not hasattr(options, "depth"):
        return False
    if ":" in str(getattr(options, "eval", "")):  # a user's evaluation: the kernel says whether it compiles
        return False
    python_seconds = args.games * PYTHON_SECONDS_PER_LEAF * 3 ** (options.depth * (num_ghosts + 1))
    if python_seconds < AOT_LOAD_SECONDS or python_seconds >= KERNEL_LOAD_SECONDS:
        return python_seconds < AOT_LOAD_SECONDS
    from pacsim.fast.aot import module_ready  # numpy: only where the kernel is the likely choice

    return not module_ready()


def backend_reason(args: argparse.Namespace, in_python: bool) -> dict[str, str]:
    """Why Pacman searched where he did, by backend (:data:`FAST`,
    :data:`PYTHON`), for the last line."""
    import os

    from pacsim.agents.backend import ENVIRONMENT_SWITCH, OLD_ENVIRONMENT_SWITCH
    from pacsim.agents.registry import PACMAN, parse_spec, resolve

    if in_python:
        return {PYTHON: SHORT_RUN}
    if sandboxed_pacman(args):  # never imported here: its sandbox says where it searched, if it searches
        return {}
    if resolve(PACMAN, args.pacman).cs188:
        return {PYTHON: "the agent is the course's own Python code"}
    given = {**parse_spec(args.pacman).options, **options_given_once(args.pacman, args.agent_args, "-a")}
    chosen = given.get("backend", given.get("engine"))
    if chosen in ("fast", "python"):
        return {FAST: f"backend={chosen}", PYTHON: f"backend={chosen}"}
    switch = os.environ.get(ENVIRONMENT_SWITCH) or os.environ.get(OLD_ENVIRONMENT_SWITCH)
    if switch == "python":
        return {PYTHON: f"{ENVIRONMENT_SWITCH}=python"}
    return {FAST: "backend=auto, and the kernel covers this search",
            PYTHON: "backend=auto, and the kernel does not cover this search (a note above says why)"}


def recorded_specs(args: argparse.Namespace, num_ghosts: int) -> tuple[str, list[str]]:
    """The Pacman and ghost specs a record names: -p with -a, -g with
    --ghost-args, joined as pacsim reads them back (a replay or an analysis rebuilds the agents)."""
    from pacsim.agents.registry import join_spec, parse_options

    pacman = join_spec(args.pacman, parse_options(args.agent_args))
    return pacman, [join_spec(args.ghosts, parse_options(args.ghost_args))] * num_ghosts


def ghost_count(asked: int | None, layout: Layout, quiet: bool = False) -> int:
    """The ghosts -k asks for; more than the layout has means all of them, as
    in CS188 (with a note, unless ``quiet``: the games have fewer ghosts than typed)."""
    if asked is None:
        return layout.num_ghosts
    if asked < 0:
        raise ConfigError(f"-k {asked}: the number of ghosts cannot be negative")
    if asked > layout.num_ghosts:
        if quiet:
            return layout.num_ghosts
        print(f"pacsim: note: -k {asked}: layout {layout.name!r} has {layout.num_ghosts} ghosts; "
              f"playing with those {layout.num_ghosts}, as CS188 does", file=sys.stderr)
        return layout.num_ghosts
    return asked


def run(args: argparse.Namespace) -> int:
    from pacsim.agents.registry import PACMAN, resolve
    from pacsim.runner.bounds import MAX_GAMES, check_time_limit

    for note in apply_cs188_options(args):
        print(f"pacsim: note: {note}", file=sys.stderr)
    if args.cs188_replay:
        return replay_instead(args)
    if not 1 <= args.games <= MAX_GAMES:
        raise ConfigError(f"-n {args.games}: the number of games must be from 1 to {MAX_GAMES:,} (as in an experiment)")
    check_max_moves(args.max_moves, f"--max-moves {args.max_moves}")
    if args.time_limit is not None:  # 0 means no limit, as in an experiment file
        args.time_limit = check_time_limit(args.time_limit, f"--time-limit {args.time_limit}") or None
    settings = WindowSettings.from_options(args)
    training = training_games(args, not sandboxed_pacman(args) and resolve(PACMAN, args.pacman).cs188)
    unseen = 0 if args.count_training else training  # --count-training: every game shown, counted and recorded
    games = args.games - unseen
    check_browser(args, settings)
    window = not args.browser and wants_window(args)
    folders = course_layout_folders(args)
    found = find_layout(args.layout or default_layout(folders), folders)
    if found.note:
        print(f"pacsim: note: {found.note}", file=sys.stderr)
    layout = found.layout
    in_python = search_in_python(args, ghost_count(args.num_ghosts, layout, quiet=True))
    agents = build_agents(args, layout, {"backend": "python"} if in_python else {})  # inputs no output may replace
    check_keyboard(args, agents[0], window)
    check_before_games(agents[0], layout, len(agents) - 1)
    check_outputs(args)
    if args.record:
        _check_record_paths(args.record, games)
    check_starts(args, layout, len(agents) - 1)
    for note in display_notes(args, window, settings, agents[0]):
        print(f"pacsim: note: {note}", file=sys.stderr)
    if args.record and args.max_moves * len(agents) > _max_record_actions():  # never write what replay refuses
        raise ConfigError(f"--record with --max-moves {args.max_moves:,} and {len(agents)} agents: a game could reach "
                          f"{args.max_moves * len(agents):,} actions, more than a record holds "
                          f"({_max_record_actions():,}); lower --max-moves")
    first_seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    if unseen:
        _train(args, layout, agents, first_seed, unseen)
    tally = Tally(reasons=backend_reason(args, in_python))  # not the records: a million games' records do not fit in memory, their summary does
    try:
        _play_games(args, layout, agents, first_seed + unseen, games, window, settings, tally)
    except KeyboardInterrupt:  # Ctrl-C: what finished is kept, and said
        print(f"interrupted: {tally.summary_line()}{_records_written(args.record, tally.recorded, games)}")
        raise
    print(tally.summary_line() + _records_written(args.record, tally.recorded, games))
    reasons = tally.backend_reasons()
    if reasons:
        print(reasons, file=sys.stderr, flush=True)
    if tally.games and tally.errors == tally.games:  # as run: such results mean nothing
        from pacsim.runner.execute import AllGamesFailed

        hint = "" if args.debug else " (--debug prints its traceback)"
        raise AllGamesFailed(f"all {tally.games} games ended in error; the first: {tally.first_error}{hint}")
    return 0


def _max_record_actions() -> int:
    """The most actions a record holds (the records' module, and its json and hashlib, only for ``--record``)."""
    from pacsim.engine.recording import MAX_RECORD_ACTIONS

    return MAX_RECORD_ACTIONS


def check_browser(args: argparse.Namespace, settings: WindowSettings) -> None:
    """``--browser``: one game, shown only there, with the server's extra installed; said before any game."""
    from pacsim.cli.common import require_server

    if not args.browser:
        for option, given in (("--host", args.host != "127.0.0.1"), ("--port", args.port != 0)):
            if given:
                raise ConfigError(f"{option}: only with --browser (the page the game is shown in)")
        return
    for option, given in (("-q", args.quiet), ("-t", args.text), ("-w", args.window),
                          ("--gif/--save-frames", settings.exporting), (f"-n {args.games}", args.games > 1)):
        if given:
            raise ConfigError(f"--browser with {option}: the page shows one game, and only there")
    if not 0 <= args.port < 65536:
        raise ConfigError(f"--port {args.port}: a port is 0 (any free one) to 65535")
    require_server("play --browser")


def check_before_games(pacman: Any, layout: Layout, ghosts: int) -> None:
    """A search Pacman's evaluation and backend, checked once before the first game (not reported per game)."""
    from pacsim.engine.state import initial_state

    search_agents = sys.modules.get("pacsim.agents.search_agents")  # a search Pacman imported it: else none plays
    if search_agents is not None and isinstance(pacman, search_agents.SearchPacman):
        pacman.check_before_games(initial_state(layout, ghosts))


def check_keyboard(args: argparse.Namespace, pacman: Any, window: bool) -> None:
    """A keyboard Pacman needs a person at a window or a terminal: said before the game, not as an EOFError in it."""
    from pacsim.agents.simple import KEYBOARD_NEEDS, KeyboardPacman

    if isinstance(pacman, KeyboardPacman) and not window and not args.browser and not sys.stdin.isatty():
        raise ConfigError(f"-p {args.pacman}: {KEYBOARD_NEEDS}")


def _play_games(args: argparse.Namespace, layout: Layout, agents: list[Any], first_seed: int, games: int,
                window: bool, settings: WindowSettings, tally: Tally) -> None:
    """The counted games, one line each, recorded as asked, added to ``tally``."""
    from pacsim.agents.simple import KeyboardInputEnded
    from pacsim.viewer import ViewerClosed

    for game in range(games):
        seed = first_seed + game
        game_settings = settings.for_game(game, games)
        game_layout = start_layout(args, layout, len(agents) - 1, seed)
        try:
            record = _play_one(args, game_layout, agents, seed, window, game_settings)
        except ViewerClosed:  # q, Esc or the close button: the person has seen enough
            print(f"game {game + 1}/{games} (seed {seed}): quit in the window")
            break
        except KeyboardInputEnded:  # Ctrl-D at the terminal's prompt: as closing the window
            print(f"game {game + 1}/{games} (seed {seed}): the keyboard's input ended (Ctrl-D); game stopped")
            break
        tally.add(record)
        if args.debug and record.error_traceback:
            print(record.error_traceback, end="", file=sys.stderr)
        line = _game_line(game, games, record)
        if game_settings.exporting:
            line += f"  ({game_settings.describe_exports()})"
        print(line)
        if args.record:
            from pacsim.engine.recording import save_game

            save_game(_record_path(args.record, game, games), record, game_layout,
                      *recorded_specs(args, len(agents) - 1))
            tally.recorded += 1


def _records_written(record: str | None, recorded: int, games: int) -> str:
    """Where the records of the finished games are, for the last line (after Ctrl-C too)."""
    if not record or not recorded:
        return "; no record written" if record else ""
    if games == 1:
        return f"; its record is {record}"
    first, last = _record_path(record, 0, games), _record_path(record, recorded - 1, games)
    return f"; the record of game 1 is {first}" if recorded == 1 else f"; their records are {first} ... {last}"


REPLAY_DISPLAY = ("quiet", "text", "window", "frame_time", "zoom", "save_frames", "gif")
"""The display options ``play --replay FILE`` passes on to the replay."""


def replay_instead(args: argparse.Namespace) -> int:
    """CS188's ``--replay FILE``: replay that file, shown as play's display
    options ask (``pacsim replay FILE`` with them)."""
    from pacsim.cli import replay

    parser = argparse.ArgumentParser()
    replay.add_arguments(parser)
    replay_args = parser.parse_args([args.cs188_replay])
    for name in REPLAY_DISPLAY:
        setattr(replay_args, name, getattr(args, name))
    return replay.run(replay_args)


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


def _play_one(args: argparse.Namespace, layout: Layout, agents: list[Any], seed: int, window: bool,
              settings: WindowSettings) -> GameRecord:
    """One game, shown as asked: in the window, or played at full speed with
    the board printed (--text) and the frames written off-screen (--save-frames, --gif)."""
    if args.browser:
        from pacsim.web.live import play_in_browser

        return play_in_browser(layout, agents, seed=seed, max_moves=args.max_moves, move_time_limit=args.time_limit,
                               frame_time=0.1 if args.frame_time is None else args.frame_time,
                               show_values=args.show_values, host=args.host, port=args.port,
                               heading=f"{layout.name}: {args.pacman}{f' vs {args.ghosts}' if len(agents) > 1 else ''}, seed {seed}")
    if window:
        from pacsim.viewer import play_in_window

        return play_in_window(layout, agents, seed=seed, max_moves=args.max_moves,
                              move_time_limit=args.time_limit, options=settings, on_tree=tree_key(agents[0]))
    on_state = text_display(agents[0], args.show_values, args.frame_time or 0.0) if args.text else None
    if settings.exporting:
        from pacsim.viewer import play_to_files

        return play_to_files(layout, agents, seed=seed, max_moves=args.max_moves,
                             move_time_limit=args.time_limit, options=settings, on_state=on_state)
    return play_game(layout, agents, seed=seed, max_moves=args.max_moves,
                     move_time_limit=args.time_limit, on_state=on_state)


def tree_key(pacman: Any) -> Callable[[GameState], Any] | None:
    """The window's ``t`` key for a search Pacman: its tree at the position
    shown, in the browser (docs/tree.md); None for any other Pacman."""
    from pacsim.agents.mcts_agent import MctsPacman
    from pacsim.agents.search_agents import SearchPacman

    if not isinstance(pacman, SearchPacman | MctsPacman):
        return None
    from pacsim.web.tree import browser_tree

    return browser_tree(pacman)


def text_display(pacman: Any, show_values: bool, frame_time: float) -> Callable[[GameState, str | None], None]:
    """``--text``: the board after each round, with Pacman's search values
    under it (``--show-values``), ``frame_time`` seconds apart (CS188's
    ``--frameTime`` paces its text display too)."""
    from pacsim.agents.api import ValuingAgent

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


def no_window_reason() -> str:
    """Why no window opens without -q: no display, or an SDL driver that shows none."""
    from pacsim.viewer.settings import INVISIBLE_DRIVERS

    driver = os.environ.get("SDL_VIDEODRIVER", "")
    if driver.lower() in INVISIBLE_DRIVERS:
        return f"SDL_VIDEODRIVER={driver} shows no window"
    return "no display (DISPLAY and WAYLAND_DISPLAY are unset)"


def display_notes(args: argparse.Namespace, window: bool, settings: WindowSettings, pacman: Any) -> list[str]:
    """Display options that cannot do what they ask here, each said once."""
    from pacsim.agents.api import ValuingAgent

    notes = []
    shown = window or args.text or settings.exporting or args.browser
    why = "with -q" if args.quiet else f"here: {no_window_reason()}, so no window opens"
    if args.show_values and not shown:
        notes.append(f"--show-values: nothing is drawn {why}; use --text, --browser, --gif or --save-frames"
                     + ("" if args.quiet else ", or run where a display is"))
    elif args.show_values and not isinstance(pacman, ValuingAgent):
        notes.append(f"--show-values: Pacman {args.pacman!r} has no search values to show")
    if args.frame_time is not None and not shown:
        notes.append(f"--frame-time: nothing is drawn {why}, so games run at full speed")
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
    backends: set[str] = field(default_factory=set)
    """Where Pacman's searches ran (the compiled kernel, Python): none for an agent that does not search."""
    reasons: dict[str, str] = field(default_factory=dict)
    """Why he searched there, by backend (:func:`backend_reason`)."""

    def add(self, record: GameRecord) -> None:
        self.games += 1
        self.backends.update(stats.backend for stats in record.search_stats if stats.generated)  # searches only
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
        line = (f"{games}, {self.wins} win{'' if self.wins == 1 else 's'}, win rate {self.wins / self.games:.2f}, "
                f"average score {self.total_score / self.games:.1f}")
        if self.backends:
            line += "; Pacman searched in " + " and ".join(BACKEND_NAMES[backend] for backend in sorted(self.backends))
        return line

    def backend_reasons(self) -> str | None:
        """Why Pacman searched where he did (the line after the last, on stderr), or None."""
        reasons = [f"in {BACKEND_NAMES[backend]} because {self.reasons[backend]}"
                   for backend in sorted(self.backends) if backend in self.reasons]
        return f"pacsim: Pacman searched {'; '.join(reasons)}" if reasons else None


BACKEND_NAMES = {FAST: "the compiled kernel", PYTHON: "Python"}


def _check_record_paths(name: str, games: int) -> None:
    """Every record ``--record name`` may write, checked before the first
    game: the first as any output, and each one of the others already on disk
    (found by one listing of the folder, not by a million names) that must not be replaced."""
    first = check_output(_record_path(name, 0, games), "--record")
    if games == 1:
        return
    pattern = re.compile(re.escape(first.stem[:-len("-1")]) + r"-([1-9][0-9]*)" + re.escape(first.suffix))
    for entry in sorted(first.parent.iterdir()):
        matched = pattern.fullmatch(entry.name)
        if matched and int(matched[1]) <= games:
            check_output(entry, "--record")


def _record_path(name: str, game: int, games: int) -> Path:
    path = Path(name)
    if games == 1:
        return path
    return path.with_name(f"{path.stem}-{game + 1}{path.suffix or '.json'}")
