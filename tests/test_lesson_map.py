"""``pacsim lesson-map``: its counts are a ``pacsim run`` of the same games,
it resumes like a run, writes its files atomically, and says a bad maze in one line."""

import json
import sqlite3
import sys
from pathlib import Path

import pytest
from browsing import waiting

import pacsim.files
import pacsim.runner.execute as execute
from pacsim.cli import INTERRUPTED, main
from pacsim.engine import parse_layout
from pacsim.engine.recording import SavedGame
from pacsim.engine.starts import EVERY, every_start, start_cells
from pacsim.report.lesson_map import DIFFERS, JUNCTION, trap_move

# One ghost above a loop and a pocket: 11 start cells; at depth 2 both ghosts catch both Pacmen from some.
# (One of four small mazes tried for this test: two had no catch at depth 2, one few, the same for both Pacmen.)
MAZE = """\
%%%%%%%
%G    %
% %%% %
%   % %
%.%%%P%
%%%%%%%
"""
CELLS = 11
GAMES = 2
"""Games a cell: 11 cells x 2 Pacmen x 2 ghosts x 2 = 88 games a run, about a second in the kernel."""
LOOP = """\
%%%%%%%
%G  . %
% %%% %
%P    %
%%% %.%
%%%%%%%
"""
"""A loop with a junction on Pacman's row, for the trap move's rules."""
SHIPPED = Path(__file__).resolve().parents[1] / "experiments" / "optimism_pessimism" / "optimism_pessimism.toml"


def map_arguments(folder: Path, store: Path, maze: Path | None = None) -> list[str]:
    """The map of ``maze`` (default: the folder's pocket.lay; a layout file's path is part of its games' identity)."""
    return ["lesson-map", "-l", str(maze or folder / "pocket.lay"), "--depth", "2", "-n", str(GAMES), "-j", "1", "-q",
            "--set", "max_moves=60", "--store", str(store), "--png", str(folder / "map.png"),
            "--html", str(folder / "map.html")]


def outcomes_by_cell(store: Path, config_hash: str | None = None) -> dict[tuple, int]:
    """(Pacman, ghost, start cell, outcome) -> games, counted in SQL from a store."""
    where = "WHERE config_hash = ?" if config_hash else ""
    with sqlite3.connect(store) as connection:
        rows = connection.execute(f"SELECT pacman, ghosts, start, outcome, COUNT(*) FROM games {where} "
                                  "GROUP BY pacman, ghosts, start, outcome", (config_hash,) if config_hash else ())
        return {tuple(row[:4]): row[4] for row in rows}


def map_counts(lesson) -> dict[tuple, int]:
    """The same shape from a :class:`LessonMap`'s counts."""
    counted = {}
    for (pacman, ghost, cell), count in lesson.counts.items():
        for outcome, games in (("loss", count.caught), ("win", count.won), ("timeout", count.stalled)):
            if games:
                counted[(pacman, ghost, cell, outcome)] = games
    return counted


@pytest.fixture(scope="module")
def mapped(tmp_path_factory):
    """A lesson map of the pocket maze, and the map's experiment."""
    import argparse

    from pacsim.cli.lesson_map import add_arguments, plan
    from pacsim.report.lesson_map import MAP_READS, build_map
    from pacsim.runner import load_results

    folder = tmp_path_factory.mktemp("lesson")
    (folder / "pocket.lay").write_text(MAZE)
    store = folder / "map.sqlite"
    assert main(map_arguments(folder, store)) == 0
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(map_arguments(folder, store)[1:])
    experiment, cells, layout = plan(args)
    results = experiment.own_games(load_results(store, columns=MAP_READS))
    return folder, store, experiment, build_map(results, layout, store, cells, GAMES)


