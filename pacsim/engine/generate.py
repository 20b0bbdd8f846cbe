"""Seeded maze generation: small valid layouts for experiments over many mazes.

A maze is carved on the odd squares of the grid by a randomized depth-first
search, which gives a *perfect* maze (one path between any two squares, many
dead ends).  Two knobs then open it up:

- ``loops``: the share of dead ends removed by knocking one of their walls
  through to a neighbour (braiding).  0 keeps the perfect maze; 1 leaves no
  dead end, so every corridor is part of a loop.
- ``rooms``: the share of interior wall pillars removed together with the four
  walls around them, turning four corridor squares into a 3x3 room.

Pacman goes on a random square, each ghost on a square at least half the
maze's greatest distance from him (and never closer than
:data:`MIN_GHOST_DISTANCE`), then food and capsules on other squares.  The
maze is connected by construction, so every pellet is reachable.  The same
:class:`MazeSpec` always gives the same text.

In experiment files a generated maze is named by its spec,
``generated:w=9,h=7,food=4,ghosts=1,seed=0-199`` (a seed range expands to one
maze per seed); :meth:`MazeSpec.name` is the canonical form stored with every
game, beside the layout text itself.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, fields

from pacsim.engine.layout import GENERATED_PREFIX, MAX_SIDE, UNREACHABLE, Layout
from pacsim.errors import ConfigError

PREFIX = GENERATED_PREFIX
"""Layout names starting with this are generated, not read from a file."""

GENERATOR_VERSION = 1
"""Bumped whenever the same spec would give a different maze, so stored
results of an old generator are never resumed as if they were the new one."""

MIN_GHOST_DISTANCE = 3
"""Fewest moves between Pacman's start and any ghost's."""

_KEYS = {"w": "width", "width": "width", "h": "height", "height": "height", "food": "food",
         "capsules": "capsules", "ghosts": "ghosts", "loops": "loops", "rooms": "rooms", "seed": "seed"}
_SHORT = {"width": "w", "height": "h"}
_OMITTED_WHEN_ZERO = ("capsules", "loops", "rooms")
_STEPS = ((-1, 0), (1, 0), (0, 1), (0, -1))

Square = tuple[int, int]
"""(row, column) on the grid."""


@dataclass(frozen=True)
class MazeSpec:
    """Everything that determines a generated maze."""

    width: int = 9
    """Columns, outer walls included (odd widths use every column)."""
    height: int = 7
    """Rows, outer walls included (odd heights use every row)."""
    food: int = 4
    """Food pellets."""
    capsules: int = 0
    """Power capsules."""
    ghosts: int = 1
    """Ghost start squares."""
    loops: float = 0.0
    """Share of dead ends opened into loops: 0 (a perfect maze) to 1 (no dead end)."""
    rooms: float = 0.0
    """Share of interior pillars removed to make 3x3 rooms: 0 to 1."""
    seed: int = 0
    """The maze's own random seed (not a game seed)."""

    def __post_init__(self) -> None:
        for name in ("width", "height"):
            value = getattr(self, name)
            if not 5 <= value <= MAX_SIDE:
                raise ConfigError(f"generated maze: {name}={value} must be between 5 and {MAX_SIDE}")
        if self.food < 1:
            raise ConfigError(f"generated maze: food={self.food} must be at least 1")
        for name in ("capsules", "ghosts", "seed"):
            if getattr(self, name) < 0:
                raise ConfigError(f"generated maze: {name}={getattr(self, name)} must not be negative")
        for name in ("loops", "rooms"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ConfigError(f"generated maze: {name}={getattr(self, name)} must be between 0 and 1")

    def name(self) -> str:
        """The canonical spec, e.g. ``generated:w=9,h=7,food=4,ghosts=1,loops=0.5,seed=3``:
        every key, except capsules, loops and rooms when they are 0 (short
        names keep condition labels readable in a 100-column table)."""
        parts = [f"{_SHORT.get(field.name, field.name)}={_text(getattr(self, field.name))}" for field in fields(self)
                 if field.name not in _OMITTED_WHEN_ZERO or getattr(self, field.name) != 0]
        return PREFIX + ",".join(parts)


def _text(value: int | float) -> str:
    """Integers exactly (a seed of 10**6 stays 1000000), fractions as short as
    they go while still reading back as the same number."""
    if isinstance(value, int):
        return str(value)
    short = f"{value:g}"
    return short if float(short) == value else repr(value)


def is_generated(name: str) -> bool:
    """Whether a layout name is a generator spec rather than a file or shipped name."""
    return name.startswith(PREFIX)


def parse_maze_specs(text: str) -> list[MazeSpec]:
    """``generated:w=9,h=7,food=4,ghosts=1,seed=0-199`` as one spec per seed.

    Keys: ``w``/``width``, ``h``/``height``, ``food``, ``capsules``, ``ghosts``,
    ``loops``, ``rooms``, ``seed`` (a number or an inclusive range ``A-B``);
    unnamed keys keep :class:`MazeSpec`'s defaults."""
    values, seeds = _parse(text)
    return [MazeSpec(**values, seed=seed) for seed in seeds]  # type: ignore[arg-type]


def maze_count(text: str) -> int:
    """How many mazes a spec names (its seed range's length), without
    building a spec per seed: ``seed=0-99999999999`` is counted, not listed."""
    values, seeds = _parse(text)
    MazeSpec(**values, seed=seeds[0])  # type: ignore[arg-type]  # the other keys are checked all the same
    return len(seeds)


def maze_names(text: str) -> tuple[str, range]:
    """A spec's mazes without a spec per seed: the canonical name of each is
    the prefix returned followed by its seed (the seed is the name's last key)."""
    values, seeds = _parse(text)
    name = MazeSpec(**values, seed=seeds[0]).name()  # type: ignore[arg-type]  # checks the other keys too
    return name[:-len(str(seeds[0]))], seeds


def _parse(text: str) -> tuple[dict[str, int | float], range]:
    """A spec's keys other than the seed, and its seeds."""
    body = text[len(PREFIX):] if is_generated(text) else text
    values: dict[str, int | float] = {}
    seeds = range(1)
    for item in filter(None, (part.strip() for part in body.split(","))):
        key, equals, value = item.partition("=")
        field_name = _KEYS.get(key.strip())
        if not equals or field_name is None:
            raise ConfigError(f"{text}: {item!r} is not key=value with a key among {', '.join(sorted(_KEYS))}")
        if field_name == "seed":
            seeds = _seed_range(text, value.strip())
        else:
            values[field_name] = _number(text, key, value.strip(), float if field_name in ("loops", "rooms") else int)
    return values, seeds


def _seed_range(text: str, value: str) -> range:
    first, dash, last = value.partition("-")
    if dash and not first.strip():  # "-1" would read as a range from nothing
        raise ConfigError(f"{text}: seed={value!r}: seeds are whole numbers from 0 (a range is A-B)")
    low = _number(text, "seed", first, int)
    high = _number(text, "seed", last, int) if dash else low
    if high < low:
        raise ConfigError(f"{text}: seed range {value!r} runs backwards")
    return range(int(low), int(high) + 1)


def _number(text: str, key: str, value: str, kind: type) -> int | float:
    try:
        return kind(value)
    except ValueError:
        raise ConfigError(f"{text}: {key}={value!r} is not {'an integer' if kind is int else 'a number'}") from None


def generate_layout(spec: MazeSpec) -> str:
    """The ``.lay`` text of the maze ``spec`` describes (same spec, same text)."""
    rng = random.Random(f"pacsim-maze-{GENERATOR_VERSION}-{spec.seed}")
    grid = [[True] * spec.width for _ in range(spec.height)]  # True = wall
    _carve(grid, rng)
    _braid(grid, rng, spec.loops)
    _open_rooms(grid, rng, spec.rooms)
    marks = _place(grid, rng, spec)
    rows = []
    for row, line in enumerate(grid):
        rows.append("".join("%" if wall else marks.get((row, column), " ") for column, wall in enumerate(line)))
    return "\n".join(rows) + "\n"


def _carve(grid: list[list[bool]], rng: random.Random) -> None:
    """A perfect maze on the odd squares: randomized depth-first search."""
    height, width = len(grid), len(grid[0])
    start = (1, 1)
    grid[1][1] = False
    stack = [start]
    while stack:
        row, column = stack[-1]
        unvisited = [(row + 2 * dr, column + 2 * dc) for dr, dc in _STEPS
                     if 0 < row + 2 * dr < height - 1 and 0 < column + 2 * dc < width - 1
                     and grid[row + 2 * dr][column + 2 * dc]]
        if not unvisited:
            stack.pop()
            continue
        next_row, next_column = rng.choice(unvisited)
        grid[(row + next_row) // 2][(column + next_column) // 2] = False
        grid[next_row][next_column] = False
        stack.append((next_row, next_column))


def _braid(grid: list[list[bool]], rng: random.Random, loops: float) -> None:
    """Open each dead end, with probability ``loops``, into a neighbouring corridor."""
    height, width = len(grid), len(grid[0])
    dead_ends = [square for square in _open_squares(grid) if square[0] % 2 and square[1] % 2
                 and len(_open_neighbours(grid, square)) == 1]
    rng.shuffle(dead_ends)
    for row, column in dead_ends:
        # Draw for every dead end, so the draws do not depend on earlier openings.
        if rng.random() >= loops or len(_open_neighbours(grid, (row, column))) != 1:
            continue
        walls = [(dr, dc) for dr, dc in _STEPS
                 if 0 < row + 2 * dr < height - 1 and 0 < column + 2 * dc < width - 1
                 and grid[row + dr][column + dc] and not grid[row + 2 * dr][column + 2 * dc]]
        if walls:
            dr, dc = rng.choice(walls)
            grid[row + dr][column + dc] = False


def _open_rooms(grid: list[list[bool]], rng: random.Random, rooms: float) -> None:
    """Remove interior pillars (even, even squares) with the walls around them."""
    height, width = len(grid), len(grid[0])
    for row in range(2, height - 2, 2):
        for column in range(2, width - 2, 2):
            if rng.random() < rooms:
                for dr, dc in ((0, 0), *_STEPS):
                    grid[row + dr][column + dc] = False


def _open_squares(grid: list[list[bool]]) -> list[Square]:
    return [(row, column) for row, line in enumerate(grid) for column, wall in enumerate(line) if not wall]


def _open_neighbours(grid: list[list[bool]], square: Square) -> list[Square]:
    row, column = square
    return [(row + dr, column + dc) for dr, dc in _STEPS if not grid[row + dr][column + dc]]


def _distances(grid: list[list[bool]], start: Square) -> dict[Square, int]:
    distances = {start: 0}
    queue = deque([start])
    while queue:
        square = queue.popleft()
        for neighbour in _open_neighbours(grid, square):
            if neighbour not in distances:
                distances[neighbour] = distances[square] + 1
                queue.append(neighbour)
    return distances


def _place(grid: list[list[bool]], rng: random.Random, spec: MazeSpec) -> dict[Square, str]:
    """Pacman, then ghosts far from him, then food and capsules on free squares."""
    squares = _open_squares(grid)
    needed = 1 + spec.ghosts + spec.food + spec.capsules
    if needed > len(squares):
        raise ConfigError(f"{spec.name()}: {needed} things to place on {len(squares)} open squares; "
                          "make the maze larger or ask for fewer")
    pacman = rng.choice(squares)
    from_pacman = _distances(grid, pacman)
    separation = max(MIN_GHOST_DISTANCE, max(from_pacman.values()) // 2)
    far = [square for square in squares if from_pacman[square] >= separation]
    if len(far) < spec.ghosts:
        raise ConfigError(f"{spec.name()}: no room for {spec.ghosts} ghosts {separation} moves from Pacman")
    ghosts = rng.sample(far, spec.ghosts)
    free = [square for square in squares if square != pacman and square not in ghosts]
    placed = rng.sample(free, spec.food + spec.capsules)
    marks = {pacman: "P", **{square: "G" for square in ghosts}}
    marks.update({square: "." for square in placed[:spec.food]})
    marks.update({square: "o" for square in placed[spec.food:]})
    return marks


# -- what a maze looks like, for relating outcomes to shape ---------------

@dataclass(frozen=True)
class MazeFeatures:
    """Shape measures of a layout (any layout, generated or not)."""

    squares: int
    """Open squares."""
    dead_ends: int
    """Open squares with exactly one open neighbour."""
    loops: int
    """Independent cycles of the square graph (edges - squares + 1 when connected)."""
    corridor_length: float
    """Mean length of the corridors: maximal runs of squares with two open neighbours."""
    ghost_to_food: float
    """Mean over ghosts of the maze distance to the nearest food."""
    pacman_to_food: float
    """Maze distance from Pacman's start to the nearest food."""
    food_spread: float
    """Mean maze distance from Pacman's start to the food."""


def maze_features(layout: Layout) -> MazeFeatures:
    """Measure ``layout``: dead ends, loops, corridors and distances."""
    neighbours = [[target for action, target in moves if target != cell] for cell, moves in enumerate(layout.pacman_moves)]
    degrees = [len(cells) for cells in neighbours]
    edges = sum(degrees) // 2
    food = [cell for cell in range(layout.num_cells) if (layout.food >> cell) & 1]
    from_pacman = layout.distances_from(layout.pacman_start)
    ghost_to_food = [min(layout.distances_from(ghost)[cell] for cell in food) for ghost in layout.ghost_starts]
    reachable = [from_pacman[cell] for cell in food if from_pacman[cell] < UNREACHABLE]
    return MazeFeatures(
        squares=layout.num_cells,
        dead_ends=sum(1 for degree in degrees if degree == 1),
        loops=edges - layout.num_cells + 1,
        corridor_length=_mean(_corridor_lengths(neighbours, degrees)),
        ghost_to_food=_mean(ghost_to_food),
        pacman_to_food=float(min(reachable)) if reachable else float("nan"),
        food_spread=_mean(reachable),
    )


def _corridor_lengths(neighbours: list[list[int]], degrees: list[int]) -> list[int]:
    """Sizes of the connected groups of degree-2 squares."""
    seen: set[int] = set()
    lengths = []
    for cell, degree in enumerate(degrees):
        if degree != 2 or cell in seen:
            continue
        seen.add(cell)
        stack, size = [cell], 0
        while stack:
            current = stack.pop()
            size += 1
            for neighbour in neighbours[current]:
                if degrees[neighbour] == 2 and neighbour not in seen:
                    seen.add(neighbour)
                    stack.append(neighbour)
        lengths.append(size)
    return lengths


def _mean(values: list[int] | list[float]) -> float:
    return sum(values) / len(values) if values else 0.0
