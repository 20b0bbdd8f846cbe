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
import json
import random
from pathlib import Path
from typing import TYPE_CHECKING

from pacsim.errors import ConfigError

if TYPE_CHECKING:
    from pacsim.engine.capture.game import CaptureResult


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


def run(args: argparse.Namespace) -> int:
    # The game's modules only when a game is played: --help imports none of them.
    from pacsim.agents.capture import build_team
    from pacsim.engine.capture.game import TimeRules, play_capture_game
    from pacsim.engine.capture.layout import find_capture_layout
    from pacsim.engine.capture.state import MAX_MOVES

    if args.replay is not None:
        return _replay(Path(args.replay), args.quiet)
    if args.games < 1:
        raise ConfigError(f"-n {args.games}: play at least one game")
    args.moves = MAX_MOVES if args.moves is None else args.moves
    if not 0 < args.moves <= 100_000:
        raise ConfigError(f"-i {args.moves}: a game's length must be 1-100000 moves")
    layout = find_capture_layout(args.layout)
    red = build_team(args.red, True, _options(args.red_opts, "--redOpts"))
    blue = build_team(args.blue, False, _options(args.blue_opts, "--blueOpts"))
    first_seed = args.seed if args.seed is not None else random.randrange(1 << 31)
    rules = TimeRules() if args.time_limits else None
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
        how = f"{side} agent {result.culprit} {'crashed' if result.reason == 'crash' else 'forfeited'}: {result.error}"
    elif result.winner in (RED, BLUE):
        how = f"{result.winner} wins by {abs(result.score)}" + (" (returned its food)" if result.reason == "food" else " (time)")
    else:
        how = "tie"
    return f"seed {result.seed} on {result.layout}: {red} (red) vs {blue} (blue), {first} first, {len(result.moves)} moves: score {result.score}, {how}"


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

    if folder.exists() and not folder.is_dir():
        raise ConfigError(f"--record {folder}: not a folder")
    folder.mkdir(parents=True, exist_ok=True)
    record = {"game": "capture", "red": args.red, "blue": args.blue, "length": args.moves,
              "redOpts": _options(args.red_opts, "--redOpts"), "blueOpts": _options(args.blue_opts, "--blueOpts"),
              **result.to_dict()}
    write_atomically(folder / f"capture-{result.layout}-{result.seed}.json", json.dumps(record, indent=1) + "\n",
                     "the game's record")


def _replay(path: Path, quiet: bool) -> int:
    """Replay a recording by pacsim's rules and print where it ends (the board too, unless ``quiet``)."""
    from pacsim.engine.capture.layout import find_capture_layout
    from pacsim.engine.capture.replay import CourseReplay, read_course_replay
    from pacsim.engine.capture.state import MAX_MOVES
    from pacsim.errors import ReplayError
    from pacsim.files import FileRefused, read_bounded

    if path.suffix == ".json":
        try:
            record = json.loads(read_bounded(path, 16 << 20))
            layout = find_capture_layout(str(record["layout"]))
            moves = tuple((int(agent), str(action)) for agent, action in record["moves"])
            recording = CourseReplay(layout, moves, len(moves) or MAX_MOVES, str(record["red"]), str(record["blue"]))
        except (FileRefused, ValueError, KeyError, TypeError) as error:
            raise ReplayError(f"{path}: not a capture record ({error})") from None
    else:
        recording = read_course_replay(path)
    *_, state = recording.states()  # the start, then a state a move: the last one
    print(f"{path}: {recording.red_name} (red) vs {recording.blue_name} (blue) on {recording.layout.name}, "
          f"{len(recording.actions)} moves: score {state.score}")
    if not quiet:
        print(state.to_text())
    return 0
