"""Watching capture games: the frames every display draws (what the mover heard, its debugDraw marks), the
keyboard team, the pygame window on SDL's dummy driver, the HTML replay and the live page in Chromium, and
the options' mistakes (docs/capture.md, "Watching")."""

import json
import re
import socket
import threading
from pathlib import Path

import pytest
from browsing import waiting
from optional import needed

from pacsim.agents.capture import build_team
from pacsim.agents.capture.keyboard import KeyboardTeam
from pacsim.cli import main
from pacsim.engine.capture.frames import FrameFeed, FrameRecorder, board, clean_marks, frame, replay_frames
from pacsim.engine.capture.game import CaptureTeam, play_capture_game
from pacsim.engine.capture.layout import find_capture_layout
from pacsim.engine.capture.observation import observe
from pacsim.engine.capture.replay import read_course_replay
from pacsim.engine.capture.state import UNSEEN, initial_state
from pacsim.engine.game import PlayerStopped

HERE = Path(__file__).parent
TEAM_FILE = HERE / "capture_course" / "teams" / "myTeam.py"
"""A course-style team that marks its start cell in red with debugDraw every move."""
RECORDED = HERE / "capture_course" / "recorded" / "RANDOM13.replay"


@pytest.fixture(scope="module")
def tiny():
    return find_capture_layout("tinyCapture")


@pytest.fixture(scope="module")
def course_game(tiny):
    """A short game of the course-style team (red) against pacsim's baseline, recorded frame by frame,
    with every view the game loop handed out."""
    red, blue = build_team(str(TEAM_FILE), True), build_team("baseline", False)
    recorder = FrameRecorder(red, blue)
    views = []

    def saw(view):
        views.append(view)
        recorder.saw(view)

    result = play_capture_game(tiny, red, blue, 11, 60, None, recorder.moved, saw)
    return result, recorder.frames, views


# -- the frames ------------------------------------------------------------------------------------------

def test_a_frame_a_move_each_with_what_its_mover_heard_and_drew(course_game, tiny):
    result, frames, views = course_game
    assert len(frames) == len(result.moves) + 1 == 61
    assert frames[0]["mover"] is None and frames[0]["heard"] is None
    for number, (shown, (agent, action), view) in enumerate(zip(frames[1:], result.moves, views, strict=True), 1):
        assert (shown["move"], shown["mover"], shown["action"]) == (number, agent, action)
        assert view.agent == agent and shown["heard"] == list(view.noisy_distances)
        assert shown["seen"] == [cell != UNSEEN for cell in view.state.positions]
    start = list(tiny.xy(tiny.starts[0]))
    red_moves = [shown for shown in frames[1:] if shown["mover"] == 0]
    assert red_moves and all(shown["marks"] == [[[start], [255, 0, 0]]] for shown in red_moves)  # debugDraw([start], [1, 0, 0])
    assert all(shown["marks"] == [] for shown in frames[1:] if shown["mover"] % 2)  # pacsim's baseline draws nothing
    final = result.final_state
    assert frames[-1]["score"] == final.score and int(frames[-1]["food"], 16) == final.food
    assert [agent[:2] for agent in frames[-1]["agents"]] == [list(tiny.xy(cell)) for cell in final.positions]
    json.dumps(frames, allow_nan=False)  # JSON as it is


def test_a_frame_holds_carried_food_and_scared_timers(tiny):
    state = initial_state(tiny)._replace(carrying=(3, 0, 0, 1), scared=(0, 17, 0, 0), pacman=(True, False, False, True))
    agents = frame(state)["agents"]
    assert [agent[5] for agent in agents] == [3, 0, 0, 1]
    assert [agent[4] for agent in agents] == [0, 17, 0, 0] and [agent[3] for agent in agents] == [1, 0, 0, 1]


