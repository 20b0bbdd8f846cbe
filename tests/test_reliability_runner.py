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


def write_experiment(folder: Path, layout: str = "tinyGhostMaze", games: int = 2, pacman: str = "greedy",
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
    ["play", "-l", "tinyGhostMaze", "-q", "--max-moves", "99999999999999"],
    ["probcut", "fit", "-l", "tinyGhostMaze", "--max-moves", "100001", "--out", "{tmp}/m.json"],
])
def test_a_command_line_move_cap_above_the_bound_is_one_line(capsys, tmp_path, argv):
    argv = [argument.format(tmp=tmp_path) for argument in argv]
    assert "the move cap must be from 1 to 100,000 Pacman moves" in one_line_error(capsys, argv)


def test_an_experiment_move_cap_above_the_bound_is_one_line(tmp_path, capsys):
    path = write_experiment(tmp_path)
    assert "max_moves: must be at most 100,000" in one_line_error(capsys, ["run", "-q", path, "--set", "max_moves=100001"])
    assert not (tmp_path / "results.sqlite").exists()


# -- items 1 and 2: every file a condition reads is part of its identity --------

TWO_FOOD = "%%%%%%\n%P. .%\n%%%%%%\n"
ONE_FOOD = "%%%%%%\n%P  .%\n%%%%%%\n"
MODEL = '{"format": "pacsim-probcut", "version": 1, "model": {"reduction": 3, "slope": 1.0, "intercept": 0.0, "sigma": 5.0}}'
PROBCUT_PACMAN = "expectimax:depth=1,eval=careful,algorithm=star2,probcut={}"


def run_notes(capsys, experiment: Path) -> list[str]:
    """Run an experiment in this process; the lines it printed before its summary."""
    assert main(["run", str(experiment), "--workers", "1"]) == 0
    return capsys.readouterr().out.splitlines()


def stored_games(store: Path) -> list[tuple[int, str]]:
    import sqlite3

    with sqlite3.connect(store) as connection:
        rows = connection.execute("SELECT id, condition FROM games ORDER BY id").fetchall()
    connection.close()
    return rows


def test_an_edited_layout_file_is_a_new_condition_and_every_game_replays(tmp_path, capsys):
    layout = tmp_path / "my.lay"
    layout.write_text(TWO_FOOD)
    experiment = write_experiment(tmp_path, layout=str(layout))
    run_notes(capsys, experiment)
    layout.write_text(ONE_FOOD)
    assert f"layout {layout} changed: 2 games to play" in run_notes(capsys, experiment)
    games = stored_games(tmp_path / "results.sqlite")
    assert len(games) == 4 and len({label for _, label in games}) == 2  # two mazes, never pooled under one label
    for game, _ in games:
        assert main(["replay", "-q", str(tmp_path / "results.sqlite"), "--game", str(game)]) == 0
    assert "changed" not in " ".join(run_notes(capsys, experiment))  # nothing new: no note


def test_an_edited_probcut_model_is_a_new_condition(tmp_path, capsys):
    model = tmp_path / "m.json"
    model.write_text(MODEL)
    experiment = write_experiment(tmp_path, pacman=PROBCUT_PACMAN.format(model))
    run_notes(capsys, experiment)
    model.write_text(MODEL.replace('"sigma": 5.0', '"sigma": 7.0'))
    assert f"probcut model {model} changed: 2 games to play" in run_notes(capsys, experiment)
    assert len(stored_games(tmp_path / "results.sqlite")) == 4


def test_a_probcut_model_edited_during_a_run_ends_its_games_in_error(tmp_path):
    from pacsim.runner import load_experiment
    from pacsim.runner.execute import plan_tasks, play_task

    model = tmp_path / "m.json"
    model.write_text(MODEL)
    task = plan_tasks(load_experiment(write_experiment(tmp_path, pacman=PROBCUT_PACMAN.format(model))))[0]
    assert play_task(task)["outcome"] != "error"
    model.write_text(MODEL.replace('"sigma": 5.0', '"sigma": 7.0'))
    row = play_task(task)
    assert row["outcome"] == "error" and row["error"] == f"probcut model {model} changed during the run"


def test_a_store_from_before_layout_hashes_resumes_and_says_so(tmp_path, capsys, monkeypatch):
    from pacsim.runner import experiment as experiment_module

    layout = tmp_path / "my.lay"
    layout.write_text(TWO_FOOD)
    experiment = write_experiment(tmp_path, layout=str(layout))
    with monkeypatch.context() as old_pacsim:  # keys as pacsim wrote them before layout contents were recorded
        old_pacsim.setattr(experiment_module, "_layout_file", lambda name, layout: {})
        run_notes(capsys, experiment)
    notes = run_notes(capsys, experiment)
    assert f"layout {layout}: the stored games do not record its content (stored before pacsim checked it): " \
           "2 games to play" in notes
    assert len(stored_games(tmp_path / "results.sqlite")) == 4  # the old rows kept, beside the new condition's


def test_shipped_layouts_keep_their_condition_keys(tmp_path):
    from pacsim.runner import load_experiment

    condition = load_experiment(write_experiment(tmp_path)).conditions[0]
    assert "files" not in condition.key and condition.label == "greedy/random/tinyGhostMaze"
