"""Tournament speed: entrants x mazes x paired starts played on every core, then rated."""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

from pacsim.agents.registry import GHOST, PACMAN
from pacsim.bench.report import Report
from pacsim.report.leaderboard import build_leaderboard
from pacsim.runner import load_results, run_experiment
from pacsim.runner.tournament import build_tournament

ENTRANT = '''from pacsim.agents import Agent

WANDER = {wander}


class Student(Agent):
    """Eats the nearest food, but wanders at random a share of its moves."""

    def get_action(self, state):
        actions = state.legal_actions()
        if self.rng.random() < WANDER or not state.food_cells():
            return self.rng.choice(actions)
        def distance(action):
            cell = state.successor(action).pacman
            return min(state.distance(cell, food) for food in state.food_cells())
        return min(actions, key=distance)
'''


def tournament_speed(report: Report, entrants: int, mazes: int, pairs: int, workers: int | None = None,
                     sandboxed: bool = False) -> None:
    """Seconds and games/s of a whole tournament (its store, pool start and
    rating included) of ``entrants`` student folders on ``mazes`` generated
    mazes with ``pairs`` paired starts each, against random ghosts; each
    entrant in its sandbox (the default limits) if ``sandboxed``."""
    workers = workers or os.cpu_count() or 1
    group = f"tournament ({entrants} entrants x {mazes} mazes x {pairs} pairs, {workers} workers" + \
        (", sandboxed)" if sandboxed else ")")
    with tempfile.TemporaryDirectory(prefix="pacsim-bench-") as directory:
        students = Path(directory) / "students"
        for index in range(entrants):
            (students / f"student{index:02d}").mkdir(parents=True)
            (students / f"student{index:02d}" / "agent.py").write_text(ENTRANT.format(wander=index / entrants))
        started = time.perf_counter()
        tournament = build_tournament({"pacman": [str(students)], "ghosts": ["random"], "pairs": pairs, "seed": 1,
                                       "layouts": [f"generated:w=9,h=7,food=6,ghosts=1,mazes={mazes}"],
                                       "store": str(Path(directory) / "tournament.sqlite")}, sandboxed=sandboxed)
        result = run_experiment(tournament.experiment, workers=workers, quiet=True)
        played = time.perf_counter()
        results = tournament.experiment.own_games(load_results(result.store))
        build_leaderboard(results, tournament.names(PACMAN), tournament.names(GHOST))
        finished = time.perf_counter()
    report.add(group, "whole tournament", finished - started, "s", f"{result.played} games")
    report.add(group, "games", result.played / (played - started), "games/s", "building and playing")
    report.add(group, "leaderboard (ratings, 200 bootstrap fits)", finished - played, "s")
