"""What CI runs: the README's test command with every extra, and the tests
that need an optional part failing there rather than skipping."""

import os
import re
import subprocess
import sys
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


SKIPPING_TESTS = {
    "test_bare.py": "import pytest\n\ndef test_bare():\n    pytest.skip('no reason given to CI')\n",
    "test_marked.py": "import pytest\n\n@pytest.mark.skipif(True, reason='a mark')\ndef test_marked():\n    pass\n",
    "test_module.py": "import pytest\n\npytest.importorskip('pacsim_no_such_module')\n\ndef test_never_collected():\n    pass\n",
    "test_course.py": "import optional\n\ndef test_course():\n    optional.outside_ci('needs the course copy')\n",
    "test_xfail.py": "import pytest\n\n@pytest.mark.xfail(reason='expected', strict=True)\ndef test_expected():\n    assert False\n",
}


@pytest.mark.parametrize("ci", ["true", ""])
def test_under_ci_every_skip_fails_however_it_was_raised(tmp_path, ci):
    for name, text in SKIPPING_TESTS.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "conftest.py").write_text(  # this suite's two hooks, without its warm-up
        "import importlib.util, sys\n"
        f"sys.path.insert(0, {str(ROOT / 'tests')!r})\n"
        f"spec = importlib.util.spec_from_file_location('suite_conftest', {str(ROOT / 'tests' / 'conftest.py')!r})\n"
        "suite = importlib.util.module_from_spec(spec)\nspec.loader.exec_module(suite)\n"
        "pytest_make_collect_report, pytest_runtest_makereport = suite.pytest_make_collect_report, suite.pytest_runtest_makereport\n",
        encoding="utf-8")
    environment = {**os.environ, "CI": ci}
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:xdist", "-p", "no:cacheprovider", "-o", "addopts=", "-r", "fEs", "--continue-on-collection-errors",
                          str(tmp_path)], cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=120)
    if ci:
        assert run.returncode == 1, run.stdout
        assert re.search(r"\b1 failed, 1 skipped, 1 xfailed, 2 errors\b", run.stdout), run.stdout
        assert run.stdout.count("skipped under CI=true") >= 3 and "not run in CI by design: needs the course copy" in run.stdout
    else:
        assert run.returncode == 0, run.stdout
        assert re.search(r"\b4 skipped, 1 xfailed\b", run.stdout), run.stdout
        assert "no reason given to CI" in run.stdout  # -r s: the skips are listed with their reasons
