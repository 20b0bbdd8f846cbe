"""Layers point one way: a module imports only from its own layer or the ones below (docs/architecture.md).

Every import counts, those inside functions too: a page that ``report``
wrote through ``web`` was a two-way layer although each import was lazy.
"""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "pacsim"
LAYERS = {
    **dict.fromkeys(("_version", "errors", "printable", "lazy", "provenance", "shipped", "files", "arguments"), 0),
    "engine": 1, "search": 1,
    "fast": 2,
    "sandbox": 3,
    "agents": 4,
    "runner": 5,
    "report": 6, "viewer": 6,
    "web": 7, "env": 7,
    "api": 8,
    "cli": 9,
    "bench": 10,
    "__main__": 11,
}
"""Each top-level module or package of pacsim and its layer, from the ground up
(``sandbox``: the isolation room).  The package
root, ``pacsim/__init__.py``, names the API lazily and is no layer."""


def part_of(module: str) -> str | None:
    """The top-level module or package of pacsim that ``module`` (dotted) lies in; None outside pacsim or for its root."""
    parts = module.split(".")
    return parts[1] if parts[0] == "pacsim" and len(parts) > 1 else None


def imported(path: Path) -> set[str]:
    """Every pacsim part that the module at ``path`` imports, anywhere in it."""
    dotted = ["pacsim", *path.relative_to(PACKAGE).with_suffix("").parts]
    package = dotted if path.name == "__init__.py" else dotted[:-1]
    parts = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            parts |= {part_of(alias.name) for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(package[:len(package) - node.level + 1] + [node.module or ""]) if node.level else node.module or ""
            base = base.rstrip(".")
            # ``from pacsim import arguments`` imports the module pacsim.arguments
            parts |= {part_of(f"{base}.{alias.name}") if base == "pacsim" else part_of(base) for alias in node.names}
    return parts - {None}


def test_every_part_of_pacsim_has_a_layer():
    parts = {path.stem if path.is_file() else path.name for path in PACKAGE.iterdir()
             if (path.suffix == ".py" and path.name != "__init__.py") or (path / "__init__.py").is_file()}
    assert parts <= set(LAYERS), f"place {sorted(parts - set(LAYERS))} in LAYERS"


def test_no_import_runs_back_up_a_layer():
    upward = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.parent == PACKAGE and path.name == "__init__.py":
            continue
        own = LAYERS[path.relative_to(PACKAGE).parts[0].removesuffix(".py")]
        name = str(path.relative_to(PACKAGE.parent))
        upward |= {(name, part) for part in imported(path) if LAYERS[part] > own}
    assert not upward, f"imports that run back up: {sorted(upward)}"
