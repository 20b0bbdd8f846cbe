"""Searches' results remembered by position: the adversarial ghost's
chase search, and a search Pacman's whole-game searches.

The adversarial ghost's distribution is its chase search's root values
(alpha-beta on the chase game, ``levels`` deep) mixed by its ``p``
(:func:`pacsim.fast.policies.searched_probabilities`).  Those values are a
pure function of the maze, the levels and what the chase search reads of
the position.  A Pacman that models the ghost (``model=adversarial``) runs
that search at every chance node of every search, and the ghost itself
once a move, and the same positions come back again and again: the
transpositions of one search, the chance nodes two levels down that the
next move's search meets at level one, and every position of a game that
cycles to the move cap.  :class:`PositionMemo` keeps the values of the
positions searched, so each is searched once.

**Exact, not approximate.**  The key is the whole state row, compared
slot for slot (a hash only picks the slot), plus the levels; two slots are
left out because the chase search never reads them, so positions that
differ only there have the same values:

* the score (``SCORE``): the chase game's leaf values are the distance
  term and, at a finished game, caught or not (``kernel.utility`` and
  ``kernel.evaluate`` with ``EVAL_CHASE``); its moves do not depend on it;
* Pacman's last direction: Pacman's moves ignore it (move table 0), and
  only the ambusher policy reads it, which no chase search runs (its nodes
  are MIN and MAX, no chance node).

Leaving the score out is what lets a game that cycles to the move cap hit:
its positions repeat with a lower score each time round.

The maze is fixed per memo (one per maze, as the kernel's tables: every
start of Pacman in one maze shares it, :func:`~pacsim.fast.maze_arrays.same_maze`,
:func:`chase_memo`), and the chasing ghost is the state's ``TURN``, in
the key.  The memo is direct-mapped and bounded: ``MEMO_ENTRIES`` slots, a
new position overwrites the one in its slot.  It lives as long as its
layout, across searches and games in one process: exact at any scope,
because what it stores does not depend on which search asked.

``PACSIM_CHASE_MEMO=0`` turns it off (a memo of no slots), for the
benchmark and the tests that hold memo on and off equal.

**A search Pacman's memo** (:func:`pacman_memo`) does the same for his
searches in whole kernel games: the position, score included (his values
read it), gives his search's values and statistics, so a position that
another game of this process searched already (with the same settings) is
not searched again.  With random starts, the games from one start cell
share their first moves, and their lines part slowly against the
adversarial ghost: in ``pacsim reproduce`` 27,524 of the 50,974 positions
where expectimax searches against it are distinct (docs/performance.md).
One memo per maze, width and settings; exact for the same reason, so a
game does not depend on which games its process played before it.
``PACSIM_PACMAN_MEMO=0`` turns it off.
"""

from __future__ import annotations

import os
import weakref

import numpy as np

from pacsim.engine.layout import Layout
from pacsim.fast import kernel
from pacsim.fast.bundles import PositionMemo
from pacsim.fast.cache import compiled_functions, keep_fresh
from pacsim.fast.kernel import ROOT_VALUE, SCORE, directions_slot
from pacsim.fast.maze_arrays import same_maze
from pacsim.fast.transposition import uncounted

MEMO_ENTRIES = 1 << 14
"""Slots of a layout's memo (a power of two): about 3 MB with one ghost."""
PACMAN_MEMO_ENTRIES = 1 << 15
"""Slots of a search Pacman's memo: about 7 MB with one ghost, in pages touched only as used."""
KEY_LEVELS = 0
"""Column 0 of a key holds the search's levels; the masked row follows."""
EMPTY = -1
"""``keys[slot, KEY_LEVELS]`` of a slot never written."""
HITS, SEARCHES = 0, 1
"""Slots of ``counts``."""
STAT_COLUMNS = BEST_MOVE_COLUMN = kernel.DEEPEST + 1
"""``stats`` holds the statistics up to ``DEEPEST``, then the best move."""
SWITCH = "PACSIM_CHASE_MEMO"
PACMAN_SWITCH = "PACSIM_PACMAN_MEMO"


@uncounted(inline=True)
def _masked(memo, state, slot, num_ghosts):
    """``state[slot]``, or 0 for a slot the chase search never reads (a ``masked`` memo's)."""
    if memo.masked and (slot == SCORE or slot == directions_slot(num_ghosts)):
        return 0
    return state[slot]


@uncounted(inline=True)
def memo_slot(memo, state, levels, num_ghosts):
    """The slot that holds (or would hold) ``state``'s values; -1 for a memo of no slots."""
    slots = memo.keys.shape[0]
    if slots == 0:
        return -1
    value = (np.int64(-3750763034362895579) ^ levels) * np.int64(1099511628211)  # FNV-1a
    for slot in range(state.shape[0]):
        value = (value ^ _masked(memo, state, slot, num_ghosts)) * np.int64(1099511628211)
    value ^= value >> 29
    return value & (slots - 1)


