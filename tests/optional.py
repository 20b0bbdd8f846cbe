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


def outside_repository(variable: str, what: str) -> str:
    """The folder of a copy kept outside the repository that no install can
    bring (the course's ``capture.py``: not on any registry, never committed),
    named by the environment ``variable``.  Unset, the test skips everywhere,
    CI too, saying how to run it: CI checks the same thing through the
    recordings committed beside the test.  Set to a folder that is missing
    ``what``, the test fails: it was asked to run and cannot."""
    folder = os.environ.get(variable, "")
    if not folder:
        outside_ci(f"needs {what} kept outside the repository: set {variable}=DIR to run it")
    if not os.path.isfile(os.path.join(folder, what)):
        pytest.fail(f"{variable}={folder}: no {what} there", pytrace=False)
    return folder


def machine(reason: str) -> NoReturn:
    """Stop a test that this kind of machine cannot run, whatever is installed (a cgroup v2 test on a v1
    machine): a skip saying ``reason``, under CI too (no install could provide it; CI lists it with the skips)."""
    pytest.skip(f"{NOT_IN_CI}{reason} (a property of this machine, not of its install)")


def bubblewrap() -> None:
    """Go on only where bubblewrap can run the sandbox here; else :func:`missing` (.ci/run installs it)."""
    from pacsim.sandbox.bubblewrap import bubblewrap_works

    if not bubblewrap_works():
        missing("needs bubblewrap able to create namespaces here: apt-get install bubblewrap")


def root() -> None:
    """Go on only as root (the suite runs as root in CI); else :func:`missing`."""
    if os.geteuid() != 0:
        missing("needs root")


def control_groups(*controllers: str) -> None:
    """Go on only where a sandboxed child gets a control group with ``controllers`` here; else :func:`missing`
    (CI runs as root, where this machine's cgroup tree is writable)."""
    from pacsim.sandbox.isolation import control_groups as available

    lacking = [controller for controller in controllers if controller not in available()]
    if lacking:
        missing(f"needs writable control groups with {', '.join(lacking)} (root, or a delegated cgroup v2 subtree)")


def cgroup_version(version: int) -> None:
    """Go on only on a machine whose control groups (the ones pacsim uses) are of ``version``:
    on the other kind, :func:`machine`; then :func:`control_groups` with every controller."""
    from pacsim.sandbox import cgroups

    if cgroups.version() != version:
        machine(f"needs control groups v{version}; this machine's are v{cgroups.version()}")
    control_groups(*cgroups.CONTROLLERS)
