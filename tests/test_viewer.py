"""The viewer, headless: pixels of a rendered state, the controller, the
render loop driven by scripted events, live games in a worker, replays."""

import json
import subprocess
import sys
import time
from types import SimpleNamespace

import numpy
import pygame
import pytest
from optional import needed

from pacsim.agents import Agent, make_ghost, make_pacman
from pacsim.cli import main
from pacsim.engine import load_layout, play_game, replay
from pacsim.engine.recording import save_game
from pacsim.engine.state import initial_state
from pacsim.viewer import ViewerClosed, ViewerError, style
from pacsim.viewer.controls import Controls, handle_event
from pacsim.viewer.render import geometry, render, window_size
from pacsim.viewer.sources import LiveGame, RecordedGame, frames_of
from pacsim.viewer.window import ViewerLoop, play_in_window


def key(code, text=""):
    return pygame.event.Event(pygame.KEYDOWN, key=code, unicode=text)


def pixel(surface, point):
    return tuple(surface.get_at((round(point[0]), round(point[1]))))[:3]


@pytest.fixture
def fast_window(monkeypatch):
    """Real windows (SDL's dummy driver, allowed by PACSIM_HIDDEN_WINDOW)
    without the waits meant for people."""
    import pacsim.viewer.window as window

    monkeypatch.setenv("PACSIM_HIDDEN_WINDOW", "1")
    monkeypatch.setattr(window, "END_HOLD_SECONDS", 0.0)
    monkeypatch.setattr(window, "TICKS_PER_SECOND", 2000)
    return window


@pytest.fixture(scope="module")
def small_classic():
    return load_layout("smallClassic")


def greedy_game(layout, seed=4):
    agents = [make_pacman("greedy")] + [make_ghost("random") for _ in range(layout.num_ghosts)]
    return agents, play_game(layout, agents, seed=seed)


# -- rendering ---------------------------------------------------------------------
def test_render_draws_walls_food_capsules_and_a_scared_ghost(small_classic):
    state = initial_state(small_classic)._replace(scared=(20, 0))
    surface = pygame.Surface(window_size(small_classic))
    place = render(surface, state, frame=2, moves=0)  # frame 2: mouth wide open
    layout = state.layout
    assert pixel(surface, place.center(0, 0)) == style.WALL
    food = layout.cells[state.food_cells()[0]]
    assert pixel(surface, place.center(*food)) == style.FOOD
    capsule = layout.cells[state.capsule_cells()[0]]
    capsule_x, capsule_y = place.center(*capsule)
    assert pixel(surface, (capsule_x + place.cell * 0.18, capsule_y)) == style.CAPSULE  # wider than food
    scared_x, scared_y = place.center(*layout.cells[state.ghosts[0]])
    assert pixel(surface, (scared_x, scared_y + place.cell * 0.2)) == style.SCARED
    normal_x, normal_y = place.center(*layout.cells[state.ghosts[1]])
    assert pixel(surface, (normal_x, normal_y + place.cell * 0.2)) == style.GHOSTS[1]
    pacman_x, pacman_y = place.center(*layout.cells[state.pacman])
    assert pixel(surface, (pacman_x - place.cell * 0.2, pacman_y)) == style.PACMAN
    # Facing East (the start's Stop), the open mouth shows the background.
    assert pixel(surface, (pacman_x + place.cell * 0.35, pacman_y)) == style.BACKGROUND


def test_scared_ghost_flashes_white_near_the_end_of_its_timer(small_classic):
    state = initial_state(small_classic)._replace(scared=(3, 0))
    surface = pygame.Surface(window_size(small_classic))
    x, y = geometry(surface.get_size(), small_classic, False).center(*small_classic.cells[state.ghosts[0]])
    colors = set()
    for frame in range(2 * style.FLASH_FRAMES):
        render(surface, state, frame=frame)
        colors.add(pixel(surface, (x, y + surface.get_height() / 40)))
    assert colors == {style.SCARED, style.SCARED_FLASH}


def test_panel_and_banner_render_without_errors(small_classic):
    state = initial_state(small_classic)
    size = window_size(small_classic, zoom=2.0, panel=True)
    assert size[0] <= style.MAX_WINDOW[0] and size[1] <= style.MAX_WINDOW[1]
    surface = pygame.Surface(size)
    place = render(surface, state, frame=1, values=[("East", 3.0), ("West", float("-inf"))],
                   chosen="East", banner="WIN", note="paused")
    assert place.panel_left is not None
    assert pixel(surface, (place.panel_left + place.cell, place.board_height - 2)) == style.PANEL


