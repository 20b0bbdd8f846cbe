"""The catalogue of bad inputs: every way a user can hand pacsim something wrong.

Each case asserts the promise of the project guide: one line on stderr naming
the file (and the line, column or row where one applies), exit status 2,
never a traceback, and nothing stored lost or duplicated.  Areas add their
cases under a header of their own, at the end of the file.
"""

import os
import signal
import sys
from pathlib import Path

import pytest

from pacsim.cli import main
from pacsim.errors import PacsimError


def fails_in_one_line(capsys, arguments: list, names: str | Path) -> str:
    """Run ``pacsim ARGUMENTS``; assert exit status 2 and exactly one line on
    stderr that names ``names`` (a file, usually); return that line."""
    capsys.readouterr()
    status = main([str(argument) for argument in arguments])
    error = capsys.readouterr().err
    assert status == 2, error
    assert error.count("\n") == 1 and error.endswith("\n"), error
    assert str(names) in error, error
    return error.strip()


# -- installing: optional extras --------------------------------------------

HINT_FORMS = ("pip install 'pacsim[{extra}]'", "pip install -e '.[{extra}]'")
"""A hint must work for a wheel user and for a checkout (README) user."""


def assert_hint_for_both(message: str, extra: str) -> None:
    for form in HINT_FORMS:
        assert form.format(extra=extra) in message, message


def test_plot_without_matplotlib_says_how_to_install_it_either_way(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now raises ImportError
    from pacsim.report.plot import plot_summary

    with pytest.raises(PacsimError) as caught:
        plot_summary(None, None, ["condition"], tmp_path / "plot.png")
    assert_hint_for_both(str(caught.value), "plot")


def test_gif_without_pillow_says_how_to_install_it_either_way(monkeypatch):
    import importlib.util

    from pacsim.viewer.capture import require_pillow

    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *rest: None if name == "PIL" else real_find_spec(name, *rest))
    with pytest.raises(PacsimError) as caught:
        require_pillow()
    assert_hint_for_both(str(caught.value), "gif")


def test_dask_without_distributed_says_how_to_install_it_either_way(monkeypatch):
    from pacsim.runner.dask_backend import dask_executor

    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(PacsimError) as caught, dask_executor():
        pass
    assert_hint_for_both(str(caught.value), "dask")


# -- files a user names: layouts, experiments, records ----------------------

@pytest.fixture
def alarm():
    """Fail, rather than hang, when reading a file blocks (a FIFO opened for reading)."""
    def ring(*_):
        raise TimeoutError("reading the file blocked")

    previous = signal.signal(signal.SIGALRM, ring)
    signal.alarm(20)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


FILE_COMMANDS = {
    "layouts --check": ["layouts", "--check"],
    "play -l": ["play", "-q", "-n", "1", "-l"],
    "replay": ["replay", "-q"],
    "run": ["run", "-q"],
}


@pytest.mark.parametrize("command", FILE_COMMANDS.values(), ids=FILE_COMMANDS.keys())
def test_a_fifo_or_a_device_is_refused_in_one_line(tmp_path, capsys, alarm, command):
    fifo = tmp_path / "pipe.lay"
    os.mkfifo(fifo)
    assert "not a regular file (a FIFO)" in fails_in_one_line(capsys, [*command, fifo], fifo)
    if Path("/dev/zero").exists():
        assert "not a regular file (a character device)" in fails_in_one_line(capsys, [*command, "/dev/zero"], "/dev/zero")
    assert "not a regular file (a directory)" in fails_in_one_line(capsys, [*command, tmp_path], tmp_path)


def test_a_layout_is_read_up_to_the_limit_whatever_its_size_says(capsys, monkeypatch):
    import pacsim.engine.layout

    monkeypatch.setattr(pacsim.engine.layout, "MAX_FILE_BYTES", 64)
    maps = Path("/proc/self/maps")  # a regular file whose st_size is 0
    if not maps.exists() or maps.stat().st_size != 0:
        pytest.skip("needs Linux's /proc")
    assert "file larger than 64 bytes" in fails_in_one_line(capsys, ["layouts", "--check", maps], maps)


# -- experiment and command-line limits -------------------------------------

def experiment_file(tmp_path: Path, **settings) -> Path:
    """A one-game experiment on tinyMaze, with ``settings`` as top-level keys."""
    lines = [f"{key} = {value}" for key, value in {"games": 1, "store": f"'{tmp_path / 'limits.sqlite'}'", **settings}.items()]
    path = tmp_path / "limits.toml"
    path.write_text("\n".join(lines) + "\n[grid]\npacman = ['greedy']\nghosts = ['random']\nlayout = ['tinyMaze']\n")
    return path


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "-1", "1e9"])
def test_an_experiment_time_limit_must_be_finite_and_sensible(tmp_path, capsys, value):
    path = experiment_file(tmp_path, time_limit=value)
    assert "time_limit: must be at least 0 and at most 3600 seconds a move" in fails_in_one_line(capsys, ["run", "-q", path], path)
    plain = experiment_file(tmp_path)
    fails_in_one_line(capsys, ["run", "-q", plain, "--set", f"time_limit={value}"], plain)
    assert not (tmp_path / "limits.sqlite").exists()  # refused before any game


@pytest.mark.parametrize("value", ["nan", "inf", "-1", "1e9"])
def test_a_command_line_time_limit_must_be_finite_and_sensible(capsys, value):
    line = fails_in_one_line(capsys, ["play", "-l", "tinyMaze", "-q", "-n", "1", "--time-limit", value], "--time-limit")
    assert f"--time-limit {float(value)}: must be at least 0 and at most 3600 seconds a move (0: no limit)" in line


def test_a_zero_time_limit_means_none(capsys):
    assert main(["play", "-l", "tinyMaze", "-p", "greedy", "-q", "-n", "2", "--seed", "1", "--time-limit", "0"]) == 0
    assert "error" not in capsys.readouterr().out


def test_absurd_game_counts_are_refused_before_seeds_are_drawn(tmp_path, capsys):
    path = experiment_file(tmp_path, games=100_000_000_000)
    assert "games: must be at most 100,000" in fails_in_one_line(capsys, ["run", "-q", path], path)
    line = fails_in_one_line(capsys, ["reproduce", "--games", "100000000000"], "optimism_pessimism.toml")
    assert "games: must be at most 100,000" in line
    grid = experiment_file(tmp_path, games=100_000)  # 12 conditions: 1.2 million games
    grid.write_text(grid.read_text().replace("pacman = ['greedy']", "pacman = ['greedy', 'random']")
                    .replace("ghosts = ['random']", "ghosts = ['random', 'directional', 'adversarial']\nnum_ghosts = [0, 1]"))
    assert "split it into several" in fails_in_one_line(capsys, ["run", "-q", grid], grid)
