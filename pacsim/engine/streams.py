"""The agents' random streams: how each is seeded from the game's seed.

Every agent of a game gets its own ``random.Random`` (common random numbers:
the ghosts' dice do not depend on which Pacman plays).  What seeds it is the
one thing that must not leak: a Mersenne Twister's state gives back what
seeded it (``init_by_array`` can be undone), and an agent holds its state.

* Version 1 (:data:`STRING_STREAMS`, every game before streams were versioned)
  seeded each stream with the string ``"pacsim:{seed}:{agent}"``.  From its own
  generator an agent read the game's seed and rebuilt every ghost's stream.
* Version 2 (:data:`HASHED_STREAMS`) seeds each stream with a keyed BLAKE2b
  hash of (version, seed, agent index) as an integer.  The state gives back
  that hash and nothing else: not the seed, not another agent's stream.  A
  tournament keys the hash with a secret drawn for its store that no entrant
  sees, so even a seed space small enough to search (2**32 game seeds) stays
  closed; without a key (an experiment, a game on the command line) the seed
  is in the experiment's file anyway, and the agents are the user's own.

Records and stored rows carry the version (absent: version 1), so an old
game replays with the streams it was played with.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field

STRING_STREAMS = 1
"""Streams seeded with a string holding the game's seed (readable from the generator's state)."""
HASHED_STREAMS = 2
"""Streams seeded with a keyed one-way hash of the game's seed."""
STREAM_VERSION = HASHED_STREAMS
"""The version new games are played with."""
STREAM_VERSIONS = (STRING_STREAMS, HASHED_STREAMS)
KEY_BYTES = 32
"""A tournament's secret stream key, in bytes (BLAKE2b takes up to 64)."""
_PERSON = b"pacsim-streams"
"""BLAKE2b's personalisation: these hashes are pacsim's streams and nothing else's."""


@dataclass(frozen=True)
class Streams:
    """How a game's random streams are made from its seed: a version and,
    in a tournament, its secret key (never shown: left out of the repr)."""

    version: int = STREAM_VERSION
    """:data:`STRING_STREAMS` or :data:`HASHED_STREAMS`."""
    key: bytes = field(default=b"", repr=False)
    """The secret the hash is keyed with (empty: none); only version 2 uses it."""

    def __post_init__(self) -> None:
        if self.version not in STREAM_VERSIONS:
            raise ValueError(f"random stream version {self.version!r} is not one of {STREAM_VERSIONS}")
        if len(self.key) > 64:
            raise ValueError(f"a stream key of {len(self.key)} bytes: BLAKE2b takes 64 at most")

    def rng(self, seed: int, agent: int) -> random.Random:
        """The random stream of agent ``agent`` (0 is Pacman) in the game with ``seed``."""
        if self.version == STRING_STREAMS:
            return random.Random(f"pacsim:{seed}:{agent}")
        return random.Random(self.stream_seed(seed, agent))

    def stream_seed(self, seed: int, agent: int) -> int:
        """The 256-bit integer a version-2 stream is seeded with: all an agent can read back from its generator."""
        digest = hashlib.blake2b(f"{self.version}:{seed}:{agent}".encode(), key=self.key, person=_PERSON,
                                 digest_size=32).digest()
        return int.from_bytes(digest, "big")

    @property
    def keyed(self) -> bool:
        return bool(self.key)


PUBLIC_STREAMS = Streams()
"""The current streams without a key: every game outside a tournament."""


def streams_of(version: int | None) -> Streams:
    """The (unkeyed) streams of a stored game or record that says ``version``
    (None: stored before streams were versioned, so version 1)."""
    return Streams(STRING_STREAMS if version is None else version)
