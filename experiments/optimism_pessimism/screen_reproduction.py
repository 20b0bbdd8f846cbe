"""Screen candidate mazes for the optimism/pessimism reproduction.

Usage (from the repository root; a few minutes to an hour, see --help)::

    python experiments/optimism_pessimism/screen_reproduction.py --out results/screen.jsonl
    python experiments/optimism_pessimism/screen_reproduction.py --summary results/screen.jsonl

The lecture's setup is fixed and never tuned here: minimax and expectimax
Pacman at depth 4 with the ``careful`` evaluation, against the adversarial
ghost (depth 2) and the random ghost, a 300-move cap.  Only the *maze* is
searched.  Each candidate goes through cheap stages and stops at the first it
fails, so most cost a few games:

1. expectimax against the adversarial ghost, ``--probe`` games capped at
   ``PROBE_MAX_MOVES``: most caught?
2. minimax against the adversarial ghost, ``--probe`` games: all won?
3. the full 2x2 table, ``--games`` games a cell: all four pattern points
   (``pacsim.report.optimism.pattern_points``, the criteria ``pacsim
   reproduce`` prints, the paired test included)?

Point 3 is fragile (each rare death of expectimax against the random ghost
costs about 1,000 points of paired difference), so 24 games a cell let
through mazes that fail it on more games.  ``--passed-in EARLIER.jsonl
--games 200 --out CONFIRM.jsonl`` plays stage 3 again, on 200 selection games
a cell, for the candidates that passed in the earlier file.

Games are played on *selection* seeds drawn from root seed
``SELECTION_ROOT``; validation (``pacsim reproduce`` or ``pacsim run
experiments/optimism_pessimism/optimism_pessimism.toml --set seed=...``) uses other root seeds,
and this script checks that the seed sets do not overlap for the validation
roots it knows of.  A maze that passes here is a *selected* maze: only its
validation on fresh seeds counts as a result.

Candidate families: the shipped hand-drawn layouts, the hand-drawn variants
below, generated mazes (``pacsim.engine.generate``) over a grid of sizes,
food, ghosts and loop/room knobs, generated mazes kept only when their food
lies far from Pacman, and ``optimismMaze`` with pellets added.  Every candidate tried is written to the
output, one JSON line each, so the counts in ``experiments/optimism_pessimism/README.md`` can be
recomputed with ``--summary``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from functools import partial
from pathlib import Path

SELECTION_ROOT = 101
"""Root seed of the selection games (validation uses others)."""
VALIDATION_ROOTS = (2026, 9173, 4242)
"""Root seeds used to validate: the shipped experiment's, the issue's, and the README's."""
MAX_MOVES = 300
PROBE_MAX_MOVES = 60
"""Default move cap of the probe stages: in a maze this small a game still
going after 60 moves is a stall, not a catch or a quick win, and stalls cost
the most CPU."""
SETUP = {"depth": 4, "eval": "careful"}

HAND_DRAWN = {
    # A room beside the short route (roomMaze's force) with the last pellet at
    # the end of a pocket below (tinyGhostMaze's force).
    "roomPocket": """
%%%%%%%%%%%
%.   %   .%
% %%   %% %
%    G    %
%%%% P %%%%
%%%%% %%%%%
%%%%%.%%%%%
%%%%%%%%%%%
""",
    # Two routes to the far food: a short one past the ghost's junction and a
    # long safe one round the outside.
    "twoRoutes": """
%%%%%%%%%%%
%P    .   %
% %%%% %% %
% %  G  % %
% % %%% % %
%   .%.   %
%%%%%%%%%%%
""",
    # The reference's room with the pocket one square deeper.
    "nicheRoomDeep": """
%%%%%%%%%
%.     .%
%  %G%  %
%       %
%%% P %%%
%%% %%%%%
%%%.%%%%%
%%%%%%%%%
""",
    # Round 2: the old tinyGhostMaze (both Pacmen's adversarial games as in the
    # lecture, random-ghost games six moves long) lengthened by a corridor of
    # food before it, or by one pellet more.
    "tinyCorridor": """
%%%%%%%%%%%%%
%  G %  %%%%%
%%  %% %%%%%%
%   . . %%%%%
%%   .%%%%%%%
%      .  .P%
%%%%%%%%%%%%%
""",
    "tinyBelow": """
%%%%%%%%%
%  G %  %
%%  %% %%
%   . . %
%%   .%%%
%     .%%
%%%%% %%%
%P  .  .%
%%%%%%%%%
""",
    "tinyCorner": """
%%%%%%%%%%%
%. G %  %%%
%%  %% %%%%
%   . . %%%
%%   .%%%%%
%       P.%
%%%%%%%%%%%
""",
    # Round 2: the best generated near-pass (rooms-9x7 seed 57, all points but
    # game length) with one pellet more to lengthen the games.
    "s57corner": """
%%%%%%%%%
%    .. %
% P   % %
%    .  %
% %%%  G%
%.      %
%%%%%%%%%
""",
    "s57middle": """
%%%%%%%%%
%    .. %
% P   % %
%    .  %
% %%%  G%
%   .   %
%%%%%%%%%
""",
    # A corridor with side pockets and the ghost at a junction above.
    "pocketRow": """
%%%%%%%%%%%
%%%% G %%%%
%%%% % %%%%
%P       .%
%% % %%% %%
%%.%.%%%.%%
%%%%%%%%%%%
""",
}

