"""The tests that need an optional part (a Python extra, Debian's Chromium):
they skip, with the reason and how to install it, where it is missing; under
CI (``CI=true``), which installs every one of them (see .ci/run), they fail
instead, so that a broken install cannot pass as a green run."""

import importlib
import os
from types import ModuleType
from typing import NoReturn

import pytest

IN_CI = os.environ.get("CI", "").lower() == "true"


def missing(reason: str) -> NoReturn:
    """Stop a test that cannot run: a skip saying ``reason``; under CI a failure."""
    if IN_CI:
        pytest.fail(f"{reason} (CI=true: .ci/run installs it, so its absence is a failure)", pytrace=False)
    pytest.skip(reason)


def needed(module: str, install: str) -> ModuleType:
    """``module`` imported, or :func:`missing` with ``install`` (how to get it)."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        missing(f"needs {module} ({error}): {install}")


NOT_IN_CI = "not run in CI by design: "
"""How the reason of a skip that CI allows begins (see :func:`outside_ci`)."""


def outside_ci(reason: str) -> NoReturn:
    """Skip, under CI too, a test that needs what the repository cannot ship (a course's own code, kept outside
    it): the reason says so, and the run lists it (``-r s``). Every other skip fails under CI (tests/conftest.py)."""
    pytest.skip(NOT_IN_CI + reason)

