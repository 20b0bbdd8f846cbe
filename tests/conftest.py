import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import suppress
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
# Python's default, whatever the environment says (some images set
# PYTHONDONTWRITEBYTECODE): bytecode is written, as on users' machines.  The
# Python processes the suite starts (the CLI, worker pools, the warm-up)
# then load pacsim's modules instead of compiling them each time, and a
# second run loads the tests' rewritten assertions (about 4 s of CPU a worker).
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

# numba compiles the kernel on its first use in a checkout (about a minute
# of CPU: the search, Star1/Star2 with tables, MCTS, the whole-game loop) and
# caches it beside the sources.  Left to the tests, both pytest-xdist workers
# (and each worker pool a test starts) would compile it again; compiled here
# once, in two processes at once (numba's JIT path), every later process
# only loads it; the ahead-of-time kernel is then built from that cache in
# one more process.  The second process compiles MCTS (and the rules tests
# call one by one) while the first compiles the plain search, then waits for
# it: the whole-game loop links that search, which it would otherwise
# compile again (about 9 s of CPU).
# The workers collect the tests meanwhile (from a fresh checkout about 6 s of
# CPU for the first, 3 s for each other: :func:`pytest_collection`), in its
# gaps (:data:`WORKER_NICENESS`), and wait for the warm-up before each test
# (:func:`pytest_runtest_setup`): the modules that compile copies of the
# kernel around users' functions (:data:`COMPILING_FIRST`) wait only for the
# just-in-time kernel they copy, and run beside the ahead-of-time build;
# every other test waits for that build too (a sandboxed child is shown it,
# some tests read it).
PLAIN_SEARCH_READY = "plain-search-ready"
RULES_AS_THE_TESTS_CALL_THEM = """
try:  # the kernel's rules and evaluations that tests call one by one (test_fast, test_evaluations): a few seconds
    import numpy as np
    from pacsim.engine import initial_state, parse_layout
    from pacsim.fast import kernel, star
    from pacsim.fast.kinds import Evaluation, NodeKind
    from pacsim.fast.maze_arrays import layout_tables, state_row, words_for
    from pacsim.fast.translate import settings_row

    layout = parse_layout("%%%%%\\n%P.G%\\n%%%%%\\n", name="warm-up")
    state, tables = initial_state(layout), layout_tables(layout)
    row, ghosts, words = state_row(state), len(state.ghosts), words_for(layout)
    actions, targets = np.zeros(5, np.int64), np.zeros(5, np.int64)
    kernel.legal_moves(tables.moves, ghosts, row, actions, targets)
    kernel.apply_move(tables.ghost_starts, ghosts, words, row, np.zeros_like(row), int(actions[0]), int(targets[0]))
    kernel.perft(tables.moves, tables.ghost_starts, ghosts, words, row, 2)
    settings = settings_row(state, int(Evaluation.CAREFUL), 1, 0, False, (int(NodeKind.MAX), int(NodeKind.CHANCE)))
    kernel.evaluate(tables.distance, tables.nearest, settings, row)
    kernel.utility(settings, row)
    star.leaf_bounds(tables.distance, settings, row, 2)
except Exception:
    pass  # the tests compile what is missing
"""
KERNEL_WARM_UPS = (
    "from pathlib import Path\n"
    "from pacsim.fast.search import warm_up\n"
    "try:\n"
    "    warm_up()\n"
    "finally:\n"
    f"    Path({PLAIN_SEARCH_READY!r}).touch()\n"
    "warm_up(star=True)\n",
    "import time\n"
    "from pathlib import Path\n"
    "from pacsim.fast.mcts import warm_up\n"
    "warm_up()\n"
    f"{RULES_AS_THE_TESTS_CALL_THEM}\n"
    "deadline = time.monotonic() + 600\n"
    f"while not Path({PLAIN_SEARCH_READY!r}).exists() and time.monotonic() < deadline:\n"
    "    time.sleep(0.05)\n"
    "from pacsim.cli import main\n"
    "main(['reproduce', '--games', '1', '--set', 'max_moves=5', '-j', '1', '-q', '--store', 'warm-up.sqlite'])\n",
)
WARM_UP_DONE = "PACSIM_TESTS_WARM_UP_DONE"
"""The file the controller creates when the warm-up has ended (its path, inherited by the xdist workers)."""
JIT_DONE = ".jit"
"""The suffix of the file the controller creates once the just-in-time kernel is compiled (before the
ahead-of-time build)."""

