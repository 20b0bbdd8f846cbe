"""Experiments: TOML grids of conditions, played in parallel into a resumable SQLite store.

Pandas is imported only where results are read (``load_results``), so that
worker processes stay light.
"""

from pacsim.runner.execute import GameTask, InlineExecutor, RunResult, play_task, run_experiment
from pacsim.runner.experiment import Condition, Experiment, build_experiment, game_seeds, load_experiment
from pacsim.runner.row import GameRow
from pacsim.runner.store import ResultStore, load_results, load_saved_game

__all__ = [
    "Condition", "Experiment", "build_experiment", "game_seeds", "load_experiment",
    "GameTask", "InlineExecutor", "RunResult", "play_task", "run_experiment",
    "GameRow", "ResultStore", "load_results", "load_saved_game",
]
