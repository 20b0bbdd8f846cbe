"""``pacsim probcut fit``: fit a ChanceProbCut model on positions from seeded games.

Games are played (``-p`` against ``-g`` ghosts, seeds ``--seed``,
``--seed + 1``, ...); Pacman-to-move positions are sampled from them; below
each, chance nodes of the tree the Star2 Pacman ``--for`` would search are
picked, and every successor of each is searched exactly ``depth -
reduction`` and ``depth`` levels deep, for every deep depth at which that
Pacman's search would try a cut there.  A line through these pairs is the
model (:mod:`pacsim.search.probcut_fit`), saved as JSON with how it was fitted;
``probcut=FILE`` on a Star2 Pacman uses it.
"""

from __future__ import annotations

import argparse
import random
from typing import TYPE_CHECKING, Any

from pacsim.engine import GameState, check_max_moves, load_layout
from pacsim.errors import ConfigError
from pacsim.files import check_output

if TYPE_CHECKING:  # the agents and the fitting: imported by the fit, not by --help
    from pacsim.agents.search_agents import SearchPacman
    from pacsim.search.probcut_fit import ValuePair

DEFAULT_FOR = "expectimax:depth=3,eval=careful,algorithm=star2"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="probcut_command", required=True, parser_class=type(parser))
    fit = actions.add_parser("fit", help="fit slope, intercept and sigma on positions from seeded games")
    fit.add_argument("-l", "--layout", default="wideClassic", help="shipped layout name or .lay path")
    fit.add_argument("-p", "--pacman", default="greedy", help="the Pacman playing the games positions are taken from")
    fit.add_argument("-g", "--ghost", default="directional", help="the ghosts of those games")
    fit.add_argument("-k", "--num-ghosts", type=int, default=2)
    fit.add_argument("--for", dest="searcher", default=DEFAULT_FOR,
                     help=f"the Star2 Pacman the model is for: its depth, eval and ghost model (default {DEFAULT_FOR})")
    fit.add_argument("--games", type=int, default=5, help="games to sample positions from (default 5)")
    fit.add_argument("--seed", type=int, default=1, help="seed of the first game; the others follow (default 1)")
    fit.add_argument("--positions", type=int, default=4, help="positions per game (default 4)")
    fit.add_argument("--nodes", type=int, default=3, help="chance nodes per position (default 3)")
    fit.add_argument("--reduction", type=int, default=0, help="R in tree levels (default 0: one round, ghosts + 1)")
    fit.add_argument("--confidence", type=float, default=1.0, help="t stored in the model (default 1.0)")
    fit.add_argument("--min-depth", type=int, default=0,
                     help="fewest levels left at a chance node to try a cut (default 0: reduction + 2)")
    fit.add_argument("--per-depth", type=int, default=0, metavar="PAIRS",
                     help="also fit a line per deep depth with at least PAIRS pairs (default 0: one pooled line)")
    fit.add_argument("--max-moves", type=int, default=300)
    fit.add_argument("--out", required=True, help="the model file to write (JSON)")
    fit.set_defaults(run=run_fit)


