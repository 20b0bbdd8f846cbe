"""Names a package re-exports, imported on first use.

A package front (``pacsim.agents``, ``pacsim.runner``, ``pacsim.report``)
that imported every module it re-exports would make each of its modules
cost them all: ``pacsim.agents.cs188`` would load every built-in agent,
``pacsim.runner.experiment`` the process pool, ``pacsim.report.format``
pandas.  Such a package lists where each name lives and calls
:func:`lazy_attribute` from its module ``__getattr__``.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any


def lazy_attribute(package: str, name: str, homes: Mapping[str, Sequence[str]]) -> Any:
    """``name`` of ``package``, imported from the module ``homes`` lists it
    under (module -> names); AttributeError for a name it does not list."""
    for module, names in homes.items():
        if name in names:
            return getattr(importlib.import_module(module), name)
    raise AttributeError(f"module {package!r} has no attribute {name!r}")
