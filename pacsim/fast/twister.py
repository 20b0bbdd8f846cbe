"""Python's ``random.Random`` in the kernel: the same MT19937 stream.

A kernel search that draws random numbers (MCTS: its untried moves, chance
outcomes and rollouts) must draw exactly the numbers the Python search
draws from its ``random.Random`` for its visits and values to be equal.
This module is CPython's generator (``Modules/_randommodule.c``) and the
two ``random.py`` methods MCTS uses, operation for operation:

* :func:`next_word` is ``genrand_uint32``: the 624-word state regenerated
  every 624 draws, then tempered;
* :func:`next_float` is ``random()``: 53 bits from two words;
* :func:`below` is ``randrange(n)`` (``_randbelow_with_getrandbits``):
  ``getrandbits(n.bit_length())`` drawn again until it is below ``n``.

The state is an int64 array of 625 slots (the 624 words, then the position
in them), exported from a ``random.Random`` by :func:`state_of` and put
back by :func:`restore`, so a Python generator goes on where the kernel
stopped.  Words are held in int64 slots and masked to 32 bits, so no
unsigned arithmetic is needed.
"""

from __future__ import annotations

import random

import numpy as np
from numba import njit

WORDS = 624
"""MT19937's N: the words of the state."""
SHIFT = 397
"""MT19937's M."""
POSITION = WORDS
"""Slot of the position of the next word to temper."""
MATRIX_A = 0x9908B0DF
UPPER_MASK = 0x80000000
LOWER_MASK = 0x7FFFFFFF
WORD_MASK = 0xFFFFFFFF


@njit(cache=True)
def _regenerate(state):
    """The next 624 words (CPython's loop, in three parts)."""
    for index in range(WORDS):
        following = state[index + 1] if index + 1 < WORDS else state[0]
        mixed = (state[index] & UPPER_MASK) | (following & LOWER_MASK)
        source = state[(index + SHIFT) % WORDS]
        state[index] = source ^ (mixed >> 1) ^ (MATRIX_A if mixed & 1 else 0)
    state[POSITION] = 0


@njit(cache=True, inline="always")
def next_word(state):
    """``genrand_uint32``: the next 32-bit word."""
    if state[POSITION] >= WORDS:
        _regenerate(state)
    word = state[state[POSITION]]
    state[POSITION] += 1
    word ^= word >> 11
    word ^= (word << 7) & 0x9D2C5680
    word ^= (word << 15) & 0xEFC60000
    word ^= word >> 18
    return word & WORD_MASK


@njit(cache=True, inline="always")
def next_float(state):
    """``random()``: a float in [0, 1) from 27 + 26 bits of two words."""
    high = next_word(state) >> 5
    low = next_word(state) >> 6
    return (high * 67108864.0 + low) * (1.0 / 9007199254740992.0)


@njit(cache=True, inline="always")
def below(state, count):
    """``randrange(count)`` for ``0 < count < 2**32``: the top
    ``count.bit_length()`` bits of a word, drawn again while not below ``count``."""
    bits = 0
    while (count >> bits) != 0:
        bits += 1
    drawn = next_word(state) >> (32 - bits)
    while drawn >= count:
        drawn = next_word(state) >> (32 - bits)
    return drawn


def state_of(rng: random.Random) -> np.ndarray:
    """The generator's state as the kernel's array (``rng`` is not changed)."""
    _, words, _ = rng.getstate()
    return np.array(words, np.int64)


def restore(rng: random.Random, state: np.ndarray) -> None:
    """Put the kernel's state back into ``rng``: it goes on where the kernel
    stopped (a pending ``gauss`` value is dropped, as any draw would)."""
    version, _, _ = rng.getstate()
    rng.setstate((version, tuple(int(value) for value in state), None))
