"""``pacsim experiments``: the experiments pacsim ships, one line each, for ``pacsim run NAME``."""

from __future__ import annotations

import argparse
import re
import textwrap
from pathlib import Path

from pacsim.report.format import terminal_width
from pacsim.shipped import EXPERIMENTS, shipped_experiments, shipped_folder


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """No options of its own (the common ones only)."""


def run(args: argparse.Namespace) -> int:
    experiments = shipped_experiments()
    width = max(map(len, experiments), default=4)
    print(f"{'name':<{width}}  {'games':>6}  what it measures")
    indent = " " * (width + 10)
    columns = terminal_width()
    for name, path in experiments.items():
        line = f"{name:<{width}}  {_games(path):>6}  {first_sentence(path)}"
        # Whole sentences: wrapped under their column in a terminal, one line each in a pipe.
        print("\n".join(textwrap.wrap(line, max(columns, len(indent) + 30), subsequent_indent=indent))
              if columns else line)
    print(f"\nRun one with: pacsim run NAME (results in ./results/); the files and what they found: {shipped_folder(EXPERIMENTS)}")
    return 0


def first_sentence(path: Path) -> str:
    """The first sentence of the comment a shipped experiment file opens with."""
    comment = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        comment.append(line.lstrip("# ").strip())
    text = " ".join(comment)
    match = re.match(r"(.+?[.?!])(\s|$)", text)
    return match.group(1) if match else text


def _games(path: Path) -> str:
    from pacsim.runner.experiment_file import read_toml

    return str(read_toml(path).get("games", "?"))