GENERATED_FAMILIES = {
    # name: (spec template without seed, seeds)
    "perfect-9x7": ("w=9,h=7,food=4,ghosts=1,loops=0", range(0, 60)),
    "braided-9x7": ("w=9,h=7,food=4,ghosts=1,loops=0.5", range(0, 60)),
    "rooms-9x7": ("w=9,h=7,food=3,ghosts=1,loops=0.3,rooms=0.5", range(0, 60)),
    "perfect-11x7": ("w=11,h=7,food=5,ghosts=1,loops=0", range(0, 60)),
    "braided-11x9": ("w=11,h=9,food=5,ghosts=1,loops=0.5,rooms=0.2", range(0, 60)),
    "two-ghosts-11x7": ("w=11,h=7,food=4,ghosts=2,loops=0.5", range(0, 60)),
    # Second round, after the first showed that only mazes with rooms came close:
    "rooms-9x7-f4": ("w=9,h=7,food=4,ghosts=1,loops=0.3,rooms=0.5", range(0, 80)),
    "rooms-11x7": ("w=11,h=7,food=4,ghosts=1,loops=0.3,rooms=0.5", range(0, 80)),
    "rooms-11x9": ("w=11,h=9,food=5,ghosts=1,loops=0.3,rooms=0.4", range(0, 80)),
    "open-9x7": ("w=9,h=7,food=3,ghosts=1,loops=0.5,rooms=0.8", range(0, 80)),
    # Third round (numba fast path: a stage-1 stop costs well under a second),
    # aimed at point 4: more food, and larger rooms mazes, so that the
    # random-ghost games last 20-50 moves.  Many more seeds a family.
    "rooms-9x7-f5": ("w=9,h=7,food=5,ghosts=1,loops=0.3,rooms=0.5", range(0, 600)),
    "rooms-13x7": ("w=13,h=7,food=5,ghosts=1,loops=0.3,rooms=0.5", range(0, 600)),
    "rooms-11x9-f6": ("w=11,h=9,food=6,ghosts=1,loops=0.3,rooms=0.5", range(0, 600)),
    "rooms-11x7-f5": ("w=11,h=7,food=5,ghosts=1,loops=0.3,rooms=0.5", range(0, 600)),
}

FAR_FOOD_FAMILIES = {
    # name: (spec template without seed, seeds drawn from, least mean Pacman-to-food distance).
    # Third round: rooms mazes kept only when the food lies far from Pacman's
    # start (``maze_features(...).food_spread``), so games cannot end in ten moves.
    "rooms-9x7-far": ("w=9,h=7,food=4,ghosts=1,loops=0.3,rooms=0.5", range(1000, 4000), 7.0),
}

EXTRA_PELLET_FAMILIES = {
    # name: (base layout, extra pellets, least maze distance from Pacman's start).
    # Third round: optimismMaze (points 1-3 on the selection seeds, games of ~10
    # moves for expectimax) with one or two pellets added on every far square
    # (every pair of far squares), to lengthen the games.
    "optimism-plus1": ("optimismMaze", 1, 5),
    "optimism-plus2": ("optimismMaze", 2, 7),
}


@dataclass(frozen=True)
class Candidate:
    family: str
    name: str
    text: str


def candidates(families: list[str] | None) -> Iterator[Candidate]:
    """Every candidate of the chosen families (all by default)."""
    from pacsim.engine import load_layout, parse_layout, shipped_layouts
    from pacsim.engine.generate import generate_layout, maze_features, parse_maze_specs

    def wanted(family: str) -> bool:
        return families is None or family in families

    if wanted("shipped"):
        for name in shipped_layouts():
            layout = load_layout(name)
            if layout.width * layout.height <= 150:  # the tiny ones; classic mazes score in the thousands
                yield Candidate("shipped", name, layout.text)
    if wanted("hand-drawn"):
        for name, text in HAND_DRAWN.items():
            yield Candidate("hand-drawn", name, text.strip("\n") + "\n")
    for family, (template, seeds) in GENERATED_FAMILIES.items():
        if wanted(family):
            for seed in seeds:
                spec = parse_maze_specs(f"generated:{template},seed={seed}")[0]
                yield Candidate(family, spec.name(), generate_layout(spec))
    for family, (template, seeds, least_spread) in FAR_FOOD_FAMILIES.items():
        if wanted(family):
            for seed in seeds:
                spec = parse_maze_specs(f"generated:{template},seed={seed}")[0]
                text = generate_layout(spec)
                if maze_features(parse_layout(text)).food_spread >= least_spread:
                    yield Candidate(family, spec.name(), text)
    for family, (base, extra, least_distance) in EXTRA_PELLET_FAMILIES.items():
        if wanted(family):
            yield from _extra_pellets(family, base, extra, least_distance)


