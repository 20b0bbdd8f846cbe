"""Packaging that pyproject.toml cannot say: the shipped layouts, experiments and examples.

They live at the repository's top level (experiments/ with a folder a study) (``layouts/``, ``experiments/``,
``examples/``), and a wheel carries them inside the package as
``pacsim/layouts``, ``pacsim/experiments`` and ``pacsim/examples``, where :mod:`pacsim.shipped` finds them through
``importlib.resources``.  Everything else is in pyproject.toml.
"""

from setuptools import find_packages, setup

SHIPPED_FOLDERS = {"pacsim.layouts": "layouts", "pacsim.experiments": "experiments", "pacsim.examples": "examples"}

setup(
    packages=find_packages(include=["pacsim", "pacsim.*"]) + list(SHIPPED_FOLDERS),
    package_dir=SHIPPED_FOLDERS,
    package_data={"pacsim": ["py.typed"], "pacsim.web": ["*.js", "*.css", "*.html"], "pacsim.layouts": ["*.lay", "capture/*.lay"],
                  "pacsim.experiments": ["*.md", "*/*.toml", "*/*.md", "*/*.json", "*/weights/*.json"], "pacsim.examples": ["*.py"]},
)
