"""pacsim dashboard: its state against the store, the command's mistakes, and
in Chromium the live page following a run without reloading, a replay, the
snapshot offline."""

import json
import threading
import time
from pathlib import Path

import pytest
from browsing import waiting
from optional import needed

from pacsim.cli import main
from pacsim.report import summarize
from pacsim.report.sequences import win_rate_sequence
from pacsim.runner import InlineExecutor, build_experiment, load_results, run_experiment
from pacsim.web.dashboard import page
from pacsim.web.dashboard_state import DashboardState

WATCHED_RUN = {"name": "watched", "games": 50, "seed": 4, "max_moves": 60,
               "grid": {"pacman": ["greedy", "random"], "ghosts": ["random"], "layout": ["tinyGhostMaze"]}}
"""Two conditions of cheap games, played slowly enough (a few ms each) to be watched."""


class SlowExecutor(InlineExecutor):
    """Plays each game in this thread after a pause: a run a page can watch for a few seconds."""

    pause = 0.006

    def submit(self, function, /, *args, **kwargs):
        time.sleep(self.pause)
        return super().submit(function, *args, **kwargs)


def start_run(store: Path, games: int = WATCHED_RUN["games"]) -> threading.Thread:
    experiment = build_experiment({**WATCHED_RUN, "games": games}, source="<dashboard test>")
    thread = threading.Thread(target=run_experiment, args=(experiment,),
                              kwargs={"executor": SlowExecutor(), "workers": 1, "store_path": store, "quiet": True})
    thread.start()
    return thread


@pytest.fixture(scope="module")
def finished_store(tmp_path_factory):
    store = tmp_path_factory.mktemp("dashboard") / "watched.sqlite"
    experiment = build_experiment({**WATCHED_RUN, "games": 40}, source="<dashboard test>")
    run_experiment(experiment, workers=1, store_path=store, quiet=True)
    return store


def test_the_state_shows_the_store_s_counts_and_both_kinds_of_interval(finished_store):
    state = DashboardState([finished_store]).state()
    (run,) = state["stores"][0]["runs"]
    summary = summarize(load_results(finished_store))
    assert (run["done"], run["planned"], run["experiment"]) == (80, 80, "watched")
    table = run["tables"][0]
    assert [row[0] for row in table["rows"]] == list(summary["condition"])
    for row, expected in zip(table["rows"], summary.to_dict("records")):
        assert row[1] == row[2] == "40"  # every game stored, all of them in order
        assert row[4]["text"] == f"{expected['win_rate']:.3f}"
        assert row[5] == f"[{expected['win_low']:.3f}, {expected['win_high']:.3f}]"
        anytime = win_rate_sequence(expected["wins"], expected["games"], 40)
        assert row[6] == f"[{anytime[0]:.3f}, {anytime[1]:.3f}]"
        assert float(row[6][1:].split(",")[0]) <= expected["win_low"]  # wider: it holds at every look
    assert json.loads(json.dumps(state)) == state  # plain JSON (no NaN)


