"""The kernel's transposition table: ``pacsim.search.transposition`` over arrays.

The Python table is an ``OrderedDict`` keyed by ``(state, remaining)``
with least-recently-used eviction; node counts depend on which entries it
holds, so this one keeps the very same entries: the key is the maze (a tag
per layout object: states compare their layouts by identity), the whole
state row (every other field of the ``GameState``), the remaining levels
and, for a slippery Pacman's chance node (``Intent``), the action he chose
(-1 for a plain state).  Keys are compared in full, never by hash alone, and the
entries form a doubly linked list from the oldest to the youngest, so a
hit moves an entry to the young end and a store into a full table evicts
the oldest, exactly as ``move_to_end`` and ``popitem(last=False)`` do.

The hash index is open addressing with linear probing over twice as many
slots as entries; an evicted entry leaves it by backward-shift deletion
(no tombstones, so probes stay short however many entries come and go).

The arrays start small and grow (fourfold, up to ``max_entries``) between
two slices of a search: the search pauses on entering a node when fewer
free entries remain than the stores that can come before the next node is
entered (one per level, and the root's).  A table of 200,000 entries
allocated at once cost a search more in fresh memory pages than its work.

Like the searches, these functions are compiled without numba's reference
counting (``_nrt=False``): they allocate nothing, the caller holds every
array, and the atomic counts otherwise took most of a search's time.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pacsim.engine.layout import Layout
from pacsim.fast.jit import njit


def uncounted(inline: bool = False) -> Any:
    """numba's ``njit``, cached, without reference counting (``_nrt=False``:
    see the module docstring); ``inline`` inlines it into its callers."""
    options: dict[str, Any] = {"cache": True, "_nrt": False}
    if inline:
        options["inline"] = "always"
    return njit(**options)


EXACT, LOWER, UPPER = 0, 1, 2
"""Entry flags, as in pacsim.search.transposition."""

# -- slots of ``meta`` ----------------------------------------------------
SIZE, OLDEST, YOUNGEST, HITS, MISSES, STORES, EVICTIONS, CAPACITY, TAG, ALLOCATED = 0, 1, 2, 3, 4, 5, 6, 7, 8, 9
"""``CAPACITY`` is ``max_entries``, ``ALLOCATED`` the entries the arrays
hold now; ``TAG`` is the maze of the search under way (set before each search)."""
META_SLOTS = 10
FIRST_ALLOCATION = 16_384
"""Entries a table's arrays hold at first."""
# -- columns of ``keys``: the key's maze, row width, remaining levels, chosen action, then the row
KEY_TAG, KEY_WIDTH, KEY_REMAINING, KEY_CHOSEN, KEY_ROW = 0, 1, 2, 3, 4
NOBODY = -1
"""End of the oldest-to-youngest list."""
EMPTY = 0
"""An unused hash slot (slots hold entry + 1)."""


@uncounted(inline=True)
def key_hash(tag, row, remaining, chosen):
    """FNV-1a over the key's numbers, then a final mix (int64 wraps around)."""
    value = (np.int64(-3750763034362895579) ^ tag) * np.int64(1099511628211)  # FNV's offset basis as an int64
    for slot in range(row.shape[0]):
        value = (value ^ row[slot]) * np.int64(1099511628211)
    value = (value ^ remaining) * np.int64(1099511628211)
    value = (value ^ (chosen + 1)) * np.int64(1099511628211)
    return value ^ (value >> 29)


@uncounted(inline=True)
def _same_key(keys, entry, tag, row, remaining, chosen):
    width = row.shape[0]
    if (keys[entry, KEY_TAG] != tag or keys[entry, KEY_WIDTH] != width or keys[entry, KEY_REMAINING] != remaining
            or keys[entry, KEY_CHOSEN] != chosen):
        return False
    for slot in range(width):  # noqa: SIM110  (numba compiles no generator into all())
        if keys[entry, KEY_ROW + slot] != row[slot]:
            return False
    return True


@uncounted(inline=True)
def _find(table, row, remaining, chosen, hashed):
    """The entry holding the key, or -1."""
    index, keys, hashes = table[0], table[1], table[2]
    tag = table[7][TAG]
    mask = index.shape[0] - 1
    slot = hashed & mask
    while index[slot] != EMPTY:
        entry = index[slot] - 1
        if hashes[entry] == hashed and _same_key(keys, entry, tag, row, remaining, chosen):
            return entry
        slot = (slot + 1) & mask
    return -1


