"""Limits that hold inside the compiled kernel: the move time limit, Ctrl-C
and ``time=`` budgets (issue 22 items 4-5, issue 20 item 2).

The kernel searches in slices and hands control back to Python between
them, so these tests force tiny slices to show that pausing changes
nothing, then stop deep searches that would otherwise run for minutes.
How quickly they stop is measured by ``pacsim bench``, not here.
"""

import os
import signal
import threading
import time

import pytest
from optional import needed

needed("numba", "pip install -e '.[fast]'")

from pacsim.agents import make_ghost, make_pacman
from pacsim.bench.agreement import SPECS, compare_searches
from pacsim.bench.positions import game_positions
from pacsim.engine import initial_state, load_layout, play_game

DEEP = "expectimax:depth=12,eval=careful,backend=fast"
"""Hours of search on wideClassic: only a limit ends it."""


def test_a_search_paused_every_three_nodes_agrees_with_python(monkeypatch):
    import pacsim.fast.search

    monkeypatch.setattr(pacsim.fast.search, "FIRST_SLICE", 3)
    monkeypatch.setattr(pacsim.fast.search, "SMALLEST_SLICE", 3)
    monkeypatch.setattr(pacsim.fast.search, "SLICE_SECONDS", 0.0)
    positions = game_positions(6, seed=41)
    for root_values in (False, True):
        report = compare_searches(positions, depth=2, root_values=root_values)
        assert report.searches == 6 * len(SPECS) and report.agrees, report.mismatches[:5]


def deep_game(limit, results):
    layout = load_layout("wideClassic")
    agents = [make_pacman(DEEP), make_ghost("random"), make_ghost("random")]
    started = time.perf_counter()
    record = play_game(layout, agents, seed=1, max_moves=5, move_time_limit=limit)
    results.append((record, time.perf_counter() - started))


def test_the_move_time_limit_stops_a_kernel_search():
    results = []
    deep_game(0.3, results)
    record, seconds = results[0]
    assert record.outcome == "error" and "exceeded the 0.3s move time limit" in record.error
    assert seconds < 3


def test_the_move_time_limit_stops_a_kernel_search_outside_the_main_thread():
    results = []
    worker = threading.Thread(target=deep_game, args=(0.3, results))  # as in a Dask worker's thread pool
    worker.start()
    worker.join(10)
    assert not worker.is_alive()
    record, seconds = results[0]
    assert record.outcome == "error" and "exceeded the 0.3s move time limit" in record.error
    assert seconds < 3


@pytest.mark.usefixtures("ctrl_c_delivered")
def test_ctrl_c_stops_a_kernel_search():
    state = initial_state(load_layout("wideClassic"))
    agent = make_pacman(DEEP)
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    started = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        agent.analyze(state, root_values=False)
    timer.join()
    assert time.perf_counter() - started < 3


def test_a_time_budget_returns_the_deepest_finished_iteration():
    state = game_positions(1, seed=5, layouts=("wideClassic",))[0]
    levels_per_depth = len(state.ghosts) + 1
    timed = make_pacman("expectimax:depth=12,eval=careful,time=0.02,backend=fast")
    started = time.perf_counter()
    result = timed.analyze(state, root_values=False)
    assert time.perf_counter() - started < 3
    assert result.depth % levels_per_depth == 0 and levels_per_depth <= result.depth < 12 * levels_per_depth
    # The kernel at that fixed depth, not Python (a depth-4 Python expectimax on wideClassic takes seconds):
    # the kernel's fixed-depth searches equal Python's in tests/test_fast.py, its deepest iteration against
    # Python is a figure of pacsim bench's agreement group (pacsim.bench.limits).
    fixed = make_pacman(f"expectimax:depth={result.depth // levels_per_depth},eval=careful,backend=fast")
    expected = fixed.analyze(state, root_values=False)
    assert (result.value, result.action, result.stats.generated) == (expected.value, expected.action, expected.stats.generated)