def test_the_dashboard_s_mistakes_are_one_line(tmp_path, capsys):
    assert main(["dashboard", str(tmp_path / "missing.sqlite")]) == 2
    assert "missing.sqlite: no such results store" in capsys.readouterr().err
    (tmp_path / "notes.sqlite").write_text("not a store")
    assert main(["dashboard", str(tmp_path / "notes.sqlite"), "--snapshot", str(tmp_path / "s.html")]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_a_page_is_safe_against_text_that_would_end_its_script():
    state = {"stores": [{"store": "</script><script>alert(1)</script>", "path": "", "runs": []}], "at": "now"}
    text = page(state, live=False)
    assert "</script><script>alert" not in text
    embedded = text.split('<script id="state" type="application/json">')[1].split("</script>")[0]
    assert json.loads(embedded) == state  # the name is kept, written so that it cannot end the script


@pytest.fixture
def dashboard_server(tmp_path):
    uvicorn = needed("uvicorn", "pip install -e '.[dashboard]'")
    from pacsim.web.dashboard import application

    store = tmp_path / "watched.sqlite"
    # A first game in the store: the dashboard opens only a store that exists.
    run_experiment(build_experiment({**WATCHED_RUN, "games": 1}, source="<dashboard test>"), workers=1,
                   store_path=store, quiet=True)
    server = uvicorn.Server(uvicorn.Config(application([store]), host="127.0.0.1", port=0, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    yield store, f"http://127.0.0.1:{port}/"
    server.should_exit = True
    thread.join(timeout=5)


def test_the_page_follows_a_run_without_reloading_and_links_to_a_replay(browser, dashboard_server, tmp_path):
    store, address = dashboard_server
    browser.get(address)
    browser.execute_script("window.notReloaded = true;")
    # Read in one script each time: the page redraws its tables as the games arrive.
    done = "return document.querySelector('.done').textContent"
    interval = "return document.querySelector('table tbody tr:nth-child(1) td:nth-child(7)').textContent"
    first_done, first_interval = browser.execute_script(done), browser.execute_script(interval)
    run = start_run(store)
    try:
        waiting(browser, 20).until(lambda driver: driver.execute_script(interval) != first_interval
                                   and driver.execute_script(done) != first_done)
    finally:
        run.join()
    assert browser.execute_script("return window.notReloaded === true;")  # updated in place, not reloaded
    waiting(browser, 10).until(lambda driver: driver.execute_script(done) == "100 of 100 games")
    browser.find_element("css selector", "table tbody tr:nth-child(1) td:nth-child(5) a").click()
    browser.switch_to.window(browser.window_handles[-1])
    waiting(browser, 10).until(lambda driver: driver.find_elements("id", "board"))
    assert "/replay/0/" in browser.current_url
    browser.close()
    browser.switch_to.window(browser.window_handles[0])
    snapshot = tmp_path / "snapshot.html"
    assert main(["dashboard", str(store), "--snapshot", str(snapshot), "--quiet"]) == 0
    browser.get(snapshot.as_uri())
    assert browser.find_element("css selector", ".done").text == "100 of 100 games"  # the first game was game 0 of the run
    assert browser.execute_script("return performance.getEntriesByType('resource').length") == 0  # nothing fetched
    browser.find_element("css selector", "table tbody tr:nth-child(1) td:nth-child(5) a").click()
    browser.switch_to.window(browser.window_handles[-1])
    waiting(browser, 10).until(lambda driver: driver.find_elements("id", "board"))
    assert browser.current_url.startswith("blob:")
    browser.close()
    browser.switch_to.window(browser.window_handles[0])


def test_the_state_is_read_from_any_thread_of_a_server_s_pool(finished_store):
    from concurrent.futures import ThreadPoolExecutor

    dashboard = DashboardState([finished_store])
    first = dashboard.state()
    dashboard._cache.clear()  # each thread reads the store again
    with ThreadPoolExecutor(4) as pool:
        states = list(pool.map(lambda _: (dashboard._cache.clear(), dashboard.state())[1], range(8)))
    def figures(state):  # the games a second move with the clock: the tables and counts do not
        return [(run["done"], run["tables"]) for store in state["stores"] for run in store["runs"]]

    assert all(figures(state) == figures(first) for state in states)


# -- honest at every look: the finished prefix of game indices ------------------------------------------------

def finished_first(store: Path, workers: int, share: float) -> Path:
    """``store`` as a parallel run of ``workers`` would have left it when ``share`` of its games had finished:
    each worker takes the next game by index when it is free, a game takes as long as its moves, so short games
    (mostly losses) finish first.  Returns a copy holding only the games finished by then."""
    import heapq
    import sqlite3

    copy = store.with_name(f"look-{workers}-{share}.sqlite")
    with sqlite3.connect(store) as source, sqlite3.connect(copy) as target:
        source.backup(target)
    with sqlite3.connect(copy) as connection:
        games = connection.execute("SELECT id, moves FROM games ORDER BY condition_key, game_index").fetchall()
        free = [0.0] * workers
        finishing = []
        for game_id, moves in games:
            start = heapq.heappop(free)
            heapq.heappush(free, start + moves + 1)
            finishing.append((start + moves + 1, game_id))
        finishing.sort()
        kept = {game_id for _, game_id in finishing[:int(share * len(finishing))]}
        connection.executemany("DELETE FROM games WHERE id = ?", [(game_id,) for _, game_id in games
                                                                  if game_id not in kept])
    return copy


def test_an_early_look_at_a_parallel_run_rests_on_the_finished_prefix_not_on_the_quick_games(finished_store):
    import sqlite3

    look = finished_first(finished_store, workers=4, share=0.6)
    (run,) = DashboardState([look]).state()["stores"][0]["runs"]
    with sqlite3.connect(look) as connection:
        stored = connection.execute("SELECT condition, game_index, outcome FROM games ORDER BY game_index").fetchall()
    biased = out_of_order = 0
    for row in run["tables"][0]["rows"]:
        games = [(index, outcome) for condition, index, outcome in stored if condition == row[0]]
        indices = {index for index, _ in games}
        prefix = next(index for index in range(len(games) + 1) if index not in indices)
        in_order = [outcome for index, outcome in games if index < prefix]
        assert (row[1], row[2]) == (str(len(games)), str(prefix))
        out_of_order += prefix < len(games)
        assert row[4]["text"] == f"{in_order.count('win') / prefix:.3f}"  # the rate of games 0..k-1
        finished_rate = sum(outcome == "win" for _, outcome in games) / len(games)
        biased += f"{finished_rate:.3f}" != row[4]["text"]
    assert out_of_order and biased  # the games finished first would have said otherwise: the test tells the two apart


def test_the_pace_stops_when_the_run_stops(finished_store):
    from pacsim.report.dashboard import FINISHED, STOPPED, store_runs
    from pacsim.runner.aggregate import StoreQuery

    with StoreQuery(finished_store) as query:
        (ended,) = store_runs(query, time.time())
        (later,) = store_runs(query, time.time() + 3600)
    assert ended.pace.activity == later.pace.activity == FINISHED and ended.pace.games_per_second > 0
    assert later.pace == ended.pace  # an hour later the page says the same
    stopped = finished_first(finished_store, workers=2, share=0.5)
    with StoreQuery(stopped) as query:
        (run,) = store_runs(query, time.time() + 3600)
    assert run.pace.activity == STOPPED and run.pace.seconds_left is None


def test_a_snapshot_says_what_it_wrote(finished_store, tmp_path, capsys):
    snapshot = tmp_path / "frozen.html"
    assert main(["dashboard", str(finished_store), "--snapshot", str(snapshot)]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and str(snapshot) in out
    assert "1 store, 1 run, 80 games" in out and "replays it links to inside" in out
    assert snapshot.read_text().count("replay/0/") >= 2


def test_the_page_explains_its_intervals_draws_each_condition_and_fits_the_window(browser, finished_store, tmp_path):
    snapshot = tmp_path / "frozen.html"
    assert main(["dashboard", str(finished_store), "--snapshot", str(snapshot), "--quiet"]) == 0
    browser.get(snapshot.as_uri())
    headings = browser.execute_script(
        "return [...document.querySelectorAll('table[data-title=\"Per condition\"] th[title]')]"
        ".map((th) => [th.textContent, th.title])")
    titled = dict(headings)
    assert "Wilson" in titled["one look, 95%"] and "every look" in titled["anytime, 95%"]
    legend = browser.execute_script("return [...document.querySelectorAll('.legend')].map((p) => p.textContent)")
    assert any(line.startswith("one look, 95%:") for line in legend) and any(line.startswith("anytime") for line in legend)
    charts = browser.find_elements("css selector", ".chart")
    assert [chart.get_attribute("data-condition") for chart in charts] == ["greedy/random/tinyGhostMaze",
                                                                          "random/random/tinyGhostMaze"]
    for chart in charts:  # a win-rate and a mean-score plot, each with both bands and the estimate
        plots = chart.find_elements("css selector", "svg.plot")
        assert len(plots) == 2 and all(len(plot.find_elements("css selector", "polygon")) == 2 for plot in plots)
        assert all(plot.find_elements("css selector", "polyline") for plot in plots)
    assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
    assert [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"] == []


def test_a_compare_tests_the_pairs_of_the_finished_prefix_in_the_grid_s_order():
    from pacsim.report.dashboard import compare_figures, finished_prefix, looks
    from pacsim.report.stats import wilson_interval

    games = {"B": [(0, "loss", -90, 2), (1, "loss", -80, 4), (2, "win", 500, 6)],
             "A": [(0, "win", 510, 1), (1, "loss", -70, 3), (3, "win", 520, 7)]}  # A's game 2 still playing
    figures = compare_figures(games, ["A", "B"])
    assert figures.labels == ("A", "B") and figures.finished == figures.pairs == 2
    assert figures.advantage == 100.0  # A better on both pairs: a win against a loss, then -70 against -80
    assert [game[0] for game in finished_prefix(games["A"])] == [0, 1]
    assert finished_prefix([(0, "win", 1, 1), (1, "error", 0, 2), (2, "win", 1, 3)]) == [(0, "win", 1, 1)]
    course = looks(finished_prefix(games["B"]), tuned_for=10, points=2)
    assert [look.games for look in course] == [2, 3] and course[-1].win_one_look == wilson_interval(1, 3)
