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
    task = next(plan_tasks(load_experiment(write_experiment(tmp_path, pacman=PROBCUT_PACMAN.format(model)))))
    assert play_task(task).outcome != "error"
    model.write_text(MODEL.replace('"sigma": 5.0', '"sigma": 7.0'))
    row = play_task(task)
    assert row.outcome == "error" and row.error == f"probcut model {model} changed during the run"


def test_a_store_from_before_layout_hashes_resumes_and_says_so(tmp_path, capsys, monkeypatch):
    from pacsim.runner import plan as plan_module

    layout = tmp_path / "my.lay"
    layout.write_text(TWO_FOOD)
    experiment = write_experiment(tmp_path, layout=str(layout))
    with monkeypatch.context() as old_pacsim:  # keys as pacsim wrote them before layout contents were recorded
        old_pacsim.setattr(plan_module, "_layout_file", lambda name, layout: {})
        run_notes(capsys, experiment)
    notes = run_notes(capsys, experiment)
    assert f"layout {layout}: the stored games do not record its content (stored before pacsim checked it): " \
           "2 games to play" in notes
    assert len(stored_games(tmp_path / "results.sqlite")) == 4  # the old rows kept, beside the new condition's


def test_shipped_layouts_keep_their_condition_keys(tmp_path):
    from pacsim.runner import load_experiment

    condition = load_experiment(write_experiment(tmp_path)).conditions[0]
    assert "files" not in condition.key and condition.label == "greedy/random/tinyGhostMaze"


# -- item 6: games are counted before any maze is built --------------------------

@pytest.mark.parametrize("seeds", ["0-999999", "0-99999999999"])
def test_a_huge_seed_range_fails_on_the_games_cap_before_building_mazes(tmp_path, capsys, monkeypatch, seeds):
    from pacsim.runner import plan as plan_module

    def no_maze(spec):
        raise AssertionError("a maze was built")

    monkeypatch.setattr(plan_module, "generate_layout", no_maze)
    path = write_experiment(tmp_path, layout=f"generated:w=9,h=7,seed={seeds}")
    line = one_line_error(capsys, ["run", "-q", path])
    assert "games: 2 games x" in line and "conditions is more than 1,000,000 games in one experiment" in line


def test_a_seed_whose_maze_cannot_be_made_names_file_and_key_and_stores_nothing(tmp_path, capsys):
    import sqlite3

    experiment = write_experiment(tmp_path, layout="generated:w=7,h=5,food=1,ghosts=5,seed=0-3", games=1)
    line = one_line_error(capsys, ["run", "-q", experiment, "--workers", "1"])
    assert f"{experiment}: grid.layout: generated:w=7,h=5,food=1,ghosts=5,seed=2: no room for 5 ghosts" in line
    with sqlite3.connect(tmp_path / "results.sqlite") as connection:
        assert connection.execute("SELECT COUNT(*) FROM conditions").fetchone() == (0,)
    connection.close()


def test_play_counts_a_seed_range_instead_of_listing_it(capsys):
    assert "a seed range names 100,000,000,000 mazes; give one seed" in one_line_error(
        capsys, ["play", "-q", "-l", "generated:w=9,h=7,seed=0-99999999999"])


def test_generated_mazes_are_built_when_needed_and_not_kept(tmp_path):
    from pacsim.engine.generate import MazeSpec, generate_layout
    from pacsim.runner import load_experiment

    experiment = load_experiment(write_experiment(tmp_path, layout="generated:w=9,h=7,seed=5-7"))
    assert [condition.file_text for condition in experiment.conditions] == ["", "", ""]
    assert experiment.conditions[1].layout_text == generate_layout(MazeSpec(width=9, height=7, seed=6))


# -- item 13: a condition key that is not an object is caught by the store check --

@pytest.mark.parametrize("key, expected", [
    ("'[1, 2]'", "game 2: condition_key must be an object (with code and files objects), not an array of 2 items"),
    ("'{\"pacman\": \"greedy\", \"code\": [1]}'", "game 2: condition_key must be an object (with code and files"),
    ("'{' || replace(hex(zeroblob(3000)), '00', '\"a\":[') ", "game 2: condition_key is not JSON"),
    ("replace(hex(zeroblob(5000)), '00', '[') || replace(hex(zeroblob(5000)), '00', ']')",
     "game 2: condition_key is JSON nested too deeply"),
], ids=["list", "code not an object", "broken", "deep"])
def test_a_condition_key_that_is_not_an_object_is_one_line_naming_the_game(tmp_path, capsys, key, expected):
    import sqlite3

    experiment = write_experiment(tmp_path, games=3)
    assert main(["run", "-q", str(experiment), "--workers", "1"]) == 0
    with sqlite3.connect(tmp_path / "results.sqlite") as connection:
        connection.execute(f"UPDATE games SET condition_key = {key} WHERE id = 2")
    connection.close()
    for command in (["run", "-q", experiment, "--workers", "1"], ["report", tmp_path / "results.sqlite"]):
        assert expected in one_line_error(capsys, command)


