"""Layouts: the classic ``.lay`` maze format, parsed once into tables for search.

A layout is read-only and shared by every state of every game played on it.
Open cells are numbered 0..n-1 in reading order (top row first), so a state
can hold positions as small ints and food as a bitmask over cell numbers.
Everything a successor needs (neighbour tables, the ghost move tables that
encode the no-reverse rule) is computed here, once.

Text format (as in the UC Berkeley CS188 project)::

    %  wall          .  food          o  capsule (power pellet)
    P  Pacman        G  ghost         1-4  numbered ghosts (ordered by number)
    space  empty

The first row sets the width, as in CS188: a longer row is cut to it with a
warning, a shorter one is an error, a row of spaces only is an open row, and
trailing spaces are cells when every row is written that long (``_rows``).

Coordinates: ``(row, column)`` with row 0 the top line of the text.  The
CS188 engine uses ``(x, y)`` with y counted from the bottom; it matters only
for the order of ghosts, which follows CS188 (see ``_agent_order``).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from types import MappingProxyType

from pacsim.errors import LayoutError
from pacsim.files import FileRefused, read_bounded
from pacsim.shipped import LAYOUTS, shipped_folder

# Actions in the order CS188 lists them; the order decides search tie-breaks.
NORTH, SOUTH, EAST, WEST, STOP = "North", "South", "East", "West", "Stop"
ACTIONS: tuple[str, ...] = (NORTH, SOUTH, EAST, WEST, STOP)
DIRECTION_INDEX = {action: index for index, action in enumerate(ACTIONS)}
REVERSE = {NORTH: SOUTH, SOUTH: NORTH, EAST: WEST, WEST: EAST, STOP: STOP}
_DELTAS = {NORTH: (-1, 0), SOUTH: (1, 0), EAST: (0, 1), WEST: (0, -1)}

WALL, FOOD, CAPSULE, PACMAN, GHOST, EMPTY = "%", ".", "o", "P", "G", " "
_GHOST_NUMBERS = "1234"
_KNOWN = set(WALL + FOOD + CAPSULE + PACMAN + GHOST + EMPTY + _GHOST_NUMBERS)

MAX_SIDE = 128
"""Largest width or height accepted.  Distances are computed lazily per
source cell, so memory grows with the cells a game actually asks about."""
GENERATED_PREFIX = "generated:"
"""How a generated maze's name starts (``generated:w=9,h=7,seed=3``: :mod:`pacsim.engine.generate`)."""

MAX_FILE_BYTES = 1 << 20
"""Largest layout file read (a 128x128 maze is 16 KB)."""

Move = tuple[str, int]
"""An action and the cell it leads to."""


