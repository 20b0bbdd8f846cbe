"""Many Pacman environments stepped together, with Gymnasium's vector API.

Each sub-environment is a :class:`~pacsim.env.gym_env.PacmanEnv`; they share
nothing but the layout object (read-only).  ``sync`` steps them in this
process, ``async`` each in a process of its own (Gymnasium resets a finished
one on the next step); ``gymnasium.make_vec("pacsim/SmallClassic-v0",
num_envs=N, vectorization_mode=...)`` builds the same from a registered id.
The throughput of both is ``pacsim bench``'s ``env`` figures: an environment
step is a single rules move and an observation, so on few cores the
processes' messages cost more than they save.  The compiled kernel is not
used: it searches, and a rules move is microseconds in Python next to the
observation encoding.
"""

from __future__ import annotations

from typing import Any

from gymnasium.vector import AsyncVectorEnv, SyncVectorEnv, VectorEnv

from pacsim.engine import Layout
from pacsim.env import board
from pacsim.env.gym_env import PacmanEnv
from pacsim.errors import ConfigError

VECTOR_KINDS: dict[str, type[SyncVectorEnv] | type[AsyncVectorEnv]] = {"sync": SyncVectorEnv, "async": AsyncVectorEnv}
"""Gymnasium's ``vectorization_mode`` names and the vector classes they stand for."""


def make_vector_env(layout: str | Layout = "smallClassic", num_envs: int = 8, vectorization_mode: str = "sync",
                    **options: Any) -> VectorEnv:
    """``num_envs`` copies of ``PacmanEnv(layout, **options)``, stepped
    ``"sync"`` or ``"async"``; seed them with ``reset(seed=s)`` (sub-environment
    i gets seed s + i, as Gymnasium does)."""
    if vectorization_mode not in VECTOR_KINDS:
        raise ConfigError(f"vectorization_mode={vectorization_mode!r}: one of {', '.join(VECTOR_KINDS)}")
    shared = board.load_env_layout(layout)
    return VECTOR_KINDS[vectorization_mode]([lambda: PacmanEnv(shared, **options) for _ in range(num_envs)])