# -- item 15: a plugin closing sys.stdout does not silence pacsim ---------------

CLOSER = """
import sys

from pacsim.agents import Agent


class Closer(Agent):
    def get_action(self, state):
        sys.stdout.close()
        sys.stderr.close()
        return state.legal_actions()[0]
"""


def test_a_plugin_closing_stdout_leaves_the_summary_printed(tmp_path, capsys):
    plugin = tmp_path / "closer.py"
    plugin.write_text(CLOSER)
    assert main(["play", "-l", "tinyGhostMaze", "-q", "-p", f"{plugin}:Closer", "--max-moves", "3", "-n", "2"]) == 0
    assert "2 games, 0 wins" in capsys.readouterr().out
    experiment = write_experiment(tmp_path, pacman=f"{plugin}:Closer")
    assert main(["run", str(experiment), "--workers", "1"]) == 0
    assert "played 2 games" in capsys.readouterr().out


# -- item 10: play -n keeps no game records, and -n is bounded -----------------

def test_play_keeps_no_record_of_earlier_games(capsys, monkeypatch):
    import gc
    import weakref

    from pacsim.cli import play

    played, alive_at_most = [], []
    real_play_one = play._play_one

    def play_one(*arguments):
        gc.collect()
        alive_at_most.append(sum(reference() is not None for reference in played))
        record = real_play_one(*arguments)
        played.append(weakref.ref(record))
        return record

    monkeypatch.setattr(play, "_play_one", play_one)
    assert main(["play", "-l", "tinyGhostMaze", "-q", "--max-moves", "3", "-n", "3", "--seed", "1"]) == 0
    assert "3 games, 0 wins, win rate 0.00, average score" in capsys.readouterr().out
    assert max(alive_at_most) <= 1  # at most the game just printed


def test_play_game_count_is_bounded_as_experiments_are(capsys):
    assert "-n 1000000000000: the number of games must be from 1 to 100,000" in one_line_error(
        capsys, ["play", "-l", "tinyGhostMaze", "-q", "-n", "1000000000000"])


# -- item 14: output paths are checked before the work ----------------------------

OUTPUT_COMMANDS = {
    "play --record": ["play", "-l", "tinyGhostMaze", "-q", "--max-moves", "3", "--record", "{target}"],
    "replay --save-frames": ["replay", "-q", "{record}", "--save-frames", "{target}"],
    "probcut fit --out": ["probcut", "fit", "-l", "smallClassic", "--games", "1", "--out", "{target}"],
    "report --out": ["report", "{store}", "--out", "{target}"],
    "report --plot": ["report", "{store}", "--plot", "{target}.png"],
    "export --out": ["export", "{store}", "--out", "{target}.csv"],
    "train --out": ["train", "-l", "tinyGhostMaze", "-x", "2", "--max-moves", "5", "-q", "--out", "{target}"],
    "layouts --out": ["layouts", "--generate", "--out", "{target}"],
}


@pytest.fixture(scope="module")
def outputs(tmp_path_factory) -> dict[str, Path]:
    """A record, a store, and a file standing where a folder should be."""
    folder = tmp_path_factory.mktemp("outputs")
    assert main(["play", "-l", "tinyGhostMaze", "-q", "--max-moves", "3", "--record", str(folder / "game.json")]) == 0
    assert main(["run", "-q", str(write_experiment(folder)), "--workers", "1"]) == 0
    (folder / "blocker").write_text("")
    return {"record": folder / "game.json", "store": folder / "results.sqlite", "blocker": folder / "blocker"}


