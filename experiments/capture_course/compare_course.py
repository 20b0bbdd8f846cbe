"""Do course teams get the course engine's results through pacsim?

Usage: python experiments/capture_course/compare_course.py COURSE_FOLDER [--games N] [--mazes A,B] [--out DIR]
       python experiments/capture_course/compare_course.py --merge DIR... [--out DIR]   (runs made apart, one table)

COURSE_FOLDER holds a copy of the course's ``capture.py`` and its ``baselineTeam.py``
(kept outside the repository). For each match-up (the course's baseline against
itself; this folder's ``studentTeam.py`` as red against it) and each maze, N games
are played by the course's engine (``capture.py -q --delay-step 0`` through
``pacsim.bench.course_capture``, its own random draws) and N by pacsim (seeds
0..N-1), the team files unmodified in both. Each engine's red win rate (Wilson 95%),
tie rate and mean score (t 95%) are written to ``results.json`` and ``results.md``
in DIR (default: beside this script), with the difference between the engines
and its 95% interval: the engines agree where that interval holds 0.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import subprocess
import sys
import time
from pathlib import Path

from pacsim.agents.capture import build_team
from pacsim.engine.capture.game import play_capture_game
from pacsim.engine.capture.layout import find_capture_layout
from pacsim.files import write_atomically
from pacsim.report.stats import Z_95, mean_interval, wilson_interval

HERE = Path(__file__).resolve().parent
STUDENT = HERE / "studentTeam.py"
MAZES = ("defaultCapture", "fastCapture")


def matchups(course: Path) -> list[tuple[str, Path, Path]]:
    baseline = course / "baselineTeam.py"
    return [("baseline vs baseline", baseline, baseline), ("student vs baseline", STUDENT, baseline)]


def course_scores(course: Path, red: Path, blue: Path, maze: str, games: int) -> list[int]:
    """The final scores of ``games`` games played by the course's engine (its own command line)."""
    command = [sys.executable, "-m", "pacsim.bench.course_capture", str(course), "-r", str(red), "-b", str(blue),
               "-l", maze, "-n", str(games), "-q", "--delay-step", "0"]
    if games == 1:  # the course prints its Scores line only for several games
        command[command.index("-n") + 1] = "1"
    output = subprocess.run(command, cwd=course, capture_output=True, text=True, check=True).stdout
    if games == 1:
        return [_one_score(output)]
    line = next(line for line in output.splitlines() if line.startswith("Scores:"))
    return [int(value) for value in re.findall(r"-?\d+", line.partition(":")[2])]


def _one_score(output: str) -> int:
    """A single game's score from the course's result line."""
    won = re.search(r"The (Red|Blue) team wins by (\d+) points", output)
    if won:
        return int(won.group(2)) * (1 if won.group(1) == "Red" else -1)
    return 0


def pacsim_scores(red: Path, blue: Path, maze: str, games: int) -> list[int]:
    """The final scores of ``games`` games played by pacsim, seeds 0..games-1, the same files."""
    layout = find_capture_layout(maze)
    red_team, blue_team = build_team(str(red), True), build_team(str(blue), False)
    return [play_capture_game(layout, red_team, blue_team, seed).score for seed in range(games)]


def summary(scores: list[int]) -> dict[str, object]:
    count = len(scores)
    red, ties = sum(score > 0 for score in scores), sum(score == 0 for score in scores)
    mean, low, high = mean_interval(scores)
    return {"games": count, "red_wins": red, "ties": ties, "blue_wins": count - red - ties,
            "red_win_rate": red / count, "red_win_interval": list(wilson_interval(red, count)),
            "mean_score": mean, "mean_interval": [low, high], "scores": scores}


def difference(course: dict, pacsim: dict, rate: bool) -> tuple[float, float, float]:
    """pacsim's value minus the course's, with a normal 95% interval (two independent samples)."""
    if rate:
        values = [(side["red_win_rate"], side["red_win_rate"] * (1 - side["red_win_rate"]) / side["games"]) for side in (pacsim, course)]
    else:
        values = [(side["mean_score"], _variance(side["scores"]) / side["games"]) for side in (pacsim, course)]
    (ours, our_variance), (theirs, their_variance) = values
    half = Z_95 * math.sqrt(our_variance + their_variance)
    return ours - theirs, ours - theirs - half, ours - theirs + half