def run_fit(args) -> int:
    from pacsim.agents.positions import sample_positions
    from pacsim.search.probcut import ProbCutModel, save_model
    from pacsim.search.probcut_fit import fit_by_depth, fit_model

    check_max_moves(args.max_moves, f"--max-moves {args.max_moves}")
    if args.per_depth < 0:
        raise ConfigError(f"--per-depth {args.per_depth} must not be negative")
    for name in ("games", "positions", "nodes"):
        if not 1 <= getattr(args, name) <= 10_000:
            raise ConfigError(f"--{name} {getattr(args, name)} must be in [1, 10000]")
    if args.num_ghosts < 1:
        raise ConfigError(f"--num-ghosts {args.num_ghosts} must be at least 1 (ChanceProbCut needs chance nodes)")
    ghosts_there = load_layout(args.layout).num_ghosts
    if args.num_ghosts > ghosts_there:  # fewer would play, and no search would have the levels fitted for
        raise ConfigError(f"--num-ghosts {args.num_ghosts}: layout {args.layout} has {ghosts_there} ghost start(s)")
    searcher = star2_pacman(args.searcher)
    check_output(args.out, "--out")  # after the layout and the searcher's files are read: inputs it must not replace
    reduction = args.reduction or args.num_ghosts + 1
    # Checks reduction, confidence and min-depth before any game is played.
    ProbCutModel(reduction, 1.0, 0.0, 0.0, args.confidence, args.min_depth)
    positions = sample_positions(args.layout, args.pacman, args.ghost, args.num_ghosts, args.games, args.seed,
                                 args.positions, args.max_moves)
    if not positions:
        raise ConfigError(f"the games on {args.layout} gave no position with Pacman to move")
    pairs = fitting_pairs(searcher, positions, reduction, args.min_depth, args.nodes, args.seed)
    model = fit_model(pairs, reduction, args.confidence, args.min_depth, args.per_depth)
    about = {
        "layout": args.layout, "pacman": args.pacman, "ghost": args.ghost, "num_ghosts": args.num_ghosts,
        "for": args.searcher, "games": args.games, "seeds": [args.seed, args.seed + args.games - 1],
        "positions": len(positions), "pairs": len(pairs),
        "by_depth": {str(depth): {"slope": line.slope, "intercept": line.intercept, "sigma": line.sigma,
                                  "pairs": line.pairs} for depth, line in fit_by_depth(pairs).items()},
    }
    save_model(args.out, model, about)
    print(f"{args.out}: deep = {model.slope:.4f} * shallow + {model.intercept:.3f}, sigma {model.sigma:.3f} "
          f"(R={reduction} levels, {len(pairs)} pairs from {len(positions)} positions of {args.games} games; "
          f"{len(model.by_depth)} lines by depth)")
    for depth, line in fit_by_depth(pairs).items():
        print(f"  deep depth {depth:>2}: slope {line.slope:.4f}, intercept {line.intercept:8.3f}, "
              f"sigma {line.sigma:7.3f}  ({line.pairs} pairs)")
    return 0


def star2_pacman(spec: str) -> SearchPacman:
    """The Star2 search Pacman ``spec`` names (its game, evaluation and bounds are fitted for)."""
    from pacsim.agents.registry import make_pacman
    from pacsim.agents.search_agents import SearchPacman

    agent = make_pacman(spec)
    if not isinstance(agent, SearchPacman) or agent.algorithm != "star2":
        raise ConfigError(f"--for {spec}: not a Star2 search Pacman (e.g. {DEFAULT_FOR})")
    if agent.options.probcut:
        raise ConfigError(f"--for {spec}: fit for exact Star2 (without probcut=)")
    return agent


def chance_nodes_below(searcher: SearchPacman, state: GameState) -> list[tuple[Any, int]]:
    """The chance nodes of the first two chance levels below ``state`` in
    ``searcher``'s tree, with their tree level."""
    from pacsim.search import CHANCE

    game = searcher.game_for(state)
    found = []
    frontier = [(game.result(state, move), 1) for move in game.actions(state)]
    while frontier:
        node, level = frontier.pop(0)
        if game.is_terminal(node) or game.to_move(node) != CHANCE:
            continue
        found.append((node, level))
        if level == 1:
            frontier += [(successor, level + 1) for probability, successor in game.outcomes(node) if probability]
    return found


def fitting_pairs(searcher: SearchPacman, positions: list[GameState], reduction: int, min_depth: int,
                  nodes_per_position: int, seed: int) -> list[ValuePair]:
    """Shallow/deep pairs below ``nodes_per_position`` chance nodes of each
    position (picked at random with ``seed``), at every deep depth a search
    of ``searcher``'s depth would try a cut at."""
    from pacsim.search.probcut_fit import chance_pairs

    rng = random.Random(seed)
    first_depth = min_depth or reduction + 2
    pairs: list[ValuePair] = []
    for state in positions:
        game = searcher.game_for(state)
        levels = searcher.levels(state)
        nodes = chance_nodes_below(searcher, state)
        for node, level in rng.sample(nodes, min(nodes_per_position, len(nodes))):
            # The node has levels - level left; a cut is tried from first_depth on,
            # with its successors searched one level less deep.
            depths = list(range(first_depth - 1, levels - level))
            if depths:
                pairs += chance_pairs(game, [node], searcher.evaluate, searcher.node_bounds, reduction, depths)
    if len(pairs) < 3:
        raise ConfigError(f"only {len(pairs)} value pairs found; play more games, or search deeper with --for")
    return pairs
