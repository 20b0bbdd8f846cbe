"""What of the user's own files a child may be shown read-only: only what no one else could have planted.

A folder shown to every entrant (the user's built kernel, which saves a child
the minute of building its own) must be the user's: it, the folder above it,
and every file in it owned by this user, none of them a link, none writable
by the group or others.  Anything else is not shared (the child then works
without it, as it would without the folder).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


def owned_privately(path: Path) -> bool:
    """Whether ``path`` is no link, is owned by this user, and is writable by no one else."""
    try:
        status = path.lstat()
    except OSError:
        return False
    return (not stat.S_ISLNK(status.st_mode) and status.st_uid == os.getuid()
            and not status.st_mode & (stat.S_IWGRP | stat.S_IWOTH))


def private_folder(folder: Path) -> bool:
    """Whether ``folder``, its parent and everything in it are :func:`owned_privately` (the folder's own entries
    only: a kernel's folder holds no subfolders that matter, and one that is not private fails the check)."""
    try:
        entries = list(folder.iterdir())
    except OSError:
        return False
    return all(owned_privately(path) for path in (folder.parent, folder, *entries))