@dataclass(eq=False, frozen=True)
class Layout:
    """A parsed maze.  Compared and hashed by identity: states hold a
    reference to their layout, and two games on one file share it."""

    name: str
    """Short name (the file stem for shipped layouts)."""
    text: str
    """The layout text as parsed, every row exactly ``width`` characters (a
    trailing space is an open cell and stays); it parses back to this layout."""
    width: int
    height: int
    walls: frozenset[tuple[int, int]]
    """(row, column) of every wall."""
    cells: tuple[tuple[int, int], ...]
    """(row, column) of each open cell, indexed by cell number."""
    food: int
    """Bitmask of the cells holding food at the start."""
    capsules: int
    """Bitmask of the cells holding capsules at the start."""
    pacman_start: int
    ghost_starts: tuple[int, ...]
    """Start cells of every ghost in the layout, in CS188 agent order."""
    source: str = "<layout>"
    """The file the layout came from, for messages."""
    warnings: tuple[str, ...] = ()
    """Problems that do not stop a game (a row longer than the first, unreachable
    food), as ``FILE:LINE:COL: warning: ...`` lines; ``pacsim layouts --check`` prints them."""
    cell_of: Mapping[tuple[int, int], int] = field(init=False, repr=False)
    pacman_moves: tuple[tuple[Move, ...], ...] = field(init=False, repr=False)
    """Per cell: Pacman's legal (action, target) pairs, Stop last."""
    targets: tuple[Mapping[str, int], ...] = field(init=False, repr=False)
    """Per cell: action -> target cell for every legal Pacman action."""
    ghost_moves: tuple[tuple[tuple[Move, ...], ...], ...] = field(init=False, repr=False)
    """Per cell, per current direction index: the ghost's legal moves
    (no Stop; no reverse unless it is the only move)."""
    _distance_rows: list[tuple[int, ...] | None] = field(init=False, repr=False)

    # Frozen, and every table a read-only view (tuples, mapping proxies): the
    # layout is shared by every game a process plays, so an agent that could
    # change it (sorting a list from distances_from(), say) would change the
    # games played after its own.
    def __post_init__(self) -> None:
        derived = object.__setattr__
        derived(self, "cell_of", MappingProxyType({cell: index for index, cell in enumerate(self.cells)}))
        derived(self, "pacman_moves", tuple(self._moves_from(cell) for cell in range(len(self.cells))))
        derived(self, "targets", tuple(MappingProxyType(dict(moves)) for moves in self.pacman_moves))
        derived(self, "ghost_moves", tuple(
            tuple(self._ghost_moves(moves, direction) for direction in ACTIONS)
            for moves in self.pacman_moves
        ))
        derived(self, "_distance_rows", [None] * len(self.cells))

    def __reduce__(self) -> tuple[object, tuple[dict[str, object]]]:
        """Pickled as its fields (mapping proxies cannot be); the tables are rebuilt."""
        return _layout_from_fields, ({item.name: getattr(self, item.name) for item in fields(self) if item.init},)

    def _moves_from(self, cell: int) -> tuple[Move, ...]:
        row, column = self.cells[cell]
        moves = []
        for action in (NORTH, SOUTH, EAST, WEST):
            delta_row, delta_column = _DELTAS[action]
            target = self.cell_of.get((row + delta_row, column + delta_column))
            if target is not None:
                moves.append((action, target))
        moves.append((STOP, cell))
        return tuple(moves)

    @staticmethod
    def _ghost_moves(moves: tuple[Move, ...], direction: str) -> tuple[Move, ...]:
        walking = tuple(move for move in moves if move[0] != STOP)
        if not walking:  # a walled-in ghost has nowhere to go: it stays
            return moves
        reverse = REVERSE[direction]
        forward = tuple(move for move in walking if move[0] != reverse)
        return forward if forward else walking

    @property
    def num_cells(self) -> int:
        return len(self.cells)

    @property
    def num_ghosts(self) -> int:
        return len(self.ghost_starts)

    @property
    def food_count(self) -> int:
        return self.food.bit_count()

    @property
    def capsule_count(self) -> int:
        return self.capsules.bit_count()

    def distances_from(self, cell: int) -> tuple[int, ...]:
        """Maze distance from ``cell`` to every cell (breadth-first search,
        computed on first use and kept).  Unreachable cells get a large number."""
        row = self._distance_rows[cell]
        if row is None:
            row = _breadth_first(self.pacman_moves, cell)
            self._distance_rows[cell] = row
        return row

    def distance(self, a: int, b: int) -> int:
        """Maze distance between two cells."""
        return self.distances_from(a)[b]

    def __repr__(self) -> str:
        return f"Layout({self.name!r}, {self.width}x{self.height}, food={self.food_count}, ghosts={self.num_ghosts})"


UNREACHABLE = 1 << 20


def _layout_from_fields(values: dict[str, object]) -> Layout:
    return Layout(**values)  # type: ignore[arg-type]  # the fields of a Layout


def _breadth_first(moves: tuple[tuple[Move, ...], ...], start: int) -> tuple[int, ...]:
    distances = [UNREACHABLE] * len(moves)
    distances[start] = 0
    frontier = deque([start])
    while frontier:
        cell = frontier.popleft()
        next_distance = distances[cell] + 1
        for _, target in moves[cell]:
            if distances[target] == UNREACHABLE:
                distances[target] = next_distance
                frontier.append(target)
    return tuple(distances)


def parse_layout(text: str, name: str = "layout", source: str = "<layout>") -> Layout:
    """Parse layout text; raise :class:`LayoutError` naming line and column.

    The text of the result (``Layout.text``) parses back to the same layout."""
    numbered, width, row_warnings = _rows(text, source)
    height = len(numbered)
    walls: set[tuple[int, int]] = set()
    open_cells: list[tuple[int, int]] = []
    food_cells, capsule_cells, pacmen = [], [], []
    ghosts: list[tuple[int, tuple[int, int]]] = []  # (ghost number, (row, column))
    for row, (line_number, line) in enumerate(numbered):
        for column, char in enumerate(line):
            if char not in _KNOWN:
                raise LayoutError(
                    f"unknown character {char!r} (expected one of '%', '.', 'o', 'P', 'G', '1'-'4', ' ')",
                    source, line_number, column + 1,
                )
            position = (row, column)
            if char == WALL:
                walls.add(position)
                continue
            open_cells.append(position)
            if char == FOOD:
                food_cells.append(position)
            elif char == CAPSULE:
                capsule_cells.append(position)
            elif char == PACMAN:
                pacmen.append((line_number, column + 1, position))
            elif char == GHOST:
                ghosts.append((1, position))
            elif char in _GHOST_NUMBERS:
                ghosts.append((int(char), position))

    if not pacmen:
        raise LayoutError("no Pacman ('P') in the layout", source, numbered[0][0], 1)
    if len(pacmen) > 1:
        line_number, column, _ = pacmen[1]
        raise LayoutError(
            f"a second Pacman ('P'); the first is at line {pacmen[0][0]}, column {pacmen[0][1]}",
            source, line_number, column,
        )
    if not food_cells:
        raise LayoutError("no food ('.') in the layout: the game could never be won", source, numbered[0][0], 1)

    cell_of = {position: index for index, position in enumerate(open_cells)}
    layout = Layout(
        name=name,
        text="\n".join(line for _, line in numbered) + "\n",
        width=width,
        height=height,
        walls=frozenset(walls),
        cells=tuple(open_cells),
        food=_bitmask(cell_of[position] for position in food_cells),
        capsules=_bitmask(cell_of[position] for position in capsule_cells),
        pacman_start=cell_of[pacmen[0][2]],
        ghost_starts=tuple(cell_of[position] for position in _agent_order(ghosts, height)),
        source=source,
    )
    object.__setattr__(layout, "warnings", row_warnings + _unreachable_food(layout, numbered))  # needs the tables
    return layout


