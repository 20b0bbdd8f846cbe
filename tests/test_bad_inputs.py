"""Bad input of every kind: one line on stderr, exit status 2, never a traceback."""

import pytest

from pacsim.cli import main

# viewer


def one_line_error(capsys, argv):
    """Run the command; its exit status and its stderr, which must be one line."""
    status = main(argv)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return status, err


@pytest.fixture
def no_display(monkeypatch):
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "PACSIM_HIDDEN_WINDOW"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


@pytest.mark.parametrize("driver", [None, "dummy", "offscreen"])
def test_window_without_a_display_is_refused(capsys, no_display, driver):
    if driver is None:
        no_display.delenv("SDL_VIDEODRIVER", raising=False)
    else:
        no_display.setenv("SDL_VIDEODRIVER", driver)
        no_display.setenv("DISPLAY", ":0")  # a display SDL has been told not to use
    argv = ["play", "-l", "classic", "-p", "keyboard", "--window", "--max-moves", "2", "--frame-time", "0"]
    status, err = one_line_error(capsys, argv)
    assert status == 2 and "--window" in err
    assert ("no display" in err) if driver is None else (f"SDL_VIDEODRIVER={driver}" in err)


def test_replay_window_without_a_display_is_refused(capsys, no_display, tmp_path):
    no_display.setenv("SDL_VIDEODRIVER", "dummy")
    record = tmp_path / "game.json"
    assert main(["play", "-l", "tinyMaze", "-q", "--seed", "1", "--max-moves", "3", "--record", str(record)]) == 0
    capsys.readouterr()
    status, err = one_line_error(capsys, ["replay", str(record), "--window", "--frame-time", "0"])
    assert status == 2 and "--window: SDL_VIDEODRIVER=dummy shows no window" in err


@pytest.mark.parametrize(("option", "value"), [
    ("--zoom", "0"), ("--zoom", "-1"), ("--zoom", "nan"), ("--zoom", "1e9"),
    ("--frame-time", "-1"), ("--frame-time", "nan"), ("--frame-time", "inf"),
])
def test_bad_viewing_options(capsys, option, value):
    status, err = one_line_error(capsys, ["play", "-l", "tinyMaze", "-q", "--max-moves", "2", option, value])
    assert status == 2 and f"{option} {float(value)}" in err


def test_replay_has_no_show_values(capsys):
    status, err = one_line_error(capsys, ["replay", "game.json", "--show-values"])
    assert status == 2 and "unrecognized arguments: --show-values" in err


def test_gif_path_is_checked_before_the_game(capsys, tmp_path):
    pytest.importorskip("PIL", reason="the GIF writer is the optional extra pacsim[gif]")
    blocker = tmp_path / "file"
    blocker.write_text("")
    for target, message in [(tmp_path, "is a directory"), (blocker / "game.gif", "cannot create its folder")]:
        status = main(["play", "-l", "tinyMaze", "-q", "--max-moves", "3", "--gif", str(target)])
        captured = capsys.readouterr()
        assert status == 2 and captured.out == "" and message in captured.err and captured.err.count("\n") == 1
    assert main(["play", "-l", "tinyMaze", "-q", "--max-moves", "3", "--gif", str(tmp_path / "new" / "game")]) == 0
    assert (tmp_path / "new" / "game").read_bytes()[:6] == b"GIF89a"
