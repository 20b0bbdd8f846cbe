"""Opening books: the start cells where the Pacmen under study part ways.

Random starts dilute a comparison of two Pacmen with positions where they
play alike.  Engine-testing tools answer this with an opening book: a fixed,
shipped list of positions, each played by every contestant.  Here the book
holds the start cells (at least ``start_distance`` steps from every ghost)
from which the Pacmen's games against the ghost differ within their first
``moves`` Pacman moves (``moves = 1``: they disagree at the root), found by a
seeded screen of every such cell.  The screen's numbers (cells screened and
kept, the Pacmen, the ghost, the seed) travel with the book, so a report can
disclose the selection.  ``starts = "decisions"`` plays the book's cells in
turn (game i starts on cell i mod the book's size), so every start is played
equally often by every Pacman against every ghost.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from pacsim.agents.registry import make_ghost, make_pacman
from pacsim.agents.whole_game import play_in_kernel
from pacsim.engine import Layout, play_game
from pacsim.engine.starts import start_cells, with_pacman_start
from pacsim.errors import ConfigError
from pacsim.files import FileRefused, read_bounded, write_atomically

BOOK_FORMAT = "pacsim-opening-book-1"
MAX_BOOK_BYTES = 1 << 20


@dataclass(frozen=True)
class OpeningBook:
    """The kept start cells of one maze, and how they were screened."""

    layout: str
    layout_sha256: str
    """The maze text's hash: a book screened on another version of the maze is refused."""
    num_ghosts: int
    cells: tuple[int, ...]
    screened: int
    """Candidate cells screened (the book keeps ``len(cells)`` of them)."""
    pacmen: tuple[str, ...]
    ghost: str
    moves: int
    """A cell is kept when the Pacmen's first ``moves`` moves differ."""
    start_distance: int
    seed: int

    def disclosure(self) -> str:
        """The selection in one line, for reports."""
        return (f"{len(self.cells)} of {self.screened} start cells ({self.start_distance}+ steps from the ghost) "
                f"where {' and '.join(self.pacmen)} part ways within {self.moves} move"
                f"{'' if self.moves == 1 else 's'} against the {self.ghost} ghost (screen seed {self.seed})")


def layout_hash(layout: Layout) -> str:
    return hashlib.sha256(layout.text.encode("utf-8")).hexdigest()


def screen(layout: Layout, pacmen: Sequence[str], ghost: str, num_ghosts: int = 1, start_distance: int = 4,
           moves: int = 1, seed: int = 0) -> OpeningBook:
    """Every candidate start cell, each Pacman playing its first ``moves``
    moves against ``num_ghosts`` ghosts of kind ``ghost`` with the same
    ``seed``; the cells where any two Pacmen's moves differ are kept."""
    candidates = start_cells(layout, num_ghosts, start_distance)
    kept = [cell for cell in candidates
            if len({_opening(with_pacman_start(layout, cell), pacman, ghost, num_ghosts, moves, seed)
                    for pacman in pacmen}) > 1]
    return OpeningBook(layout=layout.name, layout_sha256=layout_hash(layout), num_ghosts=num_ghosts,
                       cells=tuple(kept), screened=len(candidates), pacmen=tuple(pacmen), ghost=ghost, moves=moves,
                       start_distance=start_distance, seed=seed)


def _opening(layout: Layout, pacman: str, ghost: str, num_ghosts: int, moves: int, seed: int) -> tuple[str, ...]:
    """Pacman's first ``moves`` moves (fewer if the game ends sooner)."""
    agents = [make_pacman(pacman)] + [make_ghost(ghost) for _ in range(num_ghosts)]
    record = play_in_kernel(layout, agents, seed, moves) or play_game(layout, agents, seed=seed, max_moves=moves)
    return tuple(record.actions[::num_ghosts + 1])


def write_book(book: OpeningBook, path: str | Path) -> None:
    """Write atomically (:func:`~pacsim.files.write_atomically`): an interrupted write leaves the previous book."""
    body = {"format": BOOK_FORMAT, **asdict(book)}
    write_atomically(path, json.dumps(body, indent=1) + "\n", "the opening book")


def read_book(path: str | Path) -> OpeningBook:
    """The book at ``path``; a :class:`ConfigError` naming it if it is not one."""
    try:
        body = json.loads(read_bounded(Path(path), MAX_BOOK_BYTES).decode("utf-8"))
    except FileRefused as error:
        raise ConfigError(f"opening book {path}: {error}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ConfigError(f"opening book {path}: not JSON ({error})") from None
    if not isinstance(body, dict) or body.pop("format", None) != BOOK_FORMAT:
        raise ConfigError(f"opening book {path}: not a {BOOK_FORMAT} file")
    try:
        book = OpeningBook(**body)
        return OpeningBook(**{**asdict(book), "cells": tuple(int(cell) for cell in book.cells),
                              "pacmen": tuple(str(name) for name in book.pacmen)})
    except (TypeError, ValueError) as error:
        raise ConfigError(f"opening book {path}: {error}") from None


def check_book(book: OpeningBook, layout: Layout, num_ghosts: int, where: str) -> None:
    """The book was screened on this maze (same text) and ghost count, and has cells."""
    if book.layout_sha256 != layout_hash(layout) or book.num_ghosts != num_ghosts:
        raise ConfigError(f"{where}: the opening book was screened on {book.layout} with {book.num_ghosts} ghost(s), "
                          f"not on this {layout.name} with {num_ghosts}")
    if not book.cells:
        raise ConfigError(f"{where}: the opening book has no start cells")
    open_cells = set(start_cells(layout, num_ghosts, 1))
    stray = [cell for cell in book.cells if cell not in open_cells]
    if stray:
        raise ConfigError(f"{where}: start cell {stray[0]} of the opening book is not an empty cell away from the ghosts")
