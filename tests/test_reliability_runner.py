"""Issue 22, the runner, store and command-line half: nothing silently mixed
on resume, bounded memory, output that survives and fails early."""

from pathlib import Path

import pytest

from pacsim.cli import main


def one_line_error(capsys, argv: list) -> str:
    """Run a command that must fail with exit status 2 and one line on stderr; that line."""
    status = main([str(argument) for argument in argv])
    captured = capsys.readouterr()
    assert status == 2 and captured.err.count("\n") == 1 and "Traceback" not in captured.err, captured.err
    return captured.err


def write_experiment(folder: Path, layout: str = "tinyMaze", games: int = 2, pacman: str = "greedy",
                     **settings) -> Path:
    """A small experiment writing to ``folder/results.sqlite``."""
    lines = [f"name = 'r3'\ngames = {games}\nseed = 1\nmax_moves = 30\nstore = '{folder / 'results.sqlite'}'"]
    lines += [f"{key} = {value}" for key, value in settings.items()]
    lines.append(f"[grid]\npacman = ['{pacman}']\nghosts = ['random']\nlayout = ['{layout}']\n")
    path = folder / "exp.toml"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


# -- item 8: the move cap is bounded ------------------------------------------

@pytest.mark.parametrize("argv", [
    ["play", "-l", "tinyMaze", "-q", "--max-moves", "99999999999999"],
    ["probcut", "fit", "-l", "tinyMaze", "--max-moves", "100001", "--out", "{tmp}/m.json"],
])
def test_a_command_line_move_cap_above_the_bound_is_one_line(capsys, tmp_path, argv):
    argv = [argument.format(tmp=tmp_path) for argument in argv]
    assert "the move cap must be from 1 to 100,000 Pacman moves" in one_line_error(capsys, argv)


def test_an_experiment_move_cap_above_the_bound_is_one_line(tmp_path, capsys):
    path = write_experiment(tmp_path)
    assert "max_moves: must be at most 100,000" in one_line_error(capsys, ["run", "-q", path, "--set", "max_moves=100001"])
    assert not (tmp_path / "results.sqlite").exists()
