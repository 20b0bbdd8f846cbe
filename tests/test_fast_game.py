"""Whole games in the kernel against the Python game loop.

A game the kernel plays must be the game ``play_game`` plays with the same
agents and seed: the same actions, outcome, score, move count and per-move
search statistics (node counts, values, depths), times apart.  The ghosts'
dice are Python's own Mersenne Twister replayed in numba, so the streams
are checked draw for draw first.
"""

import random

import pytest
from fasttools import memos_set
from optional import needed

needed("numba", "pip install -e '.[fast]'")

from pacsim.agents import make_ghost, make_pacman
from pacsim.agents.whole_game import play_in_kernel
from pacsim.bench.agreement import case_layout, compare_whole_games, untimed, whole_game_cases
from pacsim.engine import load_layout, play_game
from pacsim.fast import gameloop, streams


@pytest.mark.parametrize("seed", ["pacsim:7:0", "pacsim:2026:1", 12345])
def test_the_kernel_draws_pythons_random_numbers(seed):
    python = random.Random(seed)
    row = streams.stream_row(python)
    for count in [1, 2, 3, 5, 4, 1, 7, 3, 1000, 2**31 + 5, 2**32 - 1] * 100:  # the twist happens several times
        assert streams.random_float(row) == python.random()
        assert streams.random_below(row, count) == python.randrange(count)
    assert list(row) == list(python.getstate()[1])


DEEPER = [  # the bench's cases search at depth 1 and 2; these at 3 and 4, in the loop with the per-move kernel
    ("optimismHalls", "minimax:depth=4,eval=careful", ("adversarial",), 5497, False),
    ("optimismHalls", "expectimax:depth=4,eval=careful,ties=random", ("random",), 17, True),
    ("smallClassic", "alphabeta:depth=3", ("adversarial:p=0.7", "directional"), 7772, False),
    ("generated:w=11,h=9,food=5,capsules=1,ghosts=2,loops=0.4,seed=3", "expectimax:depth=3,model=directional,trust=0.7",
     ("directional:attack=0.6,flee=0.9", "adversarial"), 8484, True),
]


def test_kernel_games_are_the_python_loops_games_with_every_agent_searching_in_python():
    """The bench's agreement check on 21 games: 4 mazes (one generated),
    random starts, every ghost kind, every algorithm, ties first and random."""
    report = compare_whole_games(21)
    assert report.searches == 21 and report.positions > 300 and report.agrees, report.mismatches


@pytest.mark.parametrize(("maze", "pacman", "ghosts", "seed", "random_start"), DEEPER)
def test_deeper_kernel_games_are_the_python_loops_games(maze, pacman, ghosts, seed, random_start):
    layout = case_layout(maze, seed, random_start)

    def agents():
        return [make_pacman(pacman)] + [make_ghost(ghost) for ghost in ghosts]

    kernel = play_in_kernel(layout, agents(), seed, max_moves=60)
    python = play_game(layout, agents(), seed=seed, max_moves=60)
    assert kernel is not None and untimed(kernel) == untimed(python)
    assert len(kernel.move_seconds) == kernel.moves and all(seconds > 0 for seconds in kernel.move_seconds)


def test_the_bench_cases_cross_mazes_ghosts_and_starts():
    cases = list(whole_game_cases(21))
    assert {case[0] for case in cases} >= {"optimismHalls", "smallClassic"} and any(case[4] for case in cases)
    assert {ghost.split(":")[0] for case in cases for ghost in case[2]} == {"random", "directional", "adversarial"}


def test_a_game_paused_every_few_nodes_is_the_same_game(monkeypatch):
    import pacsim.fast.game
    from pacsim.engine import initial_state
    from pacsim.fast.maze_arrays import state_row
    from pacsim.fast.memo import SEARCHES, chase_memo

    layout = load_layout("optimismHalls")

    def agents():
        return [make_pacman("expectimax:depth=2,eval=careful,ties=random"), make_ghost("adversarial:p=0.9")]

    memos_set(monkeypatch, chase=True, pacman=False, subtree=True)  # the Pacman memo would answer the second game from the first
    whole = play_in_kernel(layout, agents(), 3, max_moves=40)
    slices = []
    play_slice = gameloop.play_slice
    monkeypatch.setattr(pacsim.fast.game, "FIRST_GAME_SLICE", 7)
    monkeypatch.setattr(pacsim.fast.game, "SMALLEST_SLICE", 7)
    monkeypatch.setattr(pacsim.fast.game, "SLICE_SECONDS", 0.0)
    monkeypatch.setattr(gameloop, "play_slice", lambda *arguments: slices.append(1) or play_slice(*arguments))
    memos_set(monkeypatch, chase=True, pacman=False, subtree=True)  # else the ghost's memo answers every search of the first

    def ghost_searches():
        return int(chase_memo(layout, len(state_row(initial_state(layout, 1)))).counts[SEARCHES])

    before = ghost_searches()
    paused = play_in_kernel(layout, agents(), 3, max_moves=40)
    assert untimed(paused) == untimed(whole) and len(slices) > 10 * whole.moves
    assert ghost_searches() > before  # the paused game's ghost searched (with the first game's memo, none did)


