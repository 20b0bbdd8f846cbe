"""``pacsim analyze``: the value of every Pacman action at a position, and
what the search cost.  Put minimax and expectimax side by side to see
pessimism and optimism in numbers."""

from __future__ import annotations

import argparse
import json
import math
from typing import Any

from pacsim.cli.common import options_given_once
from pacsim.engine import agent_rng, load_layout
from pacsim.engine.recording import load_game
from pacsim.engine.state import initial_state
from pacsim.errors import ConfigError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-l", "--layout", default="tinyGhostMaze", help="shipped layout name or .lay path (default tinyGhostMaze)")
    parser.add_argument("-p", "--pacman", action="append", default=None,
                        help="search Pacman spec, e.g. minimax:depth=4,eval=careful (repeat to compare)")
    parser.add_argument("-a", "--agent-args", default="", help="options for every Pacman, key=value,...")
    parser.add_argument("-k", "--num-ghosts", type=int, default=None)
    parser.add_argument("--game", metavar="RECORD.json", help="analyze a recorded game's position instead of the start")
    parser.add_argument("--move", type=int, default=0, help="with --game: the position before Pacman's move N (0: the start), as play counts moves")
    parser.add_argument("--json", action="store_true",
                        help="print JSON (a value that is not a finite number, such as a CS188 agent's unknown one, is null)")


def run(args) -> int:
    from pacsim.agents.api import SearchingAgent  # the agents: for the search, not for --help
    from pacsim.agents.registry import PACMAN, builtins, make_pacman

    state = _position(args)
    rows = []
    for spec in args.pacman or ["minimax:depth=2", "expectimax:depth=2"]:
        agent = make_pacman(spec, options_given_once(spec, args.agent_args, "-a"))
        if not isinstance(agent, SearchingAgent):
            searching = [name for name, kind in builtins(PACMAN).items() if issubclass(kind, SearchingAgent)]
            raise ConfigError(f"-p {spec}: not a search agent (use {', '.join(searching)}, or a plugin with analyze())")
        agent.reset(0, agent_rng(0, 0))
        result = agent.analyze(state)
        stats = result.stats
        rows.append({
            "pacman": spec,
            "value": result.value,
            "action": result.action[0] if isinstance(result.action, tuple) else result.action,
            "actions": {(move[0] if isinstance(move, tuple) else move): value for move, value in result.action_values},
            "levels": result.depth,
            "generated": stats.generated, "evaluated": stats.evaluated, "cutoffs": stats.cutoffs,
            "seconds": round(stats.seconds, 6),
        })
        if result.action_visits:  # Monte Carlo tree search: visits decide, and what the rollouts cost
            rows[-1].update(visits={move[0]: visits for move, visits in result.action_visits},
                            iterations=stats.iterations, simulated=stats.simulated, tree_depth=stats.max_depth)
            del rows[-1]["levels"], rows[-1]["cutoffs"]
    if args.json:
        print(json.dumps(_finite_or_null(rows), indent=1, allow_nan=False))
        return 0
    print(state.to_text())
    for row in rows:
        values = "  ".join(f"{action} {value:.1f}" for action, value in row["actions"].items())
        print(f"{row['pacman']}: value {row['value']:.2f}, plays {row['action']}  [{values}]")
        if "visits" not in row:
            print(f"    levels {row['levels']}, generated {row['generated']}, evaluated {row['evaluated']}, "
                  f"cutoffs {row['cutoffs']}, {row['seconds'] * 1000:.1f} ms")
        else:  # MCTS has no depth limit and prunes nothing: its tree's depth and its rollouts instead
            print(f"    tree depth {row['tree_depth']}, generated {row['generated']}, evaluated {row['evaluated']}, "
                  f"{row['seconds'] * 1000:.1f} ms")
            visits = "  ".join(f"{action} {count}" for action, count in row["visits"].items())
            print(f"    visits [{visits}], iterations {row['iterations']}, simulated moves {row['simulated']}")
    return 0


def _finite_or_null(data: Any) -> Any:
    """``data`` with NaN and infinities as None: JSON has no such numbers
    (Python would print ``NaN``, which other readers refuse)."""
    if isinstance(data, float):
        return data if math.isfinite(data) else None
    if isinstance(data, dict):
        return {key: _finite_or_null(value) for key, value in data.items()}
    if isinstance(data, list | tuple):
        return [_finite_or_null(value) for value in data]
    return data


def _position(args):
    if args.game:
        return pacman_position(load_game(args.game).iter_states(), args.move)
    layout = load_layout(args.layout)
    state = initial_state(layout, args.num_ghosts)
    if state.is_terminal:
        raise ConfigError(f"{layout.name}: the game is over before it starts (no food?)")
    return state


def pacman_position(states, move: int):
    """The position before Pacman's move ``move`` (0: the start), counted as
    ``play`` counts moves: Pacman's, not every agent's.  The states are
    walked once and only the one asked for is kept (a record may be long)."""
    found, turns = None, 0
    for state in states:
        if state.turn == 0 and not state.is_terminal:
            if turns == move:
                found = state
            turns += 1
    if found is None:
        raise ConfigError(f"--move {move}: Pacman moves in this game are numbered 0 to {turns - 1} "
                          "(the position before each of his moves)")
    return found
