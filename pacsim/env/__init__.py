"""Learning environments: Gymnasium (Pacman learns) and PettingZoo (everyone learns).

Needs the ``env`` extra (``pip install 'pacsim[env]'``: gymnasium, pettingzoo).
Importing this package registers ``pacsim/<Layout>-v0`` for every shipped
layout (``pacsim/SmallClassic-v0``) and ``pacsim/Pacman-v0`` for any other
(``gymnasium.make("pacsim/Pacman-v0", layout="generated:w=9,h=7,food=4,ghosts=1,seed=3")``);
``gymnasium.make("pacsim.env:pacsim/SmallClassic-v0")`` imports it first.

* :class:`PacmanEnv` / :func:`make_env`: the single-agent environment;
* :func:`make_vector_env`: many of them stepped together (vector API);
* :class:`PacmanAECEnv` (module :mod:`pacsim.env.aec`): the PettingZoo one.

Observation, actions and illegal actions: :mod:`pacsim.env.board`.
"""

from __future__ import annotations

from typing import Any

try:
    import gymnasium
except ImportError as error:  # pragma: no cover - depends on the install
    raise ImportError("pacsim.env needs gymnasium: pip install 'pacsim[env]'") from error

from pacsim.env.gym_env import PacmanEnv
from pacsim.env.vector import make_vector_env
from pacsim.shipped import LAYOUTS, shipped_folder

NAMESPACE = "pacsim"
ANY_LAYOUT_ID = f"{NAMESPACE}/Pacman-v0"
ENTRY_POINT = "pacsim.env.gym_env:PacmanEnv"


def make_env(layout: str = "smallClassic", **options: Any) -> PacmanEnv:
    """A :class:`PacmanEnv` for any layout name, ``.lay`` path or ``generated:`` spec."""
    return PacmanEnv(layout, **options)


def env_id(layout_name: str) -> str:
    """``smallClassic`` -> ``pacsim/SmallClassic-v0``."""
    return f"{NAMESPACE}/{layout_name[:1].upper()}{layout_name[1:]}-v0"


def register_envs() -> list[str]:
    """Register the ids (again: harmless); returns the shipped layouts' ids."""
    ids = []
    for path in sorted(shipped_folder(LAYOUTS).glob("*.lay")):
        ids.append(env_id(path.stem))
        gymnasium.register(ids[-1], entry_point=ENTRY_POINT, kwargs={"layout": path.stem})
    gymnasium.register(ANY_LAYOUT_ID, entry_point=ENTRY_POINT)
    return ids


def __getattr__(name: str) -> Any:
    if name == "PacmanAECEnv":  # pettingzoo only when asked for
        from pacsim.env.aec import PacmanAECEnv

        return PacmanAECEnv
    raise AttributeError(f"module 'pacsim.env' has no attribute {name!r}")


REGISTERED = register_envs()

__all__ = ["PacmanEnv", "PacmanAECEnv", "make_env", "make_vector_env", "env_id", "register_envs", "REGISTERED", "ANY_LAYOUT_ID"]