def test_the_maps_counts_are_a_pacsim_run_of_the_same_games(mapped, tmp_path, capsys, monkeypatch):
    from fasttools import memos_set

    folder, store, experiment, lesson = mapped
    cells = start_cells(parse_layout(MAZE), 1, 1)
    assert len(lesson.cells) == len(cells) == CELLS
    # The same games written as an experiment file by hand, run by pacsim run into a store of its own.
    path = tmp_path / "same.toml"
    path.write_text(f"""
name = "same"
games = {GAMES * len(cells)}
seed = 29029
max_moves = 60
starts = "{EVERY}"
start_distance = 1
store = "{tmp_path / 'run.sqlite'}"
[grid]
pacman = ["minimax", "expectimax"]
ghosts = ["adversarial", "random"]
layout = ["{folder / 'pocket.lay'}"]
depth = [2]
[pacman_options]
eval = "careful"
""")
    memos_set(monkeypatch, chase=False, pacman=False, subtree=False)  # else the map's games answer the run's searches
    assert main(["run", str(path), "-j", "1", "-q"]) == 0
    by_run = outcomes_by_cell(tmp_path / "run.sqlite")
    assert map_counts(lesson) == by_run == outcomes_by_cell(store, experiment.config_hash)
    assert sum(by_run.values()) == 4 * GAMES * len(cells)
    assert {cell for _, _, cell, _ in by_run} == set(cells)  # every start cell, GAMES from each
    caught = sum(games for key, games in by_run.items() if key[3] == "loss")
    assert 0 < caught < 4 * GAMES * len(cells)  # the map has something to show, and something to contrast
    with sqlite3.connect(tmp_path / "run.sqlite") as run, sqlite3.connect(store) as mine:
        query = "SELECT pacman, ghosts, game_index, seed, start, actions FROM games ORDER BY 1, 2, 3"
        assert run.execute(query).fetchall() == mine.execute(query).fetchall()  # the same games, move for move
    capsys.readouterr()


def test_game_i_starts_on_the_i_mod_c_th_start_cell_for_every_pacman():
    layout = parse_layout(MAZE)
    cells = start_cells(layout, 1, 1)
    assert [every_start(layout, 1, index, 1) for index in range(2 * len(cells))] == cells * 2


def test_an_interrupted_map_resumes_without_playing_a_game_twice(mapped, tmp_path, monkeypatch, capsys):
    from fasttools import memos_set

    memos_set(monkeypatch, chase=False, pacman=False, subtree=False)  # else the first map's games answer these
    folder = mapped[0]
    (tmp_path / "pocket.lay").write_text(MAZE)
    store = tmp_path / "resumed.sqlite"
    played = []
    real = execute.play_task

    def stopping_after_ten(task, *args, **options):
        if len(played) == 10:
            raise KeyboardInterrupt
        played.append(task.game_index)
        return real(task, *args, **options)

    monkeypatch.setattr(execute, "play_task", stopping_after_ten)
    assert main(map_arguments(tmp_path, store)) == INTERRUPTED
    assert "resume with: pacsim lesson-map" in capsys.readouterr().err
    assert not (tmp_path / "map.html").exists() and not (tmp_path / "map.png").exists()
    monkeypatch.setattr(execute, "play_task", real)
    assert main(map_arguments(tmp_path, store)) == 0
    out = capsys.readouterr().out
    assert "games played, 10 already in" in out
    with sqlite3.connect(store) as connection:
        keys = connection.execute("SELECT config_hash, condition_key, game_index FROM games").fetchall()
    assert len(keys) == len(set(keys)) == 4 * GAMES * CELLS
    assert outcomes_by_cell(store) == outcomes_by_cell(mapped[1], mapped[2].config_hash)
    # Each page links the same games in both stores (ids aside): the resumed map is the uninterrupted one.
    assert (tmp_path / "map.html").read_text().count('class="replay"') == \
        (folder / "map.html").read_text().count('class="replay"')


def copy_of_the_map(mapped, folder: Path) -> Path:
    """The map's store in ``folder``: a map of the same maze file drawn there plays nothing, and the
    module's pages stay as they are."""
    store = folder / "map.sqlite"
    with sqlite3.connect(mapped[1]) as source, sqlite3.connect(store) as copy:
        source.backup(copy)
    return store


def test_the_figure_and_page_are_replaced_atomically(mapped, tmp_path, monkeypatch, capsys):
    folder = tmp_path
    store = copy_of_the_map(mapped, folder)
    page, figure = folder / "map.html", folder / "map.png"
    for written in (page, figure):
        written.write_bytes((mapped[0] / written.name).read_bytes())
    old_page, old_figure = page.read_bytes(), figure.read_bytes()
    assert old_figure.startswith(b"\x89PNG") and b'id="games"' in old_page
    real = pacsim.files.os.replace

    def cut_off(source, target):
        if Path(target).name in ("map.html", "map.png"):
            Path(source).write_bytes(b"half")  # what a crash mid-write would have left, had it been written in place
            raise KeyboardInterrupt
        return real(source, target)

    monkeypatch.setattr(pacsim.files.os, "replace", cut_off)
    assert main([*map_arguments(folder, store, mapped[0] / "pocket.lay"), "--no-trees"]) == INTERRUPTED
    assert page.read_bytes() == old_page
    monkeypatch.setattr(pacsim.files.os, "replace", real)
    monkeypatch.setattr("pacsim.web.lesson_map.map_page", lambda *args: "new page")

    def interrupted_figure(*args, **options):
        raise KeyboardInterrupt

    monkeypatch.setattr("matplotlib.figure.Figure.savefig", interrupted_figure)
    assert main([*map_arguments(folder, store, mapped[0] / "pocket.lay"), "--no-trees"]) == INTERRUPTED
    assert page.read_text() == "new page" and figure.read_bytes() == old_figure
    assert sorted(path.name for path in folder.iterdir() if path.name.startswith(".")) == []  # no temporaries
    capsys.readouterr()


