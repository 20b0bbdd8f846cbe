"""The compiled fast path against the readable engine and search.

The kernel must agree with pacsim.engine event for event (random mazes,
random playouts, perft counts on every shipped maze) and with pacsim.search
search for search (value bit for bit, move, node counts), on positions
taken from seeded games.  ``pacsim bench`` runs the same check on 10,000
positions; here a few hundred keep the suite fast.

Cold, the kernel compiles once per test session (about 5 s of CPU; numba
caches it in pacsim/fast/__pycache__, so later sessions and every worker
process load it in well under a second).
"""

import random
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from optional import missing, needed

needed("numba", "pip install -e '.[fast]'")

from pacsim.agents import make_ghost, make_pacman
from pacsim.bench.agreement import SPECS, compare_chase, compare_searches
from pacsim.bench.positions import game_positions
from pacsim.engine import apply_move, initial_state, load_layout, parse_layout
from pacsim.engine.layout import ACTIONS, shipped_layouts
from pacsim.errors import AgentError
from pacsim.fast import kernel
from pacsim.fast.maze_arrays import layout_tables, row_state, state_row, words_for
from pacsim.runner.row import TIMING_COLUMNS


@st.composite
def mazes(draw):
    """Small open mazes with up to three ghosts and many capsules, so that
    scared ghosts, waiting ghosts and ghosts sent home all happen."""
    height, width = draw(st.integers(2, 6)), draw(st.integers(2, 8))
    cells = [(r, c) for r in range(1, height + 1) for c in range(1, width + 1)]
    chars = {cell: draw(st.sampled_from("%...oo  ")) for cell in cells}
    pacman, food, *ghosts = draw(st.lists(st.sampled_from(cells), min_size=2, max_size=5, unique=True))
    chars[pacman], chars[food] = "P", "."
    for ghost in ghosts:
        chars[ghost] = "G"
    rows = ["%" * (width + 2)]
    rows += ["%" + "".join(chars[(r, c)] for c in range(1, width + 1)) + "%" for r in range(1, height + 1)]
    rows.append("%" * (width + 2))
    return "\n".join(rows)


def kernel_moves(tables, state):
    actions = np.zeros(5, np.int64)
    targets = np.zeros(5, np.int64)
    count = kernel.legal_moves(tables.moves, len(state.ghosts), state_row(state), actions, targets)
    return [(ACTIONS[actions[index]], int(targets[index])) for index in range(count)]


def kernel_successor(tables, state, action, target):
    parent = state_row(state)
    child = np.zeros_like(parent)
    kernel.apply_move(tables.ghost_starts, len(state.ghosts), words_for(state.layout), parent, child,
                      ACTIONS.index(action), target)
    return row_state(child, state.layout, len(state.ghosts))


@settings(max_examples=120, deadline=None)
@given(mazes(), st.integers(0, 2**32 - 1))
def test_kernel_rules_equal_the_engine_on_random_playouts(text, seed):
    layout = parse_layout(text)
    tables = layout_tables(layout)
    state = initial_state(layout)
    rng = random.Random(seed)
    for _ in range(300):
        assert kernel_moves(tables, state) == list(state.legal_moves())
        if state.is_terminal:
            break
        action, target = rng.choice(state.legal_moves())
        expected = apply_move(state, action, target)
        # Every field: positions, directions, timers, food, capsules, score, turn, status.
        assert kernel_successor(tables, state, action, target) == expected
        state = expected


def python_perft(state, levels):
    if levels == 0 or state.status:
        return 0
    return sum(1 + python_perft(apply_move(state, action, target), levels - 1)
               for action, target in state.legal_moves())