def _extra_pellets(family: str, base: str, extra: int, least_distance: int) -> Iterator[Candidate]:
    """``base`` with ``extra`` more pellets, on every combination of empty squares
    at least ``least_distance`` moves from Pacman's start."""
    from itertools import combinations

    from pacsim.engine import load_layout

    layout = load_layout(base)
    rows = [list(row) for row in layout.text.splitlines()]
    from_pacman = layout.distances_from(layout.pacman_start)
    # Cells are numbered over the open squares in reading order (the layout's own numbering).
    squares = [(row, column) for row, line in enumerate(rows) for column, char in enumerate(line) if char != "%"]
    far = [square for cell, square in enumerate(squares)
           if rows[square[0]][square[1]] == " " and least_distance <= from_pacman[cell]]
    for chosen in combinations(far, extra):
        grid = [row[:] for row in rows]
        for row, column in chosen:
            grid[row][column] = "."
        name = f"{base}+" + "+".join(f"r{row}c{column}" for row, column in chosen)
        yield Candidate(family, name, "\n".join("".join(row) for row in grid) + "\n")


def selection_seeds(count: int) -> list[int]:
    from pacsim.runner import game_seeds

    seeds = game_seeds(SELECTION_ROOT, count)
    for root in VALIDATION_ROOTS:
        overlap = set(seeds) & set(game_seeds(root, 1000))
        if overlap:
            raise SystemExit(f"selection seeds overlap validation root {root}: {sorted(overlap)[:3]}")
    return seeds


def play_cell(text: str, pacman: str, ghost: str, seeds: list[int], max_moves: int = MAX_MOVES) -> list[dict]:
    """One row per game, shaped like a results store's."""
    from pacsim.agents.registry import make_ghost, make_pacman
    from pacsim.engine import parse_layout, play_game

    layout = parse_layout(text)
    rows = []
    for index, seed in enumerate(seeds):
        agents = [make_pacman(pacman, SETUP)] + [make_ghost(ghost) for _ in range(layout.num_ghosts)]
        record = play_game(layout, agents, seed=seed, max_moves=max_moves)
        rows.append({"pacman": pacman, "ghosts": ghost, "game_index": index, "seed": seed,
                     "outcome": record.outcome, "score": record.score, "moves": record.moves})
    return rows


def screen(candidate: Candidate, probe: int, games: int, probe_moves: int = PROBE_MAX_MOVES) -> dict:
    """Run the stages; the result says where the candidate stopped and why."""
    import pandas

    from pacsim.report.optimism import assess

    seeds = selection_seeds(max(probe, games))
    result = {"family": candidate.family, "name": candidate.name, "text": candidate.text,
              "probe": probe, "probe_moves": probe_moves, "games": games, "selection_root": SELECTION_ROOT}
    caught = play_cell(candidate.text, "expectimax", "adversarial", seeds[:probe], probe_moves)
    losses = sum(row["outcome"] == "loss" for row in caught)
    if losses * 2 <= probe:
        return {**result, "stage": 1, "passed": False, "why": f"expectimax caught {losses}/{probe}"}
    safe = play_cell(candidate.text, "minimax", "adversarial", seeds[:probe], probe_moves)
    wins = sum(row["outcome"] == "win" for row in safe)
    if wins < probe:
        return {**result, "stage": 2, "passed": False, "why": f"minimax beat the adversary {wins}/{probe}"}
    rows = []
    for pacman in ("minimax", "expectimax"):
        for ghost in ("adversarial", "random"):
            rows += play_cell(candidate.text, pacman, ghost, seeds[:games])
    assessment = assess(pandas.DataFrame(rows))
    failed = [str(number) for number, point in enumerate(assessment.points, start=1) if not point.holds]
    cells = {f"{pacman}/{ghost}": [cell.wins, cell.losses, cell.timeouts, round(cell.score_mean, 1),
                                   round(cell.moves_mean, 1)]
             for (pacman, ghost), cell in assessment.cells.items()}
    return {**result, "stage": 3, "passed": not failed, "why": "points failed: " + ",".join(failed) if failed else "",
            "cells": cells, "paired": [round(assessment.paired.difference, 1),
                                       round(assessment.paired.difference_low, 1)]}


