"""Stale compiled code, dropped: numba's cache checks only the source file of
the function it caches, not the files whose functions it inlined.

:mod:`pacsim.fast.star` and :mod:`pacsim.fast.mcts` inline the rules and
helpers of :mod:`pacsim.fast.kernel` (and the table's, the generator's);
after an edit to those files their cached machine code would still run the
old rules.  :func:`drop_stale_caches` keeps a digest of the files a module
inlines beside its cache, and deletes the module's cached code when the
digest changes (numba then compiles it again, once).
"""

from __future__ import annotations

import hashlib
from pathlib import Path


def drop_stale_caches(module_file: str, inlined: list[str]) -> None:
    """Delete ``module_file``'s numba cache when a file in ``inlined`` changed."""
    module = Path(module_file)
    cache = module.parent / "__pycache__"
    digest = hashlib.sha256(b"".join(Path(name).read_bytes() for name in inlined)).hexdigest()
    stamp = cache / f"{module.stem}.inlined"
    try:
        if stamp.read_text(encoding="ascii") == digest:
            return
    except OSError:
        pass  # no stamp yet: whatever is cached may be stale
    try:
        for stale in [*cache.glob(f"{module.stem}.*.nbi"), *cache.glob(f"{module.stem}.*.nbc")]:
            stale.unlink(missing_ok=True)
        cache.mkdir(exist_ok=True)
        stamp.write_text(digest, encoding="ascii")
    except OSError:
        pass  # a read-only install: numba caches elsewhere, or compiles each run