def test_marks_are_cleaned_not_trusted(tiny):
    open_cell = list(tiny.xy(tiny.starts[0]))
    marks = [([tuple(open_cell)], [1, 0.5, 0]), ([(0, 0)], [1, 0, 0]), ("junk", None), ([open_cell, (1e9, 2)], (0, 128, 255)),
             ([(float("nan"), 1)], [1, 1, 1]), ([tuple(open_cell)], [2, 3])]
    assert clean_marks(marks, tiny) == [[[open_cell], [255, 128, 0]], [[open_cell], [0, 128, 255]]]


def test_a_recorded_course_game_becomes_frames_to_its_final_score():
    recording = read_course_replay(RECORDED)
    states = list(recording.states())
    frames = replay_frames(states, recording.actions)
    assert len(frames) == len(recording.actions) + 1
    assert frames[-1]["score"] == states[-1].score != 0
    assert [shown["mover"] for shown in frames[1:]] == [agent for agent, _ in recording.actions]
    carried = max(agent[5] for shown in frames for agent in shown["agents"])
    assert carried > 0  # a Pacman carried food in this game, and the frames say how much


# -- the keyboard team ------------------------------------------------------------------------------------

def test_the_keyboard_team_holds_the_last_key_and_waits_for_the_first(tiny):
    team = KeyboardTeam(True)
    team.gone = lambda: True
    state = initial_state(tiny)
    with pytest.raises(PlayerStopped):
        team.act(0, observe(state, 0, __import__("random").Random(1)))  # no key yet, and the display has gone
    legal = state.legal_actions(0)
    moving = next(action for action in legal if action != "Stop")
    assert not team.press(0, "Sideways") and not team.press(2, moving)
    assert team.press(0, moving)
    view = observe(state, 0, __import__("random").Random(1))
    assert team.act(0, view) == moving
    assert team.act(0, view) == moving  # held
    assert team.act(2, observe(state, 2, __import__("random").Random(1))) == "Stop"  # the second agent has had no key
    wall = next(action for action in ("North", "South", "East", "West") if action not in legal)
    team.press(0, wall)
    assert team.act(0, view) == moving  # a key into a wall keeps the held direction


def test_a_person_who_stops_is_not_a_crash(tiny):
    class Stopping(CaptureTeam):
        def act(self, index, view):
            raise PlayerStopped("gone")

    with pytest.raises(PlayerStopped):
        play_capture_game(tiny, Stopping(), build_team("baseline", False), 1, 20)


# -- the command line -------------------------------------------------------------------------------------

@pytest.mark.parametrize("arguments", [
    ["-r", "keyboard"],
    ["-r", "keyboard", "-b", "keyboard", "--window"],
    ["--window", "--browser"],
    ["--window", "-n", "2"],
    ["--html", "x.html", "-n", "2"],
    ["--frame-time", "0.1"],
    ["--port", "8000"],
    ["--browser", "--port", "70000"],
])
def test_display_mistakes_get_one_line(arguments, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["capture", "-l", "tinyCapture", "-q", *arguments]) == 2
    error = capsys.readouterr().err.strip()
    assert error.count("\n") == 0 and "Traceback" not in error


def test_replay_html_holds_every_frame_of_the_recording(tmp_path, capsys):
    out = tmp_path / "deep" / "r13.html"
    assert main(["capture", "--replay", str(RECORDED), "--html", str(out), "-q"]) == 0
    text = out.read_text()
    data = json.loads(re.search(r'<script type="application/json" id="capture-data">(.*?)</script>', text, re.S).group(1))
    recording = read_course_replay(RECORDED)
    assert len(data["frames"]) == len(recording.actions) + 1 and data["board"]["layout"] == "RANDOM13"
    assert data["frames"][-1]["score"] == list(recording.states())[-1].score
    assert f"wrote {out}" in capsys.readouterr().out


