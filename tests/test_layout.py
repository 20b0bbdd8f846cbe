"""Layout parsing: shipped mazes, CS188 ghost order, row widths, and every bad-layout message."""

import json
import random

import pytest

from pacsim.cli import main
from pacsim.engine import load_layout, parse_layout, read_layout, shipped_layouts
from pacsim.engine.layout import MAX_SIDE
from pacsim.errors import LayoutError

REQUIRED = {"tinyGhostMaze", "trapMaze", "smallClassic", "wideClassic", "classic"}


def test_every_shipped_layout_parses_without_warnings():
    names = set(shipped_layouts())
    assert names >= REQUIRED
    for name in names:
        layout = load_layout(name)
        assert layout.warnings == ()
        assert layout.food_count > 0


def test_tiny_maze_suits_the_optimism_study():
    layout = load_layout("tinyGhostMaze")
    assert layout.capsule_count == 0 and layout.food_count <= 5 and layout.num_ghosts <= 2


def test_classic_style_mazes_have_capsules():
    for name in ("smallClassic", "wideClassic", "classic"):
        assert load_layout(name).capsule_count > 0


def test_cells_walls_and_trailing_spaces():
    layout = parse_layout("%%%%%   \n%P.G%\n%%%%%  \n\n")
    assert (layout.width, layout.height) == (5, 3)
    assert layout.cells == ((1, 1), (1, 2), (1, 3))
    assert layout.food == 0b010 and layout.pacman_start == 0 and layout.ghost_starts == (2,)
    assert layout.text == "%%%%%\n%P.G%\n%%%%%\n"


def test_ghosts_follow_cs188_agent_order():
    # CS188 sorts by (number, x, y) with y from the bottom; 'G' counts as 1.
    layout = parse_layout("%%%%%\n%G 2%\n%P.G%\n%%%%%\n")
    order = [layout.cells[cell] for cell in layout.ghost_starts]
    # x first: the G at column 1 precedes the G at column 3; ghost '2' last.
    assert order == [(1, 1), (2, 3), (1, 3)]


def test_distances_are_maze_distances():
    layout = parse_layout("%%%%%\n%P%.%\n% % %\n%   %\n%%%%%\n")
    pacman = layout.pacman_start
    food = layout.cell_of[(1, 3)]
    assert layout.distance(pacman, food) == 6
    assert layout.distance(food, pacman) == 6


def test_unreachable_food_is_a_warning(tmp_path, capsys):
    path = tmp_path / "walled.lay"
    path.write_text("%%%%%%\n%P.%.%\n%%%%%%\n")
    layout = read_layout(path)
    assert len(layout.warnings) == 1 and "walled.lay:2:5: warning" in layout.warnings[0]
    assert main(["layouts", "--check", str(path)]) == 0
    assert "warning: food Pacman cannot reach" in capsys.readouterr().err


BAD = [
    ("unknown.lay", "%%%%%\n%P.x%\n%%%%%\n", ":2:4: unknown character 'x'"),
    ("nopac.lay", "%%%%\n%..%\n%%%%\n", ":1:1: no Pacman"),
    ("twopac.lay", "%%%%%\n%P.P%\n%%%%%\n", ":2:4: a second Pacman"),
    ("ragged.lay", "%%%%%\n%P.\n%%%%%\n", ":2:4: ragged row"),
    ("ragged_after_editor.lay", "%%%%%\n%P.  \n%%%%%\n%..\n", ":4:4: ragged row"),
    ("nofood.lay", "%%%%\n%P %\n%%%%\n", ":1:1: no food"),
    ("hole.lay", "%%%%\n\n%P.%\n%%%%\n", ":2:1: empty row inside the layout"),
    ("empty.lay", "", ": empty file"),
    ("blank.lay", "  \n\n", ": empty file"),
    ("huge.lay", ("%" * (MAX_SIDE + 1) + "\n") + "%P." + " " * (MAX_SIDE - 3) + "%\n", ":1:1: grid too large"),
]


