"""Reports on big stores: peak memory and seconds of ``pacsim report``,
``export`` and ``replay --list`` on stores of 20,000 to 2,000,000 games.

Playing two million games would take hours, so a store is filled with
synthetic rows: a few real games per condition (real replay logs, so that
lines of play are real), stored again and again under new game indices with
outcomes, scores and costs drawn at random, straight into SQLite in big
transactions (a million rows a minute)."""

from __future__ import annotations

import dataclasses
import random
import sqlite3
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pacsim.bench.report import Report
from pacsim.runner import GameRow, build_experiment, run_experiment
from pacsim.runner.row import GAME_COLUMNS
from pacsim.runner.store import ResultStore

SCALE_RUN: dict[str, Any] = {
    "name": "bench_store_scale", "games": 3, "seed": 1, "max_moves": 200,
    "grid": {"pacman": ["greedy", "random"], "ghosts": ["random", "directional"], "layout": ["tinyGhostMaze"]},
}
"""Four conditions of cheap games (a millisecond each) whose rows the synthetic store repeats."""
OUTCOMES = ("win", "loss", "loss", "timeout", "win", "error")
FAULTS = (None,) * 49 + ("move_timeout",)


def synthetic_store(path: Path, games: int, seed: int = 0, runs: int = 1) -> None:
    """A store at ``path`` of ``games`` games per run (``runs`` runs of one
    experiment, root seeds 1, 2, ...), spread over :data:`SCALE_RUN`'s conditions."""
    generator = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="pacsim-bench-") as directory:
        for run in range(1, runs + 1):
            experiment = build_experiment({**SCALE_RUN, "seed": run}, source="<bench store scale>")
            played = run_experiment(experiment, workers=1, store_path=Path(directory) / f"played-{run}.sqlite",
                                    quiet=True)
            templates = _rows(played.store)
            with ResultStore(path) as store:
                store.register(experiment)
                store.add_conditions(experiment, list(experiment.conditions))
                _insert(store.connection, _synthetic_rows(templates, games, generator))


def _rows(path: Path) -> list[GameRow]:
    with sqlite3.connect(path) as connection:
        connection.row_factory = sqlite3.Row
        return [GameRow(**{name: row[name] for name in GAME_COLUMNS})
                for row in connection.execute("SELECT * FROM games ORDER BY id")]


def _synthetic_rows(templates: list[GameRow], games: int, generator: random.Random) -> Iterator[tuple[Any, ...]]:
    conditions = sorted({row.condition_key for row in templates})
    by_condition = {key: [row for row in templates if row.condition_key == key] for key in conditions}
    for index in range(games):
        key = conditions[index % len(conditions)]
        template = by_condition[key][generator.randrange(len(by_condition[key]))]
        outcome = generator.choice(OUTCOMES)
        moves = generator.randrange(5, 200)
        row = dataclasses.replace(
            template, game_index=index // len(conditions), seed=1000 + index // len(conditions), outcome=outcome,
            score=(500 if outcome == "win" else -500) + generator.randrange(-40, 400), moves=moves,
            nodes=moves * generator.randrange(1, 50), move_seconds_mean=generator.random() / 1000,
            fault=generator.choice(FAULTS))
        yield dataclasses.astuple(row)


def _insert(connection: sqlite3.Connection, rows: Iterator[tuple[Any, ...]], batch: int = 50_000) -> None:
    names = list(GAME_COLUMNS)
    statement = f"INSERT INTO games ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})"
    while True:
        chunk = [row for _, row in zip(range(batch), rows)]
        if not chunk:
            return
        with connection:
            connection.executemany(statement, chunk)


def scale_probe(argument: str) -> dict[str, float]:
    """Peak RSS (MB) and seconds of one command on a store, in this (fresh) process: ``COMMAND|STORE``."""
    from pacsim.bench.memory import current_rss_mb, peak_rss_mb
    from pacsim.cli import main
    from pacsim.report import summarize  # noqa: F401  (its imports are the baseline, not the report's growth)

    command, store = argument.split("|", 1)
    baseline = current_rss_mb()
    with tempfile.TemporaryDirectory(prefix="pacsim-bench-") as directory:
        arguments = {
            "report": ["report", store, "--out", str(Path(directory) / "report.txt")],
            "export": ["export", store, "--out", str(Path(directory) / "games.parquet")],
            "replay --list": ["replay", store, "--list"],
        }[command]
        started = time.perf_counter()
        if main(arguments) != 0:
            raise RuntimeError(f"pacsim {command} {store} failed")
        seconds = time.perf_counter() - started
    return {"baseline": baseline, "peak": peak_rss_mb(), "seconds": seconds}


def store_scale_figures(report: Report, sizes: tuple[int, ...] = (20_000, 200_000, 2_000_000),
                        commands: tuple[str, ...] = ("report", "export", "replay --list")) -> None:
    """Peak RSS and seconds of each command at each store size, each in a fresh interpreter."""
    from pacsim.bench.memory import in_fresh_interpreter

    with tempfile.TemporaryDirectory(prefix="pacsim-bench-") as directory:
        for games in sizes:
            path = Path(directory) / f"scale-{games}.sqlite"
            started = time.perf_counter()
            synthetic_store(path, games)
            filled = time.perf_counter() - started
            for command in commands:
                figures = in_fresh_interpreter("scale_probe", f"{command}|{path}", module="pacsim.bench.store_scale")
                report.add("store scale", f"pacsim {command}, {games:,} games: peak RSS", figures["peak"], "MB",
                           f"{figures['seconds']:.1f} s; {figures['baseline']:.0f} MB after imports; "
                           f"store {path.stat().st_size / 2**20:.0f} MB filled in {filled:.0f} s")
            path.unlink()
