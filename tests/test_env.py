"""The learning environments: Gymnasium's and PettingZoo's own checkers,
seeding, the documented action and reward conventions, the vector form."""

import runpy
import sys
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from optional import needed
from pettingzoo.test import api_test

import pacsim.env
from pacsim.engine import ACTIONS, STOP, parse_layout
from pacsim.engine.state import SCARED_TIME
from pacsim.env import board
from pacsim.env.aec import PacmanAECEnv
from pacsim.env.gym_env import PacmanEnv

TINY = "tinyGhostMaze"
STOP_INDEX = ACTIONS.index(STOP)


@pytest.fixture
def no_display(monkeypatch):
    """A machine without a display, as CI is: SDL's dummy driver alone (not pacsim's hidden-window switch)."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.delenv("PACSIM_HIDDEN_WINDOW", raising=False)
    for name in ("DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)


def test_gymnasium_checker_passes_with_the_dummy_driver_alone(no_display):
    # The checker also makes the env in every render mode, human included.
    check_env(gymnasium.make("pacsim/TinyGhostMaze-v0", render_mode="rgb_array").unwrapped, skip_render_check=False)


def test_pettingzoo_api_test_passes(no_display):
    api_test(PacmanAECEnv(TINY, max_moves=30), num_cycles=100)


@pytest.mark.parametrize("action", [2.5, "2", np.float32(1), 5, -1, None, np.array([1])])
def test_an_action_outside_the_space_is_refused_not_cast(action):
    env = pacsim.env.make_env(TINY)
    env.reset(seed=0)
    with pytest.raises(board.ActionSpaceError, match="not in the action space"):
        env.step(action)
    aec = PacmanAECEnv(TINY)
    aec.reset(seed=0)
    with pytest.raises(board.ActionSpaceError):
        aec.step(action)


def test_integer_actions_of_any_integer_type_are_taken():
    env = pacsim.env.make_env(TINY)
    env.reset(seed=0)
    assert env.step(np.int64(STOP_INDEX))[1] == env.step(STOP_INDEX)[1] == -1.0


@pytest.mark.parametrize("max_moves", [0, -3, 2.5])
def test_a_move_cap_below_one_is_refused(max_moves):
    with pytest.raises(pacsim.errors.ConfigError, match="max_moves"):
        pacsim.env.make_env(TINY, max_moves=max_moves)
    with pytest.raises(pacsim.errors.ConfigError, match="max_moves"):
        PacmanAECEnv(TINY, max_moves=max_moves)


def test_a_step_after_the_truncation_is_refused():
    env = pacsim.env.make_env(TINY, ghosts="directional:attack=0,flee=0", max_moves=1)
    env.reset(seed=0)
    assert env.step(STOP_INDEX)[3]
    with pytest.raises(board.EpisodeOverError, match="reset"):
        env.step(STOP_INDEX)


def finished_aec_game():
    """An AEC game played to its move cap, every agent then stepping out with None."""
    env = PacmanAECEnv(TINY, max_moves=2)
    env.reset(seed=0)
    for _ in env.agent_iter(100):
        _, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else STOP_INDEX)
    return env


def test_aec_agents_leave_with_none_and_a_step_after_the_end_is_a_clear_error():
    env = PacmanAECEnv(TINY, max_moves=2)
    env.reset(seed=0)
    while not env.truncations[env.agent_selection]:
        env.step(STOP_INDEX)
    with pytest.raises(ValueError, match="only valid action is None"):
        env.step(STOP_INDEX)  # a dead agent steps with None (PettingZoo's own check)
    env = finished_aec_game()
    assert env.agents == []
    with pytest.raises(board.EpisodeOverError, match="call reset"):
        env.step(None)
    env.reset(seed=1)
    assert env.agents == env.possible_agents


@pytest.mark.parametrize("seed", [-1, 1.5])
def test_aec_refuses_a_seed_gymnasium_refuses(seed):
    with pytest.raises(gymnasium.error.Error):
        pacsim.env.make_env(TINY).reset(seed=seed)
    with pytest.raises(gymnasium.error.Error):
        PacmanAECEnv(TINY).reset(seed=seed)


def trajectory(env, seed, actions):
    observation, info = env.reset(seed=seed)
    steps = [(observation, 0.0, False, False, info["state"])]
    for action in actions:
        observation, reward, terminated, truncated, info = env.step(action)
        steps.append((observation, reward, terminated, truncated, info["state"]))
        if terminated or truncated:
            break
    return steps


def same(first, second):
    return len(first) == len(second) and all(
        np.array_equal(a[0], b[0]) and a[1:4] == b[1:4] and a[4][1:] == b[4][1:] for a, b in zip(first, second))


def test_an_episode_is_a_function_of_its_seed():
    actions = [STOP_INDEX] * 12
    one = trajectory(pacsim.env.make_env("smallClassic"), 5, actions)
    two = trajectory(pacsim.env.make_env("smallClassic"), 5, actions)
    other = trajectory(pacsim.env.make_env("smallClassic"), 6, actions)
    assert same(one, two)
    assert not same(one, other)  # the random ghosts walk differently on another seed


def test_an_illegal_action_is_played_as_stop_and_the_mask_says_so():
    env = pacsim.env.make_env(TINY)
    _, info = env.reset(seed=0)
    state = info["state"]
    legal = set(state.legal_actions())
    mask = info["action_mask"]
    assert [ACTIONS[index] for index in np.flatnonzero(mask)] == [a for a in ACTIONS if a in legal]
    illegal = next(index for index, action in enumerate(ACTIONS) if action not in legal)
    _, reward, _, _, info = env.step(illegal)
    assert info["state"].pacman == state.pacman
    assert reward == -1.0  # a Stop's time penalty, the ghost far away


def test_reward_is_the_score_change_and_a_loss_terminates():
    env = pacsim.env.make_env(TINY, ghosts="directional:attack=1")
    _, info = env.reset(seed=1)
    total, terminated, truncated = 0.0, False, False
    while not (terminated or truncated):
        _, reward, terminated, truncated, info = env.step(STOP_INDEX)
        total += reward
    assert terminated and info["state"].is_lose()
    assert total == info["state"].score


def test_the_move_cap_truncates():
    env = pacsim.env.make_env(TINY, ghosts="directional:attack=0,flee=0", max_moves=3)
    env.reset(seed=0)
    results = [env.step(STOP_INDEX)[2:4] for _ in range(3)]
    assert results[-1] == (False, True) and results[0] == (False, False)


def test_observation_channels_match_the_state():
    env = pacsim.env.make_env(TINY)
    observation, info = env.reset(seed=0)
    state = info["state"]
    assert observation.shape == (board.FIXED_CHANNELS + 2 * len(state.ghosts), state.layout.height, state.layout.width)
    assert observation[1].sum() == state.food_count
    assert observation[0].sum() == len(state.layout.walls)
    row, column = state.position(state.pacman)
    assert observation[3, row, column] == 1.0
    row, column = state.position(state.ghosts[0])
    assert observation[board.FIXED_CHANNELS, row, column] == 1.0


def test_the_scared_channel_and_the_documented_channels():
    layout = parse_layout("%%%%%%%%\n%Po . G%\n%%%%%%%%", name="capsuleRow")
    env = pacsim.env.make_env(layout)
    env.reset(seed=0)
    observation, _, _, _, info = env.step(ACTIONS.index("East"))  # eats the capsule
    state = info["state"]
    assert state.scared[0] > 0
    row, column = state.position(state.ghosts[0])
    assert observation[board.FIXED_CHANNELS + 1, row, column] == state.scared[0] / SCARED_TIME
    assert observation[board.FIXED_CHANNELS + 1].sum() == observation[board.FIXED_CHANNELS + 1, row, column]
    assert observation[2].sum() == 0  # the capsule channel: eaten
    learning = (Path(__file__).resolve().parents[1] / "docs" / "learning.md").read_text()
    for channel in ("[0]`` walls", "[1]`` food", "[2]`` capsules", "[3]`` Pacman", "[4 + i]`` ghost",
                    "[4 + G + i]`` ghost"):
        assert channel in PacmanEnv.__doc__
    for row_text in ("| `0` | walls", "| `1` | food", "| `2` | capsules", "| `3` | Pacman", "| `4 + i` | ghost",
                     "| `4 + G + i` | ghost"):
        assert row_text in learning


def test_registered_ids_and_generated_mazes():
    assert "pacsim/SmallClassic-v0" in pacsim.env.REGISTERED
    env = gymnasium.make("pacsim/TinyGhostMaze-v0", render_mode="ansi")
    env.reset(seed=0)
    assert "P" in env.render()
    spec = "generated:w=9,h=7,food=4,ghosts=1,seed=3"
    generated = gymnasium.make(pacsim.env.ANY_LAYOUT_ID, layout=spec)
    assert generated.unwrapped.layout.name == spec


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_make_vec_steps_copies_seeded_as_single_environments(mode):
    actions = [STOP_INDEX, 0, 2]
    vector = gymnasium.make_vec("pacsim/TinyGhostMaze-v0", num_envs=2, vectorization_mode=mode, ghosts="directional")
    try:
        observations, infos = vector.reset(seed=3)
        steps = [vector.step(np.full(2, action)) for action in actions]
    finally:
        vector.close()
    for index in range(2):
        single = trajectory(pacsim.env.make_env(TINY, ghosts="directional"), 3 + index, actions)
        assert np.array_equal(observations[index], single[0][0]) and infos["state"][index][1:] == single[0][4][1:]
        for step, expected in zip(steps, single[1:]):
            assert np.array_equal(step[0][index], expected[0])
            assert (step[1][index], step[2][index], step[3][index]) == expected[1:4]


def test_vector_env_steps_every_copy():
    vector = pacsim.env.make_vector_env(TINY, num_envs=3)
    observations, _ = vector.reset(seed=0)
    assert observations.shape[0] == 3
    _, rewards, _, _, _ = vector.step(np.full(3, STOP_INDEX))
    assert rewards.tolist() == [-1.0, -1.0, -1.0]


def test_aec_rewards_are_zero_sum():
    env = PacmanAECEnv(TINY)
    env.reset(seed=0)
    env.step(STOP_INDEX)
    assert env.rewards["pacman_0"] == -1.0 and env.rewards["ghost_1"] == 1.0
    assert env.agent_selection == "ghost_1"


def test_bad_num_ghosts_is_one_config_error():
    with pytest.raises(pacsim.errors.ConfigError, match="num_ghosts=5"):
        pacsim.env.make_env(TINY, num_ghosts=5)
    with pytest.raises(pacsim.errors.ConfigError, match=r"num_ghosts=0\.5: must be an integer"):
        pacsim.env.make_env(TINY, num_ghosts=0.5)
    with pytest.raises(pacsim.errors.ConfigError, match="ghosts=3: must be a non-empty string"):
        pacsim.env.make_env(TINY, ghosts=3)


EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def test_the_plain_gymnasium_example_trains():
    example = runpy.run_path(str(EXAMPLES / "gym_loop.py"))
    returns = example["train"](episodes=3)
    assert len(returns) == 3 and all(-1000 < value < 1500 for value in returns)


@pytest.mark.sb3
def test_the_stable_baselines3_example(monkeypatch, capsys):
    needed("stable_baselines3", "pip install stable-baselines3 (it brings torch) and run pytest -m sb3")
    monkeypatch.setattr(sys, "argv", ["sb3_train.py", "128"])
    runpy.run_path(str(EXAMPLES / "sb3_train.py"), run_name="__main__")
    assert "one greedy game after 128 steps" in capsys.readouterr().out


def test_bench_reports_the_vector_env_steps_per_second():
    from pacsim.bench.env import env_figures
    from pacsim.bench.report import Report

    report = Report()
    env_figures(report, steps=16, num_envs=2)
    sync, asynchronous = report.figures
    for figure, kind in ((sync, "SyncVectorEnv"), (asynchronous, "AsyncVectorEnv")):
        assert figure.group == "env" and figure.unit == "steps/s" and figure.value > 0 and "16 steps" in figure.note
        assert figure.name.startswith(kind)