def test_without_matplotlib_the_page_is_written_and_one_line_says_what_the_figure_needs(mapped, tmp_path,
                                                                                       monkeypatch, capsys):
    store = copy_of_the_map(mapped, tmp_path)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if the plot extra were not installed
    assert main([*map_arguments(tmp_path, store, mapped[0] / "pocket.lay"), "--no-trees"]) == 0
    out = capsys.readouterr().out
    assert f"0 games played, {4 * GAMES * CELLS} already in" in out  # nothing played: the copy's games
    notes = [line for line in out.splitlines() if "pacsim[plot]" in line]
    assert len(notes) == 1 and notes[0].startswith("pacsim: note: no figure: it needs matplotlib")
    assert (tmp_path / "map.html").is_file() and not (tmp_path / "map.png").exists()


def test_a_replay_link_opens_the_player_at_the_trap_move_in_chromium(browser, mapped):
    folder = mapped[0]
    first = browser.current_window_handle

    browser.get((folder / "map.html").as_uri())
    link = browser.find_elements("css selector", "a.replay")[0]
    move = link.get_attribute("data-move")
    link.click()
    waiting(browser, 10).until(lambda driver: len(driver.window_handles) == 2)
    browser.switch_to.window(next(handle for handle in browser.window_handles if handle != first))
    try:
        waiting(browser, 10).until(lambda driver: driver.find_element("id", "move").text == move)
        assert "loss" in browser.find_element("id", "title").text  # a caught game
        mark = browser.find_element("id", "mark")  # the trap move marked, and why
        assert mark.is_displayed() and "here" in mark.get_attribute("class")
        assert mark.text.startswith(f"\u25B6 move {move}: the trap move: ")
        values = browser.find_element("id", "values")  # the caught Pacman's search values at the trap move
        assert values.is_displayed() and values.find_elements("css selector", ".chosen")
        browser.find_element("id", "step").click()
        assert "here" not in mark.get_attribute("class") and f"move {move} (m goes there)" in mark.text
        assert [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"] == []
    finally:
        browser.close()
        browser.switch_to.window(first)


def test_the_page_links_each_caught_cell_to_a_replay_and_the_tree_at_its_trap_move(mapped):
    folder, store, _, lesson = mapped
    text = (folder / "map.html").read_text()
    assert lesson.traps and "<script src" not in text and "http" not in text.replace("http-equiv", "")
    games = json.loads(text.split('<script type="application/json" id="games">')[1].split("</script>")[0])
    for (pacman, _, cell), trap in lesson.traps.items():
        assert f'href="#cell-{cell}"' in text and f'id="cell-{cell}"' in text
        assert f'data-game="{trap.game_id}" data-move="{trap.trap_move}"' in text
        assert f"pacsim tree --store {store} --game {trap.game_id} --move {trap.trap_move}" in text
        if trap.rule == DIFFERS:  # the two Pacmen's trees side by side at the trap move
            other, caught = trap.specs
            assert other.startswith(f"{trap.other}:") and caught.startswith(f"{pacman}:") and trap.other != pacman
            assert f"--move {trap.trap_move} --compare {other} {caught}</code>" in text
        tree = folder / "map-trees" / f"game{trap.game_id}-move{trap.trap_move}.html"  # drawn by pacsim.web.tree
        assert f'<a class="tree" href="map-trees/{tree.name}">' in text and tree.is_file()
        # Both Pacmen's trees where they differ (the map titles the page), else the caught one's (move_tree's title).
        shown = f"game {trap.game_id}, move {trap.trap_move}" if trap.rule == DIFFERS else f"move {trap.trap_move}: "
        assert shown in tree.read_text()
        data = games[str(trap.game_id)]["data"]
        assert 0 <= trap.trap_move < len(data["frames"]) - 1 and data["outcome"] == "loss"
        assert list(data["marks"]) == [str(trap.trap_move)] and "trap move" in data["marks"][str(trap.trap_move)]
        assert data["values"][trap.trap_move]  # the searched values at the trap move, for the values panel
    assert {trap.rule for trap in lesson.traps.values()} == {DIFFERS, JUNCTION}  # both rules met on this maze


def test_the_trap_move_is_the_last_where_the_other_pacman_would_have_chosen_otherwise():
    layout = parse_layout(LOOP)
    # Pacman steps east, the ghost comes down, Pacman steps back beside it and is caught.
    caught = SavedGame(layout=layout, num_ghosts=1, actions=["East", "South", "West", "South"], seed=1, pacman="p",
                       ghosts=["g"], outcome=None, score=None)
    assert caught.states()[-1].is_lose()
    assert trap_move(caught, "minimax:depth=2,eval=careful") == (1, DIFFERS)  # minimax never steps beside the ghost
    assert trap_move(caught, None) == (0, JUNCTION)  # no junction on its way: its first move
    assert trap_move(caught, "greedy")[1] == JUNCTION  # a Pacman that does not search has no second opinion


def test_a_bad_maze_name_is_one_line_and_exit_2(tmp_path, capsys):
    status = main(["lesson-map", "-l", "noSuchMaze", "--store", str(tmp_path / "s.sqlite"), "-q"])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("pacsim: error: -l noSuchMaze: no layout named 'noSuchMaze'")
    assert not (tmp_path / "s.sqlite").exists()


@pytest.mark.parametrize("option", ["--png", "--html"])
def test_an_unwritable_figure_or_page_is_one_line_before_any_game(tmp_path, capsys, option):
    (tmp_path / "pocket.lay").write_text(MAZE)
    (tmp_path / "blocker").write_text("")
    arguments = map_arguments(tmp_path, tmp_path / "s.sqlite")
    arguments[arguments.index(option) + 1] = str(tmp_path / "blocker" / f"map{option.replace('--', '.')}")
    status = main(arguments)
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and f"{option} {tmp_path / 'blocker'}" in err and "is a file" in err
    assert not (tmp_path / "s.sqlite").exists()  # no game played


def test_help_imports_neither_pandas_nor_numba_nor_pygame():
    from test_cli import modules_after

    assert not modules_after(["lesson-map", "--help"]) & {"pandas", "numba", "pygame"}


# -- a map that cannot mislead ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def two_depths(mapped):
    """The pocket maze mapped with the grid's depth = [1, 2]: one map per depth, each with its own files."""
    folder = mapped[0]
    arguments = map_arguments(folder, folder / "depths.sqlite")
    at = arguments.index("--depth")
    del arguments[at:at + 2]  # the grid's two depths instead of one
    arguments = [*arguments[:arguments.index("--png")], "--set", "grid.depth=[1, 2]", "--no-trees"]
    arguments[arguments.index("-n") + 1] = "1"  # one game a cell: what is counted is which depth's games
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(sys.modules, "matplotlib", None)  # no figures (seconds each): the pages say what is counted
        assert main(arguments) == 0
    return folder


def test_a_grid_of_two_depths_draws_one_map_per_depth_each_with_its_own_counts(two_depths, capsys):
    pages = sorted(two_depths.glob("*-map-pocket-depth*.html"))
    assert [page.name.split("-")[3] for page in pages] == ["depth1", "depth2"]
    for depth, page in zip((1, 2), pages):
        text = page.read_text()
        assert f"<title>pacsim lesson map: pocket, depth={depth}</title>" in text
        assert "1 game from each start cell" in text  # the real count: not the two depths pooled (2)
        headings = text.split("<h3>")[1:5]
        for heading in headings:  # each panel counts its own depth's games: one from each of the CELLS cells
            assert f" of {CELLS} games</h3>" in heading
    capsys.readouterr()


def test_two_mazes_are_refused_naming_the_axis_and_how_to_choose(tmp_path, capsys):
    (tmp_path / "pocket.lay").write_text(MAZE)
    arguments = map_arguments(tmp_path, tmp_path / "s.sqlite")
    arguments = [*arguments[:1], *arguments[3:], "--set", f'grid.layout=["{tmp_path / "pocket.lay"}", "tinyGhostMaze"]']
    assert main(arguments) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "grid.layout has 2 values" in err and "choose one with -l NAME" in err
    assert not (tmp_path / "s.sqlite").exists()


def test_ghost_counts_are_refused_naming_the_axis():
    from pacsim.cli.lesson_map import _check_one_maze
    from pacsim.errors import ConfigError

    with pytest.raises(ConfigError, match=r"grid.num_ghosts has 2 values \(1, 2\).*--set grid.num_ghosts=\[N\]"):
        _check_one_maze(Path("e.toml"), {"pacman": ["minimax"], "layout": ["x"], "num_ghosts": [1, 2]})


def test_default_names_hold_the_maze_and_the_settings_so_two_maps_never_share_files(mapped):
    import argparse

    from pacsim.cli.lesson_map import add_arguments, output_paths, plan
    from pacsim.report.lesson_map import map_settings

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    names = set()
    for seed in ("1", "2"):
        arguments = map_arguments(mapped[0], mapped[1])[1:]
        at = arguments.index("--depth")
        del arguments[at:at + 2]
        arguments = [*arguments[:arguments.index("--png")], "--set", f"seed={seed}", "--set", "grid.depth=[1, 2]"]
        args = parser.parse_args(arguments)
        experiment, _, layout = plan(args)
        settings = map_settings(experiment.conditions.grid, list(experiment.conditions))
        for setting in settings:
            png, page = output_paths(args, experiment, layout.name, setting, len(settings))
            assert page.name.startswith(f"{experiment.name}-pocket-{setting.slug()}-") and png.stem == page.stem
            names.add(page.name)
            given = parser.parse_args([*arguments, "--png", "m.png", "--html", "m.html"])
            assert output_paths(given, experiment, layout.name, setting, len(settings)) == \
                (Path(f"m-{setting.slug()}.png"), Path(f"m-{setting.slug()}.html"))  # names given: each map's added
    assert len(names) == 4  # two depths by two seeds: four maps, four names


def test_a_map_drawn_again_leaves_no_stale_tree_pages(mapped, tmp_path, monkeypatch, capsys):
    from pacsim.cli.lesson_map import write_trees

    lesson = mapped[3]
    # Each linked game's tree page, drawn cheaply: this test is about which pages stay, not what they show.
    monkeypatch.setattr("pacsim.web.lesson_map.tree_pages",
                        lambda lesson: ((trap, "<p>a tree</p>") for trap in lesson.traps.values()))
    trees = tmp_path / "map-trees"
    trees.mkdir()
    (trees / "game99999-move3.html").write_text("a tree of an earlier map")
    (trees / "notes.txt").write_text("not ours")
    linked = write_trees(lesson, tmp_path / "map.html")
    assert "(removed 1 old one)" in capsys.readouterr().out
    assert not (trees / "game99999-move3.html").exists() and (trees / "notes.txt").is_file()
    assert sorted(f"map-trees/{path.name}" for path in trees.glob("game*.html")) == sorted(linked.values())
    assert len(linked) == len({trap.game_id for trap in lesson.traps.values()}) > 0
    assert write_trees(lesson, tmp_path / "map.html", none=True) == {}  # --no-trees: the page links none...
    assert list(trees.glob("game*.html")) == []  # ...and none is left beside it


def test_rows_and_columns_are_numbered_on_the_page_and_the_figure_as_the_text_names_cells(mapped, monkeypatch):
    import re

    from pacsim.report.lesson_map import plot_map, where

    folder, _, _, lesson = mapped
    text = (folder / "map.html").read_text()
    panel = text.split('<table class="maze">')[1].split("</table>")[0]
    rows = re.findall(r"<tr>(.*?)</tr>", panel)
    assert re.findall(r"<th>(\d+)</th>", rows[0]) == [str(column) for column in range(1, 8)]
    assert [re.match(r"<th>(\d+)</th>", row)[1] for row in rows[1:]] == [str(row) for row in range(1, 7)]
    cell = next(cell for pacman, ghost, cell in lesson.traps if (pacman, ghost) == (lesson.pacmen[0], lesson.ghosts[0]))
    row, column = (int(number) for number in re.findall(r"\d+", where(lesson.layout, cell)))
    found = re.findall(r"<td[^>]*>|<th>\d+</th>", rows[row])[column]  # the row's header, then its cells
    assert f'href="#cell-{cell}"' in rows[row] and "title=" in found and f"row {row}, column {column}" in found
    figures = []
    monkeypatch.setattr("pacsim.report.plot.save_figure", lambda figure, pyplot, path, dpi: figures.append(figure))
    plot_map(lesson, folder / "unused.png")
    axis = figures[0].axes[0]
    assert [label.get_text() for label in axis.get_xticklabels()][:7] == [str(column) for column in range(1, 8)]
    assert [label.get_text() for label in axis.get_yticklabels()][:6] == [str(row) for row in range(1, 7)]
    assert "pocket" in figures[0]._suptitle.get_text() and f"of the {GAMES} played" in figures[0]._suptitle.get_text()