# -- the controller ---------------------------------------------------------------
def test_controls_are_a_pure_function_of_events():
    controls = Controls(frame_time=0.1)
    assert handle_event(controls, key(pygame.K_PERIOD)).steps == 0  # steps only while paused
    paused = handle_event(controls, key(pygame.K_SPACE))
    assert paused.paused and not controls.paused
    stepped = handle_event(handle_event(paused, key(pygame.K_RIGHT)), key(pygame.K_PERIOD))
    assert stepped.steps == 2 and stepped.direction == "East"
    assert handle_event(controls, key(pygame.K_PLUS, "+")).frame_time == pytest.approx(0.05)
    assert handle_event(controls, key(pygame.K_MINUS, "-")).frame_time == pytest.approx(0.2)
    assert handle_event(controls, key(pygame.K_w, "w")).direction == "North"
    assert handle_event(controls, key(pygame.K_r, "r")).restart
    assert handle_event(controls, key(pygame.K_ESCAPE)).quit
    assert handle_event(controls, pygame.event.Event(pygame.QUIT)).quit


class Script:
    """Events per tick, and a clock that advances one second per tick."""

    def __init__(self, ticks):
        self.ticks = list(ticks)
        self.time = 0.0

    def events(self):
        self.time += 1.0
        return self.ticks.pop(0) if self.ticks else []

    def now(self):
        return self.time


def scripted_loop(source, ticks, layout, **options):
    script = Script(ticks)
    shown = []
    loop = ViewerLoop(source, pygame.Surface(window_size(layout)), controls=Controls(frame_time=0.5),
                      events=script.events, now=script.now, wait=lambda fps: None,
                      present=lambda: None, on_frame=lambda frame: shown.append(frame.index), **options)
    return loop, shown


def test_scripted_pause_step_restart_quit_drive_the_loop(small_classic):
    _, record = greedy_game(small_classic)
    states = replay(small_classic, record.num_ghosts, record.actions)
    space, step, quit = key(pygame.K_SPACE), key(pygame.K_PERIOD, "."), key(pygame.K_q, "q")
    ticks = [[], [], [space], [], [], [step], [step, step], [], [space], [key(pygame.K_r, "r")], [], [quit]]
    loop, shown = scripted_loop(RecordedGame(states, record.outcome), ticks, small_classic)
    assert loop.run() is False  # quit before the end
    # 0 at once, 1 a tick later, paused for two ticks, then three single steps,
    # resumed, restarted (back to 0), one more frame, quit.
    assert shown == [0, 1, 2, 3, 4, 5, 0, 1]


def test_loop_shows_a_replay_to_its_end_with_the_banner(small_classic):
    _, record = greedy_game(small_classic)
    states = replay(small_classic, record.num_ghosts, record.actions)
    loop, shown = scripted_loop(RecordedGame(states, record.outcome), [], small_classic, hold_seconds=0)
    loop.controls = Controls(frame_time=0.0)
    assert loop.run() is True
    assert shown == list(range(len(states)))


def test_frames_count_pacman_moves(small_classic):
    _, record = greedy_game(small_classic)
    frames = frames_of(replay(small_classic, record.num_ghosts, record.actions))
    assert frames[-1].moves == record.moves


# -- live games in the worker -----------------------------------------------------------
def live_options(**overrides):
    options = dict(frame_time=0.0, zoom=1.0, show_values=False, save_frames=None, gif=None)
    options.update(overrides)
    return SimpleNamespace(**options)


def test_play_in_window_returns_the_exact_record_and_saves_frames(tmp_path, fast_window):
    layout = load_layout("pincerMaze")
    agents = [make_pacman("minimax", {"depth": 1, "eval": "careful"})] + [make_ghost("random") for _ in range(2)]
    expected = play_game(layout, agents, seed=7)
    record = play_in_window(layout, agents, seed=7, options=live_options(
        show_values=True, save_frames=str(tmp_path / "frames")))
    assert (record.actions, record.score, record.outcome) == (expected.actions, expected.score, expected.outcome)
    frames = sorted((tmp_path / "frames").glob("frame-*.png"))
    assert len(frames) == len(record.actions) + 2  # every state, then the final banner


def test_gif_output_when_pillow_is_installed(tmp_path, fast_window):
    needed("PIL", "pip install -e '.[gif]'")
    layout = load_layout("pincerMaze")
    agents = [make_pacman("greedy")] + [make_ghost("random") for _ in range(2)]
    play_in_window(layout, agents, seed=7, options=live_options(gif=str(tmp_path / "game.gif")))
    assert (tmp_path / "game.gif").read_bytes()[:6] == b"GIF89a"


