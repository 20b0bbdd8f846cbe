"""Write an opening book: the start cells where the Pacmen under study part ways (issue 29).

Usage (from the repository root)::

    python experiments/optimism_pessimism/screen_decisions.py --layout optimismHalls --start-distance 4 --moves 1 \\
        --seed 101 --out experiments/optimism_pessimism/optimism_pessimism.book.json

Every empty cell at least ``--start-distance`` maze steps from the ghost is
screened: each Pacman plays its first ``--moves`` moves from it against the
ghost (game seed ``--seed``), and the cell is kept when their moves differ
(``--moves 1``: they disagree at the root).  The book records how many cells
were screened and kept, and an experiment with ``starts = "decisions"`` and
``book = "FILE"`` draws each game's start from it (``pacsim/runner/openings.py``).
"""

from __future__ import annotations

import argparse

from pacsim.engine import load_layout
from pacsim.runner.openings import screen, write_book

PACMEN = ("minimax:depth=4,eval=careful", "expectimax:depth=4,eval=careful")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layout", default="optimismHalls")
    parser.add_argument("--pacmen", nargs="+", default=list(PACMEN))
    parser.add_argument("--ghost", default="adversarial")
    parser.add_argument("--ghosts", type=int, default=1, help="ghost count")
    parser.add_argument("--start-distance", type=int, default=4)
    parser.add_argument("--moves", type=int, default=1)
    parser.add_argument("--seed", type=int, default=101, help="the screen's game seed (a selection seed)")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    book = screen(load_layout(args.layout), args.pacmen, args.ghost, args.ghosts, args.start_distance,
                  args.moves, args.seed)
    write_book(book, args.out)
    print(f"{args.out}: {book.disclosure()}: cells {list(book.cells)}")


if __name__ == "__main__":
    main()
