"""The command line: output shape, one-line errors with exit status 2."""

import json

from pacsim.cli import main


def test_play_prints_each_game_and_a_summary(capsys, tmp_path):
    record = tmp_path / "game.json"
    assert main(["play", "-l", "pincerMaze", "-p", "greedy", "-g", "random", "-n", "3", "-q", "--seed", "5",
                 "--record", str(record)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 4 and lines[0].startswith("game 1/3 (seed 5): ")
    assert lines[-1].startswith("3 games, ") and "win rate" in lines[-1] and "average score" in lines[-1]
    assert (tmp_path / "game-1.json").exists() and (tmp_path / "game-3.json").exists()


def test_text_mode_draws_boards(capsys):
    assert main(["play", "-l", "openRoom", "-t", "--seed", "1", "--max-moves", "3"]) == 0
    out = capsys.readouterr().out
    assert "%%%%%%%" in out and "score" in out


def test_every_shipped_layout_plays_with_every_ghost(capsys):
    from pacsim.engine import shipped_layouts

    for name in shipped_layouts():
        for ghost in ("random", "directional", "adversarial"):
            assert main(["play", "-l", name, "-g", ghost, "-q", "--seed", "3", "--max-moves", "15"]) == 0
    assert "error" not in capsys.readouterr().out


def test_user_mistakes_exit_2_with_one_line(capsys):
    cases = [
        (["play", "-p", "minmax", "-q"], "unknown Pacman agent 'minmax'"),
        (["play", "-g", "ghosty", "-q"], "unknown ghost agent 'ghosty'"),
        (["play", "-p", "minimax", "-a", "depth", "-q"], "agent option 'depth' is not key=value"),
        (["play", "-l", "pincerMaze", "-k", "-1", "-q"], "-k -1: the number of ghosts cannot be negative"),
        (["play", "-n", "0", "-q"], "-n 0"),
        (["play", "--bogus"], "unrecognized arguments: --bogus"),
    ]
    for argv, message in cases:
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1, (argv, err)


def test_analyze_shows_pessimism_and_optimism(capsys):
    assert main(["analyze", "-l", "pincerMaze", "-p", "minimax:depth=2,eval=careful",
                 "-p", "expectimax:depth=2,eval=careful", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    minimax, expectimax = rows
    assert set(minimax["actions"]) == set(expectimax["actions"]) == {"East", "West", "Stop"}
    # A chance ghost can only look better than a minimising one.
    for action, value in minimax["actions"].items():
        assert expectimax["actions"][action] >= value
    assert minimax["generated"] > 0 and minimax["levels"] == 2 * 3  # two rounds of three agents
