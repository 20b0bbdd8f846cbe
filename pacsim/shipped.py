"""The files shipped with pacsim: the ``layouts/`` and ``experiments/`` folders.

In the repository they sit at the top level, beside ``pacsim/``.  A wheel
carries them inside the package (``pacsim/layouts``, ``pacsim/experiments``;
``setup.py`` maps them there), and they are found through
``importlib.resources``, so an installed pacsim works from any folder.  In a
source checkout (``PYTHONPATH`` or ``pip install -e .``) the package holds no
such folders and the repository's own are used.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

LAYOUTS = "layouts"
EXPERIMENTS = "experiments"


def shipped_folder(name: str) -> Path:
    """The folder of shipped files called ``name`` (:data:`LAYOUTS` or :data:`EXPERIMENTS`).

    Raises ``FileNotFoundError`` when neither the installed package nor a
    checkout holds it (a broken install)."""
    packaged = files("pacsim").joinpath(name)
    # pacsim is installed as files on disk (pygame and numpy cannot be imported
    # from a zip either), so the resource is a real folder.
    if isinstance(packaged, Path) and packaged.is_dir():
        return packaged
    checkout = Path(__file__).resolve().parent.parent / name
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError(f"pacsim's shipped {name}/ folder is missing (looked in {packaged} and {checkout})")


def shipped_experiment(filename: str) -> Path:
    """A shipped experiment file, e.g. ``optimism_pessimism.toml``."""
    return shipped_folder(EXPERIMENTS) / filename
