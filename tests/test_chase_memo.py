"""The adversarial ghost's memo (pacsim.fast.memo): exact, so on and off
give the same games, values and node counts, and it is used."""

from dataclasses import replace

import pytest
from fasttools import memos_set
from optional import needed

needed("numba", "pip install -e '.[fast]'")

from kernel_calls import kernel_search

from pacsim.agents import make_ghost, make_pacman
from pacsim.agents.whole_game import play_in_kernel
from pacsim.bench.agreement import case_layout, untimed
from pacsim.bench.positions import game_positions
from pacsim.engine import initial_state, play_game
from pacsim.fast.maze_arrays import state_row
from pacsim.fast.memo import HITS, SEARCHES, chase_memo
from pacsim.fast.search import chase_values
from pacsim.search import CHANCE, MAX


def _with_memo(monkeypatch, on, play):
    memos_set(monkeypatch, chase=on, pacman=False, subtree=False)
    return play()


def _memo_counts(layout):
    memo = chase_memo(layout, len(state_row(initial_state(layout, layout.num_ghosts))))
    return int(memo.counts[HITS]), int(memo.counts[SEARCHES])


@pytest.mark.parametrize("seed", [3, 8])  # games that reach the cap (6 was one before the hashed streams)
def test_a_kernel_game_against_the_adversarial_ghost_is_the_same_with_the_memo_on_and_off(monkeypatch, seed):
    """A game that cycles to the move cap: the memo answers the ghost's searches, the game is the same."""
    layout = case_layout("optimismHalls", seed, True)

    def play():
        agents = [make_pacman("expectimax:depth=4,eval=careful"), make_ghost("adversarial")]
        return play_in_kernel(layout, agents, seed, max_moves=120)

    off = _with_memo(monkeypatch, False, play)
    on = _with_memo(monkeypatch, True, play)
    hits, searches = _memo_counts(layout)
    assert off is not None and on is not None and untimed(on) == untimed(off)
    assert on.outcome == "timeout"  # the cycling game the memo is for
    assert searches > 0 and hits > 0


def test_a_true_model_game_is_the_same_with_the_memo_on_and_off(monkeypatch):
    """The Pacman that models the ghost (the star search's adversarial chance model) and the ghost itself."""
    layout = case_layout("optimismHalls", 3, True)

    def play():
        agents = [make_pacman("expectimax:depth=4,eval=careful,model=adversarial:p=0.5"), make_ghost("adversarial:p=0.5")]
        return play_game(layout, agents, seed=3, max_moves=40)

    off = _with_memo(monkeypatch, False, play)
    on = _with_memo(monkeypatch, True, play)
    hits, searches = _memo_counts(layout)
    assert untimed(on) == untimed(off) and on.moves > 10
    assert hits > searches  # most chance nodes are answered by the memo


def test_searches_with_the_adversarial_model_have_the_same_values_with_the_memo_on_and_off(monkeypatch):
    positions = [state for state in game_positions(40, seed=8, turn=0)][:20]

    def search_all():
        return [kernel_search(state, (MAX, CHANCE), "careful", 4, model="adversarial", root_values=True,
                              adversary=(2, 0.75)) for state in positions]

    off = _with_memo(monkeypatch, False, search_all)
    on = _with_memo(monkeypatch, True, search_all)
    assert [(result.value, result.action, result.action_values, replace(result.stats, seconds=0.0)) for result in on] == [
        (result.value, result.action, result.action_values, replace(result.stats, seconds=0.0)) for result in off]


def test_the_slots_the_memo_leaves_out_of_its_key_do_not_change_the_chase_search():
    """The key leaves out the score and Pacman's last direction: the chase
    search (here the Python one, the specification) must not read them."""
    positions = [state for state in game_positions(200, seed=4, layouts=("smallClassic",), turn=None) if state.turn > 0][:25]
    assert positions
    for state in positions:
        other = state._replace(score=state.score - 137, directions=((state.directions[0] + 1) % 5, *state.directions[1:]))
        assert chase_values(other, 4).action_values == chase_values(state, 4).action_values
        python = make_ghost("adversarial:backend=python")
        assert python.searched_values(other) == python.searched_values(state)


def test_the_bench_pairs_true_model_games_with_the_memo_off_and_on(monkeypatch):
    from pacsim.bench import memo
    from pacsim.bench.report import Report
    from pacsim.fast.memo import memo_counts

    memos_set(monkeypatch, chase=False, pacman=False, subtree=False)
    mazes = []  # each game's maze kept alive: the memos are kept by their mazes, and go with them
    made = memo.case_layout
    monkeypatch.setattr(memo, "case_layout", lambda *arguments: mazes.append(made(*arguments)) or mazes[-1])
    hits_after = []  # the memos' hits after the pass without the memo, then after the pass with it
    timed = memo._timed
    monkeypatch.setattr(memo, "_timed", lambda play: (timed(play), hits_after.append(memo_counts()[0]))[0])
    report = Report()
    memo.true_model_games(report, 1)
    assert hits_after[0] == 0 < hits_after[1]  # "no record differs" compares games without the memo with games it served
    figures = {figure.name: figure.value for figure in report.figures}
    assert figures["true-model games whose record differs"] == 0
    assert figures["true-model Pacman, memo off"] > 0 and figures["true-model Pacman, memo on"] > 0
    assert figures["true-model Pacman memo on/off"] == figures["true-model Pacman, memo on"] / figures["true-model Pacman, memo off"]


def test_every_start_of_pacman_in_one_maze_shares_the_memo_and_plays_the_same_games(monkeypatch):
    """``--starts random`` (pacsim reproduce): each start is a layout of its
    own with the same maze; one memo serves them all, and every game is the
    one the memo off plays (rows unchanged)."""
    from pacsim.engine import load_layout
    from pacsim.engine.starts import draw_start, with_pacman_start

    maze = load_layout("optimismHalls")
    starts = [with_pacman_start(maze, draw_start(maze, 1, seed, 6)) for seed in (1, 2, 3, 4)]
    assert len({start.pacman_start for start in starts}) > 1

    def play():
        agents = [make_pacman("expectimax:depth=2,eval=careful"), make_ghost("adversarial")]
        return [play_in_kernel(layout, agents, seed, max_moves=60) for seed, layout in enumerate(starts)]

    off = _with_memo(monkeypatch, False, play)
    on = _with_memo(monkeypatch, True, play)
    assert [untimed(game) for game in on] == [untimed(game) for game in off]
    width = len(state_row(initial_state(maze, 1)))
    assert len({id(chase_memo(layout, width)) for layout in starts}) == 1
    assert _memo_counts(starts[0])[1] > 0  # the games' ghosts searched through that one memo
    # These games never meet a position twice (no hit): that an entry written from one start answers the same
    # position searched from another shows in a searched position instead, as the Pacman that models the ghost does.
    memos_set(monkeypatch, chase=True, pacman=False, subtree=False)

    def modelled(state):
        return kernel_search(state, (MAX, CHANCE), "careful", 4, model="adversarial", root_values=True,
                             adversary=(2, 0.75))

    position = initial_state(starts[0], 1)
    first = modelled(position)
    hits, searches = _memo_counts(starts[0])
    again = modelled(position._replace(layout=starts[1]))  # the same position, from the other start's layout
    assert again.action_values == first.action_values
    assert _memo_counts(starts[1])[0] > hits and _memo_counts(starts[1])[1] == searches  # answered, none searched
