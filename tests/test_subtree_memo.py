"""The plain search's subtree memo (pacsim.fast.subtree_memo): exact, so on
and off give the same values bit for bit, moves and node counts, whole
games included; and it is used (the searches here do hit it)."""

import numpy as np
import pytest
from fasttools import memos_set
from optional import needed

needed("numba", "pip install -e '.[fast]'")

from kernel_calls import kernel_search

from pacsim.agents import make_ghost, make_pacman
from pacsim.agents.whole_game import play_in_kernel
from pacsim.engine import initial_state, load_layout
from pacsim.fast import kernel
from pacsim.fast.maze_arrays import layout_tables, state_row
from pacsim.fast.memo import pacman_memo_hits
from pacsim.fast.subtree_memo import GENERATION, HITS, empty_subtree_memo, subtree_memo
from pacsim.fast.translate import translate, workspace
from pacsim.search import CHANCE, MAX, MIN

SEARCHES = [  # (maze, kinds, evaluation, levels, keywords)
    ("optimismHalls", (MAX, MIN), "careful", 8, {}),
    ("optimismHalls", (MAX, CHANCE), "careful", 8, {}),
    ("smallClassic", (MAX, CHANCE, MIN), "careful", 9, {}),
    ("smallClassic", (MAX, CHANCE, CHANCE), "score", 9, {"model": "directional", "trust": 0.7}),
    ("optimismHalls", (MAX, CHANCE), "careful", 6, {"slip": 0.2}),
]


def _search(monkeypatch, on, maze, kinds, evaluation, levels, keywords):
    memos_set(monkeypatch, chase=False, pacman=False, subtree=on)
    state = initial_state(load_layout(maze), len(kinds) - 1)
    return kernel_search(state, kinds, evaluation, levels, root_values=True, **keywords)


def _hits(width):
    return int(subtree_memo(width).meta[HITS])


@pytest.mark.parametrize("search", SEARCHES, ids=[f"{s[0]}-{''.join(k[0] for k in s[1])}-{s[2]}-{s[3]}" for s in SEARCHES])
def test_a_search_is_the_same_with_the_memo_on_and_off_and_the_memo_is_hit(monkeypatch, search):
    maze, kinds = search[0], search[1]
    width = len(state_row(initial_state(load_layout(maze), len(kinds) - 1)))
    on = _search(monkeypatch, True, *search)
    hits = _hits(width)  # the memo was made afresh for this search
    off = _search(monkeypatch, False, *search)
    assert hits > 0 and _hits(width) == 0  # the second search had no memo to answer from
    assert off.stats.generated > 0
    assert (on.value.hex(), on.action, on.action_values) == (off.value.hex(), off.action, off.action_values)
    assert (on.stats.generated, on.stats.evaluated, on.stats.max_depth) == \
        (off.stats.generated, off.stats.evaluated, off.stats.max_depth)


def test_alpha_beta_does_not_use_the_memo(monkeypatch):
    """A pruned node's value depends on its window, not only on its position."""
    width = len(state_row(initial_state(load_layout("optimismHalls"), 1)))
    pruned = _search(monkeypatch, True, "optimismHalls", (MAX, MIN), "careful", 8, {"pruned": True})
    assert _hits(width) == 0 and pruned.stats.generated > 0
    _search(monkeypatch, True, "optimismHalls", (MAX, MIN), "careful", 8, {})
    assert _hits(width) > 0  # the same search unpruned does use it: the check above could fail


def test_a_search_paused_every_few_nodes_is_the_same_as_one_in_a_single_slice():
    """The memo's bookkeeping lives in the workspace's rows, so a search
    that pauses (the node budget) and goes on gives the same numbers."""
    state = initial_state(load_layout("optimismHalls"), 1)
    search = translate(state, _request(state))
    results, slices = [], []
    for budget in (10 ** 9, 7):
        work = workspace(state_row(state), 8, empty_subtree_memo(len(state_row(state))))
        slices.append(1)
        while not kernel.search_root(layout_tables(state.layout), search.model, 8, True, work, budget):
            slices[-1] += 1
        results.append((work.values.tobytes(), work.stats[:kernel.DEEPEST + 1].tolist(), int(work.memo.meta[HITS])))
    assert slices[0] == 1 and slices[1] > 100  # the second search did pause, many times
    assert results[0] == results[1]
    assert results[0][2] > 0