AHEAD_OF_TIME = "from pacsim.fast.aot import available_exports; available_exports()"
"""Builds the ahead-of-time kernel (pacsim.fast.aot) unless it is there:
from numba's warm cache a few seconds, where each test process that needs
it would otherwise wait on the first one's build."""


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session):
    from pacsim.fast import available

    if hasattr(session.config, "workerinput") or available() is not None:
        return  # an xdist worker (the controller warms up), or no numba
    if os.environ.get("PACSIM_BACKEND", os.environ.get("PACSIM_ENGINE")) == "python":
        return
    root = str(Path(__file__).resolve().parent.parent)
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))}
    folder = tempfile.mkdtemp(prefix="pacsim-warm-up-")
    done = Path(folder) / "done"
    warm_ups = [subprocess.Popen([sys.executable, "-c", code], cwd=folder, env={**environment, "PACSIM_KERNEL": "jit"},
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for code in KERNEL_WARM_UPS]

    def wait_for_warm_ups() -> None:
        for warm_up in warm_ups:
            warm_up.wait()  # a failure shows again, clearly, in the tests that use the kernel
        Path(f"{done}{JIT_DONE}").touch()
        if os.environ.get("PACSIM_KERNEL") != "jit":  # then the ahead-of-time kernel, linked from numba's cache just filled
            subprocess.run([sys.executable, "-c", AHEAD_OF_TIME], cwd=folder, env=environment,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        done.touch()

    waiting = threading.Thread(target=wait_for_warm_ups, name="kernel warm-up", daemon=True)
    waiting.start()
    os.environ[WARM_UP_DONE] = str(done)  # before xdist starts its workers (its sessionstart runs last)

    def clean_up() -> None:  # a run that ends early (--collect-only, an error) leaves no process behind
        waiting.join()
        shutil.rmtree(folder, ignore_errors=True)

    session.config.add_cleanup(clean_up)


@pytest.hookimpl(optionalhook=True)  # a run without xdist (-p no:xdist) has no such hook
def pytest_xdist_auto_num_workers(config):
    """``-n auto`` (pyproject's addopts): one worker more than the cores.  A third of the tests' time is
    spent waiting (on sandboxed children, servers, a browser, time limits), when a core would idle; on
    two cores a third worker ran the suite about 5% faster than two (124.6 and 126.6 s against 130.9
    and 133.1 s, interleaved runs)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # xdist reads it
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return cores + 1


WORKER_NICENESS = 10
"""How much lower than the warm-up an xdist worker runs until the just-in-time kernel is compiled:
the warm-up's compiling is the run's longest chain, and the workers'
collection then fills its gaps instead of slowing it by a third."""


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    done = os.environ.get(WARM_UP_DONE)
    if hasattr(config, "workerinput") and done and _may_take_priority_back():
        os.nice(WORKER_NICENESS)
        worker = threading.main_thread().native_id  # a priority is a thread's: the one that collects and tests

        def take_priority_back() -> None:  # once the kernel is compiled, beside the ahead-of-time build
            _wait_for(Path(f"{done}{JIT_DONE}"))
            with suppress(PermissionError):
                os.setpriority(os.PRIO_PROCESS, worker, 0)

        threading.Thread(target=take_priority_back, name="priority back", daemon=True).start()


def _may_take_priority_back() -> bool:
    """Whether this process may lower its niceness again (root, as in CI, or a
    generous ``RLIMIT_NICE``): elsewhere the workers keep their priority throughout."""
    import resource

    limit = getattr(resource, "RLIMIT_NICE", None)  # Linux's
    return os.geteuid() == 0 or (limit is not None and resource.getrlimit(limit)[0] >= 20)


COLLECTED = ".collected"
"""The suffix of the file the first xdist worker creates once it has collected the tests."""


@pytest.hookimpl(tryfirst=True)
def pytest_collection(session):
    """During the warm-up, the other workers collect after the first: pytest rewrites each test module's
    assertions once and keeps the result as bytecode (about 3 s of CPU from a fresh checkout), which
    they then load instead of rewriting it each, still well before the first test."""
    done = os.environ.get(WARM_UP_DONE)
    if done and _worker(session.config) not in (None, FIRST_WORKER):
        _wait_for(Path(f"{done}{COLLECTED}"), Path(f"{done}{JIT_DONE}"), seconds=60)


def pytest_collection_finish(session):
    done = os.environ.get(WARM_UP_DONE)
    if done and _worker(session.config) == FIRST_WORKER:
        Path(f"{done}{COLLECTED}").touch()


FIRST_WORKER = "gw0"


def _worker(config) -> str | None:
    """This xdist worker's id (``gw0``, ``gw1``, ...), None outside one."""
    return getattr(config, "workerinput", {}).get("workerid")


def _wait_for(*paths: Path, seconds: float = 600) -> None:
    """Until one of ``paths`` exists (at most ``seconds``)."""
    deadline = time.monotonic() + seconds
    while not any(path.exists() for path in paths) and time.monotonic() < deadline:
        time.sleep(0.05)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    """Wait for the kernel's warm-up before a test (in an xdist worker, or in
    the only process of a run without xdist): for a :data:`COMPILING_FIRST`
    module's, the just-in-time kernel; for any other's, the whole warm-up."""
    done = os.environ.get(WARM_UP_DONE)
    if done is None:
        return  # no warm-up
    if item.path.name in COMPILING_FIRST:
        _wait_for(Path(f"{done}{JIT_DONE}"))
        return
    _wait_for(Path(done))
    global _looked_again
    if not _looked_again:
        _looked_again = True
        _look_again_for_the_ahead_of_time_kernel()


_looked_again = False


def _look_again_for_the_ahead_of_time_kernel() -> None:
    """A process keeps its first answer to whether the ahead-of-time kernel is
    there (:mod:`pacsim.fast.aot`), and one with numba loaded does not build it:
    a worker that ran a :data:`COMPILING_FIRST` test during the build keeps
    "none", and would run every later test just in time (and fail the tests
    that check the module).  It looks again once the build has ended."""
    from pacsim.fast import aot

    if aot._exports.cache_info().currsize and aot._exports() is None:  # a module loaded already is kept
        aot._exports.cache_clear()


COMPILING_FIRST = ("test_own_searches.py", "test_own.py")
"""Modules whose tests compile the copy of the kernel's plain search around a
user's own evaluation (about 5 s of CPU; every other copy is ``pacsim
bench``'s agreement group), run first and together:
pytest-xdist's work-stealing hands each worker a contiguous share of the
collection at the start and steals from its tail, so these stay in one
worker and their long tests do not end the run.  (Each copy is compiled
once a run: pacsim.fast.keyed_cache keeps it
on disk for the other workers and the processes the tests start.)"""


AFTER_THE_COPIES = ("test_examples.py",)
"""Modules run right after :data:`COMPILING_FIRST`, in the same worker's share: a documented example
plays with the example evaluation around which test_own.py compiles the kernel's copy.  Where a third
worker's share began with it, it compiled that copy a second time beside them (about 4 s of CPU)."""


def pytest_collection_modifyitems(session, config, items):
    rank = {name: index for index, name in enumerate(COMPILING_FIRST + AFTER_THE_COPIES)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: the rest keep their order
    items[:] = _browser_modules_in_one_share(items, int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")))


def _browser_modules_in_one_share(items: list, workers: int) -> list:
    """``items`` with every module that uses the :func:`browser` moved, whole, to the start of the last
    worker's share.  Each worker starts its own Chromium for its first browser test and keeps it until
    the run ends (measured alone: about 1.2 s of CPU to start, then 0.015 s a second idle): the three the
    shares started, alive 17-137 s, cost about 7 s of CPU beyond their pages' work, one about 3.  At the
    start of a share, not at the end of the collection: a worker that runs out of tests takes
    half of the longest queue from its tail, which would start a second browser late in the run.  The
    shares are pytest-xdist's work-stealing split (each worker in turn gets an equal part of what is left);
    were that to change, only the saving would be lost."""
    browser_modules = {item.path for item in items if "browser" in getattr(item, "fixturenames", ())}
    if workers < 2 or not browser_modules:
        return items
    last_share_start, left = 0, len(items)
    for remaining in range(workers, 1, -1):
        last_share_start, left = last_share_start + left // remaining, left - left // remaining
    browsing = [item for item in items if item.path in browser_modules]
    others = [item for item in items if item.path not in browser_modules]
    at = min(last_share_start, len(others))
    return others[:at] + browsing + others[at:]


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


def pytest_terminal_summary(terminalreporter, config):
    # pyproject's addopts leave the sb3 test out; with xdist the closing line does not count it as deselected.
    if config.option.markexpr == "not sb3":
        terminalreporter.write_line("left out: the Stable-Baselines3 example's test (it needs torch, GBs); pytest -m sb3 runs it")


@pytest.fixture
def linux_proc():
    """Linux's /proc (the tests that count a process's threads or workers read it)."""
    from optional import missing

    if not Path("/proc/self/task").exists():
        missing("reads Linux's /proc")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    _no_silent_skip(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    outcome = yield
    _no_silent_skip(outcome.get_result())


def _no_silent_skip(report) -> None:
    """Under CI=true a skip is a failure, however it was raised (a bare ``pytest.skip``, a ``skipif`` mark, an
    ``importorskip``): CI installs every optional part (.ci/run), so a test that skips there tested nothing."""
    from optional import IN_CI, NOT_IN_CI

    if IN_CI and report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        if NOT_IN_CI in reason:
            return
        report.outcome = "failed"
        report.longrepr = f"skipped under CI=true, where every optional part is installed: {reason}"


CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
BROWSER_WINDOW = (1200, 900)
"""The inner size of the browser's window: the width the pages are checked at."""


@pytest.fixture(scope="session")
def browser(tmp_path_factory):
    """Debian's headless Chromium, one for the whole run (each xdist worker has
    its own): starting one takes a second.  Tests that change its window size
    put it back."""
    from optional import missing, needed

    webdriver = needed("selenium.webdriver", "pip install -e '.[browser]'")
    from selenium.webdriver.chrome.service import Service

    if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
        missing(f"needs {CHROMIUM} and {CHROMEDRIVER}: apt-get install chromium chromium-driver")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    width, height = BROWSER_WINDOW
    # --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                     f"--window-size={width},{height}", f"--user-data-dir={tmp_path_factory.mktemp('chromium')}"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    fit_window(driver, width, height)
    yield driver
    driver.quit()


@pytest.fixture(autouse=True)
def fresh_browser_log(request):
    """A browser test reads only its own console: what an earlier test's page logged late (a favicon asked of a
    server that test has stopped) is read away first.  After the test the browser shows a blank page: a page
    left polling or playing would go on working, beside the other workers' tests, until the next one loads."""
    if "browser" not in request.fixturenames:
        yield
        return
    driver = request.getfixturevalue("browser")
    driver.get_log("browser")
    yield
    driver.get("about:blank")


def fit_window(driver, width: int, height: int) -> None:
    """Make the page's viewport ``width`` x ``height`` (the window's frame takes some of --window-size)."""
    driver.set_window_size(width, height)
    inner_width, inner_height = driver.execute_script("return [window.innerWidth, window.innerHeight]")
    driver.set_window_size(2 * width - inner_width, 2 * height - inner_height)