@pytest.mark.parametrize("name,text,expected", BAD, ids=[case[0] for case in BAD])
def test_bad_layouts_give_one_line_with_place(tmp_path, capsys, name, text, expected):
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(LayoutError) as caught:
        read_layout(path)
    assert str(caught.value).startswith(f"{path}{expected}")
    assert main(["layouts", "--check", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{path}{expected}" in err


def test_non_utf8_names_the_byte(tmp_path, capsys):
    path = tmp_path / "latin.lay"
    path.write_bytes(b"%%%%\n%P.\xe9%\n%%%%\n")
    assert main(["layouts", "--check", str(path)]) == 2
    assert f"{path}:2:4: not UTF-8 text" in capsys.readouterr().err


def test_unreadable_and_unknown_layouts(tmp_path, capsys):
    assert main(["layouts", "--check", str(tmp_path)]) == 2  # a directory
    assert "cannot read the file" in capsys.readouterr().err
    assert main(["play", "-l", "noSuchMaze", "-q"]) == 2
    assert "no layout named 'noSuchMaze'" in capsys.readouterr().err
    assert main(["play", "-l", str(tmp_path / "missing.lay"), "-q"]) == 2
    assert "missing.lay: cannot read the file" in capsys.readouterr().err


# -- rows: trailing spaces, CS188's width rule, open rows -------------------

def random_maze_with_open_right_edge(rng: random.Random, width: int, height: int) -> str:
    """A rectangle of walls, food and spaces whose rows often end in spaces
    (open cells on the right edge), with Pacman, a food and a ghost."""
    rows = [["%"] + [rng.choice("%%..  ") for _ in range(width - 1)] for _ in range(height)]
    for row in rng.sample(rows, k=max(1, height // 2)):
        row[-1] = " "
        if rng.random() < 0.5:
            row[-2] = " "
    inner = [(row, column) for row in range(height) for column in range(1, width - 2)]
    for char, (row, column) in zip("P.G", rng.sample(inner, 3)):
        rows[row][column] = char
    return "\n".join("".join(row) for row in rows) + "\n"


def same_layout(first, second) -> bool:
    fields = ("width", "height", "walls", "cells", "food", "capsules", "pacman_start", "ghost_starts", "text")
    return all(getattr(first, name) == getattr(second, name) for name in fields)


def test_trailing_spaces_are_cells_and_the_text_parses_back_to_the_same_layout():
    rng = random.Random(12)
    for _ in range(60):
        width, height = rng.randint(4, 12), rng.randint(3, 9)
        text = random_maze_with_open_right_edge(rng, width, height)
        layout = parse_layout(text)
        assert (layout.width, layout.height) == (width, height) and layout.text == text
        assert same_layout(parse_layout(layout.text), layout)
        # Editor noise (trailing spaces on some rows, not all) changes nothing.
        lines = text.splitlines()
        noisy = "\n".join(line + " " * rng.randint(1, 3) if index % 2 else line for index, line in enumerate(lines))
        assert same_layout(parse_layout(noisy), layout)


def test_mazes_with_open_right_edges_store_and_replay(tmp_path):
    from pacsim.agents.registry import make_ghost, make_pacman
    from pacsim.engine import play_game
    from pacsim.engine.recording import game_from_dict, game_to_dict
    from pacsim.runner import load_experiment, load_results, load_saved_game, run_experiment

    rng = random.Random(7)
    names = []
    for number in range(8):
        path = tmp_path / f"open{number}.lay"
        path.write_text(random_maze_with_open_right_edge(rng, rng.randint(6, 10), rng.randint(4, 7)))
        names.append(str(path))
        layout = read_layout(path)
        record = play_game(layout, [make_pacman("greedy"), make_ghost("random")], seed=number, max_moves=30)
        saved = game_from_dict(json.loads(json.dumps(game_to_dict(record, layout, "greedy", ["random"]))))
        assert saved.states()[-1].score == record.score
    experiment = tmp_path / "open.toml"
    experiment.write_text(f"name = 'open'\ngames = 1\nmax_moves = 30\nstore = '{tmp_path / 'open.sqlite'}'\n"
                          f"[grid]\npacman = ['greedy']\nghosts = ['random']\nlayout = {json.dumps(names)}\n")
    result = run_experiment(load_experiment(experiment), workers=1, quiet=True)
    results = load_results(result.store)
    assert len(results) == len(names) and "error" not in set(results["outcome"])
    for row in results.itertuples():
        saved = load_saved_game(result.store, row.id)
        assert same_layout(saved.layout, read_layout(row.layout))
        assert saved.states()[-1].score == row.score


def test_the_first_row_sets_the_width_and_a_longer_row_is_cut_with_a_warning(tmp_path, capsys):
    # Shaped like CS188's capsuleClassic.lay: the last row one wall longer.
    path = tmp_path / "longer.lay"
    path.write_text("%%%%%%%\n%P. o %\n% %%%G%\n%%%%%%%%\n")
    layout = read_layout(path)
    assert (layout.width, layout.height) == (7, 4)
    assert layout.warnings == (f"{path}:4:8: warning: row of 8 columns, longer than the first row; "
                               "the columns past 7 are ignored (as CS188 does)",)
    assert layout.text.splitlines()[-1] == "%%%%%%%"
    assert same_layout(parse_layout(layout.text), layout) and parse_layout(layout.text).warnings == ()
    assert main(["layouts", "--check", str(path)]) == 0
    captured = capsys.readouterr()
    assert "4:8: warning: row of 8 columns" in captured.err and "ok: 7x4" in captured.out


def test_a_row_of_spaces_inside_the_maze_is_an_open_row():
    layout = parse_layout("%%%%%\n%P.%%\n     \n%% .%\n  \n%%%%%\n")
    assert (layout.width, layout.height) == (5, 6)
    assert {(2, column) for column in range(5)} <= set(layout.cells)
    assert {(4, column) for column in range(5)} <= set(layout.cells)  # a short one too
    assert layout.text.splitlines()[4] == "     "
    assert same_layout(parse_layout(layout.text), layout)
