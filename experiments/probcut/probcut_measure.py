"""ChanceProbCut against exact Star2 on positions of games not used for fitting.

Usage (from the repository root)::

    python experiments/probcut/probcut_measure.py --layout wideClassic \\
        --model experiments/probcut/probcut_wideClassic_depth.json --seed 1001 --games 10 --positions 4

For every position (Pacman to move, sampled from seeded games of
``expectimax:depth=2,eval=careful`` against directional ghosts, as the fit's
were, but from other seeds) and every depth, exact Star2 and Star2 with the
model (each variant: its lines by depth or only the pooled one, at each
confidence) search the position; the script prints the nodes ProbCut
generates over the nodes of exact Star2, how often it chooses Star2's move,
how much exact value its move loses when it does not, and writes the rows
as JSON beside the model.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from dataclasses import replace
from pathlib import Path

from pacsim.agents import make_pacman
from pacsim.agents.positions import sample_positions
from pacsim.search.probcut import load_model

EXACT = "expectimax:depth={depth},eval=careful,algorithm=star2"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layout", required=True)
    parser.add_argument("--model", required=True)
    parser.add_argument("--seed", type=int, default=1001)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--positions", type=int, default=4)
    parser.add_argument("--depths", default="3,4,5")
    parser.add_argument("--confidences", default="1,2")
    parser.add_argument("--min-depths", default="0", help="min_depth values to try (0: the model's)")
    parser.add_argument("--pooled", action="store_true", help="also try the pooled line alone")
    parser.add_argument("--out", default="")
    args = parser.parse_args(argv)
    fitted = load_model(args.model)
    variants = {}
    for min_depth in [int(text) for text in args.min_depths.split(",")]:
        model = replace(fitted, min_depth=min_depth or fitted.min_depth)
        for confidence in [float(text) for text in args.confidences.split(",")]:
            where = f"m{model.first_depth}"
            variants[f"{where} t={confidence:g}"] = model.with_confidence(confidence)
            if args.pooled:
                variants[f"{where} pooled t={confidence:g}"] = replace(model, by_depth=(), confidence=confidence)
    positions = sample_positions(args.layout, "expectimax:depth=2,eval=careful", "directional", 2,
                                 args.games, args.seed, args.positions)
    rows = []
    for depth in [int(text) for text in args.depths.split(",")]:
        exact = make_pacman(EXACT.format(depth=depth))
        pruned = make_pacman(EXACT.format(depth=depth))
        for number, state in enumerate(positions):
            reference = exact.analyze(state, root_values=False)
            values = dict(exact.analyze(state, root_values=True).action_values)
            best = max(values.values())
            for name, model in variants.items():
                pruned.probcut = model  # the agent's option, set directly: one model file, several variants
                found = pruned.analyze(state, root_values=False)
                rows.append({
                    "layout": args.layout, "depth": depth, "position": number, "variant": name,
                    "exact_nodes": reference.stats.generated, "nodes": found.stats.generated,
                    "exact_seconds": reference.stats.seconds, "seconds": found.stats.seconds,
                    "probcuts": found.stats.probcuts, "agrees": found.action == reference.action,
                    "loss": best - values[found.action],
                    "value_error": found.value - reference.value,
                })
        print(f"depth {depth} done ({len(positions)} positions)", file=sys.stderr, flush=True)
    out = Path(args.out or Path(args.model).with_name(f"probcut_measure_{args.layout}.json"))
    out.write_text(json.dumps(rows, indent=0) + "\n", encoding="utf-8")
    print(summary(rows))
    return 0


def summary(rows: list[dict]) -> str:
    lines = [f"{'layout':<14} {'depth':>5} {'variant':<20} {'positions':>9} {'nodes ratio':>11} "
             f"{'median ratio':>12} {'agree':>6} {'loss>0':>6} {'mean loss':>9} {'mean |err|':>10} {'cuts/search':>11}"]
    keys = sorted({(row["layout"], row["depth"], row["variant"]) for row in rows})
    for layout, depth, variant in keys:
        chosen = [row for row in rows if (row["layout"], row["depth"], row["variant"]) == (layout, depth, variant)]
        ratio = sum(row["nodes"] for row in chosen) / sum(row["exact_nodes"] for row in chosen)
        median = statistics.median(row["nodes"] / row["exact_nodes"] for row in chosen)
        agree = sum(row["agrees"] for row in chosen) / len(chosen)
        losing = sum(row["loss"] > 1e-9 for row in chosen) / len(chosen)
        loss = statistics.mean(row["loss"] for row in chosen)
        error = statistics.mean(abs(row["value_error"]) for row in chosen)
        cuts = statistics.mean(row["probcuts"] for row in chosen)
        lines.append(f"{layout:<14} {depth:>5} {variant:<20} {len(chosen):>9} {ratio:>11.3f} {median:>12.3f} "
                     f"{agree:>6.1%} {losing:>6.1%} {loss:>9.2f} {error:>10.2f} {cuts:>11.1f}")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
