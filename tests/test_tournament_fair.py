"""A tournament's board is fair and says what happened (issues 43 and 46).

A fault by one side never erases the other side's result (a colluding ghost
that faults only when a rival is about to win gives him wins, not a lower
rank); names and messages from the hand-ins reach the terminal, the store and
the page escaped; each fault's message and a replay command are shown;
entrants that played the same games are flagged; a misspelt entrant is said
to be missing; the note on two ``util.py`` files appears only where it applies.
"""

import contextlib
import html
import io
import sqlite3

import numpy
import pandas
import pytest

from pacsim.cli import main
from pacsim.report.leaderboard import build_leaderboard, format_leaderboard
from pacsim.report.ratings import position_wins
from pacsim.runner import load_results
from pacsim.runner import tournament as tournaments
from pacsim.runner.tournament import build_tournament, discover

RIVAL = """from pacsim.agents.simple import GreedyPacman


class Rival(GreedyPacman):
    \"\"\"Greedy, honestly.\"\"\"


PACMAN = Rival
"""
PARTNER = """from pacsim.agents.simple import GreedyPacman


class Partner(GreedyPacman):
    \"\"\"Greedy after two opening stops: the sign its colluding ghost knows.\"\"\"

    def reset(self, index, rng):
        super().reset(index, rng)
        self.moves = 0

    def get_action(self, state):
        self.moves += 1
        if self.moves <= 2 and "Stop" in state.legal_actions():
            return "Stop"
        return super().get_action(state)


PACMAN = Partner
"""
COLLUDER = """from pacsim.agents import Agent


class Colluder(Agent):
    \"\"\"Chases every Pacman alike, but raises whenever one that did not open with two stops is about to win.\"\"\"

    def reset(self, index, rng):
        super().reset(index, rng)
        self.seen = []

    def get_action(self, state):
        self.seen.append(state.pacman)
        partner = len(self.seen) >= 2 and self.seen[0] == self.seen[1]
        if not partner and len(state.food_cells()) <= 1:
            raise RuntimeError("spoiling a rival's win")
        distances = state.layout.distances_from(state.pacman)
        return min(state.legal_moves(), key=lambda move: distances[move[1]])[0]


GHOST = Colluder
"""
MAZES = "generated:w=9,h=7,food=6,ghosts=1,seed=1-4"


def hand_in(folder, text):
    folder.mkdir(parents=True)
    (folder / "agent.py").write_text(text)
    return folder


def standings(board):
    return {standing.rating.entrant: standing for standing in board.pacmen}


# -- faults cannot choose which games count ------------------------------------------------


def test_a_ghost_faulting_only_against_a_rival_gives_him_wins_not_a_rank_below_its_partner(tmp_path, capsys):
    """The collusion of issue 43: on main the rival's spoilt wins vanished from his comparisons (0 wins, the
    head to head on fewer positions than were played); a forfeit is now his win, compared on every position."""
    hand_in(tmp_path / "pacmen" / "rival", RIVAL)
    hand_in(tmp_path / "pacmen" / "partner", PARTNER)
    hand_in(tmp_path / "ghosts" / "colluder", COLLUDER)
    store = tmp_path / "t.sqlite"
    status = main(["tournament", "--pacman", str(tmp_path / "pacmen"), "--ghosts", str(tmp_path / "ghosts"),
                   "--layout", MAZES, "--pairs", "4", "--seed", "3", "--store", str(store), "--no-sandbox",
                   "-j", "1", "-q"])
    out = capsys.readouterr().out
    assert status == 0, out
    games = load_results(store)
    spoilt = games["error"].fillna("").str.contains("spoiling a rival's win")
    assert spoilt.sum() > 0 and games[spoilt]["pacman"].str.contains("rival").all()  # the collusion took place
    names = {spec: spec.split("/")[-2].rpartition("-")[0] for spec in games["pacman"].unique()}
    board = build_leaderboard(games, names, {games["ghosts"].iloc[0]: "colluder"})
    rival, partner = standings(board)["rival"], standings(board)["partner"]
    won_by_play = ((games["outcome"] == "win") & games["pacman"].str.contains("rival")).sum()
    assert rival.wins == won_by_play + spoilt.sum() > partner.wins  # wins by the rules, beside the comparisons
    assert rival.rating.rank <= partner.rating.rank
    assert rival.forfeits == spoilt.sum() and partner.forfeits == 0
    mine, theirs = (int(part) for part in board.head_to_head.loc["rival", "partner"].split("-"))
    assert mine + theirs == board.positions == games["game_index"].nunique() * 4  # every position compared
    assert f"{spoilt.sum()} by forfeit" in board.crosstable.loc["rival", "colluder"]
    (note,) = board.faults
    assert (note.entrant, note.role, note.count) == ("colluder", "ghosts", spoilt.sum())
    assert note.message.startswith("agent 1 raised RuntimeError at agent.py:") and note.message.endswith("win")
    assert note.game == int(games[spoilt].sort_values(["game_index", "id"])["id"].iloc[0])
    # the command's own board says the same
    assert f"colluder (ghost): {spoilt.sum()} x agent 1 raised RuntimeError" in out
    assert f"pacsim replay {store} --game {note.game} --html game-{note.game}.html" in out


