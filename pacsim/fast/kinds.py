"""One table per concept the kernel shares with Python, and what it covers.

Ghost kinds (which are also the chance models a searching Pacman assumes),
evaluations, node kinds and chance-node modes are each numbered here and
only here; the kernel compiles the members as constants (numba reads an
``IntEnum`` member as its int), Python maps names to them, and
:data:`KERNEL_ALGORITHMS`, :data:`KERNEL_EVALUATIONS` and
:data:`KERNEL_GHOSTS` declare what the kernel runs.

numba bakes these numbers into its cached machine code, so every compiled
module lists this file among the sources that flush its cache
(:mod:`pacsim.fast.cache`).  Importing this module needs neither numba nor
numpy.
"""

from __future__ import annotations

from enum import IntEnum

from pacsim.search import CHANCE, MAX, MIN


class GhostKind(IntEnum):
    """A ghost policy the kernel plays, and the chance model of that name.

    ``UNIFORM`` is the model of no model (every move equally likely, ``trust``
    ignored); the others are the built-in ghosts of the same name.  The
    policies themselves are :func:`pacsim.fast.policies.ghost_probabilities`
    (``ADVERSARIAL`` apart: its distribution needs the chase search).
    ``OWN`` is a user's own ghost (:func:`pacsim.fast.view.kernel_ghost`),
    named by its spec rather than a label: the kernel calls it through
    :func:`pacsim.fast.kernel.own_ghost_probabilities`, which
    :mod:`pacsim.fast.own` replaces with the compiled function."""

    UNIFORM = 0
    RANDOM = 1
    DIRECTIONAL = 2
    ADVERSARIAL = 3
    AMBUSHER = 4
    OWN = 5

    @property
    def label(self) -> str:
        """The name users write (a ghost spec, ``model=``)."""
        return self.name.lower()


class Evaluation(IntEnum):
    """The kernel's evaluations: ``score``, ``careful`` and the chasing ghost's."""

    SCORE = 0
    CAREFUL = 1
    CHASE = 2


class NodeKind(IntEnum):
    """A search node's kind, as :data:`pacsim.search.MAX` / ``MIN`` / ``CHANCE``."""

    MAX = 0
    MIN = 1
    CHANCE = 2


class ChanceMode(IntEnum):
    """How chance nodes are searched: summed in full, or Ballard's Star1/Star2."""

    PLAIN = 0
    STAR1 = 1
    STAR2 = 2

    @property
    def label(self) -> str | None:
        """The :class:`pacsim.search.Algorithm` ``chance_mode`` (None: plain)."""
        return None if self == ChanceMode.PLAIN else self.name.lower()


NODE_KINDS = {MAX: NodeKind.MAX, MIN: NodeKind.MIN, CHANCE: NodeKind.CHANCE}
"""pacsim.search's node kinds by name."""

KERNEL_ALGORITHMS: dict[str, tuple[bool, ChanceMode]] = {
    "minimax": (False, ChanceMode.PLAIN),
    "alphabeta": (True, ChanceMode.PLAIN),
    "expectimax": (False, ChanceMode.PLAIN),
    "expectiminimax": (False, ChanceMode.PLAIN),
    "star1": (True, ChanceMode.STAR1),
    "star2": (True, ChanceMode.STAR2),
}
"""The algorithms the kernel runs, by :data:`pacsim.search.ALGORITHMS` name:
whether it prunes (:func:`pacsim.fast.kernel.node_value` with ``PRUNED``)
and how it searches chance nodes (:mod:`pacsim.fast.star` for Star1/Star2)."""

KERNEL_EVALUATIONS = {"score": Evaluation.SCORE, "careful": Evaluation.CAREFUL}
"""The evaluations the kernel computes (:func:`pacsim.fast.kernel.evaluate`), by name."""

KERNEL_GHOSTS = {kind.label: kind for kind in GhostKind if kind not in (GhostKind.UNIFORM, GhostKind.OWN)}
"""The built-in ghosts the kernel plays in whole games, by name (:mod:`pacsim.fast.gameloop`)."""

KERNEL_MODELS = {kind.label: kind for kind in GhostKind if kind != GhostKind.OWN}
"""The built-in chance models the kernel's searches assume, by name (a
user's own ghost is known by its spec: :func:`pacsim.fast.view.registered_ghost`)."""
