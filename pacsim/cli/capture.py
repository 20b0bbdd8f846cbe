"""``pacsim capture``: capture-the-flag games, with the course's ``capture.py`` habits.

``pacsim capture -r myTeam.py -b baseline -l RANDOM13 -n 10 -q`` plays ten
games of a course team file against pacsim's baseline on the generated maze
of seed 13, printing each game's line and the win rates, as the course
prints them.  ``-i`` is the game's length in moves (of any agent, 1,200 by
default), ``-c`` the course's time limits (a slow team forfeits),
``--record`` writes each game as JSON (its moves, seed and result), and
``--seed`` fixes the games (game ``k`` plays seed ``seed + k``); ``--replay FILE``
replays a record (pacsim's JSON or the course's ``.replay``) by pacsim's rules.  Without
``-q`` the board is printed as text after the last move of each game.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pacsim.errors import ConfigError
from pacsim.printable import printable

if TYPE_CHECKING:
    from pacsim.engine.capture.game import CaptureResult, CaptureTeam, TimeRules
    from pacsim.engine.capture.layout import CaptureLayout


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-r", "--red", default="baseline", help="red team: a course team file (myTeam.py) or pacsim's: baseline")
    parser.add_argument("-b", "--blue", default="baseline", help="blue team, as -r")
    parser.add_argument("--redOpts", "--red-opts", dest="red_opts", default="", help="red's createTeam options: first=X,second=Y")
    parser.add_argument("--blueOpts", "--blue-opts", dest="blue_opts", default="", help="blue's createTeam options")
    parser.add_argument("-l", "--layout", default="defaultCapture",
                        help="a capture maze: a .lay file, a shipped name (defaultCapture) or RANDOM<seed>")
    parser.add_argument("-n", "--numGames", "--games", dest="games", type=int, default=1, help="games to play")
    parser.add_argument("-i", "--time", dest="moves", type=int, default=None,
                        help="moves a game, of any agent (default: the course's 1,200)")
    parser.add_argument("-c", "--catchExceptions", "--time-limits", dest="time_limits", action="store_true",
                        help="the course's time limits: 15 s to start, a move over 3 s or a third over 1 s forfeits "
                             "(a team that raises always loses its game)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the first game (default: drawn)")
    parser.add_argument("--record", metavar="DIR", nargs="?", const="replays", default=None,
                        help="write each game as JSON into DIR (default: replays/)")
    parser.add_argument("-q", "--quiet", action="store_true", help="one line a game and the totals, no board")
    parser.add_argument("--replay", metavar="FILE", default=None,
                        help="replay a recorded game instead: pacsim's JSON record or the course's .replay file")
    parser.add_argument("-w", "--window", action="store_true",
                        help="watch the game in a window (both sides, carried food, noisy distances, debugDraw marks); "
                             "keys for -r/-b keyboard")
    parser.add_argument("--browser", action="store_true",
                        help="watch the game in a local web page as it is played, keys there for a keyboard team (the dashboard extra)")
    parser.add_argument("--host", default="127.0.0.1", help="with --browser, the address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=0, help="with --browser, the port to listen on (default 0: any free port)")
    parser.add_argument("--frame-time", "--frameTime", dest="frame_time", type=float, default=None,
                        help="with --window or --browser, seconds between moves (default 0.05; 0.15 with a keyboard team)")
    parser.add_argument("--tree", metavar="OUT.html", default=None,
                        help="the tree a searching team (alphabeta, mcts) searched for its first move at or after --tree-move, "
                             "as pacsim tree's page; the game stops there")
    parser.add_argument("--tree-move", type=int, default=0, metavar="N", help="with --tree: the move (0: the start)")
    parser.add_argument("--html", metavar="OUT.html", default=None,
                        help="write the game (or the --replay) as an HTML page with a move slider")


def run(args: argparse.Namespace) -> int:
    # The game's modules only when a game is played: --help imports none of them.
    from pacsim.agents.capture import build_team
    from pacsim.engine.capture.game import TimeRules, play_capture_game
    from pacsim.engine.capture.layout import find_capture_layout
    from pacsim.engine.capture.state import MAX_MOVES

    if args.replay is not None:
        return _replay(Path(args.replay), args.quiet, args.html)
    if args.games < 1:
        raise ConfigError(f"-n {args.games}: play at least one game")
    _check_display(args)
    args.moves = MAX_MOVES if args.moves is None else args.moves
    if not 0 < args.moves <= 100_000:
        raise ConfigError(f"-i {args.moves}: a game's length must be 1-100000 moves")
    layout = find_capture_layout(args.layout)
    red = build_team(args.red, True, _options(args.red_opts, "--redOpts"))
    blue = build_team(args.blue, False, _options(args.blue_opts, "--blueOpts"))
    first_seed = args.seed if args.seed is not None else random.randrange(1 << 31)
    rules = TimeRules() if args.time_limits else None
    if args.tree:
        return _tree(args, layout, red, blue, first_seed, rules)
    if args.window or args.browser or args.html:
        result = _watched(args, layout, red, blue, first_seed, rules)
        if result is None:
            print(f"seed {first_seed} on {layout.name}: quit in the window; game stopped")
            return 0
        print(_line(result, args.red, args.blue))
        if args.record is not None:
            _record(Path(args.record), result, args)
        return 0
    results = []
    for game in range(args.games):
        result = play_capture_game(layout, red, blue, first_seed + game, args.moves, rules)
        results.append(result)
        print(_line(result, args.red, args.blue))
        if not args.quiet and result.final_state is not None:
            print(result.final_state.to_text())
        if args.record is not None:
            _record(Path(args.record), result, args)
    if len(results) > 1:
        print(_totals(results))
    return 0


def _check_display(args: argparse.Namespace) -> None:
    """The displays' options, said before any game: one game a display, a keyboard team only with one."""
    from pacsim.cli.common import require_server

    displays = [name for name, given in (("--window", args.window), ("--browser", args.browser)) if given]
    if len(displays) > 1:
        raise ConfigError("--window and --browser: choose one display")
    keyboards = [side for side, spec in (("-r", args.red), ("-b", args.blue)) if spec == "keyboard"]
    if len(keyboards) > 1:
        raise ConfigError("-r keyboard -b keyboard: one keyboard team a game (arrows and W/A/S/D steer its two agents)")
    if keyboards and not displays:
        raise ConfigError(f"{keyboards[0]} keyboard: a person plays in a display; add --window or --browser")
    if (displays or args.html) and args.games > 1:
        raise ConfigError(f"-n {args.games} with {(displays or ['--html'])[0]}: one game is shown")
    if args.frame_time is not None and not (displays and 0 <= args.frame_time <= 10):
        raise ConfigError(f"--frame-time {args.frame_time}: seconds between moves, 0-10, with --window or --browser")
    if not args.browser and (args.host != "127.0.0.1" or args.port != 0):
        raise ConfigError("--host and --port: only with --browser")
    if args.browser:
        if not 0 <= args.port < 65536:
            raise ConfigError(f"--port {args.port}: a port is 0 (any free one) to 65535")
        require_server("capture --browser")
    if args.record is not None:
        from pacsim.files import check_output

        check_output(args.record, "--record", folder=True)  # before the games: not a traceback after them
    if args.html:
        from pacsim.files import check_output

        check_output(args.html, "--html", inputs=_team_files(args))
    if args.tree:
        from pacsim.files import check_output

        if displays or args.html:
            raise ConfigError("--tree: the game stops at the tree's move; no display or --html with it")
        if args.games > 1 or args.tree_move < 0:
            raise ConfigError("--tree: one game (-n 1) and --tree-move of at least 0")
        check_output(args.tree, "--tree", inputs=_team_files(args))


