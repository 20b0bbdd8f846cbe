"""The shell examples of the README and docs/, run as written (made cheap).

Every ``pacsim ...`` line of a shell block in README.md and docs/*.md is
listed here: either in :data:`RUN`, with what makes it cheap (words of the
line replaced, options added at its end; the line itself is what the
document says), or in :data:`SKIP`, with the reason it is not run.  A line
the documents gain, lose or change fails :func:`test_every_example_is_run_or_skipped_with_a_reason`
until it is listed again, so the list cannot drift from the documents.
Commands of one document run in order in one folder (a record written by one
line is replayed by the next), as a newcomer would type them."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from pacsim.cli import main

REPOSITORY = Path(__file__).resolve().parents[1]
DOCUMENTS = ("README.md", *sorted(f"docs/{path.name}" for path in (REPOSITORY / "docs").glob("*.md")))
CAPTURE_TEAM = {"myTeam.py": str(REPOSITORY / "tests" / "capture_course" / "teams" / "myTeam.py")}
"""A course-style team file for the capture examples (``-r myTeam.py``)."""
QUICK = "--max-moves 15"
"""Added to every game of a run example: the example's settings, a short game."""

RUN: dict[str, tuple[dict[str, str], str]] = {
    # README.md
    "pacsim play -l classic -p alphabeta -a depth=3 -g directional -k 2 --text --seed 7": ({}, "--max-moves 3"),
    "pacsim play -l smallClassic -q -n 10 --record game.json && pacsim replay game-1.json --html game.html":
        ({"-n 10": "-n 2"}, QUICK),
    "pacsim run my_experiment.toml": ({}, "-n 4 --set max_moves=25 -j 1 -q"),
    "pacsim experiments": ({}, ""),
    "pacsim report results/my_experiment.sqlite": ({}, ""),
    "pacsim report results/my_experiment.sqlite --html report.html": ({}, ""),
    "pacsim export results/my_experiment.sqlite --out games.parquet": ({}, ""),
    "pacsim tournament --pacman students/ --ghosts random directional --layout smallClassic "
    "generated:w=9,h=7,food=6,ghosts=2,mazes=5 --pairs 20 --html contest.html":
        ({"--pairs 20": "--pairs 1", "mazes=5": "mazes=1"}, "--no-sandbox -j 1 -q --max-moves 10"),
    "pacsim replay game-1.json --html game.html": ({}, ""),
    "pacsim replay results/x.sqlite --game 17 --html g.html --html-values":
        ({"results/x.sqlite": "results/my_experiment.sqlite", "--game 17": "--game 1"}, ""),
    "pacsim play -l smallClassic -p examples/cautious_pacman.py:CautiousPacman -a margin=1 -g random -n 5 -q":
        ({"-n 5": "-n 2"}, QUICK),
    "pacsim agents": ({}, ""),
    "pacsim agents expectimax": ({}, ""),
    "pacsim agents examples/cautious_pacman.py:CautiousPacman": ({}, ""),
    "pacsim capture -r myTeam.py -b baseline -l RANDOM13 -n 10 -q": (CAPTURE_TEAM | {"-n 10": "-n 2"}, "-i 40"),
    # docs/capture.md
    "pacsim capture -l defaultCapture --seed 3 -i 300": ({"-i 300": "-i 30"}, ""),
    "pacsim capture -l defaultCapture --seed 7 -q --record": ({}, "-i 40"),
    "pacsim capture --replay replays/capture-defaultCapture-7.json --html game.html": ({}, ""),
    "pacsim capture -r baseline -b alphabeta --blueOpts depth=2 -l defaultCapture --seed 7 -q --record replays":
        ({"depth=2": "depth=1"}, "-i 40"),
    "pacsim tree --record replays/capture-defaultCapture-7.json --move 10 --agent 1 --depth 4 --format json":
        ({"--move 10": "--move 3", "--depth 4": "--depth 2"}, ""),
    # docs/agents.md
    'pacsim play -p "expectimax:depth=3,eval=examples/kernel_eval.py:hungry" -n 20 -q': ({"-n 20": "-n 1"}, QUICK),
    # docs/compare.md
    "pacsim compare greedy random -l tinyGhostMaze --pairs 200": ({"--pairs 200": "--pairs 2"}, "-j 1 --max-moves 15"),
    # docs/playing.md
    "pacsim play -l tinyGhostMaze -p greedy -g random -n 5 --quiet": ({"-n 5": "-n 2"}, QUICK),
    "pacsim play -l classic -g directional -k 2 --text --seed 7": ({}, "--max-moves 3"),
    "pacsim layouts": ({}, ""),
    "pacsim play -l smallClassic -q --seed 3 --record game.json": ({}, QUICK),
    "pacsim analyze -l tinyGhostMaze -p minimax:depth=4,eval=careful -p expectimax:depth=4,eval=careful": ({}, ""),
    # docs/web.md
    "pacsim play -l wideClassic -p expectimax:depth=2 -q --seed 5 --record game.json": ({}, QUICK),
    "pacsim replay game.json --html game.html": ({}, ""),
    "pacsim replay game.json --html game.html --html-values": ({}, ""),
    "pacsim replay game.json --html game.html --tree": ({}, ""),
    # docs/tree.md
    "pacsim play -l tinyGhostMaze -p expectimax:depth=2 -q --seed 5 --record game.json": ({}, QUICK),
    "pacsim play -l optimismHalls -p expectimax -a depth=4,eval=careful -g adversarial --seed 1 --max-moves 300 -q "
    "--record halls.json": ({"depth=4": "depth=2", "--max-moves 300": "--max-moves 6"}, ""),
    "pacsim tree --record halls.json --move 26 --compare minimax:depth=4,eval=careful expectimax:depth=4,eval=careful "
    "--out halls.html": ({"--move 26": "--move 2", "depth=4": "depth=2"}, ""),
    "pacsim tree --example expectimax-lecture --exercise value --out lecture.html": ({}, ""),
    "pacsim tree -l optimismHalls -p expectimax:depth=2 -g adversarial --move 10 --depth 1 --exercise --out which-move.html":
        ({}, ""),
    "pacsim exercises -n 6 --out exercises": ({}, ""),
    "pacsim exercises --examples -n 8 --out seed-exercises": ({}, ""),
}