def _rows(text: str, source: str) -> tuple[list[tuple[int, str]], int, tuple[str, ...]]:
    """The rows of the maze with their line numbers, each cut or padded to the
    width; the width; warnings about cut rows.

    The first row sets the width, as in CS188.  Its trailing spaces count as
    cells only as far as every row is written (a maze open at its right edge,
    written as a rectangle); beyond that they are editor noise.  A longer row
    is cut to the width with a warning (CS188 ignores the excess too: its own
    ``capsuleClassic.lay`` has a last row one wall longer); a shorter one is an
    error; a row of spaces only is an open row.  Blank lines before and after
    the maze are ignored; an empty line inside it is an error."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    numbered = list(enumerate(lines, start=1))
    while numbered and not numbered[-1][1].strip():
        numbered.pop()
    while numbered and not numbered[0][1].strip():
        numbered.pop(0)
    if not numbered:
        raise LayoutError("empty layout: no rows", source, 1, 1)
    first = numbered[0][1]
    written = [len(line) for _, line in numbered if line.strip(EMPTY)]
    width = max(len(first.rstrip(EMPTY)), min(written))
    if width > MAX_SIDE or len(numbered) > MAX_SIDE:
        raise LayoutError(
            f"grid too large: {width}x{len(numbered)}, the limit is {MAX_SIDE}x{MAX_SIDE}", source, 1, 1
        )
    rows = []
    warnings = []
    for line_number, line in numbered:
        content = line.rstrip(EMPTY)
        if not line:
            raise LayoutError("empty row inside the layout (a row of spaces is an open row)", source, line_number, 1)
        if not content:
            line = EMPTY * width
        elif len(content) > width:
            warnings.append(f"{source}:{line_number}:{width + 1}: warning: row of {len(content)} columns, longer "
                            f"than the first row; the columns past {width} are ignored (as CS188 does)")
        elif len(line) < width:
            raise LayoutError(f"ragged row: {len(content)} columns where the first row is {width} wide",
                              source, line_number, len(content) + 1)
        rows.append((line_number, line[:width]))
    return rows, width, tuple(warnings)


def _agent_order(ghosts: list[tuple[int, tuple[int, int]]], height: int) -> list[tuple[int, int]]:
    """CS188 sorts agents by (number, x, y) with y counted from the bottom row;
    'G' counts as number 1.  Matching it keeps move order, and so search
    values, identical to that engine's."""
    return [
        position
        for _, position in sorted(ghosts, key=lambda ghost: (ghost[0], ghost[1][1], height - 1 - ghost[1][0]))
    ]


def _bitmask(indices) -> int:
    mask = 0
    for index in indices:
        mask |= 1 << index
    return mask


def _unreachable_food(layout: Layout, numbered: list[tuple[int, str]]) -> tuple[str, ...]:
    distances = layout.distances_from(layout.pacman_start)
    warnings = []
    for cell, (row, column) in enumerate(layout.cells):
        if (layout.food >> cell) & 1 and distances[cell] >= UNREACHABLE:
            line_number = numbered[row][0]
            warnings.append(f"{layout.source}:{line_number}:{column + 1}: warning: food Pacman cannot reach")
    return tuple(warnings)


def read_layout(path: str | Path) -> Layout:
    """Read a ``.lay`` file (a regular file of at most :data:`MAX_FILE_BYTES`);
    every failure is a :class:`LayoutError`."""
    path = Path(path)
    source = str(path)
    try:
        data = read_bounded(path, MAX_FILE_BYTES)
    except FileRefused as error:
        raise LayoutError(str(error), source) from None
    if not data.strip():
        raise LayoutError("empty file", source)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        raise LayoutError("not UTF-8 text", source, line, column) from None
    return parse_layout(text, name=path.stem, source=source)


def layouts_directory() -> Path:
    """Where the shipped layouts live (see :mod:`pacsim.shipped`)."""
    return shipped_folder(LAYOUTS)


def shipped_layouts() -> dict[str, Path]:
    """Shipped layout names mapped to their files, sorted by name."""
    directory = layouts_directory()
    return {path.stem: path for path in sorted(directory.glob("*.lay"))}
