"""Statistics against hand-computed values; summaries, comparisons and the report command."""

import math
import sys

import pandas
import pytest
from optional import needed

from pacsim.cli import main
from pacsim.errors import PacsimError
from pacsim.report import compare, format_summary, mcnemar_exact, mean_interval, summarize, t_quantile_975, wilson_interval
from pacsim.runner import load_experiment, run_experiment

# -- statistics ---------------------------------------------------------------

def test_wilson_interval_matches_hand_computation():
    assert wilson_interval(1, 5) == pytest.approx((0.0362, 0.6245), abs=5e-4)
    assert wilson_interval(5, 5) == pytest.approx((0.5655, 1.0), abs=5e-4)
    assert wilson_interval(0, 5) == pytest.approx((0.0, 0.4345), abs=5e-4)
    assert all(math.isnan(value) for value in wilson_interval(0, 0))


def test_wilson_bounds_are_exactly_zero_and_one_at_the_ends():
    for trials in (1, 3, 5, 7, 200, 500, 1000):
        assert wilson_interval(0, trials)[0] == 0.0  # not 4e-19
        assert wilson_interval(trials, trials)[1] == 1.0  # not 0.9999999999999999
        assert 0.0 < wilson_interval(0, trials)[1] < 1.0 and 0.0 < wilson_interval(trials, trials)[0] < 1.0


def test_mean_interval_uses_student_t():
    # mean 3, s = sqrt(2.5), se = 0.7071, t(4) = 2.776: half width 1.963
    mean, low, high = mean_interval([1, 2, 3, 4, 5])
    assert (mean, low, high) == pytest.approx((3.0, 1.037, 4.963), abs=1e-3)
    assert mean_interval([7])[0] == 7 and math.isnan(mean_interval([7])[1])
    assert t_quantile_975(30) == 2.042 and t_quantile_975(120) == pytest.approx(1.980, abs=1e-3)
    assert t_quantile_975(10**6) == pytest.approx(1.960, abs=1e-3)


def test_exact_mcnemar():
    # 1 vs 6 discordant pairs: 2 * (C(7,0) + C(7,1)) / 2^7 = 16/128
    assert mcnemar_exact(1, 6) == pytest.approx(0.125)
    assert mcnemar_exact(6, 1) == pytest.approx(0.125)
    assert mcnemar_exact(0, 5) == pytest.approx(0.0625)
    assert mcnemar_exact(3, 3) == 1.0 and mcnemar_exact(0, 0) == 1.0


# -- summaries on hand-made frames ----------------------------------------------

def games_frame():
    rows = []
    outcomes_a = ["win", "loss", "loss", "loss", "timeout"]
    outcomes_b = ["win", "win", "win", "win", "win"]
    for label, outcomes, scores in (("A", outcomes_a, [500, -500, -500, -500, 10]),
                                    ("B", outcomes_b, [501, 502, 503, 504, 505])):
        for index, (outcome, score) in enumerate(zip(outcomes, scores)):
            rows.append({"experiment": "x", "config_hash": "h", "condition": label, "pacman": label,
                         "game_index": index, "seed": 100 + index, "outcome": outcome, "score": score,
                         "moves": 10, "nodes": 50, "move_seconds_mean": 0.002})
    return pandas.DataFrame(rows)


def test_summarize_counts_rates_and_intervals():
    summary = summarize(games_frame()).set_index("condition")
    a, b = summary.loc["A"], summary.loc["B"]
    assert (a["games"], a["wins"], a["losses"], a["timeouts"], a["errors"]) == (5, 1, 3, 1, 0)
    assert (a["win_low"], a["win_high"]) == pytest.approx((0.0362, 0.6245), abs=5e-4)
    assert (b["win_rate"], b["win_low"]) == pytest.approx((1.0, 0.5655), abs=5e-4)
    assert (b["score_mean"], b["score_median"]) == (503, 503)
    half_width = 2.776 * math.sqrt(2.5 / 5)  # scores 501..505: variance 2.5, t(4) = 2.776
    assert (b["score_low"], b["score_high"]) == pytest.approx((503 - half_width, 503 + half_width))
    assert a["nodes_per_move"] == 5 and a["seconds_per_move"] == pytest.approx(0.002)
    assert list(summary.index) == ["A", "B"]


