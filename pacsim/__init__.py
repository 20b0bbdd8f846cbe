"""pacsim: a Pacman-style testbed for game-tree search.

``pacsim.play``, ``pacsim.run``, ``pacsim.report``, ``pacsim.load_results``,
``pacsim.iter_results`` (the same games in chunks, for a big store), ``pacsim.summarize`` and ``pacsim.load_record`` are loaded on first use, so
``import pacsim`` does not pull in pandas or the agents.
"""

from pacsim._version import __version__

__all__ = ["__version__", "play", "run", "report", "load_results", "iter_results", "summarize", "load_record", "kernel_evaluation", "kernel_ghost"]


def __getattr__(name: str):
    if name == "load_results":
        from pacsim.runner.store import load_results

        return load_results
    if name == "iter_results":
        from pacsim.runner.aggregate import iter_results

        return iter_results
    if name == "summarize":
        from pacsim.report.summary import summarize

        return summarize
    if name == "report":  # the package pacsim.report, callable: pacsim.report(store_or_frame)
        import pacsim.report

        return pacsim.report
    if name in ("kernel_evaluation", "kernel_ghost"):  # mark a user's evaluation or ghost the kernel may compile
        from pacsim.fast import view

        return getattr(view, name)
    if name in ("play", "run", "load_record"):
        from pacsim import api

        return getattr(api, name)
    raise AttributeError(f"module 'pacsim' has no attribute {name!r}")


def __dir__() -> list[str]:
    # The lazy attributes are part of the API: dir() and tab completion should show them.
    return sorted({*globals(), *__all__})
