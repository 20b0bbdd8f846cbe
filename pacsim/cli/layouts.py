"""``pacsim layouts``: list the shipped layouts, or check a user's."""

from __future__ import annotations

import sys

from pacsim.engine import read_layout, shipped_layouts


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("layouts", help="list shipped layouts or check a layout file")
    parser.add_argument("--check", metavar="FILE", nargs="+", help="validate layout files")
    parser.set_defaults(run=run)


def run(args) -> int:
    if args.check:
        for path in args.check:
            layout = read_layout(path)  # raises LayoutError: one line, exit 2
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