@pytest.mark.parametrize("name", sorted(shipped_layouts()))
def test_perft_counts_equal_on_every_shipped_maze(name):
    layout = load_layout(name)
    tables = layout_tables(layout)
    rng = random.Random(name)
    state = initial_state(layout)
    for _ in range(40):  # a position with the ghosts out and about
        moves = state.legal_moves()
        if not moves:
            break
        following = apply_move(state, *rng.choice(moves))
        if following.is_terminal:
            break
        state = following
    for start in (initial_state(layout), state):
        levels = 7 if len(start.ghosts) < 3 else 6
        found = kernel.perft(tables.moves, tables.ghost_starts, len(start.ghosts), words_for(layout),
                             state_row(start), levels)
        assert found == python_perft(start, levels)


def test_state_rows_round_trip_with_food_beyond_one_word():
    layout = load_layout("wideClassic")  # more cells than one 32-bit word holds
    state = initial_state(layout)
    assert words_for(layout) > 1
    assert row_state(state_row(state), layout, len(state.ghosts)) == state


SURE_FOOTED = tuple(spec for spec in SPECS if "slip" not in spec)
SLIPPERY = tuple(spec for spec in SPECS if "slip" in spec)
"""A slippery Pacman's Python search costs several times the others': fewer positions for it."""


def test_searches_agree_with_python_on_positions_from_games():
    positions = game_positions(100)
    report = compare_searches(positions, depth=2, specs=SURE_FOOTED)
    assert report.searches == 100 * len(SURE_FOOTED)
    assert report.agrees, report.mismatches[:5]


def test_searches_agree_deeper_with_every_root_value():
    positions = game_positions(12, seed=99)
    report = compare_searches(positions, depth=3, root_values=True, specs=SURE_FOOTED)
    assert report.agrees, report.mismatches[:5]


def test_slippery_searches_agree_with_python():
    positions = game_positions(20, seed=13)
    report = compare_searches(positions, depth=2, specs=SLIPPERY, root_values=True)
    deeper = compare_searches(positions[::10], depth=3, specs=SLIPPERY)
    assert report.searches == 20 * len(SLIPPERY) and report.agrees and deeper.agrees, (report.mismatches + deeper.mismatches)[:5]


def test_adversarial_ghost_distribution_agrees_with_python():
    positions = [state for state in game_positions(200, seed=3, turn=None) if state.turn > 0][:60]
    report = compare_chase(positions)
    assert report.searches == 60 and report.agrees, report.mismatches[:5]


def test_same_game_with_the_fast_path_on_and_off():
    from pacsim.engine import play_game

    layout = load_layout("smallClassic")
    records = []
    for engine in ("python", "fast"):
        agents = [make_pacman(f"expectimax:depth=2,eval=careful,backend={engine}")]
        agents += [make_ghost(f"adversarial:backend={engine}"), make_ghost("directional")]
        records.append(play_game(layout, agents, seed=11, max_moves=60))
    python, fast = records
    assert fast.actions == python.actions and fast.score == python.score
    assert [stats.generated for stats in fast.search_stats] == [stats.generated for stats in python.search_stats]
    assert [stats.value for stats in fast.search_stats] == [stats.value for stats in python.search_stats]
    assert {stats.backend for stats in fast.search_stats} == {"fast"} and {stats.backend for stats in python.search_stats} == {"python"}


def test_unsupported_configurations_fall_back_and_say_so_once(capsys, monkeypatch):
    import pacsim.agents.notes

    monkeypatch.setattr(pacsim.agents.notes, "_said", set())  # as in a fresh process
    state = initial_state(load_layout("tinyGhostMaze"))
    agent = make_pacman("expectimax:depth=2,eval=pacsim.agents.evaluation:careful")
    first = agent.analyze(state, root_values=False)
    agent.analyze(state, root_values=False)
    said = capsys.readouterr().err
    assert said.count("searches in Python") == 1 and "eval=pacsim.agents.evaluation:careful" in said
    python = make_pacman("expectimax:depth=2,eval=careful,backend=python")
    assert first.action == python.analyze(state, root_values=False).action


def test_engine_fast_refuses_what_it_cannot_run_when_the_agent_is_made():
    with pytest.raises(AgentError, match=r"backend=fast: the fast path does not cover eval=pacsim\.agents\.evaluation:careful"):
        make_pacman("expectimax:depth=2,eval=pacsim.agents.evaluation:careful,backend=fast")


