"""Python's ``random.Random`` in numba: the same Mersenne Twister (MT19937,
as CPython's ``_randommodule.c``), so a stream seeded in Python and carried
into compiled code draws the same numbers, bit for bit.

A stream is one int64 row: the generator's 624 state words and the
position of the next word (:func:`stream_row` takes it from a
``random.Random``; ``getstate()`` holds exactly these 625 numbers).
:func:`random_float` is ``Random.random()`` and :func:`random_below` is
``Random._randbelow(n)`` (what ``choice`` and ``randrange`` draw with).
"""

from __future__ import annotations

import random

import numpy as np

from pacsim.fast.jit import njit

MT_WORDS = 624
MT_POSITION = 624
"""Slot of a stream row holding the position of the next word (624: twist first)."""
MT_SHIFT = 397
UPPER_MASK = 0x80000000
LOWER_MASK = 0x7FFFFFFF
MATRIX_A = 0x9908B0DF


@njit(cache=True)
def _twist(stream):
    for index in range(MT_WORDS):
        bits = (stream[index] & UPPER_MASK) | (stream[(index + 1) % MT_WORDS] & LOWER_MASK)
        word = stream[(index + MT_SHIFT) % MT_WORDS] ^ (bits >> 1)
        if bits & 1:
            word ^= MATRIX_A
        stream[index] = word
    stream[MT_POSITION] = 0


@njit(cache=True)
def next_word(stream):
    """genrand_uint32: the stream's next 32-bit word (int64 arithmetic,
    every value below 2**48, so no sign or overflow to mind)."""
    if stream[MT_POSITION] >= MT_WORDS:
        _twist(stream)
    word = stream[stream[MT_POSITION]]
    stream[MT_POSITION] += 1
    word ^= word >> 11
    word ^= (word << 7) & 0x9D2C5680
    word ^= (word << 15) & 0xEFC60000
    word ^= word >> 18
    return word


@njit(cache=True)
def random_float(stream):
    """``Random.random()``: 53 bits from two words."""
    high = next_word(stream) >> 5
    low = next_word(stream) >> 6
    return (high * 67108864.0 + low) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def random_below(stream, count):
    """``Random._randbelow(count)``: ``getrandbits(count.bit_length())``
    drawn again until it is below ``count`` (``choice`` indexes with it)."""
    bits = 0
    while (1 << bits) <= count:
        bits += 1
    drawn = next_word(stream) >> (32 - bits)
    while drawn >= count:
        drawn = next_word(stream) >> (32 - bits)
    return drawn



def stream_row(rng: random.Random) -> np.ndarray:
    """The state of ``rng`` as a stream row (``rng`` itself is not advanced)."""
    return np.array(rng.getstate()[1], np.int64)
