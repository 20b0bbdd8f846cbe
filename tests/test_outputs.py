"""Every file pacsim writes: never over one of the command's inputs, always
atomically (a failure leaves the old file), and checked before the work."""

import errno
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from optional import missing, needed

from pacsim.cli import INTERRUPTED, main

LAYOUT = "%%%%%%%\n%P . G%\n%%%%%%%\n"
PLUGIN = "from pacsim.agents.simple import RandomPacman as Mine\n"


@pytest.fixture(scope="module")
def made_store(tmp_path_factory) -> Path:
    from pacsim.runner import load_experiment, run_experiment

    directory = tmp_path_factory.mktemp("outputs")
    experiment = directory / "small.toml"
    experiment.write_text(f'name = "small"\ngames = 2\nseed = 1\nmax_moves = 20\nstore = "{directory / "made.sqlite"}"\n'
                          '[grid]\npacman = ["greedy"]\nghosts = ["random"]\nlayout = ["tinyGhostMaze"]\n')
    return run_experiment(load_experiment(experiment), workers=1, quiet=True).store


@pytest.fixture
def folder(tmp_path, made_store, monkeypatch) -> Path:
    """A working folder holding a store ``S.sqlite``, a layout ``X.lay`` and a plugin ``mine.py``."""
    shutil.copy(made_store, tmp_path / "S.sqlite")
    (tmp_path / "X.lay").write_text(LAYOUT)
    (tmp_path / "mine.py").write_text(PLUGIN)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def error_line(capsys) -> str:
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "Traceback" not in err, err
    return err


# -- an output that is an input -------------------------------------------------

NAMINGS = {  # how the output names the input S.sqlite (or X.lay, mine.py)
    "same": lambda folder, name: name,
    "symlink": lambda folder, name: _linked(folder, name, os.symlink, "link"),
    "hard link": lambda folder, name: _linked(folder, name, os.link, "hard"),
    "dot-dot": lambda folder, name: f"../{folder.name}/{name}",
    "absolute": lambda folder, name: str(folder / name),
}


def _linked(folder: Path, name: str, link, prefix: str) -> str:
    link(folder / name, folder / f"{prefix}-{name}")
    return f"{prefix}-{name}"


COMMANDS = {  # the input, and the command writing to OUT
    "export csv": ("S.sqlite", ["export", "S.sqlite", "--out", "OUT", "--format", "csv"]),
    "export parquet": ("S.sqlite", ["export", "S.sqlite", "--out", "OUT", "--format", "parquet"]),
    "report --html": ("S.sqlite", ["report", "S.sqlite", "--html", "OUT"]),
    "report --out": ("S.sqlite", ["report", "S.sqlite", "--out", "OUT"]),
    "replay --html": ("S.sqlite", ["replay", "S.sqlite", "--game", "1", "--html", "OUT"]),
    "tree --out": ("S.sqlite", ["tree", "--store", "S.sqlite", "--game", "1", "--out", "OUT"]),
    "replay --gif": ("S.sqlite", ["replay", "S.sqlite", "--game", "1", "-q", "--gif", "OUT"]),
    "play layout": ("X.lay", ["play", "-q", "-l", "X.lay", "--seed", "1", "--record", "OUT"]),
    "play plugin": ("mine.py", ["play", "-q", "-l", "X.lay", "-p", "mine.py:Mine", "--seed", "1", "--record", "OUT"]),
}


@pytest.mark.parametrize("naming", NAMINGS)
@pytest.mark.parametrize("command", COMMANDS)
def test_an_output_that_is_an_input_is_refused_and_the_input_kept(folder, capsys, command, naming):
    source, arguments = COMMANDS[command]
    before = (folder / source).read_bytes()
    output = NAMINGS[naming](folder, source)
    assert main([output if argument == "OUT" else argument for argument in arguments]) == 2
    line = error_line(capsys)
    assert output in line and source in line and "input" in line
    assert (folder / source).read_bytes() == before
    assert "game 1" not in capsys.readouterr().out  # refused before the work


def test_a_weights_file_is_an_input_of_play(folder, capsys):
    weights = folder / "w.json"
    weights.write_text('{"format": "pacsim-q-weights/1", "kind": "approxq", "values": {}}\n')
    before = weights.read_bytes()
    assert main(["play", "-q", "-l", "X.lay", "-p", "approxq:weights=w.json", "--record", "w.json"]) == 2
    assert "w.json" in error_line(capsys)
    assert weights.read_bytes() == before


def test_training_goes_on_into_its_own_weights_file(folder, capsys):
    arguments = ["train", "-l", "X.lay", "-g", "random", "-x", "2", "--save-every", "1", "-q", "--out", "w.json"]
    assert main(arguments) == 0
    arguments[arguments.index("2")] = "3"
    assert main(arguments) == 0  # read to resume, then written: not an input it must keep away from
    assert '"episodes": 3' in (folder / "w.json").read_text()


