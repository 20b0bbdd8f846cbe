"""A user's own ghost policy in the kernel (issue 28 item 4): a function of a
:class:`pacsim.fast.view.View` and the ghost's :class:`~pacsim.fast.view.Moves`,
marked with ``pacsim.kernel_ghost``; the kernel computes its distribution as
Python does; one numba cannot compile plays in Python, saying why in one
line; a bad distribution is an error naming it.

Whole games around an own ghost, and searches modelling one, compile a copy
of the kernel around the policy each (7-15 s of CPU): their equality with
Python is ``pacsim bench``'s agreement group (pacsim.bench.own:
AGREEMENT_GAMES, MODEL_SPECS, REFUSED_GAMES), whose wiring and comparisons
the tests here check with Python standing in for the kernel.  The suite's
copy of the kernel around a user's function is the own evaluation's
(tests/test_own.py, tests/test_own_searches.py)."""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np
import pytest
from optional import needed

needed("numba", "pip install -e '.[fast]'")

from pacsim import kernel_ghost
from pacsim.agents import make_ghost, make_pacman
from pacsim.agents.ghosts import KernelGhost, own_distribution
from pacsim.agents.whole_game import play_in_kernel
from pacsim.bench.agreement import MCTS_COUNTS, MCTS_FIELDS, result_difference
from pacsim.bench.positions import game_positions
from pacsim.engine import apply_move, load_layout, play_game
from pacsim.engine.stats import FAST, PYTHON
from pacsim.errors import AgentError
from pacsim.fast.request import settings_declined
from pacsim.fast.view import is_kernel_ghost, moves_of
from pacsim.shipped import shipped_path

EXAMPLE = str(shipped_path("examples/kernel_ghost.py").resolve())
CUTTER = f"{EXAMPLE}:cutter"
WANDERS = f"{EXAMPLE}:wanders"
CARELESS = f"{EXAMPLE}:careless"
HUNGRY = f"{shipped_path('examples/kernel_eval.py').resolve()}:hungry"
@pytest.fixture(scope="module")
def positions() -> list[Any]:
    return game_positions(12)


def ghost_to_move(state: Any) -> Any:
    """``state`` after Pacman's first legal move: ghost 1 to move."""
    action, target = state.legal_moves()[0]
    return apply_move(state, action, target)


def test_the_kernel_computes_the_distribution_python_does(positions):
    """The compiled policy (what the game loop and the searches call) and
    ``KernelGhost.distribution`` give the same floats, scared ghosts included."""
    from pacsim.fast.maze_arrays import layout_tables, state_row
    from pacsim.fast.own import own_ghost_probabilities
    from pacsim.fast.translate import settings_row

    ghost: Any = make_ghost(CUTTER)
    probabilities = own_ghost_probabilities(type(ghost).policy)
    checked = 0
    for state in positions:
        after = ghost_to_move(state)
        if after.status != 0:
            continue
        for scared in (0, 7):  # 7: scared and moving this turn (odd timers wait)
            position = after._replace(scared=tuple(scared + 1 if scared else 0 for _ in after.scared))
            moves = moves_of(position)
            out = np.zeros(5, np.float64)
            settings = settings_row(position, 0, 0, 0, False, [0] * position.num_agents)
            verdict = probabilities(layout_tables(position.layout), settings, state_row(position), moves.count,
                                    moves.actions.copy(), moves.targets.copy(), out)
            assert verdict == -1
            python = ghost.distribution(position)
            assert [probability for _, probability in python] == list(out[:moves.count])
            checked += 1
    assert checked >= 10


def python_as_kernel(layout, agents, seed, max_moves):
    """Stands in for :func:`~pacsim.agents.whole_game.play_in_kernel`: the game Python plays, its searches
    marked as the kernel's (so that nothing compiles)."""
    record = play_game(layout, agents, seed=seed, max_moves=max_moves)
    return dataclasses.replace(record, search_stats=[dataclasses.replace(moved, backend=FAST)
                                                     for moved in record.search_stats])


