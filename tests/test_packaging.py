"""The wheel: built from a copy of the checkout, installed into a fresh virtual
environment, and run from a folder that is not the checkout.

Slow (about 8 s on an idle machine), but it is the only test
that sees pacsim the way a user of ``pip install pacsim`` does, so it runs in CI.
"""

import importlib.util
import os
import shutil
import site
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from pacsim.engine import shipped_layouts

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("pyproject.toml", "setup.py", "README.md", "pacsim", "layouts", "experiments", "examples")
"""What a wheel is built from (copied, so the build writes nothing into the checkout)."""


def run(command: list, **options) -> subprocess.CompletedProcess:
    finished = subprocess.run([str(part) for part in command], capture_output=True, text=True, timeout=300, **options)
    assert finished.returncode == 0, f"{command} failed:\n{finished.stdout}\n{finished.stderr}"
    return finished


def build_wheel(directory: Path) -> Path:
    source = directory / "source"
    source.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(ROOT / name, source / name)
    wheels = directory / "wheels"
    command = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", wheels, source]
    if all(importlib.util.find_spec(tool) is not None for tool in ("setuptools", "wheel")):
        command.append("--no-build-isolation")  # the test extra's tools: offline and fast; else pip fetches them
    run(command)
    (wheel,) = wheels.glob("pacsim-*.whl")
    return wheel


def install_into_fresh_venv(wheel: Path, directory: Path) -> Path:
    """A new venv holding only the wheel; its dependencies (numpy, pandas, ...)
    come from this interpreter's site folders, added through a ``.pth`` file,
    which puts the folders on ``sys.path`` without running the ``.pth`` files
    inside them (such as the finder of an editable pacsim)."""
    venv = directory / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", venv])
    python = venv / "bin" / "python"
    purelib = run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip()
    outer = site.getsitepackages() + ([site.getusersitepackages()] if site.ENABLE_USER_SITE else [])
    (Path(purelib) / "dependencies.pth").write_text("\n".join(outer) + "\n", encoding="utf-8")
    run([sys.executable, "-m", "pip", "--python", python, "install", "--quiet", "--no-deps", "--no-index", wheel],
        env=without_this_checkout())
    return venv


def without_this_checkout() -> dict[str, str]:
    """The environment without PYTHONPATH: a checkout on it would be the pacsim found (pip would see its
    pacsim.egg-info and install nothing)."""
    return {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}


@pytest.mark.slow
def test_a_wheel_installed_in_a_fresh_venv_lists_layouts_and_reproduces(tmp_path):
    wheel = build_wheel(tmp_path)
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {f"pacsim/layouts/{name}.lay" for name in shipped_layouts()} <= names
    assert {"pacsim/experiments/optimism_pessimism/optimism_pessimism.toml", "pacsim/py.typed"} <= names
    # What shipped experiments and the README's commands refer to: model files and the example plugin.
    assert {"pacsim/experiments/probcut/probcut_smallClassic_R6.json", "pacsim/examples/cautious_pacman.py"} <= names
    assert {"pacsim/web/player.js", "pacsim/web/player.css", "pacsim/web/page.html", "pacsim/web/report.css",
            "pacsim/web/capture.html", "pacsim/web/capture.js"} <= names  # the HTML player's files

    venv = install_into_fresh_venv(wheel, tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    environment = without_this_checkout()
    # The pure-Python search: the wheel's kernel would compile from cold (about 11 s of CPU) for a
    # check about shipped files; the kernel's own tests run from the checkout.
    environment.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PACSIM_BACKEND="python")

    def pacsim(*arguments: str) -> str:
        return run([venv / "bin" / "pacsim", *arguments], cwd=elsewhere, env=environment).stdout

    where = run([venv / "bin" / "python", "-c", "import pacsim; print(pacsim.__file__)"],
                cwd=elsewhere, env=environment).stdout
    assert where.startswith(str(venv)), where  # the wheel's pacsim, not this checkout's
    listed = {line.split()[0] for line in pacsim("layouts").splitlines()[1:]}
    assert listed == set(shipped_layouts())
    # The experiment names its layout (optimismHalls): a shipped name found from the wheel.
    reproduced = pacsim("reproduce", "--games", "1", "--set", "max_moves=5", "--workers", "1", "--quiet")
    assert "optimism_pessimism: 4 games played" in reproduced
    assert (elsewhere / "results" / "optimism_pessimism.sqlite").is_file()
