"""The Gymnasium environment's figures: vector steps/s, in this process and in one process per copy."""

from __future__ import annotations

import time

from pacsim.bench.report import Report


def env_figures(report: Report, steps: int = 2000, num_envs: int = 8) -> None:
    """Environment steps/s of the Gymnasium vector forms (sync and async) on
    smallClassic, uniform random actions (an illegal one is Stop) against
    random ghosts, observations encoded."""
    try:
        from pacsim.env import make_vector_env  # gymnasium is optional
    except ImportError:
        report.skip("env: gymnasium is not installed (pip install 'pacsim[env]')")
        return
    for mode, kind in (("sync", "SyncVectorEnv"), ("async", "AsyncVectorEnv")):
        vector = make_vector_env("smallClassic", num_envs=num_envs, vectorization_mode=mode)
        try:
            vector.reset(seed=0)
            vector.action_space.seed(0)
            started = time.perf_counter()  # after reset: the async processes are started and warm
            for _ in range(steps // num_envs):
                vector.step(vector.action_space.sample())
            seconds = time.perf_counter() - started
        finally:
            vector.close()
        done = (steps // num_envs) * num_envs
        report.add("env", f"{kind} x{num_envs} steps/s", done / seconds, "steps/s",
                   f"{done} steps, smallClassic, random ghosts, uniform random actions")
