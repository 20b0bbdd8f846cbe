"""The benchmark's result: figures in groups, the machine they were measured on, what was skipped."""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any

from pacsim._version import __version__
from pacsim.provenance import PACSIM_FOLDER, Machine, git_commit, short_commit


@dataclass
class Figure:
    """One measured number."""

    group: str
    name: str
    value: float
    unit: str
    note: str = ""


@dataclass
class Report:
    figures: list[Figure] = field(default_factory=list)
    machine: dict[str, Any] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)
    """Figures that could not be measured here, and why."""

    def add(self, group: str, name: str, value: float, unit: str, note: str = "") -> None:
        self.figures.append(Figure(group, name, value, unit, note))

    def skip(self, reason: str) -> None:
        self.skipped.append(reason)

    def to_dict(self) -> dict[str, Any]:
        return {"machine": self.machine, "figures": [asdict(figure) for figure in self.figures],
                "skipped": list(self.skipped)}

    def to_text(self) -> str:
        lines = [" ".join(f"{key}={value}" for key, value in self.machine.items())]
        group = None
        for figure in self.figures:
            if figure.group != group:
                group = figure.group
                lines.append(f"\n[{group}]")
            value = f"{figure.value:,.0f}" if abs(figure.value) >= 100 else f"{figure.value:.3f}"
            lines.append(f"  {figure.name:<44} {value:>14} {figure.unit:<10} {figure.note}".rstrip())
        if self.skipped:
            lines.append("\n[skipped]")
            lines += [f"  {reason}" for reason in self.skipped]
        return "\n".join(lines)


def machine_info() -> dict[str, Any]:
    commit = git_commit(PACSIM_FOLDER)  # found as a stored game's (pacsim.provenance)
    machine = Machine.here()
    return {
        "pacsim": __version__, "commit": short_commit(commit) if commit else "?", "python": machine.python_version,
        "machine": machine.arch, "cores": machine.cores, "time": time.strftime("%Y-%m-%dT%H:%M:%S"),
    }
