"""One way from a spec to a running agent: parsed once at the edge, built by one factory."""

from collections import Counter

import pytest

import pacsim.agents.registry as registry
import pacsim.runner.plan as plan
from pacsim.agents.registry import AgentSpec, named_code, parse_spec
from pacsim.agents.sandboxed import needs_sandbox
from pacsim.runner import load_experiment, run_experiment
from pacsim.runner.agent_factory import StartupOverrun, build_agent, condition_agents

GRID = """
name = "factory"
games = 2
seed = 5
max_moves = 20
store = "{store}"
[grid]
pacman = ["minimax", "expectimax"]
ghosts = ["random", "directional"]
layout = ["openRoom"]
depth = [1]
"""


@pytest.fixture
def experiment_file(tmp_path):
    path = tmp_path / "factory.toml"
    path.write_text(GRID.format(store=tmp_path / "results.sqlite"), encoding="utf-8")
    return path


def test_each_spec_of_a_run_is_parsed_once(experiment_file, monkeypatch):
    """Planning and playing 8 games parse each of the grid's four specs once, where every game parsed each again."""
    parsed: Counter[str] = Counter()
    original = registry.parse_spec

    def counting(text):
        parsed[text] += 1
        return original(text)

    monkeypatch.setattr(registry, "parse_spec", counting)
    monkeypatch.setattr(plan, "parse_spec", counting)
    result = run_experiment(load_experiment(experiment_file), workers=1, quiet=True)
    assert result.played == 8
    assert set(parsed) == {"minimax", "expectimax", "random", "directional"}
    assert max(parsed.values()) == 1, parsed


def test_the_planning_and_a_game_build_the_same_agents(experiment_file):
    """A condition carries its parsed specs; the factory builds its game's agents from them."""
    condition = load_experiment(experiment_file).conditions[0]
    assert isinstance(condition.parsed_pacman, AgentSpec) and condition.parsed_pacman.text == condition.pacman
    agents = condition_agents(condition, sandbox=None)
    assert len(agents) == condition.num_ghosts + 1
    assert getattr(agents[0], "depth", None) == condition.depth == 1


def test_a_spec_needs_the_sandbox_exactly_when_it_names_outside_code():
    """One decision from the text: an evaluation that is not built in runs plugin code, so it is sandboxed too."""
    for text in ("minimax:depth=2", "random", "expectimax:model=directional", "minimax:eval=careful"):
        assert not needs_sandbox(text) and named_code(text) is None, text
    for text in ("my.py:Cautious", "package.module:Agent", "installed_name", "expectimax:model=ghosts.py:Ambusher",
                 "minimax:eval=an_installed_evaluation"):
        assert needs_sandbox(text) and parse_spec(text).code == named_code(text) is not None, text


def test_a_file_spec_knows_its_file():
    assert parse_spec("agents/my.py:Cautious:depth=3").file.name == "my.py"
    assert parse_spec("pkg.mod:Cautious").file is None and parse_spec("minimax").file is None


def test_a_user_agent_that_overruns_the_start_up_limit_is_named_by_its_seat(tmp_path):
    slow = tmp_path / "slow.py"
    slow.write_text("import time\nfrom pacsim.agents import Agent, NoOptions\n\n"
                    "class Slow(Agent):\n    Options = NoOptions\n\n"
                    "    def __init__(self, options):\n        time.sleep(5)\n", encoding="utf-8")
    with pytest.raises(StartupOverrun) as overrun:
        build_agent(registry.GHOST, parse_spec(f"{slow}:Slow"), {}, None, 0.2, agent_index=2)
    assert overrun.value.agent_index == 2 and "0.2s start-up limit" in str(overrun.value)