def _team_files(args: argparse.Namespace) -> list[Path]:
    """The team files ``-r`` and ``-b`` name: inputs no output may replace."""
    from pacsim.agents.capture import team_file

    return [path for path in (team_file(args.red), team_file(args.blue)) if path is not None]


def _watched(args: argparse.Namespace, layout: CaptureLayout, red: CaptureTeam, blue: CaptureTeam, seed: int,
             rules: TimeRules | None) -> CaptureResult | None:
    """One game shown in the window or the page as it is played (or only kept for ``--html``);
    None when the person closed the window first."""
    from pacsim.engine.capture.frames import FrameFeed, FrameRecorder, board
    from pacsim.engine.capture.game import play_capture_game

    recorder = FrameRecorder(red, blue)
    keyboard = red if args.red == "keyboard" else blue if args.blue == "keyboard" else None
    frame_time = args.frame_time if args.frame_time is not None else 0.15 if keyboard else 0.05
    red_name, blue_name = _shown_name(args.red), _shown_name(args.blue)
    shown = board(layout, red_name, blue_name)
    heading = f"{red_name} (red) vs {blue_name} (blue) on {layout.name}, seed {seed}"
    feed = FrameFeed(lambda observer, on_view: play_capture_game(layout, red, blue, seed, args.moves, rules, observer, on_view),
                     recorder, frame_time if (args.window or args.browser) else 0)
    if args.window:
        from pacsim.viewer import ViewerClosed
        from pacsim.viewer.capture_window import watch_in_window

        try:
            watch_in_window(feed, shown, f"pacsim capture: {heading}", keyboard=keyboard)
        except ViewerClosed:  # q, Esc or the close button: the person has seen enough
            return None
    elif args.browser:
        from pacsim.web.capture_live import watch_in_browser

        watch_in_browser(feed, shown, heading, host=args.host, port=args.port, keyboard=keyboard,
                         keyboard_side=None if keyboard is None else "red" if keyboard is red else "blue")
    else:
        feed.start()
    feed.thread.join()
    if feed.error is not None:
        raise feed.error
    assert feed.result is not None
    if args.html:
        _write_page(args.html, shown, recorder.frames, heading, feed.outcome())
    return feed.result


