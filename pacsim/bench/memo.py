"""The kernel's memos: what they save.

The adversarial ghost's chase memo and a search Pacman's memo across games
(:mod:`pacsim.fast.memo`), and the plain search's subtree memo
(:mod:`pacsim.fast.subtree_memo`).  Each measurement has the memos off and
on in the same run (the machine may be shared: the ratios are the figures
to compare):

* the Pacman that models the ghost (``expectimax:model=adversarial:p=P``,
  the optimism curve's true-model Pacman) against that ghost, chase memo
  off and on: games per CPU second of this process, and whether every
  game's record is the same;
* depth-4 minimax and expectimax searches at positions of seeded games,
  subtree memo off and on: searches per CPU second, and whether any
  result (value, move, node counts) differs;
* ``pacsim reproduce`` (the lecture table) on 2 workers, every memo off
  and on: wall and CPU seconds of the whole command, its worker processes
  included, and how many stored rows differ (moves, score, node counts).
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

from pacsim.agents import make_ghost, make_pacman
from pacsim.bench.agreement import case_layout, untimed
from pacsim.bench.report import Report
from pacsim.engine import play_game
from pacsim.fast.memo import PACMAN_SWITCH, SWITCH
from pacsim.fast.subtree_memo import SWITCH as SUBTREE_SWITCH

GROUP = "memos"
TRUE_MODEL_P = 0.75
TRUE_MODEL_MAZE = "optimismHalls"
REPRODUCE_TARGET = 10.0
"""Seconds wanted for ``pacsim reproduce`` on 2 idle cores, the cache warm (issue 38)."""
ALL_MEMOS = (SWITCH, SUBTREE_SWITCH, PACMAN_SWITCH)
ROW_COLUMNS = "condition_key, game_index, seed, start, outcome, score, moves, nodes, levels_reached, actions, error"
"""The columns of a stored game that the memos must not change (times aside)."""


@contextmanager
def memo_switched(on: bool, switches: tuple[str, ...] = (SWITCH,)) -> Iterator[None]:
    """The memos named by their ``switches`` on or off in this process and the processes it starts."""
    previous = {switch: os.environ.get(switch) for switch in switches}
    os.environ.update({switch: "1" if on else "0" for switch in switches})
    try:
        yield
    finally:
        for switch, value in previous.items():
            if value is None:
                os.environ.pop(switch, None)
            else:
                os.environ[switch] = value


def memo_figures(report: Report, games: int, reproduce_games: int | None) -> None:
    """Both measurements: ``games`` true-model games (seeds 0 to games - 1,
    random starts) and ``pacsim reproduce`` at ``reproduce_games`` a cell
    (None: the file's 500)."""
    true_model_games(report, games)
    subtree_searches(report, positions=20 if games < 20 else 60)
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


def subtree_searches(report: Report, positions: int) -> None:
    """Depth-4 minimax and expectimax searches per CPU second with the subtree memo off and on."""
    from pacsim.bench.positions import game_positions
    from pacsim.fast.request import round_request
    from pacsim.fast.search import run_request
    from pacsim.search import CHANCE, MAX, MIN

    states = game_positions(positions, layouts=(TRUE_MODEL_MAZE,))

    def search() -> list[Any]:
        return [(result.value, result.action, result.stats.generated, result.stats.evaluated, result.stats.max_depth)
                for kinds in ((MAX, MIN), (MAX, CHANCE)) for state in states
                for result in [run_request(state, round_request(kinds, "careful", 8, state.layout.num_cells))]]

    search()  # load the kernel
    results, rates = {}, {}
    for on in (False, True):
        with memo_switched(on, (SUBTREE_SWITCH,)):
            seconds, results[on] = _timed(search)
        rates[on] = len(results[on]) / seconds
        report.add(GROUP, f"depth-4 searches, subtree memo {'on' if on else 'off'}", rates[on], "searches/s",
                   f"per CPU second; minimax and expectimax at {len(states)} positions of {TRUE_MODEL_MAZE} games")
    report.add(GROUP, "depth-4 searches subtree memo on/off", rates[True] / rates[False], "ratio", "same run")
    differ = sum(on != off for on, off in zip(results[True], results[False]))
    report.add(GROUP, "searches whose result differs", differ, "searches", "want 0: the memo is exact")


def reproduce_seconds(report: Report, games: int | None) -> None:
    """``pacsim reproduce -j 2``'s wall and CPU seconds with every memo off and on, and its rows compared."""
    walls, rows = {}, {}
    with tempfile.TemporaryDirectory(prefix="pacsim-bench-") as directory:
        for on in (False, True):
            command = [sys.executable, "-m", "pacsim", "reproduce", "-q", "-j", "2",
                       "--store", str(Path(directory) / f"reproduce-{on}.sqlite")]
            command += [] if games is None else ["-n", str(games)]
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            started = time.perf_counter()
            with memo_switched(on, ALL_MEMOS):
                finished = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
            walls[on] = time.perf_counter() - started
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if finished.returncode != 0:
                report.skip(f"memos: pacsim reproduce failed: {finished.stderr.strip().splitlines()[-1:]}")
                return
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            size = "the file's 500" if games is None else str(games)
            label = "on" if on else "off"
            report.add(GROUP, f"pacsim reproduce wall, memos {label}", walls[on], "s",
                       f"{size} games a cell, 2 workers; target {REPRODUCE_TARGET:.0f} s on 2 idle cores")
            report.add(GROUP, f"pacsim reproduce CPU, memos {label}", cpu, "s", "the command and its workers")
            rows[on] = _stored_rows(Path(directory) / f"reproduce-{on}.sqlite")
    report.add(GROUP, "pacsim reproduce wall memos off/on", walls[False] / walls[True], "ratio", "same run")
    report.add(GROUP, "pacsim reproduce rows that differ", len(rows[True] ^ rows[False]), "rows",
               f"of {len(rows[True])}; want 0: the memos are exact")


def _stored_rows(store: Path) -> set[tuple[Any, ...]]:
    """The games of a store, by what the memos must not change."""
    import sqlite3

    with closing(sqlite3.connect(store)) as connection:
        return set(connection.execute(f"SELECT {ROW_COLUMNS} FROM games"))


def _timed(play: Callable[[], list[Any]]) -> tuple[float, list[Any]]:
    """``play``'s CPU seconds (steadier than the wall clock on a shared machine) and its result."""
    started = time.process_time()
    result = play()
    return time.process_time() - started, result
