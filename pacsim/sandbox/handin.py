"""A folder entrant's hand-in, copied for its games: its own regular files only, within the instructor's limits.

The copy is what the entrant's sandbox shows it of the disk, so nothing in it
may lead elsewhere: the folder is walked through directory descriptors opened
with ``O_NOFOLLOW`` (a folder swapped for a link mid-walk is not entered), and

* symbolic links, devices, FIFOs and sockets are left out, never followed or
  opened (a link to the instructor's key, to another student's file, to the
  store's seeds would otherwise be copied in);
* a file with more hard links than the hand-in holds (a link to a file
  outside it, its content someone else's) is left out too;
* the walk is a loop, not a recursion, and a hand-in nested over
  :data:`MAX_DEPTH` folders deep is refused whole;
* the files are counted, and their sizes (``st_size``: the bytes a copy
  writes, so a sparse file counts its holes) summed, before anything is
  read; a hand-in over :class:`HandInLimits` is refused whole.

What was left out is said (:attr:`HandIn.left_out`), so an instructor can
tell a stray link from an attempt; the entrant plays without it.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
import shutil
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from pacsim.errors import ConfigError
from pacsim.files import FileRefused

DEFAULT_HAND_IN_MB = 64.0
DEFAULT_HAND_IN_FILES = 1000
MAX_DEPTH = 64
"""How deep a hand-in's folders may nest; deeper, it is refused whole (no student's code needs more)."""
_CHUNK = 1 << 20
_TOP = os.O_RDONLY | os.O_DIRECTORY
"""The hand-in's own folder, as the instructor named it (a link to it is theirs)."""
_DIRECTORY = _TOP | os.O_NOFOLLOW
_FILE = os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_NONBLOCK", 0)  # a FIFO swapped in must not block the open


@dataclass(frozen=True)
class HandInLimits:
    """The most a folder entrant may hand in (the tournament's ``hand_in_mb`` and ``hand_in_files``)."""

    megabytes: float = DEFAULT_HAND_IN_MB
    """Bytes of all its files together, as a copy would write them."""
    files: int = DEFAULT_HAND_IN_FILES

    def __post_init__(self) -> None:
        if not self.megabytes > 0 or not self.files >= 1:
            raise ConfigError(f"hand-in limits must be above 0 MB and at least 1 file, not {self.megabytes!r} MB, "
                              f"{self.files!r} files")

    @property
    def bytes(self) -> int:
        return int(self.megabytes * (1 << 20))


DEFAULT_HAND_IN = HandInLimits()


@dataclass(frozen=True)
class _Found:
    """A regular file of the hand-in, as the walk saw it."""

    parts: tuple[str, ...]
    """Its path inside the hand-in, a name per folder."""
    size: int
    identity: tuple[int, int]
    """(device, inode): the file opened for the copy must be this one."""
    links: int


@dataclass
class HandIn:
    """What a hand-in's folder holds, before anything of it is read."""

    files: list[_Found] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)
    """``name (why)`` of each entry not copied."""

    @property
    def size(self) -> int:
        return sum(found.size for found in self.files)


def scan(folder: Path, hidden: bool = False) -> HandIn:
    """The hand-in's regular files (hidden ones and ``__pycache__`` skipped unless ``hidden``) and what is left out."""
    hand_in = HandIn()
    descriptor = os.open(folder, _TOP)
    try:
        _walk(descriptor, hand_in, hidden)
    finally:
        os.close(descriptor)
    seen: dict[tuple[int, int], int] = {}
    for found in hand_in.files:
        seen[found.identity] = seen.get(found.identity, 0) + 1
    outside = [found for found in hand_in.files if found.links > seen[found.identity]]
    hand_in.files = [found for found in hand_in.files if found not in outside]
    hand_in.left_out += [f"{'/'.join(found.parts)} (a hard link to a file outside the hand-in)" for found in outside]
    return hand_in