@pytest.mark.parametrize("command", OUTPUT_COMMANDS)
def test_an_unwritable_output_path_is_one_line_before_the_work(tmp_path, capsys, outputs, command):
    capsys.readouterr()
    cases = [(outputs["blocker"] / "out", f"{outputs['blocker']} is a file, not a folder")]
    if OUTPUT_COMMANDS[command][-1] == "{target}" and "frames" not in command:  # a file's place given as a folder
        cases.append((tmp_path, "is a directory"))
    for target, message in cases:
        argv = [part.format(target=target, record=outputs["record"], store=outputs["store"])
                for part in OUTPUT_COMMANDS[command]]
        line = one_line_error(capsys, argv)
        assert f"{command.split()[-1]} {target}" in line and message in line
    assert capsys.readouterr().out == ""  # no game played, nothing fitted or reported


def test_missing_parent_folders_are_created_for_every_output(tmp_path, capsys, outputs):
    record = tmp_path / "new" / "deeper" / "game.json"
    assert main(["play", "-l", "tinyGhostMaze", "-q", "--max-moves", "3", "--record", str(record)]) == 0
    assert main(["export", str(outputs["store"]), "--out", str(tmp_path / "other" / "games.csv")]) == 0
    assert record.is_file() and (tmp_path / "other" / "games.csv").is_file()


# -- item 9: replay memory follows the record, one limit for writing and reading ---

def box_record(path: Path, actions, version: int = 2) -> Path:
    """A record of Pacman standing still in a box without ghosts."""
    import json

    path.write_text(json.dumps({"format": "pacsim-game", "version": version, "num_ghosts": 0, "actions": actions,
                                "layout": {"name": "box", "text": "%%%%\n%P.%\n%%%%\n"}}))
    return path


def test_replay_memory_does_not_grow_with_the_game(tmp_path, capsys):
    import tracemalloc

    record = box_record(tmp_path / "long.json", "X" * 20_000)  # every state at once: over 4 MB
    assert main(["replay", "-q", str(record)]) == 0  # imports done before measuring
    tracemalloc.start()
    try:
        assert main(["replay", "-q", str(record)]) == 0
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert "unfinished score -20000 moves 20000" in capsys.readouterr().out
    assert peak < 2_000_000


def test_a_version_1_record_still_replays(tmp_path, capsys):
    record = box_record(tmp_path / "old.json", ["Stop", "East"], version=1)
    assert main(["replay", "-q", str(record)]) == 0
    assert "win score 508 moves 2" in capsys.readouterr().out


def test_a_large_version_1_record_is_read_by_the_name_sharing_parser(tmp_path, monkeypatch):
    from pacsim.engine import recording

    monkeypatch.setattr(recording, "LARGE_RECORD_CHARS", 0)  # every record counts as large
    saved = recording.load_game(box_record(tmp_path / "old.json", ["Stop"] * 3 + ["East"], version=1))
    assert [id(action) for action in saved.actions[:3]] == [id(saved.actions[0])] * 3
    assert saved.actions[0] is recording.decode_actions("X")[0] and saved.states()[-1].score == 506


def test_the_record_writer_and_reader_keep_one_limit(tmp_path, capsys, monkeypatch):
    from pacsim.engine import recording

    monkeypatch.setattr(recording, "MAX_RECORD_ACTIONS", 40)
    record = tmp_path / "game.json"
    assert "could reach 60 actions, more than a record holds (40)" in one_line_error(
        capsys, ["play", "-l", "tinyGhostMaze", "-q", "-k", "1", "--max-moves", "30", "--record", record])
    assert not record.exists()
    assert main(["play", "-l", "tinyGhostMaze", "-q", "-k", "1", "--max-moves", "20", "--record", str(record)]) == 0
    assert main(["replay", "-q", str(record)]) == 0  # what play writes, replay reads
    assert "41 actions, more than a record holds (40)" in one_line_error(
        capsys, ["replay", "-q", box_record(tmp_path / "long.json", "X" * 41)])


# -- issue 27 item 3: a worker killed by its agent costs only its own game ------

KILLERS = """
import os
import signal
from pathlib import Path

from pacsim.agents import Agent


class Exits(Agent):
    def get_action(self, state):
        if not Path(os.environ["PACSIM_TEST_MARKER"]).exists():  # until the user fixes it
            os._exit(7)
        return state.legal_actions()[0]


class Killed(Agent):
    def get_action(self, state):
        os.kill(os.getpid(), signal.SIGKILL)
"""


def killer_experiment(folder: Path, monkeypatch, games: int = 1) -> Path:
    """Normal agents and agents that end their worker process, in one grid."""
    plugin = folder / "killers.py"
    plugin.write_text(KILLERS)
    monkeypatch.setenv("PACSIM_TEST_MARKER", str(folder / "fixed"))
    path = write_experiment(folder, games=games)
    pacman = f"pacman = ['greedy', '{plugin}:Exits', 'random', '{plugin}:Killed']"
    path.write_text(path.read_text().replace("pacman = ['greedy']", pacman).replace("max_moves = 30", "max_moves = 5"))
    return path


