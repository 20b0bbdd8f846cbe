"""Caches that trust only their owner (issue 43 item 6): cache folders are
made private; a folder or file someone else could write is refused in one
line (as ssh refuses a loose key); only the extension module pacsim built
is loaded, checked against the digest written when it was built; and the
one key of compiled code follows every byte of what the code reads (numpy
arrays wherever they sit) and numpy's version."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from optional import needed

from pacsim.errors import UntrustedCacheError
from pacsim.fast import aot, cache_folder
from pacsim.fast.cache_folder import check_private, private_folder, user_digest

PLANTED = "open({mark!r}, 'a').write('ran\\n')  # the mark: this file's code ran\n"
EXPORTS = "from pacsim.fast.aot import available_exports; print(available_exports())"
LIBRARY = aot.MODULE_NAME + EXTENSION_SUFFIXES[0]


def test_cache_folders_are_made_private_at_every_level(tmp_path):
    folder = private_folder(tmp_path / "made" / "here")
    for level in (tmp_path / "made", folder):
        assert stat.S_IMODE(level.stat().st_mode) == 0o700, level


def test_a_build_under_a_loose_umask_is_sealed_before_it_is_checked(tmp_path):
    folder = private_folder(tmp_path / "building")
    built = folder / LIBRARY
    built.write_bytes(b"\0")
    built.chmod(0o775)  # what a compiler leaves under umask 002
    with pytest.raises(UntrustedCacheError):
        check_private(built)
    cache_folder.seal(folder)
    check_private(built)
    assert stat.S_IMODE(built.stat().st_mode) == 0o755


def test_a_folder_others_may_write_or_another_user_owns_is_refused(tmp_path, monkeypatch):
    for mode in (0o777, 0o770, 0o702):
        loose = tmp_path / f"loose{mode:o}"
        loose.mkdir()
        loose.chmod(mode)
        with pytest.raises(UntrustedCacheError, match="writable by others"):
            check_private(loose)
    mine = tmp_path / "mine"
    mine.mkdir(mode=0o755)
    check_private(mine)  # readable by others is fine: writable is not
    if os.getuid() == 0:  # root's own files are trusted by everyone: give this one to someone else
        os.chown(mine, 4242, -1)
    else:
        monkeypatch.setattr(os, "getuid", lambda: mine.stat().st_uid + 1)
    with pytest.raises(UntrustedCacheError, match="not to you"):
        check_private(mine)


def test_numbas_cache_of_the_kernel_is_not_used_in_a_folder_others_may_write(tmp_path):
    caching = needed("numba.core.caching", "pip install numba")
    from pacsim.fast.cache import flush_when_changed

    loose = tmp_path / "numba"
    loose.mkdir()
    loose.chmod(0o777)
    function = SimpleNamespace(_cache=SimpleNamespace(cache_path=str(loose)))
    assert flush_when_changed("kernel", [function], [__file__])
    assert isinstance(function._cache, caching.NullCache) and list(loose.iterdir()) == []  # no stamp written either


def exports_with_cache(cache: Path) -> subprocess.CompletedProcess:
    """A process asking for the ahead-of-time kernel's exports with ``cache`` as its cache folder."""
    environment = {key: value for key, value in os.environ.items() if key != "PACSIM_KERNEL"}
    environment["PACSIM_CACHE_DIR"] = str(cache)
    return subprocess.run([sys.executable, "-c", EXPORTS], capture_output=True, text=True, env=environment,
                          check=True)


def plant(cache: Path, mark: Path, name: str, digest: bool) -> Path:
    """A module in the kernel's folder of ``cache`` whose code leaves ``mark``, and signatures for it."""
    folder = cache / aot.module_folder().name
    folder.mkdir(parents=True)
    module = folder / name
    module.write_text(PLANTED.format(mark=str(mark)), encoding="utf-8")
    (folder / aot.SIGNATURES).write_text("{}", encoding="utf-8")
    if digest:
        (folder / aot.MODULE_DIGEST).write_text(aot.module_digest(module), encoding="ascii")
    return folder


