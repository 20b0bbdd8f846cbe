"""The web pages and the two local servers trust no one (issue 43, item 4):
JSON in a page's script with no ``<``, ``>`` or ``&``; error text escaped;
the servers answer only to their own names, send nosniff, bound bodies,
slow requests and connections; ``POST /key`` only from its own page; a
long record's page drawn only in part, saying so; the dashboard's replay
pages kept.  Plain HTTP where HTTP says it, Chromium where a page must."""

import http.client
import json
import re
import socket
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from optional import needed

import pacsim
from pacsim.cli import main
from pacsim.engine import parse_layout
from pacsim.engine.recording import SavedGame, load_game, save_game
from pacsim.runner import build_experiment, run_experiment
from pacsim.web import player, serving
from pacsim.web.dashboard import ReplayPages, page
from pacsim.web.markup import SCRIPT_STRINGIFY, script_json

HOSTILE = "<!--<script>&</script><img src=x onerror=window.hit=1>"
"""A name that ended a script early, or hid its end (``<!--<script>``), and runs script where it lands as HTML."""
MAZE = """\
%%%%%%%%
%P . . %
%%%%%%%%"""


def load_script_json(text: str):
    assert not set("<>&") & set(text)
    return json.loads(text)


def test_json_in_a_script_holds_no_angle_bracket_or_ampersand():
    value = {"name": HOSTILE, "list": ["a>b", "&amp;", "\u2028"], HOSTILE: 1}
    assert load_script_json(script_json(value)) == value
    assert load_script_json(script_json(value, compact=True)) == value
    with pytest.raises(ValueError):
        script_json(float("nan"))


# -- pages in Chromium -------------------------------------------------------

@pytest.fixture(scope="module")
def record(tmp_path_factory):
    """A short game on a maze named with markup."""
    layout = parse_layout(MAZE, name=HOSTILE)
    games = pacsim.play(layout, pacman="greedy", ghosts="random", games=1, seed=1)
    path = tmp_path_factory.mktemp("trust") / "game.json"
    save_game(path, games[0].record, layout, "greedy", [])
    return path


def no_script_ran(browser) -> None:
    assert browser.execute_script("return window.hit === undefined")
    assert not browser.find_elements("css selector", "img")


def test_a_replay_page_of_a_maze_named_with_markup_shows_the_name_as_text(browser, record, tmp_path):
    out = tmp_path / "replay.html"
    out.write_text(player.replay_page(load_game(record)), encoding="utf-8")
    browser.get(out.as_uri())
    assert browser.find_element("id", "title").text.startswith(HOSTILE)
    assert browser.find_element("id", "moves").text == str(len(load_game(record).actions))  # the player ran
    no_script_ran(browser)


def test_a_dashboard_page_of_a_store_named_with_markup_shows_the_name_as_text(browser, tmp_path):
    state = {"stores": [{"store": HOSTILE, "path": HOSTILE, "runs": [], "error": HOSTILE}], "at": "now"}
    out = tmp_path / "dashboard.html"
    out.write_text(page(state, live=False, replays={HOSTILE: HOSTILE}), encoding="utf-8")
    browser.get(out.as_uri())
    assert browser.find_element("css selector", "section strong").text == HOSTILE
    assert browser.find_element("css selector", ".error").text == HOSTILE
    no_script_ran(browser)


def test_a_page_built_in_the_browser_escapes_its_json_as_the_server_does(browser):
    value = [HOSTILE, 1, 2.5, {"name": HOSTILE}]  # one key a dict: the browser may order keys its own way
    text = browser.execute_script(f"return ({SCRIPT_STRINGIFY})(arguments[0])", value)
    assert text == script_json(value, compact=True)


# -- a long record -----------------------------------------------------------

@pytest.fixture
def few_moves_drawn(monkeypatch):
    monkeypatch.setattr(player, "MAX_PAGE_MOVES", 5)
    return 5


def long_game(record, moves: int, tail: list[str]) -> SavedGame:
    """``record``'s maze with Pacman standing still ``moves`` times, then ``tail``."""
    saved = load_game(record)
    return SavedGame(layout=saved.layout, num_ghosts=0, actions=["Stop"] * moves + tail, seed=1,
                     pacman="greedy", ghosts=[], outcome="timeout", score=-moves)


