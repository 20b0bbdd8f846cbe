"""Progress bars: on a pseudo-terminal that reports no size, a run shows one
(it showed nothing); in a pipe, none; and the width falls back when the terminal says none."""

import io
import os
import pty
import select
import subprocess
import sys
from pathlib import Path

from pacsim.runner.progress import FALLBACK_COLUMNS, FALLBACK_ROWS, progress_bar, terminal_size

TINY_RUN = 'name = "tiny"\ngames = 12\nseed = 1\n[grid]\npacman = ["greedy"]\nghosts = ["random"]\nlayout = ["tinyGhostMaze"]\n'


def output_on_a_sizeless_terminal(arguments, seconds=60.0) -> str:
    main_side, terminal = pty.openpty()  # no size set: the terminal reports 0 x 0
    environment = {key: value for key, value in os.environ.items() if key not in ("COLUMNS", "LINES")}
    environment["PYTHONPATH"] = str(Path(__file__).resolve().parents[1])
    process = subprocess.Popen([sys.executable, "-m", "pacsim", *arguments], stdin=terminal, stdout=terminal,
                               stderr=terminal, close_fds=True, env=environment)
    os.close(terminal)
    output = b""
    while select.select([main_side], [], [], seconds)[0]:
        try:
            data = os.read(main_side, 65536)
        except OSError:  # the child closed the terminal
            break
        if not data:
            break
        output += data
    process.wait(timeout=seconds)
    os.close(main_side)
    return output.decode(errors="replace")


def test_a_run_shows_its_progress_on_a_terminal_without_a_size(tmp_path):
    (tmp_path / "tiny.toml").write_text(TINY_RUN)
    output = output_on_a_sizeless_terminal(["run", str(tmp_path / "tiny.toml"), "--store", str(tmp_path / "s.sqlite"), "-j", "1"])
    assert "12/12" in output and "game" in output, output


def test_no_bar_in_a_pipe_and_a_fallback_width_on_a_sizeless_terminal():
    stream = io.StringIO()
    with progress_bar(5, "game", stream=stream) as bar:
        bar.update(5)
    assert stream.getvalue() == ""
    main_side, terminal = pty.openpty()
    with open(terminal, "w") as stream:  # a terminal of 0 x 0
        columns, rows = terminal_size(stream)
    assert columns in (FALLBACK_COLUMNS, int(os.environ.get("COLUMNS", "0") or 0))
    assert rows in (FALLBACK_ROWS, int(os.environ.get("LINES", "0") or 0))
    os.close(main_side)
