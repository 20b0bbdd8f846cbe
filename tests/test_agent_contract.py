"""One agent contract: the game loop's protocol, the declared capabilities,
the kernel request, the backend option and its old name, and model ghosts."""

from __future__ import annotations

import pickle
import random

import pytest

from pacsim.agents import Agent, make_ghost, make_pacman
from pacsim.agents.api import SearchingAgent, ValuingAgent
from pacsim.agents.ghosts import DirectionalGhost
from pacsim.agents.mcts_agent import MctsOptions, MctsPacman
from pacsim.agents.registry import BUILTIN_GHOSTS, BUILTIN_PACMEN
from pacsim.agents.search_agents import ExpectimaxPacman, SearchOptions
from pacsim.engine import initial_state, load_layout, play_game
from pacsim.engine.game import Agent as GameLoopAgent
from pacsim.errors import AgentError
from pacsim.fast.request import COVERED, SearchRequest, declined, game_loop_declined, settings_declined, star_search
from pacsim.search import ALGORITHMS, CHANCE, MAX, MIN

STATE = initial_state(load_layout("tinyGhostMaze"))


def test_every_built_in_agent_is_what_the_game_loop_asks_for():
    for cls in [*BUILTIN_PACMEN.values(), *BUILTIN_GHOSTS.values()]:
        agent = cls()
        for name in ("reset", "get_action", "final"):
            assert callable(getattr(agent, name)), (cls.__name__, name)
        assert agent.last_stats is None, cls.__name__
    assert {name for name in GameLoopAgent.__dict__ if not name.startswith("_")} >= {"reset", "get_action", "final"}


def test_the_registry_finds_each_built_in_agent_under_its_own_name():
    from pacsim.agents.registry import BUILTIN_HOMES, GHOST, PACMAN

    for role, agents in ((PACMAN, BUILTIN_PACMEN), (GHOST, BUILTIN_GHOSTS)):
        assert list(agents) == list(BUILTIN_HOMES[role])  # the order pacsim agents lists them in
        for name, cls in agents.items():
            assert cls.name == name, cls


def test_the_capabilities_are_declared_not_guessed():
    searching = {name for name, cls in BUILTIN_PACMEN.items() if issubclass(cls, SearchingAgent)}
    assert searching == {"minimax", "alphabeta", "expectimax", "expectiminimax", "mcts"}
    valuing = {name for name, cls in BUILTIN_PACMEN.items() if issubclass(cls, ValuingAgent)}
    assert valuing == searching | {"approxq", "qlearn"}
    assert make_pacman("approxq").values_heading()[0] == "Q-values"
    assert not isinstance(make_pacman("greedy"), SearchingAgent | ValuingAgent)


def test_mcts_analyze_takes_what_the_protocol_gives_and_no_more():
    mcts = make_pacman("mcts:iterations=20")
    assert mcts.analyze(STATE).action_visits
    with pytest.raises(TypeError):
        mcts.analyze(STATE, root_values=True)  # a depth-limited Pacman's keyword: not silently ignored


def test_options_are_typed_by_the_type_argument_and_plain_subclasses_still_work():
    class Plain(Agent):
        def get_action(self, state):
            return state.legal_actions()[0]

    assert isinstance(ExpectimaxPacman().options, SearchOptions)
    record = play_game(STATE.layout, [Plain(), make_ghost("random")], seed=0, max_moves=3)
    assert record.moves == 3


# -- the kernel request --------------------------------------------------

def request(**changes) -> SearchRequest:
    fields = dict(algorithm="expectimax", kinds=(MAX, CHANCE), evaluation="careful", levels=4, step=2, cells=30)
    return SearchRequest(**{**fields, **changes})


def test_the_kernel_covers_every_algorithm_of_the_one_record():
    assert set(COVERED.algorithms) == set(ALGORITHMS) >= {"alphabeta", "expectimax", "star1", "star2"}
    assert all(ALGORITHMS[name].pruned == pruned for name, pruned in COVERED.algorithms.items())
    assert settings_declined(request(algorithm="star2", table=1000)) is None


