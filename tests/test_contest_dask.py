"""A capture contest played by the Dask executor: the games run on the cluster's workers, each stored here."""

from __future__ import annotations

import contextlib
from pathlib import Path

from optional import needed
from test_capture_contest import COURSE_TEAM, contest, stored, team_folder

from pacsim.runner import dask_executor as dask_module


def test_the_dask_executor_plays_a_contest(tmp_path: Path, monkeypatch):
    needed("distributed", "dask")
    submitted: list[str] = []
    real = dask_module.dask_executor

    @contextlib.contextmanager
    def counted(scheduler, workers):
        with real(scheduler, workers) as executor:
            submit = executor.submit
            monkeypatch.setattr(executor, "submit", lambda function, task, *rest: (
                submitted.append(task.key), submit(function, task, *rest))[1])
            yield executor

    monkeypatch.setattr(dask_module, "dask_executor", counted)
    team_folder(tmp_path / "students", "alice", COURSE_TEAM)
    team_folder(tmp_path / "students", "bob", COURSE_TEAM)
    assert contest(tmp_path, "--executor", "dask") == 0
    games = stored(tmp_path)
    assert len(games) == 6  # three teams, every pair both colours on one maze
    assert sorted(submitted) == [row[0] for row in games]  # every stored game was played by the cluster
    assert contest(tmp_path, "--executor", "dask") == 0  # run again: nothing is left to play
    assert len(submitted) == 6 and len(stored(tmp_path)) == 6



def test_a_scheduler_without_the_dask_executor_is_one_line(tmp_path: Path, capsys):
    assert contest(tmp_path, "--scheduler", "tcp://127.0.0.1:1") == 2
    assert "--scheduler goes with --executor dask" in capsys.readouterr().err
