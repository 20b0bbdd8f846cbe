"""Which run of a store a report speaks of.

A store may hold several runs of one experiment (``reproduce --set seed=N``
beside the first run): their games share condition labels and game indices,
so pooling them silently would mix two samples.  A report therefore takes the
latest run of each experiment unless asked for another (``root_seed``, a run
id from :func:`pacsim.runner.store.load_runs`) or for all of them, and says
in one line what it left out.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas

from pacsim.errors import PacsimError


@dataclass(frozen=True)
class RunChoice:
    """What the user asked for: nothing (the latest run of each experiment),
    one root seed, one run id (a prefix is enough), or all runs pooled."""

    root_seed: int | None = None
    run: str | None = None
    pool: bool = False


def choose_runs(results: pandas.DataFrame, runs: pandas.DataFrame, choice: RunChoice) -> tuple[pandas.DataFrame, str | None]:
    """The games of the chosen runs, and a line saying what was chosen when
    the store holds more runs than those (None when nothing was left out)."""
    chosen, note = chosen_runs(runs, choice)
    return (results if chosen is None else results[results["config_hash"].isin(chosen)]), note


def chosen_runs(runs: pandas.DataFrame, choice: RunChoice) -> tuple[tuple[str, ...] | None, str | None]:
    """The config hashes of the chosen runs (None: every run, pooled), and
    the line saying what was chosen when the store holds more runs than those."""
    if choice.pool:
        return None, None
    chosen = _chosen(runs, choice)
    hashes = tuple(chosen["run"])
    if len(chosen) == len(runs):
        return hashes, None
    described = "; ".join(_describe(run) for run in chosen.to_dict("records"))
    how = "" if choice.root_seed is not None or choice.run is not None else "the latest run of each experiment: "
    return hashes, (f"{len(runs)} runs in the store (--runs lists them); showing {how}{described}; "
                    "--root-seed N or --run ID picks another, --all pools them")


def with_root_seeds(results: pandas.DataFrame, runs: pandas.DataFrame) -> pandas.DataFrame:
    """``results`` with each game's run's ``root_seed``: what tells pooled
    runs apart in a report's tables and plots (see ``default_by``)."""
    return results.assign(root_seed=results["config_hash"].map(dict(zip(runs["run"], runs["root_seed"]))))


def _chosen(runs: pandas.DataFrame, choice: RunChoice) -> pandas.DataFrame:
    if choice.run is not None:
        chosen = runs[runs["run"].str.startswith(choice.run)]
        if len(chosen) != 1:
            problem = "no run" if chosen.empty else f"{len(chosen)} runs"
            raise PacsimError(f"--run {choice.run}: {problem} with that id (runs: {', '.join(runs['run'])})")
        return chosen
    if choice.root_seed is not None:
        chosen = runs[runs["root_seed"] == choice.root_seed]
        if chosen.empty:
            seeds = ", ".join(str(seed) for seed in sorted(runs["root_seed"].dropna().unique()))
            raise PacsimError(f"--root-seed {choice.root_seed}: no run with that root seed (root seeds: {seeds})")
        return chosen
    # runs is oldest first: the last row of each experiment is its latest run.
    return runs.groupby("experiment", sort=False).tail(1)


def _describe(run: dict) -> str:
    return f"{run['experiment']} root seed {run['root_seed']} (run {run['run'][:8]})"


def runs_table(runs: pandas.DataFrame) -> str:
    """``report --runs``: one line per run, oldest first."""
    shown = runs.assign(run=runs["run"].str[:8])[["run", "experiment", "root_seed", "games", "conditions", "updated_at"]]
    return shown.rename(columns={"updated_at": "last run at"}).to_string(index=False)