@uncounted(inline=True)
def recall(memo, slot, state, levels, num_ghosts, values):
    """Copy the values remembered in ``slot`` into ``values`` if its key is
    ``state``'s (compared in full): True then, else False (a search to run)."""
    if slot < 0:
        return False
    keys = memo.keys
    if keys[slot, KEY_LEVELS] != levels:
        return False
    for column in range(state.shape[0]):
        if keys[slot, 1 + column] != _masked(memo, state, column, num_ghosts):
            return False
    for column in range(ROOT_VALUE + 1):
        values[column] = memo.values[slot, column]
    memo.counts[HITS] += 1
    return True


@uncounted(inline=True)
def remember(memo, slot, state, levels, num_ghosts, values):
    """Keep ``values``, the chase search's from ``state``, in ``slot``
    (whatever it held: the memo is bounded by its slots)."""
    memo.counts[SEARCHES] += 1
    if slot < 0:
        return
    memo.keys[slot, KEY_LEVELS] = levels
    for column in range(state.shape[0]):
        memo.keys[slot, 1 + column] = _masked(memo, state, column, num_ghosts)
    for column in range(ROOT_VALUE + 1):
        memo.values[slot, column] = values[column]


def empty_memo(width: int, slots: int, masked: bool = True) -> PositionMemo:
    """A memo of ``slots`` slots (0: off) for state rows of ``width`` slots."""
    keys = np.zeros((slots, 1 + width), np.int64)
    keys[:, KEY_LEVELS] = EMPTY
    return PositionMemo(keys, np.zeros((slots, ROOT_VALUE + 1), np.float64),
                        np.zeros((slots if not masked else 0, STAT_COLUMNS + 1), np.int64), np.zeros(2, np.int64), masked)


@uncounted(inline=True)
def recall_stats(memo, slot, stats):
    """The statistics of the search remembered in ``slot`` (after a
    :func:`recall` that found it) into ``stats``."""
    for column in range(STAT_COLUMNS):
        stats[column] = memo.stats[slot, column]
    stats[kernel.BEST_MOVE] = memo.stats[slot, BEST_MOVE_COLUMN]


@uncounted(inline=True)
def remember_stats(memo, slot, stats):
    """Keep a finished search's ``stats`` in ``slot`` (with :func:`remember`)."""
    if slot < 0:
        return
    for column in range(STAT_COLUMNS):
        memo.stats[slot, column] = stats[column]
    memo.stats[slot, BEST_MOVE_COLUMN] = stats[kernel.BEST_MOVE]


_memos: weakref.WeakKeyDictionary[Layout, dict[int, PositionMemo]] = weakref.WeakKeyDictionary()


def memo_enabled() -> bool:
    """Whether chase searches remember their values (``PACSIM_CHASE_MEMO`` not ``0``)."""
    return os.environ.get(SWITCH, "1") != "0"


def chase_memo(layout: Layout, width: int) -> PositionMemo:
    """The memo of chase searches on ``layout`` over state rows of ``width``
    slots (one per number of ghosts), made once; a memo of no slots when off."""
    if not memo_enabled():
        return empty_memo(width, 0)
    by_width = _memos.get(layout)
    if by_width is None:  # one memo a maze: every start of Pacman in it shares it (its values are the same)
        by_width = _memos[layout] = _memos.setdefault(same_maze(layout), {})
    memo = by_width.get(width)
    if memo is None:
        memo = by_width[width] = empty_memo(width, MEMO_ENTRIES)
    return memo


_pacman_memos: weakref.WeakKeyDictionary[Layout, dict[tuple[object, ...], PositionMemo]] = weakref.WeakKeyDictionary()


def pacman_memo(layout: Layout, width: int, settings: tuple[object, ...]) -> PositionMemo:
    """The memo of a search Pacman's searches on ``layout`` over rows of
    ``width`` slots, for one set of ``settings`` (everything his search
    reads besides the position); a memo of no slots when off."""
    if os.environ.get(PACMAN_SWITCH, "1") == "0":
        return empty_memo(width, 0, masked=False)
    by_settings = _pacman_memos.get(layout)
    if by_settings is None:
        by_settings = _pacman_memos[layout] = _pacman_memos.setdefault(same_maze(layout), {})
    key = (width, *settings)
    memo = by_settings.get(key)
    if memo is None:
        memo = by_settings[key] = empty_memo(width, PACMAN_MEMO_ENTRIES, masked=False)
    return memo


def forget_memos() -> None:
    """Empty every chase and Pacman memo of this process (tests and the bench start from none)."""
    _memos.clear()
    _pacman_memos.clear()


def pacman_memo_hits() -> int:
    """Positions the Pacman memos of this process have answered, so far."""
    return sum(int(memo.counts[HITS]) for by_settings in list(_pacman_memos.values()) for memo in by_settings.values())


def memo_counts() -> tuple[int, int]:
    """Hits and searches of every memo of this process, for the benchmark."""
    hits = searches = 0
    for by_width in list(_memos.values()):
        for memo in by_width.values():
            hits += int(memo.counts[HITS])
            searches += int(memo.counts[SEARCHES])
    return hits, searches


keep_fresh("memo", lambda: compiled_functions(__name__, globals()), kernel.SOURCES)