def check_crash_rows(store: Path, crashed: dict[str, int]) -> None:
    """One game of each condition, a crash with its exit status where ``crashed`` says so."""
    from pacsim.runner import load_results

    rows = load_results(store)
    assert len(rows) == 4 and not rows.duplicated(["condition_key", "game_index"]).any()
    words = {7: "exited with status 7", -9: "was killed by SIGKILL"}
    for pacman, row in zip(rows["pacman"], rows.to_dict("records")):
        status = crashed.get(pacman.rpartition(":")[2])
        if status is None:
            assert row["outcome"] in ("win", "loss", "timeout") and pandas_missing(row["worker_exit"])
        else:
            assert (row["outcome"], row["worker_exit"]) == ("crash", status)
            assert row["error"] == f"the worker process {words[status]}"


def pandas_missing(value) -> bool:
    import pandas

    return bool(pandas.isna(value))


def test_workers_killed_by_their_agents_are_crashes_and_every_other_game_is_stored(tmp_path, monkeypatch):
    """The race of a dying worker, many times over one pool (a fresh pool costs more than a run)."""
    from pacsim.runner import load_experiment, run_experiment
    from pacsim.runner.execute import start_worker
    from pacsim.runner.pool import WorkerPool

    experiment = load_experiment(killer_experiment(tmp_path, monkeypatch))
    pool = WorkerPool(2, initializer=start_worker)
    try:
        for attempt in range(20):
            store = tmp_path / f"run{attempt}.sqlite"
            result = run_experiment(experiment, executor=pool, store_path=store, quiet=True, max_pending=3)
            assert (result.played, result.crashes, result.errors) == (4, 2, 0)
            check_crash_rows(store, {"Exits": 7, "Killed": -9})
    finally:
        pool.shutdown()


def test_a_run_with_crashing_agents_reports_them_and_replays_them_on_resume(tmp_path, monkeypatch, capsys):
    from pacsim.report import summarize
    from pacsim.runner import load_results

    path = killer_experiment(tmp_path, monkeypatch)
    assert main(["run", str(path), "--workers", "2"]) == 0
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err and "crashes" in captured.out  # the summary's column
    assert "played 4 games" in captured.out
    assert "2 crashed: the worker process playing them died (played again by the next run)" in captured.out
    store = tmp_path / "results.sqlite"
    summary = summarize(load_results(store)).set_index("condition")
    assert summary["crashes"].to_dict() == {label: int(":Exits/" in label or ":Killed/" in label)
                                            for label in summary.index}
    (tmp_path / "fixed").touch()  # the user fixes one agent (its code stays the same: the same condition)
    assert main(["run", str(path), "--workers", "2"]) == 0
    assert "played 2 games (2 of them errors or crashes of an earlier run, played again)" in capsys.readouterr().out
    check_crash_rows(store, {"Killed": -9})  # the crashes replaced, not added to


def test_a_worker_pool_fails_only_the_future_of_the_task_whose_worker_died():
    import os

    from pacsim.runner.pool import WorkerDied, WorkerPool

    pool = WorkerPool(2)
    try:
        futures = [pool.submit(os._exit, 3) if index == 2 else pool.submit(pow, index, 2) for index in range(6)]
        results = []
        for future in futures:
            error = future.exception(timeout=30)
            results.append(error.exit_status if isinstance(error, WorkerDied) else future.result())
        assert results == [0, 1, 3, 9, 16, 25]
        assert str(futures[2].exception()) == "the worker process exited with status 3"
        assert pool.submit(divmod, 7, 2).result(timeout=30) == (3, 1)  # a replacement took the dead worker's place
        raised = pool.submit(int, "x").exception(timeout=30)
        assert isinstance(raised, ValueError)  # a task's own exception travels back as itself
    finally:
        pool.shutdown()


# -- issue 27 item 5: planning is lazy -------------------------------------------