def test_bench_reports_how_late_the_kernel_stops():
    from pacsim.bench.limits import fast_limits
    from pacsim.bench.report import Report

    report = Report()
    fast_limits(report, trials=1, budget_moves=2, checked=0)  # Python's check: see the test above
    names = {figure.name: figure for figure in report.figures}
    for label in ("move time limit 0.2 s", "Ctrl-C", "time=0.05 budget"):
        assert names[f"{label}: most seconds late"].unit == "s"
    assert names["time=0.05, deepest iteration against Python: disagreements"].note.startswith("0 searches")


FALLING_BACK = """
name = "falls_back"
games = 2
seed = 3
max_moves = 5
store = "{store}"
[grid]
pacman = ["expectimax"]
ghosts = ["random"]
layout = ["tinyGhostMaze", "openRoom"]
depth = [1]
eval = ["pacsim.agents.evaluation:careful"]
"""


def test_a_run_says_once_that_its_searches_fall_back_to_python(tmp_path, capfd, monkeypatch):
    import pacsim.agents.notes
    from pacsim.runner import load_experiment, run_experiment

    monkeypatch.setattr(pacsim.agents.notes, "_said", set())  # as in a fresh process
    path = tmp_path / "exp.toml"
    path.write_text(FALLING_BACK.format(store=tmp_path / "results.sqlite"), encoding="utf-8")
    result = run_experiment(load_experiment(path), workers=2)
    said = capfd.readouterr().err
    assert result.played == 4 and said.count("searches in Python") == 1 and "eval=pacsim.agents.evaluation:careful" in said


def test_engine_fast_on_a_maze_the_kernel_cannot_take_fails_before_any_game(tmp_path):
    from pacsim.errors import AgentError
    from pacsim.runner import load_experiment, run_experiment

    rows = ["%" * 50] + ["%" + "." * 48 + "%" for _ in range(46)] + ["%" * 50]
    rows[1] = "%P" + "." * 46 + "G%"
    (tmp_path / "huge.lay").write_text("\n".join(rows) + "\n", encoding="utf-8")  # 2,208 cells
    path = tmp_path / "exp.toml"
    text = FALLING_BACK.replace('"tinyGhostMaze", "openRoom"', f'"{tmp_path / "huge.lay"}"').replace('eval = ["pacsim.agents.evaluation:careful"]', 'backend = ["fast"]')
    path.write_text(text.format(store=tmp_path / "results.sqlite"), encoding="utf-8")
    with pytest.raises(AgentError, match="backend=fast: the fast path does not cover a maze of 2208 cells"):
        run_experiment(load_experiment(path), workers=1, quiet=True)


@pytest.mark.usefixtures("ctrl_c_delivered")
def test_a_ctrl_c_while_the_kernel_loads_is_not_lost(monkeypatch):
    import ctypes

    import pacsim.agents.backend as backend
    import pacsim.fast.search

    def interrupted_inside_a_callback():  # numba loads compiled code through ctypes callbacks
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)

    callback = ctypes.CFUNCTYPE(None)(interrupted_inside_a_callback)
    monkeypatch.setattr(pacsim.fast.search, "warm_up", callback)
    backend._warm_up.cache_clear()
    try:
        with pytest.raises(KeyboardInterrupt):
            backend.prepare("fast")
    finally:
        backend._warm_up.cache_clear()


def test_the_run_notes_build_no_maze_of_a_seed_range(tmp_path, monkeypatch):
    import pacsim.runner.plan
    from pacsim.runner import load_experiment
    from pacsim.runner.execute import backend_notes

    path = tmp_path / "exp.toml"
    seeds = 'layout = ["generated:w=31,h=15,food=4,ghosts=1,seed=0-999"]'
    path.write_text(FALLING_BACK.replace('layout = ["tinyGhostMaze", "openRoom"]', seeds).format(store=tmp_path / "r.sqlite"),
                    encoding="utf-8")
    experiment = load_experiment(path)
    monkeypatch.setattr(pacsim.runner.plan, "generate_layout", None)  # building any maze would fail
    assert len(experiment.conditions) == 1000
    assert [note for note in backend_notes(experiment) if "eval=pacsim.agents.evaluation:careful" in note]
