"""The built-in kernel compiled ahead of time (pacsim.fast.aot, issue 38
item 1): a process that runs it imports neither numba nor llvmlite, and
it answers as numba's JIT path does, bit for bit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings

import pytest
from optional import missing, needed

needed("numba", "pip install -e '.[fast]'")

SEARCHES = """
import json, sys
from pacsim.engine import initial_state
from pacsim.engine.names import load_layout
from pacsim.fast.aot import available_exports
from pacsim.fast.game import GhostPlan, play_kernel_game
from pacsim.fast.mcts import run_mcts_request
from pacsim.fast.request import MctsRequest, SearchRequest, round_request
from pacsim.fast.search import chase_values, run_request
from pacsim.fast.transposition import KernelTable
from pacsim.search import CHANCE, MAX, MIN

layout = load_layout("smallClassic")
state = initial_state(layout)
ghost_to_move = state.successor(state.legal_moves()[0][0])
found = []
cells = layout.num_cells
for result in (run_request(state, round_request((MAX, CHANCE, CHANCE), "careful", 6, cells)),
               run_request(state, round_request((MAX, MIN, MIN), "score", 6, cells, "alphabeta", root_values=True)),
               run_request(state, round_request((MAX, CHANCE, CHANCE), "careful", 6, cells, "star2", table=500),
                           table=KernelTable(500)),
               run_request(state, round_request((MAX, CHANCE, CHANCE), "careful", 3, cells, model="adversarial")),
               chase_values(ghost_to_move, 4),
               run_mcts_request(state, MctsRequest("chance", "careful", 300, 1.4, "random", 6), 3)):
    found.append([result.value, str(result.action), result.stats.generated, result.stats.evaluated,
                  result.stats.cutoffs, [[str(move), value] for move, value in result.action_values]])
request = SearchRequest(algorithm="expectimax", kinds=(MAX, CHANCE, CHANCE), evaluation="careful", levels=3, step=3,
                        cells=layout.num_cells)
game = play_kernel_game(layout, request, False, (GhostPlan("random"), GhostPlan("adversarial")), 1, 60)
found.append([game.outcome, game.score, game.actions, [stats.generated for stats in game.search_stats]])
print(json.dumps({"found": found, "imported": sorted({"numba", "llvmlite"} & set(sys.modules)),
                  "exports": available_exports()}))
"""


def _run(kernel: str | None) -> dict:
    environment = {key: value for key, value in os.environ.items() if key != "PACSIM_KERNEL"}
    if kernel is not None:
        environment["PACSIM_KERNEL"] = kernel
    finished = subprocess.run([sys.executable, "-c", SEARCHES], capture_output=True, text=True, check=True,
                              env=environment)
    return json.loads(finished.stdout)


@pytest.fixture(scope="module")
def both_paths() -> tuple[dict, dict]:
    with warnings.catch_warnings():  # pycc is pending deprecation in numba; pacsim.fast.aot says why it still uses it
        warnings.simplefilter("ignore")
        from numba.pycc.platform import external_compiler_works

    if not external_compiler_works():
        missing("no C compiler here: the ahead-of-time kernel cannot be built (its fallback is tested below)")
    return _run(None), _run("jit")


def test_the_ahead_of_time_kernel_runs_without_numba(both_paths):
    ahead, _ = both_paths
    assert "pacsim.fast.kernel.search_root" in ahead["exports"] and "pacsim.fast.gameloop.play_slice" in ahead["exports"]
    assert ahead["imported"] == []


def test_the_jit_path_is_forced_by_its_variable(both_paths):
    _, jit = both_paths
    assert jit["exports"] == [] and "numba" in jit["imported"]


def test_both_paths_give_the_same_values_moves_and_counts(both_paths):
    ahead, jit = both_paths
    assert ahead["found"] == jit["found"]


def test_without_a_c_compiler_the_kernel_says_why_once_and_runs_just_in_time(tmp_path):
    environment = {key: value for key, value in os.environ.items() if key != "PACSIM_KERNEL"}
    environment.update(CC="/bin/false", PACSIM_CACHE_DIR=str(tmp_path))
    script = ("from pacsim.fast.search import warm_up; from pacsim.fast.aot import available_exports\n"
              "warm_up(); print(available_exports())")
    for attempt in range(2):
        finished = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                                  env=environment)
        assert finished.stdout.split() == ["[]"]
        said = [line for line in finished.stderr.splitlines() if "ahead-of-time" in line or "ahead of time" in line]
        if attempt == 0:  # the first process tries, and says why it could not
            assert len(said) == 1 and "no working C compiler" in said[0], finished.stderr
        else:  # a later one knows at once (the reason is kept beside the cache)
            assert said == [], finished.stderr
