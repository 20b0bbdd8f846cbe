"""Capture-the-flag mazes: the course's ``.lay`` capture files, unchanged.

A capture maze is a classic ``.lay`` text whose four agents are written
``1`` to ``4`` (no ``P``): agent ``i`` starts on the cell marked ``i + 1``,
agents 0 and 2 (red) on the left half, 1 and 3 (blue) on the right.  A cell
is red's when its column is left of ``width // 2``, as in the course.

The text is parsed by pacsim's own layout parser (one place for rows, walls,
widths and their messages): marker ``1`` is handed to it as the Pacman and
``2``-``4`` as numbered ghosts, whose order is the course's agent order, so
the parsed :class:`~pacsim.engine.layout.Layout` holds the move tables and
maze distances that every capture state shares.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pacsim.engine.layout import Layout, parse_layout
from pacsim.errors import LayoutError
from pacsim.files import FileRefused, read_bounded
from pacsim.shipped import LAYOUTS, shipped_folder

NUM_AGENTS = 4
RED_AGENTS = (0, 2)
BLUE_AGENTS = (1, 3)
MIN_FOOD = 2
"""A team wins once it has returned all but this many of the other side's food."""
CAPTURE_FOLDER = "capture"
"""The folder of shipped capture mazes, inside the shipped layouts."""
MAX_FILE_BYTES = 1 << 20


def is_red(agent: int) -> bool:
    """Whether agent ``agent`` plays for red (the even indices)."""
    return agent % 2 == 0


_TEAMS = (RED_AGENTS, BLUE_AGENTS, RED_AGENTS, BLUE_AGENTS)
_OPPONENTS = (BLUE_AGENTS, RED_AGENTS, BLUE_AGENTS, RED_AGENTS)


def team_of(agent: int) -> tuple[int, int]:
    """The indices of agent ``agent``'s team."""
    return _TEAMS[agent]  # a table: asked several times a move


def opponents_of(agent: int) -> tuple[int, int]:
    """The indices of the team agent ``agent`` plays against."""
    return _OPPONENTS[agent]


@dataclass(eq=False, frozen=True)
class CaptureLayout:
    """A parsed capture maze, shared by every state of every game on it."""

    name: str
    text: str
    """The maze as written (with its ``1``-``4`` markers)."""
    maze: Layout
    """Walls, cells, move tables and maze distances (pacsim's classic layout of the same text)."""
    starts: tuple[int, ...]
    """Agent ``i``'s start cell."""
    red_cells: int = field(init=False)
    """Bitmask of the cells on red's half (column < width // 2)."""
    total_food: int = field(init=False)
    """The food on the board at the start, both halves (the course's ``TOTAL_FOOD``)."""
    coordinates: tuple[tuple[int, int], ...] = field(init=False, repr=False)
    """The course's ``(x, y)`` of each cell (see :meth:`xy`)."""
    home_cells: tuple[int, ...] = field(init=False, repr=False)
    """Bitmask of agent ``i``'s own half (red's cells for 0 and 2, the others for 1 and 3): :meth:`is_home` as one shift."""
    home_edges: tuple[tuple[int, ...], tuple[int, ...]] = field(init=False, repr=False)
    """Red's and blue's cells next to the middle, where carried food is banked."""

    def __post_init__(self) -> None:
        half = self.maze.width // 2
        red = sum(1 << cell for cell, (_, column) in enumerate(self.maze.cells) if column < half)
        object.__setattr__(self, "red_cells", red)
        object.__setattr__(self, "total_food", self.maze.food_count)
        bottom = self.maze.height - 1
        object.__setattr__(self, "coordinates", tuple((column, bottom - row) for row, column in self.maze.cells))
        blue = ((1 << len(self.maze.cells)) - 1) & ~red
        object.__setattr__(self, "home_cells", (red, blue, red, blue))
        object.__setattr__(self, "home_edges", tuple(tuple(cell for cell, (_, at) in enumerate(self.maze.cells) if at == column)
                                                     for column in (half - 1, half)))

    @property
    def width(self) -> int:
        return self.maze.width

    @property
    def height(self) -> int:
        return self.maze.height

    def on_red_side(self, cell: int) -> bool:
        return bool((self.red_cells >> cell) & 1)

    def is_home(self, agent: int, cell: int) -> bool:
        """Whether ``cell`` is on agent ``agent``'s own half (where it is a ghost)."""
        return bool((self.home_cells[agent] >> cell) & 1)

    def wins_with(self, returned: int) -> bool:
        """Whether a team that has returned ``returned`` food has won: all but
        :data:`MIN_FOOD` of the other side's, the course's ``TOTAL_FOOD / 2 - MIN_FOOD``."""
        return 2 * returned >= self.total_food - 2 * MIN_FOOD

    def xy(self, cell: int) -> tuple[int, int]:
        """The course's ``(x, y)`` of a cell: column, and row counted from the bottom."""
        return self.coordinates[cell]

    def cell_at(self, x: int, y: int) -> int | None:
        """The cell at the course's ``(x, y)``, or None for a wall or outside."""
        return self.maze.cell_of.get((self.maze.height - 1 - y, x))

    def __repr__(self) -> str:
        return f"CaptureLayout({self.name!r}, {self.width}x{self.height}, food={self.total_food})"


