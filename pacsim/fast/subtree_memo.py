"""The plain search's subtrees, remembered within one search: exact, counts and all.

A plain search (minimax, expectimax, expectiminimax: no pruning) meets the
same position at the same remaining depth along different lines of play:
Pacman stops and then steps, or steps and then stops; goes left and right
or right and left.  The value of a node, and the nodes its search
generates and evaluates below it, are a pure function of the position,
the levels left to search and, for a slippery Pacman's chance node, the
action he chose: the search reads nothing else (no window: it prunes
nothing).  So the first time a node is searched, its value and the
statistics of its subtree are kept; the next time, they are added in and
its subtree is not searched again.  Every number the search reports is
the same as without the memo, bit for bit: the values (the very float
that was computed the first time), the move, and the node counts, which
add the subtree's counts as if it had been searched (``tests/test_subtree_memo.py``
holds memo on and off equal).  Only the time changes.

On ``optimismHalls`` a depth-4 search (8 levels) from the start generates
23,285 nodes, and 6,897 of them are distinct (position, levels left):
the rest are transpositions (docs/performance.md has the figures of
``pacsim reproduce``).

**Scope: one search.**  A position seen at one move is never seen again
at the same depth with the same score (the score falls by one a move and
rises only by eating, which changes the food), so remembering across
searches would find nothing; each search starts a new generation, and a
slot stamped with an older one is empty.  The memo is direct-mapped and
bounded (a new entry overwrites its slot), keyed by the whole row,
compared slot for slot (the hash only picks the slot).

Leaves are not remembered: evaluating one costs about what a lookup costs.

``PACSIM_SUBTREE_MEMO=0`` turns it off (a memo of no slots), for the
benchmark and the tests that hold memo on and off equal.
"""

from __future__ import annotations

import os
import threading

import numpy as np

from pacsim.fast.bundles import SubtreeMemo
from pacsim.fast.jit import njit

SLOTS = 1 << 14
"""Slots of a search's memo (a power of two).  A depth-4 search of
``optimismHalls`` stores about 3,800 nodes."""
SMALLEST_SUBTREE = 1
"""Levels a node must have below it to be remembered: every node but the
leaves (with 2, a depth-4 search of ``optimismHalls`` took a tenth longer; with 3, a fifth)."""
SWITCH = "PACSIM_SUBTREE_MEMO"

# -- columns of ``keys``: the generation stamp, the levels left, the chosen action, then the row
STAMP, REMAINING, CHOSEN, ROW = 0, 1, 2, 3
# -- columns of ``counts``: what the subtree added to the search's statistics
SUBTREE_GENERATED, SUBTREE_EVALUATED, SUBTREE_DEPTH = 0, 1, 2
"""``SUBTREE_DEPTH``: the deepest level reached below the node, counted from the node."""
COUNT_COLUMNS = 3
GENERATION, HITS, STORES = 0, 1, 2
"""Slots of ``meta``: the search under way (stamps of other searches are stale), and the benchmark's counts."""
META_SLOTS = 3


def memo_enabled() -> bool:
    """Whether plain searches remember their subtrees (``PACSIM_SUBTREE_MEMO`` not ``0``)."""
    return os.environ.get(SWITCH, "1") != "0"


def empty_subtree_memo(width: int, slots: int | None = None) -> SubtreeMemo:
    """A memo for state rows of ``width`` slots: :data:`SLOTS` slots, or
    ``slots`` (0: off, as when ``PACSIM_SUBTREE_MEMO=0``), at generation 1."""
    if slots is None:
        slots = SLOTS if memo_enabled() else 0
    meta = np.zeros(META_SLOTS, np.int64)
    meta[GENERATION] = 1
    # Stamps start at 0, an old generation: np.zeros costs no page until a slot is written.
    return SubtreeMemo(np.zeros((slots, ROW + width), np.int64), np.zeros(slots, np.float64),
                       np.zeros((slots, COUNT_COLUMNS), np.int64), meta)


_by_thread = threading.local()


def subtree_memo(width: int) -> SubtreeMemo:
    """This thread's memo for rows of ``width`` slots, emptied for a new
    search: made once, because a fresh one costs a search its memory pages
    (two searches at once in one thread cannot happen; in two threads they
    would forget each other's entries, or read them under other settings)."""
    if not memo_enabled():
        return empty_subtree_memo(width, 0)
    if not hasattr(_by_thread, "memos"):
        _by_thread.memos = {}
    memos: dict[int, SubtreeMemo] = _by_thread.memos
    memo = memos.get(width)
    if memo is None:
        memo = memos[width] = empty_subtree_memo(width)
    memo.meta[GENERATION] += 1  # new_generation, without a compiled call
    return memo


def forget_this_threads_memos() -> None:
    """Drop this thread's memos (tests start from none; the next search makes a new one)."""
    _by_thread.__dict__.pop("memos", None)


@njit(cache=True, inline="always")
def new_generation(memo):
    """Forget every entry (a new search starts): O(1), by the stamp."""
    memo.meta[GENERATION] += 1


@njit(cache=True, inline="always")
def subtree_slot(memo, state, remaining, chosen):
    """The slot of (``state``, ``remaining``, ``chosen``); -1 when the memo
    is off or the subtree too small to remember."""
    slots = memo.keys.shape[0]
    if slots == 0 or remaining < SMALLEST_SUBTREE:
        return -1
    value = (np.int64(-3750763034362895579) ^ remaining) * np.int64(1099511628211)  # FNV-1a
    value = (value ^ chosen) * np.int64(1099511628211)
    for slot in range(state.shape[0]):
        value = (value ^ state[slot]) * np.int64(1099511628211)
    value ^= value >> 29
    return value & (slots - 1)


@njit(cache=True, inline="always")
def holds(memo, slot, state, remaining, chosen):
    """Whether ``slot`` holds (``state``, ``remaining``, ``chosen``) of this search."""
    keys = memo.keys
    if keys[slot, STAMP] != memo.meta[GENERATION] or keys[slot, REMAINING] != remaining:
        return False
    if keys[slot, CHOSEN] != chosen:
        return False
    for column in range(state.shape[0]):
        if keys[slot, ROW + column] != state[column]:
            return False
    memo.meta[HITS] += 1
    return True


@njit(cache=True, inline="always")
def keep(memo, slot, state, remaining, chosen, value, generated, evaluated, depth):
    """Remember a searched node's ``value`` and its subtree's counts in ``slot``."""
    keys = memo.keys
    keys[slot, STAMP] = memo.meta[GENERATION]
    keys[slot, REMAINING] = remaining
    keys[slot, CHOSEN] = chosen
    for column in range(state.shape[0]):
        keys[slot, ROW + column] = state[column]
    memo.values[slot] = value
    memo.counts[slot, SUBTREE_GENERATED] = generated
    memo.counts[slot, SUBTREE_EVALUATED] = evaluated
    memo.counts[slot, SUBTREE_DEPTH] = depth
    memo.meta[STORES] += 1