def test_a_new_search_forgets_the_last_ones_entries(monkeypatch):
    """Two searches of one position under other evaluations, through this
    thread's one memo: each is the same as with the memo off (a stale
    entry would hand the second the first's values)."""
    memos_set(monkeypatch, chase=False, pacman=False, subtree=True)
    state = initial_state(load_layout("optimismHalls"), 1)
    generation = int(subtree_memo(len(state_row(state))).meta[GENERATION])
    first = kernel_search(state, (MAX, CHANCE), "careful", 6, root_values=True)
    second = kernel_search(state, (MAX, CHANCE), "score", 6, root_values=True)
    assert int(subtree_memo(len(state_row(state))).meta[GENERATION]) > generation + 2
    memos_set(monkeypatch, chase=False, pacman=False, subtree=False)
    assert first.action_values == kernel_search(state, (MAX, CHANCE), "careful", 6, root_values=True).action_values
    assert second.action_values == kernel_search(state, (MAX, CHANCE), "score", 6, root_values=True).action_values
    assert first.action_values != second.action_values


@pytest.mark.parametrize("pacman, ghost", [("expectimax", "adversarial"), ("minimax", "random")])
def test_a_whole_kernel_game_is_the_same_with_the_memo_on_and_off(monkeypatch, pacman, ghost):
    """The Pacman memo stays off: on, it would answer the second game's every search from the first's."""
    layout = load_layout("optimismHalls")
    width = len(state_row(initial_state(layout, 1)))

    def play(on):
        memos_set(monkeypatch, chase=False, pacman=False, subtree=on)
        agents = [make_pacman(f"{pacman}:depth=4,eval=careful"), make_ghost(ghost)]
        return play_in_kernel(layout, agents, 5, max_moves=60), _hits(width)

    (on, hits_on), (off, hits_off) = play(True), play(False)
    assert on is not None and off is not None
    assert hits_on > 0 and hits_off == 0 and pacman_memo_hits() == 0  # both games searched, the first with the memo
    assert all(move.generated > 0 for move in off.search_stats)
    assert (on.actions, on.score, on.outcome) == (off.actions, off.score, off.outcome)
    assert [(s.generated, s.evaluated, s.max_depth, np.float64(s.value).hex()) for s in on.search_stats] == \
        [(s.generated, s.evaluated, s.max_depth, np.float64(s.value).hex()) for s in off.search_stats]


def _request(state):
    from pacsim.fast.request import SearchRequest

    return SearchRequest(algorithm="expectimax", kinds=(MAX, CHANCE), evaluation="careful", levels=8, step=2,
                         cells=state.layout.num_cells, model="uniform", trust=1.0, slip=0.0, table=0, adversary=None,
                         root_values=False)


def test_the_bench_pairs_searches_with_the_subtree_memo_off_and_on(monkeypatch):
    from pacsim.bench import memo
    from pacsim.bench.report import Report

    memos_set(monkeypatch, chase=False, pacman=False, subtree=False)
    width = len(state_row(initial_state(load_layout(memo.TRUE_MODEL_MAZE), 1)))
    hits_after = []  # this thread's subtree memo hits after the off pass, then after the on pass
    timed = memo._timed
    monkeypatch.setattr(memo, "_timed", lambda search: (timed(search), hits_after.append(_hits(width)))[0])
    report = Report()
    memo.subtree_searches(report, 3)
    figures = {figure.name: figure.value for figure in report.figures}
    assert hits_after[0] == 0 < hits_after[1]  # "no result differs" compares a pass without the memo with one with it
    assert figures["searches whose result differs"] == 0
    assert figures["depth-4 searches subtree memo on/off"] == \
        figures["depth-4 searches, subtree memo on"] / figures["depth-4 searches, subtree memo off"]
