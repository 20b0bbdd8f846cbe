"""The Dask backend: the same rows as the local process pool, a dead worker
loses no game, and the command line's ``--executor dask`` and its errors."""

from __future__ import annotations

import contextlib
import os
import signal
import site
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future
from pathlib import Path

import pytest
from optional import needed

needed("distributed", "pip install -e '.[dask]'")

from distributed import Client, LocalCluster
from storetools import wait_for_rows

import pacsim.runner.dask_executor as dask_executor
from pacsim.cli import main
from pacsim.errors import ConfigError
from pacsim.runner import Experiment, RunResult, build_experiment, load_results, run_experiment
from pacsim.runner.row import TIMING_COLUMNS

SMALL = {
    "name": "dask_small", "games": 4, "seed": 17, "max_moves": 80,
    "grid": {"pacman": ["greedy", "minimax:depth=1"], "ghosts": ["random", "directional"],
             "layout": ["tinyGhostMaze", "openRoom"]},
}
"""8 conditions x 4 games, a fraction of a second of play."""

LONG = {
    "name": "dask_long", "games": 8, "seed": 29, "max_moves": 120,
    "grid": {"pacman": ["minimax:depth=3", "expectimax:depth=3"], "ghosts": ["random", "directional"],
             "layout": ["openRoom"]},
}
"""32 games of ~50 ms each: killing a worker after the 4th game hits the run mid-way."""


def comparable(store: Path):
    """The stored rows without what legitimately differs between runs (times, machine)."""
    frame = load_results(store).drop(columns=["id", *TIMING_COLUMNS])
    return frame.sort_values(["condition_key", "game_index"]).reset_index(drop=True)


def local_run(experiment: Experiment, store: Path) -> RunResult:
    return run_experiment(experiment, workers=2, store_path=store, quiet=True)


@pytest.fixture(scope="module")
def cluster() -> Iterator[LocalCluster]:
    """One LocalCluster for the tests of this file (starting one takes seconds)."""
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as shared:
        yield shared


def test_local_cluster_stores_the_same_rows_as_the_process_pool(tmp_path, cluster):
    experiment = build_experiment(SMALL)
    local = local_run(experiment, tmp_path / "local.sqlite")
    with dask_executor.dask_executor(cluster.scheduler_address) as executor:
        on_dask = run_experiment(experiment, executor=executor, workers=2, store_path=tmp_path / "dask.sqlite",
                                 quiet=True)
    assert local.played == on_dask.played == 4 * len(experiment.conditions) == 32
    local_rows, dask_rows = comparable(local.store), comparable(on_dask.store)
    assert list(local_rows.columns) == list(dask_rows.columns)
    for index in range(len(local_rows)):  # row by row, so a failure names the game
        assert local_rows.iloc[index].equals(dask_rows.iloc[index]), (
            f"game {index}: local {local_rows.iloc[index].to_dict()} != dask {dask_rows.iloc[index].to_dict()}")


HANGING_PLUGIN = """
import time


def hangs(state):
    while True:  # a search that never ends
        time.sleep(0.01)
"""


