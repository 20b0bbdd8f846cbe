"""The kernel's Star1/Star2 and transposition tables against pacsim.search.

Each kernel search is compared with ``pacsim.search.search`` on the game a
search Pacman builds (its ``game_for``, ``evaluate`` and local
``node_bounds``): value bit for bit, move, every root value, the four node
counts, and, with a table, the table's length and hit, miss, store and
eviction counters after every search.  The tables are shared along a
sequence of positions, as an agent's are during a game; small ones evict
all the time, so LRU order must match too.

Cold, the star kernel compiles once (about 30 s of CPU; cached after).
"""

import random

import numpy as np
import pytest
from optional import needed

needed("numba", "pip install -e '.[fast]'")

from kernel_calls import kernel_search

from pacsim.agents import make_pacman
from pacsim.bench.positions import game_positions
from pacsim.engine import load_layout
from pacsim.fast import search as fast_search
from pacsim.fast.search import KernelTable
from pacsim.fast.transposition import table_get, table_put
from pacsim.search import MAX, TranspositionTable, search

MAZES = ("tinyGhostMaze", "smallClassic", "trapMaze", "generated:w=11,h=9,food=10,capsules=2,ghosts=2,loops=0.5,seed=4")
CONFIGURATIONS = (
    # (agent spec, algorithm, table entries)
    ("expectimax:eval=careful", "star2", 0),
    ("expectimax:eval=score", "star1", 0),
    ("expectiminimax:eval=careful,kinds=MC", "star2", 64),
    ("expectiminimax:eval=score,kinds=CM", "star1", 100_000),
    ("expectimax:eval=careful,model=directional", "star2", 100_000),
    ("expectimax:eval=score,model=random,trust=0.7", "star2", 256),
    ("expectimax:eval=careful,model=directional,trust=0.5,slip=0.2", "star2", 128),
    ("expectiminimax:eval=score,slip=0.1", "star1", 0),
    ("expectimax:eval=careful", "expectimax", 128),
    ("expectiminimax:eval=score,kinds=MC,slip=0.25", "expectiminimax", 100_000),
    ("minimax:eval=careful", "alphabeta", 64),
    ("minimax:eval=score", "minimax", 100_000),
)
PRUNED = ("alphabeta", "star1", "star2")


@pytest.fixture(scope="module")
def positions():
    return game_positions(240, seed=21, layouts=MAZES)


def python_result(agent, state, levels, algorithm, table, root_values):
    bounds = agent.node_bounds if algorithm.startswith("star") else None
    return search(agent.game_for(state), state, algorithm=algorithm, depth=levels, evaluate=agent.evaluate,
                  bounds=bounds, table=table, root_values=root_values)


def kernel_result(agent, state, levels, algorithm, table, root_values):
    options = agent.options
    kinds = (MAX, *(agent.ghost_kind(ghost) for ghost in range(len(state.ghosts))))
    model, adversary = options.model, (2, 1.0)
    if model.startswith("adversarial"):
        ghost = agent.models_for(len(state.ghosts))[0]
        model, adversary = "adversarial", (ghost.options.depth, ghost.options.p)
    return kernel_search(state, kinds, options.eval, levels, pruned=algorithm in PRUNED,
                         model=model if "chance" in kinds else "uniform", trust=options.trust,
                         root_values=root_values, slip=options.slip,
                         star=algorithm if algorithm.startswith("star") else None, table=table, adversary=adversary)


def summary(result, table):
    stats = result.stats
    counters = () if table is None else (len(table), table.hits, table.misses, table.stores, table.evictions)
    # Python's values are ints where the score is (a search Pacman turns both into floats).
    action_values = tuple((move, float(value)) for move, value in result.action_values)
    return (float(result.value), result.action, action_values,
            stats.generated, stats.evaluated, stats.cutoffs, stats.max_depth, counters)


def disagreements(positions, configurations, depths):
    """Every (configuration, position) where the kernel and Python differ."""
    found = []
    for spec, algorithm, entries in configurations:
        agent = make_pacman(f"{spec},backend=python")
        python_table = TranspositionTable(entries) if entries else None
        kernel_table = KernelTable(entries) if entries else None
        for index, state in enumerate(positions):
            levels = agent.levels(state, depths[index % len(depths)])
            root_values = bool(index % 3 == 0)
            expected = summary(python_result(agent, state, levels, algorithm, python_table, root_values), python_table)
            got = summary(kernel_result(agent, state, levels, algorithm, kernel_table, root_values), kernel_table)
            if expected != got:
                found.append(f"{spec} {algorithm} table={entries} position {index}: {expected} != {got}")
    return found


def test_star_and_table_searches_equal_python_on_hundreds_of_positions(positions):
    mismatches = disagreements(positions, CONFIGURATIONS, depths=(1, 2))
    assert not mismatches, mismatches[:3]


