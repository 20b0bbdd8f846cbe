"""A plain Gymnasium loop on pacsim/SmallClassic-v0: tabular Q-learning on a
small hashable summary of the board, masked to legal actions.  Runs as is:
``python examples/gym_loop.py [episodes]`` (needs ``pip install 'pacsim[env]'``)."""

import sys
from collections import defaultdict

import gymnasium as gym
import numpy as np

import pacsim.env  # noqa: F401  (registers the pacsim/... ids)


def train(episodes: int = 200, seed: int = 0) -> list[float]:
    env = gym.make("pacsim/SmallClassic-v0", max_moves=200)
    q, rng, returns = defaultdict(float), np.random.default_rng(seed), []
    for episode in range(episodes):
        _, info = env.reset(seed=seed + episode)
        done, total = False, 0.0
        while not done:
            s = info["state"]
            key = (s.pacman, s.ghosts, s.food_count)  # what this toy learner looks at
            legal = np.flatnonzero(info["action_mask"])
            greedy = max(legal, key=lambda a: q[key, a])
            action = rng.choice(legal) if rng.random() < 0.1 else greedy
            _, reward, terminated, truncated, info = env.step(action)
            s2 = info["state"]
            best = 0.0 if terminated else max(q[(s2.pacman, s2.ghosts, s2.food_count), a] for a in np.flatnonzero(info["action_mask"]))
            q[key, action] += 0.2 * (reward + 0.8 * best - q[key, action])
            done, total = terminated or truncated, total + reward
        returns.append(total)
    env.close()
    return returns


if __name__ == "__main__":
    returns = train(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
    print(f"mean return, first 50 episodes {np.mean(returns[:50]):.1f}, last 50 {np.mean(returns[-50:]):.1f}")
