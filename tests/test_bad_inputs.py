"""A user's mistake is one line on stderr and exit status 2, never a traceback."""

from pacsim.cli import main

# -- maze: generated mazes and reports -------------------------------------------


def test_bad_generated_maze_options_are_one_line(capsys):
    assert main(["layouts", "--generate", "--width", "3"]) == 2
    assert capsys.readouterr().err.strip() == "pacsim: error: generated maze: width=3 must be between 5 and 128"
    assert main(["layouts", "--generate", "--food", "40"]) == 2
    error = capsys.readouterr().err
    assert "42 things to place on 23 open squares" in error and len(error.splitlines()) == 1


def test_bad_generated_layout_in_an_experiment_names_file_and_key(tmp_path, capsys):
    path = tmp_path / "exp.toml"
    path.write_text('games = 1\n[grid]\npacman = ["greedy"]\nghosts = ["random"]\n'
                    'layout = ["generated:w=9,h=7,seed=9-3"]\n', encoding="utf-8")
    assert main(["run", str(path), "--store", str(tmp_path / "r.sqlite")]) == 2
    error = capsys.readouterr().err
    assert f"{path}: grid.layout: generated:w=9,h=7,seed=9-3: seed range '9-3' runs backwards" in error
    assert len(error.splitlines()) == 1


def test_report_without_a_store_and_bad_plot_suffix_are_one_line(tmp_path, capsys):
    assert main(["report"]) == 2
    assert "which results store?" in capsys.readouterr().err
    assert main(["report", "--by", "pacman"]) == 2  # the last --by value is taken as the store
    assert capsys.readouterr().err.strip() == "pacsim: error: pacman: no such results store"
    assert main(["reproduce", "--plot", str(tmp_path / "table.gif")]) == 2
    assert "table.gif: cannot plot to '.gif'" in capsys.readouterr().err
