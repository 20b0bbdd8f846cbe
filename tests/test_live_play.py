"""``pacsim play --browser``: a game shown in the replay's page as it is played,
played from the page by keys in Chromium, a searched game's values, and the
option's mistakes (see docs/web.md)."""

import importlib.util
import json
import socket
import threading

import pytest
from browsing import waiting
from optional import needed

from pacsim.agents.registry import make_pacman
from pacsim.cli import main
from pacsim.engine import find_layout
from pacsim.engine.game import agent_rng
from pacsim.engine.recording import load_game
from pacsim.engine.state import initial_state
from pacsim.viewer.style import values_heading
from pacsim.web.frames import move_positions


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def play_in_thread(arguments: list[str]) -> tuple[threading.Thread, dict, str]:
    """``pacsim play ARGUMENTS --browser`` in a thread; its exit status lands in the dict."""
    port = free_port()
    result: dict = {}
    thread = threading.Thread(target=lambda: result.update(status=main(["play", *arguments, "--browser", "--port", str(port)])),
                              daemon=True)
    thread.start()
    return thread, result, f"http://127.0.0.1:{port}/"


def open_page(browser, address: str) -> None:
    def opened(driver) -> bool:
        try:
            driver.get(address)
        except Exception:  # the server is not listening yet
            return False
        return bool(driver.find_elements("id", "board"))

    waiting(browser, 20).until(opened)


