"""Equal compute for experiments/mcts_equal_compute.toml: how many MCTS
iterations generate as many positions per move as a depth-limited search.

For each maze and depth it plays a few seeded games of plain minimax (its
tree, and so its generated nodes, is expectimax's too: neither prunes)
against random ghosts and takes the mean of ``generated`` per move; then a
few MCTS games give the mean positions generated per iteration (rollout
moves plus the tree's own; with ``rollout=greedy`` every successor a
greedy step makes counts too).  The iterations are the ratio.  Run:

    PYTHONPATH=. python experiments/mcts/mcts_calibrate.py [MCTS_OPTIONS [MAZE ...]]

e.g. ``mcts_calibrate.py rollout=greedy pincerMaze`` for greedy rollouts.
"""

from __future__ import annotations

import statistics
import sys

from pacsim.agents import make_ghost, make_pacman
from pacsim.engine import load_layout, play_game

MAZES = ("tinyGhostMaze", "pincerMaze", "smallClassic")
DEPTHS = (2, 3)
GAMES = 3


def per_move(spec: str, maze: str, key: str = "generated") -> float:
    layout = load_layout(maze)
    values = []
    for seed in range(GAMES):
        agents = [make_pacman(spec)] + [make_ghost("random") for _ in range(layout.num_ghosts)]
        record = play_game(layout, agents, seed=seed, max_moves=150)
        values += [getattr(stats, key) for stats in record.search_stats]
    return statistics.mean(values)


def main(argv: list[str]) -> None:
    extra = f",{argv[0]}" if argv else ""
    for maze in argv[1:] or MAZES:
        probe = f"mcts:iterations=200,eval=careful{extra}"
        per_iteration = per_move(probe, maze) / 200
        for depth in DEPTHS:
            nodes = per_move(f"minimax:depth={depth},eval=careful", maze)
            print(f"{maze} depth {depth}: {nodes:.0f} generated/move; MCTS {per_iteration:.1f}/iteration "
                  f"-> iterations={max(1, round(nodes / per_iteration))}", flush=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
