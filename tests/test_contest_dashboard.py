"""The dashboard follows a capture contest's store: its teams' standings as games come in."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from pacsim.runner.contest_store import GAME_COLUMNS, ContestStore, Drawn, read_contests
from pacsim.web.dashboard_state import DashboardState


def game_row(number: int, red: str, blue: str, winner: str, stage: str = "swiss", culprit: int | None = None) -> dict:
    row = {column: "" for column in GAME_COLUMNS}
    row.update(key=f"{number:04d}", contest="class", stage=stage, round=1, red=red, blue=blue, layout="RANDOM1",
               seed=number, score={"red": 3, "blue": -3, "tie": 0}[winner], winner=winner,
               reason="forfeit" if culprit is not None else "food", culprit=culprit,
               error="overran" if culprit is not None else "", moves="[]", seconds="[]", speed_factor=1.0,
               move_warning=1.0, move_timeout=3.0, played_at=datetime.now(UTC).isoformat(timespec="seconds"))
    return row


def standings(state: dict) -> dict[str, list[str]]:
    (store,) = state["stores"]
    (run,) = store["runs"]
    (table,) = run["tables"]
    return {row[1]: row for row in table["rows"]}


def test_a_contest_store_shows_its_standings_and_follows_new_games(tmp_path: Path):
    path = tmp_path / "contest.sqlite"
    store = ContestStore(path)
    store.keep_drawn("class", Drawn("00", (("RANDOM1", "%%"),), 1.0), "now")
    for number, (red, blue) in enumerate([("alpha", "staff"), ("staff", "alpha"), ("beta", "staff"), ("staff", "beta")]):
        store.add_game(game_row(number, red, blue, "red" if "alpha" in (red,) or blue == "beta" else "blue", "staff"))
    store.add_game(game_row(10, "alpha", "beta", "red"))
    dashboard = DashboardState([path])
    first = standings(dashboard.state())
    assert set(first) == {"alpha", "beta", "staff (staff)"}
    assert first["alpha"][0] == "1" and first["alpha"][5] == "3" and first["alpha"][6] == "3-0-0"

    for number in range(11, 15):  # beta wins on, and alpha's child overruns once (its own fault)
        store.add_game(game_row(number, "beta", "alpha", "red", culprit=1 if number == 11 else None))
    store.close()
    dashboard._cache.clear()  # as the store's changed files make a look read it again
    later = dashboard.state()
    now = standings(later)
    assert now["beta"][6] == "4-0-3" and now["alpha"][6] == "3-0-4" and now["alpha"][7] == "forfeit 1"
    run = later["stores"][0]["runs"][0]
    assert run["run"] == "class" and run["done"] == 9 and run["faults"] == 1


def test_a_results_store_is_not_read_as_a_contest(tmp_path: Path):
    assert read_contests(tmp_path / "missing.sqlite") is None
    (tmp_path / "junk.sqlite").write_text("not a database")
    assert read_contests(tmp_path / "junk.sqlite") is None


def test_the_dashboard_command_takes_a_contest_store(tmp_path: Path, capsys):
    """``pacsim dashboard results/contest.sqlite`` (as docs/capture.md says): once refused as no results store."""
    from pacsim.cli import main

    path = tmp_path / "contest.sqlite"
    store = ContestStore(path)
    store.keep_drawn("class", Drawn("00", (("RANDOM1", "%%"),), 1.0), "now")
    store.add_game(game_row(1, "alpha", "staff", "red", "staff"))
    store.close()
    page = tmp_path / "page.html"
    assert main(["dashboard", str(path), "--snapshot", str(page), "-q"]) == 0, capsys.readouterr().err
    assert "alpha" in page.read_text(encoding="utf-8")


def test_a_rating_just_under_zero_shows_as_zero():
    from pacsim.report.contest_board import whole

    assert [whole(value) for value in (-0.3, 0.4, -0.6, 175.5, -176.2)] == ["0", "0", "-1", "176", "-176"]


def test_a_changed_hand_ins_old_games_leave_the_standings(tmp_path: Path):
    """A re-run plays a changed team's games again under its new hash; the old ones stay in the store, and
    the page once counted both (the team with twice its games)."""
    path = tmp_path / "contest.sqlite"
    store = ContestStore(path)
    store.keep_drawn("class", Drawn("00", (("RANDOM1", "%%"),), 1.0), "now")
    for number, (digest, winner, when) in enumerate([("old", "blue", "2026-01-01T10:00:00+00:00"),
                                                     ("old", "blue", "2026-01-01T10:00:01+00:00"),
                                                     ("new", "red", "2026-01-01T11:00:00+00:00")]):
        row = game_row(number, "alpha", "staff", winner, "staff")
        row.update(red_digest=digest, blue_digest="s", played_at=when)
        store.add_game(row)
    store.close()
    now = standings(DashboardState([path]).state())
    assert now["alpha"][5] == "1" and now["alpha"][6] == "1-0-0"
