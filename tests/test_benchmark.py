"""``pacsim bench`` at toy sizes: every figure is produced, positive and in
its unit.  No timing is asserted (a benchmark is not a timed test)."""

from __future__ import annotations

import ast
import json
from pathlib import Path

from pacsim.bench.memory import memory_figures, report_memory, run_memory_probe
from pacsim.bench.report import Report, machine_info
from pacsim.bench.search import search_figures, successor_rate, table_figures
from pacsim.bench.throughput import THROUGHPUT_EXPERIMENT, batch_throughput

TINY_EXPERIMENT = """
name = "bench_tiny"
games = 2
seed = 3
max_moves = 40
[grid]
pacman = ["greedy"]
ghosts = ["random"]
layout = ["tinyGhostMaze"]
"""


def units(report: Report) -> dict[str, str]:
    return {figure.name: figure.unit for figure in report.figures}


def test_search_and_table_figures_at_toy_sizes():
    report = Report(machine=machine_info())
    rate, nodes = successor_rate("smallClassic", depth=6, repeats=1)
    assert rate > 0 and nodes > 0
    search_figures(report, depths=(1,), evaluations=("score",), count=1)
    table_figures(report, bound=50, depth=2, count=2)
    found = units(report)
    assert found["score depth 1 alphabeta nodes/s"] == "nodes/s"
    assert found["score depth 1 alphabeta/minimax"] == "ratio"
    assert found["memory per entry"] == "bytes"
    for figure in report.figures:
        assert figure.value > 0, figure
    bound_ratio = next(figure.value for figure in report.figures if figure.name == "largest size / bound")
    assert bound_ratio <= 1.0


def test_tree_figures_time_a_trace_and_size_its_page():
    from pacsim.bench.tree import tree_figures

    report = Report(machine=machine_info())
    tree_figures(report, ("tinyGhostMaze",), depth=2)
    found = {figure.name: figure for figure in report.figures}
    assert found["tinyGhostMaze expectimax depth 2 page bytes"].value > 5000
    assert found["tinyGhostMaze expectimax depth 2 traced/untraced"].unit == "ratio"
    assert all(figure.value > 0 for figure in report.figures)


def test_batch_throughput_reports_rates_and_the_scaling_ratio(tmp_path):
    experiment = tmp_path / "tiny.toml"
    experiment.write_text(TINY_EXPERIMENT, encoding="utf-8")
    report = Report()
    batch_throughput(report, games_per_condition=2, experiment_path=experiment, cores=2)
    assert [(figure.name, figure.unit) for figure in report.figures] == [
        ("1 worker", "games/s"), ("2 workers", "games/s"), ("scaling 2 workers / 1 worker", "ratio")]
    assert all(figure.value > 0 for figure in report.figures)
    assert "target 1.8x" in report.figures[-1].note


def test_a_missing_experiment_file_is_skipped_not_fatal(tmp_path):
    report = Report()
    batch_throughput(report, games_per_condition=1, experiment_path=tmp_path / "absent.toml")
    assert not report.figures and "absent.toml" in report.skipped[0]


def test_memory_probe_in_a_fresh_interpreter():
    probe = run_memory_probe(20)
    assert probe["games"] == 20
    assert 0 < probe["baseline"] <= probe["peak"] and probe["at_100_percent"] <= probe["peak"]
    report = Report()
    memory_figures(report, peak_games=20, long_games=20)
    assert units(report) == {"peak RSS of a 20-game run": "MB", "RSS growth, game 2 to 20": "MB"}


def test_report_memory_is_measured_a_stored_game():
    report = Report()
    report_memory(report, small=20, large=60)
    (figure,) = report.figures
    assert (figure.name, figure.unit) == ("pacsim report, memory a stored game", "KB")
    assert "with 20 games" in figure.note and "with 60" in figure.note


def test_report_text_and_json():
    report = Report(machine={"pacsim": "0.1.0", "cores": 2})
    report.add("search", "depth 2 nodes/s", 123456.0, "nodes/s", "10 nodes")
    report.add("pruning", "alphabeta/minimax", 0.25, "ratio")
    report.skip("batch scaling: one core only")
    text = report.to_text()
    assert "pacsim=0.1.0 cores=2" in text and "123,456" in text and "0.250" in text
    assert "[skipped]" in text and "one core only" in text
    decoded = json.loads(json.dumps(report.to_dict()))
    assert decoded["figures"][0] == {"group": "search", "name": "depth 2 nodes/s", "value": 123456.0,
                                     "unit": "nodes/s", "note": "10 nodes"}
    assert decoded["skipped"] == ["batch scaling: one core only"]


def test_the_throughput_experiment_ships_with_the_source():
    assert Path(__file__).resolve().parents[1] / "experiments" / "optimism_pessimism" / "optimism_pessimism.toml" == THROUGHPUT_EXPERIMENT
    assert THROUGHPUT_EXPERIMENT.is_file()


def test_only_the_cli_imports_the_bench_package():
    """The benchmark plays games and runs experiments: it sits at the top
    with the CLI, and no lower layer may import it."""
    package = Path(__file__).resolve().parents[1] / "pacsim"
    importers = []
    for path in package.rglob("*.py"):
        if path.parent.name in ("bench", "cli"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(name == "pacsim.bench" or name.startswith("pacsim.bench.") for name in names):
                importers.append(path.relative_to(package).as_posix())
    assert importers == []
