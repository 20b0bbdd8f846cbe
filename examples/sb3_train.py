"""Stable-Baselines3 on pacsim/SmallClassic-v0 (SB3 is not a pacsim dependency:
``pip install stable-baselines3``).  ``python examples/sb3_train.py [steps]``."""

import sys

import gymnasium as gym
from stable_baselines3 import PPO

import pacsim.env  # noqa: F401  (registers the pacsim/... ids)

steps = int(sys.argv[1]) if len(sys.argv) > 1 else 50_000
env = gym.wrappers.FlattenObservation(gym.make("pacsim/SmallClassic-v0", max_moves=300))
model = PPO("MlpPolicy", env, seed=0, verbose=0).learn(total_timesteps=steps)
observation, _ = env.reset(seed=1)
done, score = False, 0.0
while not done:
    action, _ = model.predict(observation, deterministic=True)
    observation, reward, terminated, truncated, _ = env.step(int(action))
    done, score = terminated or truncated, score + reward
print(f"one greedy game after {steps} steps: score {score:.0f}")