def test_summary_of_all_lost_and_all_won_shows_plain_zero_and_one():
    frame = games_frame()
    frame["outcome"] = ["loss"] * 5 + ["win"] * 5
    summary = summarize(frame).set_index("condition")
    assert summary.loc["A", "win_low"] == 0.0 and summary.loc["B", "win_high"] == 1.0
    text = format_summary(summary.reset_index(), "table")
    assert "e-" not in text and "0.000 [0.000, 0.434]" in text and "1.000 [0.566, 1.000]" in text


def test_compare_pairs_on_seeds():
    comparison = compare(games_frame(), "B", "A")
    assert comparison.pairs == 5 and (comparison.a_only, comparison.b_only) == (4, 0)
    assert comparison.p_value == pytest.approx(0.125)  # 2 / 2^4
    differences = [1, 1002, 1003, 1004, 495]
    assert comparison.difference == pytest.approx(sum(differences) / 5)
    assert (comparison.difference_low, comparison.difference_high) == pytest.approx(mean_interval(differences)[1:])
    with pytest.raises(PacsimError, match="no games with condition 'C'"):
        compare(games_frame(), "A", "C")


def test_summaries_format_every_way():
    summary = summarize(games_frame(), by=["pacman"])
    assert "0.200 [0.036, 0.624]" in format_summary(summary, "table")
    markdown = format_summary(summary, "markdown").splitlines()
    assert markdown[0].startswith("| pacman | games | lines | wins |") and markdown[1].startswith("|---|")
    assert format_summary(summary, "csv").startswith("pacman,games,lines,wins,win_rate,win_low")
    assert "<table" in format_summary(summary, "html")
    with pytest.raises(PacsimError, match="unknown column 'nope'"):
        summarize(games_frame(), by=["nope"])


# -- the report command ---------------------------------------------------------

@pytest.fixture(scope="module")
def store(tmp_path_factory):
    directory = tmp_path_factory.mktemp("report")
    path = directory / "exp.toml"
    path.write_text(f"""
name = "report"
games = 6
seed = 3
max_moves = 40
store = "{directory / 'results.sqlite'}"
[grid]
pacman = ["greedy", "random", "alphabeta:depth=1"]
ghosts = ["random"]
layout = ["openRoom"]
""", encoding="utf-8")
    return run_experiment(load_experiment(path), workers=1, quiet=True).store


def test_report_prints_and_compares(store, capsys):
    assert main(["report", str(store), "--compare", "greedy/random/openRoom", "random/random/openRoom"]) == 0
    out = capsys.readouterr().out
    assert "greedy/random/openRoom" in out and "exact McNemar p" in out and "6 paired games" in out
    # Only the two compared conditions are summarized.
    assert "alphabeta" not in out
    assert main(["report", str(store)]) == 0
    assert "alphabeta" in capsys.readouterr().out


def test_report_writes_files_and_plots(store, tmp_path, capsys):
    needed("matplotlib", "pip install -e '.[plot]'")
    out, plot = tmp_path / "summary.md", tmp_path / "plot.png"
    assert main(["report", str(store), "--by", "pacman,layout", "--format", "markdown",
                 "--out", str(out), "--plot", str(plot)]) == 0
    assert out.read_text().startswith("| pacman | layout | games |")
    assert plot.read_bytes()[:4] == b"\x89PNG"


def test_report_errors_are_one_line(store, tmp_path, capsys):
    assert main(["report", str(tmp_path / "missing.sqlite")]) == 2
    assert "missing.sqlite: no such results store" in capsys.readouterr().err
    assert main(["report", str(store), "--experiment", "other"]) == 2
    assert "no games of experiment 'other'" in capsys.readouterr().err
    assert main(["report", str(store), "--by", "bogus"]) == 2
    assert "unknown column 'bogus'" in capsys.readouterr().err
    assert main(["report", str(store), "--compare", "greedy/random/openRoom", "minimax"]) == 2
    assert "no games with condition 'minimax' (known: " in capsys.readouterr().err


