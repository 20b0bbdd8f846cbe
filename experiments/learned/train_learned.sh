#!/usr/bin/env bash
# Trains the learned Pacmen of experiments/learned_*.toml (issue 23): one
# approximate Q-learning Pacman per maze and training ghost, CS188's default
# epsilon/alpha/gamma, 1000 episodes, training seed 11.  One configuration was
# tried (nothing was tuned); the evaluation runs use other seeds.
set -euo pipefail
cd "$(dirname "$0")/.."
train() {  # layout ghost max_moves
    pacsim train -p approxq -l "$1" -g "$2" -x 1000 --seed 11 --max-moves "$3" -q \
        -o "experiments/learned/weights/approxq-$1-$2.json"
}
train optimismHalls random 300
train optimismHalls adversarial 300
for layout in smallClassic wideClassic; do
    train "$layout" random 1000
    train "$layout" directional 1000
done