def test_the_first_game_of_a_huge_grid_is_dispatched_before_the_grid_is_enumerated(tmp_path, monkeypatch):
    from pacsim.runner import execute, load_experiment, run_experiment
    from pacsim.runner import plan as plan_module

    made = []
    real_condition = plan_module._condition
    monkeypatch.setattr(plan_module, "_condition", lambda *args: made.append(1) or real_condition(*args))
    experiment = load_experiment(write_experiment(tmp_path, layout="generated:w=9,h=7,seed=0-199999", games=1))
    assert len(experiment.conditions) == 200_000 and len(made) < 10  # checking the grid makes no condition per maze

    class FirstGameOnly(execute.InlineExecutor):
        def submit(self, function, /, *args, **kwargs):
            raise RuntimeError(f"dispatched after making {len(made)} conditions")

    with pytest.raises(RuntimeError, match="dispatched after making") as dispatched:
        run_experiment(experiment, executor=FirstGameOnly(), quiet=True)
    assert int(str(dispatched.value).split()[3]) <= 2 * execute.PLAN_BATCH


def test_a_resumed_run_looks_its_stored_games_up_batch_by_batch(tmp_path, monkeypatch):
    import sqlite3

    from pacsim.runner import execute, load_experiment, run_experiment
    from pacsim.runner import store as store_module

    experiment = load_experiment(write_experiment(tmp_path, layout="generated:w=9,h=7,seed=0-4", games=3))
    assert run_experiment(experiment, workers=1, quiet=True).played == 15
    with sqlite3.connect(tmp_path / "results.sqlite") as connection:
        connection.execute("DELETE FROM games WHERE game_index = 1 AND condition LIKE '%seed=3'")
        connection.execute("UPDATE games SET outcome = 'crash' WHERE game_index = 2 AND condition LIKE '%seed=0'")
    connection.close()

    def no_set_of_every_game(*args):
        raise AssertionError("the resume loaded every stored game")

    monkeypatch.setattr(store_module, "_finished", no_set_of_every_game)
    monkeypatch.setattr(execute, "PLAN_BATCH", 2)
    lookups = []
    real_lookup = store_module.ResultStore.stored_outcomes
    monkeypatch.setattr(store_module.ResultStore, "stored_outcomes",
                        lambda store, digest, index, keys: lookups.append(len(keys)) or real_lookup(store, digest, index, keys))
    result = run_experiment(experiment, workers=1, quiet=True)
    assert (result.played, result.skipped, result.retried) == (2, 13, 1)
    assert lookups == [2, 2, 1] * 3  # one query per batch of conditions and game index
    assert len(store_module.load_results(tmp_path / "results.sqlite")) == 15


def test_a_seed_range_keeps_the_config_hash_of_its_listed_mazes(tmp_path):
    """Stores of earlier runs resume: the hash covers every maze's name, sorted, as when they were listed."""
    import hashlib
    import json

    from pacsim.engine.generate import parse_maze_specs
    from pacsim.runner import load_experiment

    values = ["generated:w=9,h=7,seed=5-123", "tinyGhostMaze", "generated:h=7,w=9,seed=1000-1010",
              "generated:w=11,h=7,loops=0.5,seed=0-20"]
    path = write_experiment(tmp_path, layout="', '".join(values))
    experiment = load_experiment(path)
    names = [spec.name() for value in values if value.startswith("generated:") for spec in parse_maze_specs(value)]
    config = {**experiment.config, "grid": {**experiment.config["grid"],
                                            "layout": sorted([*names, "tinyGhostMaze"], key=json.dumps)}}
    del config["games"]
    listed = hashlib.sha256(json.dumps(config, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:16]
    assert experiment.config_hash == listed
    assert len(experiment.conditions) == len(names) + 1 == len(list(experiment.conditions))
    conditions = list(experiment.conditions)
    assert [experiment.conditions[index].key for index in (0, 118, 119, -1)] == [
        conditions[index].key for index in (0, 118, 119, -1)]
    assert conditions[119].layout == "tinyGhostMaze" and conditions[-1].layout.endswith("loops=0.5,seed=20")


@pytest.mark.parametrize("low, high", [(0, 0), (0, 1000), (5, 123), (99, 101), (123456, 130000), (10**9, 10**9 + 25)])
def test_seeds_come_in_the_order_of_their_names(low, high):
    from pacsim.runner.plan import _decimal_order

    assert list(_decimal_order(range(low, high + 1))) == sorted(range(low, high + 1), key=str)


def test_overlapping_seed_ranges_are_one_line(tmp_path, capsys):
    path = write_experiment(tmp_path, layout="generated:w=9,h=7,seed=0-10', 'generated:h=7,w=9,seed=10-12")
    assert "grid.layout: a generated maze appears twice (overlapping seed ranges?)" in one_line_error(
        capsys, ["run", "-q", path])
