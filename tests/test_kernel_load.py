"""Loading the compiled kernel (issue 38 item 1): what a process pays
before its first compiled search, and what it does not pay."""

from __future__ import annotations

import os
import subprocess
import sys

from optional import needed

needed("numba", "pip install -e '.[fast]'")

FIRST_SEARCH = """
import sys
from pacsim.engine import parse_layout
from pacsim.engine.state import initial_state
from pacsim.fast.request import round_request
from pacsim.fast.search import run_request
from pacsim.search import MAX, MIN
state = initial_state(parse_layout("%%%%%\\n%P.G%\\n%%%%%\\n", name="load"))
run_request(state, round_request((MAX, MIN), "careful", 2, state.layout.num_cells))
print("scipy.linalg" in sys.modules)
"""


def test_the_first_kernel_search_does_not_import_scipy_linalg():
    """numba imports scipy.linalg (0.75 s) at its first load only to learn
    whether BLAS is there; the kernel needs no BLAS (numba's JIT path: the
    ahead-of-time kernel imports no numba at all, tests/test_kernel_aot.py)."""
    environment = {**os.environ, "PACSIM_KERNEL": "jit"}
    finished = subprocess.run([sys.executable, "-c", FIRST_SEARCH], capture_output=True, text=True, check=True,
                              env=environment)
    assert finished.stdout.split() == ["False"], finished.stderr


def test_a_process_with_numba_loaded_does_not_build_the_ahead_of_time_kernel(tmp_path):
    """A process that has imported numba (for a user's code) takes the JIT
    path for the built-in kernel too when no ahead-of-time module is there:
    building one would save it nothing."""
    script = "import numba\n" + FIRST_SEARCH + "from pacsim.fast.aot import available_exports\nprint(available_exports())"
    environment = {key: value for key, value in os.environ.items() if key != "PACSIM_KERNEL"}
    environment["PACSIM_CACHE_DIR"] = str(tmp_path)
    finished = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                              env=environment)
    assert finished.stdout.split() == ["False", "[]"], finished.stderr
    assert "ahead of time" not in finished.stderr and list(tmp_path.iterdir()) == []


def test_numba_still_reaches_blas_when_a_function_asks_for_it():
    """What the kernel leaves out at load comes back where a compiled function uses it."""
    script = ("import numpy as np, numba, pacsim.fast.kernel\n"
              "print(numba.njit(lambda a, b: np.dot(a, b))(np.ones(3), np.arange(3.0)))")
    finished = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert finished.stdout.strip() == "3.0"