@pytest.mark.parametrize(("pacman", "ghost", "time_limit"), [
    ("minimax:depth=2", "random", 1.0),  # a move time limit: the Python loop enforces it
    ("minimax:depth=2,backend=python", "random", None),
    ("minimax:depth=2,time=0.5", "random", None),
    ("expectimax:depth=2,algorithm=star1", "random", None),
    ("expectimax:depth=2,model=adversarial", "random", None),
    ("greedy", "random", None),
    ("minimax:depth=2", "adversarial:backend=python", None),
])
def test_what_the_kernel_does_not_cover_is_left_to_python(pacman, ghost, time_limit):
    layout = load_layout("tinyGhostMaze")
    agents = [make_pacman(pacman), make_ghost(ghost)]
    assert play_in_kernel(layout, agents, 1, max_moves=10, move_time_limit=time_limit) is None


def test_the_environment_switch_leaves_whole_games_to_python(monkeypatch):
    monkeypatch.setenv("PACSIM_BACKEND", "python")
    agents = [make_pacman("minimax:depth=1"), make_ghost("random")]
    assert play_in_kernel(load_layout("tinyGhostMaze"), agents, 1, max_moves=10) is None


def test_a_subclass_of_a_built_in_agent_is_left_to_python():
    from pacsim.agents.ghosts import RandomGhost
    from pacsim.agents.search_agents import MinimaxPacman

    class Stubborn(RandomGhost):
        def distribution(self, state):
            return [(state.legal_actions()[0], 1.0)]

    class Careful(MinimaxPacman):
        pass

    layout = load_layout("tinyGhostMaze")
    assert play_in_kernel(layout, [make_pacman("minimax:depth=1"), Stubborn()], 1, max_moves=10) is None
    assert play_in_kernel(layout, [Careful(), make_ghost("random")], 1, max_moves=10) is None


def test_an_agent_class_that_declares_the_kernel_plays_it_is_played_in_the_kernel():
    """Whether the kernel plays an agent is the agent's class's declaration
    (``kernel_plays``), not its identity: a subclass that plays as its base
    may say so, and one that does not stays in Python."""
    from pacsim.agents.ghosts import RandomGhost
    from pacsim.agents.search_agents import MinimaxPacman

    class Declared(MinimaxPacman):
        kernel_plays = True

    class Undeclared(Declared):
        pass

    class DeclaredGhost(RandomGhost):
        kernel_plays = True

    layout = load_layout("tinyGhostMaze")
    python = play_game(layout, [make_pacman("minimax:depth=1,backend=python"), make_ghost("random")], seed=1, max_moves=10)
    declared = play_in_kernel(layout, [Declared(make_pacman("minimax:depth=1").options), DeclaredGhost()], 1, max_moves=10)
    assert declared is not None and untimed(declared) == untimed(python)
    assert not Undeclared.kernel_plays and not MinimaxPacman.__base__.kernel_plays
    assert play_in_kernel(layout, [Undeclared(make_pacman("minimax:depth=1").options), DeclaredGhost()], 1, max_moves=10) is None


@pytest.mark.parametrize("pacman", ["expectimax:depth=1,eval=careful,algorithm=star2", "minimax:depth=1,table=100",
                                    "expectimax:depth=1,model=adversarial"])
def test_a_pacman_the_per_move_kernel_runs_with_its_star_search_is_left_to_the_python_loop(pacman):
    # The game loop runs the plain search only; the per-move kernel serves these.
    layout = load_layout("tinyGhostMaze")
    assert play_in_kernel(layout, [make_pacman(pacman), make_ghost("random")], 1, max_moves=10) is None
    record = play_game(layout, [make_pacman(pacman), make_ghost("random")], seed=1, max_moves=5)
    assert {move.backend for move in record.search_stats} == {"fast"}


def test_the_game_loops_cache_is_flushed_when_the_kernel_changes(tmp_path):
    """numba checks only a cached function's own file; the game loop carries
    compiled copies of the kernel's search, so a changed kernel must empty
    its cache (else it would play with the old search)."""
    from pacsim.fast.cache import flush_when_changed

    class Cache:
        cache_path = str(tmp_path)
        flushed = 0

        def flush(self):
            Cache.flushed += 1

    class Function:
        _cache = Cache()

    source = tmp_path / "kernel.py"
    source.write_text("old kernel")
    assert flush_when_changed("loop", [Function(), Function()], [source]) and Cache.flushed == 2  # no stamp yet
    assert not flush_when_changed("loop", [Function()], [source]) and Cache.flushed == 2
    source.write_text("new kernel")
    assert flush_when_changed("loop", [Function()], [source]) and Cache.flushed == 3
    assert gameloop.compiled_functions(gameloop.__name__, vars(gameloop))  # the game loop's own are found
