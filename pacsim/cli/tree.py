"""``pacsim tree``: the tree a search Pacman searched at one position, as a
page that opens at the root and expands on click (or JSON, or Graphviz
DOT); ``--compare A B`` puts two Pacmen's trees side by side; ``--example``
draws one of the seeds' worked examples.  See docs/tree.md."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from pacsim.cli.common import options_given_once
from pacsim.errors import ConfigError

FORMATS = ("html", "json", "dot")
QUESTION_KINDS = ("value", "move")
"""``--exercise``'s questions (pacsim.web.exercise.QUESTION_KINDS, not imported for --help)."""
DEFAULT_LAYOUT = "tinyGhostMaze"
DEFAULT_PACMAN = "expectimax:depth=2"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from pacsim.cli.play import add_game_options, reword_options

    add_game_options(parser)
    parser.set_defaults(pacman=None, layout=None)
    reword_options(parser, {"layout": f"shipped layout name or .lay path (default {DEFAULT_LAYOUT})",
                            "pacman": f"the search Pacman whose tree is drawn (default: the record's, else {DEFAULT_PACMAN})",
                            "ghosts": "the ghosts of the game played from --seed to reach --move (default random)"})
    parser.add_argument("--seed", type=int, default=0, help="seed of the game played to reach --move (default 0)")
    parser.add_argument("--record", metavar="GAME.json", help="a recorded game: the position before Pacman's --move")
    parser.add_argument("--store", metavar="RESULTS.sqlite", help="a results store: game --game's position before --move")
    parser.add_argument("--game", type=int, default=None, help="with --store: the game's id")
    parser.add_argument("--move", type=int, default=0,
                        help="the position before Pacman's move N (0: the start); with -l, of the game -p plays against -g from --seed")
    parser.add_argument("--agent", type=int, default=None,
                        help="a capture record: --move counts this agent's moves (default: the game's moves)")
    parser.add_argument("--team", default=None,
                        help="a capture record: the search team traced at the move (default: the record's; alphabeta[:depth=N])")
    parser.add_argument("--compare", nargs=2, metavar=("A", "B"), help="two Pacman specs, their trees side by side")
    parser.add_argument("--example", choices=example_names(), help="a worked example of the seeds instead of a Pacman position")
    parser.add_argument("--depth", type=int, default=None, help="search depth (rounds), replacing the Pacman's own")
    parser.add_argument("--format", choices=FORMATS, default="html", help="html (default), json (docs/tree.md) or dot")
    parser.add_argument("--out", metavar="FILE", help="where to write (default: tree.html, or stdout for json and dot)")
    parser.add_argument("--max-nodes", type=int, default=None, metavar="N", help="nodes embedded at most (default 20000; dot 2000)")
    parser.add_argument("--exercise", nargs="?", const="auto", choices=("auto", *QUESTION_KINDS), default=None,
                        help="predict, then check: the page hides the values and asks for a node's value (value) or the "
                             "move the search plays (move); default: with --compare the value of the lesson's first node valued "
                             "differently, else the move")


def example_names() -> list[str]:
    from pacsim.search.examples import EXAMPLES  # game-agnostic and small: fine for --help

    return list(EXAMPLES)


def run(args: argparse.Namespace) -> int:
    from pacsim.files import check_output, write_atomically
    from pacsim.web.tree import compare_page, tree_dot, tree_json, tree_page

    if args.max_nodes is not None and args.max_nodes < 1:
        raise ConfigError(f"--max-nodes {args.max_nodes}: must be at least 1")
    out = args.out or ("tree.html" if args.format == "html" else None)
    if out is not None:  # before the work: an unwritable place, or an input, is refused now
        check_output(out, "--out", inputs=[path for path in (args.record, args.store, args.layout) if path])
    if args.exercise and args.format != "html":
        raise ConfigError(f"--exercise is a page: --format {args.format} writes the whole tree")
    names, traces, where = traced(args)
    cap: dict[str, Any] = {} if args.max_nodes is None else {"max_nodes": args.max_nodes}
    title = f"pacsim tree: {where}"
    if args.format == "html":
        text = (compare_page(traces[0], traces[1], (names[0], names[1]), title=title, exercise=args.exercise, **cap)
                if len(traces) == 2 else
                tree_page(traces[0], title=f"{title}, {names[0]}", question=question(args.exercise, traces[0], names[0]), **cap))
    elif len(traces) == 2:
        raise ConfigError(f"--compare draws an HTML page; --format {args.format} writes one tree")
    elif args.format == "json":
        text = tree_json(traces[0], title=f"{title}, {names[0]}", **cap)
    else:
        text = tree_dot(traces[0], title=f"{title}, {names[0]}", **cap)
    if out is None:
        sys.stdout.write(text)
        return 0
    write_atomically(out, text, "the tree")
    trace = traces[0]
    print(f"wrote {out}: {', '.join(names)}, {len(trace.nodes)} nodes, value {float(trace.result.value):.4g}"
          + (f", plays {label_of(trace.result.action)}" if trace.result.action is not None else ""))
    return 0