def test_training_refuses_to_write_over_its_layout(folder, capsys):
    assert main(["train", "-l", "X.lay", "-x", "1", "-q", "--out", "X.lay"]) == 2
    assert "X.lay" in error_line(capsys)
    assert (folder / "X.lay").read_text() == LAYOUT


def test_a_record_never_replaces_a_results_store_even_one_not_read(folder, capsys):
    """``play --record S.sqlite``: the store is no input of play, but a record
    (or any output) never overwrites an SQLite file."""
    before = (folder / "S.sqlite").read_bytes()
    assert main(["play", "-q", "-l", "X.lay", "--record", "S.sqlite"]) == 2
    assert "SQLite" in error_line(capsys)
    assert (folder / "S.sqlite").read_bytes() == before


@pytest.mark.parametrize("existing", ["a store", "a layout read", "a folder"])
def test_every_record_of_several_games_is_checked_before_the_first_game(folder, capsys, existing):
    """``play -n 3 --record r.json`` writes r-1, r-2, r-3.json: a later one
    that may not be replaced is refused before any game, not at game 2."""
    if existing == "a store":
        shutil.copy(folder / "S.sqlite", folder / "r-2.json")
    elif existing == "a layout read":
        (folder / "r-3.json").symlink_to(folder / "X.lay")
    else:
        (folder / "r-2.json").mkdir()
    assert main(["play", "-q", "-l", "X.lay", "-n", "3", "--record", "r.json"]) == 2
    assert "--record r-" in error_line(capsys)
    assert not (folder / "r-1.json").exists()
    assert (folder / "X.lay").read_text() == LAYOUT


def test_an_earlier_record_is_replaced(folder, capsys):
    assert main(["play", "-q", "-l", "X.lay", "--seed", "1", "--record", "r.json"]) == 0
    assert main(["play", "-q", "-l", "X.lay", "--seed", "2", "--record", "r.json"]) == 0
    assert '"seed": 2' in (folder / "r.json").read_text()


def test_the_check_needs_a_command_to_know_its_inputs(folder):
    """Outside a command (a notebook) nothing read is remembered; inside, everything is."""
    from pacsim.errors import OutputError
    from pacsim.files import check_output, inputs_guarded, note_input, write_atomically

    note_input(folder / "X.lay")
    check_output(folder / "X.lay", "--out")
    with inputs_guarded():
        note_input(folder / "X.lay")
        with pytest.raises(OutputError, match="is the input"):
            write_atomically(folder / "X.lay", "gone")
    assert (folder / "X.lay").read_text() == LAYOUT


# -- atomic writes ---------------------------------------------------------------

WRITERS = {  # a command writing OUT, where OUT already holds an older file
    "export csv": ["export", "S.sqlite", "--out", "OUT.csv"],
    "export parquet": ["export", "S.sqlite", "--out", "OUT.parquet"],
    "report --out": ["report", "S.sqlite", "--out", "OUT.txt"],
    "report --html": ["report", "S.sqlite", "--html", "OUT.html"],
    "report --plot": ["report", "S.sqlite", "--plot", "OUT.png"],
    "replay --html": ["replay", "S.sqlite", "--game", "1", "--html", "OUT.html"],
    "replay --gif": ["replay", "S.sqlite", "--game", "1", "-q", "--gif", "OUT.gif"],
    "play --record": ["play", "-q", "-l", "X.lay", "--record", "OUT.json"],
    "layouts --out": ["layouts", "--generate", "--out", "OUT.lay"],
}
OLD = b"the old file, which must survive\n"


def _with_old_output(folder: Path, arguments: list) -> tuple[list, Path]:
    name = next(argument for argument in arguments if argument.startswith("OUT"))
    if name.endswith(".png"):
        needed("matplotlib", "pip install -e '.[plot]'")
    if name.endswith(".gif"):
        needed("PIL", "pip install -e '.[gif]'")
    output = folder / "out" / name
    output.parent.mkdir()
    output.write_bytes(OLD)
    return [str(output) if argument == name else argument for argument in arguments], output


def assert_old_file_alone(output: Path) -> None:
    assert output.read_bytes() == OLD
    assert os.listdir(output.parent) == [output.name]  # no temporary left behind


def _no_space(*_args):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.mark.parametrize("writer", WRITERS)
def test_a_failed_write_leaves_the_old_file(folder, capsys, monkeypatch, writer):
    """The disk fills up as the written file is flushed to it: the old file stays, no temporary is left."""
    arguments, output = _with_old_output(folder, WRITERS[writer])
    monkeypatch.setattr("pacsim.files.os.fsync", _no_space)
    assert main(arguments) == 2
    line = error_line(capsys)
    assert str(output) in line and "No space left on device" in line
    assert_old_file_alone(output)


