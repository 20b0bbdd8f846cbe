"""Reading and writing the files a user names.

Reading: only a regular file, and never more than a limit.  ``/dev/zero``
would be read until memory runs out and a FIFO would block forever, and
``st_size`` is no guide (``/proc`` files say 0), so the file is opened without
blocking, checked to be regular, and read up to the limit.

Writing: every file pacsim writes goes through :func:`atomic_file`, which
writes a temporary file beside the target and renames it over the target only
once it is complete and on disk, so a full disk, a crash or Ctrl-C leaves the
old file as it was.  Within :func:`inputs_guarded` (a command) every file read
is remembered, and no output may replace one of them (:func:`check_output`
before the work, :func:`atomic_file` again at the write).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from pathlib import Path
from typing import BinaryIO

from pacsim.errors import OutputError

_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


class FileRefused(Exception):
    """A file that cannot be read; the message is one phrase to put after its name."""


def read_bounded(path: str | Path, limit: int, rewritten: bool = False) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them;
    the file becomes an input no output may replace (:func:`note_input`),
    unless it is ``rewritten``: read to be written again (a resumed weights file).

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
    if not rewritten:
        note_input(path)
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


# -- inputs no output may replace ----------------------------------------------

_inputs: ContextVar[list[Path] | None] = ContextVar("pacsim_inputs", default=None)


@contextmanager
def inputs_guarded() -> Iterator[None]:
    """Within: every file read (:func:`note_input`) is an input that no output
    may replace.  A command runs inside it; a notebook, reading and writing
    as it likes, does not."""
    token = _inputs.set([])
    try:
        yield
    finally:
        _inputs.reset(token)


def note_input(path: str | Path) -> None:
    """``path`` was read (a layout, record, store, plugin, weights or experiment file)."""
    noted = _inputs.get()
    if noted is not None:
        noted.append(Path(path))


SQLITE_HEADER = b"SQLite format 3\x00"


def refuse_to_replace(path: Path, where: str, inputs: Iterable[str | Path] = ()) -> None:
    """The one check that an output at ``path`` destroys nothing it must not:
    an input of the command (``inputs``, and every file read so far), whatever
    names it (a symlink, ``..``, a hard link), nor a results store (an SQLite
    file, which no output of pacsim is).  ``where`` starts the message."""
    if not path.exists():
        return  # an input exists; so does a store
    for source in [*inputs, *(_inputs.get() or [])]:
        if _same_file(path, Path(source)):
            raise OutputError(f"{where}: is the input {source}; writing it would destroy it, give another output path")
    if _starts_with(path, SQLITE_HEADER):
        raise OutputError(f"{where}: is an SQLite database (a results store?); pacsim will not overwrite it, "
                          "give another output path")


def _same_file(first: Path, second: Path) -> bool:
    try:
        return os.path.samefile(first, second)
    except OSError:  # one of them is gone or unreadable: not the same existing file
        return False


def _starts_with(path: Path, header: bytes) -> bool:
    try:
        with open(path, "rb") as file:
            return file.read(len(header)) == header
    except OSError:  # a directory, a file we may not read: not a store we could be asked to keep
        return False


# -- checking an output before the work -------------------------------------------

def check_output(path: str | Path, option: str, folder: bool = False, inputs: Iterable[str | Path] = ()) -> Path:
    """Make ready a place the user asked pacsim to write to (``--record FILE``,
    ``--save-frames DIR``, ...), before the work, not after it: missing parent
    folders are created (``folder``: the folder itself too), and the write's
    own temporary file is created there and removed, so that a place that
    cannot be written (``/proc``, a read-only folder) fails now.  A folder where
    a file goes, a file where a folder goes, an output that is one of
    ``inputs`` or of the files read so far (:func:`refuse_to_replace`), is a
    one-line :class:`~pacsim.errors.OutputError` starting with ``option PATH``."""
    path = Path(path)
    where = f"{option} {path}"
    if not folder and path.is_dir():
        raise OutputError(f"{where}: is a directory; give a file name")
    if folder and path.exists() and not path.is_dir():
        raise OutputError(f"{where}: is a file, not a folder")
    if not folder:
        refuse_to_replace(path, where, inputs)
    directory = path if folder else path.parent
    _make_folder(directory, where)
    try:
        descriptor, temporary = _temporary_beside(directory / (path.name if not folder else "probe"))
    except OSError as error:
        raise OutputError(f"{where}: cannot create a file in {directory}: {error.strerror or error}") from None
    os.close(descriptor)
    os.unlink(temporary)
    return path


def _make_folder(directory: Path, where: str) -> None:
    """``directory`` and its missing parents; a parent that is a file is said to be one."""
    blocking = next((parent for parent in (directory, *directory.parents) if parent.exists()), None)
    if blocking is not None and not blocking.is_dir():
        raise OutputError(f"{where}: {blocking} is a file, not a folder")
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputError(f"{where}: cannot create its folder {directory}: {error.strerror or error}") from None


# -- writing atomically ----------------------------------------------------------

def _temporary_beside(path: Path) -> tuple[int, Path]:
    """A new file open for writing in ``path``'s folder, hidden, ending as
    ``path`` does (writers that choose a format by suffix see the right one).
    Created with mode 0666 less the umask, as an ordinary new file is."""
    import secrets  # hmac and OpenSSL's hashlib: loaded by a command that writes, not by every start-up

    while True:
        temporary = path.with_name(f".{path.stem}.{secrets.token_hex(4)}.tmp{path.suffix}")
        try:
            return os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), temporary
        except FileExistsError:  # another writer's temporary: draw another name
            continue


@contextmanager
def atomic_file(path: str | Path, what: str = "the file", private: bool = False) -> Iterator[BinaryIO]:
    """A binary file to write ``path``'s new content into: a temporary beside
    it, flushed, fsynced and renamed over ``path`` when the block ends
    without error; on any error (or Ctrl-C) the temporary is removed and the
    old ``path`` is as it was.  An ``OSError`` (a full disk) becomes a one-line
    :class:`~pacsim.errors.OutputError` saying it could not write ``what``.
    ``private``: readable by its owner only (mode 0600, set before a byte is
    written), whatever the old file's mode was."""
    path = Path(path)
    refuse_to_replace(path, str(path))
    try:
        descriptor, temporary = _temporary_beside(path)
    except OSError as error:
        raise OutputError(f"{path}: cannot write {what}: {error.strerror or error}") from None
    try:
        if private:
            os.fchmod(descriptor, 0o600)
        with os.fdopen(descriptor, "wb") as file:
            yield file
            file.flush()
            os.fsync(file.fileno())
        with suppress(OSError):  # the old file's permissions, when there is one
            if not private:
                os.chmod(temporary, stat.S_IMODE(os.stat(path).st_mode))
        os.replace(temporary, path)
    except BaseException as error:
        with suppress(OSError):
            os.unlink(temporary)
        if isinstance(error, OSError):
            raise OutputError(f"{path}: cannot write {what}: {error.strerror or error}") from None
        raise
    _sync_folder(path.parent)


def write_atomically(path: str | Path, content: str | bytes, what: str = "the file", private: bool = False) -> None:
    """Write ``content`` (text as UTF-8) to ``path`` through :func:`atomic_file`."""
    with atomic_file(path, what, private) as file:
        file.write(content.encode("utf-8") if isinstance(content, str) else content)


def _sync_folder(folder: Path) -> None:
    """The rename itself on disk: a power cut after it cannot bring the old file back."""
    with suppress(OSError):  # some systems cannot open or fsync a folder; the data is on disk anyway
        descriptor = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
