"""The sandbox's cost: a plugin's game played in its own sandboxed process against the same game in-process."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from pacsim.agents.registry import PACMAN, make_ghost, make_pacman
from pacsim.agents.sandbox import BUBBLEWRAP, LIMITS, Limits, bubblewrap_works, sandboxed
from pacsim.bench.report import Report
from pacsim.engine import find_layout, play_game

PLUGIN = '''
from pacsim.agents import Agent


class Wanderer(Agent):
    def get_action(self, state):
        return self.rng.choice(state.legal_actions())
'''
"""A plugin that thinks for no time: what is measured is the sandbox alone."""


def sandbox_figures(report: Report, games: int = 10, max_moves: int = 100) -> None:
    """Seconds a game of a random plugin Pacman on smallClassic (2 random
    ghosts, ``max_moves`` moves at most), in-process and sandboxed at each
    level that works here, and the ratio: process start-up and a pipe round
    trip a move."""
    layout = find_layout("smallClassic").layout
    with tempfile.TemporaryDirectory() as folder:
        spec = f"{Path(folder) / 'wanderer.py'}:Wanderer"
        (Path(folder) / "wanderer.py").write_text(PLUGIN)

        def seconds_a_game(sandbox: str | None) -> float:
            started = time.perf_counter()
            for seed in range(games):
                pacman = make_pacman(spec) if sandbox is None else sandboxed(PACMAN, spec, {}, Limits(isolation=sandbox))
                assert pacman is not None
                play_game(layout, [pacman, make_ghost("random"), make_ghost("random")], seed=seed, max_moves=max_moves)
            return (time.perf_counter() - started) / games

        plain = seconds_a_game(None)
        report.add("sandbox", "plain plugin game", plain * 1000, "ms/game", f"smallClassic, {games} games, in-process")
        levels = [LIMITS, BUBBLEWRAP] if bubblewrap_works() else [LIMITS]
        for level in levels:
            sandboxed_seconds = seconds_a_game(level)
            report.add("sandbox", f"sandboxed game ({level})", sandboxed_seconds * 1000, "ms/game", f"{games} games")
            report.add("sandbox", f"sandboxed / plain ({level})", sandboxed_seconds / plain, "x", "same games, one run")
        if BUBBLEWRAP not in levels:
            report.skip("sandbox: bubblewrap is missing or cannot create namespaces here; only the limits level measured")