def test_plot_without_matplotlib_says_how_to_install(store, tmp_path, capsys, monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name == "matplotlib" or name.startswith("matplotlib."):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    assert main(["report", str(store), "--plot", str(tmp_path / "plot.png")]) == 2
    assert "pip install 'pacsim[plot]'" in capsys.readouterr().err


def test_plot_without_matplotlib_still_writes_the_table_asked_for(store, tmp_path, capsys, monkeypatch):
    """As the HTML report does: one line saying which extra to install, and the markdown table all the same."""
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # not installed, as find_spec sees it
    plot = tmp_path / "plot.png"
    assert main(["report", str(store), "--format", "markdown", "--plot", str(plot)]) == 0
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and "--plot needs matplotlib" in captured.err
    assert "pip install 'pacsim[plot]'" in captured.err and not plot.exists()
    assert "| condition" in captured.out and "wrote the plot" not in captured.out


def test_narrow_terminal_tables_keep_wins_and_losses_and_drop_columns_of_zeros_first(store, capsys, monkeypatch):
    """Columns chosen by what they tell: no crashes or errors column of zeros; wins and losses kept to the last."""
    monkeypatch.setattr("pacsim.report.format.terminal_width", lambda: 100)
    assert main(["report", str(store), "-q"]) == 0
    header, *rest = capsys.readouterr().out.splitlines()
    assert "crashes" not in header and "errors" not in header and " wins " in header and "losses" in header
    note = " ".join(line for line in rest if not line.startswith(("greedy", "random", "alphabeta")))
    assert note.startswith("(left out to fit the terminal: lines, timeouts, median")
    assert main(["report", str(store), "--format", "html"]) == 0
    page = capsys.readouterr().out
    assert "<th>crashes</th>" not in page and "<th>errors</th>" not in page and "<th>losses</th>" in page


def test_report_by_several_columns_before_the_store(store, capsys):
    assert main(["report", "--by", "pacman", "layout", str(store)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:3] == ["pacman", "layout", "games"]
    assert [line.split()[0] for line in lines[1:4]] == ["greedy", "random", "alphabeta:depth=1"]


def test_terminal_tables_fit_the_terminal_and_a_pipe_gets_whole_lines(store, capsys, monkeypatch):
    assert main(["report", str(store)]) == 0  # capsys: a pipe, never wrapped into blocks of columns
    piped = capsys.readouterr().out.splitlines()
    assert "ms/move" in piped[0] and max(len(line) for line in piped) > 100
    table = piped[:piped.index("")]  # the games worth replaying below may name a condition again
    assert sum("alphabeta" in line for line in table) == 1
    monkeypatch.setattr("pacsim.report.format.terminal_width", lambda: 100)
    assert main(["report", str(store)]) == 0
    lines = capsys.readouterr().out.splitlines()
    lines = lines[:lines.index("")]  # the table, before the games worth replaying (their store's path is long)
    assert max(len(line) for line in lines) <= 100
    assert sum("alphabeta" in line for line in lines) == 1  # every condition still named in full
    assert any(line.startswith("(left out to fit the terminal: lines") for line in lines)


@pytest.mark.parametrize("suffix, magic", [(".png", b"\x89PNG"), (".pdf", b"%PDF"), (".svg", b"<?xml")])
def test_plots_survive_all_lost_and_all_won_cells_in_every_format(tmp_path, suffix, magic):
    needed("matplotlib", "pip install -e '.[plot]'")
    from pacsim.report.plot import plot_summary

    frame = games_frame()
    frame["outcome"] = ["loss"] * 5 + ["win"] * 5  # 0/5 and 5/5: the bounds that used to crash
    path = tmp_path / f"plot{suffix}"
    plot_summary(frame, summarize(frame), ["condition"], path)
    assert path.read_bytes().startswith(magic)


def test_png_plots_are_print_resolution(store, tmp_path):
    needed("matplotlib", "pip install -e '.[plot]'")
    from PIL import Image

    path = tmp_path / "plot.png"
    assert main(["report", str(store), "--plot", str(path)]) == 0
    assert Image.open(path).info["dpi"][0] == pytest.approx(200, abs=1)


def test_unsupported_plot_suffix_is_one_line(store, tmp_path, capsys):
    assert main(["report", str(store), "--plot", str(tmp_path / "plot.jpeg")]) == 2
    error = capsys.readouterr().err
    assert "plot.jpeg: cannot plot to '.jpeg' (use .png, .pdf, .svg)" in error and len(error.splitlines()) == 1
    assert not (tmp_path / "plot.jpeg").exists()


def test_plot_labels_name_only_what_varies():
    from pacsim.report.plot import group_names, varying_labels

    labels, shared = varying_labels(["minimax/random/tinyGhostMaze/depth=4", "expectimax/random/tinyGhostMaze/depth=4"])
    assert labels == ["minimax", "expectimax"] and shared == "random/tinyGhostMaze/depth=4"
    summary = pandas.DataFrame({"pacman": ["a", "b"], "depth": [4, 4], "games": [1, 1]})
    assert group_names(summary, ["pacman", "depth"]) == (["a", "b"], "depth=4")