class _Traced(Exception):
    """The tree asked for has been searched: the game need not go on."""


def _tree(args: argparse.Namespace, layout: CaptureLayout, red: CaptureTeam, blue: CaptureTeam, seed: int,
          rules: TimeRules | None) -> int:
    """Play from ``seed`` to ``--tree-move``, then write the tree the searching team's next move searched."""
    from pacsim.agents.capture.search_team import PlacingTeam, TreeAt
    from pacsim.engine.capture.game import play_capture_game
    from pacsim.files import write_atomically
    from pacsim.web.tree import tree_page

    moves = [0]
    teams = [TreeAt(team, args.tree_move, moves) if isinstance(team, PlacingTeam) else team for team in (red, blue)]
    searching = [team for team in teams if isinstance(team, TreeAt)]
    if not searching:
        raise ConfigError("--tree: neither team searches (alphabeta or mcts: -r alphabeta)")

    def observer(state: object, agent: int | None, action: str | None) -> None:
        moves[0] += agent is not None
        if any(team.tree is not None for team in searching):
            raise _Traced

    with contextlib.suppress(_Traced):  # the tree's move was searched: the game stops there
        play_capture_game(layout, teams[0], teams[1], seed, args.moves, rules, observer)
    traced = next((team for team in searching if team.tree is not None), None)
    if traced is None or traced.tree is None:
        raise ConfigError(f"--tree-move {args.tree_move}: the game ended (after {moves[0]} moves) before a searching team moved")
    trace = traced.tree
    title = f"pacsim capture: {traced.name} ({'red' if traced is teams[0] else 'blue'}) at move {moves[0] - 1} on {layout.name}, seed {seed}"
    write_atomically(args.tree, tree_page(trace, title=title), "the tree page")
    print(f"{title}: {len(trace.nodes):,} nodes, chose {trace.result.action[0]}; wrote {args.tree}")
    return 0


def _shown_name(spec: str) -> str:
    """A team as a display names it: a team file by its name (``myTeam``), not its whole path."""
    return Path(spec).stem if spec.endswith(".py") or "/" in spec else spec


def _write_page(path: str, shown: dict[str, object], frames: list[dict[str, object]], heading: str, outcome: str | None) -> None:
    from pacsim.files import write_atomically
    from pacsim.web.capture_page import capture_page

    write_atomically(path, capture_page(shown, frames, heading, outcome=outcome), "the replay page")
    print(f"wrote {path}")


def _options(text: str, flag: str) -> dict[str, str]:
    """The course's ``--redOpts first=X,second=Y``."""
    options = {}
    for piece in filter(None, text.split(",")):
        key, _, value = piece.partition("=")
        if not key:
            raise ConfigError(f"{flag} {text!r}: write key=value pairs separated by commas")
        options[key] = value or "1"
    return options