def test_a_played_game_html_keeps_what_was_heard_and_drawn(tmp_path, capsys):
    out = tmp_path / "game.html"
    assert main(["capture", "-r", str(TEAM_FILE), "-l", "tinyCapture", "--seed", "4", "-i", "40", "--html", str(out), "-q"]) == 0
    data = json.loads(re.search(r'id="capture-data">(.*?)</script>', out.read_text(), re.S).group(1))
    assert data["board"]["red"] == "myTeam" and len(data["frames"]) == 41
    assert all(shown["heard"] is not None for shown in data["frames"][1:])
    assert any(shown["marks"] for shown in data["frames"])


def test_a_recorded_games_replay_counts_the_moves_left_from_its_own_length(tmp_path, capsys):
    """A record's page counts down from the game's length, as the game did (a stored contest game's record has
    none: from the course's 1,200), not from the moves it happens to hold (it said 0 moves left at its end)."""
    assert main(["capture", "-l", "tinyCapture", "--seed", "4", "-i", "40", "--record", str(tmp_path), "-q"]) == 0
    [record] = tmp_path.glob("capture-*.json")
    played = len(json.loads(record.read_text())["moves"])
    pages = {}
    for length in (40, None):
        if length is None:
            kept = json.loads(record.read_text())
            del kept["length"]
            record.write_text(json.dumps(kept))
        out = tmp_path / f"replay-{length}.html"
        assert main(["capture", "--replay", str(record), "--html", str(out), "-q"]) == 0
        pages[length] = json.loads(re.search(r'id="capture-data">(.*?)</script>', out.read_text(), re.S).group(1))["frames"]
    assert [pages[40][0]["left"], pages[40][-1]["left"]] == [40, 40 - played]
    assert [pages[None][0]["left"], pages[None][-1]["left"]] == [1200, 1200 - played]


def test_names_in_the_page_cannot_end_its_script(tmp_path, tiny):
    from pacsim.web.capture_page import capture_page

    state = initial_state(tiny)
    page = capture_page(board(tiny, "</script><!--<script>", "b&b"), [frame(state)], "<b>heading</b>")
    assert "</script><!--" not in page and "<b>heading" not in page


# -- the window (SDL's dummy driver) ---------------------------------------------------------------------