def test_the_environment_switch_turns_the_fast_path_off(monkeypatch):
    import pacsim.fast.search

    state = initial_state(load_layout("tinyGhostMaze"))
    monkeypatch.setenv("PACSIM_BACKEND", "python")
    monkeypatch.setattr(pacsim.fast.search, "run_request", None)  # any kernel search would fail
    result = make_pacman("minimax:depth=2").analyze(state)
    assert result.action is not None


def test_bench_pairs_every_fast_figure_with_its_python_counterpart():
    from pacsim.bench.agreement import fast_agreement
    from pacsim.bench.fast import fast_figures, star_figures
    from pacsim.bench.mcts import mcts_figures
    from pacsim.bench.report import Report
    from pacsim.bench.search import search_figures

    report = Report()
    search_figures(report, depths=(1,), evaluations=("score",), count=1, repeats=1)
    fast_figures(report, depths=(1,), evaluations=("score",), count=1, repeats=1, deep_count=1)
    star_figures(report, depth=1, count=2, repeats=1)
    mcts_figures(report, iterations=20, count=1)
    fast_agreement(report, positions=20, deep_positions=5, chase_positions=5)
    names = {figure.name: figure for figure in report.figures}
    for algorithm in ("minimax", "alphabeta", "expectimax"):
        assert names[f"score depth 1 {algorithm} fast nodes/s"].value > 0
        assert f"score depth 1 {algorithm} nodes/s" in names  # the Python figure it pairs with
        assert names[f"score depth 1 {algorithm} fast/python"].unit == "ratio"
    assert names["careful depth 6 expectimax fast median move"].value > 0
    for label in ("star2+table", "star1"):
        assert names[f"careful depth 1 {label} fast nodes/s"].value > 0 and names[f"careful depth 1 {label} nodes/s"].value > 0
        assert names[f"careful depth 1 {label} fast/python"].unit == "ratio"
    assert "target 20x" in names["careful depth 1 star2+table fast/python"].note
    for ghosts in ("chance", "min"):
        assert names[f"ghosts={ghosts} fast iterations/s"].value > 0 and names[f"ghosts={ghosts} iterations/s"].value > 0
        assert "target 20x" in names[f"ghosts={ghosts} fast/python"].note
    disagreements = [figure for figure in report.figures if figure.name.endswith("disagreements")]
    assert len(disagreements) == 3 and all(figure.value == 0 for figure in disagreements)


def test_optimism_experiment_rows_are_identical_with_the_fast_path_on_and_off(tmp_path, monkeypatch):
    import pacsim
    import pacsim.fast.game
    from pacsim.runner import InlineExecutor, load_experiment, run_experiment

    experiment_file = benchmark_experiment()
    calls = []
    whole_game = pacsim.fast.game.play_kernel_game  # every game of it is played in the kernel as a whole
    monkeypatch.setattr(pacsim.fast.game, "play_kernel_game", lambda *args, **kwargs: calls.append(1) or whole_game(*args, **kwargs))
    frames = []
    for engine in ("python", "auto"):
        monkeypatch.setenv("PACSIM_BACKEND", engine)
        experiment = load_experiment(experiment_file, games=1, overrides=["max_moves=20"])
        store = tmp_path / f"{engine}.sqlite"
        run_experiment(experiment, executor=InlineExecutor(), workers=1, store_path=store, quiet=True)
        # Besides timing, searched_by differs on purpose: it says which of the two searched.
        frames.append(pacsim.load_results(store).drop(columns=["id", "searched_by", *TIMING_COLUMNS]).reset_index(drop=True))
    python, fast = frames
    assert len(python) == 4 and python["nodes"].sum() > 0 and len(calls) == 4
    assert python.equals(fast)


