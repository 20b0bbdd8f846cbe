"""Experiments: config checks, seeding, parallel runs equal serial runs, resume, kill -9."""

import contextlib
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from storetools import wait_for_rows

import pacsim.runner.execute as execute
from pacsim.cli import main
from pacsim.errors import ConfigError
from pacsim.runner import game_seeds, load_experiment, load_results, run_experiment
from pacsim.runner.pool import WorkerPool
from pacsim.runner.row import TIMING_COLUMNS

REPOSITORY = Path(__file__).resolve().parents[1]

SMALL = """
name = "small"
games = 4
seed = 11
max_moves = 40
store = "{store}"
[grid]
pacman = ["minimax", "expectimax"]
ghosts = ["random"]
layout = ["pincerMaze", "openRoom"]
depth = [1]
"""


def write_experiment(tmp_path: Path, text: str, name: str = "exp.toml") -> Path:
    path = tmp_path / name
    path.write_text(text.format(store=tmp_path / "results.sqlite"), encoding="utf-8")
    return path


def config_error(tmp_path: Path, text: str, **options) -> str:
    path = write_experiment(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        load_experiment(path, **options)
    message = str(caught.value)
    assert "\n" not in message
    return message


# -- the experiment file ----------------------------------------------------

def test_grid_expands_to_labelled_conditions(tmp_path):
    experiment = load_experiment(write_experiment(tmp_path, SMALL))
    assert [condition.label for condition in experiment.conditions] == [
        "minimax/random/pincerMaze/depth=1", "minimax/random/openRoom/depth=1",
        "expectimax/random/pincerMaze/depth=1", "expectimax/random/openRoom/depth=1"]
    assert experiment.conditions[0].num_ghosts == 2 and experiment.conditions[1].num_ghosts == 1
    assert experiment.conditions[0].depth == 1 and experiment.store == tmp_path / "results.sqlite"


def test_shipped_experiments_are_valid():
    for path in sorted((REPOSITORY / "experiments").glob("*/*.toml")):
        experiment = load_experiment(path)
        assert experiment.conditions and experiment.games > 0


def test_experiments_keep_a_folder_a_study_each_with_its_readme_and_unique_names():
    folder = REPOSITORY / "experiments"
    assert len([path for path in folder.iterdir() if path.is_file()]) <= 5  # a handful at the top
    studies = [path for path in folder.iterdir() if path.is_dir() and path.name != "__pycache__"]
    assert len(studies) >= 5
    for study in studies:
        readme = (study / "README.md").read_text()
        for heading in ("## The question", "## Rerun it", "## What it found"):
            assert heading in readme, f"{study.name}/README.md: {heading!r} missing"
    names = [path.stem for path in folder.glob("*/*.toml")]
    assert len(names) == len(set(names))  # pacsim run NAME finds one file


@pytest.mark.parametrize("change, expected", [
    ("gamez = 3\n", "exp.toml: gamez: unknown key"),
    ("games = -2\n", "exp.toml: games: must be at least 1, not -2"),
    ('games = "ten"\n', "exp.toml: games: must be an integer"),
    ("time_limit = -1\n", "exp.toml: time_limit: must be at least 0"),
    ('[pacman_options]\neval = "bogus"\n', "exp.toml: pacman_options.eval: unknown evaluation 'bogus'"),
    ('[ghost_options]\nattack = "x"\n', "exp.toml: ghost_options.attack:"),
])
def test_bad_values_name_the_file_and_key(tmp_path, change, expected):
    if change.startswith("["):  # a table goes at the end
        text = SMALL + change
    else:  # a top-level key replaces the file's own
        key = change.split("=")[0].strip()
        text = change + "\n".join(line for line in SMALL.splitlines() if not line.startswith(f"{key} ="))
    assert expected in config_error(tmp_path, text)


@pytest.mark.parametrize("old, new, expected", [
    ('pacman = ["minimax", "expectimax"]', 'pacman = ["minmax"]',
     "exp.toml: grid.pacman: unknown Pacman agent 'minmax' (known: "),
    ('ghosts = ["random"]', 'ghosts = ["ghosty"]', "exp.toml: grid.ghosts: unknown ghost agent 'ghosty'"),
    ("depth = [1]", "depth = [1]\nbogus = [2]", "exp.toml: grid.bogus: no Pacman of the grid takes option 'bogus'"),
    ("depth = [1]", "depth = [0]", "exp.toml: grid.depth: option depth=0 must be at least 1"),
    ('layout = ["pincerMaze", "openRoom"]', 'layout = ["noSuchMaze"]', "exp.toml: grid.layout: "),
    ("depth = [1]", "depth = [1]\nnum_ghosts = [3]", "exp.toml: grid.num_ghosts: layout 'pincerMaze' has only 2 ghosts"),
    ("depth = [1]", "depth = [1, 1]", "exp.toml: grid.depth: a value appears twice"),
    ('layout = ["pincerMaze", "openRoom"]\n', "", "exp.toml: grid.layout: missing"),
])
def test_bad_grids_name_the_key(tmp_path, old, new, expected):
    assert old in SMALL
    assert expected in config_error(tmp_path, SMALL.replace(old, new))


def test_toml_syntax_error_has_line_and_column(tmp_path):
    message = config_error(tmp_path, 'name = "x"\ngames = 4\nseed = = 3\n')
    assert message.startswith(f"{tmp_path / 'exp.toml'}:3:")
    assert "TOML syntax error" in message and "(at line" not in message


def test_overrides(tmp_path):
    path = write_experiment(tmp_path, SMALL)
    experiment = load_experiment(path, games=9, overrides=[
        "max_moves=500", "pacman_options.eval=careful", "grid.depth=[1, 2]", "name=renamed"])
    assert experiment.games == 9 and experiment.max_moves == 500 and experiment.name == "renamed"
    assert experiment.conditions[0].pacman_options == {"eval": "careful", "depth": 1}
    assert len(experiment.conditions) == 8
    assert "exp.toml: max_moves: must be an integer" in config_error(tmp_path, SMALL, overrides=["max_moves=lots"])
    with pytest.raises(ConfigError, match="expected key=value"):
        load_experiment(path, overrides=["max_moves"])


def test_config_hash_ignores_games_only(tmp_path):
    path = write_experiment(tmp_path, SMALL)
    base = load_experiment(path).config_hash
    assert load_experiment(path, games=50).config_hash == base
    assert load_experiment(path, overrides=["max_moves=41"]).config_hash != base
    assert load_experiment(path, store=tmp_path / "other.sqlite").config_hash == base


def test_seeds_come_from_seed_sequence_and_extend_stably():
    seeds = game_seeds(2026, 5)
    assert len(set(seeds)) == 5 and all(isinstance(seed, int) for seed in seeds)
    assert game_seeds(2026, 3) == seeds[:3] and game_seeds(2027, 5) != seeds


def test_cli_reports_config_errors_in_one_line(tmp_path, capsys):
    path = write_experiment(tmp_path, SMALL.replace('"minimax", ', '"minmax", '))
    assert main(["run", str(path), "--quiet"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "grid.pacman: unknown Pacman agent 'minmax'" in error
    assert not (tmp_path / "results.sqlite").exists()  # nothing ran


# -- running ----------------------------------------------------------------

def comparable(frame):
    frame = frame.drop(columns=["id", *TIMING_COLUMNS])
    return frame.sort_values(["condition_key", "game_index"]).reset_index(drop=True)


def test_one_worker_and_two_workers_store_the_same_games(tmp_path):
    path = write_experiment(tmp_path, SMALL)
    serial = run_experiment(load_experiment(path), workers=1, store_path=tmp_path / "serial.sqlite", quiet=True)
    parallel = run_experiment(load_experiment(path), workers=2, store_path=tmp_path / "parallel.sqlite", quiet=True)
    assert serial.played == parallel.played == 16
    serial_rows, parallel_rows = load_results(serial.store), load_results(parallel.store)
    assert comparable(serial_rows).equals(comparable(parallel_rows))
    # Rows come back in the grid's order, whichever worker finished first.
    grid_order = [condition.label for condition in load_experiment(path).conditions]
    assert list(parallel_rows["condition"].drop_duplicates()) == grid_order
    assert parallel_rows.groupby("condition", sort=False)["game_index"].apply(lambda s: s.is_monotonic_increasing).all()
    # Game i of every condition shares its seed.
    assert serial_rows.groupby("game_index")["seed"].nunique().eq(1).all()
    assert sorted(serial_rows["seed"].unique()) == sorted(game_seeds(11, 4))


def test_resume_plays_only_missing_games(tmp_path, monkeypatch):
    played = []
    original = execute.play_task
    monkeypatch.setattr(execute, "play_task", lambda task: played.append(task) or original(task))
    path = write_experiment(tmp_path, SMALL)
    first = run_experiment(load_experiment(path, games=2), workers=1, quiet=True)
    assert (first.played, first.skipped, len(played)) == (8, 0, 8)
    extended = run_experiment(load_experiment(path), workers=1, quiet=True)  # --games 4 extends the run
    assert (extended.played, extended.skipped, len(played)) == (8, 8, 16)
    again = run_experiment(load_experiment(path), workers=1, quiet=True)
    assert (again.played, again.skipped, len(played)) == (0, 16, 16)
    with sqlite3.connect(first.store) as connection:  # as if these games were in flight when the run died
        connection.execute("DELETE FROM games WHERE game_index = 3 AND pacman = 'minimax'")
    redone = run_experiment(load_experiment(path), workers=1, quiet=True)
    assert redone.played == 2 and {task.game_index for task in played[16:]} == {3}
    assert len(load_results(first.store)) == 16


def test_run_prints_the_summary(tmp_path, capsys):
    path = write_experiment(tmp_path, SMALL)
    assert main(["run", str(path), "--workers", "1", "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "played 8 games, 0 already in" in out
    assert "minimax/random/pincerMaze/depth=1" in out and "win rate" in out


DAWDLER = """
import os
import time

from pacsim.agents import Agent


class Dawdler(Agent):
    def get_action(self, state):
        time.sleep(float(os.environ.get("DAWDLE_SECONDS", "0")))
        return state.legal_actions()[0]
"""


def test_kill_minus_nine_leaves_a_sound_store(tmp_path):
    games, conditions = 30, 2  # killed after the 10th of 60 games, with dozens left to resume
    dawdler = tmp_path / "dawdler.py"
    dawdler.write_text(DAWDLER, encoding="utf-8")
    path = write_experiment(tmp_path, f"""
name = "long"
games = 30
seed = 5
max_moves = 120
store = "{{store}}"
[grid]
pacman = ["minimax"]
ghosts = ["{dawdler}:Dawdler"]
layout = ["pincerMaze"]
depth = [2, 3]
""")
    store = tmp_path / "results.sqlite"
    # The killed run's ghost pauses 5 ms a move: its games take seconds, at no CPU cost, however fast
    # the searches (all 60 games once finished before the store was polled); the resume below does not pause.
    environment = {**os.environ, "PYTHONPATH": str(REPOSITORY), "DAWDLE_SECONDS": "0.005"}
    process = subprocess.Popen([sys.executable, "-m", "pacsim", "run", str(path), "--workers", "2", "--quiet"],
                               env=environment, start_new_session=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        stored = wait_for_rows(store, 10, lambda: None if process.poll() is None else process.stderr.read().decode())
    finally:
        os.killpg(process.pid, signal.SIGKILL)  # the coordinator and its workers, mid-run
        process.wait()
    assert stored < games * conditions, "the run finished before it could be killed; make it longer"
    with sqlite3.connect(store) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        duplicates = connection.execute(
            "SELECT COUNT(*) FROM (SELECT 1 FROM games GROUP BY config_hash, condition_key, game_index "
            "HAVING COUNT(*) > 1)").fetchone()[0]
        assert duplicates == 0
    result = run_experiment(load_experiment(path), workers=2, quiet=True)
    assert result.skipped >= stored and result.played + result.skipped == games * conditions
    rows = load_results(store)
    assert len(rows) == games * conditions
    assert not rows.duplicated(["condition_key", "game_index"]).any()


# -- agents that fail in every way, workers that die, errors on resume (issue 13, items 7-9, 11)

FAILING_PLUGIN = """
import os
import signal
from pathlib import Path


def exiting(state):
    raise SystemExit(4)


def interrupting(state):
    raise KeyboardInterrupt


def dies_once(state):
    marker = Path(os.environ["PACSIM_TEST_MARKER"])
    if not marker.exists():  # the first game to get here kills its worker, as the OOM killer would
        marker.touch()
        os.kill(os.getpid(), signal.SIGKILL)
    return state.score


def always_dies(state):
    os.kill(os.getpid(), signal.SIGKILL)


def broken_until_fixed(state):
    if not Path(os.environ["PACSIM_TEST_MARKER"]).exists():
        raise ValueError("not fixed yet")
    return state.score


def ctrl_c(state):
    os.kill(os.getpid(), signal.SIGINT)  # as if the user pressed Ctrl-C while this Pacman thinks
    return state.score
"""

PLUGGED = """
name = "plugged"
games = 2
seed = 3
max_moves = 30
store = "{store}"
[grid]
pacman = ["minimax"]
ghosts = ["random"]
layout = ["tinyGhostMaze"]
depth = [1]
eval = EVALUATIONS
"""


def plugged_experiment(tmp_path, monkeypatch, module, *evaluations, games=2):
    """An experiment whose conditions use these evaluations of the failing plugin, saved as ``module``."""
    (tmp_path / f"{module}.py").write_text(FAILING_PLUGIN, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))  # before the pool forks: its workers find the module too
    monkeypatch.setenv("PACSIM_TEST_MARKER", str(tmp_path / "marker"))
    names = ", ".join(f'"{module}:{name}"' if name != "score" else '"score"' for name in evaluations)
    text = PLUGGED.replace("EVALUATIONS", f"[{names}]").replace("games = 2", f"games = {games}")
    return load_experiment(write_experiment(tmp_path, text))


def outcomes_by_eval(store):
    rows = load_results(store)
    return {evaluation: sorted(group["outcome"]) for evaluation, group in rows.groupby("eval")}, rows


@pytest.mark.parametrize("workers", [1, 2])
def test_agents_raising_system_exit_or_keyboard_interrupt_end_only_their_own_games(tmp_path, monkeypatch, workers):
    module = f"failing_plugin_{workers}"
    experiment = plugged_experiment(tmp_path, monkeypatch, module, "score", "exiting", "interrupting")
    result = run_experiment(experiment, workers=workers, quiet=True)
    assert (result.played, result.errors) == (6, 4)
    outcomes, rows = outcomes_by_eval(result.store)
    assert outcomes[f"{module}:exiting"] == outcomes[f"{module}:interrupting"] == ["error", "error"]
    assert "error" not in outcomes["score"]
    errors = set(rows["error"].dropna())
    line = FAILING_PLUGIN.splitlines().index("    raise SystemExit(4)") + 1
    assert f"agent 0 raised SystemExit at {module}.py:{line}: 4" in errors
    assert f"agent 0 raised KeyboardInterrupt at {module}.py:{line + 4}" in errors


def test_a_failure_in_a_batch_keeps_the_batch_finished_rows(tmp_path, monkeypatch):
    original = execute.play_task

    def buggy(task):
        if task.game_index == 1 and task.condition.pacman == "expectimax":
            raise RuntimeError("a bug in pacsim")
        return original(task)

    monkeypatch.setattr(execute, "play_task", buggy)
    path = write_experiment(tmp_path, SMALL)
    with pytest.raises(RuntimeError, match="a bug in pacsim"):  # a bug keeps its traceback ...
        run_experiment(load_experiment(path, games=2), workers=1, max_pending=100, quiet=True)
    assert len(load_results(tmp_path / "results.sqlite")) == 6  # ... but the other 6 games of its batch are stored


class CountingPool(WorkerPool):
    submitted = 0

    def submit(self, *args, **kwargs):
        CountingPool.submitted += 1
        return super().submit(*args, **kwargs)


def test_a_dead_worker_is_replaced_and_costs_only_its_own_game(tmp_path, monkeypatch, capfd):
    monkeypatch.setattr(execute, "WorkerPool", CountingPool)
    monkeypatch.setattr(CountingPool, "submitted", 0)
    module = "dying_plugin"
    experiment = plugged_experiment(tmp_path, monkeypatch, module, "score", "dies_once", "always_dies", games=3)
    result = run_experiment(experiment, workers=2, max_pending=3, quiet=True)
    assert (tmp_path / "marker").exists()  # a worker did die
    outcomes, rows = outcomes_by_eval(result.store)
    assert len(rows) == result.played == CountingPool.submitted == 9  # no game played twice
    assert not rows.duplicated(["condition_key", "game_index"]).any()
    assert "crash" not in outcomes["score"] and outcomes[f"{module}:dies_once"].count("crash") == 1
    assert outcomes[f"{module}:always_dies"] == ["crash"] * 3 and result.crashes == 4
    crashed = rows[rows["outcome"] == "crash"]
    assert set(crashed["worker_exit"]) == {-9} and set(crashed["error"]) == {"the worker process was killed by SIGKILL"}
    assert "Traceback" not in capfd.readouterr().err


def test_games_that_ended_in_error_are_played_again_on_resume(tmp_path, monkeypatch):
    experiment = plugged_experiment(tmp_path, monkeypatch, "fixable_plugin", "score", "broken_until_fixed")
    first = run_experiment(experiment, workers=1, quiet=True)
    assert (first.played, first.errors, first.retried) == (4, 2, 0)
    (tmp_path / "marker").touch()  # the user fixes the evaluation
    second = run_experiment(experiment, workers=1, quiet=True)
    assert (second.played, second.skipped, second.errors, second.retried) == (2, 2, 0, 2)
    rows = load_results(first.store)
    assert len(rows) == 4 and set(rows["outcome"]) != {"error"} and rows["error"].isna().all()
    assert not rows.duplicated(["condition_key", "game_index"]).any()
    third = run_experiment(experiment, workers=1, quiet=True)
    assert (third.played, third.skipped) == (0, 4)


@pytest.mark.usefixtures("ctrl_c_delivered")
def test_ctrl_c_in_a_serial_run_stops_it_and_says_what_is_saved(tmp_path, monkeypatch):
    experiment = plugged_experiment(tmp_path, monkeypatch, "ctrl_c_plugin", "score", "ctrl_c")
    with pytest.raises(execute.RunInterrupted) as interrupted:
        run_experiment(experiment, workers=1, quiet=True)
    # The grid's first game (score) was stored, then Ctrl-C came inside the plugin: not the agent's error.
    assert (interrupted.value.saved, interrupted.value.total) == (1, 4)
    assert str(interrupted.value) == f"1 of 4 games are saved in {experiment.store}"
    assert len(load_results(experiment.store)) == 1
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def pool_workers(pid):
    """The child processes of ``pid`` (Linux)."""
    children = set()
    for path in Path(f"/proc/{pid}/task").glob("*/children"):
        children |= {int(child) for child in path.read_text().split()}
    return children


def alive(pid):
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


LONG_GAMES = """
name = "long_games"
games = 50
seed = 5
max_moves = 300
store = "{store}"
[grid]
pacman = ["expectimax"]
ghosts = ["random"]
layout = ["wideClassic"]
depth = [3]
"""


def start_run(path, *options):
    environment = {**os.environ, "PYTHONPATH": str(REPOSITORY)}
    return subprocess.Popen([sys.executable, "-m", "pacsim", "run", str(path), *options], env=environment,
                            start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def stop_group(process):
    """Kill whatever is left of a run started by :func:`start_run`."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def wait_for_workers(process, count, seconds=20.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert process.poll() is None, process.stderr.read()
        workers = pool_workers(process.pid)
        if len(workers) >= count:
            return workers
        time.sleep(0.05)
    raise AssertionError(f"no {count} workers after {seconds}s")


@pytest.mark.usefixtures("linux_proc")
def test_pool_workers_exit_when_the_coordinator_is_killed(tmp_path):
    process = start_run(write_experiment(tmp_path, LONG_GAMES), "--workers", "2", "--quiet")
    try:
        workers = wait_for_workers(process, 2)
        time.sleep(0.3)  # into their first, long, game
        os.kill(process.pid, signal.SIGKILL)  # the coordinator only, with no chance to stop its workers
        process.wait()
        deadline = time.monotonic() + 3
        while any(alive(worker) for worker in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(alive(worker) for worker in workers), "orphaned workers still run"
    finally:
        stop_group(process)


@pytest.mark.usefixtures("linux_proc")
@pytest.mark.usefixtures("ctrl_c_delivered")
def test_ctrl_c_exits_130_and_says_how_to_resume(tmp_path):
    path = write_experiment(tmp_path, SMALL.replace("games = 4", "games = 400"))
    process = start_run(path, "--workers", "2", "--quiet")
    try:
        stored = wait_for_rows(tmp_path / "results.sqlite", 4,
                               lambda: None if process.poll() is None else process.stderr.read())
        workers = pool_workers(process.pid)
        os.killpg(process.pid, signal.SIGINT)  # what a terminal does on Ctrl-C: the whole foreground group
        _, error = process.communicate(timeout=20)
    finally:
        stop_group(process)
    assert process.returncode == 130, error
    saved = len(load_results(tmp_path / "results.sqlite"))
    assert saved >= stored
    assert error == (f"pacsim: interrupted: {saved} of 1600 games are saved in {tmp_path / 'results.sqlite'}; "
                     f"resume with: pacsim run {path} --workers 2 --quiet\n")
    assert not any(alive(worker) for worker in workers)


CTRL_C_AMONG_THE_LOCKS = """
import os, signal, sys
from concurrent.futures import _base

from pacsim.cli import main

acquire_all = _base._AcquireFutures.__enter__


def ctrl_c_between_two_locks(self):  # once a game is being played: after its lock, before the others'
    playing = [future for future in self.futures if future.running()]
    if not playing:
        return acquire_all(self)
    _base._AcquireFutures.__enter__ = acquire_all
    playing[0]._condition.acquire()
    os.kill(os.getpid(), signal.SIGINT)  # Python runs the handler before the next line, as on a real Ctrl-C
    for future in self.futures:  # a list, ordered as the locks are always taken
        if future is not playing[0]:
            future._condition.acquire()


_base._AcquireFutures.__enter__ = ctrl_c_between_two_locks
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.usefixtures("ctrl_c_delivered")
def test_a_ctrl_c_noted_after_the_runs_last_check_still_stops_it():
    # A pool's run notes a Ctrl-C and raises it at its loop's next check; one that came after the last check
    # (the last games collected) was lost, and a comparison went on with its next batch to the end.
    from pacsim.engine.deadline import UserInterrupt

    handler = signal.getsignal(signal.SIGINT)
    with pytest.raises(UserInterrupt), execute._interrupts_stop_the_run() as ctrl_c:
        ctrl_c.deferred = True
        ctrl_c.interrupt(signal.SIGINT, None)  # as the signal does, once the loop has ended
        assert ctrl_c.pressed
    assert signal.getsignal(signal.SIGINT) is handler
    with execute._interrupts_stop_the_run():
        pass  # no Ctrl-C: nothing raised


@pytest.mark.usefixtures("ctrl_c_delivered")
def test_a_ctrl_c_while_the_run_holds_its_pools_locks_still_stops_it(tmp_path):
    """A Ctrl-C raised between two of the locks the run's thread takes to wait on its pool's games left the
    first held, and the pool's thread waiting on it for ever: the run hung.  It now stops as usual."""
    path = write_experiment(tmp_path, SMALL.replace("games = 4", "games = 400"))
    process = subprocess.run([sys.executable, "-c", CTRL_C_AMONG_THE_LOCKS, "run", str(path), "--workers", "2",
                              "--quiet"], env={**os.environ, "PYTHONPATH": str(REPOSITORY)}, capture_output=True,
                             text=True, timeout=60)
    assert process.returncode == 130, process.stderr
    assert process.stderr.startswith("pacsim: interrupted: "), process.stderr


def test_a_worker_keeps_only_the_layouts_its_memory_budget_allows():
    import gc
    import weakref

    from pacsim.runner.execute import LayoutCache

    def corridor(width):
        wall = "%" * (width + 4)
        return f"{wall}\n%P{'.' * width}G%\n{wall}\n"

    texts = [corridor(width) for width in range(1, 21)]
    cache = LayoutCache(budget=LayoutCache.cost(execute.parse_layout(texts[-1])) * 3)
    alive = [weakref.ref(cache.get((f"maze{index}", text, None), lambda text=text: execute.parse_layout(text)))
             for index, text in enumerate(texts)]
    gc.collect()
    assert 1 <= sum(ref() is not None for ref in alive) <= 3 and alive[-1]() is not None
    assert cache.get(("maze19", texts[-1], None), list) is alive[-1]()  # kept, not built again
    condition = load_experiment(REPOSITORY / "experiments" / "optimism_pessimism" / "optimism_pessimism.toml").conditions
    assert cache.layout_for(condition[0]) is cache.layout_for(condition[1])  # one maze, one layout
