"""What CI runs: the README's test command with every extra, and the tests
that need an optional part failing there rather than skipping."""

import re
import tomllib
from pathlib import Path

import optional
import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_ci_runs_the_readme_test_command_with_every_extra_and_the_browser():
    (command,) = re.findall(r'^pip install -e "\.\[[^]]*\]" && python -m pytest$', (ROOT / "README.md").read_text(encoding="utf-8"), re.M)
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert command in script.splitlines()
    extras = set(re.search(r"\[(.*)\]", command)[1].split(","))
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    assert extras == set(declared)  # so no test skips in CI for want of an extra
    assert "apt-get install" in script and "chromium chromium-driver" in script


def test_a_missing_part_skips_with_its_reason_and_fails_under_ci(monkeypatch):
    monkeypatch.setattr(optional, "IN_CI", False)
    with pytest.raises(pytest.skip.Exception, match=r"needs pacsim_no_such_module .*: pip install it"):
        optional.needed("pacsim_no_such_module", "pip install it")
    monkeypatch.setattr(optional, "IN_CI", True)
    with pytest.raises(pytest.fail.Exception, match="CI=true"):
        optional.needed("pacsim_no_such_module", "pip install it")
    assert optional.needed("json", "shipped with Python").dumps(1) == "1"