def no_page_errors(browser) -> None:
    """The browser's console holds no error (read, so the next test starts from an empty log)."""
    assert [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"] == []


def page_text(browser, element: str) -> str:
    return browser.execute_script(f"return document.getElementById('{element}').textContent")


def test_a_keyboard_game_is_played_from_the_page(browser, capsys):
    from selenium.webdriver.common.keys import Keys

    layout = find_layout("tinyGhostMaze").layout
    legal = [action for action in initial_state(layout, 0).legal_actions() if action != "Stop"]
    key = {"North": Keys.ARROW_UP, "South": Keys.ARROW_DOWN, "East": Keys.ARROW_RIGHT, "West": Keys.ARROW_LEFT}[legal[0]]
    thread, result, address = play_in_thread(["-l", "tinyGhostMaze", "-p", "keyboard", "-k", "0", "--max-moves", "12",
                                              "--frame-time", "0.05", "--seed", "3"])
    open_page(browser, address)
    waiting(browser, 10).until(lambda driver: page_text(driver, "moves") == "0")  # the start, waiting for a key
    assert page_text(browser, "outcome") == ""
    browser.find_element("tag name", "body").send_keys(key)
    waiting(browser, 10).until(lambda driver: int(page_text(driver, "move")) >= 2)
    waiting(browser, 20).until(lambda driver: page_text(driver, "outcome") != "")
    assert page_text(browser, "move") == page_text(browser, "moves")
    # The first move went where the key said (a frame's direction indexes the actions).
    direction, actions = browser.execute_script("return [window.pacsimLive.frames[1][1], window.pacsimLive.actions]")
    assert actions[direction] == legal[0]
    thread.join(timeout=10)
    assert result["status"] == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == address
    assert out[1] == "pacsim: the page has shown the game's end; server stopped"
    assert out[2].startswith(f"game 1/1 (seed 3): {page_text(browser, 'outcome').strip()}")
    no_page_errors(browser)


def test_wasd_keys_move_pacman_too(browser, capsys):
    layout = find_layout("tinyGhostMaze").layout
    legal = [action for action in initial_state(layout, 0).legal_actions() if action != "Stop"]
    letter = {"North": "w", "South": "s", "East": "d", "West": "a"}[legal[-1]]
    thread, result, address = play_in_thread(["-l", "tinyGhostMaze", "-p", "keyboard", "-k", "0", "--max-moves", "2",
                                              "--frame-time", "0", "--seed", "3"])
    open_page(browser, address)
    waiting(browser, 10).until(lambda driver: page_text(driver, "moves") == "0")
    browser.find_element("tag name", "body").send_keys(letter)
    waiting(browser, 20).until(lambda driver: page_text(driver, "outcome") != "")
    direction, actions = browser.execute_script("return [window.pacsimLive.frames[1][1], window.pacsimLive.actions]")
    assert actions[direction] == legal[-1]
    thread.join(timeout=10)
    assert result["status"] == 0
    no_page_errors(browser)


def test_a_searched_game_shows_the_values_the_window_shows(browser, capsys, tmp_path):
    spec = "minimax"
    record = tmp_path / "searched.json"
    thread, result, address = play_in_thread(["-l", "tinyGhostMaze", "-p", spec, "-a", "depth=1,backend=python",
                                              "--show-values", "--max-moves", "4", "--frame-time", "0", "--seed", "5",
                                              "--record", str(record)])
    open_page(browser, address)
    waiting(browser, 20).until(lambda driver: page_text(driver, "outcome") != "")
    thread.join(timeout=10)
    assert result["status"] == 0
    browser.execute_script("document.getElementById('first').click()")
    shown = [line.text for line in browser.find_elements("css selector", "#values div")]
    agent = make_pacman("minimax", {"depth": "1", "backend": "python"})
    agent.reset(0, agent_rng(5, 0))
    layout = find_layout("tinyGhostMaze").layout
    expected = list(agent.action_values(initial_state(layout, layout.num_ghosts)))
    heading = list(values_heading(agent))
    assert shown[:len(heading)] == heading
    assert shown[len(heading):] == [f"{action} {value:.1f}" for action, value in expected]
    assert not browser.find_element("id", "values").get_attribute("hidden")
    # The record written beside the page holds the game the page showed.
    saved = load_game(record)
    browser.execute_script("document.getElementById('last').click()")
    assert len(move_positions(saved.states())) - 1 == int(page_text(browser, "moves"))
    assert str(saved.score) == page_text(browser, "score") and saved.outcome == page_text(browser, "outcome").strip()
    no_page_errors(browser)


def test_browser_mistakes_are_one_line(capsys, monkeypatch):
    assert main(["play", "-l", "tinyGhostMaze", "-q", "--port", "9000"]) == 2
    assert "--port: only with --browser" in capsys.readouterr().err
    assert main(["play", "-l", "tinyGhostMaze", "--browser", "-n", "2"]) == 2
    assert "--browser with -n 2" in capsys.readouterr().err
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *rest: None if name == "uvicorn" else real(name, *rest))
    assert main(["play", "-l", "tinyGhostMaze", "--browser"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "pacsim[dashboard]" in error


@pytest.mark.parametrize("port", ["-1", "70000"])
def test_a_port_out_of_range_is_refused(port, capsys):
    assert main(["play", "-l", "tinyGhostMaze", "--browser", "--port", port]) == 2
    assert f"--port {port}" in capsys.readouterr().err


def test_the_live_frames_are_the_replay_s_frames():
    from pacsim.agents.registry import make_ghost
    from pacsim.engine import play_game
    from pacsim.web.frames import game_data
    from pacsim.web.live import LiveGame, game_thread

    layout = find_layout("tinyGhostMaze").layout

    def agents():
        return [make_pacman("greedy"), make_ghost("random")]

    states = []
    record = play_game(layout, agents(), seed=8, max_moves=20, on_state=lambda state, action: states.append(state))
    live = LiveGame()
    thread = game_thread(live, layout, agents(), seed=8, max_moves=20, move_time_limit=None, frame_time=0)
    live.since(0)  # the page's first look: the game starts
    thread.start()
    thread.join(timeout=10)
    reply = live.since(0)
    assert reply["done"] and reply["outcome"] == record.outcome
    assert reply["frames"] == game_data(states, title="", outcome=None, recorded_score=None)["frames"]
    assert live.since(3)["frames"] == reply["frames"][3:]
    assert live.read_to_end.is_set()  # the page has everything: the server may stop


def test_a_searching_pacman_waits_for_the_page_before_its_first_move():
    from pacsim.agents.registry import make_ghost
    from pacsim.web.live import LiveGame, PageGone, game_thread

    layout = find_layout("tinyGhostMaze").layout
    live = LiveGame()
    thread = game_thread(live, layout, [make_pacman("minimax", {"depth": "1"}), make_ghost("random")], seed=8,
                         max_moves=20, move_time_limit=None, frame_time=0)
    thread.start()
    thread.join(timeout=0.5)
    assert thread.is_alive() and len(live.frames) == 1  # the start, and no move before the page looks
    first = live.since(0)
    assert len(first["frames"]) == 1 and not first["done"]  # the page opens at the start
    thread.join(timeout=10)
    assert live.since(0)["done"] and len(live.frames) > 1
    unseen = LiveGame()  # a page never opened: the game ends with the server
    thread = game_thread(unseen, layout, [make_pacman("greedy"), make_ghost("random")], seed=8, max_moves=20,
                         move_time_limit=None, frame_time=0)
    thread.start()
    unseen.stopped.set()
    thread.join(timeout=5)
    assert not thread.is_alive() and isinstance(unseen.error, PageGone) and len(unseen.frames) == 1


def test_a_keyboard_game_waiting_for_its_first_key_ends_when_the_server_stops():
    from pacsim.agents.simple import KeyboardPacman
    from pacsim.web.live import LiveGame, PageGone, game_thread

    live = LiveGame()
    pacman = KeyboardPacman()
    pacman.keys, pacman.wait_for_key = live.next_key, live.wait_for_key
    thread = game_thread(live, find_layout("tinyGhostMaze").layout, [pacman], seed=1, max_moves=5,
                         move_time_limit=None, frame_time=0)
    thread.start()
    thread.join(timeout=0.3)
    assert thread.is_alive() and len(live.frames) == 1  # the start shown, the game waiting for the person
    live.stopped.set()  # Ctrl-C stopped the server
    thread.join(timeout=5)
    assert not thread.is_alive() and isinstance(live.error, PageGone)


def test_the_server_refuses_what_is_not_a_move():
    import urllib.error
    import urllib.request

    uvicorn = needed("uvicorn", "pip install -e '.[dashboard]'")
    from pacsim.web.live import LiveGame, application

    live = LiveGame()
    server = uvicorn.Server(uvicorn.Config(application(live, "<p>page</p>", "token"), host="127.0.0.1", port=0,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        thread.join(timeout=0.02)
    address = f"http://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}/"
    from_the_page = {"Origin": address.rstrip("/"), "X-Pacsim-Key-Token": "token"}  # see tests/test_web_trust.py
    try:
        with urllib.request.urlopen(urllib.request.Request(address + "key", data=b"North", headers=from_the_page)) as reply:
            assert reply.status == 204
        with pytest.raises(urllib.error.HTTPError, match="400"):
            urllib.request.urlopen(urllib.request.Request(address + "key", data=b"Jump", headers=from_the_page))
        assert live.next_key() == "North" and live.next_key() is None
        with pytest.raises(urllib.error.HTTPError, match="400"):
            urllib.request.urlopen(address + "frames.json?since=x")
        with urllib.request.urlopen(address + "frames.json?since=0") as reply:
            assert json.loads(reply.read()) == {"frames": [], "values": [], "done": False, "outcome": None, "error": None}
    finally:
        server.should_exit = True
        thread.join(timeout=5)