def test_the_bench_agreement_group_reports_each_own_check_and_its_first_disagreement(monkeypatch):
    """The checks moved out of the suite for their compile time (star
    searches and their tables, games with an own evaluation or a bad
    distribution, searches with an own evaluation beside an own model) are
    the bench's: each is a figure that wants 0 and names its first
    disagreement (the comparisons themselves run in ``pacsim bench``)."""
    import pacsim.bench.agreement
    import pacsim.bench.own
    from pacsim.bench.agreement import Agreement
    from pacsim.bench.report import Report

    compared: dict[str, Any] = {}

    def searches(positions, depth, specs, root_values):
        compared["specs"] = specs
        return Agreement(positions=len(positions), searches=len(positions) * len(specs))

    def check(name, mismatches=()):
        def compare(*arguments):
            compared[name] = arguments[1:] if name in ("star", "tables", "mcts") else arguments
            return Agreement(positions=50, searches=3, mismatches=list(mismatches))
        return compare

    monkeypatch.setattr(pacsim.bench.agreement, "compare_searches", searches)
    monkeypatch.setattr(pacsim.bench.own, "compare_own_star", check("star"))
    monkeypatch.setattr(pacsim.bench.own, "compare_own_tables", check("tables"))
    monkeypatch.setattr(pacsim.bench.own, "compare_own_mcts", check("mcts"))
    monkeypatch.setattr(pacsim.bench.own, "compare_own_games", check("games", ["seed 3: a different game"]))
    monkeypatch.setattr(pacsim.bench.own, "compare_refused_games", check("refused"))
    report = Report()
    pacsim.bench.own.own_agreement(report, positions=3, games=2)
    figures = {figure.name: figure.value for figure in report.figures if figure.group == "fast path agreement"}
    assert compared["specs"][0] == f"expectimax:depth={{depth}},model={CUTTER},eval={HUNGRY}"
    assert len(compared["specs"]) > 1 and all(f"model={CUTTER}" in spec for spec in compared["specs"])
    assert compared["star"] == compared["tables"] == compared["mcts"] == (HUNGRY,)
    assert compared["games"] == ({"evaluation": HUNGRY, "ghost": CUTTER}, 2)
    assert compared["refused"] == (CARELESS,)
    assert figures == {"users' functions: searches: disagreements": 0,
                       "users' functions: star searches: disagreements": 0,
                       "users' functions: star tables along a game: disagreements": 0,
                       "users' functions: MCTS: disagreements": 0,
                       "users' functions: whole games: disagreements": 1,
                       "users' functions: a bad distribution's games: disagreements": 0}
    [note] = [figure.note for figure in report.figures if figure.name.startswith("users' functions: whole games")]
    assert note.endswith("first: seed 3: a different game")
    games = pacsim.bench.own.AGREEMENT_GAMES
    assert {ghosts for pacman, ghosts in games if "model={ghost}" in pacman} >= {("{ghost}", "{ghost}")}  # not the suite's
    assert {ghosts for pacman, ghosts in games if "{evaluation}" in pacman} >= {("random", "random"), ("adversarial", "adversarial")}


def test_the_bench_own_checks_find_a_kernel_that_disagrees(positions, monkeypatch):
    """The bench's comparisons are not vacuous: a kernel game with a changed
    score is a disagreement, a bad distribution's game that the kernel
    plays through is one (the kernel stood in by Python, so nothing compiles),
    and so is an MCTS tree grown from another seed."""
    import pacsim.bench.own
    from pacsim.agents import whole_game

    def altered(layout, agents, seed, max_moves):
        record = python_as_kernel(layout, agents, seed, max_moves)
        return dataclasses.replace(record, score=record.score + 1)

    monkeypatch.setattr(whole_game, "play_in_kernel", altered)
    monkeypatch.setattr(pacsim.bench.own, "AGREEMENT_GAMES", (("expectimax:depth=1,eval=careful", ("random",)),))
    agreement = pacsim.bench.own.compare_own_games({"evaluation": HUNGRY, "ghost": CUTTER}, 1)
    assert agreement.searches == 1 and agreement.mismatches == ["expectimax:depth=1,eval=careful against "
                                                                "('random',), seed 3: a different game"]
    monkeypatch.setattr(pacsim.bench.own, "REFUSED_GAMES", pacsim.bench.own.REFUSED_GAMES[:1])
    refused = pacsim.bench.own.compare_refused_games(CARELESS)
    assert refused.searches == 1 and len(refused.mismatches) == 1
    assert refused.mismatches[0].endswith("the kernel played past the bad distribution")
    mcts: Any = make_pacman(f"mcts:iterations=40,eval={HUNGRY},backend=python")
    same, other = mcts.analyze(positions[0], seed=1), mcts.analyze(positions[0], seed=2)
    assert result_difference(same, mcts.analyze(positions[0], seed=1), MCTS_FIELDS, MCTS_COUNTS) == ""
    assert result_difference(same, other, MCTS_FIELDS, MCTS_COUNTS) != ""  # another seed, another tree


