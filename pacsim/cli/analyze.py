"""``pacsim analyze``: the value of every Pacman action at a position, and
what the search cost.  Put minimax and expectimax side by side to see
pessimism and optimism in numbers."""

from __future__ import annotations

import json
import math
from typing import Any

from pacsim.agents.registry import make_pacman, parse_options
from pacsim.engine import agent_rng, load_layout
from pacsim.engine.recording import load_game
from pacsim.engine.state import initial_state
from pacsim.errors import ConfigError


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("analyze", help="search a position and show each action's value")
    parser.add_argument("-l", "--layout", default="tinyGhostMaze", help="shipped layout name or .lay path (default tinyGhostMaze)")
    parser.add_argument("-p", "--pacman", action="append", default=None,
                        help="search Pacman spec, e.g. minimax:depth=4,eval=careful (repeat to compare)")
    parser.add_argument("-a", "--agent-args", default="", help="options for every Pacman, key=value,...")
    parser.add_argument("-k", "--num-ghosts", type=int, default=None)
    parser.add_argument("--game", metavar="RECORD.json", help="analyze a recorded game's position instead of the start")
    parser.add_argument("--move", type=int, default=0, help="with --game: the number of actions played before the position")
    parser.add_argument("--json", action="store_true",
                        help="print JSON (a value that is not a finite number, such as a CS188 agent's unknown one, is null)")
    parser.set_defaults(run=run)


def run(args) -> int:
    state = _position(args)
    rows = []
    for spec in args.pacman or ["minimax:depth=2", "expectimax:depth=2"]:
        agent = make_pacman(spec, parse_options(args.agent_args))
        if not hasattr(agent, "analyze"):
            raise ConfigError(f"-p {spec}: not a search agent (use minimax, alphabeta, expectimax or expectiminimax)")
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
                            iterations=stats.iterations, simulated=stats.simulated)
    if args.json:
        print(json.dumps(_finite_or_null(rows), indent=1, allow_nan=False))
        return 0
    print(state.to_text())
    for row in rows:
        values = "  ".join(f"{action} {value:.1f}" for action, value in row["actions"].items())
        print(f"{row['pacman']}: value {row['value']:.2f}, plays {row['action']}  [{values}]")
        print(f"    levels {row['levels']}, generated {row['generated']}, evaluated {row['evaluated']}, "
              f"cutoffs {row['cutoffs']}, {row['seconds'] * 1000:.1f} ms")
        if "visits" in row:
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
        saved = load_game(args.game)
        states = saved.states()
        if not 0 <= args.move < len(states):
            raise ConfigError(f"--move {args.move}: the game has positions 0 to {len(states) - 1}")
        state = states[args.move]
    else:
        layout = load_layout(args.layout)
        state = initial_state(layout, args.num_ghosts)
    if state.is_terminal or state.turn != 0:
        raise ConfigError("that position is over or not Pacman's turn")
    return state
