"""The catalogue of bad inputs: every way a user can hand pacsim something wrong.

Each case asserts the promise of the project guide: one line on stderr naming
the file (or the address) where one applies, exit status 2, never a
traceback.  Areas add their cases under a header of their own, at the end of
the file.
"""

import http.server
import socket
import sqlite3
import threading
import time
from pathlib import Path

import pytest

from pacsim.cli import main

# runner ----------------------------------------------------------------------

ALWAYS_FAILING = """
def evaluate(state):
    raise SystemExit("a plugin that exits")
"""


def test_runner_a_run_whose_every_game_errors_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys):
    (tmp_path / "exiting_evaluation.py").write_text(ALWAYS_FAILING, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    path = tmp_path / "exp.toml"
    path.write_text(f"""
name = "all_errors"
games = 3
seed = 1
max_moves = 20
store = "{tmp_path / 'results.sqlite'}"
[grid]
pacman = ["minimax:depth=1,eval=exiting_evaluation:evaluate"]
ghosts = ["random"]
layout = ["tinyMaze"]
""", encoding="utf-8")
    assert main(["run", str(path), "--workers", "1", "--quiet"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1
    assert error.startswith("pacsim: error: all 3 games played ended in error; the first: agent 0 raised SystemExit "
                            "at exiting_evaluation.py:3: a plugin that exits")
    with sqlite3.connect(tmp_path / "results.sqlite") as connection:  # stored all the same: played again next run
        assert connection.execute("SELECT outcome, COUNT(*) FROM games GROUP BY outcome").fetchall() == [("error", 3)]


class _SilentListener:
    """A TCP port that accepts connections and never says a word."""

    def __init__(self) -> None:
        self.socket = socket.socket()
        self.socket.bind(("127.0.0.1", 0))
        self.socket.listen()
        self.address = f"tcp://127.0.0.1:{self.socket.getsockname()[1]}"
        self.connections: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                self.connections.append(self.socket.accept()[0])
            except OSError:  # closed
                return

    def close(self) -> None:
        for connection in self.connections:
            connection.close()
        self.socket.close()


@pytest.fixture(params=["silent listener", "web server"])
def not_a_scheduler(request):
    """The address of a service on 127.0.0.1 that is not a Dask scheduler
    (what a dashboard port or a mistyped port finds)."""
    if request.param == "silent listener":
        listener = _SilentListener()
        yield listener.address
        listener.close()
    else:
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _QuietHandler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        yield f"tcp://127.0.0.1:{server.server_address[1]}"
        server.shutdown()
        server.server_close()


class _QuietHandler(http.server.BaseHTTPRequestHandler):
    def log_message(self, format, *args):
        pass


def test_runner_a_scheduler_address_where_no_dask_answers_is_one_line_within_10_seconds(
        tmp_path, capsys, monkeypatch, not_a_scheduler):
    pytest.importorskip("distributed")
    import pacsim.runner.dask_backend as dask_backend

    monkeypatch.setattr(dask_backend, "CONNECT_TIMEOUT_SECONDS", 1.0)
    experiment = Path(__file__).parents[1] / "experiments" / "optimism_pessimism.toml"
    started = time.monotonic()
    status = main(["run", str(experiment), "--backend", "dask", "--scheduler", not_a_scheduler,
                   "--store", str(tmp_path / "unused.sqlite")])
    assert status == 2 and time.monotonic() - started < 10
    error = capsys.readouterr().err
    assert error.count("\n") == 1
    assert error.startswith(f"pacsim: error: cannot reach the Dask scheduler {not_a_scheduler!r}: ")
    assert not (tmp_path / "unused.sqlite").exists()
