import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

# numba compiles the kernel on its first use in a checkout (over a minute of
# CPU: the search, Star1/Star2 with tables, MCTS, the whole-game loop) and
# caches it beside the sources.  Left to the tests, both pytest-xdist workers
# (and each worker pool a test starts) would compile it again; compiled here
# once, in two processes at once, before any worker starts, every later
# process only loads it.
KERNEL_WARM_UPS = (
    "from pacsim.fast.search import warm_up; warm_up(star=True)",
    "from pacsim.fast.mcts import warm_up; warm_up(); from pacsim.cli import main; "
    "main(['reproduce', '--games', '1', '--set', 'max_moves=5', '-j', '1', '-q', '--store', {store!r}])",
)


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session):
    from pacsim.fast import available

    if hasattr(session.config, "workerinput") or available() is not None:
        return  # an xdist worker (the controller warmed up), or no numba
    if os.environ.get("PACSIM_BACKEND", os.environ.get("PACSIM_ENGINE")) == "python":
        return
    root = str(Path(__file__).resolve().parent.parent)
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))}
    with tempfile.TemporaryDirectory() as folder:
        codes = [code.format(store=str(Path(folder) / "warm-up.sqlite")) for code in KERNEL_WARM_UPS]
        warm_ups = [subprocess.Popen([sys.executable, "-c", code], cwd=folder, env=environment,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for code in codes]
        for warm_up in warm_ups:
            warm_up.wait()  # a failure shows again, clearly, in the tests that use the kernel


@pytest.fixture
def ctrl_c_delivered():
    """SIGINT raising KeyboardInterrupt during the test, in this process and
    in the processes it starts (an exec resets a handler to the default, but
    keeps an ignored signal ignored): a test suite started with SIGINT ignored
    (a background job, some CI runners) would otherwise wait forever for a
    Ctrl-C that never arrives."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
