"""The catalogue of bad inputs: every way a user can hand pacsim something wrong.

Each case asserts the promise of the project guide: one line on stderr naming
the file (and the line, column or row where one applies), exit status 2,
never a traceback, and nothing stored lost or duplicated.  Areas add their
cases under a header of their own, at the end of the file.
"""

import sys
from pathlib import Path

import pytest

from pacsim.cli import main
from pacsim.errors import PacsimError


def fails_in_one_line(capsys, arguments: list, names: str | Path) -> str:
    """Run ``pacsim ARGUMENTS``; assert exit status 2 and exactly one line on
    stderr that names ``names`` (a file, usually); return that line."""
    capsys.readouterr()
    status = main([str(argument) for argument in arguments])
    error = capsys.readouterr().err
    assert status == 2, error
    assert error.count("\n") == 1 and error.endswith("\n"), error
    assert str(names) in error, error
    return error.strip()


# -- installing: optional extras --------------------------------------------

HINT_FORMS = ("pip install 'pacsim[{extra}]'", "pip install -e '.[{extra}]'")
"""A hint must work for a wheel user and for a checkout (README) user."""


def assert_hint_for_both(message: str, extra: str) -> None:
    for form in HINT_FORMS:
        assert form.format(extra=extra) in message, message


def test_plot_without_matplotlib_says_how_to_install_it_either_way(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now raises ImportError
    from pacsim.report.plot import plot_summary

    with pytest.raises(PacsimError) as caught:
        plot_summary(None, None, ["condition"], tmp_path / "plot.png")
    assert_hint_for_both(str(caught.value), "plot")


def test_gif_without_pillow_says_how_to_install_it_either_way(monkeypatch):
    import importlib.util

    from pacsim.viewer.capture import require_pillow

    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *rest: None if name == "PIL" else real_find_spec(name, *rest))
    with pytest.raises(PacsimError) as caught:
        require_pillow()
    assert_hint_for_both(str(caught.value), "gif")


def test_dask_without_distributed_says_how_to_install_it_either_way(monkeypatch):
    from pacsim.runner.dask_backend import dask_executor

    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(PacsimError) as caught, dask_executor():
        pass
    assert_hint_for_both(str(caught.value), "dask")