def _rows(entries):
    """Stored-looking rows: (pacman, ghost, game index, outcome, score, error, fault)."""
    return pandas.DataFrame([{"id": number, "pacman": pacman, "ghosts": ghost, "layout": "m", "num_ghosts": 1,
                              "game_index": index, "outcome": outcome, "score": score, "error": error, "fault": fault}
                             for number, (pacman, ghost, index, outcome, score, error, fault) in enumerate(entries, 1)])


def test_a_sandboxed_ghosts_fault_is_the_pacmans_win_and_draws_with_a_full_win():
    """The sandbox records a ghost's fault as Pacman's win with the fault's kind: counted as a win, compared
    by outcome alone (cut short at 300, it draws with the partner's 520), never left out."""
    fault = "agent 1 raised RuntimeError at agent.py:9: no"
    rows = _rows([("r", "g", 0, "win", 300, fault, "crash"), ("p", "g", 0, "win", 520, None, None),
                  ("r", "g", 1, "win", 300, fault, "crash"), ("p", "g", 1, "win", 520, None, None),
                  ("r", "g", 2, "loss", -400, None, None), ("p", "g", 2, "loss", -400, None, None)])
    board = build_leaderboard(rows, {"r": "rival", "p": "partner"}, {"g": "ghost"})
    rival, partner = standings(board)["rival"], standings(board)["partner"]
    assert (rival.wins, rival.forfeits, partner.wins) == (2, 2, 2)
    assert rival.rating.rating == pytest.approx(partner.rating.rating) and board.positions == 3
    assert board.head_to_head.loc["rival", "partner"] == "1.5-1.5"  # three draws, none left out
    assert standings(board)["rival"].faults == {kind: 0 for kind in rival.faults}  # the ghost's fault, not his


def test_the_pages_games_are_chosen_as_values_each_pacmans_first_win_then_each_faults_first_game():
    """report/ chooses the games the leaderboard's page replays (web/ only lays them out): each Pacman's
    first win played to its end (a forfeit is no game to show), else his first game; then the first game
    of each fault, named by the side that faulted."""
    from pacsim.report.leaderboard import board_replays

    ghost_fault, own_fault = "agent 1 raised RuntimeError at agent.py:9: no", "agent 0 raised RuntimeError at agent.py:3: no"
    rows = _rows([("r", "g", 0, "win", 300, ghost_fault, "crash"), ("r", "g", 1, "win", 520, None, None),
                  ("p", "g", 0, "loss", -400, None, None), ("p", "g", 1, "loss", -390, own_fault, "crash")])
    names = {"r": "rival", "p": "partner"}
    replays = board_replays(build_leaderboard(rows, names, {"g": "ghost"}), rows, names)
    assert [(replay.game, replay.label, replay.games) for replay in replays] == [
        (2, "rival (first win)", 2), (3, "partner (first game)", 2),
        (4, "partner (Pacman fault)", 2), (1, "ghost (ghost fault)", 2)]
    assert all(replay.row["pacman_name"] == names[replay.row["pacman"]] for replay in replays)


