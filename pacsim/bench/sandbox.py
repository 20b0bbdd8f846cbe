"""The sandbox's cost: a plugin's game played in its own sandboxed process against the same game in-process."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from pacsim.agents.registry import PACMAN, make_ghost, make_pacman
from pacsim.agents.sandboxed import sandboxed
from pacsim.bench.report import Report
from pacsim.engine import find_layout, play_game
from pacsim.sandbox.bubblewrap import bubblewrap_works
from pacsim.sandbox.limits import BUBBLEWRAP, LIMITS, Limits
from pacsim.sandbox.room import idle_children

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
    level that works here, and the ratio: a pipe round trip a move, and a
    process start-up for a fresh child (each game's child kept for the next
    game, as a worker does, or ended after each game, as before issue 31's reuse)."""
    layout = find_layout("smallClassic").layout
    with tempfile.TemporaryDirectory() as folder:
        spec = f"{Path(folder) / 'wanderer.py'}:Wanderer"
        (Path(folder) / "wanderer.py").write_text(PLUGIN)

        def seconds_a_game(sandbox: str | None, fresh: bool = False) -> float:
            idle_children.end_all()
            started = time.perf_counter()
            for seed in range(games):
                if fresh:
                    idle_children.end_all()
                pacman = make_pacman(spec) if sandbox is None else sandboxed(PACMAN, spec, {}, Limits(isolation=sandbox))
                assert pacman is not None
                play_game(layout, [pacman, make_ghost("random"), make_ghost("random")], seed=seed, max_moves=max_moves)
            seconds = (time.perf_counter() - started) / games
            idle_children.end_all()
            return seconds

        plain = seconds_a_game(None)
        report.add("sandbox", "plain plugin game", plain * 1000, "ms/game", f"smallClassic, {games} games, in-process")
        levels = [LIMITS, BUBBLEWRAP] if bubblewrap_works() else [LIMITS]
        for level in levels:
            fresh_seconds = seconds_a_game(level, fresh=True)
            sandboxed_seconds = seconds_a_game(level)
            report.add("sandbox", f"sandboxed game ({level}, fresh child)", fresh_seconds * 1000, "ms/game", f"{games} games")
            report.add("sandbox", f"sandboxed game ({level})", sandboxed_seconds * 1000, "ms/game",
                       f"{games} games, one child reused")
            report.add("sandbox", f"sandboxed / plain ({level})", sandboxed_seconds / plain, "x", "same games, one run")
            report.add("sandbox", f"fresh child / reused ({level})", fresh_seconds / sandboxed_seconds, "x", "same games, one run")
        if BUBBLEWRAP not in levels:
            report.skip("sandbox: bubblewrap is missing or cannot create namespaces here; only the limits level measured")