def test_the_move_time_limit_holds_on_dask_workers(tmp_path, monkeypatch, cluster):
    # Workers play in threads, where no alarm signal arrives.
    (tmp_path / "hanging_plugin.py").write_text(HANGING_PLUGIN, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    with Client(cluster) as client:  # the workers find the plugin where the coordinator does
        client.run(site.addsitedir, str(tmp_path))
    experiment = build_experiment({
        "name": "hanging", "games": 2, "seed": 3, "max_moves": 20, "time_limit": 0.5,
        "grid": {"pacman": ["minimax:depth=1"], "ghosts": ["random"], "layout": ["tinyGhostMaze"],
                 "eval": ["score", "hanging_plugin:hangs"]}})
    started = time.monotonic()
    with dask_executor.dask_executor(cluster.scheduler_address) as executor:
        on_dask = run_experiment(experiment, executor=executor, workers=2, store_path=tmp_path / "dask.sqlite",
                                 quiet=True)
    assert time.monotonic() - started < 10
    assert (on_dask.played, on_dask.errors) == (4, 2)
    assert comparable(on_dask.store).equals(comparable(local_run(experiment, tmp_path / "local.sqlite").store))
    errors = load_results(on_dask.store)["error"].dropna()
    assert list(errors) == ["agent 0 exceeded the 0.5s move time limit"] * 2


# -- the command line ---------------------------------------------------------

def test_run_with_the_dask_executor(tmp_path, capsys, cluster):
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
layout = ["tinyGhostMaze"]
""", encoding="utf-8")
    assert main(["run", str(path), "--executor", "dask", "--scheduler", cluster.scheduler_address]) == 0
    assert "played 2 games, 0 already in" in capsys.readouterr().out
    assert len(load_results(tmp_path / "results.sqlite")) == 2


@pytest.mark.parametrize("address", ["tcp://127.0.0.1:1", "tcp://127.0.0.1:notaport", "nonsense://host"])
def test_an_unreachable_scheduler_is_a_one_line_error(tmp_path, capsys, monkeypatch, address):
    monkeypatch.setattr(dask_executor, "CONNECT_TIMEOUT_SECONDS", 1.0)  # nothing listens on port 1
    started = time.monotonic()
    exit_code = main(["run", str(Path(__file__).parents[1] / "experiments" / "optimism_pessimism" / "optimism_pessimism.toml"),
                      "--executor", "dask", "--scheduler", address, "--store", str(tmp_path / "unused.sqlite")])
    assert exit_code == 2 and time.monotonic() - started < 10
    error = capsys.readouterr().err
    assert error.startswith("pacsim: error: cannot reach the Dask scheduler") and error.count("\n") == 1
    assert not (tmp_path / "unused.sqlite").exists()  # nothing was started


def test_dask_executor_turns_connection_failures_into_config_errors():
    with pytest.raises(ConfigError, match="cannot reach the Dask scheduler"), dask_executor.dask_executor("tcp://127.0.0.1:1", connect_timeout=0.5):
        pass


DASK_CTRL_C = """
name = "dask_ctrl_c"
games = 200
seed = 5
max_moves = 60
store = "{store}"
[grid]
pacman = ["minimax:depth=2"]
ghosts = ["random"]
layout = ["openRoom"]
"""


@pytest.mark.usefixtures("ctrl_c_delivered")
def test_ctrl_c_during_a_dask_run_is_one_line(tmp_path):
    store = tmp_path / "results.sqlite"
    path = tmp_path / "exp.toml"
    path.write_text(DASK_CTRL_C.format(store=store), encoding="utf-8")
    environment = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])}
    # Its own LocalCluster, in the same process group: a terminal's Ctrl-C reaches its workers too.
    process = subprocess.Popen([sys.executable, "-m", "pacsim", "run", str(path), "--executor", "dask",
                                "--workers", "1", "--quiet"], env=environment, start_new_session=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        wait_for_rows(store, 2, lambda: None if process.poll() is None else process.stderr.read(), seconds=60.0)
        os.killpg(process.pid, signal.SIGINT)
        _, error = process.communicate(timeout=30)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    assert process.returncode == 130, error
    rows = load_results(store)
    saved = int((rows["outcome"] != "error").sum())  # an error game is played again on resume
    assert error == (f"pacsim: interrupted: {saved} of 200 games are saved in {store}; "
                     f"resume with: pacsim run {path} --executor dask --workers 1 --quiet\n")


# -- last: it leaves the shared cluster with a restarted worker ---------------

def test_a_worker_killed_mid_run_loses_no_game(tmp_path, cluster):
    experiment = build_experiment(LONG)
    total = experiment.games * len(experiment.conditions)
    store = tmp_path / "dask.sqlite"
    outcome: dict[str, object] = {}
    with Client(cluster) as client:
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
            stored_before_kill = wait_for_rows(store, 4, lambda: None if coordinator.is_alive() else "the run ended before it had stored enough games", seconds=60.0)
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


def test_a_game_dask_gives_up_on_is_stored_as_a_crash(tmp_path):
    """Dask replays the games of a dead worker elsewhere, and gives up on one
    that killed several (``KilledWorker``): a crash, the other games stored."""
    from types import SimpleNamespace

    from distributed import KilledWorker

    from pacsim.runner.execute import InlineExecutor, play_task

    class GivesUpOnRandom(InlineExecutor):  # what the client's futures say, without killing real workers
        def submit(self, function, /, *args, **kwargs):
            if function is play_task and args[0].condition.pacman == "random":
                future = Future()
                future.set_exception(KilledWorker("play_task-1", SimpleNamespace(address="tcp://10.0.0.1:4000"), 3))
                return future
            return super().submit(function, *args, **kwargs)

    experiment = build_experiment({**SMALL, "grid": {**SMALL["grid"], "pacman": ["greedy", "random"]}})
    result = run_experiment(experiment, executor=dask_executor.CrashReporting(GivesUpOnRandom()),
                            store_path=tmp_path / "dask.sqlite", quiet=True)
    rows = load_results(result.store)
    assert len(rows) == result.played == 32 and result.crashes == 16
    crashed = rows[rows["pacman"] == "random"]
    assert set(crashed["outcome"]) == {"crash"} and crashed["worker_exit"].isna().all()
    assert crashed["error"].str.startswith("the worker process died (Attempted to run task").all()
    assert "crash" not in set(rows[rows["pacman"] == "greedy"]["outcome"])