def _variance(values: list[int]) -> float:
    mean = sum(values) / len(values)
    return sum((value - mean) ** 2 for value in values) / max(1, len(values) - 1)


def compare(course: Path, games: int, mazes: tuple[str, ...]) -> list[dict[str, object]]:
    rows = []
    for name, red, blue in matchups(course):
        for maze in mazes:
            started = time.process_time()
            ours = summary(pacsim_scores(red, blue, maze, games))
            ours["cpu_seconds"] = round(time.process_time() - started, 1)
            started = time.perf_counter()
            theirs = summary(course_scores(course, red, blue, maze, games))
            theirs["wall_seconds"] = round(time.perf_counter() - started, 1)
            rows.append({"matchup": name, "maze": maze, "course": theirs, "pacsim": ours,
                         "win_rate_difference": difference(theirs, ours, rate=True),
                         "mean_score_difference": difference(theirs, ours, rate=False)})
            print(table_line(rows[-1]), flush=True)
    return rows


def agrees(row: dict) -> bool:
    """Whether both differences' 95% intervals hold 0."""
    return all(low <= 0 <= high for _, low, high in (row["win_rate_difference"], row["mean_score_difference"]))


def table_line(row: dict) -> str:
    cells = [row["matchup"], row["maze"], str(row["course"]["games"])]
    for side in (row["course"], row["pacsim"]):
        low, high = side["red_win_interval"]
        cells.append(f"{side['red_win_rate']:.2f} [{low:.2f}, {high:.2f}]")
    for side in (row["course"], row["pacsim"]):
        low, high = side["mean_interval"]
        cells.append(f"{side['mean_score']:.2f} [{low:.2f}, {high:.2f}]")
    for key in ("win_rate_difference", "mean_score_difference"):
        value, low, high = row[key]
        cells.append(f"{value:+.2f} [{low:+.2f}, {high:+.2f}]")
    cells.append("yes" if agrees(row) else "**no**")
    return "| " + " | ".join(cells) + " |"


HEADER = ("| match-up | maze | games each | course: red wins | pacsim: red wins | course: mean score | pacsim: mean score "
          "| win rate: pacsim - course | mean score: pacsim - course | agree |\n|---|---|---|---|---|---|---|---|---|---|")


def write(rows: list[dict], folder: Path, command: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    write_atomically(folder / "results.json", json.dumps({"command": command, "rows": rows}, indent=1) + "\n", "the results")
    lines = [f"Written by `{command}`.", "", HEADER, *map(table_line, rows), ""]
    write_atomically(folder / "results.md", "\n".join(lines), "the results table")


def merge(folders: list[Path], out: Path) -> None:
    """One table of several runs' rows (mazes run in parallel processes), each run's command kept."""
    runs = [json.loads((folder / "results.json").read_text()) for folder in folders]
    rows = sorted((row for run in runs for row in run["rows"]), key=lambda row: (row["matchup"], row["maze"]))
    write(rows, out, "; ".join(run["command"] for run in runs))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("course", type=Path, nargs="?", help="a folder holding the course's capture.py and baselineTeam.py")
    parser.add_argument("--merge", type=Path, nargs="+", metavar="DIR", help="merge the results of these runs into --out")
    parser.add_argument("--games", type=int, default=200, help="games per engine, match-up and maze")
    parser.add_argument("--mazes", default=",".join(MAZES), help="comma-separated maze names, in both engines")
    parser.add_argument("--out", type=Path, default=HERE, help="where results.json and results.md go")
    args = parser.parse_args(argv)
    if args.merge:
        merge(args.merge, args.out)
        return
    if args.course is None or not (args.course / "capture.py").is_file():
        parser.error(f"{args.course or 'COURSE_FOLDER'}: no capture.py there (or --merge DIR...)")
    rows = compare(args.course.resolve(), args.games, tuple(args.mazes.split(",")))
    command = f"python experiments/capture_course/compare_course.py COURSE --games {args.games} --mazes {args.mazes}"
    write(rows, args.out, command)


if __name__ == "__main__":
    main()
