"""Learning Pacmen: CS188's features, Q-learning updates, resumable seeded
training, weights files as part of a condition's identity, and the learned
Pacman in play and run like any other."""

import json
import re

import pytest

from pacsim.agents import make_pacman, plugins
from pacsim.agents.learning import ApproximateQPacman, simple_features
from pacsim.agents.training import TrainingSettings, train
from pacsim.cli import main
from pacsim.engine import initial_state, load_layout, parse_layout
from pacsim.errors import AgentError, ConfigError

CORRIDOR = parse_layout("%%%%%%%\n%P.G .%\n%%%%%%%", name="corridor")


def run_cli(capsys, *argv):
    status = main([str(arg) for arg in argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_features_are_cs188s_simple_extractor():
    state = initial_state(CORRIDOR)
    east = dict(state.legal_moves())["East"]
    # East onto the food, next to the ghost: one ghost one step away, so no eats-food;
    # the nearest food is on that cell (distance 0); every feature divided by 10.
    assert simple_features(state, "East", east) == {"bias": 0.1, "#-of-ghosts-1-step-away": 0.1, "closest-food": 0.0}
    stop = dict(state.legal_moves())["Stop"]
    assert simple_features(state, "Stop", stop) == {"bias": 0.1, "#-of-ghosts-1-step-away": 0.0,
                                                    "closest-food": 1 / (7 * 3) / 10}


def test_one_update_follows_the_q_learning_rule(tmp_path):
    settings = TrainingSettings(layout="tinyGhostMaze", epsilon=0.0, max_moves=1)
    weights = train(settings, tmp_path / "w.json", episodes=1)
    # From zero weights: w_f = alpha * (reward - 0) * f, with reward -1 (a move that eats nothing) and bias 0.1.
    assert weights.values["bias"] == pytest.approx(0.2 * -1 * 0.1)


def test_a_resumed_run_writes_the_file_an_uninterrupted_run_writes(tmp_path):
    settings = TrainingSettings(layout="tinyGhostMaze", max_moves=40)
    train(settings, tmp_path / "whole.json", episodes=6, save_every=3)
    train(settings, tmp_path / "parts.json", episodes=3, save_every=3)
    train(settings, tmp_path / "parts.json", episodes=6, save_every=3)
    whole, parts = (json.loads((tmp_path / name).read_text()) for name in ("whole.json", "parts.json"))
    assert whole == parts and whole["episodes"] == 6
    other = TrainingSettings(layout="tinyGhostMaze", max_moves=40, seed=1)
    train(other, tmp_path / "seed1.json", episodes=6)
    assert json.loads((tmp_path / "seed1.json").read_text())["values"] != whole["values"]


def test_resuming_with_other_settings_is_refused(tmp_path):
    train(TrainingSettings(layout="tinyGhostMaze", max_moves=5), tmp_path / "w.json", episodes=1)
    with pytest.raises(ConfigError, match=re.escape("alpha=0.2 there, 0.5 here")):
        train(TrainingSettings(layout="tinyGhostMaze", max_moves=5, alpha=0.5), tmp_path / "w.json", episodes=2)


def test_the_weights_file_is_part_of_the_identity(tmp_path):
    path = tmp_path / "w.json"
    train(TrainingSettings(layout="tinyGhostMaze", max_moves=10), path, episodes=1)
    with plugins.recording() as used:
        make_pacman(f"approxq:weights={path}")
    first = {code.label: code.identity for code in used}
    train(TrainingSettings(layout="tinyGhostMaze", max_moves=10), path, episodes=2)
    with plugins.recording() as used:
        make_pacman(f"approxq:weights={path}")
    assert first.keys() == {f"weights {path}"} and {code.label: code.identity for code in used} != first
    assert all(code.kind == plugins.DATA for code in used)


@pytest.mark.parametrize(("content", "message"), [
    ("{not json", "bad JSON at line 1, column 2"),
    ('{"format": "something else", "values": {}}', "not a pacsim weights file"),
    ('{"format": "pacsim-q-weights/1", "kind": "qlearn", "values": {}}', "holds 'qlearn' weights, not 'approxq'"),
])
def test_a_bad_weights_file_is_one_line(tmp_path, capsys, content, message):
    path = tmp_path / "w.json"
    path.write_text(content)
    with pytest.raises(AgentError, match=message):
        ApproximateQPacman(ApproximateQPacman.Options(weights=str(path)))
    status, _, err = run_cli(capsys, "play", "-l", "tinyGhostMaze", "-p", f"approxq:weights={path}", "-q")
    assert status == 2 and err.count("\n") == 1 and message.split(" at ")[0] in err


def test_train_then_play_and_run_the_learned_pacman(tmp_path, capsys):
    weights = tmp_path / "aq.json"
    status, out, _ = run_cli(capsys, "train", "-l", "tinyGhostMaze", "-x", "20", "--max-moves", "60", "-o", weights, "-q")
    assert status == 0 and "20 episodes of approxq" in out
    status, out, _ = run_cli(capsys, "play", "-l", "tinyGhostMaze", "-p", f"approxq:weights={weights}", "-n", "3", "-q", "--seed", "1")
    assert status == 0 and "3 games" in out
    experiment = tmp_path / "learned.toml"
    experiment.write_text(f'name = "learned"\ngames = 2\nmax_moves = 60\nstore = "{tmp_path / "s.sqlite"}"\n'
                          f'[grid]\npacman = ["approxq:weights={weights}", "greedy"]\nghosts = ["random"]\nlayout = ["tinyGhostMaze"]\n')
    status, out, _ = run_cli(capsys, "run", experiment, "-j", "1")
    assert status == 0 and "played 4 games" in out
    status, _, _ = run_cli(capsys, "train", "-l", "tinyGhostMaze", "-x", "25", "--max-moves", "60", "-o", weights, "-q")
    status, out, _ = run_cli(capsys, "run", experiment, "-j", "1")
    assert status == 0 and f"weights {weights} changed: 2 games to play" in out


def test_tabular_q_learning_learns_the_corridor(tmp_path):
    # Food one step west and three east: the shortest win is West then East four times (5 moves, score 515);
    # an untrained Pacman walks at random and wins in 30 moves about 60% of the time, rarely in 5.
    layout_text = "%%%%%%%%%\n%.P  .  %\n%%%%%%%%%"
    path = tmp_path / "corridor.lay"
    path.write_text(layout_text)
    weights = train(TrainingSettings(kind="qlearn", layout=str(path), epsilon=0.3, max_moves=30), tmp_path / "q.json", episodes=60)
    assert weights.values
    agent = make_pacman(f"qlearn:weights={tmp_path / 'q.json'}")
    state = initial_state(load_layout(path))
    for _ in range(5):
        state = state.successor(agent.get_action(state))
    assert state.is_win() and state.score == 515


def test_an_unwritable_weights_file_is_one_line(tmp_path, capsys):
    (tmp_path / "no").write_text("")  # a file where the folder should be (a missing folder is created, as for every output)
    status, _, err = run_cli(capsys, "train", "-l", "tinyGhostMaze", "-x", "1", "--max-moves", "5", "-o", tmp_path / "no" / "w.json")
    assert status == 2 and err.count("\n") == 1 and "cannot create its folder" in err


def test_shipped_weights_are_found_from_any_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # as from a wheel: experiments/learned/weights/... is the shipped copy
    agent = make_pacman("approxq:weights=experiments/learned/weights/approxq-smallClassic-random.json")
    assert agent.values["#-of-ghosts-1-step-away"] < 0