def test_a_failed_weights_save_leaves_the_old_weights(tmp_path, monkeypatch):
    """Training resumes from its --out file, so its failed save is tried on its own."""
    from pacsim.agents.learning import Weights
    from pacsim.errors import OutputError

    output = tmp_path / "out" / "weights.json"
    output.parent.mkdir()
    output.write_bytes(OLD)
    monkeypatch.setattr("pacsim.files.os.fsync", _no_space)
    with pytest.raises(OutputError, match="cannot write the weights: No space left on device"):
        Weights("approxq", {"bias": 1.0}, 3).save(output)
    assert_old_file_alone(output)


def test_a_write_failing_half_way_leaves_the_old_file(folder, capsys, monkeypatch):
    import pandas

    def half_then_full(frame, file, **options):
        file.write(b"id,experiment\n1,half")
        _no_space()

    arguments, output = _with_old_output(folder, WRITERS["export csv"])
    monkeypatch.setattr(pandas.DataFrame, "to_csv", half_then_full)
    assert main(arguments) == 2
    assert "No space left on device" in error_line(capsys)
    assert_old_file_alone(output)


def test_an_interrupted_write_leaves_the_old_file(tmp_path):
    from pacsim.files import atomic_file

    output = tmp_path / "kept.txt"
    output.write_bytes(OLD)
    with pytest.raises(KeyboardInterrupt), atomic_file(output) as file:
        file.write(b"half of the new")
        raise KeyboardInterrupt
    assert_old_file_alone(output)


def test_a_rewritten_file_keeps_its_permissions(tmp_path):
    from pacsim.files import write_atomically

    output = tmp_path / "shared.csv"
    output.write_bytes(OLD)
    output.chmod(0o640)
    write_atomically(output, "new\n")
    assert output.read_text() == "new\n" and output.stat().st_mode & 0o777 == 0o640


@pytest.fixture
def full_disk(tmp_path):
    """A 64 KB tmpfs, full: a new file can be made, but not written."""
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(disk)], capture_output=True)
    if mounted.returncode:
        missing(f"cannot mount a tmpfs here ({mounted.stderr.decode().strip() or 'not permitted'})")
    try:
        (disk / "out").mkdir()
        (disk / "out" / "OUT.csv").write_bytes(OLD)
        with open(disk / "filler", "wb", buffering=0) as filler, pytest.raises(OSError):  # fill it up
            while True:
                filler.write(b"x" * 4096)
        yield disk
    finally:
        subprocess.run(["umount", str(disk)], check=True)


def test_an_export_onto_a_full_disk_leaves_the_old_file(folder, full_disk, capsys):
    output = full_disk / "out" / "OUT.csv"
    assert main(["export", "S.sqlite", "--out", str(output)]) == 2
    assert "No space left on device" in error_line(capsys)
    assert_old_file_alone(output)


# -- outputs checked before the work -----------------------------------------------

@pytest.mark.parametrize("place", ["/proc/pacsim-test.json", "/sys/pacsim-test.json"])
def test_a_record_where_no_file_can_be_made_is_refused_before_the_game(folder, capsys, place):
    assert main(["play", "-q", "-l", "X.lay", "--record", place]) == 2
    captured = capsys.readouterr()
    assert "game 1" not in captured.out
    assert captured.err.startswith(f"pacsim: error: --record {place}: cannot create a file in")


def test_a_parent_that_is_a_file_is_said_to_be_one(folder, capsys):
    (folder / "game.json").write_text("{}")
    assert main(["play", "-q", "-l", "X.lay", "--record", "game.json/x.json"]) == 2
    assert error_line(capsys) == "pacsim: error: --record game.json/x.json: game.json is a file, not a folder"


def test_ctrl_c_keeps_the_finished_records_and_says_where(folder, capsys, monkeypatch):
    from pacsim.cli import play

    played = []

    def interrupted_third(*args, **options):
        if len(played) == 2:
            raise KeyboardInterrupt
        played.append(1)
        return real(*args, **options)

    real = play.play_game
    monkeypatch.setattr(play, "play_game", interrupted_third)
    assert main(["play", "-q", "-n", "50", "-l", "X.lay", "--seed", "1", "--record", "r.json"]) == INTERRUPTED
    out = capsys.readouterr().out
    assert "interrupted: 2 games" in out and "r-1.json ... r-2.json" in out
    assert sorted(path.name for path in folder.glob("r-*.json")) == ["r-1.json", "r-2.json"]