def test_the_adversarial_model_is_covered_with_its_depth_and_p_only():
    assert settings_declined(request(model="adversarial", adversary=(2, 0.9))) is None
    assert "does not cover model=adversarial" in (settings_declined(request(model="adversarial")) or "")


@pytest.mark.parametrize("changes", [{"algorithm": "star1"}, {"table": 100}, {"model": "adversarial", "adversary": (2, 1.0)}])
def test_the_whole_game_loop_declines_what_needs_the_star_search(changes):
    assert star_search(request(**changes)) and not star_search(request())
    assert "plain search only" in (game_loop_declined(request(**changes)) or "")


@pytest.mark.parametrize("changes, reason", [
    ({"algorithm": "mystery"}, "does not cover algorithm=mystery"),
    ({"evaluation": "my.py:evaluate"}, "does not cover eval=my.py:evaluate"),
    ({"model": "adversarial:depth=3"}, "does not cover model=adversarial:depth=3"),
    ({"probcut": "model.json"}, "does not cover probcut"),
    ({"own_game": "a Custom with its own game_for()"}, "does not cover a Custom with its own game_for()"),
    ({"algorithm": "minimax"}, "algorithm=minimax cannot search chance nodes"),
    ({"cells": COVERED.max_cells + 1}, f"a maze of {COVERED.max_cells + 1} cells"),
])
def test_the_kernel_declines_a_request_with_the_reason(changes, reason):
    assert settings_declined(request()) is None
    found = settings_declined(request(**changes)) if "cells" not in changes else declined(request(**changes))
    assert found is not None and reason in found


def test_every_model_the_kernel_covers_is_a_built_in_ghost_of_that_name():
    # One table (pacsim.fast.kinds) numbers the ghosts for both backends.
    from pacsim.agents.evaluation import EVALUATIONS
    from pacsim.agents.registry import BUILTIN_GHOSTS

    assert set(COVERED.models) - {"uniform"} == set(BUILTIN_GHOSTS)
    assert set(COVERED.evaluations) <= set(EVALUATIONS)


def test_a_search_pacman_describes_its_search_without_the_kernel_asking():
    agent = make_pacman("expectiminimax:depth=2,kinds=MC,slip=0.1,trust=0.5,time=1,eval=careful")
    state = initial_state(load_layout("pincerMaze"))  # two ghosts
    made = agent.search_request(2, agent.levels(state), state.layout.num_cells, root_values=True)
    assert made.kinds == (MAX, MIN, CHANCE) and made.levels == 2 * 4 and made.step == 4
    assert (made.evaluation, made.trust, made.slip, made.time, made.root_values) == ("careful", 0.5, 0.1, 1.0, True)
    assert agent.search_request(2, 8, 30, timed=False).time == 0.0


# -- the backend option and its old name ---------------------------------

def test_the_old_option_name_engine_is_read_as_backend_and_said_once(capsys, monkeypatch):
    from pacsim.agents import notes

    monkeypatch.setattr(notes, "_said", set())  # as in a fresh process
    first = make_pacman("expectimax:depth=1,engine=python")
    make_pacman("expectimax:depth=2,engine=python")
    ghost = make_ghost("adversarial:engine=python")
    assert first.options.backend == "python" and ghost.options.backend == "python"
    assert capsys.readouterr().err.count("engine= is now called backend=") == 1
    with pytest.raises(AgentError, match="options engine and backend are one option"):
        make_pacman("expectimax:engine=python,backend=fast")


@pytest.mark.parametrize("variable", ["PACSIM_BACKEND", "PACSIM_ENGINE"])
def test_either_environment_switch_turns_the_kernel_off(variable, monkeypatch):
    from pacsim.agents import backend

    monkeypatch.delenv("PACSIM_BACKEND", raising=False)
    monkeypatch.delenv("PACSIM_ENGINE", raising=False)
    monkeypatch.setenv(variable, "python")
    assert not backend.kernel_wanted("auto") and backend.kernel_wanted("fast")