def test_live_game_attaches_values_and_stops_when_asked():
    layout = load_layout("pincerMaze")
    agents = [make_pacman("minimax", {"depth": 1})] + [make_ghost("random") for _ in range(2)]
    game = LiveGame(layout, agents, seed=1, show_values=True)
    game.start()
    first = None
    while first is None:
        first = game.next_frame()
    assert first.index == 0 and {action for action, _ in first.values} == set(first.state.legal_actions())
    second = None
    while second is None:
        second = game.next_frame()
    assert first.chosen in first.state.legal_actions()  # set once Pacman moved
    game.stop()
    game._run.thread.join(timeout=5)
    assert not game._run.thread.is_alive() and not game.finished


def test_closing_the_window_mid_game_raises_viewer_closed(monkeypatch, fast_window):
    layout = load_layout("smallClassic")
    agents = [make_pacman("greedy")] + [make_ghost("random") for _ in range(2)]
    posted = iter([[], [], [pygame.event.Event(pygame.QUIT)]])
    monkeypatch.setattr(pygame.event, "get", lambda: next(posted, []))
    with pytest.raises(ViewerClosed):
        play_in_window(layout, agents, seed=2, options=live_options(frame_time=10.0))


def test_keyboard_pacman_reads_the_window_keys(monkeypatch, fast_window):
    layout = load_layout("openRoom")
    pacman = make_pacman("keyboard")
    original_keys = pacman.keys
    presses = iter([[key(pygame.K_a, "a")]])
    monkeypatch.setattr(pygame.event, "get", lambda: next(presses, []))
    record = play_in_window(layout, [pacman, make_ghost("random")], seed=3, max_moves=6,
                            options=live_options())
    assert record.moves >= 1 and "West" in record.actions
    assert pacman.keys is original_keys


# -- replays -----------------------------------------------------------------------------
def saved_game(tmp_path, layout_name="smallClassic"):
    layout = load_layout(layout_name)
    _, record = greedy_game(layout)
    path = tmp_path / "game.json"
    save_game(path, record, layout, "greedy", ["random"] * record.num_ghosts)
    return path, record


