"""Where a layout name leads: the one rule that ``play``, experiment files,
``analyze``, ``probcut`` and ``layouts --check`` share.

A name is tried, in this order:

1. ``generated:w=9,h=7,...,seed=3``: a generated maze (one seed);
2. a path to a file (``mazes/a.lay``, ``a.lay``, ``/tmp/x``);
3. ``./NAME.lay``, then ``./layouts/NAME.lay`` (a CS188 course folder keeps
   its mazes there), then ``DIR/layouts/NAME.lay`` for each course folder
   given (``--cs188 DIR``);
4. the layouts pacsim ships.

So inside a course folder ``-l mediumClassic`` plays the course's maze, never a
shipped one of the same name; when a local file wins over a shipped layout,
:attr:`FoundLayout.note` says so, for the caller to print once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pacsim.engine.layout import GENERATED_PREFIX, Layout, parse_layout, read_layout, shipped_layouts
from pacsim.errors import LayoutError, did_you_mean

COURSE_LAYOUTS = "layouts"
"""The folder of a CS188 course folder that holds its ``.lay`` files."""

RENAMED = {"mediumClassic": "wideClassic", "tinyMaze": "tinyGhostMaze"}
"""Shipped layouts renamed because CS188 has a different maze of the old name."""


@dataclass(frozen=True)
class FoundLayout:
    layout: Layout
    note: str | None = None
    """One line when a local file won over a shipped layout of the same name."""


def find_layout(name: str | Path, course_folders: Sequence[Path] = ()) -> FoundLayout:
    """The layout ``name`` leads to (see the module docstring for the order).

    Raises :class:`LayoutError` for a name that leads nowhere, naming the
    shipped layouts, and for a broken file."""
    text = str(name)
    if text.startswith(GENERATED_PREFIX):
        return FoundLayout(_generated(text))
    if _is_path(text):
        return FoundLayout(read_layout(text))
    stem = text.removesuffix(".lay")
    shipped = shipped_layouts()
    local = local_layout(stem, course_folders)
    if local is not None:
        # In a checkout, ./layouts/ is the shipped folder itself: nothing to say.
        shadows = stem in shipped and local.resolve() != shipped[stem].resolve()
        note = f"layout {stem}: using {local}, not pacsim's shipped {stem}" if shadows else None
        return FoundLayout(read_layout(local), note)
    if stem in shipped:
        return FoundLayout(read_layout(shipped[stem]))
    raise LayoutError(_unknown(stem, shipped, course_folders), text)


def load_layout(name: str | Path, course_folders: Sequence[Path] = ()) -> Layout:
    """The layout ``name`` leads to, without the note (see :func:`find_layout`)."""
    return find_layout(name, course_folders).layout


def _is_path(text: str) -> bool:
    """A name written as a path, or a file that exists as written (``maze.txt``)."""
    return "/" in text or "\\" in text or Path(text).is_file()


def local_layout(stem: str, course_folders: Sequence[Path] = ()) -> Path | None:
    """The user's own file for the name ``stem`` (steps 3 of the module
    docstring), or None."""
    here = Path.cwd()
    candidates = [here / f"{stem}.lay", here / COURSE_LAYOUTS / f"{stem}.lay"]
    candidates += [Path(folder) / COURSE_LAYOUTS / f"{stem}.lay" for folder in course_folders]
    return next((candidate for candidate in candidates if candidate.is_file()), None)


def _generated(text: str) -> Layout:
    from pacsim.engine.generate import generate_layout, maze_count, parse_maze_specs  # the generator: for a generated maze only

    count = maze_count(text)  # counted, not listed: seed=0-99999999999 would not fit in memory
    if count != 1:
        raise LayoutError(f"a seed range names {count:,} mazes; give one seed (seed=N)", text)
    spec = parse_maze_specs(text)[0]
    return parse_layout(generate_layout(spec), name=spec.name(), source=spec.name())


def _unknown(stem: str, shipped: dict[str, Path], course_folders: Sequence[Path]) -> str:
    where = ", ".join(["./", f"./{COURSE_LAYOUTS}/", *(f"{folder}/{COURSE_LAYOUTS}/" for folder in course_folders)])
    message = f"no layout named {stem!r} (no {stem}.lay in {where}; shipped layouts: {', '.join(shipped) or 'none'})"
    if stem in RENAMED:
        return message + f"; pacsim's own {stem} is now called {RENAMED[stem]} (CS188's {stem} is a different maze)"
    return message + did_you_mean(stem, shipped)
