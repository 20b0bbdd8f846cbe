"""Users' compiled code built once per version (issue 38 item 2): kept on
disk by :mod:`pacsim.fast.keyed_cache`, stamped with what makes its machine
code, loaded by a later process, never when the function has changed; and
named by what it is made of, never by a count kept per process (numba #10486)."""

from __future__ import annotations

import marshal
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from optional import needed

needed("numba", "pip install -e '.[fast]'")

from pacsim.fast import kernel
from pacsim.fast.cache_folder import user_digest
from pacsim.fast.own import content_name, uncached

EVALUATION = """
import pacsim

@pacsim.kernel_evaluation
def mine(view):
    return view.score + {bonus}
"""
COMPILE_AND_CALL = """
import sys
sys.path.insert(0, sys.argv[1])
from mine import mine as function
from pacsim.engine import parse_layout
from pacsim.engine.state import initial_state
from pacsim.fast.own import compiled
from pacsim.fast.view import view_of

dispatcher, reason = compiled(function)
value = dispatcher(view_of(initial_state(parse_layout("%%%%%\\n%P.G%\\n%%%%%\\n", name="cache"))))
print(value, sum(dispatcher.stats.cache_hits.values()), sum(dispatcher.stats.cache_misses.values()))
"""


def _run(folder: Path, cache: Path) -> list[str]:
    environment = {**os.environ, "PACSIM_CACHE_DIR": str(cache)}
    finished = subprocess.run([sys.executable, "-c", COMPILE_AND_CALL, str(folder)],
                              capture_output=True, text=True, env=environment, check=True)
    return finished.stdout.split()


def test_a_second_process_loads_the_function_and_an_edited_one_compiles_afresh(tmp_path):
    source = tmp_path / "mine.py"
    source.write_text(EVALUATION.format(bonus=1))
    cache = tmp_path / "cache"
    assert _run(tmp_path, cache) == ["1", "0", "1"]  # compiled: a miss
    assert _run(tmp_path, cache) == ["1", "1", "0"]  # loaded from the disk: a hit
    source.write_text(EVALUATION.format(bonus=2))  # same name, same size: only the stamp tells them apart
    assert _run(tmp_path, cache) == ["2", "0", "1"]  # the stale code is not loaded


def _function_of(module_code: Any) -> Any:
    namespace = {"__name__": "mine"}
    exec(module_code, namespace)
    return namespace["mine"]


def test_a_functions_stamp_is_the_same_compiled_from_its_source_or_loaded_from_bytecode():
    """Python writes bytecode by default: a user's first run compiles the
    file from its source, the next loads it from ``__pycache__``; the same
    code must be stamped alike (marshal's bytes differ between the two), and
    a frozenset among its constants alike whatever its order (it follows the
    process's hash seed)."""
    code = compile("def mine(view):\n    return view.score + (1.0 if view.turn in {0, 8} else 0.0)\n",
                   "/nowhere/mine.py", "exec")
    from_source, from_bytecode = _function_of(code), _function_of(marshal.loads(marshal.dumps(code)))
    assert user_digest((from_source,)) == user_digest((from_bytecode,))
    function_code = from_source.__code__
    [members] = [constant for constant in function_code.co_consts if isinstance(constant, frozenset)]
    reordered = frozenset(sorted(members, reverse=list(members) == sorted(members)))
    assert list(reordered) != list(members)
    other = _function_of(code)
    other.__code__ = function_code.replace(co_consts=tuple(reordered if constant is members else constant
                                                           for constant in function_code.co_consts))
    assert user_digest((other,)) == user_digest((from_source,))
    other.__code__ = function_code.replace(co_consts=tuple(frozenset({0, 9}) if constant is members else constant
                                                           for constant in function_code.co_consts))
    assert user_digest((other,)) != user_digest((from_source,))  # a different constant is a different stamp


def test_copies_are_named_by_what_they_are_made_of_never_by_a_count():
    """Two copies made of the same functions are named alike (the same
    code), copies made of others apart, and never as their original: numba
    may then link either body of a name (#10486) without mixing two up."""
    first = uncached(kernel.node_value, {"evaluate": kernel.utility})
    again = uncached(kernel.node_value, {"evaluate": kernel.utility})
    other = uncached(kernel.node_value, {"evaluate": kernel.evaluate})
    assert first.py_func.__qualname__ == again.py_func.__qualname__
    assert other.py_func.__qualname__ != first.py_func.__qualname__
    assert kernel.node_value.py_func.__qualname__ not in {first.py_func.__qualname__, other.py_func.__qualname__}


def test_closures_made_around_two_functions_are_named_apart():
    def made(part: object) -> str:
        def inner() -> None:
            return None
        return content_name(inner, part).__qualname__

    assert made(kernel.evaluate) != made(kernel.utility)
    assert made(kernel.evaluate) == made(kernel.evaluate)