def scan_file(folder: Path, name: str) -> HandIn:
    """A hand-in of the one file ``name`` of ``folder`` (a single-file entrant), its neighbours not looked at."""
    descriptor = os.open(folder, _TOP)
    try:
        status = os.stat(name, dir_fd=descriptor, follow_symlinks=False)
    finally:
        os.close(descriptor)
    if not stat.S_ISREG(status.st_mode):
        return HandIn(left_out=[f"{name} ({_kind(status.st_mode)})"])
    return HandIn([_Found((name,), status.st_size, (status.st_dev, status.st_ino), status.st_nlink)])


def _walk(top: int, hand_in: HandIn, hidden: bool) -> None:
    """Every entry under the open folder ``top``, depth first in name order, without recursion: a folder
    nested over :data:`MAX_DEPTH` deep refuses the hand-in (each level holds a descriptor while it is walked)."""
    stack: list[tuple[int, tuple[str, ...], Iterator[os.DirEntry[str]]]] = [(top, (), _listed(top))]
    try:
        while stack:
            directory, parts, entries = stack[-1]
            entry = next(entries, None)
            if entry is None:
                stack.pop()
                if parts:  # the top is its caller's to close
                    os.close(directory)
                continue
            inner = _visit(directory, entry, (*parts, entry.name), hand_in, hidden)
            if inner is not None:
                stack.append((inner, (*parts, entry.name), _listed(inner)))
    finally:
        for directory, parts, _ in stack:
            if parts:
                os.close(directory)


def _listed(directory: int) -> Iterator[os.DirEntry[str]]:
    with os.scandir(directory) as entries:
        return iter(sorted(entries, key=lambda entry: entry.name))


def _visit(directory: int, entry: os.DirEntry[str], here: tuple[str, ...], hand_in: HandIn, hidden: bool) -> int | None:
    """Note one entry of the hand-in; for a folder to enter, its descriptor (opened without following a link)."""
    if not hidden and (entry.name.startswith(".") or entry.name == "__pycache__"):
        return None
    status = entry.stat(follow_symlinks=False)
    if stat.S_ISDIR(status.st_mode):
        if len(here) > MAX_DEPTH:
            raise FileRefused(f"its folders nest over {MAX_DEPTH} deep ({'/'.join(here[:3])}/...)")
        try:
            return os.open(entry.name, _DIRECTORY, dir_fd=directory)
        except OSError:  # swapped for a link since it was listed, or unreadable
            hand_in.left_out.append(f"{'/'.join(here)} (a folder that cannot be opened)")
    elif stat.S_ISREG(status.st_mode):
        hand_in.files.append(_Found(here, status.st_size, (status.st_dev, status.st_ino), status.st_nlink))
    else:
        hand_in.left_out.append(f"{'/'.join(here)} ({_kind(status.st_mode)})")
    return None


