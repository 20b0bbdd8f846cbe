"""The bubblewrap level: the child in namespaces of its own, without privileges, seeing little of the disk.

``bwrap`` (Debian's ``bubblewrap``) runs the child with no network, its own
process tree, its own user namespace as ``nobody`` with every capability
dropped, and a file system of the system's programs, the Python install and
pacsim (read-only), the entrant's own folder (read-only), any further folder
the caller shares read-only (the user's built kernel), a private ``/tmp`` of
``memory_mb`` and a private ``/dev/shm`` of ``file_mb``.  The rest of the root
and ``/dev`` are read-only: without a memory control group nothing else can
hold the entrant's files in memory.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

from pacsim.sandbox.limits import Limits

NO_PRIVILEGES = ["--unshare-user", "--uid", "65534", "--gid", "65534", "--cap-drop", "ALL"]
"""bwrap's options for an entrant without privileges: its own user namespace (root or not outside, it is
``nobody`` inside), every capability dropped, and bwrap sets no new privileges; where bwrap has it (0.8 on),
``--disable-userns`` too: no further user namespace (:func:`bubblewrap_privileges`)."""
BWRAP_SIGNALLED = 128
"""bwrap exits with this plus the signal that killed the entrant's process."""
SYSTEM_FOLDERS = ("/usr", "/bin", "/lib", "/lib64", "/sbin")


def bubblewrap_works() -> bool:
    """Whether ``bwrap`` is installed and can create the namespaces here, a user namespace included (some
    containers forbid them), and whether the entrant then really has no capability left (probed once)."""
    return bubblewrap_privileges() is not None


@functools.cache
def bubblewrap_privileges() -> list[str] | None:
    """:data:`NO_PRIVILEGES` with ``--disable-userns`` where this bwrap takes it, without where not; None
    where bwrap cannot run an entrant so, or the entrant would keep a capability."""
    executable = shutil.which("bwrap")
    for options in ([*NO_PRIVILEGES, "--disable-userns"], NO_PRIVILEGES):
        try:
            probe = subprocess.run([executable or "bwrap", "--ro-bind", "/", "/", "--unshare-all", *options,
                                    "--die-with-parent", "--proc", "/proc", "cat", "/proc/self/status"],
                                   capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            return None
        if probe.returncode == 0:
            return options if no_capabilities(probe.stdout) else None
    return None


def no_capabilities(status: str) -> bool:
    """Whether every capability set in a ``/proc/<pid>/status`` text is empty (and there are the five)."""
    sets = [line.split(":")[1] for line in status.splitlines() if line.startswith("Cap")]
    return len(sets) == 5 and all(int(value, 16) == 0 for value in sets)


def pacsim_root() -> Path:
    """The folder pacsim is imported from (its parent goes on the child's path)."""
    return Path(__file__).resolve().parent.parent


def child_environment(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """A small environment: pacsim importable, nothing of the parent's secrets, and what the caller adds."""
    return {"PATH": os.defpath, "PYTHONPATH": str(pacsim_root().parent), "PYTHONDONTWRITEBYTECODE": "1",
            "PYTHONHASHSEED": "0", "HOME": "/tmp", "LANG": "C.UTF-8", **(extra or {})}


def bubblewrap_command(folder: Path, limits: Limits, shared: Iterable[tuple[Path, str]] = ()) -> list[str]:
    """``bwrap`` with no network, no privileges, its own process tree, and a file system of the system's
    programs, Python and pacsim (read-only), an empty ``/tmp`` of ``memory_mb``, an empty ``/dev/shm`` of
    ``file_mb``, each ``shared`` folder (read-only, where its pair says: inside ``/tmp`` it sits in the
    private tmpfs), and the entrant's ``folder`` (read-only); the root and ``/dev`` themselves read-only."""
    command = ["bwrap", "--unshare-all", *(bubblewrap_privileges() or NO_PRIVILEGES), "--die-with-parent",
               "--new-session", "--proc", "/proc", "--dev", "/dev",
               "--size", str(limits.file_mb << 20), "--tmpfs", "/dev/shm",
               "--size", str(limits.memory_mb << 20), "--tmpfs", "/tmp"]
    for system in SYSTEM_FOLDERS:
        if os.path.islink(system):
            command += ["--symlink", os.readlink(system), system]
        elif os.path.isdir(system):
            command += ["--ro-bind", system, system]
    for folder_needed in sorted({*python_folders(), str(pacsim_root())}):
        command += ["--ro-bind", folder_needed, folder_needed]
    for outside, inside in shared:
        command += ["--ro-bind", str(outside), inside]
    return command + ["--ro-bind", str(folder), str(folder), "--chdir", str(folder),
                      "--remount-ro", "/dev", "--remount-ro", "/"]


def python_folders() -> list[str]:
    """Python's install and the environment's (a virtualenv's packages), real paths."""
    folders = {os.path.realpath(sys.base_prefix), os.path.realpath(sys.prefix),
               os.path.dirname(os.path.dirname(os.path.realpath(sys.executable)))}
    return sorted(folder for folder in folders if folder not in ("/", "/usr"))