WINDOW = "opens a window (tests/test_viewer.py plays the window)"
HYPOTHETICAL = "names a user's own file the document calls hypothetical"
BIG_STORE = "reads the 2,000-game store of pacsim reproduce (a minute to make); the README's run makes the small store its commands read"
SERVER = "serves a page until stopped (tests/test_dashboard.py serves one and reads it in Chromium)"
BROWSER_GAME = "serves the game's page until a browser has shown its end (tests/test_live_play.py plays one in Chromium)"
LESSON_MAP = "games from every start cell of a maze (minutes; tests/test_lesson_map.py maps a toy maze)"
SKIP: dict[str, str] = {
    "pacsim tree --record replays/capture-defaultCapture-7.json --move 10 --agent 1 --out move.html":
        "its record is made by docs/capture.md's example, which runs there with the same tree command's --format json",
    "pacsim play -l smallClassic -p keyboard -g directional --browser": BROWSER_GAME,
    "pacsim play -l smallClassic -p keyboard --browser": BROWSER_GAME,
    "pacsim play -l wideClassic -p alphabeta:depth=3 --show-values --browser --port 8000": BROWSER_GAME,
    "pacsim play -l tinyGhostMaze -p expectimax -a depth=4,eval=careful -g adversarial --show-values": WINDOW,
    "pacsim play -l smallClassic -p keyboard": "a person's keyboard game (tests/test_cli.py plays one from a fake terminal)",
    "pacsim compare alphabeta:depth=3,eval=my_eval.py:hungry alphabeta:depth=3 -g directional": HYPOTHETICAL,
    "pacsim play -l smallClassic -p mypkg.agents:CautiousPacman -g my_ghosts.py:Ambusher": HYPOTHETICAL,
    "pacsim play -l smallClassic -p expectimax:eval=my_eval.py:hungry,model=my_ghosts.py:Ambusher -q": HYPOTHETICAL,
    'pacsim play -p "expectimax:depth=2,eval=careful" -g examples/kernel_ghost.py:cutter -n 20 -q':
        "compiles a copy of the kernel around the user's ghost (20 s; pacsim bench's agreement group plays these games)",
    'pacsim play -p "expectimax:depth=2,model=examples/kernel_ghost.py:cutter" -g examples/kernel_ghost.py:cutter -n 20 -q':
        "compiles a copy of the kernel around the user's ghost (20 s; pacsim bench's agreement group plays these games)",
    "pacsim compare alphabeta:depth=2 greedy -g directional -l smallClassic": "a sequential test that plays until it decides (tests/test_compare.py)",
    "pacsim compare greedy random -l tinyGhostMaze --h0 0 --h1 20 --alpha 0.01": "a sequential test that plays until it decides (tests/test_compare.py)",
    "pacsim compare greedy random -l tinyGhostMaze --better-by win": "a sequential test that plays until it decides (tests/test_compare.py)",
    "pacsim compare random directional --role ghosts --pacman greedy -l tinyGhostMaze": "a sequential test that plays until it decides (tests/test_compare.py)",
    "pacsim play -l minimaxClassic -p multiAgents.py:ExpectimaxAgent -a depth=3,evalFn=better -g DirectionalGhost -n 10 -q":
        "needs a student's CS188 files (tests/test_cs188.py uses its own)",
    "pacsim play -p AlphaBetaAgent -a depth=3 -l trappedClassic -z 2 --frameTime 0.05 -f": "needs a student's CS188 files; opens a window",
    "pacsim run experiments/optimism_pessimism/optimism_pessimism.toml --executor dask --scheduler tcp://HOST:8786":
        "needs a Dask cluster at HOST (tests/test_dask.py starts a local one)",
    "pacsim run experiments/optimism_pessimism/optimism_pessimism.toml": "2,000 games (a minute); the README's run is the same command on a small file",
    "pacsim report results/optimism_pessimism.sqlite": BIG_STORE,
    "pacsim replay results/optimism_pessimism.sqlite --list": BIG_STORE,
    "pacsim report results/optimism_pessimism.sqlite --format markdown --out table.md --plot table.png": BIG_STORE,
    'pacsim report results/optimism_pessimism.sqlite --compare "minimax/random/optimismHalls/depth=4" '
    '"expectimax/random/optimismHalls/depth=4" --experiment optimism_pessimism':
        "reads pacsim reproduce's store: test_report_compare_runs_right_after_reproduce runs it on a toy reproduction",
    "pacsim export results/optimism_pessimism.sqlite --out games.parquet": BIG_STORE,
    "pacsim reproduce --games 500": "2,000 games (a minute); tests/test_optimism_report.py reproduces at toy size",
    "pacsim train -p approxq -l smallClassic -g random -x 500 -o approxq-small-random.json": "500 training games (tests/test_learning.py trains at toy size)",
    "pacsim play -p approxq:weights=approxq-small-random.json -l smallClassic -g random -n 20 -q": "needs the weights the line before trains",
    "pacsim play -p PacmanQAgent -x 2000 -n 2010 -l smallGrid -q": "2,000 training games (tests/test_cs188_learning.py trains at toy size)",
    "pacsim play -p ApproximateQAgent -a extractor=SimpleExtractor -x 50 -n 60 -l mediumGrid -q": "needs a student's CS188 learning files",
    "pacsim bench": "the benchmark (minutes); tests/test_benchmark.py runs its groups at toy size",
    "pacsim bench --quick": "the benchmark (tens of seconds); tests/test_benchmark.py runs its groups at toy size",
    "pacsim bench --json": "the benchmark (minutes)",
    "pacsim bench --startup": "whole processes timed against importing numpy (a minute); tests/test_kernel_load.py checks the load",
    "pacsim play -l wideClassic -p alphabeta -a depth=3,eval=careful -g adversarial -q": "a whole game of depth-3 search against a searching ghost (seconds)",
    "pacsim layouts --check my.lay": HYPOTHETICAL,
    "pacsim play -l tinyGhostMaze -p expectimax -a depth=4,eval=careful -g adversarial --window --show-values": WINDOW,
    "pacsim play -l classic -p keyboard --window": WINDOW,
    "pacsim capture -r myTeam.py -b baseline -l defaultCapture --window": WINDOW,
    "pacsim capture -r keyboard -b myTeam.py --browser": "serves the game's page until a browser has shown its end "
                                                          "(tests/test_capture_views.py plays one in Chromium)",
    "pacsim replay game.json --window": WINDOW,
    "pacsim replay results/optimism_pessimism.sqlite --game 17 --window": WINDOW,
    "pacsim play -p entrants/alice/agent.py:Alice -l smallClassic --sandbox": "a student's file (tests/test_sandbox.py plays sandboxed entrants)",
    "pacsim run tournament.toml --sandbox": "a tournament file of the reader's (tests/test_sandbox.py)",
    "pacsim compare entrants/alice/agent.py:Alice entrants/bob/agent.py:Bob --sandbox": "students' files (tests/test_sandbox.py)",
    "pacsim probcut fit -l wideClassic -p expectimax:depth=2,eval=careful --games 20 --per-depth 30 --reduction 6 "
    "--for expectimax:depth=5,eval=careful,algorithm=star2 --out experiments/probcut/probcut_wideClassic_R6.json":
        "fits a model over 20 games of deep searches (minutes); tests/test_probcut.py fits at toy size",
    "pacsim play -l wideClassic -p expectimax:depth=4,eval=careful,algorithm=star2,"
    "probcut=experiments/probcut/probcut_wideClassic_R6.json,probcut_t=0.1": WINDOW,
    "pacsim tournament --pacman students/ greedy --ghosts random directional --layout smallClassic "
    "generated:w=9,h=7,food=6,ghosts=2,mazes=5 --pairs 20 --store results/contest.sqlite --html contest.html":
        "the README's tournament, with a store named: run above",
    "pacsim tournament --game capture --teams students/ --staff baseline staff/baselineTeam.py "
    "--store results/contest.sqlite --grades grades.csv":
        "students' team folders and a course's baseline file; tests/test_capture_contest.py runs a contest as an instructor would",
    "pacsim tournament --game capture --teams students/ --staff baseline --store contest.sqlite --grades grades.csv -j 2":
        "150 copies of a course's baselineTeam.py (kept outside the repository), 26 minutes: docs/capture.md's measured run",
    "pacsim replay results/optimism_pessimism.sqlite --game 17 --html game17.html": BIG_STORE,
    "pacsim report results/x.sqlite --html report.html": "the README's report --html above, on a store named x (seconds of figures)",
    "pacsim replay results/x.sqlite --game 17 --html g.html --tree --tree-nodes 5000":
        "every move searched again for its tree, on a store named x (docs/web.md's --tree line runs; tests/test_tree.py)",
    "pacsim dashboard results/my_experiment.sqlite": SERVER,
    "pacsim dashboard results/*.sqlite --port 9000 --host 0.0.0.0": SERVER,
    "pacsim dashboard results/x.sqlite --snapshot x.html": "a snapshot of a store named x (tests/test_dashboard.py snapshots a run's)",
    "pacsim run my_experiment.toml &": "the README's run line, in the background beside a dashboard (run above)",
    "pacsim lesson-map": LESSON_MAP,
    "pacsim lesson-map --experiment my.toml --png m.png --html m.html": LESSON_MAP,
    "pacsim lesson-map --set seed=4711": LESSON_MAP,
    "pacsim lesson-map -n 5 --depth 2 -l tinyGhostMaze": LESSON_MAP,
}