def _kind(mode: int) -> str:
    kinds = ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"),
             (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"))
    return next((name for test, name in kinds if test(mode)), "not a regular file")


def check_limits(hand_in: HandIn, limits: HandInLimits) -> None:
    """Raise :class:`FileRefused` if the hand-in is over ``limits`` (before anything is copied)."""
    if len(hand_in.files) > limits.files:
        raise FileRefused(f"it holds {len(hand_in.files):,} files, over the limit of {limits.files:,} "
                          "(the tournament's hand_in_files)")
    if hand_in.size > limits.bytes:
        raise FileRefused(f"its files hold {hand_in.size / (1 << 20):,.1f} MB, over the limit of "
                          f"{limits.megabytes:g} MB (the tournament's hand_in_mb)")


def copy(folder: Path, hand_in: HandIn, target: Path) -> str:
    """Copy the hand-in's files into the new folder ``target``; the sha256 of their names and contents.

    Each file is opened through its folders' descriptors (no link followed
    at any step), must be the file the walk saw, and is read only up to the
    size the walk counted (a file that grew meanwhile is refused)."""
    digest = hashlib.sha256()
    target.mkdir(parents=True)
    for found in hand_in.files:
        name = "/".join(found.parts)
        digest.update(f"{name}\0{found.size}\0".encode())
        destination = target.joinpath(*found.parts)
        destination.parent.mkdir(parents=True, exist_ok=True)
        with _opened(folder, found) as source, open(destination, "xb") as written:
            left = found.size
            while left > 0:
                chunk = os.read(source, min(_CHUNK, left))
                if not chunk:
                    raise FileRefused(f"{name} shrank while it was copied")
                digest.update(chunk)
                written.write(chunk)
                left -= len(chunk)
            if os.read(source, 1):
                raise FileRefused(f"{name} grew while it was copied")
    return digest.hexdigest()


@contextlib.contextmanager
def _opened(folder: Path, found: _Found) -> Iterator[int]:
    """A descriptor of ``found``, every folder on the way opened without following a link."""
    opened: list[int] = []
    try:
        opened.append(os.open(folder, _TOP))
        for part in found.parts[:-1]:
            opened.append(os.open(part, _DIRECTORY, dir_fd=opened[-1]))
        opened.append(os.open(found.parts[-1], _FILE, dir_fd=opened[-1]))
        status = os.fstat(opened[-1])
    except OSError as error:
        raise FileRefused(f"{'/'.join(found.parts)}: cannot open it: {error.strerror or error}") from None
    else:
        if not stat.S_ISREG(status.st_mode) or (status.st_dev, status.st_ino) != found.identity:
            raise FileRefused(f"{'/'.join(found.parts)} was replaced while it was copied")
        yield opened[-1]
    finally:
        for descriptor in reversed(opened):
            os.close(descriptor)


def snapshot(folder: Path, agent_file: str, snapshots: Path, limits: HandInLimits,
             alone: bool = False) -> tuple[Path, list[str]]:
    """A copy of an entrant's ``folder`` (its ``agent_file`` ``alone``, for a
    single-file entrant) in ``snapshots``, which its games play, and what was left out of it.

    Its place depends on the folder alone (so the tournament's configuration
    does not change); its agent file ends in a comment with a hash of every
    file of the folder: an edit to any of them (a helper module, a weights
    file) changes the agent file's code identity, so that entrant's games,
    and only its, are played again; an unchanged folder keeps its copy."""
    hand_in = scan_file(folder, agent_file) if alone else scan(folder)
    if not any(found.parts == (agent_file,) and found.links == 1 for found in hand_in.files):
        raise FileRefused(f"its {agent_file} is not a regular file of its own (a link, or a hard link)")
    check_limits(hand_in, limits)
    source = folder / agent_file if alone else folder
    where = hashlib.sha256(str(source.resolve()).encode()).hexdigest()[:8]
    snapshots.mkdir(parents=True, exist_ok=True)
    target = snapshots.resolve() / f"{Path(agent_file).stem if alone else folder.name}-{where}"
    temporary = snapshots / f".{target.name}.{secrets.token_hex(4)}.tmp"
    try:
        digest = copy(folder, hand_in, temporary)
        with open(temporary / agent_file, "a") as agent:
            agent.write(f"\n# pacsim tournament: a copy of {source.resolve()}, sha256 {digest}\n")
        if _same_file(target / agent_file, temporary / agent_file):
            return target, hand_in.left_out
        # Swapped in by renames: a run killed half-way leaves the old copy, or none (made again next run), never a mix.
        old = snapshots / f".{target.name}.{secrets.token_hex(4)}.old"
        if target.exists():
            os.rename(target, old)
        os.rename(temporary, target)
        shutil.rmtree(old, ignore_errors=True)
        return target, hand_in.left_out
    finally:
        shutil.rmtree(temporary, ignore_errors=True)


def _same_file(first: Path, second: Path) -> bool:
    try:
        return first.is_file() and first.read_bytes() == second.read_bytes()
    except OSError:
        return False