def passed_candidates(path: Path) -> Iterator[Candidate]:
    """The candidates that passed every stage in an earlier output file."""
    for result in screened(path):
        if result["passed"]:
            yield Candidate(result["family"], result["name"], result["text"])


def summarize(path: Path) -> str:
    """Per family: candidates tried, where they stopped (stage 0: no start
    cell to draw from, random starts only), how many passed."""
    results = screened(path)
    stops = sorted({result["stage"] for result in results} - {3} | {1, 2})
    lines = [f"{'family':<18}{'tried':>6}" + "".join(f"{f'stop@{stage}':>8}" for stage in stops) + f"{'full':>6}{'passed':>8}"]
    families = sorted({result["family"] for result in results})
    for family in families:
        group = [result for result in results if result["family"] == family]
        stages = Counter(result["stage"] for result in group)
        passed = sum(result["passed"] for result in group)
        lines.append(f"{family:<18}{len(group):>6}" + "".join(f"{stages[stage]:>8}" for stage in stops)
                     + f"{stages[3]:>6}{passed:>8}")
    for result in results:
        if result["stage"] == 3:
            lines.append(f"  {result['name']}: {'PASSED' if result['passed'] else result['why']} "
                         f"cells {result['cells']}" + (f" lines {result['lines']}" if "lines" in result else "")
                         + f" paired {result['paired']}")
    return "\n".join(lines)


def screen_all(out: Path, chosen: Iterable[Candidate], workers: int, screen_one: Callable[[Candidate], dict]) -> None:
    """Screen the ``chosen`` candidates not yet in ``out`` (:func:`screen_into`), then print the summary."""
    out.parent.mkdir(parents=True, exist_ok=True)
    done = {result["name"] for result in screened(out)} if out.exists() else set()
    screen_into(out, [candidate for candidate in chosen if candidate.name not in done], workers, screen_one)
    print(summarize(out))


def screen_into(out: Path, todo: list[Candidate], workers: int, screen_one: Callable[[Candidate], dict]) -> None:
    """Screen ``todo`` on ``workers`` processes, one JSON line per candidate
    appended to ``out`` as each finishes (a slow candidate blocks nothing);
    a line an interrupted run left half-written is dropped first."""
    print(f"{len(todo)} candidates to screen", file=sys.stderr)
    _drop_unfinished_line(out)
    with ProcessPoolExecutor(max_workers=workers) as pool, out.open("a", encoding="utf-8") as written:
        futures = [pool.submit(screen_one, candidate) for candidate in todo]
        for future in as_completed(futures):
            result = future.result()
            written.write(json.dumps(result) + "\n")
            written.flush()
            if result["stage"] == 3:
                print(f"{result['family']} {result['name']}: {'PASSED' if result['passed'] else result['why']}",
                      file=sys.stderr)


def screened(path: Path) -> list[dict]:
    """The results in an output file, one a finished line: a last line
    without its newline is a write an interrupted run left unfinished (that
    candidate is screened again)."""
    text = path.read_text(encoding="utf-8")
    finished = text[:text.rfind("\n") + 1]
    return [json.loads(line) for line in finished.splitlines() if line.strip()]


def _drop_unfinished_line(out: Path) -> None:
    if not out.exists():
        return
    text = out.read_bytes()
    if text and not text.endswith(b"\n"):
        with out.open("r+b") as file:
            file.truncate(text.rfind(b"\n") + 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("results/screen_reproduction.jsonl"),
                        help="JSON lines, one per candidate (appended; finished candidates are skipped)")
    parser.add_argument("--families", nargs="+", default=None,
                        help="only these families (shipped, hand-drawn, "
                        + ", ".join([*GENERATED_FAMILIES, *FAR_FOOD_FAMILIES, *EXTRA_PELLET_FAMILIES]) + ")")
    parser.add_argument("--probe", type=int, default=3, help="games of stages 1 and 2 (default 3)")
    parser.add_argument("--probe-moves", type=int, default=PROBE_MAX_MOVES,
                        help=f"move cap of stages 1 and 2 (default {PROBE_MAX_MOVES})")
    parser.add_argument("--games", type=int, default=24, help="games a cell in stage 3 (default 24)")
    parser.add_argument("-j", "--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--summary", type=Path, default=None, help="only summarize an earlier output file")
    parser.add_argument("--passed-in", type=Path, default=None,
                        help="screen again only the candidates that passed in this earlier output file "
                             "(a confirmation on more selection games: use a larger --games and another --out)")
    args = parser.parse_args(argv)
    if args.summary is not None:
        print(summarize(args.summary))
        return 0
    chosen = candidates(args.families) if args.passed_in is None else passed_candidates(args.passed_in)
    screen_all(args.out, chosen, args.workers, partial(screen, probe=args.probe, games=args.games,
                                                       probe_moves=args.probe_moves))
    return 0


if __name__ == "__main__":
    sys.exit(main())