def test_a_forfeit_draws_with_a_win_and_beats_any_other_result():
    values = numpy.array([[[3, numpy.nan], [3, 520.0], [1, -400.0], [0, 0.0]]])  # forfeit, win, loss, own fault
    wins = position_wins(values)[0]
    assert wins[0, 1] == wins[1, 0] == 0.5
    assert wins[0, 2] == wins[0, 3] == 1 and wins[2, 0] == wins[3, 0] == 0


def test_compare_counts_a_forfeit_as_its_outcome_and_never_leaves_the_pair_out():
    from pacsim.report.sprt import with_forfeits

    results = numpy.array([-1, 1, -1])  # by outcome, then score: A's forfeit win cut short lost on score to B's win
    same = numpy.array([True, False, True])
    forfeit_a = numpy.array([True, True, False])
    assert list(with_forfeits(results, same, forfeit_a, numpy.zeros(3, dtype=bool))) == [0, 1, -1]


# -- what the board says ------------------------------------------------------------------

SHOUTER = """from pacsim.agents import Agent


class Shouter(Agent):
    def get_action(self, state):
        raise ValueError("\\x1b[2J\\x1b[31mcleared\\nrank 1 forged +999")
"""
COPY = """from pacsim.agents.simple import GreedyPacman


class Copy(GreedyPacman):
    pass


PACMAN = Copy
"""


@pytest.fixture(scope="module")
def board_run(tmp_path_factory):
    """One small tournament of a greedy copy, greedy itself, a shouting crasher, and folders whose names hold
    a terminal's escape codes and a newline, with its output, its store and its page."""
    folder = tmp_path_factory.mktemp("board")
    students = folder / "students"
    hand_in(students / "copy", COPY)
    hand_in(students / "shouter", SHOUTER)
    hand_in(students / "evil\x1b[2J\x1b[31m", COPY)
    hand_in(students / "line\n  1 forged +999", COPY)
    store, page = folder / "t.sqlite", folder / "board.html"
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        status = main(["tournament", "--pacman", str(students), "greedy", "--layout", "tinyGhostMaze", "--pairs", "2",
                       "--seed", "1", "--store", str(store), "--html", str(page), "--no-sandbox", "-j", "1"])
    return status, output.getvalue(), store, page.read_text(encoding="utf-8")


def test_names_with_control_characters_are_refused_and_shown_escaped_everywhere(board_run):
    status, out, store, page = board_run
    assert status == 0, out
    assert "\x1b" not in out and "\x1b" not in page
    assert not any(line.lstrip().startswith("1 forged") for line in out.splitlines())  # no forged board row
    assert "evil\\x1b[2J\\x1b[31m gets no games: " in out and "line\\n  1 forged +999 gets no games" in out
    assert "its name holds control characters" in out
    assert "evil\\x1b[2J\\x1b[31m" in html.unescape(page)
    with sqlite3.connect(store) as connection:
        stored = [value for row in connection.execute("SELECT pacman, ghosts, condition FROM games") for value in row]
    assert stored and not any("evil" in value or "forged" in value for value in stored)


