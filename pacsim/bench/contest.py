"""Capture contests' speed: sandboxed games a second, the sandbox's cost per game, and a 150-team contest's time.

Measured with pacsim's baseline team, or with the course's own
``baselineTeam.py`` (course-cost teams: about five times the CPU a move)
when ``pacsim bench --contest --capture-course DIR`` names the course's
folder, on ``defaultCapture``, 1,200 moves a game unless a team wins earlier:

* games a wall-clock second in this process, no sandbox;
* the same games with each team in its own sandbox child (children kept
  between games, as a contest's worker keeps them), one worker;
* a real contest (:func:`pacsim.runner.contest.run_contest`, Swiss, its
  store in a temporary folder) of a few teams on all cores: its games a second;

and from the last, the time of a 150-team Swiss contest in the default
format (every student team against one staff team on 4 mazes, both colours,
then the most rounds the format allows: :func:`contest_games`), the worst
case, since a separated ranking stops it earlier.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

from pacsim.bench.report import Report

GROUP = "contest"
LAYOUT = "defaultCapture"
CLASS_SIZE = 150


def contest_games(teams: int, staff: int = 1, mazes: int = 4, mazes_per_round: int = 2, rounds: int = 0) -> int:
    """The most games a Swiss contest of ``teams`` student teams plays (every round played)."""
    from pacsim.runner.contest import swiss_rounds_for

    rounds = rounds or swiss_rounds_for(teams)
    return teams * staff * mazes * 2 + rounds * (teams // 2) * mazes_per_round * 2


def contest_figures(report: Report, games: int, teams: int = 6, course: Path | None = None) -> None:
    """The group's figures with pacsim's baseline team, or with ``course``'s ``baselineTeam.py`` when given."""
    from pacsim.runner.machine_speed import speed_factor

    team, label = ("baseline", "baseline") if course is None else (str(course / "baselineTeam.py"), "course baselineTeam.py")
    if course is not None and not Path(team).is_file():
        report.skip(f"{GROUP}: {course} holds no baselineTeam.py (the course's contest folder, please)")
        return
    report.add(GROUP, "this machine's speed factor (its time limits' multiplier)", speed_factor(), "x",
               "pacsim tournament --game capture --speed-factor X gives a contest these limits")
    plain = _rate(games, team, sandboxed=False)
    report.add(GROUP, f"{label} vs itself, {LAYOUT}, no sandbox", plain, "games/s", f"{games} games, one process")
    boxed = _rate(games, team, sandboxed=True)
    report.add(GROUP, "the same, each team in its own sandbox child", boxed, "games/s",
               f"{games} games, one worker; the sandbox adds {1 / boxed - 1 / plain:.2f} s a game "
               f"({plain / boxed:.1f}x the time)")
    rate, played = _contest_rate(teams, team)
    cores = os.cpu_count() or 1
    report.add(GROUP, f"a Swiss contest of {teams} teams on {cores} cores, sandboxed", rate, "games/s", f"{played} games")
    planned = contest_games(CLASS_SIZE)
    report.add(GROUP, f"a {CLASS_SIZE}-team Swiss contest (at most {planned:,} games), estimated", planned / rate / 60,
               "minutes", f"from the contest rate above; a round robin would be {CLASS_SIZE * (CLASS_SIZE - 1) * 4:,} games")


def _rate(games: int, team: str, sandboxed: bool) -> float:
    from pacsim.agents.capture import build_team
    from pacsim.agents.capture.sandboxed import SandboxedTeam
    from pacsim.engine.capture.game import CaptureTeam, TimeRules, play_capture_game
    from pacsim.engine.capture.layout import find_capture_layout
    from pacsim.sandbox.limits import Limits

    layout = find_capture_layout(LAYOUT)
    empty = Path(tempfile.mkdtemp(prefix="pacsim-bench-"))
    teams: list[CaptureTeam]
    if sandboxed:
        limits = Limits(move_seconds=3.0, startup_seconds=15.0)
        teams = [SandboxedTeam(team, True, limits, empty), SandboxedTeam(team, False, limits, empty)]
    else:
        teams = [build_team(team, True), build_team(team, False)]
    started = time.perf_counter()
    for seed in range(games):
        play_capture_game(layout, teams[0], teams[1], seed, time_rules=TimeRules())
    return games / (time.perf_counter() - started)


def _contest_rate(teams: int, team: str) -> tuple[float, int]:
    """Games a second of a real Swiss contest (two rounds) of ``teams`` copies of ``team`` on all cores."""
    from pacsim.report.contest_board import rank_ranges
    from pacsim.runner.contest import SWISS, Contest, Team, draw, run_contest, sandbox_limits, scaled_rules
    from pacsim.runner.contest_store import ContestStore

    folder = Path(tempfile.mkdtemp(prefix="pacsim-bench-contest-"))
    store = ContestStore(folder / "contest.sqlite")
    members = [Team("baseline", "baseline", "staff", staff=True)]
    members += [Team(f"team{number}", team, f"team{number}") for number in range(teams)]
    rules = scaled_rules(1.0)
    contest = Contest("bench", store, members, draw([LAYOUT], 1, lambda: 1.0), SWISS, rules=rules,
                      limits=sandbox_limits(rules), mazes_per_round=1, rounds=2, empty_folder=folder)
    started = time.perf_counter()
    tasks = run_contest(contest, os.cpu_count() or 1, rank_ranges)
    seconds = time.perf_counter() - started
    store.close()
    return len(tasks) / seconds, len(tasks)
