"""The benchmark's result: figures in groups, the machine they were measured on, what was skipped."""

from __future__ import annotations

import os
import platform
import subprocess
import time
from dataclasses import asdict, dataclass, field
from typing import Any

from pacsim._version import __version__


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
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                                cwd=os.path.dirname(__file__), timeout=5).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit = ""
    return {
        "pacsim": __version__, "commit": commit or "?", "python": platform.python_version(),
        "machine": platform.machine(), "cores": os.cpu_count(), "time": time.strftime("%Y-%m-%dT%H:%M:%S"),
    }
