"""HTML replays, the results page and the notebook display (pacsim.web):
the frames against the rules, the command line, and a real browser when
one is installed."""

import importlib.util
import json
import math
import re
import shutil
import sys
from pathlib import Path

import pytest
from browsing import waiting
from optional import needed

import pacsim
from pacsim.cli import main
from pacsim.engine import load_layout, parse_layout
from pacsim.engine.recording import load_game, save_game
from pacsim.web.frames import SearchValues, game_data, move_positions

CAPSULE_LOOP = """\
%%%%%%%%%%
%P o . . %
% %%%%%% %
%.  G   .%
%%%%%%%%%%"""
"""With seed 1 greedy Pacman eats the capsule, then the scared ghost (+200), then wins in 13 moves."""


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """A recorded game where Pacman eats a capsule and a scared ghost."""
    layout = parse_layout(CAPSULE_LOOP, name="capsuleLoop")
    games = pacsim.play(layout, pacman="greedy", ghosts="random", games=1, seed=1)
    path = tmp_path_factory.mktemp("web") / "game.json"
    save_game(path, games[0].record, layout, "greedy", ["random"])
    return path


def embedded_data(page: str) -> dict:
    found = re.search(r'<script type="application/json" id="game">(.*?)</script>', page, re.S)
    assert found, "no game data in the page"
    return json.loads(found.group(1))


def test_frames_hold_every_position_the_rules_give(recorded):
    saved = load_game(recorded)
    states = saved.states()
    shown = move_positions(states)
    data = game_data(states, title="t", outcome=saved.outcome, recorded_score=saved.score)
    ghosts = data["ghosts"]
    items = set(data["food"]) | set(data["capsules"])
    assert len(data["frames"]) == saved_moves(states) + 1
    scared_seen = False
    for frame, state in zip(data["frames"], shown, strict=True):
        items -= set(frame[2 + 3 * ghosts + 1:])  # what the page does with the eaten cells
        assert items == set(state.food_cells()) | set(state.capsule_cells())
        assert frame[:2 + 3 * ghosts + 1] == [state.pacman, state.directions[0], *state.ghosts, *state.directions[1:],
                                               *state.scared, state.score]
        scared_seen |= any(state.scared)
    assert scared_seen, "the game should show scared ghosts"
    assert data["score"] == saved.score == states[-1].score


def test_values_without_a_finite_number_still_make_json(recorded):
    states = load_game(recorded).states()
    rows = [[("North", math.inf), ("South", -math.inf), ("Stop", math.nan), ("East", 2.34567)]] + [None] * 13
    data = game_data(states, title="t", outcome="win", recorded_score=727, values=SearchValues(("Search values",), rows))
    assert json.loads(json.dumps(data, allow_nan=False))["values"][0] == [["North", "+inf"], ["South", "-inf"], ["Stop", "nan"], ["East", 2.346]]


def saved_moves(states):
    return sum(1 for state in states[:-1] if state.turn == 0)


def test_replay_html_writes_one_self_contained_page(recorded, tmp_path, capsys):
    out = tmp_path / "game.html"
    assert main(["replay", str(recorded), "--html", str(out)]) == 0
    assert "matches the recorded score" in capsys.readouterr().out
    page = out.read_text(encoding="utf-8")
    data = embedded_data(page)
    assert data["score"] == load_game(recorded).score and data["outcome"] == "win"
    assert 'id="score"' in page and "<script src" not in page and "http" not in page.replace("http-equiv", "")


