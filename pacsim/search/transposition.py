"""A bounded transposition table for depth-limited search.

An entry is keyed by ``(state, remaining)`` where ``remaining`` is the
number of tree levels still to search below the position (``math.inf`` for
a search to terminal positions).  Entries are only reused at exactly the
same remaining depth, never a deeper one: a deeper result is usually better
but different, and a fixed-depth search must return the same value with or
without a table.

An entry also records what kind of number it holds, because a search with
an alpha-beta window may only have proven a bound:

* ``EXACT``  the value itself;
* ``LOWER``  the value is at least this (the node failed high);
* ``UPPER``  the value is at most this (the node failed low).

Every algorithm of :mod:`pacsim.search` computes the same function of
``(state, remaining)`` (the expectiminimax value under the same
``evaluate``), so one table may be shared by searches with different
algorithms, depths and roots -- but only for one game and one evaluation
function.  Use a fresh table (or :meth:`TranspositionTable.clear`) when
either changes.

Memory is bounded with least-recently-used eviction: a hit moves the entry
to the young end, and a store into a full table drops the oldest entry.
LRU keeps the entries of the current and previous iterative-deepening pass,
which are the ones that recur, and costs O(1) per operation with
:class:`collections.OrderedDict`.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import Any

from pacsim.errors import SearchError

EXACT = 0
"""Entry flag: the stored number is the value."""
LOWER = 1
"""Entry flag: the value is at least the stored number."""
UPPER = 2
"""Entry flag: the value is at most the stored number."""


class TranspositionTable:
    """Bounded store of search results keyed by position and remaining depth.

    ``hits`` counts lookups that found an entry, ``misses`` those that did
    not, ``stores`` counts writes and ``evictions`` entries dropped because
    the table was full.  Whether a hit was usable (a bound may not decide
    the current window) is the search's business.
    """

    __slots__ = ("_entries", "evictions", "hits", "max_entries", "misses", "stores")

    def __init__(self, max_entries: int = 100_000):
        if isinstance(max_entries, bool) or not isinstance(max_entries, int) or max_entries < 1:
            raise SearchError(f"TranspositionTable max_entries must be a positive integer, not {max_entries!r}")
        self.max_entries = max_entries
        self.hits = 0
        self.misses = 0
        self.stores = 0
        self.evictions = 0
        self._entries: OrderedDict[tuple[Hashable, Any], tuple[Any, int]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, state: Hashable, remaining: Any) -> tuple[Any, int] | None:
        """``(value, flag)`` stored for ``state`` at exactly ``remaining``
        levels to go, or ``None``."""
        key = (state, remaining)
        entry = self._entries.get(key)
        if entry is None:
            self.misses += 1
            return None
        self.hits += 1
        self._entries.move_to_end(key)
        return entry

    def answer(self, state: Hashable, remaining: Any, alpha: Any, beta: Any) -> Any:
        """The stored value that answers ``state`` searched in the window
        ``[alpha, beta]`` at ``remaining`` levels to go, or None; counted as
        :meth:`get` counts.  An exact entry always answers; a bound when it
        already lies outside the window, meaning what a fresh fail-soft search
        would (so a plain search, whose window is infinite, takes exact entries
        only).  The lookup is written out, not :meth:`get`: it runs at every
        inner node of a search with a table."""
        key = (state, remaining)
        entry = self._entries.get(key)
        if entry is None:
            self.misses += 1
            return None
        self.hits += 1
        self._entries.move_to_end(key)
        stored, flag = entry
        if flag == EXACT or (flag == LOWER and stored > beta) or (flag == UPPER and stored < alpha):
            return stored
        return None

    def put(self, state: Hashable, remaining: Any, value: Any, flag: int) -> None:
        """Record ``value`` (``EXACT``, ``LOWER`` or ``UPPER`` bound) for
        ``state`` at ``remaining`` levels to go, replacing any older entry
        for the same key and evicting the least recently used entry if the
        table is full."""
        entries = self._entries
        key = (state, remaining)
        if key in entries:
            entries.move_to_end(key)
        elif len(entries) >= self.max_entries:
            entries.popitem(last=False)
            self.evictions += 1
        entries[key] = (value, flag)
        self.stores += 1

    def clear(self) -> None:
        """Forget every entry (the counters are kept)."""
        self._entries.clear()

    def __repr__(self) -> str:
        return (
            f"TranspositionTable(max_entries={self.max_entries}, entries={len(self)}, "
            f"hits={self.hits}, misses={self.misses}, stores={self.stores}, evictions={self.evictions})"
        )
