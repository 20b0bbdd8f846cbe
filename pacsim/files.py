"""Reading a file a user named: only a regular file, and never more than a limit.

``/dev/zero`` would be read until memory runs out and a FIFO would block
forever, and ``st_size`` is no guide (``/proc`` files say 0), so the file is
opened without blocking, checked to be regular, and read up to the limit.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO

from pacsim.errors import ConfigError

_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


class FileRefused(Exception):
    """A file that cannot be read; the message is one phrase to put after its name."""


def read_bounded(path: str | Path, limit: int) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them.

    Raises :class:`FileRefused` for a missing or unreadable file, anything but
    a regular file, and a file longer than ``limit`` bytes."""
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer.
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        raise FileRefused(f"cannot read the file: {error.strerror or error}") from None
    mode = os.fstat(descriptor).st_mode
    if not stat.S_ISREG(mode):
        os.close(descriptor)
        kind = next((name for test, name in _KINDS if test(mode)), "a special file")
        raise FileRefused(f"cannot read the file: not a regular file ({kind})")
    with os.fdopen(descriptor, "rb") as file:
        try:
            data = _read_up_to(file, limit + 1)
        except OSError as error:
            raise FileRefused(f"cannot read the file: {error.strerror or error}") from None
    if len(data) > limit:
        raise FileRefused(f"file larger than {limit} bytes")
    return data


_CHUNK = 1 << 20


def _read_up_to(file: BinaryIO, size: int) -> bytes:
    """At most ``size`` bytes, read a chunk at a time: ``read(size)`` would
    allocate the whole limit (64 MB for a record) even for a small file."""
    chunks: list[bytes] = []
    left = size
    while left > 0:
        chunk = file.read(min(_CHUNK, left))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def check_output(path: str | Path, option: str, folder: bool = False) -> Path:
    """Make ready a place the user asked pacsim to write to (``--record FILE``,
    ``--save-frames DIR``, ...), before the work, not after it: missing parent
    folders are created (``folder``: the folder itself too); a folder where a
    file goes, a file where a folder goes, or a place that cannot be written
    is a one-line :class:`~pacsim.errors.ConfigError` starting with
    ``option PATH``."""
    path = Path(path)
    where = f"{option} {path}"
    if not folder and path.is_dir():
        raise ConfigError(f"{where}: is a directory; give a file name")
    if folder and path.exists() and not path.is_dir():
        raise ConfigError(f"{where}: is a file, not a folder")
    try:
        (path if folder else path.parent).mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ConfigError(f"{where}: cannot create its folder: {error.strerror or error}") from None
    target = path if folder or path.exists() else path.parent
    if not os.access(target, os.W_OK):
        raise ConfigError(f"{where}: cannot write there: permission denied")
    return path
