"""pacsim's capture rules against the course's own engine (UC Berkeley CS188's ``capture.py``).

Always (CI too): games the course recorded (``capture.py --record``, its
pickled ``.replay`` files, committed in ``capture_course/recorded/`` with
the course engine's state digest after every move, made by
``python -m pacsim.bench.course_capture DIR --trace``) replay in pacsim to the same
score, food, capsules, positions, carried and returned food and scared
timers at every move.

With a copy of the course (``PACSIM_CAPTURE_COURSE=DIR``, kept outside the
repository; see ``optional.outside_repository``): fresh games recorded by
that copy now, on shipped and generated mazes, compared move by move.
"""

import itertools
import json
import subprocess
import sys
from pathlib import Path

import optional
import pytest
from capture_course.course_rows import canonical, digest, pacsim_row

from pacsim.engine.capture.replay import read_course_replay

HERE = Path(__file__).parent / "capture_course"
RECORDED = sorted((HERE / "recorded").glob("*.replay"))


@pytest.mark.parametrize("replay", RECORDED, ids=lambda path: path.stem)
def test_course_recordings_replay_to_the_course_engines_state_at_every_move(replay):
    expected = json.loads(replay.with_suffix(".json").read_text())
    recording = read_course_replay(replay)
    rows = [pacsim_row(state) for state in recording.states()]
    assert len(rows) == len(expected["digests"])
    for move, (row, wanted) in enumerate(zip(rows, expected["digests"])):
        assert digest(row) == wanted, f"move {move}: {recording.actions[move - 1] if move else 'start'} gives {row}"
    assert rows[-1] == canonical(expected["last"])


def test_the_recordings_exercise_drops_capsules_and_a_food_win():
    """The committed games are worth replaying: Pacmen caught with food, capsules eaten, a game won on food."""
    caught = scared = won = 0
    for replay in RECORDED:
        states = list(read_course_replay(replay).states())
        for before, after in itertools.pairwise(states):
            caught += any(before.carrying[agent] and after.positions[agent] == after.layout.starts[agent]
                          and before.positions[agent] != after.positions[agent] for agent in range(4))
            scared += max(after.scared) == 40
        won += states[-1].over and states[-1].moves_left > 0
    assert caught >= 3 and scared >= 1 and won >= 1


RUN_COURSE = ["-m", "pacsim.bench.course_capture"]


def _course_python() -> str:
    return sys.executable


@pytest.mark.parametrize("layout,seed", [("tinyCapture", 11), ("RANDOM21", 12)])
def test_fresh_course_games_replay_move_for_move(layout, seed, tmp_path):
    course = optional.outside_repository("PACSIM_CAPTURE_COURSE", "capture.py")
    maze = layout if layout.startswith("RANDOM") else f"{course}/layouts/{layout}.lay"
    team = f"{course}/baselineTeam.py"
    subprocess.run([_course_python(), *RUN_COURSE, course, "-q", "-r", team, "-b", team, "--redOpts",
                    "first=OffensiveReflexAgent,second=OffensiveReflexAgent", "-l", maze, "--record",
                    "--delay-step", "0", "--setRandomSeed", str(seed)], cwd=tmp_path, check=True, capture_output=True, timeout=240)
    replay = tmp_path / "replay-0"
    traced = subprocess.run([_course_python(), *RUN_COURSE, course, "--trace", str(replay)], cwd=tmp_path,
                            check=True, capture_output=True, text=True, timeout=240)
    course_rows = [canonical(json.loads(line)) for line in traced.stdout.splitlines()]
    recording = read_course_replay(replay)
    for move, (row, wanted) in enumerate(zip((pacsim_row(state) for state in recording.states()), course_rows)):
        assert row == wanted, f"move {move}: {recording.actions[move - 1] if move else 'start'}"
    assert move + 1 == len(course_rows) == len(recording.actions) + 1
