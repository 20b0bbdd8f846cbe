"""Screen candidate mazes for the optimism/pessimism table with random starts (issue 17).

Usage (from the repository root)::

    python experiments/optimism_pessimism/screen_random_starts.py --out results/screen_starts.jsonl -j 1
    python experiments/optimism_pessimism/screen_random_starts.py --summary results/screen_starts.jsonl

The same fixed setup and candidate families as ``screen_reproduction.py``
(depth-4 minimax and expectimax Pacman, ``careful``, the depth-2 adversarial
ghost and the random ghost, 300-move cap), but every game starts Pacman on a
cell drawn from its seed (``starts = "random"``, at least
``--start-distance`` steps from the ghost), so a cell's games are a sample of
positions rather than one line of play repeated.  Stages, each stopping the
candidate at the first failure:

1. expectimax against the adversarial ghost, ``--probe`` games: caught in most?
2. minimax against the adversarial ghost, ``--probe`` games: all won?
3. the full table, ``--games`` games a cell: the four pattern points of
   ``pacsim reproduce`` *and* at least ``MIN_DISTINCT`` of each cell's games
   distinct lines of play (start + Pacman's actions).

Selection games use root seed ``SELECTION_ROOT`` of ``screen_reproduction``
(checked disjoint from the validation roots); a maze passing here is
selected, and only its validation on other roots counts.
"""

from __future__ import annotations

import argparse
import os
import sys
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from screen_reproduction import (  # the sibling script, not a package
    EXTRA_PELLET_FAMILIES,
    FAR_FOOD_FAMILIES,
    GENERATED_FAMILIES,
    MAX_MOVES,
    SELECTION_ROOT,
    SETUP,
    Candidate,
    candidates,
    screen_all,
    selection_seeds,
    summarize,
)

MIN_DISTINCT = 0.2
"""Share of a cell's games that must be distinct lines of play."""
PROBE_MAX_MOVES = 100


def play_cell(text: str, pacman: str, ghost: str, seeds: list[int], start_distance: int,
              max_moves: int = MAX_MOVES) -> list[dict]:
    """One row per game, with its start cell and Pacman's actions."""
    from pacsim.agents.registry import make_ghost, make_pacman
    from pacsim.engine import parse_layout, play_game
    from pacsim.engine.starts import draw_start, with_pacman_start
    from pacsim.runner.store import encode_actions

    layout = parse_layout(text)
    rows = []
    for index, seed in enumerate(seeds):
        start = draw_start(layout, layout.num_ghosts, seed, start_distance)
        agents = [make_pacman(pacman, SETUP)] + [make_ghost(ghost) for _ in range(layout.num_ghosts)]
        record = play_game(with_pacman_start(layout, start), agents, seed=seed, max_moves=max_moves)
        rows.append({"pacman": pacman, "ghosts": ghost, "game_index": index, "seed": seed, "start": start,
                     "outcome": record.outcome, "score": record.score, "moves": record.moves,
                     "num_ghosts": layout.num_ghosts, "actions": encode_actions(record.actions)})
    return rows


def screen(candidate: Candidate, probe: int, games: int, start_distance: int) -> dict:
    import pandas

    from pacsim.engine import parse_layout
    from pacsim.engine.starts import start_cells
    from pacsim.report.optimism import assess
    from pacsim.report.summary import lines_of_play

    layout = parse_layout(candidate.text)
    cells = len(start_cells(layout, layout.num_ghosts, start_distance))
    result = {"family": candidate.family, "name": candidate.name, "text": candidate.text, "probe": probe,
              "games": games, "start_distance": start_distance, "start_cells": cells,
              "selection_root": SELECTION_ROOT}
    if cells < 3:
        return {**result, "stage": 0, "passed": False, "why": f"{cells} start cells"}
    seeds = selection_seeds(max(probe, games))
    caught = play_cell(candidate.text, "expectimax", "adversarial", seeds[:probe], start_distance, PROBE_MAX_MOVES)
    losses = sum(row["outcome"] == "loss" for row in caught)
    if losses * 2 <= probe:
        return {**result, "stage": 1, "passed": False, "why": f"expectimax caught {losses}/{probe}"}
    safe = play_cell(candidate.text, "minimax", "adversarial", seeds[:probe], start_distance, PROBE_MAX_MOVES)
    wins = sum(row["outcome"] == "win" for row in safe)
    if wins < probe:
        return {**result, "stage": 2, "passed": False, "why": f"minimax beat the adversary {wins}/{probe}"}
    rows = []
    for pacman in ("minimax", "expectimax"):
        for ghost in ("adversarial", "random"):
            rows += play_cell(candidate.text, pacman, ghost, seeds[:games], start_distance)
    frame = pandas.DataFrame(rows)
    assessment = assess(frame)
    distinct = {f"{pacman}/{ghost}": int(count) for (pacman, ghost), count
                in frame.groupby(["pacman", "ghosts"]).apply(lines_of_play, include_groups=False).items()}
    failed = [str(number) for number, point in enumerate(assessment.points, start=1) if not point.holds]
    if min(distinct.values()) < MIN_DISTINCT * games:
        failed.append("lines")
    table = {f"{pacman}/{ghost}": [cell.wins, cell.losses, cell.timeouts, round(cell.score_mean, 1),
                                   round(cell.moves_mean, 1)]
             for (pacman, ghost), cell in assessment.cells.items()}
    return {**result, "stage": 3, "passed": not failed, "why": "failed: " + ",".join(failed) if failed else "",
            "cells": table, "lines": distinct,
            "paired": [round(assessment.paired.difference, 1), round(assessment.paired.difference_low, 1)]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("results/screen_starts.jsonl"))
    parser.add_argument("--families", nargs="+", default=None,
                        help="only these families (shipped, hand-drawn, "
                        + ", ".join([*GENERATED_FAMILIES, *FAR_FOOD_FAMILIES, *EXTRA_PELLET_FAMILIES]) + ")")
    parser.add_argument("--probe", type=int, default=8, help="games of stages 1 and 2 (default 8)")
    parser.add_argument("--games", type=int, default=40, help="games a cell in stage 3 (default 40)")
    parser.add_argument("--start-distance", type=int, default=6)
    parser.add_argument("-j", "--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--summary", type=Path, default=None, help="only summarize an earlier output file")
    args = parser.parse_args(argv)
    if args.summary is not None:
        print(summarize(args.summary))
        return 0
    screen_all(args.out, candidates(args.families), args.workers,
               partial(screen, probe=args.probe, games=args.games, start_distance=args.start_distance))
    return 0


if __name__ == "__main__":
    sys.exit(main())