def _line(result: CaptureResult, red: str, blue: str) -> str:
    from pacsim.engine.capture.game import BLUE, RED

    first = "red" if result.first == 0 else "blue"
    if result.reason in ("crash", "forfeit"):
        side = "red" if result.culprit is not None and result.culprit % 2 == 0 else "blue"
        how = f"{side} agent {result.culprit} {'crashed' if result.reason == 'crash' else 'forfeited'}: {printable(result.error)}"
    elif result.winner in (RED, BLUE):
        how = f"{result.winner} wins by {abs(result.score)}" + (" (returned its food)" if result.reason == "food" else " (time)")
    else:
        how = "tie"
    return (f"seed {result.seed} on {result.layout}: {printable(red)} (red) vs {printable(blue)} (blue), {first} first, "
            f"{len(result.moves)} moves: score {result.score}, {how}")


def _totals(results: list[CaptureResult]) -> str:
    scores = [result.score for result in results]
    count = len(scores)
    red, blue = sum(score > 0 for score in scores), sum(score < 0 for score in scores)
    return (f"Average Score: {sum(scores) / count:g}\nScores: {', '.join(map(str, scores))}\n"
            f"Red Win Rate: {red}/{count} ({red / count:.2f})\nBlue Win Rate: {blue}/{count} ({blue / count:.2f})")


def _record(folder: Path, result: CaptureResult, args: argparse.Namespace) -> None:
    """The game as JSON: its seed and moves, and what ``pacsim tree`` needs to stand
    where a team stood at a move (the game's length, each team's options)."""
    from pacsim.files import write_atomically

    record = {"game": "capture", "red": args.red, "blue": args.blue, "length": args.moves,
              "redOpts": _options(args.red_opts, "--redOpts"), "blueOpts": _options(args.blue_opts, "--blueOpts"),
              **result.to_dict()}
    write_atomically(folder / f"capture-{result.layout}-{result.seed}.json", json.dumps(record, indent=1) + "\n",
                     "the game's record")


def _fault_end(record: dict[str, Any]) -> str | None:
    """How a recorded game that a team's fault ended was ended (its moves stop before the fault), or None."""
    if record.get("reason") not in ("crash", "forfeit") or not isinstance(record.get("culprit"), int):
        return None
    culprit = record["culprit"]
    colour = "red" if culprit % 2 == 0 else "blue"
    return (f"ended by {colour} agent {culprit}'s {record['reason']}: {printable(str(record.get('error', '')))} "
            f"(the game's score {printable(str(record.get('score')))}, {printable(str(record.get('winner')))} won)")


def _replay(path: Path, quiet: bool, html: str | None = None) -> int:
    """Replay a recording by pacsim's rules and print where it ends (the board too, unless ``quiet``)."""
    from pacsim.engine.capture.layout import find_capture_layout
    from pacsim.engine.capture.replay import CourseReplay, read_course_replay
    from pacsim.engine.capture.state import MAX_MOVES
    from pacsim.errors import ReplayError
    from pacsim.files import FileRefused, read_bounded

    ended = None
    if path.suffix == ".json":
        try:
            record = json.loads(read_bounded(path, 16 << 20))
            ended = _fault_end(record)
            layout = find_capture_layout(str(record["layout"]))
            moves = tuple((int(agent), str(action)) for agent, action in record["moves"])
            length = max(int(record.get("length") or MAX_MOVES), len(moves))  # the game's own length: moves left count down from it
            recording = CourseReplay(layout, moves, length, str(record["red"]), str(record["blue"]))
        except (FileRefused, ValueError, KeyError, TypeError) as error:
            raise ReplayError(f"{path}: not a capture record ({error})") from None
    else:
        recording = read_course_replay(path)
    if html:
        from pacsim.files import check_output

        check_output(html, "--html")
    try:
        states = list(recording.states())  # the start, then a state a move
    except (IndexError, KeyError, ValueError) as error:  # a move the rules cannot play (an agent 9, say)
        raise ReplayError(f"{path}: its moves cannot be played ({type(error).__name__}: {error})") from None
    state = states[-1]
    print(f"{printable(str(path))}: {printable(recording.red_name)} (red) vs {printable(recording.blue_name)} (blue) "
          f"on {printable(recording.layout.name)}, "
          f"{len(recording.actions)} moves: score {state.score}")
    if ended is not None:
        print(ended)
    if not quiet:
        print(state.to_text())
    if html:
        from pacsim.engine.capture.frames import board, replay_frames

        heading = f"{recording.red_name} (red) vs {recording.blue_name} (blue) on {recording.layout.name}: {path.name}"
        _write_page(html, board(recording.layout, recording.red_name, recording.blue_name),
                    replay_frames(states, recording.actions), heading,
                    f"final score {state.score}" + (f"; {ended}" if ended else ""))
    return 0