def test_a_long_record_s_page_draws_its_start_and_says_so(browser, record, few_moves_drawn, tmp_path):
    # An illegal action after the drawn moves: the page replays only what it draws.
    saved = long_game(record, 40, ["West"])
    text = player.replay_page(saved)
    data = json.loads(re.search(r'id="game">(.*?)</script>', text, re.S)[1])
    assert len(data["frames"]) == few_moves_drawn + 1 and data["outcome"] is None
    out = tmp_path / "long.html"
    out.write_text(text, encoding="utf-8")
    browser.get(out.as_uri())
    heading = browser.find_element("id", "title").text
    assert "moves 41" in heading and f"the first {few_moves_drawn} moves only" in heading
    assert "timeout score -40" in heading  # the record's own end, which the page does not draw
    assert browser.find_element("id", "moves").text == str(few_moves_drawn)


def test_a_game_within_the_cap_is_drawn_whole(record, few_moves_drawn):
    saved = long_game(record, few_moves_drawn, [])
    states, moves = player.drawn_states(saved)
    assert moves == few_moves_drawn and states == saved.states()
    assert "drawn here" not in player.replay_page(saved)


# -- the servers -------------------------------------------------------------

@contextmanager
def serving_on_a_free_port(app):
    uvicorn = needed("uvicorn", "pip install -e '.[dashboard]'")
    server = uvicorn.Server(serving.server_config(app, host="127.0.0.1", port=0))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        yield server.servers[0].sockets[0].getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(timeout=5)


def ask(port: int, method: str, path: str, body: bytes | None = None, **headers: str):
    """One request (``Host`` as given, else 127.0.0.1:port): its status, headers and body."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Host": f"127.0.0.1:{port}", **{name.replace("_", "-"): value for name, value in headers.items()}}
    connection.request(method, path, body=body, headers=headers)
    reply = connection.getresponse()
    result = reply.status, {name.lower(): value for name, value in reply.getheaders()}, reply.read()
    connection.close()
    return result


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """A store of two games whose file name is markup (as a student's folder may be)."""
    path = tmp_path_factory.mktemp("trust") / "<img src=x onerror=window.hit=1>.sqlite"
    run = {"name": "trust", "games": 2, "seed": 1, "max_moves": 20,
           "grid": {"pacman": ["greedy"], "ghosts": ["random"], "layout": ["tinyGhostMaze"]}}
    run_experiment(build_experiment(run, source="<trust test>"), workers=1, store_path=path, quiet=True)
    return path


@pytest.fixture
def dashboard(store):
    from pacsim.web.dashboard import application

    with serving_on_a_free_port(application([store])) as port:
        yield port


@pytest.fixture
def key_server():
    from pacsim.web.live import LiveGame, application

    live = LiveGame()
    with serving_on_a_free_port(application(live, "<p>the page</p>", "the-token")) as port:
        yield live, port


def test_the_dashboard_answers_only_to_its_own_names_with_nosniff(dashboard):
    for host in (f"127.0.0.1:{dashboard}", f"localhost:{dashboard}", "[::1]"):
        status, headers, _ = ask(dashboard, "GET", "/state.json", Host=host)
        assert status == 200 and headers["x-content-type-options"] == "nosniff"
    for host in (f"rebound.example:{dashboard}", "127.0.0.1.rebound.example", "localhost.", ""):
        status, headers, body = ask(dashboard, "GET", "/state.json", Host=host)
        assert (status, b"stores" in body) == (400, False) and headers["x-content-type-options"] == "nosniff"


def test_the_dashboard_s_replay_error_is_text_not_markup(dashboard, browser):
    status, headers, body = ask(dashboard, "GET", "/replay/0/999")
    assert status == 404 and b"&lt;img src=x" in body and b"<img" not in body
    assert headers["x-content-type-options"] == "nosniff" and headers["x-frame-options"] == "DENY"
    browser.get(f"http://127.0.0.1:{dashboard}/replay/0/999")
    assert "<img src=x onerror" in browser.find_element("tag name", "p").text
    no_script_ran(browser)


def test_bodies_past_the_cap_are_refused_unread(dashboard, key_server):
    live, port = key_server
    too_long = b"x" * (serving.MAX_BODY_BYTES + 1)
    assert ask(dashboard, "POST", "/", too_long)[0] == 413
    assert ask(port, "POST", "/key", too_long, Origin=f"http://127.0.0.1:{port}", X_Pacsim_Key_Token="the-token")[0] == 413
    # Sent without its length (chunked): refused when the count runs over.
    chunks = iter([b"x" * 700, b"x" * 700])
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("POST", "/key", body=chunks, encode_chunked=True, headers={
        "Origin": f"http://127.0.0.1:{port}", "X-Pacsim-Key-Token": "the-token"})
    assert connection.getresponse().status == 413
    connection.close()
    assert live.next_key() is None


def test_a_key_is_taken_only_from_the_server_s_own_page(key_server):
    live, port = key_server
    own = f"http://127.0.0.1:{port}"
    assert ask(port, "POST", "/key", b"North")[0] == 403  # no Origin: not sent by a page
    assert ask(port, "POST", "/key", b"North", Origin="http://evil.example", X_Pacsim_Key_Token="the-token")[0] == 403
    assert ask(port, "POST", "/key", b"North", Origin="null", X_Pacsim_Key_Token="the-token")[0] == 403
    assert ask(port, "POST", "/key", b"North", Origin=own)[0] == 403  # the page's origin without its token
    assert ask(port, "POST", "/key", b"North", Origin=own, X_Pacsim_Key_Token="a-guess")[0] == 403
    assert live.next_key() is None
    assert ask(port, "POST", "/key", b"North", Origin=own, X_Pacsim_Key_Token="the-token")[0] == 204
    assert live.next_key() == "North"


def test_another_site_open_in_the_browser_cannot_press_keys(browser, key_server, tmp_path):
    live, port = key_server
    attack = tmp_path / "attack.html"
    attack.write_text(f"""<!DOCTYPE html><body>
<iframe name="sink"></iframe>
<form id="form" method="POST" action="http://127.0.0.1:{port}/key" enctype="text/plain" target="sink">
<input name="North" value=""></form>
<script>
fetch("http://127.0.0.1:{port}/key", {{method: "POST", mode: "no-cors", body: "North"}})
  .finally(() => {{ document.getElementById("form").submit(); window.sent = true; }});
</script></body>""")
    browser.get(attack.as_uri())
    deadline = time.monotonic() + 5
    while not browser.execute_script("return window.sent === true") and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)  # the form's post on its way
    assert live.next_key() is None


