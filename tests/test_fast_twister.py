"""The kernel's MT19937 against Python's random.Random, draw for draw.

MCTS in the kernel must draw the very numbers the Python MCTS draws; these
are the two methods it uses (``random()`` and ``randrange(n)``), mixed as a
search mixes them, from several seeds and across many regenerations of the
624-word state.
"""

import random

import pytest

pytest.importorskip("numba")

from pacsim.fast.twister import below, next_float, restore, state_of


@pytest.mark.parametrize("seed", [0, 1, 2026, 2**40 + 7])
def test_the_kernel_draws_what_python_draws(seed):
    python = random.Random(seed)
    kernel_state = state_of(python)
    chooser = random.Random(seed + 1)  # which draw comes next, and of what range
    for _ in range(4000):
        if chooser.random() < 0.4:
            assert next_float(kernel_state) == python.random()
        else:
            count = chooser.choice((1, 2, 3, 5, 7, 64, 1000, 2**31 + 5, 2**32 - 1))
            assert below(kernel_state, count) == python.randrange(count)


def test_a_python_generator_goes_on_where_the_kernel_stopped():
    kernel_rng, python = random.Random(9), random.Random(9)
    state = state_of(kernel_rng)
    drawn = [next_float(state) for _ in range(700)]  # past one regeneration
    restore(kernel_rng, state)
    assert drawn == [python.random() for _ in range(700)]
    assert [kernel_rng.randrange(10) for _ in range(50)] == [python.randrange(10) for _ in range(50)]


def test_compiled_code_that_inlined_an_edited_file_is_dropped(tmp_path):
    from pacsim.fast.caching import drop_stale_caches

    module, rules = tmp_path / "star.py", tmp_path / "kernel.py"
    module.write_text("", encoding="utf-8")
    rules.write_text("SCORE = 1\n", encoding="utf-8")
    cache = tmp_path / "__pycache__"
    cache.mkdir()

    def cached():
        (cache / "star.search-12.py311.nbi").write_text("index", encoding="utf-8")
        (cache / "star.search-12.py311.1.nbc").write_text("code", encoding="utf-8")

    cached()
    drop_stale_caches(str(module), [str(rules)])  # no stamp yet: dropped
    assert not list(cache.glob("star.*.nb*"))
    cached()
    drop_stale_caches(str(module), [str(rules)])  # nothing changed: kept
    assert len(list(cache.glob("star.*.nb*"))) == 2
    rules.write_text("SCORE = 2\n", encoding="utf-8")
    drop_stale_caches(str(module), [str(rules)])  # the rules changed: dropped
    assert not list(cache.glob("star.*.nb*"))