@uncounted(inline=True)
def _unlink(table, entry):
    older, newer, meta = table[5], table[6], table[7]
    before, after = older[entry], newer[entry]
    if before == NOBODY:
        meta[OLDEST] = after
    else:
        newer[before] = after
    if after == NOBODY:
        meta[YOUNGEST] = before
    else:
        older[after] = before


@uncounted(inline=True)
def _link_youngest(table, entry):
    older, newer, meta = table[5], table[6], table[7]
    youngest = meta[YOUNGEST]
    older[entry] = youngest
    newer[entry] = NOBODY
    if youngest == NOBODY:
        meta[OLDEST] = entry
    else:
        newer[youngest] = entry
    meta[YOUNGEST] = entry


@uncounted(inline=True)
def table_get(table, row, remaining, chosen):
    """``TranspositionTable.get``: the entry of the key (now the youngest),
    or -1; counts a hit or a miss."""
    meta = table[7]
    entry = _find(table, row, remaining, chosen, key_hash(meta[TAG], row, remaining, chosen))
    if entry < 0:
        meta[MISSES] += 1
        return -1
    meta[HITS] += 1
    if meta[YOUNGEST] != entry:
        _unlink(table, entry)
        _link_youngest(table, entry)
    return entry


@uncounted(inline=True)
def table_put(table, row, remaining, chosen, value, flag):
    """``TranspositionTable.put``: store, replacing the key's entry, else
    evicting the oldest entry of a full table."""
    index, keys, hashes, values, flags, meta = table[0], table[1], table[2], table[3], table[4], table[7]
    hashed = key_hash(meta[TAG], row, remaining, chosen)
    entry = _find(table, row, remaining, chosen, hashed)
    if entry >= 0:
        if meta[YOUNGEST] != entry:
            _unlink(table, entry)
            _link_youngest(table, entry)
    else:
        if meta[SIZE] >= meta[CAPACITY]:
            entry = meta[OLDEST]
            _unlink(table, entry)
            _remove_from_index(index, hashes, entry)
            meta[EVICTIONS] += 1
        else:
            entry = meta[SIZE]
            meta[SIZE] += 1
        width = row.shape[0]
        keys[entry, KEY_TAG] = meta[TAG]
        keys[entry, KEY_WIDTH] = width
        keys[entry, KEY_REMAINING] = remaining
        keys[entry, KEY_CHOSEN] = chosen
        for slot in range(width):
            keys[entry, KEY_ROW + slot] = row[slot]
        hashes[entry] = hashed
        mask = index.shape[0] - 1
        slot = hashed & mask
        while index[slot] != EMPTY:
            slot = (slot + 1) & mask
        index[slot] = entry + 1
        _link_youngest(table, entry)
    values[entry] = value
    flags[entry] = flag
    meta[STORES] += 1


@uncounted()
def needs_room(table, levels):
    """Whether the stores that may come before the next node is entered
    (at most one per level and the root's) could overflow the arrays."""
    meta = table[7]
    return meta[SIZE] + levels + 2 > meta[ALLOCATED] and meta[ALLOCATED] < meta[CAPACITY]


@uncounted()
def _rebuild_index(index, hashes, size):
    mask = index.shape[0] - 1
    for entry in range(size):
        slot = hashes[entry] & mask
        while index[slot] != EMPTY:
            slot = (slot + 1) & mask
        index[slot] = entry + 1


@uncounted()
def _remove_from_index(index, hashes, entry):
    """Backward-shift deletion: later entries of the probe run move up so
    that every entry stays reachable from its home slot."""
    mask = index.shape[0] - 1
    hole = hashes[entry] & mask
    while index[hole] != entry + 1:
        hole = (hole + 1) & mask
    slot = hole
    while True:
        slot = (slot + 1) & mask
        if index[slot] == EMPTY:
            break
        home = hashes[index[slot] - 1] & mask
        # Move it into the hole unless its home lies cyclically in (hole, slot].
        if (hole <= slot and (home <= hole or home > slot)) or (hole > slot and home <= hole and home > slot):
            index[hole] = index[slot]
            hole = slot
    index[hole] = EMPTY