def connection_closed_within(port: int, sent: bytes, seconds: float) -> float:
    """How long the server takes to close a connection that sent ``sent`` and then nothing."""
    with socket.create_connection(("127.0.0.1", port), timeout=seconds) as connection:
        started = time.monotonic()
        connection.sendall(sent)
        while connection.recv(4096):  # a refusal's reply, if any, then the close
            pass
        return time.monotonic() - started


def test_idle_and_half_sent_requests_are_cut_off(monkeypatch):
    from pacsim.web.live import LiveGame, application

    monkeypatch.setattr(serving, "REQUEST_SECONDS", 0.2)
    monkeypatch.setattr(serving, "IDLE_SECONDS", 0.2)
    with serving_on_a_free_port(application(LiveGame(), "<p>page</p>", "token")) as port:
        for sent in (b"", b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n",
                     b"POST /key HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\n\r\nNo"):
            assert 0.15 < connection_closed_within(port, sent, 5) < 3, sent
        # A whole request is answered; the connection kept alive after it is closed when idle.
        with socket.create_connection(("127.0.0.1", port), timeout=5) as connection:
            connection.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            started, reply = time.monotonic(), b""
            while chunk := connection.recv(4096):
                reply += chunk
            assert reply.startswith(b"HTTP/1.1 200") and b"<p>page</p>" in reply
            assert 0.15 < time.monotonic() - started < 3


def test_connections_past_the_bound_are_turned_away(monkeypatch):
    from pacsim.web.live import LiveGame, application

    monkeypatch.setattr(serving, "MAX_CONNECTIONS", 3)
    with serving_on_a_free_port(application(LiveGame(), "<p>page</p>", "token")) as port:
        held = [socket.create_connection(("127.0.0.1", port)) for _ in range(3)]
        try:
            time.sleep(0.2)
            assert ask(port, "GET", "/")[0] == 503
        finally:
            for connection in held:
                connection.close()
        time.sleep(0.2)
        assert ask(port, "GET", "/")[0] == 200