def benchmark_experiment():
    from pacsim.bench.throughput import THROUGHPUT_EXPERIMENT

    if not THROUGHPUT_EXPERIMENT.is_file():
        missing("the experiment files ship with the source checkout: run the tests from one")
    return THROUGHPUT_EXPERIMENT


def declined_at(agent, state):
    """Why the kernel declines ``agent``'s search of ``state``, or None."""
    from pacsim.fast.request import declined

    return declined(agent.search_request(len(state.ghosts), agent.levels(state), state.layout.num_cells))


def test_a_subclass_with_its_own_game_searches_in_python():
    from pacsim.agents.search_agents import ExpectimaxPacman

    class Custom(ExpectimaxPacman):
        def game_for(self, state):
            return super().game_for(state)

    class OwnEvaluation(ExpectimaxPacman):
        def __init__(self, options=None):
            super().__init__(options)
            self.evaluate = lambda state: state.score

    state = initial_state(load_layout("tinyGhostMaze"))
    assert declined_at(Custom(), state) == "the fast path does not cover a Custom with its own game_for()"
    assert "eval=OwnEvaluation.evaluate" in declined_at(OwnEvaluation(), state)
    assert declined_at(ExpectimaxPacman(), state) is None


@settings(max_examples=60, deadline=None)
@given(mazes(), st.integers(0, 2**32 - 1), st.sampled_from(range(len(SPECS))), st.integers(0, 60))
def test_searches_agree_on_random_mazes(text, seed, spec_index, steps):
    layout = parse_layout(text)
    state = initial_state(layout)
    rng = random.Random(seed)
    for step in range(steps * (len(state.ghosts) + 1) + 200):  # often scared or waiting ghosts
        if step >= steps * (len(state.ghosts) + 1) and state.turn == 0:
            break
        following = apply_move(state, *rng.choice(state.legal_moves()))
        if following.is_terminal:
            break
        state = following
    if state.turn != 0:
        return
    report = compare_searches([state], depth=2, specs=(SPECS[spec_index],), root_values=bool(seed & 1))
    assert report.agrees, report.mismatches


def test_the_kernel_recompiles_when_a_rule_or_number_it_takes_in_changes():
    # The kernel imports the engine's and the evaluations' numbers and
    # compiles functions written once; numba bakes both into its cached
    # machine code, so their files must be among those that flush it.
    from inspect import getfile

    from pacsim.engine import layout, state
    from pacsim.fast import evaluations, kinds, policies

    for rule in (*state.RULES, *evaluations.RULES, *policies.RULES):
        assert getfile(rule) in policies.RULE_SOURCES, rule
    for module in (layout, state, evaluations, policies, kinds):
        assert module.__file__ in kernel.SOURCES, module
    assert ACTIONS[kernel.STOP] == layout.STOP


def test_star2_with_a_table_plays_the_same_game_with_the_fast_path_on_and_off():
    # The table lives through the game (cleared between games): both
    # backends' tables must hold the same entries move after move.
    from fasttools import assert_same_games_on_and_off

    pacman = assert_same_games_on_and_off("expectimax:depth=2,eval=careful,algorithm=star2,table=2000", (3, 4), 40)
    assert declined_at(pacman, initial_state(load_layout("smallClassic"))) is None


def test_bench_end_to_end_figures_pair_the_fast_path_off_and_on(tmp_path):
    from pacsim.bench.fast import fast_end_to_end
    from pacsim.bench.report import Report

    text = benchmark_experiment().read_text(encoding="utf-8")
    short = tmp_path / "optimism_pessimism.toml"  # the figures' plumbing, not their size: games of two moves
    short.write_text(text.replace("max_moves = 300", "max_moves = 2"), encoding="utf-8")
    assert short.read_text(encoding="utf-8") != text
    report = Report()
    fast_end_to_end(report, games_per_condition=1, experiment_path=short)
    names = [figure.name for figure in report.figures]
    assert names == ["optimism_pessimism, fast path off", "optimism_pessimism, fast path on",
                     "optimism_pessimism fast/python"]
    assert all(figure.value > 0 for figure in report.figures) and "target 20x" in report.figures[-1].note


