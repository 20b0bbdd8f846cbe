"""pacsim dashboard: its state against the store, the command's mistakes, and
in Chromium the live page following a run without reloading, a replay, the
snapshot offline."""

import json
import threading
import time
from pathlib import Path

import pytest
from optional import needed

from pacsim.cli import main
from pacsim.report import summarize
from pacsim.report.sequences import win_rate_sequence
from pacsim.runner import InlineExecutor, build_experiment, load_results, run_experiment
from pacsim.web.dashboard import page
from pacsim.web.dashboard_state import DashboardState

WATCHED_RUN = {"name": "watched", "games": 100, "seed": 4, "max_moves": 60,
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
        assert row[3]["text"] == f"{expected['win_rate']:.3f}"
        assert row[4] == f"[{expected['win_low']:.3f}, {expected['win_high']:.3f}]"
        anytime = win_rate_sequence(expected["wins"], expected["games"], 40)
        assert row[5] == f"[{anytime[0]:.3f}, {anytime[1]:.3f}]"
        assert float(row[5][1:].split(",")[0]) <= expected["win_low"]  # wider: it holds at every look
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
    from selenium.webdriver.support.ui import WebDriverWait

    store, address = dashboard_server
    browser.get(address)
    browser.execute_script("window.notReloaded = true;")
    # Read in one script each time: the page redraws its tables as the games arrive.
    done = "return document.querySelector('.done').textContent"
    interval = "return document.querySelector('table tr:nth-child(2) td:nth-child(6)').textContent"
    first_done, first_interval = browser.execute_script(done), browser.execute_script(interval)
    run = start_run(store)
    try:
        WebDriverWait(browser, 20).until(lambda driver: driver.execute_script(interval) != first_interval
                                         and driver.execute_script(done) != first_done)
    finally:
        run.join()
    assert browser.execute_script("return window.notReloaded === true;")  # updated in place, not reloaded
    WebDriverWait(browser, 10).until(lambda driver: driver.execute_script(done) == "200 of 200 games")
    browser.find_element("css selector", "table tr:nth-child(2) td:nth-child(4) a").click()
    browser.switch_to.window(browser.window_handles[-1])
    WebDriverWait(browser, 10).until(lambda driver: driver.find_elements("id", "board"))
    assert "/replay/0/" in browser.current_url
    browser.close()
    browser.switch_to.window(browser.window_handles[0])
    snapshot = tmp_path / "snapshot.html"
    assert main(["dashboard", str(store), "--snapshot", str(snapshot), "--quiet"]) == 0
    browser.get(snapshot.as_uri())
    assert browser.find_element("css selector", ".done").text == "200 of 200 games"  # the first game was game 0 of the run
    assert browser.execute_script("return performance.getEntriesByType('resource').length") == 0  # nothing fetched
    browser.find_element("css selector", "table tr:nth-child(2) td:nth-child(4) a").click()
    browser.switch_to.window(browser.window_handles[-1])
    WebDriverWait(browser, 10).until(lambda driver: driver.find_elements("id", "board"))
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