def test_a_layout_name_cannot_end_the_script_early(recorded, tmp_path):
    record = json.loads(recorded.read_text())
    record["layout"]["name"] = "</script><b>x"
    hostile = tmp_path / "hostile.json"
    hostile.write_text(json.dumps(record))
    out = tmp_path / "hostile.html"
    assert main(["replay", str(hostile), "--html", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert "</script><b>" not in page
    assert embedded_data(page)["layout"]["name"] == "</script><b>x"


def test_an_unwritable_page_is_a_one_line_error(recorded, tmp_path, capsys):
    (tmp_path / "blocker").write_text("")  # a file where the page's folder should be
    out = tmp_path / "blocker" / "game.html"
    assert main(["replay", str(recorded), "--html", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"--html {out}" in err and f"{tmp_path / 'blocker'} is a file, not a folder" in err
    assert main(["replay", str(recorded), "--html", str(tmp_path / "new" / "game.html")]) == 0  # made, as for every output


def test_values_per_move_come_from_the_recorded_pacman(tmp_path, capsys):
    layout = load_layout("tinyGhostMaze")
    games = pacsim.play(layout, pacman="minimax:depth=1", ghosts="random", seed=1)
    path = tmp_path / "minimax.json"
    save_game(path, games[0].record, layout, "minimax:depth=1", ["random"] * games[0].record.num_ghosts)
    out = tmp_path / "values.html"
    assert main(["replay", str(path), "--html", str(out), "--html-values"]) == 0
    data = embedded_data(out.read_text(encoding="utf-8"))
    values = data["values"]
    assert data["valuesHeading"][:2] == ["Search values", "minimax, depth 1"]  # as the viewer's panel says it
    assert len(values) == len(data["frames"]) and values[-1] is None
    first = dict(values[0])
    played = data["actions"][data["frames"][1][1]]
    assert first[played] == max(first.values())  # minimax plays its best-valued action


def test_values_of_a_pacman_that_does_not_search_are_a_one_line_error(recorded, tmp_path, capsys):
    assert main(["replay", str(recorded), "--html", str(tmp_path / "x.html"), "--html-values"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'greedy' does not search" in err
    assert main(["replay", str(recorded), "-q", "--html-values"]) == 2
    assert "only with --html" in capsys.readouterr().err


def test_html_and_a_gif_from_one_replay(recorded, tmp_path):
    needed("PIL", "pip install -e '.[gif]'")
    assert main(["replay", str(recorded), "--html", str(tmp_path / "game.html"), "--gif", str(tmp_path / "game.gif"),
                 "--frame-time", "0"]) == 0
    assert (tmp_path / "game.html").stat().st_size > 0 and (tmp_path / "game.gif").stat().st_size > 0


# -- Python and the notebook -----------------------------------------------------

class FakeShell:
    """What :func:`pacsim.web.notebook.register` uses of IPython's shell."""

    def __init__(self):
        html = type("HtmlFormatter", (), {"types": None, "for_type": lambda self, kind, show: self.types.__setitem__(kind, show)})()
        html.types = {}
        self.display_formatter = type("Formatters", (), {"formatters": {"text/html": html}})()


def test_records_and_played_games_show_as_the_player(recorded):
    from pacsim.engine import GameRecord
    from pacsim.engine.recording import SavedGame
    from pacsim.web.notebook import register

    shell = FakeShell()
    assert register(shell)
    shown = shell.display_formatter.formatters["text/html"].types
    saved = load_game(recorded)
    (page,) = iframe_pages(shown[SavedGame](saved))
    assert embedded_data(page)["score"] == saved.score
    games = pacsim.play("tinyGhostMaze", "greedy", "random", games=2, seed=4)
    assert [game.record.actions for game in games] == [game.record.actions for game in pacsim.play("tinyGhostMaze", "greedy", "random", games=2, seed=4)]
    (page,) = iframe_pages(shown[GameRecord](games[1].record))  # a shipped maze is found by its name
    assert embedded_data(page)["score"] == games[1].score
    (page,) = iframe_pages(shown[GameRecord](pacsim.play(parse_layout(CAPSULE_LOOP, name="capsuleLoop"))[0].record))
    assert embedded_data(page)["title"].endswith("capsuleLoop")  # a maze played here is found by its name too
    (page,) = iframe_pages(games._repr_html_())
    assert embedded_data(page)["score"] == games[0].score and games._repr_html_().count("<tr>") == 3


def test_play_refuses_bad_arguments_in_one_line():
    from pacsim.errors import AgentError, ConfigError

    with pytest.raises(ConfigError, match="num_ghosts=3: layout 'tinyGhostMaze' has 1 ghosts"):
        pacsim.play("tinyGhostMaze", num_ghosts=3)
    with pytest.raises(AgentError):
        pacsim.play("tinyGhostMaze", pacman="nobody")
    assert {"play", "load_record"} <= set(pacsim.__all__)


def test_the_example_notebook_runs_top_to_bottom(tmp_path):
    nbformat, nbclient, _ = (needed(module, "pip install -e '.[notebook]'") for module in ("nbformat", "nbclient", "ipykernel"))
    notebook = nbformat.read(Path(__file__).resolve().parents[1] / "examples" / "notebook.ipynb", as_version=4)
    nbclient.NotebookClient(notebook, timeout=120, resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs]
    assert not [output for output in outputs if output.output_type == "error"]
    shown = [output["data"].get("text/html", "") for output in outputs if "data" in output]
    assert sum("<iframe srcdoc=" in text for text in shown) == 3  # the games, one game, the loaded record
    assert "<table" in shown[-1] and "win rate [95% CI]" in shown[-1]  # pacsim.report as a notebook shows it


# -- the results page ----------------------------------------------------------------

@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """Three conditions; greedy wins every game here, random loses three of four and wins one."""
    from pacsim.runner import load_experiment, run_experiment

    directory = tmp_path_factory.mktemp("web-report")
    path = directory / "exp.toml"
    path.write_text(f"""
name = "web"
games = 4
seed = 5
max_moves = 100
store = "{directory / 'results.sqlite'}"
[grid]
pacman = ["greedy", "random", "alphabeta:depth=1"]
ghosts = ["random"]
layout = ["tinyGhostMaze"]
""", encoding="utf-8")
    return run_experiment(load_experiment(path), workers=1, quiet=True).store


@pytest.fixture(scope="module")
def report_page(store, tmp_path_factory):
    out = tmp_path_factory.mktemp("web-page") / "report.html"
    assert main(["report", str(store), "--html", str(out)]) == 0
    return out


def iframe_pages(page: str) -> list[str]:
    import html

    return [html.unescape(source) for source in re.findall(r'<iframe srcdoc="([^"]*)"', page)]


CAPTION = re.compile(r"<figcaption>first (loss|win): game (\d+) of (\d+) \(store id (\d+)\), seed (\d+), score (-?\d+)</figcaption>")


def table_cells(page: str, kind: str) -> list[list[str]]:
    """The text of each row's cells (headings first) of the report's table of ``kind`` (see report.css)."""
    table = re.search(rf'<div class="wide {kind}">(.*?)</div>', page, re.S)
    assert table, f"no {kind} table"
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", table.group(1), re.S)
    return [[re.sub(r"<[^>]+>", "", cell).replace("&nbsp;", " ").strip() for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
            for row in rows]


def test_report_html_holds_the_table_comparisons_provenance_and_replays(store, report_page):
    from pacsim.report import load_results, summarize
    from pacsim.report.format import readable_summary
    from pacsim.runner.store import load_saved_game

    page = report_page.read_text(encoding="utf-8")
    results = load_results(store)
    expected = readable_summary(summarize(results))
    heading, *rows = table_cells(page, "conditions")
    assert heading == list(expected.columns)
    # Every condition plays random ghosts on tinyGhostMaze: the tables name what differs, the page says the rest once.
    assert [row[0] for row in rows] == [label.removesuffix("/random/tinyGhostMaze") for label in expected["condition"]]
    assert [row[4] for row in rows] == list(expected["win rate [95% CI]"]) and "<code>random/tinyGhostMaze</code>" in page
    assert {(row[0], row[1]) for row in table_cells(page, "pairs")[1:]} == {("greedy", "random"), ("greedy", "alphabeta:depth=1"),
                                                                            ("random", "alphabeta:depth=1")}
    assert pacsim.__version__ in page and results["hostname"].iloc[0] in page
    assert f"<td>{results['python_version'].iloc[0]}</td>" in page and "no search</td>" in page  # greedy
    replays = iframe_pages(page)
    captions = CAPTION.findall(page)
    chosen = []
    for _, games in results.groupby("condition", sort=False):
        for outcome in ("loss", "win"):
            first = games[games["outcome"] == outcome].sort_values("game_index").head(1)
            chosen += [(outcome, str(row.game_index + 1), str(len(games)), str(row.id), str(row.seed)) for row in first.itertuples()]
    assert [caption[:5] for caption in captions] == chosen  # greedy never lost: its first win only
    for (outcome, _, _, game_id, _, score), replay in zip(captions, replays, strict=True):
        data = embedded_data(replay)
        assert data["outcome"] == outcome and data["score"] == int(score) == load_saved_game(store, int(game_id)).score
    # Game k of every condition has one seed (a paired design): the captions say so by their game numbers.
    assert len({seed for *_, seed, _ in captions}) < len(captions)
    assert len({(number, seed) for _, number, _, _, seed, _ in captions}) == len({seed for *_, seed, _ in captions})
    if importlib.util.find_spec("matplotlib") is not None:
        assert page.count("<svg") == 1


def test_report_html_says_it_wrote_the_page_instead_of_printing_the_table(store, tmp_path, capsys):
    out = tmp_path / "report.html"
    assert main(["report", str(store), "--html", str(out)]) == 0
    assert capsys.readouterr().out == f"wrote the HTML report (3 rows) to {out}\n"
    assert main(["report", str(store), "--html", str(out), "--out", str(tmp_path / "report.txt")]) == 0
    assert "win rate" in (tmp_path / "report.txt").read_text(encoding="utf-8") and "win rate" not in capsys.readouterr().out


def test_report_html_without_matplotlib_says_what_the_figures_need(store, monkeypatch):
    from pacsim.report import load_results, summarize
    from pacsim.web.report_page import figures_section

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if not installed
    results = load_results(store)
    section = figures_section(results, summarize(results), ["condition"])
    assert "The figures need matplotlib" in section and "pacsim[plot]" in section
    assert "--plot" not in section  # nobody asked for --plot


def test_values_of_a_stored_game_whose_pacman_spec_gives_its_depth(store, tmp_path):
    from pacsim.report import load_results

    results = load_results(store)
    game_id = int(results[results["pacman"] == "alphabeta:depth=1"]["id"].iloc[0])
    out = tmp_path / "values.html"
    assert main(["replay", str(store), "--game", str(game_id), "--html", str(out), "--html-values", "-q"]) == 0
    data = embedded_data(out.read_text(encoding="utf-8"))
    assert data["values"][0] and "alphabeta:depth=1 vs" in out.read_text(encoding="utf-8")


def test_a_condition_without_a_loss_or_a_win_shows_its_first_game(store):
    from pacsim.report import load_results
    from pacsim.web.report_page import replays_section

    results = load_results(store)
    results = results[results["pacman"] == "random"].assign(outcome="timeout")  # as if every game ran out of moves
    section = replays_section(str(store), results)
    first = results.sort_values("game_index").iloc[0]
    assert f"first game (timeout): game {first['game_index'] + 1} of {len(results)} (store id {first['id']}), seed {first['seed']}," in section
    assert len(iframe_pages(section)) == 1


def test_a_damaged_game_leaves_the_rest_of_the_report(store, tmp_path):
    import sqlite3

    damaged = tmp_path / "damaged.sqlite"
    shutil.copy(store, damaged)
    from pacsim.report import load_results
    from pacsim.report.page_games import chosen_games

    results = load_results(store)
    (_, row), *_ = chosen_games(results[results["pacman"] == "random"])
    game_id = int(row["id"])
    with sqlite3.connect(damaged) as connection:
        connection.execute("UPDATE games SET actions = 'not a log' WHERE id = ?", (game_id,))
    connection.close()
    out = tmp_path / "report.html"
    assert main(["report", str(damaged), "--html", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert f"(store id {game_id})," in page and page.count("cannot replay:") == 1
    assert len(iframe_pages(page)) == len(re.findall("<figcaption>first ", page)) - 1


def test_report_html_of_a_comparison_shows_the_two_conditions(store, tmp_path):
    needed("matplotlib", "pip install -e '.[plot]'")  # the figure of the whole grid beside the two rows was a traceback
    out = tmp_path / "compared.html"
    assert main(["report", str(store), "--compare", "greedy/random/tinyGhostMaze", "random/random/tinyGhostMaze",
                 "--html", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert page.count("<h3>") == 2 and page.count("<svg") == 1 and "McNemar p" in page


def test_report_html_to_an_unwritable_folder_is_a_one_line_error(store, tmp_path, capsys):
    (tmp_path / "blocker").write_text("")  # a file where the page's folder should be
    out = tmp_path / "blocker" / "report.html"
    assert main(["report", str(store), "--html", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"--html {out}" in err


# -- in a real browser (tests/conftest.py starts it; skipped without it, failed under CI) --------

def text_of(browser, element_id):
    return browser.find_element("id", element_id).text


def wait_for_text(browser, element_id, expected, seconds=10.0):
    waiting(browser, seconds).until(lambda driver: text_of(driver, element_id) == expected)


def pixels_of_color(browser, color) -> int:
    return browser.execute_script("""
        const canvas = document.getElementById("board"), [r, g, b] = arguments[0];
        const data = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
        let count = 0;
        for (let i = 0; i < data.length; i += 4) if (data[i] === r && data[i + 1] === g && data[i + 2] === b) count++;
        return count;""", list(color))


def test_the_page_plays_steps_and_links_to_a_move_in_chromium(browser, recorded, tmp_path):
    from selenium.webdriver.common.keys import Keys

    from pacsim.viewer import style

    page = tmp_path / "game.html"
    assert main(["replay", str(recorded), "--html", str(page)]) == 0
    saved = load_game(recorded)
    shown = move_positions(saved.states())
    browser.get(page.as_uri())
    assert text_of(browser, "score") == "0" and text_of(browser, "moves") == str(len(shown) - 1)
    body = browser.find_element("tag name", "body")
    body.send_keys("+", "+", "+")  # the fastest speed
    browser.find_element("id", "play").click()
    wait_for_text(browser, "move", str(len(shown) - 1))
    assert text_of(browser, "score") == str(saved.score) and text_of(browser, "outcome").lower() == "win"
    body.send_keys(Keys.HOME, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    assert (text_of(browser, "move"), text_of(browser, "score")) == ("2", str(shown[2].score))
    assert browser.current_url.endswith("#move=2")
    scared = next(move for move, state in enumerate(shown) if any(state.scared))
    browser.get(page.as_uri() + f"#move={scared}")
    wait_for_text(browser, "move", str(scared))
    assert text_of(browser, "score") == str(shown[scared].score)
    assert pixels_of_color(browser, style.SCARED) > 0, f"the ghost is scared at move {scared}"
    browser.get(page.as_uri() + "#move=end")
    wait_for_text(browser, "score", str(saved.score))
    assert pixels_of_color(browser, style.PACMAN) > 0 and pixels_of_color(browser, style.WALL) > 0
    assert browser.save_screenshot(str(tmp_path / "replay.png")) and (tmp_path / "replay.png").stat().st_size > 1000
    assert [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"] == []


def test_a_stored_game_opened_at_its_end_shows_the_stored_score(browser, store, tmp_path):
    from pacsim.report import load_results

    results = load_results(store)
    for game_id, score in zip(results["id"][:2], results["score"][:2]):
        page = tmp_path / f"game-{game_id}.html"
        assert main(["replay", str(store), "--game", str(game_id), "--html", str(page)]) == 0
        browser.get(page.as_uri() + "#move=end")
        wait_for_text(browser, "score", str(score))


WINDOW_WIDTH = 1200
"""The width the pages are looked at (tests/conftest.py's browser window)."""

LAYOUT_OF_THE_REPORT = """
    const lines = (cell) => {  // how many lines a cell's text takes on screen
        const range = document.createRange(); range.selectNodeContents(cell);
        return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
    };
    return {
        width: window.innerWidth,
        tables: [...document.querySelectorAll(".wide")].map((box) => [box.className, box.scrollWidth, box.clientWidth]),
        wrapped: [...document.querySelectorAll(".conditions td, .pairs td")].filter((cell) => lines(cell) > 1).map((cell) => cell.textContent),
        headingLines: Object.fromEntries([...document.querySelectorAll("th")].map((cell) => [cell.textContent.replace(/\u00a0/g, " "), lines(cell)])),
        rowTops: [...document.querySelectorAll(".replays")].map((row) => [...row.children].map((figure) => figure.getBoundingClientRect().top)),
    };"""

WHAT_A_PLAYER_SHOWS = """
    const board = document.getElementById("board").getBoundingClientRect();
    const controls = document.querySelector(".controls").getBoundingClientRect();
    return {
        board: [board.left, board.right, board.width], controls: [controls.left, controls.right],
        bottom: document.querySelector(".keys").getBoundingClientRect().bottom, width: window.innerWidth, height: window.innerHeight,
        picture: document.getElementById("board").toDataURL(), scrollHeight: document.documentElement.scrollHeight,
    };"""


def test_the_report_at_1200_pixels_shows_whole_tables_and_each_game_at_its_end(browser, report_page):
    page = report_page.read_text(encoding="utf-8")
    games = [embedded_data(replay) for replay in iframe_pages(page)]
    browser.get(report_page.as_uri())
    layout = browser.execute_script(LAYOUT_OF_THE_REPORT)
    assert layout["width"] == WINDOW_WIDTH
    for kind, scrolled, shown in layout["tables"]:
        assert scrolled <= shown, f"the {kind} table is cut behind a scrollbar at {WINDOW_WIDTH} px"
    assert layout["wrapped"] == [], "a value broken over lines"
    assert layout["headingLines"]["win rate [95% CI]"] == 1
    assert all(len(set(tops)) == 1 for tops in layout["rowTops"]), "a condition's loss and win not side by side"
    frames = browser.find_elements("tag name", "iframe")
    assert len(frames) == len(games) >= 3
    pictures = []
    for frame, game in zip(frames, games, strict=True):
        browser.switch_to.frame(frame)
        shown = browser.execute_script(WHAT_A_PLAYER_SHOWS)
        assert (text_of(browser, "move"), text_of(browser, "score")) == (text_of(browser, "moves"), str(game["score"]))
        assert text_of(browser, "outcome").lower() == game["outcome"]  # each opens at its end, its outcome shown
        assert shown["bottom"] <= shown["height"] and shown["board"][1] <= shown["width"], "the player is cut by its frame"
        pictures.append(shown["picture"])
        browser.switch_to.default_content()
    assert len(set(pictures)) == len(pictures), "two replays show the same picture"


def test_a_replay_in_the_report_plays_to_its_end(browser, report_page):
    from selenium.webdriver.support.ui import Select

    from pacsim.viewer import style

    wins = [data for data in map(embedded_data, iframe_pages(report_page.read_text(encoding="utf-8"))) if data["outcome"] == "win"]
    game = max(wins, key=lambda data: len(data["frames"]))
    browser.get(report_page.as_uri())
    frame = next(frame for frame in browser.find_elements("tag name", "iframe") if embedded_data(frame.get_attribute("srcdoc")) == game)
    browser.switch_to.frame(frame)
    try:
        last, speed = len(game["frames"]) - 1, Select(browser.find_element("id", "speed"))
        speed.select_by_index(0)  # the slowest: a move a second, so it is seen playing
        browser.find_element("id", "play").click()  # at the end: play starts over
        assert int(text_of(browser, "move")) < last and text_of(browser, "outcome") == ""
        speed.select_by_index(len(speed.options) - 1)  # the fastest
        wait_for_text(browser, "move", str(last))
        assert text_of(browser, "score") == str(game["score"]) and text_of(browser, "outcome").lower() == "win"
        assert pixels_of_color(browser, style.WALL) > 0 and pixels_of_color(browser, style.BANNERS["WIN"]) > 0
    finally:
        browser.switch_to.default_content()


def test_a_replay_page_fills_a_1200_pixel_window_with_the_controls_under_the_board(browser, recorded, tmp_path):
    from pacsim.viewer import style

    page = tmp_path / "game.html"
    assert main(["replay", str(recorded), "--html", str(page)]) == 0
    browser.get(page.as_uri())
    shown = browser.execute_script(WHAT_A_PLAYER_SHOWS)
    left, right, width = shown["board"]
    assert shown["width"] == WINDOW_WIDTH
    assert width >= 2 * style.CELL_PIXELS * load_game(recorded).layout.width  # grown past the viewer's cell size
    assert abs(left - (shown["width"] - right)) <= 2, "the board is centred"
    assert left - 1 <= shown["controls"][0] and shown["controls"][1] <= right + 1, "the slider spans the board, not the page"
    assert shown["bottom"] <= shown["height"] and shown["scrollHeight"] <= shown["height"], "all of it without scrolling"


def test_a_record_whose_score_the_replay_disagrees_with_says_so(browser, recorded, tmp_path):
    record = json.loads(recorded.read_text())
    record["score"] += 1
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps(record))
    page = tmp_path / "wrong.html"
    assert main(["replay", str(wrong), "-q", "--html", str(page)]) == 1  # the replay disagrees: exit 1, the page still written
    browser.get(page.as_uri() + "#move=end")
    assert f"the record says score {record['score']}" in text_of(browser, "title")
    assert text_of(browser, "score") == str(record["score"] - 1)


def test_play_records_options_given_apart_as_one_spec_pacsim_reads_back(tmp_path, capsys):
    from pacsim.engine.recording import load_game

    path = tmp_path / "g.json"
    assert main(["play", "-l", "tinyGhostMaze", "-p", "minimax:depth=1", "-a", "eval=careful", "-g", "directional",
                 "--ghost-args", "attack=0.9", "-q", "--seed", "2", "--max-moves", "6", "--record", str(path)]) == 0
    saved = load_game(path)
    assert saved.pacman == "minimax:depth=1,eval=careful"  # once 'minimax:depth=1:eval=careful'
    assert set(saved.ghosts) == {"directional:attack=0.9"}  # once the -g alone
    out = tmp_path / "values.html"
    assert main(["replay", str(path), "--html", str(out), "--html-values"]) == 0  # rebuilds the recorded Pacman
    assert "matches the recorded score" in capsys.readouterr().out
    assert embedded_data(out.read_text(encoding="utf-8"))["valuesHeading"][:2] == ["Search values", "minimax, depth 1"]
