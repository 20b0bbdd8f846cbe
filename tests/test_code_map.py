"""The README's code map names every module of the folders it lists file by file."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LISTED_FILE_BY_FILE = ("engine", "search", "fast", "agents", "runner", "sandbox")
"""Folders whose row names each file (the others are described as a whole)."""


def code_map_rows() -> dict[str, str]:
    """The code map's table: its first cell (``engine/``, ``top level``) -> the row."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Code map"):]
    section = section[:section.find("\n## ", 1)] if "\n## " in section[1:] else section
    rows = [line.split("|") for line in section.splitlines() if line.startswith("| ")]
    return {cells[1].strip().strip("`"): cells[2] for cells in rows if len(cells) > 2}


def test_the_code_map_names_every_module_of_the_folders_it_lists():
    rows = code_map_rows()
    missing = []
    for folder in LISTED_FILE_BY_FILE:
        row = rows[f"{folder}/"]
        for path in sorted((ROOT / "pacsim" / folder).glob("*.py")):
            if path.name != "__init__.py" and not re.search(rf"[`/]{re.escape(path.name)}`", row):
                missing.append(f"{folder}/{path.name}")
    for path in sorted((ROOT / "pacsim").glob("*.py")):
        if path.name != "__init__.py" and f"`{path.name}`" not in rows["top level"]:
            missing.append(path.name)
    assert not missing, f"the README's code map leaves out {missing}"