def test_ghosts_of_two_own_policies_play_in_python():
    @kernel_ghost
    def towards(view, moves, out):
        for index in range(moves.count):
            out[index] = 1.0 / moves.count

    from pacsim.agents.ghosts import kernel_ghost_class

    layout = load_layout("smallClassic")
    agents = [make_pacman("expectimax:depth=1"), make_ghost(CUTTER), kernel_ghost_class(towards)()]
    assert play_in_kernel(layout, agents, seed=1, max_moves=20) is None


def test_a_ghost_numba_cannot_compile_plays_in_python_saying_why_once(positions, capsys):
    layout = load_layout("smallClassic")
    for seed in (1, 2):
        agents = [make_pacman("expectimax:depth=1"), make_ghost(WANDERS)]
        assert play_in_kernel(layout, agents, seed=seed, max_moves=20) is None
    said = capsys.readouterr().err.strip().splitlines()
    assert len(said) == 1, said
    assert said[0].startswith("pacsim: ghost wanders plays in Python: numba cannot compile wanders(): "), said
    record = play_game(layout, [make_pacman("expectimax:depth=1"), make_ghost(WANDERS)], seed=1, max_moves=20)
    assert record.error is None and record.moves == 20
    with pytest.raises(AgentError, match="numba cannot compile wanders"):
        make_ghost(f"{WANDERS}:backend=fast")


def test_a_model_numba_cannot_compile_searches_in_python_saying_why(positions, capsys):
    agent: Any = make_pacman(f"expectimax:depth=2,model={WANDERS}")
    python: Any = make_pacman(f"expectimax:depth=2,model={WANDERS},backend=python")
    result, searched_by = agent._search_with_backend(positions[0], None, True)
    assert searched_by == PYTHON and result_difference(python.analyze(positions[0]), result) == ""
    said = capsys.readouterr().err.strip().splitlines()
    assert len(said) == 1 and f"model={WANDERS}: numba cannot compile wanders()" in said[0], said


def test_a_search_meeting_a_bad_distribution_raises_the_policys_error(positions):
    """``careless`` is uniform below a score of 20 and sums to 0.6 above it (the kernel's search refusing it,
    and Python then raising this, are REFUSED_GAMES in ``pacsim bench``)."""
    agent: Any = make_pacman(f"expectimax:depth=2,model={CARELESS},backend=python")
    with pytest.raises(AgentError, match=r"ghost policy careless\(\) gave probabilities summing to 0\.6"):
        agent.analyze(positions[0]._replace(score=25))
    assert agent.analyze(positions[0]._replace(score=0)).stats.generated > 0


@pytest.mark.parametrize("written, message", [
    (None, "probability nan at"),
    (-0.5, "probability -0.5 at"),
    (math.inf, "probability inf at"),
])
def test_python_names_the_first_bad_move(positions, written, message):
    def policy(view, moves, out):
        for index in range(moves.count):
            if written is not None:
                out[index] = written if index == 0 else 1.0

    state = ghost_to_move(positions[0])
    first = state.legal_moves()[0][0]
    with pytest.raises(AgentError, match=rf"ghost policy .*policy\(\) gave move {first} the {message}"):
        own_distribution(policy, state)


def test_probabilities_may_round_but_must_sum_to_one(positions):
    state = ghost_to_move(positions[0])
    count = len(state.legal_moves())

    def rounding(view, moves, out):
        for index in range(moves.count):
            out[index] = 1.0 / moves.count * (1.0 + 1e-12)

    assert len(own_distribution(rounding, state)) == count
    if count > 1:
        def halved(view, moves, out):
            for index in range(moves.count):
                out[index] = 0.5 / moves.count

        with pytest.raises(AgentError, match=r"summing to 0\.5"):
            own_distribution(halved, state)


def test_specs_a_marked_function_plays_an_unmarked_one_is_refused():
    ghost = make_ghost(CUTTER)
    assert isinstance(ghost, KernelGhost) and type(ghost).name == "cutter" and is_kernel_ghost(type(ghost).policy)
    assert type(make_ghost(CUTTER)) is type(ghost)  # one class a function
    with pytest.raises(AgentError, match="hungry is a function, not an agent"):
        make_ghost(HUNGRY)
    with pytest.raises(AgentError, match=r"cutter is a ghost policy .* name it as a ghost \(-g\)"):
        make_pacman(CUTTER)
    python_only = [make_pacman("expectimax:depth=1"), make_ghost(f"{CUTTER}:backend=python")]
    assert play_in_kernel(load_layout("smallClassic"), python_only, seed=1, max_moves=5) is None