def test_a_module_planted_in_a_world_writable_cache_is_refused(tmp_path):
    cache, mark = tmp_path / "shared", tmp_path / "ran.txt"
    folder = plant(cache, mark, f"{aot.MODULE_NAME}.py", digest=True)
    for place in (cache, folder):
        place.chmod(0o777)  # a shared cache anyone may write
    finished = exports_with_cache(cache)
    assert finished.stdout.split() == ["[]"]
    assert finished.stderr.count("\n") == 1 and "writable by others" in finished.stderr, finished.stderr
    assert not mark.exists()


def test_in_a_private_cache_only_an_extension_module_matching_its_digest_is_loaded(tmp_path):
    # A .py, even with a digest of its own bytes: never loaded by name.
    cache, mark = tmp_path / "python", tmp_path / "ran.txt"
    plant(private_folder(cache), mark, f"{aot.MODULE_NAME}.py", digest=True)
    finished = exports_with_cache(cache)
    assert finished.stdout.split() == ["[]"] and "not an extension module" in finished.stderr, finished.stderr
    # Without the digest pacsim writes when it builds one: refused before its bytes are read.
    cache = tmp_path / "undigested"
    plant(private_folder(cache), mark, LIBRARY, digest=False)
    finished = exports_with_cache(cache)
    assert finished.stdout.split() == ["[]"] and "no digest" in finished.stderr, finished.stderr
    assert not mark.exists()


def test_the_built_module_is_loaded_only_while_its_bytes_match_its_digest(tmp_path):
    built = aot.module_folder()
    if not (built / aot.MODULE_DIGEST).exists():  # the test session builds it where a C compiler is
        needed("the ahead-of-time kernel", "a C compiler (gcc) builds it")
    cache = private_folder(tmp_path / "copy")
    copy = cache / built.name
    shutil.copytree(built, copy)
    assert exports_with_cache(cache).stdout.strip() != "[]"  # the copy is the module pacsim built: loaded
    library = copy / LIBRARY
    library.write_bytes(library.read_bytes() + b"\0")  # one byte more: not what pacsim built
    finished = exports_with_cache(cache)
    assert finished.stdout.split() == ["[]"] and "do not match" in finished.stderr, finished.stderr


def test_users_compiled_code_is_never_kept_in_a_loose_cache(tmp_path, monkeypatch, capsys):
    numba = needed("numba", "pip install numba")
    from pacsim.fast.keyed_cache import _KeyedCache, keep_on_disk

    def add_one(value):
        return value + 1

    loose = tmp_path / "loose"
    loose.mkdir()
    loose.chmod(0o777)
    monkeypatch.setenv("PACSIM_CACHE_DIR", str(loose))
    assert not isinstance(keep_on_disk(numba.njit(add_one), "key")._cache, _KeyedCache)
    assert "writable by others" in capsys.readouterr().err
    monkeypatch.setenv("PACSIM_CACHE_DIR", str(tmp_path / "private"))
    assert isinstance(keep_on_disk(numba.njit(add_one), "key")._cache, _KeyedCache)
    assert stat.S_IMODE((tmp_path / "private").stat().st_mode) == 0o700


def test_a_retrained_weight_array_inside_a_tuple_changes_the_key():
    namespace: dict = {}
    exec("def evaluate(view):\n    return view.score * WEIGHTS[1][1000]\n", namespace)
    namespace["WEIGHTS"] = (1.0, np.zeros(2000))
    trained = user_digest((namespace["evaluate"],))
    retrained = np.zeros(2000)
    retrained[1000] = 1e-9
    assert repr((1.0, retrained)) == repr(namespace["WEIGHTS"])  # numpy's repr cannot tell them apart
    namespace["WEIGHTS"] = (1.0, retrained)
    assert user_digest((namespace["evaluate"],)) != trained
    keys = set()
    for weights in (np.zeros(2000), np.zeros(2000, np.float32), np.zeros((2, 1000)), [np.zeros(2000)]):
        namespace["WEIGHTS"] = (1.0, weights)
        keys.add(user_digest((namespace["evaluate"],)))
    assert len(keys) == 4  # dtype, shape and container each count


def test_the_ahead_of_time_key_changes_with_numpys_version(monkeypatch):
    before = aot.module_folder()
    monkeypatch.setattr(np, "__version__", np.__version__ + ".post1")
    cache_folder.environment_digest.cache_clear()
    try:
        assert aot.module_folder() != before
    finally:
        monkeypatch.undo()
        cache_folder.environment_digest.cache_clear()
    assert aot.module_folder() == before
