"""``pacsim exercises``: a sheet of predict-then-check exercises, each a
tree page that hides the values and asks for a node's value or the move
a search plays (docs/tree.md), from the positions of real games or from
the seeds' worked examples, with the answer key as JSON and CSV."""

from __future__ import annotations

import argparse
import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pacsim.errors import ConfigError

DEFAULT_LAYOUT = "optimismHalls"
DEFAULT_PLAYER = "expectimax:depth=2"
DEFAULT_SEARCHES = ("minimax:depth=1", "expectimax:depth=1")
SPREAD = 2
"""Every SPREAD-th move of a game gives a position: a sheet is not one move after another."""
GAMES_AT_MOST = 20
"""Games played (seeds from --seed on) looking for positions before giving up."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from pacsim.cli.play import add_game_options, reword_options

    add_game_options(parser)
    parser.set_defaults(pacman=DEFAULT_PLAYER, ghosts="adversarial", layout=None)
    reword_options(parser, {"layout": f"the maze whose games give the positions (default {DEFAULT_LAYOUT})",
                            "pacman": f"the Pacman playing the games the positions come from (default {DEFAULT_PLAYER})",
                            "ghosts": "the ghosts of those games (default adversarial)"})
    parser.add_argument("-n", "--exercises", type=int, default=6, metavar="N", help="how many exercises (default 6)")
    parser.add_argument("--search", nargs="+", default=list(DEFAULT_SEARCHES), metavar="SPEC",
                        help=f"the searches asked about, in turn (default {' '.join(DEFAULT_SEARCHES)}: small trees to work by hand)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game played (default 0)")
    parser.add_argument("--examples", action="store_true", help="the seeds' worked examples instead of positions of games")
    parser.add_argument("--out", metavar="FOLDER", default="exercises",
                        help="where the sheet (index.html), the pages and the key (key.json, key.csv) go (default exercises)")


def run(args: argparse.Namespace) -> int:
    from pacsim.files import check_output, write_atomically
    from pacsim.web.exercise import KEY_SCHEMA, key_rows, page_name, sheet_page
    from pacsim.web.tree import tree_page

    if args.exercises < 1:
        raise ConfigError(f"-n {args.exercises}: ask for at least one exercise")
    folder = check_output(args.out, "--out", folder=True)
    exercises = list(from_examples(args.exercises) if args.examples else from_games(args))
    if len(exercises) < args.exercises:
        where = "the seeds' examples give" if args.examples else f"{GAMES_AT_MOST} games from --seed {args.seed} give"
        raise ConfigError(f"-n {args.exercises}: {where} only {len(exercises)} exercises worth asking")
    for number, exercise in enumerate(exercises, 1):
        title = f"Exercise {number}: {exercise.source}, {exercise.search}"
        write_atomically(folder / page_name(number), tree_page(exercise.trace, title=title, question=exercise.question),
                         "the exercise")
    rows = key_rows(exercises)
    write_atomically(folder / "key.json", json.dumps({"schema": KEY_SCHEMA, "exercises": rows}, indent=1) + "\n", "the key")
    write_atomically(folder / "key.csv", key_csv(rows), "the key")
    write_atomically(folder / "index.html", sheet_page(exercises, f"pacsim exercises ({len(exercises)})"), "the sheet")
    print(f"wrote {len(exercises)} exercises to {folder}: index.html (the sheet), {page_name(1)} ... "
          f"{page_name(len(exercises))}, and the answers in key.json and key.csv")
    return 0


def key_csv(rows: list[dict[str, Any]]) -> str:
    from pacsim.web.exercise import KEY_FIELDS

    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=KEY_FIELDS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return text.getvalue()


def from_examples(count: int) -> Iterator[Any]:
    """Exercises from the seeds' worked examples: where asking works, which move each plays, then each one's value."""
    from pacsim.search.examples import EXAMPLES
    from pacsim.web.exercise import QUESTION_KINDS, Exercise, worth_asking

    made = 0
    for kind in QUESTION_KINDS[::-1]:
        for name, example in EXAMPLES.items():
            trace = example.trace()
            question = worth_asking(trace, kind)
            if question is not None and made < count:
                made += 1
                yield Exercise(trace, question, f"{name} ({example.source})", example.algorithm)


def from_games(args: argparse.Namespace) -> Iterator[Any]:
    """Exercises from positions of games -p plays against -g: the searches
    asked about in turn, a value and a move question in turn (a move whose
    best is tied with another only when nothing better is found), each
    position asked about once."""
    from pacsim.web.exercise import QUESTION_KINDS, Exercise, worth_asking

    searches = [searcher(spec) for spec in args.search]
    waiting: dict[str, list[Any]] = {kind: [] for kind in QUESTION_KINDS}
    tied: list[Any] = []
    used: set[str] = set()
    made = 0
    for number, (source, state) in enumerate(positions(args)):
        spec, pacman = searches[number % len(searches)]
        trace = pacman.trace(state)
        for kind in QUESTION_KINDS:
            clean, any_tie = worth_asking(trace, kind, ties=False), worth_asking(trace, kind)
            if clean is not None:
                waiting[kind].append(Exercise(trace, clean, source, spec))
            elif any_tie is not None:
                tied.append(Exercise(trace, any_tie, source, spec))
        for exercise in taken(waiting, used, args.exercises - made, alternate=True):
            made += 1
            yield exercise
        if made >= args.exercises:
            return
    leftover = {"any": [exercise for kind in QUESTION_KINDS for exercise in waiting[kind]] + tied}
    yield from taken(leftover, used, args.exercises - made, alternate=False)


def taken(waiting: dict[str, list[Any]], used: set[str], wanted: int, alternate: bool) -> Iterator[Any]:
    """Up to ``wanted`` exercises out of ``waiting`` (by kind, alternating when
    ``alternate``), each of a position not ``used`` yet (which it then is)."""
    kinds = list(waiting)
    while wanted > 0:
        kind = kinds[len(used) % len(kinds)] if alternate else kinds[0]
        queue = waiting[kind]
        while queue and queue[0].source in used:
            queue.pop(0)
        if not queue:
            return
        exercise = queue.pop(0)
        used.add(exercise.source)
        wanted -= 1
        yield exercise


def searcher(spec: str) -> tuple[str, Any]:
    from pacsim.agents.mcts_agent import MctsPacman
    from pacsim.web.tree import tracing_pacman

    pacman = tracing_pacman(spec, option="--search")
    if isinstance(pacman, MctsPacman):
        raise ConfigError(f"--search {spec}: MCTS values are means of random playouts, not worked out by hand")
    return spec, pacman


def positions(args: argparse.Namespace) -> Iterator[tuple[str, Any]]:
    """Pacman's positions (each once) in the games -p plays against -g on -l, from --seed on."""
    from pacsim.cli.play import check_starts, ghost_count, start_layout
    from pacsim.engine import load_layout
    from pacsim.web.frames import move_positions

    maze = load_layout(args.layout or DEFAULT_LAYOUT)
    ghosts = ghost_count(args.num_ghosts, maze)
    check_starts(args, maze, ghosts)
    seen: set[Any] = set()
    for seed in range(args.seed, args.seed + GAMES_AT_MOST):
        layout = start_layout(args, maze, ghosts, seed)
        for move, state in enumerate(move_positions(played_states(args, layout, seed))):
            if move % SPREAD == 0 and not state.is_terminal and state not in seen:
                seen.add(state)
                yield f"{Path(layout.name).name}, game {seed}, move {move}", state


def played_states(args: argparse.Namespace, layout: Any, seed: int) -> list[Any]:
    """Every position of the game -p plays against -g on ``layout`` from ``seed``."""
    from pacsim.cli.play import build_agents
    from pacsim.engine import play_game

    states: list[Any] = []
    play_game(layout, build_agents(args, layout), seed=seed, max_moves=args.max_moves,
              on_state=lambda state, action: states.append(state))
    return states