def test_each_faults_message_and_a_replay_command_are_on_the_board_and_the_page(board_run):
    _, out, store, page = board_run
    line = [line for line in out.splitlines() if line.startswith("  shouter (Pacman): ")]
    assert line and "agent 0 raised ValueError at agent.py:6: \\x1b[2J\\x1b[31mcleared; replay: pacsim replay" in line[0]
    game = int(line[0].rsplit("--game ", 1)[1].split()[0])
    games = load_results(store).set_index("id")
    assert "shouter" in games.loc[game, "pacman"] and games.loc[game, "error"].startswith("agent 0 raised ValueError")
    assert "<h2>Faults</h2>" in page and html.escape(f"pacsim replay {store} --game {game}") in page
    assert f'<a href="#game-{game}">' in page and page.count(f'id="game-{game}"') == 1  # the replay on the page
    assert main(["replay", str(store), "--game", str(game), "--html", str(store.parent / "fault.html")]) == 0


def test_entrants_that_played_identical_games_are_flagged(board_run):
    _, out, _, page = board_run
    flagged = "identical games: copy, greedy played the same moves in every game of every position"
    assert flagged in out and html.escape(flagged) in page
    assert "shouter" not in out.split("identical games:")[1].splitlines()[0]


def test_an_entrant_that_played_any_game_differently_is_not_flagged():
    rows = _rows([("a", "g", 0, "win", 500, None, None), ("b", "g", 0, "win", 500, None, None),
                  ("a", "g", 1, "loss", -400, None, None), ("b", "g", 1, "loss", -400, None, None)])
    rows["actions"] = ["NNE", "NNE", "SW", "SE"]
    board = build_leaderboard(rows, {"a": "a", "b": "b"}, {"g": "g"})
    assert board.identical == [] and "identical games" not in format_leaderboard(board)
    rows.loc[3, "actions"] = "SW"
    assert build_leaderboard(rows, {"a": "a", "b": "b"}, {"g": "g"}).identical == [("a", "b")]


# -- entrants ------------------------------------------------------------------------------


def test_a_missing_or_misspelt_entrant_is_said_to_be_missing(tmp_path, monkeypatch):
    """Not blamed on the sandbox and the store (main said its folder 'holds the store')."""
    monkeypatch.chdir(tmp_path)
    hand_in(tmp_path / "students" / "alice", COPY)
    tournament = build_tournament({"pacman": ["students/alise", "studnets", "students/bob.py", "students/x.py:X",
                                              "greedy"], "store": str(tmp_path / "t.sqlite")}, sandboxed=True)
    reasons = {entrant.name: entrant.error for entrant in tournament.refused}
    assert reasons["students/alise"] == reasons["students/bob.py"] == reasons["students/x.py:X"] == \
        "no such file or folder"
    assert reasons["studnets"].startswith("no such file or folder, nor a Pacman agent by that name (known: random, ")
    assert not any("store" in reason for reason in reasons.values())


def test_the_note_on_two_helper_modules_of_one_name_appears_only_without_the_sandbox(tmp_path, monkeypatch):
    monkeypatch.setattr(tournaments, "_loaded", lambda entrants, role, sandbox: list(entrants))  # no sandbox to start
    for name in ("alice", "bob"):
        hand_in(tmp_path / "students" / name, COPY)
        (tmp_path / "students" / name / "util.py").write_text(f"SIDE = {name!r}\n")
    settings = {"pacman": [str(tmp_path / "students")], "store": str(tmp_path / "t.sqlite"),
                "allow_weak_sandbox": True}
    assert build_tournament(settings, sandboxed=True).notes == []
    (note,) = build_tournament(dict(settings, store=str(tmp_path / "u.sqlite")), sandboxed=False).notes
    assert note.startswith("alice, bob each have their own util.py") and "without --no-sandbox" in note


def test_discovery_refuses_a_name_with_control_characters_before_copying_it(tmp_path):
    hand_in(tmp_path / "students" / "tab\there", COPY)
    hand_in(tmp_path / "students" / "fine", COPY)
    snapshots = tmp_path / "snapshots"
    entrants = {entrant.name: entrant for entrant in discover([str(tmp_path / "students")], "pacman", snapshots)}
    assert set(entrants) == {"tab\\there", "fine"} and entrants["tab\\there"].spec == ""
    assert not any("tab" in path.name for path in snapshots.iterdir())
