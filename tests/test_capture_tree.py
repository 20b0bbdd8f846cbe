"""``pacsim tree`` of a capture search team's move in a recorded game (docs/tree.md, docs/capture.md)."""

import json
from dataclasses import replace
from pathlib import Path

import pytest

from pacsim.agents.capture import build_team
from pacsim.agents.capture.search_team import AlphaBetaTeam
from pacsim.agents.capture.tree import capture_move_tree
from pacsim.cli import main
from pacsim.engine.capture.game import play_capture_game
from pacsim.engine.capture.observation import CaptureView
from pacsim.engine.capture.record import read_capture_record, recorded_views
from pacsim.engine.capture.state import CaptureState
from pacsim.errors import ReplayError


class _Watched(AlphaBetaTeam):
    """An alpha-beta team that keeps every look it had and every position it searched."""

    def __init__(self, is_red_team: bool) -> None:
        super().__init__(is_red_team, depth=2)
        self.looks: list[CaptureView] = []
        self.searched: list[CaptureState] = []

    def start(self, index: int, view: CaptureView) -> None:
        self.looks.append(view)
        super().start(index, view)

    def placed(self, index: int, view: CaptureView) -> CaptureState:
        state = super().placed(index, view)
        self.looks.append(view)
        self.searched.append(state)
        return state


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """A game of the alpha-beta team (blue, depth 2) against the baseline, as ``--record`` writes it, and
    the same game played again with the team watched: the looks and searched positions it had in it."""
    folder = tmp_path_factory.mktemp("records")
    assert main(["capture", "-r", "baseline", "-b", "alphabeta", "--blueOpts", "depth=2", "-l", "defaultCapture",
                 "-i", "120", "--seed", "7", "-q", "--record", str(folder)]) == 0
    (path,) = folder.glob("*.json")
    watched = _Watched(False)
    layout = read_capture_record(path).layout  # one maze object: positions compare their maze by identity
    result = play_capture_game(layout, build_team("baseline", True), watched, seed=7, max_moves=120)
    return path, watched, result


def test_recorded_views_are_the_looks_the_game_handed(recorded):
    path, watched, result = recorded
    record = read_capture_record(path)
    assert record.options == ({}, {"depth": "2"}) and record.length == 120
    assert tuple(result.moves) == record.moves  # the same game
    looks = [view for _, view, _ in recorded_views(replace(record, layout=watched.looks[0].state.layout))
             if view.agent % 2 == 1]
    assert looks == watched.looks
    assert any(not view.is_seen(0) for view in looks)  # the noisy distances mattered


def test_the_traced_search_is_the_search_the_team_made(recorded):
    path, watched, _ = recorded
    record = read_capture_record(path)
    blue_moves = [number for number, (agent, _) in enumerate(record.moves) if agent % 2 == 1]
    for turn in range(0, len(blue_moves), 3):
        number = blue_moves[turn]
        tree = capture_move_tree(record, number)
        assert tree.trace.result.action[0] == record.moves[number][1]
        assert tree.trace.nodes[0].state[1:] == watched.searched[turn][1:]  # where it placed the unseen, too
        assert tree.trace.depth == 2 and tree.agent == record.moves[number][0]
    by_agent = capture_move_tree(record, 5, agent=3)
    assert by_agent.move == [n for n, (agent, _) in enumerate(record.moves) if agent == 3][5]
    deeper = capture_move_tree(record, 5, agent=3, depth=4)
    assert deeper.trace.depth == 4 and len(deeper.trace.nodes) > len(by_agent.trace.nodes)


def test_the_mcts_teams_tree_is_the_one_it_grew(tmp_path):
    assert main(["capture", "-r", "mcts", "--redOpts", "iterations=3,rollout_depth=4", "-l", "defaultCapture",
                 "-i", "60", "--seed", "2", "-q", "--record", str(tmp_path)]) == 0
    record = read_capture_record(next(tmp_path.glob("*.json")))
    red_moves = [number for number, (agent, _) in enumerate(record.moves) if agent % 2 == 0]
    for number in red_moves[::2]:  # each draws the seed its search drew in the game, after the moves before it
        tree = capture_move_tree(record, number)
        assert tree.trace.algorithm == "mcts" and tree.trace.result.action[0] == record.moves[number][1]
        assert tree.trace.nodes[0].visits == 3