def test_replay_reproduces_the_recorded_score(tmp_path, capsys):
    path, record = saved_game(tmp_path)
    assert main(["replay", str(path), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    assert f"{record.outcome} score {record.score} moves {record.moves}, matches the recorded score" in out


def test_replay_in_a_window_and_as_text(tmp_path, capsys, fast_window):
    path, record = saved_game(tmp_path, "pincerMaze")
    assert main(["replay", str(path), "--text"]) == 0
    assert capsys.readouterr().out.count("%%%%%%%%%%%") >= record.moves
    frames = tmp_path / "frames"
    assert main(["replay", str(path), "--window", "--frame-time", "0", "--save-frames", str(frames)]) == 0
    assert len(list(frames.glob("*.png"))) == len(record.actions) + 2
    assert "matches the recorded score" in capsys.readouterr().out


def test_replay_of_an_illegal_action_exits_2_with_one_line(tmp_path, capsys):
    path, _ = saved_game(tmp_path, "pincerMaze")
    data = json.loads(path.read_text())
    data["actions"] = "N" + data["actions"][1:]  # North: a wall above Pacman's start in pincerMaze
    path.write_text(json.dumps(data))
    assert main(["replay", str(path), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "do not fit the layout" in err


def test_replay_reports_a_score_that_does_not_match(tmp_path, capsys):
    path, record = saved_game(tmp_path, "pincerMaze")
    data = json.loads(path.read_text())
    data["score"] = record.score + 1
    path.write_text(json.dumps(data))
    assert main(["replay", str(path), "-q"]) == 1
    assert "DOES NOT match" in capsys.readouterr().out


def test_replay_from_a_results_store(tmp_path, capsys, monkeypatch):
    from pacsim.engine.recording import load_game

    path, _record = saved_game(tmp_path, "pincerMaze")
    store = tmp_path / "results.sqlite"
    assert main(["replay", str(store), "-q"]) == 2  # which game?
    assert "--game" in capsys.readouterr().err
    asked = []
    monkeypatch.setattr("pacsim.runner.store.load_saved_game",
                        lambda where, game: asked.append((where, game)) or load_game(path))
    assert main(["replay", str(store), "--game", "17", "-q"]) == 0
    assert asked == [(str(store), 17)] and "matches the recorded score" in capsys.readouterr().out


def test_importing_the_viewer_or_the_cli_does_not_import_pygame():
    code = ("import sys, pacsim.viewer, pacsim.cli.replay, pacsim.engine; "
            "assert 'pygame' not in sys.modules, 'pygame imported'")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=str(__import__("pathlib").Path(__file__).parents[1]))


class BlockedPacman(Agent):
    """A Pacman whose search never ends until the test releases it."""

    def __init__(self):
        import threading

        super().__init__()
        self.release = threading.Event()
        self.thinking = threading.Event()

    def get_action(self, state):
        self.thinking.set()
        self.release.wait(timeout=10)
        return "Stop"


def test_window_stays_responsive_during_a_long_search_and_closes_cleanly(small_classic):
    pacman = BlockedPacman()
    game = LiveGame(small_classic, [pacman, make_ghost("random"), make_ghost("random")], seed=1)
    quit_now = [[]] * 20 + [[key(pygame.K_q, "q")]]
    loop, shown = scripted_loop(game, quit_now, small_classic)
    game.start()
    assert pacman.thinking.wait(timeout=5)
    assert loop.run() is False  # 21 ticks ran while Pacman was still thinking
    assert shown == [0] and loop.ticks == 20
    game.stop()
    pacman.release.set()
    game._run.thread.join(timeout=5)
    assert not game._run.thread.is_alive() and game.record is None


def test_restarting_a_live_game_replays_it_from_the_start(small_classic):
    agents, expected = greedy_game(small_classic, seed=9)
    game = LiveGame(small_classic, agents, seed=9)
    ticks = [[], [], [], [], [key(pygame.K_r, "r")]]
    loop, shown = scripted_loop(game, ticks, small_classic, hold_seconds=0)
    loop.controls = Controls(frame_time=0.0)
    loop.wait = lambda fps: __import__("time").sleep(0.001)  # let the worker run
    game.start()
    assert loop.run() is True
    restart = max(index for index, value in enumerate(shown) if value == 0)
    assert restart > 0 and shown[restart:] == list(range(len(expected.actions) + 1))
    assert (game.record.actions, game.record.score) == (expected.actions, expected.score)


def test_gif_without_pillow_asks_to_install_the_extra(tmp_path, capsys, monkeypatch):
    import pacsim.viewer.capture as capture

    monkeypatch.setattr(capture.importlib.util, "find_spec", lambda name: None)
    path, _ = saved_game(tmp_path, "pincerMaze")
    assert main(["replay", str(path), "-q", "--gif", str(tmp_path / "x.gif")]) == 2
    err = capsys.readouterr().err
    assert "pip install 'pacsim[gif]'" in err and err.count("\n") == 1


# -- frames and GIFs without a window ------------------------------------------------------
def png_pixels(directory):
    return [pygame.image.tobytes(pygame.image.load(str(path)), "RGB")
            for path in sorted(directory.glob("frame-*.png"))]


def test_play_writes_frames_and_a_gif_off_screen_at_full_speed(tmp_path, capsys, monkeypatch):
    needed("PIL", "pip install -e '.[gif]'")

    def no_window(*args, **kwargs):
        raise AssertionError("a window was opened")

    monkeypatch.setattr(pygame.display, "set_mode", no_window)
    paused = []  # --frame-time paces the GIF, not the writing: nothing may wait

    class CountingClock:
        def tick(self, *args):
            paused.append(("Clock.tick", args))
            return 0

    monkeypatch.setattr(pygame.time, "Clock", CountingClock)
    monkeypatch.setattr(time, "sleep", lambda seconds: paused.append(("sleep", seconds)))
    frames, gif = tmp_path / "frames", tmp_path / "game.gif"
    assert main(["play", "-l", "pincerMaze", "-p", "greedy", "-q", "-n", "2", "--seed", "7",
                 "--frame-time", "5", "--save-frames", str(frames), "--gif", str(gif)]) == 0
    assert paused == []
    lines = capsys.readouterr().out.splitlines()
    layout = load_layout("pincerMaze")
    for game in (1, 2):
        agents = [make_pacman("greedy")] + [make_ghost("random") for _ in range(2)]
        record = play_game(layout, agents, seed=6 + game)
        written = sorted((frames / f"game-{game}").glob("frame-*.png"))
        assert len(written) == len(record.actions) + 2  # every state, then the final banner
        assert (tmp_path / f"game-{game}.gif").read_bytes()[:6] == b"GIF89a"
        assert f"frames in {frames / f'game-{game}'}" in lines[game - 1]


def test_headless_frames_are_the_frames_the_window_saves(tmp_path, fast_window):
    layout = load_layout("pincerMaze")

    def agents():
        return [make_pacman("minimax", {"depth": 1, "eval": "careful"})] + [make_ghost("random") for _ in range(2)]

    from pacsim.viewer import play_to_files

    options = live_options(show_values=True, save_frames=str(tmp_path / "window"))
    in_window = play_in_window(layout, agents(), seed=3, options=options, max_moves=30)
    options = live_options(show_values=True, save_frames=str(tmp_path / "headless"), frame_time=5.0)
    headless = play_to_files(layout, agents(), seed=3, options=options, max_moves=30)
    assert headless.actions == in_window.actions
    window_frames, headless_frames = png_pixels(tmp_path / "window"), png_pixels(tmp_path / "headless")
    assert len(headless_frames) == len(headless.actions) + 2
    assert headless_frames == window_frames


def test_replay_writes_frames_without_a_window(tmp_path, capsys):
    path, record = saved_game(tmp_path, "pincerMaze")
    frames = tmp_path / "frames"
    assert main(["replay", str(path), "-q", "--save-frames", str(frames)]) == 0
    assert len(png_pixels(frames)) == len(record.actions) + 2
    assert f"frames in {frames}" in capsys.readouterr().out


# -- when a window can be seen --------------------------------------------------------------
@pytest.mark.parametrize(("environ", "platform", "seen"), [
    ({}, "linux", False),
    ({"DISPLAY": ":0"}, "linux", True),
    ({"WAYLAND_DISPLAY": "wayland-0"}, "linux", True),
    ({"DISPLAY": ":0", "SDL_VIDEODRIVER": "dummy"}, "linux", False),
    ({"WAYLAND_DISPLAY": "wayland-0", "SDL_VIDEODRIVER": "Offscreen"}, "linux", False),
    ({}, "darwin", True),
    ({"SDL_VIDEODRIVER": "dummy"}, "win32", False),
])
def test_the_display_rule(environ, platform, seen):
    from pacsim.viewer import settings

    assert settings.display_available(environ, platform) is seen
    if seen:
        settings.require_display(environ, platform)
    else:
        with pytest.raises(ViewerError, match="--window"):
            settings.require_display(environ, platform)
        settings.require_display({**environ, "PACSIM_HIDDEN_WINDOW": "1"}, platform)  # the tests' way in


# -- quitting ------------------------------------------------------------------------------
def quit_in_window(monkeypatch, window_module, number):
    """Press q as soon as the window opens for the ``number``-th time."""
    opened = []
    real_open = window_module.open_window

    def open_and_count(size, title):
        opened.append(title)
        return real_open(size, title)

    monkeypatch.setattr(window_module, "open_window", open_and_count)
    monkeypatch.setattr(pygame.event, "get", lambda: [key(pygame.K_q, "q")] if len(opened) == number else [])


def test_quitting_the_window_is_normal_and_keeps_the_summary(monkeypatch, capsys, fast_window):
    quit_in_window(monkeypatch, fast_window, number=2)
    argv = ["play", "-l", "pincerMaze", "-p", "greedy", "-n", "3", "--seed", "5", "--window", "--frame-time", "0"]
    assert main(argv) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert len(lines) == 3 and captured.err == ""
    assert lines[0].startswith("game 1/3 (seed 5): ")
    assert lines[1] == "game 2/3 (seed 6): quit in the window"
    assert lines[2].startswith("1 game, ") and "win rate" in lines[2]


def test_quitting_before_any_game_ended(monkeypatch, capsys, fast_window, tmp_path):
    quit_in_window(monkeypatch, fast_window, number=1)
    assert main(["play", "-l", "pincerMaze", "--seed", "5", "--window", "--frame-time", "0"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "no game finished"
    path, _ = saved_game(tmp_path, "pincerMaze")
    quit_in_window(monkeypatch, fast_window, number=1)
    assert main(["replay", str(path), "--window", "--frame-time", "0"]) == 0
    assert "matches the recorded score" in capsys.readouterr().out


# -- the picture: walls, score bar, panel, exports -------------------------------------------
SCORE_GREEN, NOTE_RED = (0, 255, 0), (255, 0, 0)


@pytest.fixture
def marked_text(monkeypatch):
    """Score-bar and panel text in pure green, the note in pure red: text is
    the only antialiased drawing, so a pixel's channels say whose it is."""
    monkeypatch.setattr(style, "TEXT", SCORE_GREEN)
    monkeypatch.setattr(style, "DIM_TEXT", NOTE_RED)
    monkeypatch.setattr(style, "HIGHLIGHT_TEXT", SCORE_GREEN)


def only_lit(surface, channel, box=None):
    """(xs, ys) of the pixels inside ``box`` (left, top, right, bottom; default
    all) where ``channel`` is the only colour channel lit."""
    left, top, right, bottom = (round(edge) for edge in box or (0, 0, *surface.get_size()))
    lit = pygame.surfarray.array3d(surface)[left:right, top:bottom] > 0
    xs, ys = numpy.nonzero(lit[..., channel] & (lit.sum(axis=2) == 1))
    return xs + left, ys + top


def colored(surface, color, box):
    """(xs, ys) of the pixels of exactly ``color`` inside ``box``."""
    left, top, right, bottom = (round(edge) for edge in box)
    pixels = pygame.surfarray.array3d(surface)[left:right, top:bottom]
    xs, ys = numpy.nonzero((pixels == numpy.array(color)).all(axis=2))
    return xs + left, ys + top


def test_square_wall_blocks_are_solid():
    layout = load_layout("classic")
    surface = pygame.Surface(window_size(layout))
    place = render(surface, initial_state(layout))
    walls = layout.walls
    corners = [(row, column) for row, column in walls
               if {(row, column + 1), (row + 1, column), (row + 1, column + 1)} <= walls]
    assert len(corners) > 20
    for row, column in corners:  # the point where the four walls meet
        x, y = place.center(row, column)
        assert pixel(surface, (x + place.cell / 2, y + place.cell / 2)) == style.WALL, (row, column)


@pytest.mark.parametrize("name", ["openRoom", "tinyGhostMaze", "smallClassic", "wideClassic", "classic"])
@pytest.mark.parametrize("zoom", [1.0, 2.0])
@pytest.mark.parametrize("panel", [False, True])
def test_score_bar_text_does_not_overlap(name, zoom, panel, marked_text):
    layout = load_layout(name)
    surface = pygame.Surface(window_size(layout, zoom, panel))
    state = initial_state(layout)._replace(score=-12345)
    place = render(surface, state, moves=1234, note="paused · 0.005s/frame", panel=panel,
                   values=[("North", 1.0)] if panel else None)
    bar = (0, place.status_top, surface.get_width(), surface.get_height())
    score_xs, _ = only_lit(surface, 1, bar)
    note_xs, _ = only_lit(surface, 0, bar)
    assert score_xs.size and note_xs.size
    assert score_xs.max() < note_xs.min()
    assert score_xs.min() >= place.left and note_xs.max() < place.left + place.width


@pytest.mark.parametrize("name", ["trapMaze", "tinyGhostMaze", "smallClassic", "wideClassic"])
@pytest.mark.parametrize("zoom", [1.0, 2.0])
def test_value_panel_is_no_taller_than_the_board(name, zoom, marked_text):
    layout = load_layout(name)
    surface = pygame.Surface(window_size(layout, zoom, panel=True))
    values = [("North", -12.5), ("South", 3.0), ("East", 123.4), ("West", float("-inf")), ("Stop", 0.0)]
    place = render(surface, initial_state(layout), values=values, chosen="Stop", moves=3)
    panel = (place.panel_left, 0, place.left + place.width, surface.get_height())
    _, text_ys = only_lit(surface, 1, panel)
    assert text_ys.size and text_ys.max() < place.board_height
    _, highlight_ys = colored(surface, style.HIGHLIGHT, panel)
    assert highlight_ys.size and highlight_ys.max() < place.board_height


def test_exported_frames_have_no_speed_note(tmp_path, small_classic, marked_text):
    from pacsim.viewer.capture import Capture
    from pacsim.viewer.settings import WindowSettings

    _, record = greedy_game(small_classic)
    states = replay(small_classic, record.num_ghosts, record.actions)[:6]
    capture = Capture(WindowSettings(save_frames=str(tmp_path)), small_classic)
    loop, _ = scripted_loop(RecordedGame(states, None), [], small_classic, capture=capture, hold_seconds=0)
    assert loop.run() is True
    capture.close()
    assert only_lit(loop.surface, 0)[0].size  # the window shows the note
    frames = sorted(tmp_path.glob("frame-*.png"))
    assert len(frames) == len(states) + 1
    for path in frames:
        picture = pygame.image.load(str(path))
        assert only_lit(picture, 1)[0].size  # the score is there
        assert not only_lit(picture, 0)[0].size, path.name


def test_replay_offers_no_show_values(capsys):
    assert main(["replay", "--help"]) == 0
    assert "--show-values" not in capsys.readouterr().out
    assert main(["play", "--help"]) == 0
    assert "--show-values" in capsys.readouterr().out


# -- what a person sees ------------------------------------------------------------
@pytest.mark.parametrize("name", ["tinyGhostMaze", "smallClassic", "classic"])
def test_the_default_window_is_big_enough_to_see_and_fits_the_screen(name):
    layout = load_layout(name)
    for panel in (False, True):
        width, height = window_size(layout, panel=panel)
        assert width >= style.MIN_WINDOW[0] or height >= style.MIN_WINDOW[1] - 1
        assert width <= style.MAX_WINDOW[0] and height <= style.MAX_WINDOW[1]
    bigger = window_size(layout, zoom=1.5)
    assert bigger >= window_size(layout) and bigger[0] <= style.MAX_WINDOW[0]


def test_pacman_has_an_open_mouth_in_every_frame(small_classic):
    state = initial_state(small_classic)  # facing East: the start's Stop
    surface = pygame.Surface(window_size(small_classic))
    for frame in range(len(style.MOUTH_DEGREES)):
        place = render(surface, state, frame=frame)
        pacman_x, pacman_y = place.center(*small_classic.cells[state.pacman])
        assert pixel(surface, (pacman_x + place.cell * 0.38, pacman_y)) == style.BACKGROUND


def test_the_value_panel_keeps_its_text_sizes_whatever_the_number_of_moves(small_classic, monkeypatch):
    from pacsim.viewer.render import Renderer

    renderer = Renderer()
    renderer.heading = ("Search values", "expectimax, depth 2", "ghosts: chance, uniform")
    asked: list[int] = []
    original = Renderer._font
    monkeypatch.setattr(Renderer, "_font", lambda self, size: asked.append(size) or original(self, size))
    surface = pygame.Surface(window_size(small_classic, panel=True))
    sizes = []
    for values in ([("East", 1.0), ("West", 2.0)], [("North", 1.0), ("South", 2.0), ("East", 3.0), ("Stop", 0.0)]):
        asked.clear()
        renderer.draw(surface, initial_state(small_classic), values=values, chosen="East")
        sizes.append(sorted(set(asked)))
    assert sizes[0] == sizes[1]


@pytest.mark.parametrize("pacman_row", [1, 2, 3])
def test_the_outcome_banner_never_hides_pacman(pacman_row):
    layout = load_layout("tinyGhostMaze")
    start = initial_state(layout)
    pacman = next(index for index, (row, _) in enumerate(layout.cells) if row == pacman_row)
    state = start._replace(pacman=pacman)
    plain, with_banner = pygame.Surface(window_size(layout)), pygame.Surface(window_size(layout))
    place = render(plain, state)
    render(with_banner, state, banner="LOSS")
    x, y = place.center(*layout.cells[pacman])
    half = place.cell / 2
    box = pygame.Rect(round(x - half), round(y - half), round(place.cell), round(place.cell))
    assert pygame.image.tobytes(plain.subsurface(box), "RGB") == pygame.image.tobytes(with_banner.subsurface(box), "RGB")
    assert pygame.image.tobytes(plain, "RGB") != pygame.image.tobytes(with_banner, "RGB")


def test_the_window_is_named_before_it_opens(fast_window, monkeypatch):
    named_when_opened = []
    original = pygame.display.set_mode

    def set_mode(*args, **kwargs):
        named_when_opened.append(pygame.display.get_caption()[0] if pygame.display.get_init() else "")
        return original(*args, **kwargs)

    monkeypatch.setattr(pygame.display, "set_mode", set_mode)
    fast_window.open_window((100, 80), "pacsim: tinyGhostMaze (seed 1)")
    try:
        assert named_when_opened == ["pacsim: tinyGhostMaze (seed 1)"]
        assert pygame.display.get_caption()[0] == "pacsim: tinyGhostMaze (seed 1)"
    finally:
        pygame.display.quit()


def test_the_text_board_comes_with_its_legend(capsys):
    assert main(["play", "-l", "tinyGhostMaze", "-p", "greedy", "-t", "--seed", "3", "-n", "2"]) == 0
    out = capsys.readouterr().out
    from pacsim.engine.state import TEXT_LEGEND

    assert out.count(TEXT_LEGEND) == 2  # once above each game's first board
    for symbol in "PG.o%":
        assert f"{symbol} " in TEXT_LEGEND


def test_keyboard_play_without_a_terminal_says_what_it_needs(monkeypatch, capsys):
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # a pipe: not a terminal
    assert main(["play", "-l", "tinyGhostMaze", "-p", "keyboard", "-q"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "needs a terminal" in err and "--window" in err


def test_keyboard_input_that_ends_mid_game_stops_it_as_the_person_s_choice_not_an_error(monkeypatch):
    """Issue 39: Ctrl-D is the person stopping (play says it in one line), no longer the agent's error."""
    import builtins

    from pacsim.agents.simple import KeyboardInputEnded

    def no_more_input(prompt=""):
        raise EOFError

    monkeypatch.setattr(builtins, "input", no_more_input)
    layout = load_layout("tinyGhostMaze")
    with pytest.raises(KeyboardInputEnded):
        play_game(layout, [make_pacman("keyboard"), make_ghost("random")], seed=1)


def test_a_caught_pacman_shows_over_the_ghost_that_caught_it(small_classic):
    """In a lost game's last frame the ghost on Pacman's cell must not hide it: Pacman, ringed, on top."""
    from pacsim.engine.state import LOST

    start = initial_state(small_classic)
    state = start._replace(ghosts=(start.pacman, *start.ghosts[1:]), status=LOST)
    surface = pygame.Surface(window_size(small_classic))
    place = render(surface, state)
    x, y = place.center(*small_classic.cells[state.pacman])
    half = place.cell / 2
    cell = (x - half, y - half, x + half, y + half)
    assert colored(surface, style.PACMAN, cell)[0].size > place.cell ** 2 / 8  # Pacman, not the ghost's body alone
    assert colored(surface, style.CAUGHT, cell)[0].size and colored(surface, style.GHOSTS[0], cell)[0].size


def test_the_outcome_banner_darkens_whole_rows_from_edge_to_edge(small_classic):
    state = initial_state(small_classic)
    plain, with_banner = pygame.Surface(window_size(small_classic)), pygame.Surface(window_size(small_classic))
    place = render(plain, state)
    render(with_banner, state, banner="LOSS")
    changed = (pygame.surfarray.array3d(plain) != pygame.surfarray.array3d(with_banner)).any(axis=2)
    for x in (round(place.left + place.cell / 2), round(place.left + place.board_width - place.cell / 2)):  # outer walls
        ys = numpy.nonzero(changed[x])[0]
        assert ys.size, x
        top, bottom = (ys.min() - place.top) / place.cell, (ys.max() + 1 - place.top) / place.cell
        assert abs(top - round(top)) < 0.05 and abs(bottom - round(bottom)) < 0.05, (x, top, bottom)  # whole rows
        assert ys.size == ys.max() + 1 - ys.min()  # one band


def test_a_keyboard_games_saved_frames_show_its_keys(monkeypatch, fast_window, marked_text, tmp_path):
    """docs/playing.md: a keyboard game shows its keys in the footer, in saved frames as in the window."""
    layout = load_layout("openRoom")
    presses = iter([[key(pygame.K_a, "a")]])
    monkeypatch.setattr(pygame.event, "get", lambda: next(presses, []))
    frames = tmp_path / "frames"
    play_in_window(layout, [make_pacman("keyboard"), make_ghost("random")], seed=3, max_moves=4,
                   options=live_options(save_frames=str(frames)))
    saved = sorted(frames.glob("frame-*.png"))
    assert saved and all(only_lit(pygame.image.load(str(path)), 0)[0].size for path in saved)


def test_the_t_key_opens_the_tree_of_the_position_shown_and_draws_its_plan(small_classic):
    from pacsim.viewer.render import geometry

    _, record = greedy_game(small_classic)
    states = replay(small_classic, record.num_ghosts, record.actions)
    later = next(state for state in states[20:] if state.turn == 0 and state.pacman != states[0].pacman)
    asked = []

    def on_tree(state):
        asked.append(state)
        return [state, later]

    pause, tree = key(pygame.K_SPACE), key(pygame.K_t, "t")
    loop, _ = scripted_loop(RecordedGame(states, record.outcome), [[pause], [tree], []], small_classic,
                                on_tree=on_tree)
    for _ in range(3):
        loop.tick()
    assert asked == [loop.current.state] and asked[0].turn == 0
    place = geometry(loop.surface.get_size(), small_classic, False)
    assert pixel(loop.surface, place.center(*later.position(later.pacman))) == style.PACMAN  # where the plan ends
    assert handle_event(Controls(keyboard=True), tree).tree is False  # a person playing: t does nothing
