"""``pacsim train``: train a learning Pacman into a weights file, resumably.

``pacsim train -p approxq -l smallClassic -g random --episodes 500 --out approxq.json``
then ``pacsim play -p approxq:weights=approxq.json``.  Running the same
command again after an interruption goes on from the file's last save.
"""

from __future__ import annotations

import argparse
from collections import deque
from pathlib import Path

from pacsim.agents.training import KINDS, TrainingSettings, train
from pacsim.engine import DEFAULT_MAX_MOVES, GameState
from pacsim.errors import ConfigError
from pacsim.files import check_output

RECENT = 100
"""Episodes the closing win rate is taken over."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-p", "--pacman", default="approxq", choices=KINDS, help="what to train (default approxq)")
    parser.add_argument("-l", "--layout", default="smallClassic", help="shipped name, .lay path or generated: spec")
    parser.add_argument("-g", "--ghosts", default="random", help="ghost spec (default random)")
    parser.add_argument("--ghost-args", default="", help="ghost options, key=value,...")
    parser.add_argument("-k", "--num-ghosts", dest="num_ghosts", type=int, default=None, help="ghosts to use (default all)")
    parser.add_argument("-x", "--episodes", "--numTraining", dest="episodes", type=int, default=500,
                        help="training episodes in all, counting those a resumed file already has (default 500)")
    parser.add_argument("--epsilon", type=float, default=0.05, help="exploration rate (default 0.05)")
    parser.add_argument("--alpha", type=float, default=0.2, help="learning rate (default 0.2)")
    parser.add_argument("--gamma", type=float, default=0.8, help="discount (default 0.8)")
    parser.add_argument("--seed", type=int, default=0, help="training seed (default 0)")
    parser.add_argument("--max-moves", type=int, default=DEFAULT_MAX_MOVES, help="Pacman moves before an episode is cut")
    parser.add_argument("--save-every", type=int, default=100, help="episodes between saves (default 100)")
    parser.add_argument("-o", "--out", required=True, help="the weights file (resumed when it exists)")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    if args.episodes < 1 or args.save_every < 1:
        raise ConfigError("--episodes and --save-every must be at least 1")
    check_output(args.out, "--out", inputs=[args.layout])  # the weights file itself is resumed, so not an input here
    settings = TrainingSettings(kind=args.pacman, layout=args.layout, ghosts=args.ghosts, ghost_args=args.ghost_args,
                                num_ghosts=args.num_ghosts, epsilon=args.epsilon, alpha=args.alpha, gamma=args.gamma,
                                seed=args.seed, max_moves=args.max_moves)
    from pacsim.runner.progress import progress_bar

    recent: deque[bool] = deque(maxlen=RECENT)
    with progress_bar(args.episodes, "episode", args.quiet) as progress:
        def count(episode: int, final: GameState) -> None:
            recent.append(final.is_win())
            if progress.n == 0:
                progress.update(episode)  # a resumed run starts where the file left off
            progress.update(1)

        weights = train(settings, Path(args.out), args.episodes, args.save_every, count)
    played = f"; wins in the last {len(recent)} played: {sum(recent)}" if recent else " (nothing left to train)"
    print(f"{args.out}: {weights.episodes} episodes of {args.pacman} on {args.layout} against {args.ghosts}{played}")
    print(f"play it: pacsim play -p {args.pacman}:weights={args.out} -l {args.layout} -g {args.ghosts}")
    return 0
