"""The fast path: pacsim's rules and searches compiled with numba.

The readable engine (:mod:`pacsim.engine`) and search (:mod:`pacsim.search`)
are the specification; this package computes the same things over small
integer arrays, for the configurations it knows, and gives the same
answers: the same values (bit for bit), moves and node counts.

It knows nothing of agents: :mod:`pacsim.agents.engines` decides, from an
agent's ``engine`` option and configuration, whether to call
:func:`pacsim.fast.search.kernel_search` (search Pacmen) and
:func:`pacsim.fast.search.chase_values` (the adversarial ghost).
"""

from __future__ import annotations

from functools import cache

SUPPORTED_ALGORITHMS = {"minimax": False, "alphabeta": True, "expectimax": False, "expectiminimax": False,
                        "star1": True, "star2": True}
"""Algorithms the kernel runs, and whether they prune (each with or without a
transposition table; Star1/Star2 with the evaluation's local bounds)."""
SUPPORTED_MODELS = ("uniform", "random", "directional")
SUPPORTED_EVALUATIONS = ("score", "careful")
MAX_CELLS = 2048
"""Largest maze the kernel takes: its distance tables hold cells**2 entries."""


@cache
def available() -> str | None:
    """``None`` when the kernel can run here, else why not (numba missing)."""
    try:
        import numba  # noqa: F401
    except ImportError as error:  # a dependency, but it may be missing or broken
        return f"numba cannot be imported ({error}); `pip install numba` brings the fast path"
    return None