@pytest.fixture
def pygame_dummy(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    pygame = needed("pygame", "pip install -e .")
    pygame.display.init()
    yield pygame
    pygame.display.quit()


def test_the_window_draws_both_halves_marks_badges_and_scared_ghosts(pygame_dummy, course_game, tiny):
    from pacsim.viewer import capture_window as shown_in

    pygame = pygame_dummy
    _, frames, _ = course_game
    drawn = board(tiny, "myTeam", "baseline")
    surface = pygame.Surface(shown_in.window_size(drawn))
    window = shown_in.CaptureWindow(surface, drawn)
    marked = next(shown for shown in frames if shown["marks"])
    window.draw(marked)
    (x, y), cell = marked["marks"][0][0][0], window.cell
    cx, cy = window.centre(x, y)
    corner = surface.get_at((cx - cell // 2 + 1, cy - cell // 2 + 1))[:3]
    assert corner[0] > 100 and corner[1] < 60  # the start cell tinted red by the mark
    right = window.centre(drawn["width"] - 2, 1)
    assert surface.get_at((right[0] - cell // 2 + 1, right[1] - cell // 2 + 1))[:3] == shown_in.HALF[1]
    state = initial_state(tiny)._replace(carrying=(0, 0, 0, 4), scared=(0, 0, 9, 0))
    window.draw(frame(state))
    ghost_x, ghost_y = window.centre(*tiny.xy(state.positions[2]))
    assert surface.get_at((ghost_x, ghost_y + cell // 3))[:3] == shown_in.SCARED
    badge_x, badge_y = window.centre(*tiny.xy(state.positions[3]))
    assert surface.get_at((badge_x + round(cell * 0.42) - 4, badge_y - round(cell * 0.42)))[:3] == shown_in.MOVER


def test_a_keyboard_game_in_the_window_follows_the_keys(pygame_dummy, tiny):
    from pacsim.viewer import capture_window as shown_in

    pygame = pygame_dummy
    red, blue = KeyboardTeam(True), build_team("baseline", False)
    moving = next(action for action in initial_state(tiny).legal_actions(0) if action != "Stop")
    key = {"North": pygame.K_UP, "South": pygame.K_DOWN, "East": pygame.K_RIGHT, "West": pygame.K_LEFT}[moving]
    scripted = [[pygame.event.Event(pygame.KEYDOWN, key=key)]]
    recorder = FrameRecorder(red, blue)
    feed = FrameFeed(lambda observer, on_view: play_capture_game(tiny, red, blue, 2, 12, None, observer, on_view), recorder, 0.01)
    presented = []
    surface = pygame.Surface(shown_in.window_size(board(tiny, "keyboard", "baseline")))
    shown_in.watch_in_window(feed, board(tiny, "keyboard", "baseline"), "test", keyboard=red, surface=surface,
                             events=lambda: scripted.pop() if scripted else [], present=lambda: presented.append(1),
                             hold_seconds=0)
    assert feed.error is None and feed.result is not None and len(feed.result.moves) == 12
    assert next(action for agent, action in feed.result.moves if agent == 0) == moving
    assert presented


def test_closing_the_window_stops_the_game(pygame_dummy, tiny):
    from pacsim.viewer import ViewerClosed
    from pacsim.viewer import capture_window as shown_in

    pygame = pygame_dummy
    red, blue = KeyboardTeam(True), build_team("baseline", False)  # waits for a key that never comes
    feed = FrameFeed(lambda observer, on_view: play_capture_game(tiny, red, blue, 2, 12, None, observer, on_view),
                     FrameRecorder(red, blue), 0.01)
    surface = pygame.Surface(shown_in.window_size(board(tiny, "keyboard", "baseline")))
    calls = iter([[], [], [pygame.event.Event(pygame.QUIT)]])
    with pytest.raises(ViewerClosed):
        shown_in.watch_in_window(feed, board(tiny, "k", "b"), "test", keyboard=red, surface=surface,
                                 events=lambda: next(calls, []), present=lambda: None)
    feed.thread.join(timeout=5)
    assert not feed.thread.is_alive() and isinstance(feed.error, PlayerStopped)


# -- in Chromium ------------------------------------------------------------------------------------------

def page_value(browser, script: str):
    return browser.execute_script(f"return {script}")


def pixels_of(browser, rgb) -> int:
    return browser.execute_script("""
        const [r, g, b] = arguments[0];
        const canvas = document.getElementById('board');
        const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
        let count = 0;
        for (let i = 0; i < pixels.length; i += 4) if (pixels[i] === r && pixels[i + 1] === g && pixels[i + 2] === b) count++;
        return count;""", list(rgb))


def no_page_errors(browser) -> None:
    assert [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"] == []


def test_the_html_replay_steps_with_its_slider(browser, tmp_path, capsys):
    from selenium.webdriver.common.keys import Keys

    out = tmp_path / "r13.html"
    assert main(["capture", "--replay", str(RECORDED), "--html", str(out), "-q"]) == 0
    recording = read_course_replay(RECORDED)
    states = list(recording.states())
    carried_at = next(number for number, state in enumerate(states) if any(state.carrying))
    browser.get(out.as_uri() + f"#move={carried_at}")
    assert page_value(browser, "window.pacsimCapture.shown()") == carried_at
    assert browser.find_element("id", "score").text == str(states[carried_at].score)
    rows = browser.find_elements("css selector", "#agents tbody tr")
    assert [row.find_elements("tag name", "td")[2].text for row in rows] == [str(count) for count in states[carried_at].carrying]
    assert pixels_of(browser, (255, 230, 0)) > 0  # the carried food's badge (and the mover's frame)
    browser.find_element("tag name", "body").send_keys(Keys.END)
    assert browser.find_element("id", "score").text == str(states[-1].score)
    assert browser.find_element("id", "outcome").text.lower() == f"final score {states[-1].score}"
    browser.execute_script("const s = document.getElementById('slider'); s.value = 5; s.dispatchEvent(new Event('input'))")
    assert page_value(browser, "window.pacsimCapture.shown()") == 5
    assert browser.find_element("id", "move").text == f"move 5 of {len(states) - 1}"
    assert browser.save_screenshot(str(tmp_path / "capture.png"))
    no_page_errors(browser)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_a_keyboard_team_plays_from_the_live_page(browser, tmp_path, capsys):
    from selenium.webdriver.common.keys import Keys

    needed("starlette", "pip install -e '.[dashboard]'")
    tiny = find_capture_layout("tinyCapture")
    moving = next(action for action in initial_state(tiny).legal_actions(0) if action != "Stop")
    key = {"North": Keys.ARROW_UP, "South": Keys.ARROW_DOWN, "East": Keys.ARROW_RIGHT, "West": Keys.ARROW_LEFT}[moving]
    port, status = free_port(), {}
    arguments = ["capture", "-r", "keyboard", "-l", "tinyCapture", "-i", "16", "--seed", "0", "--browser", "--port", str(port),
                 "--frame-time", "0.02", "--record", str(tmp_path)]
    thread = threading.Thread(target=lambda: status.update(code=main(arguments)), daemon=True)
    thread.start()

    def opened(driver) -> bool:
        try:
            driver.get(f"http://127.0.0.1:{port}/")
        except Exception:  # not listening yet
            return False
        return bool(driver.find_elements("id", "board"))

    waiting(browser, 20).until(opened)
    waiting(browser, 10).until(lambda driver: page_value(driver, "window.pacsimCapture.frames.length") >= 1)
    assert "arrow keys steer agent 0" in browser.find_element("id", "keys").text
    browser.find_element("tag name", "body").send_keys(key)
    waiting(browser, 20).until(lambda driver: browser.find_element("id", "outcome").text != "")
    thread.join(timeout=10)
    assert status["code"] == 0
    record = json.loads(next(tmp_path.glob("capture-*.json")).read_text())
    assert next(action for agent, action in record["moves"] if agent == 0) == moving
    assert page_value(browser, "window.pacsimCapture.frames.length") == len(record["moves"]) + 1 == 17
    frames = page_value(browser, "window.pacsimCapture.frames")
    assert all(shown["heard"] is not None for shown in frames[1:])
    no_page_errors(browser)


def test_no_display_is_one_line_before_the_game(monkeypatch, capsys):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.delenv("PACSIM_HIDDEN_WINDOW", raising=False)
    assert main(["capture", "-l", "tinyCapture", "--window", "-i", "10"]) == 2
    captured = capsys.readouterr()
    assert captured.err.strip().endswith("use --browser, or --html OUT.html to watch the game later")
    assert "seed" not in captured.out  # no game was played


# -- UPF's snake_case framework ----------------------------------------------------------------------------

SNAKE_TEAM = HERE / "capture_course" / "teams" / "snake_team.py"
"""A team written for UPF's framework: ``contest.capture_agents``, ``create_team``, ``choose_action``, ``is_pacman``."""


def test_snake_and_camel_names_fold_into_each_other():
    from pacsim.agents.capture.course.snake import camel, snake

    assert camel("get_maze_distance") == "getMazeDistance" and camel("is_pacman") == "isPacman" and camel("red") == "red"
    assert snake("getFoodYouAreDefending") == "get_food_you_are_defending" and camel(snake("asList")) == "asList"


def test_a_snake_case_team_plays_unmodified_with_what_it_heard_and_drew(tiny):
    import sys

    had_contest = "contest" in sys.modules
    red, blue = build_team(str(SNAKE_TEAM), True), build_team("baseline", False)
    assert ("contest" in sys.modules) == had_contest  # pacsim's contest package only while the team's code runs
    recorder = FrameRecorder(red, blue)
    result = play_capture_game(tiny, red, blue, 6, 80, None, recorder.moved, recorder.saw)
    assert result.reason == "time" and result.culprit is None, result.error
    raider, keeper = red.agents[0], red.agents[2]
    assert len(raider.heard) == len(keeper.heard) == 20 and all(len(heard) == 4 for heard in raider.heard)
    start = list(tiny.xy(tiny.starts[0]))
    assert all(shown["marks"] == [[[start], [0, 255, 0]]] for shown in recorder.frames[1:] if shown["mover"] == 0)


def test_a_snake_case_team_missing_a_name_crashes_in_one_line(tmp_path, tiny):
    broken = tmp_path / "broken_team.py"
    broken.write_text(SNAKE_TEAM.read_text().replace("self.get_food(successor)", "self.get_fruit(successor)"))
    result = play_capture_game(tiny, build_team(str(broken), True), build_team("baseline", False), 1, 20)
    assert result.reason == "crash" and result.culprit == 0 and "get_fruit" in result.error and "\n" not in result.error


def test_quitting_the_window_is_said_not_an_error(pygame_dummy, monkeypatch, capsys):
    pygame = pygame_dummy
    monkeypatch.setenv("PACSIM_HIDDEN_WINDOW", "1")
    monkeypatch.setattr(pygame.event, "get", lambda: [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE)])
    assert main(["capture", "-l", "tinyCapture", "--window", "--seed", "9", "--frame-time", "0.05"]) == 0
    assert capsys.readouterr().out.strip() == "seed 9 on tinyCapture: quit in the window; game stopped"


# -- the tree a searching team searched ------------------------------------------------------------------

def test_the_tree_of_a_searching_teams_move_is_the_search_that_chose_it(tmp_path, capsys):
    out = tmp_path / "tree.html"
    assert main(["capture", "-r", "alphabeta", "--redOpts", "depth=2", "-l", "tinyCapture", "--seed", "5",
                 "--tree", str(out), "--tree-move", "6"]) == 0
    said = capsys.readouterr().out
    move, chosen = re.search(r"at move (\d+) on tinyCapture, seed 5: [\d,]+ nodes, chose (\w+)", said).groups()
    assert "alphabeta (red) at move" in out.read_text()
    # The same game without the tree: the red agent's move there is the one the traced search chose.
    layout = find_capture_layout("tinyCapture")
    result = play_capture_game(layout, build_team("alphabeta", True, {"depth": "2"}), build_team("baseline", False), 5, 40)
    agent, action = result.moves[int(move)]
    assert agent % 2 == 0 and int(move) >= 6 and action == chosen
    state = initial_state(layout)
    assert str(state) == (f"agent 0 to move, score 0; agents at {', '.join(str(layout.xy(cell)) for cell in state.positions)}; "
                          f"carrying [0, 0, 0, 0]; food left {layout.total_food}")  # a node's position, in one line


def test_a_tree_needs_a_searching_team(capsys, tmp_path):
    assert main(["capture", "-l", "tinyCapture", "--tree", str(tmp_path / "t.html")]) == 2
    assert "neither team searches" in capsys.readouterr().err


def test_marks_with_absurd_numbers_are_skipped_not_raised(tiny):
    from pacsim.engine.capture.frames import clean_marks

    start = tiny.xy(initial_state(tiny).positions[0])
    marks = [([start], [10**400, 0, 0]), ([start], [0.5, 10**400, 1]), ([(10**400, 1)], [1, 0, 0]), ([start], [1, 0, 0])]
    assert clean_marks(marks, tiny) == [[[list(start)], [255, 0, 0]]]  # only the last, sound one
