"""Layout parsing: shipped mazes, CS188 ghost order, and every bad-layout message."""

import pytest

from pacsim.cli import main
from pacsim.engine import load_layout, parse_layout, read_layout, shipped_layouts
from pacsim.engine.layout import MAX_SIDE
from pacsim.errors import LayoutError

REQUIRED = {"tinyMaze", "trapMaze", "smallClassic", "mediumClassic", "classic"}


def test_every_shipped_layout_parses_without_warnings():
    names = set(shipped_layouts())
    assert names >= REQUIRED
    for name in names:
        layout = load_layout(name)
        assert layout.warnings == ()
        assert layout.food_count > 0


def test_tiny_maze_suits_the_optimism_study():
    layout = load_layout("tinyMaze")
    assert layout.capsule_count == 0 and layout.food_count <= 5 and layout.num_ghosts <= 2


def test_classic_style_mazes_have_capsules():
    for name in ("smallClassic", "mediumClassic", "classic"):
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