class KernelTable:
    """A transposition table the kernel fills, with the semantics, the
    capacity and the counters (``hits``, ``misses``, ``stores``,
    ``evictions``) of :class:`pacsim.search.TranspositionTable`.

    Memory: the key arrays are reserved for ``max_entries`` but only the
    pages of entries stored are touched; the key rows widen (entries
    copied) when a maze with longer state rows comes.
    """

    def __init__(self, max_entries: int = 100_000) -> None:
        self.max_entries = max_entries
        self.arrays: tuple[np.ndarray, ...] = _arrays(max_entries, 0)
        self._tags: dict[int, tuple[int, Layout]] = {}
        """id(layout) -> (its tag, the layout, held so that its id stays its own)."""

    def bound_to(self, layout: Layout, width: int, levels: int) -> tuple[np.ndarray, ...]:
        """The arrays, ready for a search ``levels`` deep of ``layout`` with
        rows of ``width`` slots."""
        tag, _ = self._tags.setdefault(id(layout), (len(self._tags), layout))
        keys = self.arrays[1]
        if keys.shape[1] < KEY_ROW + width:
            wider = np.empty((keys.shape[0], KEY_ROW + width), np.int64)
            used = len(self)
            wider[:used, :keys.shape[1]] = keys[:used]
            self.arrays = (self.arrays[0], wider, *self.arrays[2:])
        self.arrays[7][TAG] = tag
        return self.with_room(levels)

    def with_room(self, levels: int) -> tuple[np.ndarray, ...]:
        """The arrays, grown if a search ``levels`` deep might fill them
        before it next pauses (see the module docstring)."""
        meta = self.arrays[7]
        while needs_room(self.arrays, levels):
            self.arrays = _grown(self.arrays, min(int(meta[CAPACITY]), 4 * int(meta[ALLOCATED])))
            meta = self.arrays[7]
        return self.arrays

    def clear(self) -> None:
        """Forget every entry (the counters are kept), as the Python table
        does; the arrays stay, for the next game's entries."""
        self.arrays[0][:] = EMPTY
        meta = self.arrays[7]
        meta[SIZE] = 0
        meta[OLDEST] = meta[YOUNGEST] = NOBODY
        self._tags.clear()

    def __len__(self) -> int:
        return int(self.arrays[7][SIZE])

    @property
    def hits(self) -> int:
        return int(self.arrays[7][HITS])

    @property
    def misses(self) -> int:
        return int(self.arrays[7][MISSES])

    @property
    def stores(self) -> int:
        return int(self.arrays[7][STORES])

    @property
    def evictions(self) -> int:
        return int(self.arrays[7][EVICTIONS])


def _grown(arrays: tuple[np.ndarray, ...], allocated: int) -> tuple[np.ndarray, ...]:
    """The table's entries in arrays of ``allocated`` entries (same entry
    numbers, so the LRU links stay as they are; the index rebuilt)."""
    _, keys, hashes, values, flags, older, newer, meta = arrays  # the index is rebuilt
    grown = _arrays(int(meta[CAPACITY]), keys.shape[1] - KEY_ROW, allocated)
    size = int(meta[SIZE])
    for old, new in zip((keys, hashes, values, flags, older, newer), grown[1:7]):
        new[:size] = old[:size]
    grown[7][:] = meta
    grown[7][ALLOCATED] = allocated
    _rebuild_index(grown[0], grown[2], size)
    return grown


def empty_arrays() -> tuple[np.ndarray, ...]:
    """The arrays of a table of no entries (a search without a table)."""
    return _arrays(0, 0)


def _arrays(capacity: int, width: int, allocated: int | None = None) -> tuple[np.ndarray, ...]:
    """``(index, keys, hashes, values, flags, older, newer, meta)`` for a
    table of ``capacity`` entries holding ``allocated`` (at first
    ``FIRST_ALLOCATION``) now."""
    entries = min(capacity, FIRST_ALLOCATION) if allocated is None else allocated
    slots = 16
    while slots < 2 * entries:
        slots *= 2
    meta = np.zeros(META_SLOTS, np.int64)
    meta[OLDEST] = meta[YOUNGEST] = NOBODY
    meta[CAPACITY] = capacity
    meta[ALLOCATED] = entries
    entries = max(entries, 1)
    # int32 links and slots: a table of 10 million entries needs no more.
    return (np.zeros(slots, np.int32), np.empty((entries, KEY_ROW + width), np.int64), np.empty(entries, np.int64),
            np.empty(entries, np.float64), np.empty(entries, np.int8), np.empty(entries, np.int32),
            np.empty(entries, np.int32), meta)
