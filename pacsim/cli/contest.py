"""``pacsim tournament --game capture``: a class's capture-the-flag contest (docs/capture.md, docs/tournament.md)."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from pacsim.errors import ConfigError

if TYPE_CHECKING:  # imported late: --help imports none of the contest's modules
    from pacsim.runner.contest import Contest

AUTO = "auto"
ROUND_ROBIN_UP_TO = 16
"""``--format auto``: a round robin for at most this many teams, Swiss above."""
PACMAN_ONLY = ("pacman", "ghosts", "pairs", "seed", "time_limit")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The capture contest's own options (``pacsim tournament`` shares --layout, --store, --name, -j, -q ...)."""
    group = parser.add_argument_group("capture contests (--game capture)")
    group.add_argument("--game", choices=("pacman", "capture"), default="pacman",
                       help="pacman: Pacman entrants against ghosts (the default); capture: capture-the-flag teams")
    group.add_argument("--teams", nargs="+", metavar="PATH", default=[],
                       help="student teams: a folder of team folders (each with myTeam.py), team folders or files")
    group.add_argument("--staff", nargs="+", metavar="TEAM", default=["baseline"],
                       help="staff teams, graded against: pacsim's teams (baseline, alphabeta, mcts) or team files "
                            "(default: baseline)")
    group.add_argument("--format", choices=(AUTO, "round-robin", "swiss"), default=AUTO,
                       help=f"round-robin, or swiss (rating-paired rounds until the ranking is separated); auto: a "
                            f"round robin up to {ROUND_ROBIN_UP_TO} teams")
    group.add_argument("--mazes", type=int, default=None, metavar="N",
                       help="generated mazes, seeds drawn afresh, when no --layout is given (default 4)")
    group.add_argument("--rounds", type=int, default=0, metavar="N", help="most Swiss rounds (default: log2(teams) + 4)")
    group.add_argument("--mazes-per-round", type=int, default=2, metavar="N", help="mazes a Swiss pairing plays (default 2)")
    group.add_argument("--grades", metavar="FILE.csv", default=None,
                       help="write each student team's results against the staff teams as CSV")
    group.add_argument("--speed-factor", type=float, default=None, metavar="X",
                       help="multiply the course's time limits by X (default: this machine measured once, kept)")
    group.add_argument("--replay", metavar="KEY", default=None,
                       help="write the stored game KEY (the board's fault lines) as a record for pacsim capture --replay")


def run(args: argparse.Namespace) -> int:
    from pacsim.files import check_output
    from pacsim.report.contest_board import build_board, format_board, grade_rows, rank_ranges, write_grades
    from pacsim.report.ratings import check_ratings_possible
    from pacsim.runner.contest import run_contest

    _check(args)
    check_ratings_possible()
    if args.replay:
        return _replay(args)
    if args.grades:
        check_output(args.grades, "--grades", inputs=[_store_path(args), *_hand_in_files(args)])
    contest = _contest(args)
    workers = args.workers or os.cpu_count() or 1
    if not args.quiet:
        print(f"pacsim: {len(contest.playing)} teams, {len(contest.drawn.mazes)} mazes, {contest.format}; time limits "
              f"x{contest.drawn.speed_factor:.2f}: warning {contest.rules.move_warning:.2f} s, forfeit "
              f"{contest.rules.move_timeout:.2f} s, start-up {contest.rules.startup:.1f} s", file=sys.stderr, flush=True)
    try:
        with contextlib.ExitStack() as stack:
            if args.executor == "dask":
                from pacsim.runner.dask_executor import dask_executor

                contest.executor = stack.enter_context(dask_executor(args.scheduler, workers))
            tasks = run_contest(contest, workers, rank_ranges, None if args.quiet else _progress)
    except KeyboardInterrupt:
        raise KeyboardInterrupt(f"every finished game is saved in {contest.store.path}; the same command goes on "
                                "from there") from None
    games = contest.store.games(task.key for task in tasks)
    names = [team.name for team in contest.playing]
    board = build_board(names, {team.name for team in contest.teams if team.staff}, games,
                        [(team.name, team.error or "") for team in contest.teams if team.error])
    print(format_board(board))
    if args.grades:
        students = [(team.name, team.digest) for team in contest.playing if not team.staff]
        write_grades(args.grades, grade_rows(students, [team.name for team in contest.playing if team.staff], games))
        print(f"wrote {args.grades}")
    contest.store.close()
    return 0


def _check(args: argparse.Namespace) -> None:
    for option in PACMAN_ONLY:
        if getattr(args, option, None) is not None:
            raise ConfigError(f"--{option.replace('_', '-')} is for Pacman tournaments, not --game capture")
    if args.file:
        raise ConfigError("a tournament file is for Pacman tournaments; --game capture takes its options")
    for option in ("mazes", "rounds", "mazes_per_round", "workers", "max_moves"):
        value = getattr(args, option)
        if value is not None and value < (0 if option == "rounds" else 1):
            raise ConfigError(f"--{option.replace('_', '-')} {value}: must be at least {0 if option == 'rounds' else 1}")
    if args.scheduler and args.executor != "dask":
        raise ConfigError("--scheduler goes with --executor dask")
    if args.speed_factor is not None and not 0.05 <= args.speed_factor <= 100:
        raise ConfigError(f"--speed-factor {args.speed_factor}: must be from 0.05 to 100")
    if not args.teams and not args.replay:
        raise ConfigError("--game capture needs --teams (a folder of team folders, team folders or files)")


