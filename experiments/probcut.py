"""ChanceProbCut on Pacman (issue 12, requirement 4): fit, then measure.

1. Records Pacman-to-move positions from seeded greedy-vs-directional games
   on smallClassic with one ghost: games 0-3 to fit on, games 10-13 to test.
2. Fits one line per deep depth (levels), deep value against the value
   ``REDUCTION`` levels shallower (exact Star2, careful evaluation, uniform
   ghost), and saves it beside this file as ``probcut_model.json``.
3. On the test positions, at Pacman depths 3, 4, 5 (2 levels each: one
   ghost), compares ChanceProbCut at several confidences with exact Star2:
   positions generated (the shallow searches included) and the share of
   positions where both play the same move.  Writes ``probcut_results.csv``.

    PYTHONPATH=. python experiments/probcut.py
"""

from __future__ import annotations

import csv
import statistics
from pathlib import Path

from pacsim.agents import make_ghost, make_pacman
from pacsim.agents.evaluation import careful, careful_bounds
from pacsim.agents.search_agents import PacmanGame
from pacsim.engine import load_layout, play_game
from pacsim.search import CHANCE, search
from pacsim.search.probcut import fit_probcut, probcut_search

HERE = Path(__file__).resolve().parent
MAZE = "smallClassic"
REDUCTION = 2
FIT_DEPTHS = (2, 4, 6, 8)
PACMAN_DEPTHS = (3, 4, 5)
CONFIDENCES = (0.5, 1.0, 2.0)


def positions(seeds: range, every: int = 6) -> list:
    layout = load_layout(MAZE)
    found: list = []
    for seed in seeds:
        states: list = []

        def keep(state, action, states=states):
            if state.turn == 0 and not state.is_terminal:
                states.append(state)

        play_game(layout, [make_pacman("greedy"), make_ghost("directional")], seed=seed, max_moves=120, on_state=keep)
        found += states[3::every]
    return found


def main() -> None:
    game = PacmanGame((CHANCE,))
    fit_on, test_on = positions(range(4)), positions(range(10, 14))
    print(f"{len(fit_on)} positions to fit on, {len(test_on)} to test on", flush=True)
    model = fit_probcut(game, fit_on, FIT_DEPTHS, REDUCTION, careful, careful_bounds)
    model.save(HERE / "probcut_model.json")
    for depth, (slope, intercept, sigma) in sorted(model.lines.items()):
        print(f"deep {depth} levels: deep = {slope:.3f} x shallow + {intercept:.1f}, sigma {sigma:.1f}", flush=True)
    rows = []
    for pacman_depth in PACMAN_DEPTHS:
        levels = 2 * pacman_depth
        exact = [search(game, state, "star2", levels, careful, careful_bounds) for state in test_on]
        plain_nodes = sum(result.stats.generated for result in exact)
        for confidence in CONFIDENCES:
            cut = [probcut_search(game, state, levels, careful, careful_bounds, model, confidence) for state in test_on]
            agree = sum(a.action == b.action for a, b in zip(exact, cut)) / len(test_on)
            errors = [abs(a.value - b.value) for a, b in zip(exact, cut)]
            rows.append({"pacman_depth": pacman_depth, "confidence": confidence, "positions": len(test_on),
                         "star2_nodes": plain_nodes, "probcut_nodes": sum(r.stats.generated for r in cut),
                         "node_ratio": sum(r.stats.generated for r in cut) / plain_nodes,
                         "move_agreement": agree, "median_value_error": statistics.median(errors)})
            print(rows[-1], flush=True)
    with open(HERE / "probcut_results.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


if __name__ == "__main__":
    main()