def test_star2_with_a_table_equals_python_at_depths_3_and_4(positions):
    deep = positions[::10]
    configurations = [("expectimax:eval=careful", "star2", 100_000), ("expectiminimax:eval=score,kinds=MC", "star2", 512),
                      ("expectimax:eval=score,model=directional", "star1", 0)]
    mismatches = disagreements(deep, configurations, depths=(3, 4))
    assert not mismatches, mismatches[:3]


def test_a_search_paused_every_few_nodes_gives_the_same_result(positions, monkeypatch):
    agent = make_pacman("expectiminimax:eval=careful,kinds=MC,backend=python")
    states = positions[5::40]
    whole = [summary(kernel_result(agent, state, agent.levels(state, 2), "star2", table, True), table)
             for state, table in zip(states, [KernelTable(300)] * len(states))]
    monkeypatch.setattr(fast_search, "FIRST_SLICE", 1)
    monkeypatch.setattr(fast_search, "SMALLEST_SLICE", 1)
    monkeypatch.setattr(fast_search, "SLICE_SECONDS", 1e-9)  # every slice as short as allowed: one node
    sliced = [summary(kernel_result(agent, state, agent.levels(state, 2), "star2", table, True), table)
              for state, table in zip(states, [KernelTable(300)] * len(states))]
    assert sliced == whole and sum(entry[3] for entry in whole) > 100


def test_the_kernel_table_keeps_the_entries_of_an_lru_ordered_dict():
    # Many keys over a small table: hits move entries to the young end,
    # stores into a full table evict the oldest, and entries leave the
    # hash index by backward shifting (probe runs must stay intact).
    rng = random.Random(5)
    python = TranspositionTable(37)
    kernel = KernelTable(37)
    arrays = kernel.bound_to(load_layout("tinyGhostMaze"), 3, 0)
    for step in range(20_000):
        if step == 10_000:  # a new game: the same arrays, no entries
            python.clear()
            kernel.clear()
        key = (rng.randrange(60), rng.randrange(3))
        row = np.array([key[0], key[0] * 7 % 5, 1], np.int64)
        if rng.random() < 0.5:
            entry = python.get(key[0], key[1])
            found = table_get(arrays, row, key[1], -1)
            assert (entry is None) == (found < 0), step
            if entry is not None:
                assert entry == (arrays[3][found], arrays[4][found]), step
        else:
            value, flag = rng.random(), rng.randrange(3)
            python.put(key[0], key[1], value, flag)
            table_put(arrays, row, key[1], -1, value, flag)
        assert len(python) == len(kernel)
    assert (python.hits, python.misses, python.stores, python.evictions) == (
        kernel.hits, kernel.misses, kernel.stores, kernel.evictions)
    assert kernel.evictions > 1000 and kernel.hits > 1000


def test_a_table_grown_during_searches_keeps_every_entry(positions, monkeypatch):
    import pacsim.fast.transposition

    monkeypatch.setattr(pacsim.fast.transposition, "FIRST_ALLOCATION", 8)  # grown again and again, mid-search too
    configuration = ("expectiminimax:eval=careful,kinds=MC", "star2", 100_000)
    mismatches = disagreements(positions[:60], [configuration], depths=(2,))
    assert not mismatches, mismatches[:3]
    table = KernelTable(100_000)
    agent = make_pacman("expectiminimax:eval=careful,kinds=MC,backend=python")
    kernel_result(agent, positions[0], agent.levels(positions[0], 2), "star2", table, False)
    assert 8 < table.arrays[7][pacsim.fast.transposition.ALLOCATED] < 100_000


def test_the_adversarial_ghost_as_the_model_equals_python(positions):
    # A chase search at every chance node (Python caches them per position;
    # the kernel searches again): few positions, a shallow adversary.
    configurations = [
        ("expectimax:eval=careful,model=adversarial:depth=1", "expectimax", 0),
        ("expectimax:eval=score,model=adversarial:p=0.8,trust=0.7", "expectimax", 0),
        ("expectimax:eval=careful,model=adversarial:depth=1", "star2", 1000),
        ("expectiminimax:eval=careful,kinds=MC,model=adversarial:depth=1,slip=0.1", "star1", 0),
    ]
    mismatches = disagreements(positions[::20], configurations, depths=(1, 2))
    assert not mismatches, mismatches[:3]


def test_a_pacman_modelling_the_adversarial_ghost_plays_the_same_game_with_the_fast_path_on_and_off():
    from fasttools import assert_same_games_on_and_off

    from pacsim.fast.request import declined

    pacman = assert_same_games_on_and_off("expectimax:depth=2,eval=careful,model=adversarial:p=0.9", (5,), 30)
    assert declined(pacman.search_request(2, 6, 100)) is None
