"""The adversarial ghost's memo (:mod:`pacsim.fast.memo`): what it saves.

Two measurements, each with the memo off and on in the same run (the
machine may be shared: the ratios are the figures to compare):

* the Pacman that models the ghost (``expectimax:model=adversarial:p=P``,
  the optimism curve's true-model Pacman) against that ghost: games per
  CPU second of this process, and whether every game's record is the same;
* ``pacsim reproduce`` (the lecture table) on 2 workers: wall and CPU
  seconds of the whole command, its worker processes included.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pacsim.agents import make_ghost, make_pacman
from pacsim.bench.agreement import case_layout, untimed
from pacsim.bench.report import Report
from pacsim.engine import play_game
from pacsim.fast.memo import SWITCH

GROUP = "chase memo"
TRUE_MODEL_P = 0.75
TRUE_MODEL_MAZE = "optimismHalls"
REPRODUCE_TARGET = 15.0
"""Seconds wanted for ``pacsim reproduce`` on 2 idle cores (issue 29)."""


@contextmanager
def memo_switched(on: bool) -> Iterator[None]:
    """The memo on or off in this process and the processes it starts."""
    previous = os.environ.get(SWITCH)
    os.environ[SWITCH] = "1" if on else "0"
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop(SWITCH, None)
        else:
            os.environ[SWITCH] = previous


def memo_figures(report: Report, games: int, reproduce_games: int | None) -> None:
    """Both measurements: ``games`` true-model games (seeds 0 to games - 1,
    random starts) and ``pacsim reproduce`` at ``reproduce_games`` a cell
    (None: the file's 500)."""
    true_model_games(report, games)
    reproduce_seconds(report, reproduce_games)


def true_model_games(report: Report, games: int) -> None:
    """The true-model Pacman's games/s with the memo off and on, and how many records differ."""
    pacman, ghost = f"expectimax:depth=4,eval=careful,model=adversarial:p={TRUE_MODEL_P}", f"adversarial:p={TRUE_MODEL_P}"

    def play() -> list[Any]:
        return [untimed(play_game(case_layout(TRUE_MODEL_MAZE, seed, True), [make_pacman(pacman), make_ghost(ghost)],
                                  seed=seed, max_moves=300)) for seed in range(games)]

    play_game(case_layout(TRUE_MODEL_MAZE, 0, True), [make_pacman(pacman), make_ghost(ghost)], seed=0, max_moves=2)  # load the kernel
    records, rates = {}, {}
    for on in (False, True):
        with memo_switched(on):
            seconds, records[on] = _timed(play)
        rates[on] = games / seconds
        report.add(GROUP, f"true-model Pacman, memo {'on' if on else 'off'}", rates[on], "games/s",
                   f"per CPU second; {games} games, {TRUE_MODEL_MAZE}, random starts, p = {TRUE_MODEL_P}, depth 4")
    report.add(GROUP, "true-model Pacman memo on/off", rates[True] / rates[False], "ratio", "same run")
    differ = sum(on != off for on, off in zip(records[True], records[False]))
    report.add(GROUP, "true-model games whose record differs", differ, "games", "want 0: the memo is exact")


def reproduce_seconds(report: Report, games: int | None) -> None:
    """``pacsim reproduce -j 2``'s wall and CPU seconds with the memo off and on."""
    walls = {}
    with tempfile.TemporaryDirectory(prefix="pacsim-bench-") as directory:
        for on in (False, True):
            command = [sys.executable, "-m", "pacsim", "reproduce", "-q", "-j", "2",
                       "--store", str(Path(directory) / f"reproduce-{on}.sqlite")]
            command += [] if games is None else ["-n", str(games)]
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            started = time.perf_counter()
            with memo_switched(on):
                finished = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
            walls[on] = time.perf_counter() - started
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if finished.returncode != 0:
                report.skip(f"chase memo: pacsim reproduce failed: {finished.stderr.strip().splitlines()[-1:]}")
                return
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            size = "the file's 500" if games is None else str(games)
            label = "on" if on else "off"
            report.add(GROUP, f"pacsim reproduce wall, memo {label}", walls[on], "s",
                       f"{size} games a cell, 2 workers; target {REPRODUCE_TARGET:.0f} s on 2 idle cores")
            report.add(GROUP, f"pacsim reproduce CPU, memo {label}", cpu, "s", "the command and its workers")
    report.add(GROUP, "pacsim reproduce wall memo off/on", walls[False] / walls[True], "ratio", "same run")


def _timed(play: Callable[[], list[Any]]) -> tuple[float, list[Any]]:
    """``play``'s CPU seconds (steadier than the wall clock on a shared machine) and its result."""
    started = time.process_time()
    result = play()
    return time.process_time() - started, result
