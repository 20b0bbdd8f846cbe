"""The Dask backend: the same rows as the local process pool, a dead worker
loses no game, and the command line's ``--backend dask`` and its errors."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("distributed")

from distributed import Client, LocalCluster
from storetools import wait_for_rows

import pacsim.runner.dask_backend as dask_backend
from pacsim.cli import main
from pacsim.errors import ConfigError
from pacsim.runner import Experiment, RunResult, build_experiment, load_results, run_experiment
from pacsim.runner.store import TIMING_COLUMNS

SMALL = {
    "name": "dask_small", "games": 4, "seed": 17, "max_moves": 80,
    "grid": {"pacman": ["greedy", "minimax:depth=1"], "ghosts": ["random", "directional"],
             "layout": ["tinyMaze", "openRoom"]},
}
"""8 conditions x 4 games, a fraction of a second of play."""

LONG = {
    "name": "dask_long", "games": 25, "seed": 29, "max_moves": 120,
    "grid": {"pacman": ["minimax:depth=3", "expectimax:depth=3"], "ghosts": ["random", "directional"],
             "layout": ["openRoom"]},
}
"""100 games of ~50 ms each: a few seconds on two workers, long enough to kill one mid-run."""


def comparable(store: Path):
    """The stored rows without what legitimately differs between runs (times, machine)."""
    frame = load_results(store).drop(columns=["id", *TIMING_COLUMNS])
    return frame.sort_values(["condition_key", "game_index"]).reset_index(drop=True)


def local_run(experiment: Experiment, store: Path) -> RunResult:
    return run_experiment(experiment, workers=2, store_path=store, quiet=True)


def local_cluster() -> LocalCluster:
    return LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)


def test_local_cluster_stores_the_same_rows_as_the_process_pool(tmp_path):
    experiment = build_experiment(SMALL)
    local = local_run(experiment, tmp_path / "local.sqlite")
    with dask_backend.dask_executor(workers=2) as executor:
        on_dask = run_experiment(experiment, executor=executor, workers=2, store_path=tmp_path / "dask.sqlite",
                                 quiet=True)
    assert local.played == on_dask.played == 4 * len(experiment.conditions) == 32
    local_rows, dask_rows = comparable(local.store), comparable(on_dask.store)
    assert list(local_rows.columns) == list(dask_rows.columns)
    for index in range(len(local_rows)):  # row by row, so a failure names the game
        assert local_rows.iloc[index].equals(dask_rows.iloc[index]), (
            f"game {index}: local {local_rows.iloc[index].to_dict()} != dask {dask_rows.iloc[index].to_dict()}")


def test_a_worker_killed_mid_run_loses_no_game(tmp_path):
    experiment = build_experiment(LONG)
    total = experiment.games * len(experiment.conditions)
    store = tmp_path / "dask.sqlite"
    outcome: dict[str, object] = {}
    with local_cluster() as cluster, Client(cluster) as client:
        executor = client.get_executor()

        def coordinate() -> None:
            try:
                outcome["result"] = run_experiment(experiment, executor=executor, workers=2, store_path=store,
                                                   quiet=True)
            except BaseException as error:  # re-raised in the test's thread below
                outcome["error"] = error

        coordinator = threading.Thread(target=coordinate)
        coordinator.start()
        try:
            stored_before_kill = wait_for_rows(store, 10, lambda: None if coordinator.is_alive() else "the run ended before it had stored enough games", seconds=60.0)
            _victim_address, victim_pid = sorted(client.run(os.getpid).items())[0]
            os.kill(victim_pid, signal.SIGKILL)  # no goodbye to the scheduler: its games are lost in flight
        finally:
            coordinator.join(timeout=120)
        assert not coordinator.is_alive(), "the run did not finish after a worker was killed"
        if "error" in outcome:
            raise outcome["error"]
        assert victim_pid not in client.run(os.getpid).values()  # the nanny started a fresh worker
    assert stored_before_kill < total, "the run finished before a worker could be killed; make it longer"
    result = outcome["result"]
    assert (result.played, result.skipped) == (total, 0)
    rows = load_results(store)
    assert len(rows) == total and not rows.duplicated(["condition_key", "game_index"]).any()
    local = local_run(experiment, tmp_path / "local.sqlite")
    assert comparable(store).equals(comparable(local.store))


# -- the command line ---------------------------------------------------------

def test_run_with_the_dask_backend(tmp_path, capsys):
    path = tmp_path / "exp.toml"
    path.write_text(f"""
name = "cli_dask"
games = 2
seed = 5
max_moves = 60
store = "{tmp_path / 'results.sqlite'}"
[grid]
pacman = ["greedy"]
ghosts = ["random"]
layout = ["tinyMaze"]
""", encoding="utf-8")
    assert main(["run", str(path), "--backend", "dask", "--workers", "2"]) == 0
    assert "played 2 games, 0 already in" in capsys.readouterr().out
    assert len(load_results(tmp_path / "results.sqlite")) == 2


@pytest.mark.parametrize("address", ["tcp://127.0.0.1:1", "tcp://127.0.0.1:notaport", "nonsense://host"])
def test_an_unreachable_scheduler_is_a_one_line_error(tmp_path, capsys, monkeypatch, address):
    monkeypatch.setattr(dask_backend, "CONNECT_TIMEOUT_SECONDS", 1.0)  # nothing listens on port 1
    started = time.monotonic()
    exit_code = main(["run", str(Path(__file__).parents[1] / "experiments" / "optimism_pessimism.toml"),
                      "--backend", "dask", "--scheduler", address, "--store", str(tmp_path / "unused.sqlite")])
    assert exit_code == 2 and time.monotonic() - started < 10
    error = capsys.readouterr().err
    assert error.startswith("pacsim: error: cannot reach the Dask scheduler") and error.count("\n") == 1
    assert not (tmp_path / "unused.sqlite").exists()  # nothing was started


def test_dask_executor_turns_connection_failures_into_config_errors():
    with pytest.raises(ConfigError, match="cannot reach the Dask scheduler"), dask_backend.dask_executor("tcp://127.0.0.1:1", connect_timeout=0.5):
        pass
