"""Capture-the-flag speed: games a second, pacsim against the course's own ``capture.py``.

Three figures on the same maze and game count: the course's engine playing
its ``baselineTeam.py`` against itself (``capture.py -q -n N``, one process,
its start-up included, as a contest runs it); pacsim playing that same
unmodified file through its course adapter; pacsim playing its own
baseline team.  Rates are games per second of CPU time (the course's
child process's own, read from ``RUSAGE_CHILDREN``), so that a machine
shared with other work compares the engines fairly.  The course's copy is kept outside the repository
(``pacsim bench --capture-course DIR``); without one only pacsim's figures
are measured.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import time
from pathlib import Path

from pacsim.bench.report import Report

GROUP = "capture"
LAYOUT = "defaultCapture"


def capture_figures(report: Report, course: Path | None, games: int) -> None:
    """The group's figures; ``course``: the folder of the course's ``capture.py``."""
    own = _pacsim_rate("baseline", games)
    report.add(GROUP, f"pacsim baseline vs baseline, {LAYOUT}", own, "games/CPU s", f"{games} games")
    if course is None:
        report.skip("capture: the course's engine and team file need the course's folder (pacsim bench --capture-course DIR)")
        return
    team = course / "baselineTeam.py"
    if not (course / "capture.py").is_file() or not team.is_file():
        report.skip(f"capture: {course} holds no capture.py and baselineTeam.py (the course's contest folder, please)")
        return
    theirs = _course_rate(course, games)
    through = _pacsim_rate(str(team), games)
    report.add(GROUP, f"course capture.py, its baselineTeam.py, {LAYOUT}", theirs, "games/CPU s", f"{games} games, one process")
    report.add(GROUP, "pacsim, the course's baselineTeam.py unmodified", through, "games/CPU s",
               f"{through / theirs:.1f}x the course's engine (target 10x)")
    report.add(GROUP, "pacsim, its own baseline team", own, "games/CPU s", f"{own / theirs:.1f}x the course's engine (target 50x)")


def _pacsim_rate(team: str, games: int) -> float:
    from pacsim.agents.capture import build_team
    from pacsim.engine.capture.game import play_capture_game
    from pacsim.engine.capture.layout import find_capture_layout

    layout = find_capture_layout(LAYOUT)
    red, blue = build_team(team, True), build_team(team, False)
    started = time.process_time()
    for seed in range(games):
        play_capture_game(layout, red, blue, seed)
    return games / (time.process_time() - started)


def _course_rate(course: Path, games: int) -> float:
    team = str(course / "baselineTeam.py")
    command = [sys.executable, "-m", "pacsim.bench.course_capture", str(course), "-q", "-r", team, "-b", team,
               "-l", str(course / "layouts" / f"{LAYOUT}.lay"), "-n", str(games), "--delay-step", "0"]
    before = _children_seconds()
    subprocess.run(command, check=True, capture_output=True, timeout=3600)
    return games / (_children_seconds() - before)


def _children_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime
