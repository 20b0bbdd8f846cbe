"""The files shipped with pacsim: the ``layouts/``, ``experiments/`` and ``examples/`` folders.

In the repository they sit at the top level, beside ``pacsim/``.  A wheel
carries them inside the package (``pacsim/layouts``, ``pacsim/experiments``,
``pacsim/examples``;
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
EXAMPLES = "examples"
SHIPPED_FOLDERS = (LAYOUTS, EXPERIMENTS, EXAMPLES)
EXPERIMENT_SUFFIX = ".toml"


def shipped_folder(name: str) -> Path:
    """The folder of shipped files called ``name`` (one of :data:`SHIPPED_FOLDERS`).

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
    """A shipped experiment's file by its name, e.g. ``optimism_pessimism.toml``
    (found in its study's folder, ``experiments/optimism_pessimism/``), or a
    file of the top folder (``README.md``)."""
    top = shipped_folder(EXPERIMENTS) / filename
    return top if top.exists() else _in_a_study(filename) or top


def shipped_experiments() -> dict[str, Path]:
    """Shipped experiment names (``optimism_pessimism``) mapped to their files,
    sorted by name: every ``.toml`` of every study folder (names are unique
    across studies: a test holds them so)."""
    found = shipped_folder(EXPERIMENTS).glob(f"*/*{EXPERIMENT_SUFFIX}")
    return {path.stem: path for path in sorted(found, key=lambda path: path.stem)}


def _in_a_study(filename: str) -> Path | None:
    """``filename`` in the one study folder that holds it (None: in none)."""
    matches = sorted(shipped_folder(EXPERIMENTS).glob(f"*/{filename}"))
    return matches[0] if len(matches) == 1 else None


def find_experiment(name: str | Path) -> Path:
    """An experiment file: ``name`` as a path when that file exists, else the
    shipped experiment of that name (``optimism_pessimism``, with or without
    ``.toml``), else ``name`` as given, for the reader to say it cannot be read."""
    path = Path(name)
    if path.exists():
        return path
    shipped = shipped_experiments().get(path.name.removesuffix(EXPERIMENT_SUFFIX))
    if shipped is not None and (len(path.parts) == 1 or path.parts[0] == EXPERIMENTS):
        return shipped
    return path


def shipped_path(path: str | Path) -> Path:
    """A file a shipped command names relative to the repository
    (``experiments/probcut/probcut_smallClassic_R6.json``, ``examples/cautious_pacman.py``):
    as given when it exists from the current folder, else the shipped copy,
    so the command works from a wheel in any folder."""
    given = Path(path)
    if given.exists() or given.is_absolute() or len(given.parts) < 2 or given.parts[0] not in SHIPPED_FOLDERS:
        return given
    try:
        shipped = shipped_folder(given.parts[0]).joinpath(*given.parts[1:])
    except FileNotFoundError:
        return given
    if not shipped.exists() and given.parts[0] == EXPERIMENTS and len(given.parts) == 2:
        # A path from before experiments/ had a folder a study
        # (experiments/probcut_smallClassic_R6.json): the study that holds it.
        shipped = _in_a_study(given.name) or shipped
    return shipped if shipped.exists() else given