STUDENT = """from pacsim.agents import Agent


class {name}(Agent):
    def get_action(self, state):
        return self.rng.choice(state.legal_actions())
"""


def examples(document: str) -> list[str]:
    """The ``pacsim`` command lines of ``document``'s shell blocks, comments and spacing removed, in order."""
    text = (REPOSITORY / document).read_text(encoding="utf-8")
    lines = []
    for language, body in re.findall(r"^```[ \t]*(\w*)\n(.*?)^```", text, re.S | re.M):
        if language not in ("", "sh", "bash", "shell", "console"):
            continue
        for line in body.replace("\\\n", " ").splitlines():
            line = re.sub(r"\s+", " ", line.split("  #")[0]).strip()
            if line.startswith("pacsim "):
                lines.append(line)
    return lines


def test_every_example_is_run_or_skipped_with_a_reason():
    found = {line for document in DOCUMENTS for line in examples(document)}
    unlisted = sorted(found - set(RUN) - set(SKIP))
    assert not unlisted, f"document examples neither run nor skipped here (add each to RUN or SKIP): {unlisted}"
    stale = sorted((set(RUN) | set(SKIP)) - found)
    assert not stale, f"listed here but in no document any more: {stale}"
    assert not set(RUN) & set(SKIP) and all(reason.strip() for reason in SKIP.values())


