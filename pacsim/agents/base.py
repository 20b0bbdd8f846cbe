"""Kept for imports written before :mod:`pacsim.agents.api`: the same names."""

from pacsim.agents.api import Agent, Distribution, MoveStats, NoOptions, StochasticAgent, sample, uniform

__all__ = ["Agent", "StochasticAgent", "NoOptions", "MoveStats", "Distribution", "sample", "uniform"]