_MARKERS = "1234"
_AS_CLASSIC = str.maketrans("1", "P")
"""Agent 1 handed to the classic parser as its Pacman, 2-4 as its numbered ghosts."""


def parse_capture_layout(text: str, name: str = "capture", source: str = "<layout>") -> CaptureLayout:
    """Parse a capture maze; raise :class:`LayoutError` naming line and column."""
    if "P" in text or "G" in text:
        raise LayoutError("a capture maze marks its agents 1-4, not 'P' or 'G'", source)
    for marker in _MARKERS:
        count = text.count(marker)
        if count != 1:
            raise LayoutError(f"a capture maze needs exactly one agent {marker!r}; this one has {count}", source)
    maze = parse_layout(text.translate(_AS_CLASSIC), name=name, source=source)
    starts = (maze.pacman_start, *maze.ghost_starts)
    layout = CaptureLayout(name=name, text=maze.text.replace("P", "1"), maze=maze, starts=starts)
    for agent, cell in enumerate(starts):
        if not layout.is_home(agent, cell):
            side = "left" if is_red(agent) else "right"
            raise LayoutError(f"agent {agent + 1} must start on the {side} half (red 1 and 3 left, blue 2 and 4 right)", source)
    return layout


def read_capture_layout(path: str | Path) -> CaptureLayout:
    """Read a capture ``.lay`` file (at most :data:`MAX_FILE_BYTES`)."""
    path = Path(path)
    return parse_capture_layout(_read_text(path), name=path.stem, source=str(path))


def _read_text(path: Path) -> str:
    try:
        return read_bounded(path, MAX_FILE_BYTES).decode("utf-8")
    except FileRefused as error:
        raise LayoutError(str(error), str(path)) from None
    except UnicodeDecodeError:
        raise LayoutError("not UTF-8 text", str(path)) from None


def shipped_capture_layouts() -> dict[str, Path]:
    """The capture mazes pacsim ships, by name."""
    folder = shipped_folder(LAYOUTS) / CAPTURE_FOLDER
    return {path.stem: path for path in sorted(folder.glob("*.lay"))}


RANDOM_PREFIX = "RANDOM"


def find_capture_layout(name: str) -> CaptureLayout:
    """The course's ``-l``: ``RANDOM<seed>`` (a generated maze), a path, a
    ``NAME`` or ``NAME.lay`` in ``./`` or ``./layouts/``, or a shipped capture maze.
    Raises :class:`LayoutError` for a name that leads nowhere."""
    text, found, source = capture_layout_text(name)
    return parse_capture_layout(text, name=found, source=source)


def capture_layout_text(name: str) -> tuple[str, str, str]:
    """The ``.lay`` text :func:`find_capture_layout` reads for ``name``, the maze's name and where it came from
    (a contest keeps the text, so that its games replay on the same maze)."""
    if name.startswith(RANDOM_PREFIX) and name[len(RANDOM_PREFIX):].isdigit():
        from pacsim.engine.capture.maze import generate_capture_maze

        return generate_capture_maze(int(name[len(RANDOM_PREFIX):])), name, name
    stem = name.removesuffix(".lay")
    candidates = [Path(name), Path(f"{stem}.lay"), Path("layouts") / f"{stem}.lay"]
    shipped = shipped_capture_layouts()
    path = next((path for path in candidates if path.is_file()), shipped.get(stem))
    if path is None:
        from pacsim.errors import did_you_mean

        raise LayoutError(f"no capture layout named {stem!r} (shipped: {', '.join(shipped)}, or RANDOM<seed>)"
                          f"{did_you_mean(stem, shipped)}", name)
    return _read_text(path), path.stem, str(path)