def readme_experiment(folder: Path) -> None:
    """The README's experiment file, as it is printed there."""
    readme = (REPOSITORY / "README.md").read_text(encoding="utf-8")
    (block,) = re.findall(r"^```toml\n(.*?)^```", readme, re.S | re.M)
    (folder / "my_experiment.toml").write_text(block, encoding="utf-8")


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A newcomer's folder: the shipped examples beside it, two students' agents and the README's experiment
    file."""
    (tmp_path / "examples").symlink_to(REPOSITORY / "examples")
    for name in ("alice", "bob"):
        (tmp_path / "students" / name).mkdir(parents=True)
        (tmp_path / "students" / name / "agent.py").write_text(STUDENT.format(name=name.title()), encoding="utf-8")
    readme_experiment(tmp_path)
    monkeypatch.chdir(tmp_path)
    return tmp_path  # no record made here: a document replays only what its own lines record


def as_run(line: str) -> list[list[str]]:
    """The commands of ``line`` (split at ``&&``), made cheap as :data:`RUN` says (options added to the first)."""
    replaced, added = RUN[line]
    for words, instead in replaced.items():
        assert words in line, (line, words)
        line = line.replace(words, instead)
    commands = [shlex.split(command)[1:] for command in line.split(" && ")]
    commands[0] += shlex.split(added)
    return commands


@pytest.mark.parametrize("document", [document for document in DOCUMENTS if set(examples(document)) & set(RUN)])
def test_the_examples_of_a_document_run_as_written(document, folder, capsys):
    for line in examples(document):
        if line not in RUN:
            continue
        for argv in as_run(line):
            status = main(argv)
            captured = capsys.readouterr()
            assert status == 0, f"{document}: {line}\n{captured.err}"
            assert "Traceback" not in captured.err, f"{document}: {line}\n{captured.err}"
    if document == "README.md":
        from pacsim.report import load_results, summarize

        # A showcase shows good practice: no condition is one line of play repeated (the README's first
        # file, a deterministic ghost from the maze's start, played one line in 4 games of a condition).
        assert (summarize(load_results(folder / "results/my_experiment.sqlite"))["lines"] > 1).all()
        assert (folder / "game.html").is_file() and (folder / "contest.html").is_file() and (folder / "games.parquet").is_file()



# -- examples outside shell blocks, and what the blocks name ------------------------------------------------

def inline_commands(document: str) -> list[str]:
    """The ``pacsim`` commands a document gives in its prose, as code spans."""
    text = (REPOSITORY / document).read_text(encoding="utf-8")
    prose = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return [re.sub(r"\s+", " ", span) for span in re.findall(r"`(pacsim [^`]+)`", prose)]


def test_every_record_the_readme_reads_is_made_by_a_line_it_gives():
    commands = [*examples("README.md"), *inline_commands("README.md")]
    made = {name for command in commands if command.startswith("pacsim play")
            for name in re.findall(r"--record (\S+\.json)", command)}
    read = {name for command in commands for name in re.findall(r"(?:tree --record|replay) (\S+\.json)", command)}
    assert read and all(re.sub(r"-\d+\.json$", ".json", name) in made for name in read), (read, made)


def test_the_readme_s_tree_example_runs_from_the_record_it_says_how_to_make(folder, capsys):
    commands = {command.split()[1]: command for command in inline_commands("README.md")
                if "halls.json" in command}
    play, tree = (shlex.split(commands[name])[1:] for name in ("play", "tree"))
    play = [{"depth=4,eval=careful": "depth=2,eval=careful", "300": "6"}.get(word, word) for word in play]
    tree = [{"26": "2", "minimax:depth=4": "minimax:depth=2", "expectimax:depth=4": "expectimax:depth=2"}.get(word, word)
            for word in tree]
    assert main(play) == 0 and main([*tree, "--out", "halls.html"]) == 0, capsys.readouterr().err
    assert "wrote halls.html: minimax:depth=2, expectimax:depth=2" in capsys.readouterr().out
    assert "<title>pacsim tree: halls.json, move 2</title>" in (folder / "halls.html").read_text(encoding="utf-8")


def test_every_maze_the_documents_name_exists():
    from pacsim.engine import find_layout
    from pacsim.engine.capture.layout import find_capture_layout

    lines = [line for document in DOCUMENTS for line in [*examples(document), *inline_commands(document)]
             if not re.search(r"-p \S*Agent\b", line)]  # a CS188 agent plays its course folder's mazes
    named = {(line.startswith("pacsim capture"), match) for line in lines
             for match in re.findall(r"(?:^| )-l ([A-Za-z]\w+)(?= |$)", line)}
    assert (False, "wideClassic") in named and (True, "RANDOM13") in named
    for capture, name in sorted(named):
        (find_capture_layout if capture else find_layout)(name)  # a renamed or missing maze raises, naming it


def test_report_compare_runs_right_after_reproduce(tmp_path, monkeypatch, capsys):
    """docs/experiments.md's --compare line after the README's first command (a toy reproduction): the store
    holds the run and the slide's games under the same labels and root seed."""
    monkeypatch.chdir(tmp_path)
    assert main(["reproduce", "--games", "2", "-j", "1", "-q"]) == 0
    (line,) = [line for line in examples("docs/experiments.md") if "--compare" in line]
    capsys.readouterr()
    assert main(shlex.split(line)[1:]) == 0, capsys.readouterr().err
    assert "2 paired games" in capsys.readouterr().out
    without = shlex.split(line.replace(" --experiment optimism_pessimism", ""))[1:]
    assert main(without) == 2  # pooled, the two runs' games share indices: the line names what picks one
    assert "pick one with --experiment optimism_pessimism or --experiment optimism_pessimism_slide" in \
        capsys.readouterr().err


def test_show_values_without_a_display_says_so_and_does_not_blame_q(folder, monkeypatch, capsys):
    (line,) = [line for line in examples("README.md") if "--show-values" in line]
    for variable in ("DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    assert main([*shlex.split(line)[1:], "--max-moves", "2"]) == 0
    notes = [note for note in capsys.readouterr().err.splitlines() if "--show-values" in note]
    assert len(notes) == 1 and "-q" not in notes[0] and "no display" in notes[0] and "--browser" in notes[0]
