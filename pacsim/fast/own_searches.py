"""A user's kernel evaluation in the star search (:mod:`pacsim.fast.star`):
Star1/Star2, transposition tables and the adversarial model.

:func:`star_search_root` is :func:`pacsim.fast.star.star_search_root`
compiled again, as :mod:`pacsim.fast.own` compiles the plain search: the
same code with the user's function in place of the built-in ``evaluate``
(at every leaf, at Star2's probed leaves and at a leaf root) and, when the
function has bounds (:func:`pacsim.fast.view.kernel_evaluation`), with
those bounds in place of :func:`~pacsim.fast.star.chance_bounds` at every
Star1/Star2 chance node.  The adversarial ghost's own chase search keeps
the built-in one.  Kept on disk, like every copy (:mod:`pacsim.fast.own`): it
compiles once per version of the function, 15 to 25 seconds on one core.
MCTS's copy is :func:`pacsim.fast.mcts.own_iterations`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np
from numba import njit, types
from numba.core.errors import NumbaError

from pacsim.fast import kernel, star
from pacsim.fast.cache_folder import user_digest
from pacsim.fast.keyed_cache import keep_on_disk
from pacsim.fast.own import (
    WITHOUT_REFERENCE_COUNTS,
    content_name,
    inline_state_view,
    kept,
    leaf_evaluation,
    numba_reason,
    uncached,
    view_type,
)
from pacsim.fast.star import OUT_OF_BOUNDS
from pacsim.fast.view import View

BAD_BOUNDS = 2
"""``stats[OUT_OF_BOUNDS]`` when the user's bounds at a chance node were not
finite numbers with low <= high (Python's search raises there; the
kernel's goes on without them and then raises)."""


@cache
def compiled_bounds(function: Callable[[View], float]) -> tuple[Any, str | None]:
    """``(dispatcher, None)``: the ``bounds`` of kernel evaluation
    ``function`` compiled for ``(view, levels)``, returning two numbers;
    or ``(None, reason)``: why Star1/Star2 cannot run ``function`` in the
    kernel (no bounds, or bounds numba cannot compile), in one line."""
    bounds = getattr(function, "bounds", None)
    name = getattr(function, "__qualname__", repr(function))
    if bounds is None:
        return None, f"{name}() has no bounds (@kernel_evaluation(bounds=...)), which Star1/Star2 need"
    dispatcher = keep_on_disk(njit(**WITHOUT_REFERENCE_COUNTS)(bounds), user_digest((bounds,)))
    try:
        dispatcher.compile((view_type(), types.int64))
    except NumbaError as error:
        return None, numba_reason(bounds, error)
    returned = dispatcher.nopython_signatures[-1].return_type
    items = getattr(returned, "types", ())  # a tuple's item types
    if not (isinstance(returned, types.BaseTuple) and len(items) == 2
            and all(isinstance(item, types.Number) for item in items)):
        return None, f"the bounds of {name}() must return two numbers (low, high), not {returned}"
    return dispatcher, None


@cache
def star_search_root(function: Callable[[View], float]) -> Any:
    """:func:`pacsim.fast.star.star_search_root` with ``function`` (which
    :func:`~pacsim.fast.own.compiled` compiles) as its evaluation and its
    bounds (if any) as the chance nodes', compiled apart and kept on disk."""
    evaluate = leaf_evaluation(function)
    expand = star.expand_node
    if compiled_bounds(function)[0] is not None:
        expand = uncached(star.expand_node, {"chance_bounds": _chance_bounds(function)})
    next_child = uncached(star.next_child, {"evaluate": evaluate})
    value = uncached(star.star_value, {"evaluate": evaluate, "expand_node": expand, "next_child": next_child})
    root_leaf_value = uncached(kernel.root_leaf_value, {"evaluate": evaluate})
    entry = uncached(star.star_search_root, {"star_value": value, "root_leaf_value": root_leaf_value})
    return kept(entry, "the kernel's Star1/Star2 search", function)


def _chance_bounds(function: Callable[[View], float]) -> Any:
    """:func:`pacsim.fast.star.chance_bounds` with ``function``'s bounds,
    checked as ``pacsim.search.star`` checks them."""
    bounds = compiled_bounds(function)[0]
    view = inline_state_view()

    def chance_bounds(maze: Any, settings: Any, stats: Any, state: Any, remaining: int) -> tuple[float, float]:
        low, high = bounds(view(maze.distance, maze.nearest, settings, state), remaining)
        low, high = float(low), float(high)
        if math.isfinite(low) and math.isfinite(high) and low <= high:
            return low, high
        stats[OUT_OF_BOUNDS] = BAD_BOUNDS
        return -np.inf, np.inf

    content_name(chance_bounds, function)
    return njit(inline="always", **WITHOUT_REFERENCE_COUNTS)(chance_bounds)
