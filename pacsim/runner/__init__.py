"""Experiments: TOML grids of conditions, played in parallel into a resumable SQLite store.

Pandas is imported only where results are read (``load_results``), so that
worker processes stay light; the names below are imported on first use
(:mod:`pacsim.lazy`), so that reading an experiment's limits
(:mod:`pacsim.runner.experiment`) does not start the process pool's machinery.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pacsim.lazy import lazy_attribute

if TYPE_CHECKING:
    from pacsim.runner.execute import GameTask, InlineExecutor, RunResult, play_task, run_experiment
    from pacsim.runner.experiment import Experiment, build_experiment, game_seeds, load_experiment
    from pacsim.runner.plan import Condition
    from pacsim.runner.row import GameRow
    from pacsim.runner.store import ResultStore, load_results, load_saved_game

_HOMES = {
    "pacsim.runner.execute": ("GameTask", "InlineExecutor", "RunResult", "play_task", "run_experiment"),
    "pacsim.runner.experiment": ("Experiment", "build_experiment", "game_seeds", "load_experiment"),
    "pacsim.runner.plan": ("Condition",),
    "pacsim.runner.row": ("GameRow",),
    "pacsim.runner.store": ("ResultStore", "load_results", "load_saved_game"),
}

__all__ = [
    "Condition", "Experiment", "build_experiment", "game_seeds", "load_experiment",
    "GameTask", "InlineExecutor", "RunResult", "play_task", "run_experiment",
    "GameRow", "ResultStore", "load_results", "load_saved_game",
]


def __getattr__(name: str) -> Any:
    return lazy_attribute(__name__, name, _HOMES)
