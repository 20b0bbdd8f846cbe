"""Course teams get the course engine's results through pacsim: the committed comparison
(experiments/capture_course: a few hundred games a match-up in each engine) agrees within its intervals,
its table is what its scores say, and with a course copy (PACSIM_CAPTURE_COURSE) a small comparison runs
end to end (pacsim's games are not compared with the committed ones: a change of how seeds become streams
changes them, and the comparison is of distributions)."""

import importlib.util
import json
import sys
from pathlib import Path

import pytest
from optional import outside_repository

EXPERIMENT = Path(__file__).resolve().parents[1] / "experiments" / "capture_course"


@pytest.fixture(scope="module")
def script():
    spec = importlib.util.spec_from_file_location("compare_course", EXPERIMENT / "compare_course.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def committed():
    return json.loads((EXPERIMENT / "results.json").read_text())


def test_the_engines_agree_on_every_committed_match_up(script, committed):
    rows = committed["rows"]
    assert {row["matchup"] for row in rows} == {"baseline vs baseline", "student vs baseline"}
    for matchup in ("baseline vs baseline", "student vs baseline"):
        assert sum(row["course"]["games"] for row in rows if row["matchup"] == matchup) >= 200  # a few hundred a match-up
    for row in rows:
        for engine in ("course", "pacsim"):
            scores = row[engine]["scores"]
            recomputed = script.summary(scores)
            assert len(scores) == row[engine]["games"]
            assert (recomputed["red_wins"], recomputed["ties"], recomputed["mean_score"]) == \
                   (row[engine]["red_wins"], row[engine]["ties"], row[engine]["mean_score"])
        fresh = {**row, "win_rate_difference": script.difference(row["course"], row["pacsim"], rate=True),
                 "mean_score_difference": script.difference(row["course"], row["pacsim"], rate=False)}
        assert script.agrees(fresh), script.table_line(fresh)


def test_the_table_is_written_from_the_rows(script, committed):
    table = (EXPERIMENT / "results.md").read_text()
    assert all(script.table_line(row) in table for row in committed["rows"])


def test_a_disagreement_is_seen(script, committed):
    row = committed["rows"][0]
    shifted = dict(row["pacsim"], scores=[score + 5 for score in row["pacsim"]["scores"]])
    moved = script.summary(shifted["scores"])
    assert not script.agrees({**row, "pacsim": moved, "win_rate_difference": script.difference(row["course"], moved, rate=True),
                              "mean_score_difference": script.difference(row["course"], moved, rate=False)})


def test_the_student_team_plays_through_pacsim_unmodified(script):
    team = Path(__file__).parent / "capture_course" / "teams" / "myTeam.py"
    scores = script.pacsim_scores(script.STUDENT, team, "tinyCapture", 2)
    assert len(scores) == 2 and scores == script.pacsim_scores(script.STUDENT, team, "tinyCapture", 2)  # seeds 0, 1: the same games


def test_with_a_course_copy_a_small_comparison_runs_end_to_end(script, tmp_path):
    course = Path(outside_repository("PACSIM_CAPTURE_COURSE", "capture.py"))
    script.main([str(course), "--games", "2", "--mazes", "fastCapture", "--out", str(tmp_path)])
    rows = json.loads((tmp_path / "results.json").read_text())["rows"]
    assert [(row["matchup"], row["course"]["games"], row["pacsim"]["games"]) for row in rows] == \
           [("baseline vs baseline", 2, 2), ("student vs baseline", 2, 2)]
