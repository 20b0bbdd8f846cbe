"""The one factory of a condition's agents, for the planning and for its games.

The planning (:mod:`pacsim.runner.plan`) checks each agent combination once
with :func:`check_agent`; a worker (:mod:`pacsim.runner.execute`) builds a
game's agents with :func:`condition_agents`.  Both decide here, from the
parsed spec (:class:`~pacsim.agents.registry.AgentSpec`), where an agent
runs: a plugin in its own sandbox when the run is sandboxed, anything else
in this process, a user's code within the start-up limit.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from pacsim.agents import plugins
from pacsim.agents.registry import GHOST, PACMAN, AgentSpec, make_agent
from pacsim.agents.sandboxed import SandboxedAgent, check_in_sandbox
from pacsim.engine.deadline import AgentTimeout, call_with_deadline
from pacsim.engine.game import Agent
from pacsim.sandbox.limits import Limits

STARTUP_SECONDS = Limits.startup_seconds
"""Seconds an agent built outside the sandbox may take, under a move limit: the sandbox's start-up limit."""


def startup_limit(sandbox: Limits | None, time_limit: float) -> float | None:
    """The start-up limit of an agent built outside the sandbox: with a move
    limit, the sandbox's, so that the rules are the same with and without
    it (a constructor that never returns holds no planning and no worker);
    none without a move limit, as a sandbox-free run always was."""
    return STARTUP_SECONDS if sandbox is None and time_limit else None


def plugins_startup(spec: AgentSpec, startup: float | None) -> float | None:
    """``startup`` for a spec that runs a user's code, none for pacsim's own
    agents: what the sandbox would start, and only that (a cold kernel cache
    may take longer to compile, a cost of pacsim's, not of an entrant)."""
    return startup if startup is not None and spec.needs_sandbox else None


def overran_startup(limit: float | None) -> str:
    """What an agent built outside the sandbox that overran the start-up limit did, as the sandbox says it."""
    return f"overran the {limit}s start-up limit (building the agent)"


class StartupOverrun(Exception):
    """An agent built outside the sandbox overran the start-up limit."""

    def __init__(self, agent_index: int, limit: float) -> None:
        super().__init__(overran_startup(limit))
        self.agent_index = agent_index


def sandboxed_here(spec: AgentSpec, sandbox: Limits | None) -> bool:
    """Whether ``spec`` plays in a sandbox of its own (never imported in this process)."""
    return sandbox is not None and spec.needs_sandbox


def build_agent(role: str, spec: AgentSpec, options: Mapping[str, Any], sandbox: Limits | None,
                startup: float | None, agent_index: int = 0) -> Agent:
    """One agent of a game: in its sandbox (:func:`sandboxed_here`), else built
    here, a user's code within ``startup`` seconds (:class:`StartupOverrun`
    naming ``agent_index`` if not)."""
    if sandbox is not None and sandboxed_here(spec, sandbox):
        return SandboxedAgent(role, spec, dict(options), sandbox)
    limit = plugins_startup(spec, startup)
    try:
        return call_with_deadline(lambda: make_agent(role, spec, options), limit)
    except AgentTimeout:
        raise StartupOverrun(agent_index, limit or 0.0) from None


class Lineup(Protocol):
    """What the factory needs of a condition (:class:`~pacsim.runner.plan.Condition` is one)."""

    @property
    def parsed_pacman(self) -> AgentSpec: ...
    @property
    def pacman_options(self) -> Mapping[str, Any]: ...
    @property
    def parsed_ghosts(self) -> AgentSpec: ...
    @property
    def ghost_options(self) -> Mapping[str, Any]: ...
    @property
    def num_ghosts(self) -> int: ...


def condition_agents(condition: Lineup, sandbox: Limits | None, startup: float | None = None) -> list[Agent]:
    """The Pacman and ghosts of one of ``condition``'s games (built afresh for each game: see
    :func:`~pacsim.runner.execute.play_task`)."""
    pacman = build_agent(PACMAN, condition.parsed_pacman, condition.pacman_options, sandbox, startup)
    return [pacman] + [build_agent(GHOST, condition.parsed_ghosts, condition.ghost_options, sandbox, startup, index)
                       for index in range(1, condition.num_ghosts + 1)]


@dataclass(frozen=True)
class CheckedAgent:
    """What the planning learns of one agent by building it once."""

    code: dict[str, str]
    """The plugin code it runs, label -> identity."""
    files: dict[str, str]
    """The data files it reads, label -> identity."""
    depth: int | None
    """Its search depth, if it has one."""


def check_agent(role: str, spec: AgentSpec, options: Mapping[str, Any], sandbox: Limits | None,
                startup: float | None) -> CheckedAgent:
    """Build the agent once, as its games will (:func:`build_agent`): a plugin of
    a sandboxed run is checked in its sandbox; anything else is built here,
    the plugin code and data files it reads recorded.  Raises the
    :class:`~pacsim.errors.AgentError` that building raised, or :class:`StartupOverrun`."""
    if sandbox is not None and sandboxed_here(spec, sandbox):
        checked = check_in_sandbox(role, spec, options, sandbox)
        return CheckedAgent(checked.code, checked.files, checked.depth)
    with plugins.recording() as used:
        agent = build_agent(role, spec, options, None, startup)
    depth = getattr(agent, "depth", None)
    return CheckedAgent(code={item.label: item.identity for item in used if item.kind == plugins.CODE},
                        files={item.label: item.identity for item in used if item.kind == plugins.DATA},
                        depth=depth if isinstance(depth, int) else None)
