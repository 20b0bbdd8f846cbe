"""A search Pacman's memo across the kernel games of a process
(pacsim.fast.memo.pacman_memo): exact, so a game is the same whichever
games its process played before it, and it is used."""

import numpy as np
from fasttools import memos_set
from optional import needed

needed("numba", "pip install -e '.[fast]'")

from pacsim.agents import make_ghost, make_pacman
from pacsim.agents.whole_game import play_in_kernel
from pacsim.engine import initial_state, load_layout
from pacsim.engine.starts import with_pacman_start
from pacsim.fast.maze_arrays import state_row
from pacsim.fast.memo import _pacman_memos, pacman_memo_hits


def _game(layout, seed, pacman="expectimax:depth=3,eval=careful"):
    return play_in_kernel(layout, [make_pacman(pacman), make_ghost("adversarial")], seed, max_moves=80)


def _numbers(record):
    return (record.actions, record.score, record.outcome,
            [(s.generated, s.evaluated, s.max_depth, np.float64(s.value).hex()) for s in record.search_stats])


def test_games_after_other_games_are_the_games_played_alone(monkeypatch):
    """Games from one start share their first positions: the later games
    find them remembered, and play exactly as they do with the memo off."""
    maze = load_layout("optimismHalls")
    layout = with_pacman_start(maze, maze.pacman_start)
    memos_set(monkeypatch, chase=False, pacman=False, subtree=False)
    alone = [_numbers(_game(layout, seed)) for seed in (1, 2, 3)]  # every move searched
    memos_set(monkeypatch, chase=False, pacman=True, subtree=False)
    together = [_numbers(_game(layout, seed)) for seed in (1, 2, 3)]
    assert together == alone
    assert pacman_memo_hits() >= 2  # at least the first move of the second and third games


def test_settings_have_memos_of_their_own(monkeypatch):
    """Depth 2 and depth 3 from one position: neither reads the other's results."""
    memos_set(monkeypatch, chase=False, pacman=True, subtree=False)
    layout = load_layout("optimismHalls")
    deep, shallow = _game(layout, 5), _game(layout, 5, "expectimax:depth=2,eval=careful")
    width = len(state_row(initial_state(layout, 1)))
    assert len([key for key in _pacman_memos[layout] if key[0] == width]) >= 2
    memos_set(monkeypatch, chase=False, pacman=False, subtree=False)
    assert _numbers(deep) == _numbers(_game(layout, 5))
    assert _numbers(shallow) == _numbers(_game(layout, 5, "expectimax:depth=2,eval=careful"))
    assert pacman_memo_hits() == 0


def test_the_lecture_tables_rows_are_the_same_with_every_memo_on_and_off(monkeypatch, tmp_path):
    """A few games a cell of the reproduction's experiment (random starts,
    both ghosts, both Pacmen), played in this process: every stored column
    the memos could change is the same with them off."""
    import sqlite3
    from contextlib import closing

    from pacsim.bench.memo import ROW_COLUMNS
    from pacsim.runner.execute import run_experiment
    from pacsim.runner.experiment import load_experiment
    from pacsim.shipped import shipped_path

    rows = {}
    for on in (False, True):
        store = tmp_path / f"{on}.sqlite"
        experiment = load_experiment(shipped_path("experiments/optimism_pessimism/optimism_pessimism.toml"), games=3,
                                     store=store)
        memos_set(monkeypatch, chase=on, pacman=on, subtree=on)
        run_experiment(experiment, workers=1, quiet=True)
        with closing(sqlite3.connect(store)) as connection:
            rows[on] = sorted(connection.execute(f"SELECT {ROW_COLUMNS} FROM games"))
    assert len(rows[True]) == 12 and pacman_memo_hits() > 0  # the memos did answer in the second run
    assert rows[True] == rows[False]