def test_a_slippery_pacman_plays_the_same_game_with_the_fast_path_on_and_off():
    from pacsim.engine import play_game

    layout = load_layout("smallClassic")
    records = []
    for engine in ("python", "fast"):
        agents = [make_pacman(f"expectiminimax:depth=1,eval=careful,slip=0.2,backend={engine}"), make_ghost("random"),
                  make_ghost("directional")]
        records.append(play_game(layout, agents, seed=5, max_moves=40))
    python, fast = records
    # Besides the time, the backend differs on purpose.
    untimed = [[replace(stats, seconds=0.0, backend="python") for stats in record.search_stats] for record in records]
    assert fast.actions == python.actions and untimed[0] == untimed[1] and fast.moves > 10
    assert all(stats.depth == 4 for stats in fast.search_stats)  # Pacman, his slip, two ghosts


def test_the_kernels_algorithm_table_agrees_with_the_searchs():
    # Declared beside the kernel (pacsim.fast.kinds); the readable search has its own record.
    from pacsim.fast.kinds import KERNEL_ALGORITHMS
    from pacsim.search import ALGORITHMS

    for name, (pruned, mode) in KERNEL_ALGORITHMS.items():
        assert (ALGORITHMS[name].pruned, ALGORITHMS[name].chance_mode) == (pruned, mode.label), name


def test_every_kind_is_numbered_once():
    from pacsim.fast import kinds

    for table in (kinds.GhostKind, kinds.Evaluation, kinds.NodeKind, kinds.ChanceMode):
        assert sorted(member.value for member in table) == list(range(len(table))), table


def test_no_compiled_function_takes_more_than_ten_parameters():
    # Named bundles (pacsim.fast.bundles), not walls of arrays.
    import inspect

    from pacsim.fast import gameloop, mcts, star
    from pacsim.fast.cache import compiled_functions

    for module in (kernel, star, mcts, gameloop):
        for function in compiled_functions(module.__name__, vars(module)):
            assert len(inspect.signature(function.py_func).parameters) <= 10, function.py_func.__name__


def test_each_kernel_function_is_compiled_for_one_signature(monkeypatch):
    # Compiled code that hands another kernel function a literal (True, 1)
    # makes numba compile that function again, typed for the literal: a
    # second plain search, seconds of compiling in every fresh checkout.
    # numba's cache index lists the signatures each function was compiled for.
    from pacsim.agents.whole_game import play_in_kernel
    from pacsim.fast import aot, gameloop, mcts, star
    from pacsim.fast.cache import compiled_functions
    from pacsim.fast.search import warm_up

    monkeypatch.setenv("PACSIM_KERNEL", "jit")  # numba's path, not the ahead-of-time module's
    aot._exports.cache_clear()
    try:  # loaded from numba's cache after the suite's warm-up, compiled otherwise
        warm_up(star=True)
        mcts.warm_up()
        agents = [make_pacman("minimax:depth=2"), make_ghost("adversarial")]
        assert play_in_kernel(load_layout("optimismHalls"), agents, 3, max_moves=4) is not None
    finally:
        aot._exports.cache_clear()
    signatures = {}
    for module in (kernel, star, mcts, gameloop):
        for function in compiled_functions(module.__name__, vars(module)):
            index = getattr(function._cache, "_cache_file", None)  # numba's own index: it has no public reader
            if index is not None:
                # keyed by signature, machine and flags: a folder shared by two machines holds one signature twice
                signatures[function.py_func.__name__] = {key[0] for key in index._load_index()}
    for entry in ("search_root", "star_search_root", "new_node", "search_position", "play_slice"):
        assert len(signatures[entry]) == 1, (entry, signatures[entry])
    assert all(len(types) <= 1 for types in signatures.values()), {name: types for name, types in signatures.items()
                                                                      if len(types) > 1}