def test_star_searches_modelling_an_own_ghost_are_declined_with_one_line():
    agent: Any = make_pacman(f"expectimax:depth=2,model={CARELESS},algorithm=star2,eval=careful")
    reason = settings_declined(agent.search_request(2, 6, 100))
    assert reason is not None and "a kernel ghost) in the plain searches only" in reason
    plain: Any = make_pacman(f"expectimax:depth=2,model={CARELESS},backend=python")  # made, it would compile its copy
    assert settings_declined(plain.search_request(2, 6, 100)) is None


EXPERIMENT = """
name = "own_ghost"
games = 2
seed = 5
max_moves = 30
store = "{store}"
[grid]
pacman = ["expectimax:depth=1"]
ghosts = ["{ghost}"]
layout = ["smallClassic"]
"""


def test_an_experiment_file_hands_the_own_ghost_to_the_kernels_games(tmp_path, monkeypatch):
    """Under ``auto`` every game of an experiment naming the own ghost reaches the kernel's whole-game loop
    with the ghost's own policy in its plan; the loop stood in by one that declines (its games against
    Python are ``pacsim bench``'s), Python plays them, as it does under ``python``, where the loop is never
    reached."""
    import pacsim.fast.game
    from pacsim.runner.execute import run_experiment
    from pacsim.runner.experiment import load_experiment
    from pacsim.runner.store import load_results

    reached = []
    monkeypatch.setattr(pacsim.fast.game, "play_kernel_game",
                        lambda layout, request, ties, ghosts, *rest: reached.append([ghost.policy for ghost in ghosts]))
    rows = {}
    for backend in ("auto", "python"):
        monkeypatch.setenv("PACSIM_BACKEND", backend)
        path = tmp_path / f"{backend}.toml"
        path.write_text(EXPERIMENT.format(store=tmp_path / f"{backend}.sqlite", ghost=CUTTER), encoding="utf-8")
        assert run_experiment(load_experiment(path), workers=1, quiet=True).played == 2
        frame = load_results(tmp_path / f"{backend}.sqlite")
        rows[backend] = frame[["outcome", "score", "moves"]].values.tolist()
        assert "error" not in set(frame["outcome"])
    cutter = type(make_ghost(CUTTER)).policy
    assert reached == [[cutter, cutter]] * 2  # two games, smallClassic's two ghosts both the own one
    assert rows["auto"] == rows["python"]


def test_the_bench_group_own_compares_the_ghost_both_ways(monkeypatch):
    """The ghost's games both ways (Python standing in for the kernel: its copy compiles in ``pacsim
    bench``); its model's searches are handed to the comparison the ``own`` evaluation's line uses."""
    import pacsim.bench.own
    from pacsim.agents import whole_game
    from pacsim.bench.own import GROUP, own_ghost_figures
    from pacsim.bench.report import Report

    searched = []
    monkeypatch.setattr(pacsim.bench.own, "_compare_searches", lambda report, spec, *rest: searched.append(spec))
    monkeypatch.setattr(whole_game, "play_in_kernel", python_as_kernel)
    report = Report()
    own_ghost_figures(report, depth=1, count=2, games=1)
    figures = {figure.name: figure for figure in report.figures if figure.group == GROUP}
    assert searched == [f"expectimax:depth=1,eval=careful,model={CUTTER}"]
    assert figures["cutter games mismatches"].value == 0
    assert "identical" in figures["cutter games fast/python"].note


def test_a_run_says_once_before_its_games_that_a_ghost_plays_in_python(tmp_path, monkeypatch):
    """The workers say nothing (``notes_said``): the coordinator's notes must."""
    from pacsim.runner.execute import backend_notes
    from pacsim.runner.experiment import load_experiment

    monkeypatch.setenv("PACSIM_BACKEND", "auto")
    path = tmp_path / "wanders.toml"
    path.write_text(EXPERIMENT.format(store=tmp_path / "wanders.sqlite", ghost=WANDERS), encoding="utf-8")
    notes = backend_notes(load_experiment(path))
    assert any(note.startswith("pacsim: ghost wanders plays in Python: numba cannot compile wanders()") for note in notes), notes
    path.write_text(EXPERIMENT.format(store=tmp_path / "cutter.sqlite", ghost=CUTTER), encoding="utf-8")
    assert not any("ghost" in note for note in backend_notes(load_experiment(path)))