# -- model ghosts --------------------------------------------------------

def test_mcts_makes_its_model_ghosts_once_and_gives_each_its_index():
    made: list[DirectionalGhost] = []

    def maker() -> DirectionalGhost:
        made.append(DirectionalGhost())
        return made[-1]

    pacman = MctsPacman(MctsOptions(iterations=10, model="directional"), ghost_model=maker)
    pacman.reset(0, random.Random(0))
    state = initial_state(load_layout("pincerMaze"))  # two ghosts
    for _ in range(2):
        pacman.get_action(state)
    assert len(made) == 2 and [ghost.index for ghost in made] == [1, 2]


def test_a_modelling_agent_without_a_maker_says_what_it_needs():
    with pytest.raises(AgentError, match="model='directional': this agent needs a maker"):
        ExpectimaxPacman(SearchOptions(model="directional"))
    assert make_pacman("expectimax:model=directional").models_for(2)[1].index == 2


# -- the option to blame -------------------------------------------------

@pytest.mark.parametrize("spec, option", [
    ("expectimax:depth=0", "depth"),           # the options' own check
    ("expectimax:depth=deep", "depth"),        # not a number
    ("expectimax:dpeth=2", "dpeth"),           # unknown
    ("expectimax:eval=nowhere", "eval"),       # the evaluation
    ("expectimax:model=nobody", "model"),      # the ghost to model
    ("mcts:rollout=lazy", "rollout"),
    ("expectimax:algorithm=star2,eval=careful,probcut_t=2", "probcut_t"),
])
def test_an_agent_error_names_the_option_to_blame(spec, option):
    with pytest.raises(AgentError) as caught:
        make_pacman(spec)
    assert caught.value.option == option
    assert pickle.loads(pickle.dumps(caught.value)).option == option  # from a worker process too


def test_a_conflict_between_options_blames_the_option_its_message_names_or_none():
    with pytest.raises(AgentError) as caught:
        make_pacman("minimax:slip=0.1")
    assert caught.value.option == "slip"
    with pytest.raises(AgentError) as caught:
        make_pacman("minimax:kinds=C")
    assert caught.value.option is None


OLD_OPTION_RUN = """
name = "old_option"
games = 2
seed = 3
max_moves = 3
store = "{store}"
[grid]
pacman = ["minimax:depth=1,engine=python"]
ghosts = ["random"]
layout = ["tinyGhostMaze"]
"""


def test_a_run_with_the_old_option_name_plays_and_says_so_once(tmp_path, capfd, monkeypatch):
    from pacsim.agents import notes
    from pacsim.runner import load_experiment, run_experiment

    monkeypatch.setattr(notes, "_said", set())  # as in a fresh process
    path = tmp_path / "old.toml"
    path.write_text(OLD_OPTION_RUN.format(store=tmp_path / "results.sqlite"), encoding="utf-8")
    result = run_experiment(load_experiment(path), workers=2)
    assert result.played == 2 and capfd.readouterr().err.count("engine= is now called backend=") == 1


def test_a_run_with_the_old_option_name_resumes_and_reports_one_backend_column(tmp_path):
    from pacsim.runner import load_experiment, load_results, run_experiment

    store = tmp_path / "results.sqlite"
    old_run = OLD_OPTION_RUN.format(store=store).replace(",engine=python", "") + '[pacman_options]\nengine = "python"\n'
    old = tmp_path / "old.toml"
    old.write_text(old_run, encoding="utf-8")
    assert run_experiment(load_experiment(old), workers=1).played == 2
    assert run_experiment(load_experiment(old), workers=1).played == 0  # the same conditions, not new ones
    new = tmp_path / "new.toml"
    new.write_text(old_run.replace("engine =", "backend =").replace("games = 2", "games = 3"), encoding="utf-8")
    run_experiment(load_experiment(new), workers=1)
    results = load_results(store)
    assert "engine" not in results.columns and list(results["backend"]) == ["python"] * 5
