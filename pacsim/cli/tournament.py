"""``pacsim tournament [FILE.toml] [--pacman PATH...]``: entrants against each other on the same mazes and starts."""

from __future__ import annotations

import argparse
import sys

from pacsim.cli.common import add_debug_option
from pacsim.cli.run import add_executor_options, describe, execute
from pacsim.errors import ConfigError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE.toml", nargs="?", default=None,
                        help="a tournament file (docs/tournament.md); the options below override it")
    parser.add_argument("--pacman", nargs="+", metavar="PATH", default=None,
                        help="Pacman entrants: .py files, folders (one per student, or one holding them), agent names")
    parser.add_argument("--ghosts", nargs="+", metavar="PATH", default=None,
                        help="ghost entrants or built-in ghosts (default: random)")
    parser.add_argument("--layout", nargs="+", metavar="LAYOUT", default=None,
                        help="mazes: shipped names, .lay files, generated:...,mazes=N (seeds drawn afresh); "
                             "with --game capture: capture mazes (RANDOM<seed>, defaultCapture, .lay files)")
    parser.add_argument("--pairs", type=int, default=None, help="paired starts per Pacman, ghost and maze (default: 10)")
    parser.add_argument("--store", default=None, help="results store (default: results/NAME.sqlite)")
    parser.add_argument("--name", default=None, help="the tournament's name (default: the file's, or 'tournament')")
    parser.add_argument("--seed", type=int, default=None, help="root seed of the starts (default: drawn afresh)")
    parser.add_argument("--time-limit", type=float, default=None,
                        help="seconds per move (default 1), with and without the sandbox; over it, the mover's fault")
    parser.add_argument("--max-moves", type=int, default=None, help="Pacman moves before a game is a timeout")
    parser.add_argument("--no-sandbox", dest="sandbox", action="store_false", default=None,
                        help="play entrants in pacsim's own worker processes (trusted code only)")
    parser.add_argument("--allow-weak-sandbox", action="store_true", default=None,
                        help="where bubblewrap cannot run, play entrants under resource limits alone (they can then "
                             "read your files); without it such a tournament is refused")
    parser.add_argument("--hand-in-mb", type=float, default=None, metavar="MB",
                        help="most megabytes of files an entrant's folder may hold (default 64); over it, not played")
    parser.add_argument("--hand-in-files", type=int, default=None, metavar="N",
                        help="most files an entrant's folder may hold (default 1000); over it, not played")
    parser.add_argument("--html", metavar="FILE", default=None, help="also write the leaderboard as one HTML page")
    parser.add_argument("-j", "--workers", type=int, default=None, help="worker processes (default: all cores)")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    add_debug_option(parser)
    add_executor_options(parser)
    from pacsim.cli.contest import add_arguments as add_contest_arguments

    add_contest_arguments(parser)


OPTION_KEYS = {"pacman": "pacman", "ghosts": "ghosts", "layout": "layouts", "pairs": "pairs", "store": "store",
               "name": "name", "seed": "seed", "time_limit": "time_limit", "max_moves": "max_moves", "sandbox": "sandbox",
               "allow_weak_sandbox": "allow_weak_sandbox", "hand_in_mb": "hand_in_mb", "hand_in_files": "hand_in_files"}
"""Command-line option -> tournament file key."""


def settings_of(args: argparse.Namespace) -> dict:
    from pacsim.runner.tournament import read_tournament

    settings = read_tournament(args.file) if args.file else {}
    for option, key in OPTION_KEYS.items():
        value = getattr(args, option)
        if value is not None:
            settings[key] = value
    return settings


def run(args: argparse.Namespace) -> int:
    if args.game == "capture":
        from pacsim.cli.contest import run as run_contest

        return run_contest(args)
    if args.teams or args.grades or args.replay:
        raise ConfigError("--teams, --grades and --replay go with --game capture")
    from pacsim.agents.registry import GHOST, PACMAN
    from pacsim.files import check_output
    from pacsim.printable import printable
    from pacsim.report.leaderboard import build_leaderboard, format_leaderboard
    from pacsim.report.ratings import check_ratings_possible
    from pacsim.runner import load_results
    from pacsim.runner.execute import AllGamesFailed
    from pacsim.runner.tournament import build_tournament, isolation_warning, save_drawn
    from pacsim.web.leaderboard_page import write_leaderboard_page

    if args.workers is not None and args.workers < 1:
        raise ConfigError(f"--workers {args.workers}: must be at least 1")
    if args.pairs is not None and args.pairs < 1:
        raise ConfigError(f"--pairs {args.pairs}: must be at least 1")
    check_ratings_possible()  # before any game, not after all of them
    settings = settings_of(args)
    try:  # the line too: a Ctrl-C as it is written is one in the checks
        if not args.quiet and settings.get("sandbox", True):  # seconds of silence otherwise
            print("pacsim: loading the entrants and building each in its own sandbox (about a second each) ...",
                  file=sys.stderr, flush=True)
        tournament = build_tournament(settings, source=args.file or "pacsim tournament")
    except KeyboardInterrupt:
        raise KeyboardInterrupt("while checking the entrants, before any game: nothing was saved; "
                                "the same command starts again") from None
    warning = isolation_warning(tournament)
    if warning is not None:  # the first line of the results: an instructor must not miss it
        print(f"pacsim: {warning}", flush=True)
    experiment = tournament.experiment
    if args.html:
        check_output(args.html, "--html", inputs=[experiment.store])
    for note in tournament.notes:  # names and messages from the hand-ins: shown escaped, never as terminal codes
        print(f"pacsim: note: {printable(note)}")
    for entrant in tournament.refused if not args.quiet else []:  # said now, before a long run; the board says it again
        print(f"pacsim: note: {printable(entrant.name)} gets no games: {printable(entrant.error or '')}")
    save_drawn(tournament)  # before any game: a resumed run plays the same mazes and starts
    try:
        result = execute(experiment, args)
    except AllGamesFailed:  # an entrant's faults are its results: the board charges each to its entrant
        print("pacsim: note: every game this run played (those not already stored) failed; see the faults below")
    else:
        if not args.quiet:
            print(describe(experiment, result))
    results = experiment.own_games(load_results(experiment.store))
    pacmen = tournament.names(PACMAN)
    try:
        board = build_leaderboard(results, pacmen, tournament.names(GHOST),
                                  [(entrant.name, entrant.error or "") for entrant in tournament.refused],
                                  isolation=isolation_warning(tournament, results), store=str(experiment.store))
    except KeyboardInterrupt:  # the games are stored: rating them again plays none
        raise KeyboardInterrupt(f"while rating: every game played is saved in {experiment.store}; the same "
                                "command rates them without playing them again") from None
    print(format_leaderboard(board))
    if args.html:
        write_leaderboard_page(args.html, board, experiment.name, str(experiment.store), results, pacmen)
        print(f"wrote {args.html}")
    return 0