def question(kind: str | None, trace: Any, name: str) -> Any:
    """``--exercise``'s question on one tree (auto: the move it plays, where it has a choice, else a value)."""
    from pacsim.web.exercise import question_for

    if kind is None:
        return None
    if kind == "auto":
        root = trace.root
        kind = "move" if root.kind in ("max", "min") and len(root.children) > 1 and trace.result.action is not None else "value"
    return question_for(trace, kind, name=name)


def label_of(move: Any) -> str:
    return move[0] if isinstance(move, tuple) else str(move)


def traced(args: argparse.Namespace) -> tuple[list[str], list[Any], str]:
    """The names, traces and a description of the position asked for."""
    if args.example:
        from pacsim.search.examples import EXAMPLES

        if args.compare:  # was silently ignored: the example's page would not be the comparison asked for
            raise ConfigError(f"--example {args.example} draws the example's own search; --compare compares two "
                              "Pacmen at a maze position (-l, --record or --store)")

        example = EXAMPLES[args.example]
        return [example.algorithm], [example.trace()], f"{args.example} ({example.source})"
    if args.record:
        from pacsim.engine.capture.record import record_dict

        if record_dict(args.record) is not None:
            return capture_traced(args)
    if args.agent is not None or args.team is not None:
        raise ConfigError("--agent and --team are for a capture record (--record GAME.json of pacsim capture --record)")
    state, where, recorded = position(args)
    if recorded is not None and not (args.compare or args.pacman):
        refuse_recorded_code(recorded)
    specs = args.compare or [args.pacman or recorded or DEFAULT_PACMAN]
    return specs, [trace_of(spec, args, state) for spec in specs], where


def capture_traced(args: argparse.Namespace) -> tuple[list[str], list[Any], str]:
    """The tree a capture search team searched at a move of a ``pacsim capture --record`` game."""
    from pacsim.agents.capture.tree import capture_move_tree
    from pacsim.engine.capture.record import read_capture_record

    given = [option for option, value in (("--compare", args.compare), ("-p", args.pacman), ("--store", args.store))
             if value]
    if given:
        raise ConfigError(f"{given[0]} is for a Pacman game; a capture record's tree is its team's (--team to choose it)")
    if args.depth is not None and args.depth < 1:
        raise ConfigError(f"--depth {args.depth}: must be at least 1")
    record = read_capture_record(args.record)
    tree = capture_move_tree(record, args.move, args.agent, args.team, args.depth)
    side = "red" if tree.agent % 2 == 0 else "blue"
    where = f"{args.record}, move {tree.move} (agent {tree.agent}, {side})"
    return [tree.team], [tree.trace], where


def refuse_recorded_code(spec: str) -> None:
    """A record's or a store's Pacman is traced only when all it names is
    built in: its text decides, before anything is imported."""
    from pacsim.agents.registry import refuse_named_code

    refuse_named_code(spec, "the recorded Pacman", "to trace it as you, name it yourself: --pacman SPEC")


def trace_of(spec: str, args: argparse.Namespace, state: Any) -> Any:
    """``spec``'s search of ``state``, traced."""
    from pacsim.agents.mcts_agent import MctsPacman
    from pacsim.web.tree import tracing_pacman

    pacman = tracing_pacman(spec, options_given_once(spec, args.agent_args, "-a"))
    return pacman.trace(state, seed=args.seed) if isinstance(pacman, MctsPacman) else pacman.trace(state, args.depth)


def position(args: argparse.Namespace) -> tuple[Any, str, str | None]:
    """The position (a record's, a store's or a game's from -l), where it
    comes from, and the Pacman spec the game was played with (if recorded)."""
    from pacsim.cli.analyze import pacman_position

    if args.move < 0:
        raise ConfigError(f"--move {args.move}: moves are numbered from 0")
    if args.record or args.store:
        from pacsim.cli.replay import load_replay

        if args.record and args.store:
            raise ConfigError("--record and --store: give one")
        if args.store and args.game is None:
            raise ConfigError(f"--store {args.store}: choose a game with --game ID")
        saved = load_replay(args.record or args.store, args.game if args.store else None)
        state = pacman_position(saved.iter_states(), args.move)
        source = args.record or f"{args.store} game {args.game}"
        return state, f"{source}, move {args.move}", saved.pacman
    spec = args.pacman or (args.compare[0] if args.compare else DEFAULT_PACMAN)
    return played_position(args, spec), f"{args.layout or DEFAULT_LAYOUT}, move {args.move}", None


def played_position(args: argparse.Namespace, spec: str) -> Any:
    """The position before Pacman's move ``--move`` of the game ``spec``
    plays against -g on -l from ``--seed`` (the start for move 0)."""
    from pacsim.cli.analyze import pacman_position
    from pacsim.cli.play import build_agents, check_starts, ghost_count, start_layout
    from pacsim.engine import initial_state, load_layout, play_game

    maze = load_layout(args.layout or DEFAULT_LAYOUT)
    ghosts = ghost_count(args.num_ghosts, maze)
    check_starts(args, maze, ghosts)
    layout = start_layout(args, maze, ghosts, args.seed)
    if args.move == 0:
        return initial_state(layout, ghosts)
    states: list[Any] = []
    agents = build_agents(argparse.Namespace(**{**vars(args), "pacman": spec}), layout)
    play_game(layout, agents, seed=args.seed, max_moves=args.move, on_state=lambda state, action: states.append(state))
    return pacman_position(states, args.move)