def _store_path(args: argparse.Namespace) -> Path:
    return Path(args.store or f"results/{args.name or 'contest'}.sqlite")


def _contest(args: argparse.Namespace) -> Contest:
    from pacsim.runner.contest import (
        FORMATS,
        Contest,
        draw,
        empty_folder,
        find_teams,
        now,
        sandbox_limits,
        scaled_rules,
    )
    from pacsim.runner.contest_store import ContestStore
    from pacsim.runner.machine_speed import speed_factor
    from pacsim.runner.tournament import hand_in_limits, snapshots_folder

    path = _store_path(args)
    store = ContestStore(path)
    limits = hand_in_limits({key: value for key, value in (("hand_in_mb", args.hand_in_mb),
                                                           ("hand_in_files", args.hand_in_files)) if value is not None},
                            "pacsim tournament")
    snapshots = snapshots_folder(path)
    teams = find_teams(args.staff, snapshots, limits, staff=True) + find_teams(args.teams, snapshots, limits)
    name = args.name or "contest"
    drawn = store.drawn(name)
    if drawn is None:
        factor = args.speed_factor
        drawn = draw(args.layout or [], args.mazes or 4, (lambda: factor) if factor is not None else speed_factor)
        drawn = store.keep_drawn(name, drawn, now())
    elif args.speed_factor is not None and args.speed_factor != drawn.speed_factor:
        raise ConfigError(f"--speed-factor {args.speed_factor}: this contest was started with {drawn.speed_factor:.3g} "
                          "(kept in its store, so that all its games have the same limits)")
    rules = scaled_rules(drawn.speed_factor)
    playing = sum(1 for team in teams if team.error is None)
    chosen = args.format if args.format != AUTO else FORMATS[0] if playing <= ROUND_ROBIN_UP_TO else FORMATS[1]
    sandboxed = args.sandbox is not False
    if sandboxed:
        _check_isolation(args)
    return Contest(name, store, teams, drawn, chosen, args.max_moves or 1200, rules,
                   sandbox_limits(rules) if sandboxed else None, args.mazes_per_round, args.rounds, empty_folder(path))


def _check_isolation(args: argparse.Namespace) -> None:
    from pacsim.runner.tournament import refuse_weak
    from pacsim.sandbox.isolation import FULL, isolation
    from pacsim.sandbox.limits import Limits

    here = isolation(Limits())
    if not args.allow_weak_sandbox:
        refuse_weak(here, "pacsim tournament --game capture")
    elif here.strength != FULL:
        print(f"pacsim: WARNING: {here.summary()}", flush=True)


def _progress(done: int, total: int) -> None:
    if done == total or done % max(1, total // 20) == 0:
        print(f"pacsim: played {done}/{total} games", file=sys.stderr, flush=True)


def _hand_in_files(args: argparse.Namespace) -> list[Path]:
    """Every file under the ``--teams`` and ``--staff`` paths: inputs no output may replace."""
    paths = [Path(value) for value in (*args.teams, *args.staff)]
    return [file for path in paths for file in ([path] if path.is_file() else path.rglob("*") if path.is_dir() else [])
            if file.is_file()]


def _replay(args: argparse.Namespace) -> int:
    """Write the stored game ``--replay KEY`` as pacsim's capture record (its maze's text beside it)."""
    from pacsim.files import check_output, write_atomically
    from pacsim.runner.contest_store import ContestStore

    path = _store_path(args)
    if not path.is_file():
        raise ConfigError(f"--store {path}: no such contest store")
    store = ContestStore(path)
    game = store.game(args.replay)
    if game is None:
        raise ConfigError(f"--replay {args.replay!r}: no one game in {path} has a key starting so")
    drawn = store.drawn(game["contest"])
    texts = dict(drawn.mazes) if drawn else {}
    folder = check_output(Path("replays"), "--replay (its folder)", folder=True)
    maze = folder / f"{game['layout']}.lay"
    if game["layout"] in texts:
        write_atomically(maze, texts[game["layout"]], "the game's maze")
    record = {"game": "capture", "red": game["red"], "blue": game["blue"], "layout": str(maze), "seed": game["seed"],
              "score": game["score"], "winner": game["winner"], "reason": game["reason"], "culprit": game["culprit"],
              "error": game["error"], "fault": game["fault"], "moves": json.loads(game["moves"])}
    target = folder / f"capture-{game['key'][:12]}.json"
    write_atomically(target, json.dumps(record, indent=1) + "\n", "the game's record")
    print(f"wrote {target} ({game['red']} red, {game['blue']} blue on {game['layout']}, seed {game['seed']}); "
          f"watch it: pacsim capture --replay {target}")
    store.close()
    return 0
