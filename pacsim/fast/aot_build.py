"""Build the ahead-of-time kernel module (:mod:`pacsim.fast.aot`):
``python -m pacsim.fast.aot_build FOLDER``.

The entries and the types they are called with are learned from the code
that calls them: a few small searches, games and MCTS runs go through the
usual Python path with a recorder set (:func:`pacsim.fast.jit.recording`),
which takes each entry's arguments instead of running it.  Each entry is
exported as a small function calling the kernel's own (compiled with its
own options, ``_nrt=False`` included), with the signature numba types
those arguments as.  The module is built in a temporary folder beside
``FOLDER`` and renamed to it, so a reader sees all of it or nothing.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import suppress
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Any

from pacsim.fast.aot import (
    COMPILING,
    KERNEL_ENVIRONMENT,
    MODULE_DIGEST,
    MODULE_NAME,
    SIGNATURES,
    fingerprint,
    function_name,
    module_digest,
)
from pacsim.fast.cache_folder import private_folder, seal
from pacsim.fast.jit import Compiled, Recorded, materialize, recording

Entry = tuple[Compiled, tuple[Any, ...]]


def recorded_entries() -> list[Entry]:
    """Each kernel entry Python calls, once per distinct argument types, with example arguments."""
    entries: list[Entry] = []

    def record(function: Any, arguments: tuple[Any, ...]) -> None:
        if isinstance(function, Compiled):
            entries.append((function, arguments))

    recording(record)
    try:
        for example in _examples():
            with suppress(Recorded):  # the entry it reached was recorded, not run
                example()
    finally:
        recording(None)
    entries.extend(_direct_entries(entries))
    unique: dict[str, Entry] = {}
    for function, arguments in entries:
        unique.setdefault(repr((function_name(function), fingerprint(arguments))), (function, arguments))
    return list(unique.values())


def _examples() -> Iterator[Callable[[], object]]:
    """Calls that reach every entry, with the types the real calls pass."""
    from pacsim.engine import initial_state, parse_layout
    from pacsim.fast.game import GhostPlan, play_kernel_game
    from pacsim.fast.mcts import WARM_UP, run_mcts_request
    from pacsim.fast.request import round_request
    from pacsim.fast.search import chase_values, run_request
    from pacsim.fast.transposition import KernelTable
    from pacsim.search import CHANCE, MAX, MIN

    layout = parse_layout("%%%%%%\n%P.oG%\n%%%%%%\n", name="aot-example")
    state = initial_state(layout)
    cells = layout.num_cells
    yield lambda: run_request(state, round_request((MAX, CHANCE), "careful", 2, cells))
    yield lambda: run_request(state, round_request((MAX, MIN), "careful", 2, cells, "alphabeta"))
    yield lambda: chase_values(state.successor(state.legal_moves()[0][0]), 2)
    yield lambda: run_request(state, round_request((MAX, CHANCE), "careful", 2, cells, "star2", table=16),
                              table=KernelTable(16))
    yield lambda: run_request(state, round_request((MAX, CHANCE), "careful", 2, cells, "star1"))
    yield lambda: run_request(state, round_request((MAX, CHANCE), "careful", 2, cells, model="adversarial"))
    request = round_request((MAX, CHANCE), "careful", 2, cells)
    yield lambda: play_kernel_game(layout, request, False, (GhostPlan("random"),), 1, 10)
    yield lambda: run_mcts_request(state, WARM_UP, 0)


def _direct_entries(entries: list[Entry]) -> list[Entry]:
    """The entries Python calls outside a slice loop, with arguments made
    of the recorded ones: the maze's distances, the table's upkeep, MCTS's root."""
    from pacsim.fast import kernel, mcts, star, transposition

    found: list[Entry] = []
    for function, arguments in entries:
        if function is kernel.search_root:
            found.append((kernel.breadth_first_distances, (arguments[0].moves,)))
        if function is mcts.mcts_iterations:
            tables, settings, tree, run = arguments
            found.append((mcts.new_node, (tables, settings, tree, run.counts, 0, 0)))
        if function is star.star_search_root and arguments[2].use_table:
            table = arguments[2].table
            found.append((transposition.needs_room, (table, 2)))
            found.append((transposition._rebuild_index, (table[0], table[2], 0)))
    return found


def _export_source(count: int) -> str:
    names = ", ".join(f"a{index}" for index in range(count))
    return f"def entry({names}):\n    return target({names})\n"


def build(folder: Path) -> None:
    """Compile the module into ``folder`` (atomically: built beside it, then renamed)."""
    from numba import typeof
    from numba.pycc import CC
    from numba.pycc.platform import external_compiler_works

    if not external_compiler_works():  # said at once, before a minute of compiling
        raise SystemExit("no working C compiler: numba.pycc links the module with one (set CC, or install gcc)")
    print(COMPILING, flush=True)
    materialize()
    entries = recorded_entries()
    _fill_numba_cache(entries)
    private_folder(folder.parent)
    building = Path(tempfile.mkdtemp(prefix=f"{folder.name}.building-", dir=folder.parent))
    try:
        compiler = CC(MODULE_NAME)
        compiler.output_dir = str(building)
        compiler.target_cpu = "host"  # built on the machine that runs it (the key names the CPU)
        signatures: dict[str, Any] = {}
        for number, (function, arguments) in enumerate(entries):
            namespace: dict[str, Any] = {"target": function}
            exec(_export_source(len(arguments)), namespace)  # a fixed template: a function calling the entry
            export = f"{function.__name__.lstrip('_')}_{number}"
            compiler.export(export, tuple(typeof(argument) for argument in arguments))(namespace["entry"])
            signatures[export] = [function_name(function), fingerprint(arguments)]
        compiler.compile()
        (building / SIGNATURES).write_text(json.dumps(signatures), encoding="utf-8")
        for leftover in building.glob("*.o"):
            leftover.unlink()
        [library] = [path for path in building.iterdir() if path.name.endswith(tuple(EXTENSION_SUFFIXES))]
        (building / MODULE_DIGEST).write_text(module_digest(library), encoding="ascii")  # what a loader checks
        seal(building)
        os.replace(building, folder)
    finally:
        shutil.rmtree(building, ignore_errors=True)


HELPED = ("pacsim.fast.star", "pacsim.fast.mcts")
"""The modules whose entries a second process compiles into numba's cache
while the builder compiles the others (the two halves share no entry):
pycc then links what numba has cached, so on two cores the build's
compiling is shared out (from an empty numba cache, about a minute of
CPU: most of it this)."""
HELPING = "--fill-cache"


def _fill_numba_cache(entries: list[Entry]) -> None:
    """Compile every entry with numba (its cache keeps it): the
    :data:`HELPED` modules' in a second process at once, the rest here."""
    helper = subprocess.Popen([sys.executable, "-m", "pacsim.fast.aot_build", HELPING],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _compile(entries, helped=False)
    finally:
        helper.wait()  # whatever it did not compile, pycc compiles itself


def _compile(entries: list[Entry], helped: bool) -> None:
    """Compile the entries of the :data:`HELPED` modules (``helped``) or of the others with numba."""
    for function, arguments in entries:
        if (function.__module__ in HELPED) == helped:
            dispatcher = function.dispatcher()
            dispatcher.compile(tuple(dispatcher.typeof_pyval(argument) for argument in arguments))


def main(arguments: list[str]) -> int:
    os.environ[KERNEL_ENVIRONMENT] = "jit"  # this process records the entries, never loads a module
    if arguments == [HELPING]:
        materialize()
        _compile(recorded_entries(), helped=True)
        return 0
    build(Path(arguments[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
