"""``pacsim tree`` and pacsim.web.tree: the seeds' examples at the seeds'
values, the JSON schema, the node cap, positions from records and stores,
one-line errors, DOT, and the page in Chromium (open, expand, board of a
node, the side-by-side view's parting)."""

from __future__ import annotations

import base64
import gzip
import json
import re
from fractions import Fraction

import pytest
from browsing import waiting

import pacsim
from pacsim.cli import main
from pacsim.engine import initial_state, load_layout
from pacsim.engine.recording import load_game, save_game
from pacsim.search import search
from pacsim.search.examples import EXAMPLES, TreeGame
from pacsim.search.trace import trace_search
from pacsim.web.tree import AVERAGE, COLUMNS, CUT, PRINCIPAL, SCHEMA, tracing_pacman, tree_data, tree_page, unsearched


def written_json(path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def page_trees(page: str) -> list[dict]:
    found = re.search(r'<script type="application/octet-stream" id="trees">(.*?)</script>', page, re.S)
    assert found, "no tree data in the page"
    return json.loads(gzip.decompress(base64.b64decode(found.group(1))))


def opened(browser, page) -> None:
    """Open ``page`` and wait for its trees to be unpacked and drawn."""
    browser.get(page.as_uri())
    waiting(browser, 10).until(lambda driver: driver.execute_script("return document.body.dataset.ready") == "yes")


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    layout = load_layout("tinyGhostMaze")
    games = pacsim.play(layout, pacman="greedy", ghosts="random", games=1, seed=3)
    path = tmp_path_factory.mktemp("tree") / "game.json"
    save_game(path, games[0].record, layout, "alphabeta:depth=2", ["random"])
    return path


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_the_seeds_examples_trace_to_the_seeds_values(name, tmp_path):
    example = EXAMPLES[name]
    traced = example.trace()
    untraced = search(example.fresh_game(), example.state, example.algorithm, bounds=example.bounds)
    assert traced.result.value == traced.root.value == untraced.value == example.value
    assert traced.result.stats.generated == untraced.stats.generated == traced.counts().generated
    out = tmp_path / "example.json"
    assert main(["tree", "--example", name, "--format", "json", "--out", str(out)]) == 0
    data = written_json(out)
    assert data["value"] == pytest.approx(float(example.value)) and data["nodesTotal"] == len(traced.nodes)


def test_the_json_follows_its_schema_and_counts_every_level(tmp_path):
    out = tmp_path / "tree.json"
    assert main(["tree", "-l", "tinyGhostMaze", "-p", "alphabeta:depth=2,backend=python", "--format", "json",
                 "--out", str(out)]) == 0
    data = written_json(out)
    assert data["schema"] == SCHEMA and data["columns"] == list(COLUMNS)
    rows = [dict(zip(data["columns"], row)) for row in data["nodes"]]
    assert len(rows) == data["nodesTotal"] == sum(data["countsByLevel"]) == data["nodesEmbedded"]
    assert all(row["parent"] < index for index, row in enumerate(rows))
    assert [index for index, row in enumerate(rows) if row["flags"] & PRINCIPAL] == sorted(data["principal"])
    assert rows[data["principal"][1]]["edge"] == data["action"]
    assert data["stats"]["generated"] == len(rows) - 1 + sum(1 for row in rows if row["kind"] == "chance")  # no chance here: every node
    start = initial_state(load_layout("tinyGhostMaze"))
    cut = [row for row in rows if row["flags"] & CUT]
    assert cut and all(row["unsearched"] and row["cut"] for row in cut)
    trace = tracing_pacman("alphabeta:depth=2").trace(start)  # the search counts cut-offs that cut nothing ...
    assert any(node.cut and not unsearched(trace, node) for node in trace.nodes)
    assert [row for row in rows if row["cut"] and not row["unsearched"]] == []  # ... which the page does not show
    assert rows[0]["board"][:2] == [start.pacman, start.ghosts[0]]


def test_a_large_tree_is_cut_to_the_cap_with_the_best_line_whole():
    example = EXAMPLES["stochastic-inc-and-square"].trace()
    data = tree_data(example, max_nodes=10)
    assert data["nodesEmbedded"] < data["nodesTotal"] == len(example.nodes)
    assert data["nodesEmbedded"] <= 10 + len(example.principal_variation)  # the cap (and the best line past it)
    assert len(data["principal"]) == len(example.principal_variation)
    assert all(parent < index for index, (parent, *_) in enumerate(data["nodes"]))
    page = tree_page(example, max_nodes=10)
    outside_data = re.sub(r'id="trees">.*?</script>', "", page, flags=re.S)
    assert "http" not in outside_data and "src=" not in outside_data  # nothing fetched


def test_a_record_and_a_move_give_that_position_and_the_records_pacman(recorded, tmp_path):
    out = tmp_path / "tree.json"
    assert main(["tree", "--record", str(recorded), "--move", "2", "--format", "json", "--out", str(out)]) == 0
    data = written_json(out)
    positions = [state for state in load_game(recorded).states() if state.turn == 0 and not state.is_terminal]
    assert data["nodes"][0][COLUMNS.index("board")][0] == positions[2].pacman
    assert data["algorithm"] == "alphabeta" and data["depth"] == 4


@pytest.fixture(scope="module")
def tree_store(tmp_path_factory):
    """One expectimax game in a results store."""
    from pacsim.runner import load_experiment, run_experiment

    folder = tmp_path_factory.mktemp("tree-store")
    path = folder / "exp.toml"
    path.write_text(f"""
name = "tree"
games = 1
seed = 2
max_moves = 20
store = "{folder / 'results.sqlite'}"
[grid]
pacman = ["expectimax:depth=1"]
ghosts = ["random"]
layout = ["tinyGhostMaze"]
""", encoding="utf-8")
    return run_experiment(load_experiment(path), workers=1, quiet=True).store


def test_a_stored_game_and_a_move(tree_store, tmp_path):
    out = tmp_path / "tree.html"
    assert main(["tree", "--store", str(tree_store), "--game", "1", "--move", "1", "--out", str(out)]) == 0
    (tree,) = page_trees(out.read_text(encoding="utf-8"))
    assert tree["algorithm"] == "expectimax" and tree["title"].endswith("expectimax:depth=1")


def test_the_reports_replays_carry_their_trees(tree_store, tmp_path, capsys):
    import html

    out = tmp_path / "report.html"
    assert main(["report", str(tree_store), "--html", str(out), "--tree"]) == 0
    (frame,) = re.findall(r'<iframe srcdoc="(.*?)"', out.read_text(encoding="utf-8"), re.S)
    data = replay_data(html.unescape(frame))
    assert len(data["trees"]) == len(data["frames"]) and data["trees"][0] is not None
    assert main(["report", str(tree_store), "--tree"]) == 2
    assert "--tree: only with --html" in capsys.readouterr().err


@pytest.mark.parametrize("arguments, message", [
    (["--record", "missing.json"], "missing.json"),
    (["-p", "greedy"], "not a search Pacman"),
    (["--compare", "minimax:depth=1", "expectimax:depth=1", "--format", "json"], "--compare draws an HTML page"),
    (["--store", "x.sqlite"], "--game ID"),
    (["--move", "-1"], "--move -1"),
    (["--example", "three-level", "--compare", "minimax:depth=1", "expectimax:depth=1"], "--compare compares two Pacmen"),
])
def test_mistakes_are_one_line(arguments, message, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["tree", *arguments]) == 2
    error = capsys.readouterr().err.strip()
    assert message in error and len(error.splitlines()) == 1


def test_dot_greys_what_alpha_beta_pruned(capsys):
    assert main(["tree", "--example", "chance-alpha-beta", "--format", "dot"]) == 0
    dot = capsys.readouterr().out
    assert dot.startswith("digraph") and dot.rstrip().endswith("}")
    assert "Star1: upper bound" in dot and 'style="bold"' in dot
    grey = [line for line in dot.splitlines() if 'color="grey"' in line]
    assert any("Star1: upper bound" in line for line in grey)  # the cut chance node
    assert any("pruned" in line for line in grey) and any('style="dashed"' in line for line in grey)  # what it left
    assert not any('style="bold"' in line for line in grey)  # the best line is never greyed


# -- in Chromium (tests/conftest.py; skipped without it, failed under CI) ---------------

def hover(browser, element) -> None:
    browser.execute_script("arguments[0].dispatchEvent(new MouseEvent('mouseenter'))", element)


def test_the_page_opens_expands_and_shows_a_nodes_board(browser, tmp_path):
    page = tmp_path / "tree.html"
    assert main(["tree", "-l", "tinyGhostMaze", "-p", "expectimax:depth=2,backend=python", "--out", str(page)]) == 0
    opened(browser, page)
    shown = browser.find_elements("css selector", "#tree0 li.node")
    assert len(shown) == 3  # the root and its two moves, nothing deeper yet
    first = browser.find_element("css selector", "#tree0 li.node[data-node='1'] > .label")
    first.click()
    assert len(browser.find_elements("css selector", "#tree0 li.node")) > 3
    before = browser.execute_script("return document.getElementById('board').toDataURL()")
    deep = browser.find_element("css selector", "#tree0 li.node[data-node='1'] > ul > li.node > .label")
    hover(browser, deep)
    assert "level 2" in browser.find_element("id", "node-info").text
    assert browser.execute_script("return document.getElementById('board').toDataURL()") != before
    assert browser.find_elements("css selector", "#tree0 li.pv")
    assert [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"] == []


LESSON_POSITION = ["-l", "tinyGhostMaze", "-p", "expectimax:depth=2", "-g", "adversarial", "--seed", "1", "--move", "2"]
"""A position where minimax and expectimax value one move differently by how they treat the ghost's replies."""


@pytest.fixture(scope="module")
def lesson_page(tmp_path_factory):
    page = tmp_path_factory.mktemp("lesson") / "compare.html"
    assert main(["tree", *LESSON_POSITION, "--compare", "minimax:depth=2", "expectimax:depth=2", "--out", str(page)]) == 0
    return page


def rows_of(tree: dict) -> list[dict]:
    return [dict(zip(tree["columns"], row)) for row in tree["nodes"]]


def test_a_comparison_finds_the_move_the_two_value_differently_and_says_why(lesson_page):
    minimax, expectimax = page_trees(lesson_page.read_text(encoding="utf-8"))
    sentence = minimax["lesson"]
    assert sentence == expectimax["lesson"]
    moves = []
    for tree in (minimax, expectimax):
        rows = rows_of(tree)
        path = tree["lessonPath"]
        assert path[0] == 0 and [rows[index]["parent"] for index in path[1:]] == path[:-1]
        node = rows[path[-1]]
        replies = [row for row in rows if row["parent"] == path[-1]]
        moves.append((rows[path[1]]["edge"], node, replies))
    (move, at_min, replies), (same_move, at_chance, outcomes) = moves
    assert move == same_move and f"The same move, {move}," in sentence
    assert at_min["kind"] == "min" and at_chance["kind"] == "chance" and at_min["mover"] == "ghost 1"
    assert at_min["value"] == min(reply["value"] for reply in replies) != at_chance["value"]
    assert at_chance["value"] == pytest.approx(sum(row["probability"] * row["value"] for row in outcomes), rel=1e-5)
    assert sorted(reply["value"] for reply in replies) == sorted(row["value"] for row in outcomes)
    share = str(Fraction(outcomes[0]["probability"]).limit_denominator(100))
    assert f"minimax takes the worst, {at_min['value']:g}" in sentence
    assert f"expectimax averages with p = {share} each, {at_chance['value']:.6g}" in sentence
    assert all(f"{reply['edge']} {reply['value']:g}" in sentence for reply in replies)


def test_a_chance_nodes_best_line_ends_where_its_value_is_an_average(lesson_page):
    _, expectimax = page_trees(lesson_page.read_text(encoding="utf-8"))
    rows = rows_of(expectimax)
    last = rows[expectimax["principal"][-1]]
    assert last["kind"] == "chance" and last["flags"] & AVERAGE and last["children"] > 1
    assert [row for row in rows if row["flags"] & AVERAGE] == [last]
    sure = trace_search(TreeGame(("max", [("chance", [(1, 5)]), ("chance", [(0.5, 1), (0.5, 3)])])), (), "expectiminimax")
    assert [sure.nodes[index].kind for index in sure.principal_variation] == ["max", "chance", "terminal"]  # one outcome decides


def test_side_by_side_trees_open_at_the_lesson_in_both_panes(browser, lesson_page):
    trees = page_trees(lesson_page.read_text(encoding="utf-8"))
    opened(browser, lesson_page)
    assert browser.find_element("id", "lesson").text == trees[0]["lesson"]
    for number, tree in enumerate(trees):
        (marked,) = [element for element in browser.find_elements("css selector", f"#tree{number} li.lesson")]
        assert int(marked.get_attribute("data-node")) == tree["lessonPath"][-1]
        replies = marked.find_elements("css selector", ":scope > ul > li.node")
        assert replies and all(reply.is_displayed() and "ghost 1" in reply.text for reply in replies)
        movers = browser.find_element("css selector", f"#tree{number} tr.movers").text.split()
        assert movers[:4] == ["moves", "Pacman", "ghost", "1"]
    assert browser.find_element("id", "node-info").get_attribute("data-node") == "0"  # the root's board from the start
    assert browser.execute_script("return document.getElementById('board').width") > 1
    assert "chance" in browser.find_element("id", "legend").text and browser.find_elements("css selector", "h1")
    assert [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"] == []


def test_an_example_page_shows_a_positions_text(browser, tmp_path):
    page = tmp_path / "example.html"
    assert main(["tree", "--example", "expectimax-lecture", "--out", str(page)]) == 0
    opened(browser, page)
    leaf = browser.find_element("css selector", "#tree0 li.node[data-node='2'] > .label")
    hover(browser, leaf)
    assert browser.find_element("id", "position").text == "(1,)"
    assert "value 24" in browser.find_element("id", "node-info").text


# -- pacsim replay --html --tree ---------------------------------------------------------

def replay_data(page: str) -> dict:
    found = re.search(r'<script type="application/json" id="game">(.*?)</script>', page, re.S)
    assert found, "no game data in the page"
    return json.loads(found.group(1))


@pytest.fixture(scope="module")
def replay_with_trees(recorded, tmp_path_factory):
    page = tmp_path_factory.mktemp("replay-tree") / "game.html"
    assert main(["replay", str(recorded), "--html", str(page), "--tree", "--tree-nodes", "300"]) == 0
    return page


def test_replay_tree_puts_each_moves_tree_in_the_page(recorded, replay_with_trees):
    data = replay_data(replay_with_trees.read_text(encoding="utf-8"))
    assert len(data["trees"]) == len(data["frames"]) and data["trees"][-1] is None
    (tree,) = json.loads(gzip.decompress(base64.b64decode(data["trees"][2])))
    assert tree["algorithm"] == "alphabeta" and tree["nodesEmbedded"] <= 300 + tree["depth"]
    assert tree["nodes"][0][COLUMNS.index("board")][0] == data["frames"][2][0]  # the position of move 2


def test_replay_tree_needs_a_page(recorded, capsys):
    assert main(["replay", str(recorded), "--tree"]) == 2
    assert "--tree: only with --html" in capsys.readouterr().err


def test_the_replays_tree_view_opens_at_the_current_move(browser, replay_with_trees):
    browser.get(replay_with_trees.as_uri() + "#move=2")
    waiting(browser, 10).until(lambda driver: driver.find_element("id", "move").text == "2")
    browser.find_element("id", "tree").click()
    frame = browser.find_element("id", "tree-frame")
    assert frame.is_displayed()
    browser.switch_to.frame(frame)
    try:
        waiting(browser, 10).until(lambda driver: driver.execute_script("return document.body.dataset.ready") == "yes")
        assert "move 2" in browser.find_element("css selector", "#tree0 h2").text
        assert len(browser.find_elements("css selector", "#tree0 li.node")) > 1
    finally:
        browser.switch_to.default_content()


def test_a_played_games_tree_shows_in_the_notebook():
    from pacsim.errors import ConfigError

    (game,) = pacsim.play("tinyGhostMaze", pacman="alphabeta:depth=1", ghosts="random", games=1, seed=2)
    view = game.tree(1)
    action = view.trace.result.action
    assert (action[0] if isinstance(action, tuple) else action) == game.record.actions[2]  # Pacman's move 1, as played
    shown = view._repr_html_()
    assert shown.startswith("<iframe srcdoc=") and "move 1: alphabeta:depth=1" in shown
    assert game.tree(1, pacman="expectimax:depth=1").trace.algorithm == "expectimax"
    with pytest.raises(ConfigError, match="numbered 0 to"):
        game.tree(10_000)


def test_the_viewers_tree_key_opens_a_page_and_returns_the_best_line():
    from pathlib import Path
    from urllib.parse import urlparse

    from pacsim.web.tree import browser_tree, tracing_pacman

    opened = []
    open_tree = browser_tree(tracing_pacman("minimax:depth=2"), open_page=opened.append)
    state = initial_state(load_layout("tinyGhostMaze"))
    line = open_tree(state)
    (address,) = opened
    page = Path(urlparse(address).path)
    assert page_trees(page.read_text(encoding="utf-8"))[0]["algorithm"] == "minimax"
    assert line[0] is state and len(line) == 5 and [position.turn for position in line] == [0, 1, 0, 1, 0]


SEARCH_KINDS = ("minimax:depth=2", "alphabeta:depth=2", "expectimax:depth=2", "expectiminimax:depth=2,kinds=C",
                "expectimax:depth=2,algorithm=star1", "expectiminimax:depth=2,algorithm=star2,kinds=C", "mcts:iterations=40")


def test_every_search_kind_and_example_shows_movers_a_board_and_its_title_once(browser, tmp_path):
    pages = {}
    for number, spec in enumerate(SEARCH_KINDS):
        pages[spec] = tmp_path / f"kind{number}.html"
        assert main(["tree", "-l", "tinyGhostMaze", "-p", spec, "--out", str(pages[spec])]) == 0
    for name in EXAMPLES:
        pages[name] = tmp_path / f"{name}.html"
        assert main(["tree", "--example", name, "--out", str(pages[name])]) == 0
    for name, page in pages.items():
        opened(browser, page)
        title = browser.find_element("css selector", "h1").text
        assert browser.find_elements("css selector", "h2") == [] and browser.title == title, name  # said once
        movers = browser.find_element("css selector", "#tree0 tr.movers").text
        assert ("Pacman" in movers and "ghost 1" in movers) if name in SEARCH_KINDS else ("MAX" in movers or "chance" in movers), name
        assert browser.find_element("id", "node-info").get_attribute("data-node") == "0", name  # the root, shown at once
        if name in SEARCH_KINDS:
            assert browser.execute_script("return document.getElementById('board').width") > 1, name
        else:
            assert browser.find_element("id", "position").is_displayed(), name
        if name == "alphabeta:depth=2":  # its cut-offs at a last move are counted, not drawn as cuts
            trace = tracing_pacman(name).trace(initial_state(load_layout("tinyGhostMaze")))
            idle = sum(1 for node in trace.nodes if node.cut and not unsearched(trace, node))
            assert idle and f"{idle} at a node's last move, which cut nothing" in browser.find_element("css selector", ".summary").text
        edges = browser.find_elements("css selector", "#tree0 li.node[data-node] > .label .who")
        assert edges and all(edge.text.strip() for edge in edges), name  # who makes each move shown
        assert [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"] == [], name


def test_a_lesson_below_the_root_names_its_line_and_where_the_difference_starts():
    from pacsim.web.lesson import find_lesson

    tree = ("max", [("min", [("max", [5, 7]), ("max", [4, 6])]), ("min", [1, 2])])
    whole = trace_search(TreeGame(tree), (), "minimax")
    guessed = {(0, 0): 10, (0, 1): 6}  # an evaluation that agrees on the move's value, not on its first reply's
    cut_off = trace_search(TreeGame(tree), (), "minimax", depth=2, evaluate=lambda path: guessed.get(path, 0))
    assert whole.nodes[whole.root.children[0]].value == cut_off.nodes[cut_off.root.children[0]].value
    lesson = find_lesson(whole, cut_off, ("whole", "depth 2"))
    assert lesson is not None
    ends = [trace.nodes[path[-1]] for trace, path in zip((whole, cut_off), lesson.paths)]
    assert [node.kind for node in ends] == ["max", "leaf"] and len(lesson.paths[0]) == 3 and lesson.start == 2
    assert lesson.sentence.startswith("The same line, MAX 0 → MIN 0, is worth 7 to whole and 10 to depth 2")
    assert "whole takes the best, 7; depth 2 stops searching here and scores the position, 10." in lesson.sentence
    assert find_lesson(whole, whole, ("one", "other")) is None
