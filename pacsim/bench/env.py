"""The Gymnasium environment's figure: vector steps/s."""

from __future__ import annotations

import time

from pacsim.bench.report import Report


def env_figures(report: Report, steps: int = 2000, num_envs: int = 8) -> None:
    """Environment steps/s of the Gymnasium vector form on smallClassic,
    uniform random actions (an illegal one is Stop) against random
    ghosts, observations encoded."""
    try:
        from pacsim.env import make_vector_env  # gymnasium is optional
    except ImportError:
        report.skip("env: gymnasium is not installed (pip install 'pacsim[env]')")
        return
    vector = make_vector_env("smallClassic", num_envs=num_envs)
    vector.reset(seed=0)
    vector.action_space.seed(0)
    started = time.perf_counter()
    for _ in range(steps // num_envs):
        vector.step(vector.action_space.sample())
    seconds = time.perf_counter() - started
    vector.close()
    done = (steps // num_envs) * num_envs
    report.add("env", f"SyncVectorEnv x{num_envs} steps/s", done / seconds, "steps/s",
               f"{done} steps, smallClassic, random ghosts, uniform random actions")
