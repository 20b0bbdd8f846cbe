"""``pacsim layouts``: list the shipped layouts, check a user's, or generate one."""

from __future__ import annotations

import argparse
import sys

from pacsim.engine import find_layout, parse_layout, read_layout, shipped_layouts
from pacsim.engine.generate import MazeSpec, generate_layout
from pacsim.files import check_output, write_atomically


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--check", metavar="FILE", nargs="+", help="validate layouts: files, or names found as play finds them")
    generate = parser.add_argument_group(
        "generating", "pacsim layouts --generate --width 9 --height 7 --food 4 --ghosts 1 --loops 0.5 --seed 3 "
                      "(an experiment names the same maze generated:w=9,h=7,food=4,ghosts=1,loops=0.5,seed=3)")
    generate.add_argument("--generate", action="store_true", help="print (or --out) a seeded random maze")
    defaults = MazeSpec()
    for option, kind, help_text in (
            ("width", int, "columns, outer walls included"), ("height", int, "rows, outer walls included"),
            ("food", int, "food pellets"), ("capsules", int, "power capsules"), ("ghosts", int, "ghosts"),
            ("loops", float, "share of dead ends opened into loops, 0 (perfect maze) to 1 (no dead end)"),
            ("rooms", float, "share of wall pillars removed to make 3x3 rooms, 0 to 1"),
            ("seed", int, "the maze's random seed")):
        generate.add_argument(f"--{option}", type=kind, default=getattr(defaults, option),
                              help=f"{help_text} (default {getattr(defaults, option)})")
    generate.add_argument("--out", metavar="FILE.lay", default=None, help="write the maze here instead of printing it")


def run(args) -> int:
    if args.generate:
        return _generate(args)
    if args.check:
        for path in args.check:
            found = find_layout(path)  # raises LayoutError: one line, exit 2
            if found.note:
                print(f"pacsim: note: {found.note}", file=sys.stderr)
            layout = found.layout
            for warning in layout.warnings:
                print(warning, file=sys.stderr)
            print(f"{path}: ok: {_describe(layout)}")
        return 0
    print(f"{'name':<16}{'size':>8}{'food':>6}{'capsules':>10}{'ghosts':>8}")
    for name, path in shipped_layouts().items():
        layout = read_layout(path)
        print(f"{name:<16}{layout.width:>4}x{layout.height:<3}{layout.food_count:>6}{layout.capsule_count:>10}{layout.num_ghosts:>8}")
    return 0


def _describe(layout) -> str:
    return (
        f"{layout.width}x{layout.height}, {layout.food_count} food, "
        f"{layout.capsule_count} capsules, {layout.num_ghosts} ghosts"
    )


def _generate(args) -> int:
    spec = MazeSpec(width=args.width, height=args.height, food=args.food, capsules=args.capsules,
                    ghosts=args.ghosts, loops=args.loops, rooms=args.rooms, seed=args.seed)
    if args.out is not None:
        check_output(args.out, "--out")
    text = generate_layout(spec)
    if args.out is None:
        print(text, end="")
        return 0
    write_atomically(args.out, text, "the maze")
    print(f"{args.out}: {_describe(parse_layout(text))} ({spec.name()})")
    return 0
