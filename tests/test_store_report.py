"""Reports computed in the store (SQL) against the same reports computed by
pandas over a frame of every game, on one generated store: same numbers."""

import io
import sqlite3
from contextlib import redirect_stdout

import pandas
import pytest

from pacsim.bench.store_scale import synthetic_store
from pacsim.cli import main
from pacsim.report.format import replay_list
from pacsim.report.runs import RunChoice, choose_runs, with_root_seeds
from pacsim.report.stats import histogram_mean_interval, histogram_median, mean_interval
from pacsim.report.store_report import compare_store, open_query, store_games_to_replay, summarize_store
from pacsim.report.summary import compare, default_by, games_to_replay, summarize
from pacsim.runner import aggregate
from pacsim.runner.store import load_results, load_runs


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """Two runs of one experiment, 1,200 games each, a third of them with a Pacman option."""
    path = tmp_path_factory.mktemp("scale") / "scale.sqlite"
    synthetic_store(path, 1200, seed=3, runs=2)
    with sqlite3.connect(path) as connection:
        connection.execute("""UPDATE games SET options = '{"pacman": {"eval": "better"}, "ghost": {"attack": true}}'
                              WHERE id % 3 = 0""")
    return path


def old_results(store, choice):
    """Today's report path: every game in a frame, then the run chosen."""
    runs = load_runs(store)
    results, note = choose_runs(load_results(store), runs, choice)
    return with_root_seeds(results, runs), note


@pytest.mark.parametrize(("choice", "by"), [
    (RunChoice(), None), (RunChoice(pool=True), None), (RunChoice(root_seed=1), ["eval", "ghost_attack"]),
    (RunChoice(), ["pacman", "outcome"]), (RunChoice(pool=True), ["root_seed", "ghosts"]),
])
def test_the_summary_in_sql_is_the_summary_of_every_game(store, choice, by):
    results, note = old_results(store, choice)
    query, sql_note = open_query(store, choice)
    with query:
        new = summarize_store(query, by)
    old = summarize(results, by or default_by(results))
    assert sql_note == note
    pandas.testing.assert_frame_equal(new, old, check_exact=False, rtol=1e-12)


def test_the_paired_comparison_and_the_games_to_replay_in_sql_are_those_of_every_game(store):
    results, _ = old_results(store, RunChoice())
    a, b = results["condition"].unique()[:2]
    query, _ = open_query(store)
    with query:
        new, old = compare_store(query, a, b), compare(results, a, b)
        assert {key: pytest.approx(value, rel=1e-12) if isinstance(value, float) else value
                for key, value in vars(new).items()} == vars(old)
        picks = store_games_to_replay(query)
    assert replay_list(None, "s", picks) == replay_list(results, "s")
    assert [int(game["id"]) for _, game in picks] == [int(game["id"]) for _, game in games_to_replay(results)]


def test_report_export_and_replay_list_print_what_today_s_frames_give(store, tmp_path, monkeypatch):
    monkeypatch.setattr(aggregate, "ROWS_AT_ONCE", 500)  # several chunks: Parquet row groups, CSV appended
    results, _ = old_results(store, RunChoice())
    every = load_results(store)
    chosen = every[every["config_hash"].isin(results["config_hash"].unique())]
    for suffix in ("csv", "parquet"):
        assert main(["export", str(store), "--out", str(tmp_path / f"games.{suffix}"), "--quiet"]) == 0
    assert (tmp_path / "games.csv").read_text() == chosen.to_csv(index=False)
    expected = tmp_path / "expected.parquet"
    chosen.to_parquet(expected, index=False)
    pandas.testing.assert_frame_equal(pandas.read_parquet(tmp_path / "games.parquet"), pandas.read_parquet(expected))
    import pyarrow.parquet
    assert pyarrow.parquet.ParquetFile(tmp_path / "games.parquet").num_row_groups == 3  # 1,200 games, 500 a chunk
    output = io.StringIO()
    with redirect_stdout(output):
        assert main(["replay", str(store), "--list"]) == 0
    assert output.getvalue().strip() == replay_list(every, str(store))


def test_histogram_statistics_are_those_of_the_values():
    values = [3, 3, 5, -2, 7, 7, 7, 10]
    counts = {value: values.count(value) for value in set(values)}
    assert histogram_mean_interval(counts) == pytest.approx(mean_interval(values), rel=1e-14)
    assert histogram_median(counts) == pandas.Series(values).median()
    assert histogram_median({4: 1, 9: 2}) == 9.0


def test_box_statistics_from_a_histogram_are_matplotlib_s():
    from matplotlib import cbook

    from pacsim.report.plot import box_statistics

    generator = __import__("random").Random(5)
    for size in (1, 2, 7, 100, 1001):
        values = [generator.choice([-500, -20, 0, 10, 13, 500, 523, 1500]) + generator.randrange(3) for _ in range(size)]
        expected = cbook.boxplot_stats(values)[0]
        got = box_statistics({value: values.count(value) for value in set(values)})
        for name in ("med", "q1", "q3", "whislo", "whishi"):
            assert got[name] == pytest.approx(expected[name]), (size, name)
        assert got["fliers"] == sorted(set(expected["fliers"]))


def test_the_html_page_and_the_figure_from_the_store_are_those_of_every_game(store, monkeypatch):
    from pacsim.report.page_games import PageGames
    from pacsim.report.plot import FigureGames
    from pacsim.report.store_report import figure_games, page_games
    from pacsim.web import report_page as html
    from pacsim.web.report_page import report_page

    for choice, by in ((RunChoice(), ["condition"]), (RunChoice(pool=True), ["root_seed", "condition"])):
        results, _ = old_results(store, choice)
        query, _ = open_query(store, choice)
        with query:
            summary = summarize_store(query, by)
            assert figure_games(query, by) == FigureGames.of(results, by)
            from_store = page_games(query, by)
        from_frame = PageGames.of(results, by)
        assert from_store.provenance == from_frame.provenance
        # Pooled runs tie on game index: pandas' unstable sort picks either game, the store the first in report order.
        assert [(title, [(why, int(game["game_index"])) for why, game in chosen], games)
                for title, chosen, games in from_store.replays] == \
            [(title, [(why, int(game["game_index"])) for why, game in chosen], games)
             for title, chosen, games in from_frame.replays]
        if not choice.pool:  # the figure's input is compared above: the page's other sections here
            monkeypatch.setattr(html, "figures_section", lambda *_: "")
            pages = [report_page(str(store), games, summary, by) for games in (from_store, from_frame)]
            assert pages[0] == pages[1]


def test_iter_results_gives_load_results_in_chunks(store, monkeypatch):
    import pacsim

    monkeypatch.setattr(aggregate, "ROWS_AT_ONCE", 700)
    chunks = list(pacsim.iter_results(store, columns=["condition", "score", "line"]))
    assert [len(chunk) for chunk in chunks] == [700, 700, 700, 300]
    whole = load_results(store, columns=["condition", "score", "line"])
    pandas.testing.assert_frame_equal(pandas.concat(chunks, ignore_index=True), whole)
