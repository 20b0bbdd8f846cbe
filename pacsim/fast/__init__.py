"""The fast path: pacsim's rules and searches compiled with numba.

The readable engine (:mod:`pacsim.engine`) and search (:mod:`pacsim.search`)
are the specification; this package computes the same things over small
integer arrays, for the configurations it knows, and gives the same
answers: the same values (bit for bit), moves and node counts.

It knows nothing of agents: a search Pacman describes its search as a
:class:`pacsim.fast.request.SearchRequest`, which the kernel runs or
declines with a reason (:mod:`pacsim.fast.request` holds what it covers);
:mod:`pacsim.agents.backend` decides, from an agent's ``backend`` option,
whether to ask (:func:`pacsim.fast.search.run_request` for search Pacmen,
:func:`pacsim.fast.search.chase_values` for the adversarial ghost).
"""

from __future__ import annotations

from functools import cache
from importlib.util import find_spec

MAX_CELLS = 2048
"""Largest maze the kernel takes: its distance tables hold cells**2 entries."""


@cache
def available() -> str | None:
    """``None`` when the kernel can run here, else why not (numba missing).
    Found, not imported: a process that runs the ahead-of-time kernel
    (:mod:`pacsim.fast.aot`) never imports numba."""
    if find_spec("numba") is None:  # a dependency, but it may be missing
        return "numba cannot be imported (no module named 'numba'); `pip install numba` brings the fast path"
    return None