def test_tree_command_draws_a_capture_move(recorded, tmp_path, capsys):
    path, _, _ = recorded
    out = tmp_path / "tree.json"
    assert main(["tree", "--record", str(path), "--move", "4", "--agent", "1", "--format", "json", "--out", str(out)]) == 0
    tree = json.loads(out.read_text())
    assert tree["algorithm"] == "alphabeta" and tree["depth"] == 2
    root = tree["nodes"][0]
    assert root[-1] == "blue 1 (MAX)" and root[-2].startswith("%%%%")  # who moves, and the board as text
    assert "move " in tree["title"] and "agent 1, blue" in tree["title"]
    page = tmp_path / "tree.html"
    assert main(["tree", "--record", str(path), "--move", "4", "--agent", "1", "--out", str(page)]) == 0
    assert "alphabeta" in capsys.readouterr().out and page.stat().st_size > 1000


def test_a_file_named_as_the_records_team_is_never_imported(recorded, tmp_path, monkeypatch):
    """The record names pacsim's ``alphabeta``: a file ``alphabeta.py`` in the current folder (which a
    command line's ``-r alphabeta`` would load) is not run for it."""
    path, _, _ = recorded
    mark = tmp_path / "ran"
    (tmp_path / "alphabeta.py").write_text(f"open({str(mark)!r}, 'w').close()\n")
    monkeypatch.chdir(tmp_path)
    assert main(["tree", "--record", str(path), "--move", "4", "--agent", "1", "--format", "json",
                 "--out", str(tmp_path / "tree.json")]) == 0
    assert not mark.exists()


def test_a_team_the_record_names_is_traced_only_when_built_in(recorded, tmp_path, capsys):
    path, _, _ = recorded
    data = json.loads(path.read_text())
    marker = tmp_path / "imported"
    team = tmp_path / "myTeam.py"
    team.write_text(f"open({str(marker)!r}, 'w').close()\ndef createTeam(first, second, isRed): pass\n")
    data["blue"] = str(team)
    renamed = tmp_path / "file-team.json"
    renamed.write_text(json.dumps(data))
    assert main(["tree", "--record", str(renamed), "--move", "2", "--agent", "1", "--format", "json"]) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and "team file" in error and "--team alphabeta" in error
    assert not marker.exists()
    # Named on the command line, pacsim's team is traced where the file's team stood.
    assert main(["tree", "--record", str(renamed), "--move", "2", "--agent", "1", "--team", "alphabeta:depth=1",
                 "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["depth"] == 1 and not marker.exists()


@pytest.mark.parametrize("arguments, message", [
    (["--move", "9999"], "the game has 120 moves"),
    (["--move", "1", "--agent", "7"], "agents are 0-3"),
    (["--move", "1", "--agent", "0"], "red team 'baseline' is not a search team"),
    (["--move", "1", "--team", "baseline"], "--team 'baseline'"),
    (["--move", "1", "--agent", "1", "--team", "mcts", "--depth", "3"], "mcts team's search has no depth"),
    (["--move", "1", "--compare", "a", "b"], "--compare is for a Pacman game"),
])
def test_bad_capture_tree_requests_are_one_line(recorded, capsys, arguments, message):
    path, _, _ = recorded
    assert main(["tree", "--record", str(path), "--format", "json", *arguments]) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and message in error


def test_a_record_whose_moves_do_not_follow_is_refused(recorded, tmp_path):
    path, _, _ = recorded
    data = json.loads(Path(path).read_text())
    data["moves"][3][1] = "Nowhere"
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(data))
    with pytest.raises(ReplayError, match="move 3: 'Nowhere' is not legal"):
        capture_move_tree(read_capture_record(broken), 10)
