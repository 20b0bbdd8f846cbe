"""``pacsim bench``: the speed and memory figures, measured in one run, and
the kernel-against-Python agreement check.

Absolute times on shared machines are noisy, so every figure that matters is
also given as a ratio measured in the same run (pruned nodes / plain nodes,
all cores / 1 worker).  Positions are fixed: they come from seeded games
(:mod:`pacsim.bench.positions`), so every run searches the same trees.

One module per group of figures (:mod:`~pacsim.bench.search`,
:mod:`~pacsim.bench.fast`, :mod:`~pacsim.bench.memory`, ...); the whole run is
:func:`pacsim.bench.suite.run`, and the command ``pacsim bench``
:mod:`pacsim.bench.command`.  This package sits at the top, above the CLI:
it plays games, runs experiments and measures the commands themselves, and
nothing below it imports it (the CLI loads its command by name).

This file imports nothing, so that the memory probe's fresh interpreter
(:mod:`pacsim.bench.memory`) loads only what a run loads.
"""