@pytest.mark.parametrize("host, exposed", [("127.0.0.1", False), ("localhost", False), ("::1", False),
                                           ("0.0.0.0", True), ("192.0.2.7", True), ("::", True)])
def test_a_host_other_than_loopback_is_said_in_one_line(host, exposed):
    warning = serving.exposure_warning(host, "open the page")
    assert (warning is not None) == exposed
    if exposed:
        assert "\n" not in warning and host in warning and "127.0.0.1" in warning
    names = serving.accepted_hosts(host)
    assert set(serving.LOOPBACK_NAMES) <= set(names)
    assert (host in ("0.0.0.0", "::")) or serving.host_name(host) in names


def test_the_dashboard_says_a_non_loopback_host_when_it_starts(store, monkeypatch, capsys):
    import pacsim.web.dashboard

    served = []
    monkeypatch.setattr(pacsim.web.dashboard, "serve", lambda *arguments: served.append(arguments))
    assert main(["dashboard", str(store), "--host", "0.0.0.0", "--quiet"]) == 0
    error = capsys.readouterr().err
    assert served and error.count("\n") == 1 and "pacsim: listening on 0.0.0.0, not only on this machine" in error
    assert main(["dashboard", str(store), "--quiet"]) == 0
    assert capsys.readouterr().err == ""


def test_the_dashboard_keeps_each_replay_page_it_built(store, monkeypatch):
    import pacsim.web.dashboard

    built = []
    real = pacsim.web.dashboard._replay
    monkeypatch.setattr(pacsim.web.dashboard, "_replay", lambda *arguments: (built.append(arguments), real(*arguments))[1])
    pages = ReplayPages([store])
    first = pages.page(0, 1)
    assert pages.page(0, 1) == first and len(built) == 1  # the second request did not build it again
    assert pages.page(0, 2) != first and len(built) == 2
    with pytest.raises(Exception, match="999"):
        pages.page(0, 999)
    with pytest.raises(Exception, match="999"):
        pages.page(0, 999)  # a refusal is not kept: the game may arrive later
    assert len(built) == 4


def test_the_dashboard_server_builds_a_replay_page_once(dashboard, monkeypatch):
    import pacsim.web.dashboard

    built = []
    real = pacsim.web.dashboard._replay
    monkeypatch.setattr(pacsim.web.dashboard, "_replay", lambda *arguments: (built.append(arguments), real(*arguments))[1])
    first, second = (ask(dashboard, "GET", "/replay/0/2") for _ in range(2))
    assert first[0] == second[0] == 200 and first[2] == second[2] and len(built) == 1


def test_a_replayed_outcome_s_page_is_built_again(store, monkeypatch):
    import pacsim.web.dashboard

    built = []
    real = pacsim.web.dashboard._replay

    def as_an_error(*arguments):
        built.append(arguments)
        saved, text = real(*arguments)
        saved.outcome = "error"  # a game a re-run replaces
        return saved, text

    monkeypatch.setattr(pacsim.web.dashboard, "_replay", as_an_error)
    pages = ReplayPages([Path(store)])
    pages.page(0, 1)
    pages.page(0, 1)
    assert len(built) == 2


def test_play_in_the_browser_says_a_non_loopback_host_when_it_starts(capsys):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = {}
    thread = threading.Thread(target=lambda: result.update(status=main([
        "play", "-l", "tinyGhostMaze", "-p", "keyboard", "--max-moves", "2", "--frame-time", "0", "--browser",
        "--host", "0.0.0.0", "--port", str(port)])), daemon=True)
    thread.start()
    deadline, pressed, done = time.monotonic() + 20, False, False
    while not done and time.monotonic() < deadline:  # the page's part, over HTTP: a key, then the frames to the end
        try:
            if not pressed:
                text = ask(port, "GET", "/")[2]
                token = re.search(r'"keyToken":"([^"]+)"', text.decode())[1]
                pressed = ask(port, "POST", "/key", b"West", Origin=f"http://127.0.0.1:{port}",
                              X_Pacsim_Key_Token=token)[0] == 204
            done = json.loads(ask(port, "GET", "/frames.json?since=0")[2])["done"]
        except OSError:  # not listening yet
            time.sleep(0.05)
    thread.join(timeout=10)
    assert result["status"] == 0
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "pacsim: listening on 0.0.0.0" in error and "steer Pacman" in error
