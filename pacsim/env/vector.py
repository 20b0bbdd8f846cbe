"""Many Pacman environments stepped together, with Gymnasium's vector API.

Each sub-environment is a :class:`~pacsim.env.gym_env.PacmanEnv`; they share
nothing but the layout object (read-only).  ``SyncVectorEnv`` steps them in
this process (Gymnasium resets a finished one on the next step); the
throughput is ``pacsim bench``'s ``env`` figure.  The compiled kernel is not
used: it searches, and an environment step is a single rules move, which
Python does in microseconds next to the observation encoding.
"""

from __future__ import annotations

from typing import Any

from gymnasium.vector import SyncVectorEnv

from pacsim.engine import Layout
from pacsim.env import board
from pacsim.env.gym_env import PacmanEnv


def make_vector_env(layout: str | Layout = "smallClassic", num_envs: int = 8, **options: Any) -> SyncVectorEnv:
    """``num_envs`` copies of ``PacmanEnv(layout, **options)``; seed them with ``reset(seed=s)``
    (sub-environment i gets seed s + i, as Gymnasium does)."""
    shared = board.load_env_layout(layout)
    return SyncVectorEnv([lambda: PacmanEnv(shared, **options) for _ in range(num_envs)])
