"""The grid of an experiment: its conditions, checked once and each made when asked for.

Every agent combination is built once while checking (a plugin in its
sandbox when the run is sandboxed), every layout read once, and a seed range
of generated mazes stays one entry: a million mazes cost nothing until their
games are planned."""

from __future__ import annotations

import hashlib
import itertools
import json
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn, overload

from pacsim.agents.registry import GHOST, PACMAN, RENAMED_OPTIONS, AgentSpec, join_spec, option_names, parse_spec, resolve
from pacsim.agents.sandboxed import check_in_sandbox
from pacsim.engine import Layout, find_layout
from pacsim.engine.generate import generate_layout, is_generated, maze_count, maze_names, parse_maze_specs
from pacsim.engine.layout import layouts_directory
from pacsim.errors import AgentError, PacsimError, did_you_mean
from pacsim.runner.agent_factory import CheckedAgent, StartupOverrun, check_agent, overran_startup, sandboxed_here
from pacsim.runner.experiment_file import AGENT_KEYS, Checker, Scalar, sort_key
from pacsim.sandbox.limits import Limits


@dataclass(frozen=True)
class Condition:
    """One cell of the grid: everything a worker needs to play its games.

    Small and picklable: the layout travels as text, so a worker needs no
    access to the coordinator's files."""

    key: str
    """Canonical JSON of the condition: with the config hash, it identifies its games in the store."""
    label: str
    """Readable name, e.g. ``expectimax/adversarial/tinyGhostMaze/depth=4`` (what ``--compare`` takes)."""
    pacman: str
    ghosts: str
    layout: str
    file_text: str
    """The text of a layout read from a file; empty for a generated maze, which
    is built from its name when needed (a million of them are never held at once)."""
    num_ghosts: int
    pacman_options: dict[str, Scalar] = field(hash=False)
    ghost_options: dict[str, Scalar] = field(hash=False)
    parsed_pacman: AgentSpec = field(hash=False, compare=False)
    """``pacman`` as the planning parsed it once (its games take it from here)."""
    parsed_ghosts: AgentSpec = field(hash=False, compare=False)
    """``ghosts`` as the planning parsed it once."""
    depth: int | None = None
    """The Pacman's search depth (its option, or the agent's default); None for non-search agents."""

    @property
    def layout_text(self) -> str:
        """The layout's text (a generated maze's is built again on each call)."""
        if is_generated(self.layout):
            return generate_layout(parse_maze_specs(self.layout)[0])
        return self.file_text

    def pacman_spec(self) -> str:
        """The Pacman as one spec string, e.g. ``expectimax:depth=4,eval=careful``."""
        return join_spec(self.parsed_pacman, self.pacman_options)

    @property
    def code(self) -> dict[str, str]:
        """The plugin code its agents run: label -> identity (empty for built-in agents)."""
        return dict(json.loads(self.key).get("code", {}))

    @property
    def files(self) -> dict[str, str]:
        """The data files it reads (a layout file, a probcut model): label -> content hash."""
        return dict(json.loads(self.key).get("files", {}))


@dataclass(frozen=True)
class _GridLayout:
    """What the grid needs of one of its ``layout`` values: a layout, or a
    generated spec's mazes (their texts are not kept)."""

    name: str
    """The layout's name; a generated spec's maze names but for the seed (:func:`maze_names`)."""
    num_ghosts: int
    file_text: str
    """The text of a layout file; empty for generated mazes."""
    files: dict[str, str]
    """Its file's content hash, as :func:`_layout_file` gives it."""
    note: str | None = None
    """One line when a local file took over from a shipped layout of the same name."""
    seeds: range | None = None
    """A generated spec's seeds (maze ``name + str(seed)`` for each); None for a layout."""

    def __len__(self) -> int:
        return 1 if self.seeds is None else len(self.seeds)

    def name_at(self, index: int) -> str:
        return self.name if self.seeds is None else self.name + str(self.seeds[index])

    def sorted_names(self) -> Iterator[str]:
        """Its maze names in the order of :func:`sort_key` (for the config hash)."""
        if self.seeds is None:
            return iter([self.name])
        return (self.name + str(seed) for seed in _decimal_order(self.seeds))


def _decimal_order(seeds: range) -> Iterator[int]:
    """A step-1 range of integers >= 0 in the order of their decimal text
    (0, 1, 10, 100, 11, ..., 2, 20, ...) without listing them: the order the
    names ending in them sort in.  A walk of the tree of digit prefixes in
    pre-order, skipping the subtrees that hold no seed."""
    low, high = seeds.start, seeds.stop - 1

    def reaches(prefix: int) -> bool:  # some seed's digits start with the prefix's
        width = 1
        while prefix * width <= high:
            if (prefix + 1) * width - 1 >= low:
                return True
            width *= 10
        return False

    if low == 0:
        yield 0
    current = 1
    while True:
        if current <= high and (current >= low or reaches(current)):
            if current >= low:
                yield current
            if current * 10 <= high:
                current *= 10  # its first child
                continue
        while current % 10 == 9 or current + 1 > high:  # no next sibling: up
            current //= 10
            if current == 0:
                return
        current += 1


class GridLayouts(Sequence[tuple[str, _GridLayout]]):
    """The grid's layouts, each generated maze a layout of its own: (name, what the grid needs of it)."""

    def __init__(self, entries: list[_GridLayout]) -> None:
        self.entries = entries

    def __len__(self) -> int:
        return sum(len(entry) for entry in self.entries)

    @overload
    def __getitem__(self, index: int) -> tuple[str, _GridLayout]: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[tuple[str, _GridLayout]]: ...

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return [self[position] for position in range(len(self))[index]]
        position = range(len(self))[index]  # IndexError as a list's
        for entry in self.entries:
            if position < len(entry):
                return entry.name_at(position), entry
            position -= len(entry)
        raise AssertionError("unreachable")

    def __iter__(self) -> Iterator[tuple[str, _GridLayout]]:
        for entry in self.entries:
            for position in range(len(entry)):
                yield entry.name_at(position), entry


def expand(checker: Checker, grid: dict[str, list[Any]], layouts: GridLayouts, pacman_options: dict,
           ghost_options: dict, sandbox: Limits | None = None, startup: float | None = None) -> ConditionGrid:
    """The grid's conditions, checked: every agent spec parsed once, every
    agent built once (a plugin in its sandbox when ``sandbox`` is set, else
    within ``startup`` seconds), every layout's ghosts counted once (a
    generated spec's mazes have the same count)."""
    # list[Any]: the grid's values were checked (_check_grid_value): names are strings, ghost counts integers.
    specs = _parsed_agents(checker, grid, sandbox)
    option_keys = [key for key in grid if key not in AGENT_KEYS]
    declared = _declared_options(checker, grid["pacman"], specs, option_keys, pacman_options, sandbox)
    conditions = ConditionGrid(grid, layouts, pacman_options, ghost_options, declared, specs)
    for entry in layouts.entries:
        for num_ghosts in grid.get("num_ghosts", []):
            if num_ghosts > entry.num_ghosts:
                checker.fail("grid.num_ghosts", f"layout {entry.name_at(0)!r} has only {entry.num_ghosts} ghosts, "
                                                f"not {num_ghosts}")
    for pacman in grid["pacman"]:
        for ghosts, *option_values in itertools.product(grid["ghosts"], *conditions.option_axes(pacman)):
            varied, own_options = conditions.options_of(pacman, option_values)
            pacman_spec, options = conditions.true_model(pacman, {**own_options, **varied}, ghosts, checker)
            agents_key = (pacman_spec.text, sort_key(options), ghosts)
            if agents_key not in conditions.agents:
                conditions.agents[agents_key] = _build_agents(checker, pacman_spec, options, varied, specs[ghosts],
                                                              ghost_options, sandbox, startup)
    return conditions


_UNSET = object()
"""An option a Pacman of the grid does not declare: left out of its conditions."""


class ConditionGrid(Sequence[Condition]):
    """The conditions of a checked grid in grid order, each made when asked
    for: a million generated mazes cost no memory until their games are
    planned, one at a time.  An option applies to the Pacmen that declare it
    (``declared``): the others play one condition, not one per value."""

    def __init__(self, grid: dict[str, list[Any]], layouts: GridLayouts, pacman_options: dict,
                 ghost_options: dict, declared: dict[Any, set[str]], specs: dict[str, AgentSpec]) -> None:
        self.grid = grid
        self.layouts = layouts
        self.pacman_options = pacman_options
        self.ghost_options = ghost_options
        self.declared = declared
        self.specs = specs
        """Every agent spec of the grid, parsed once (and each ``model=true`` Pacman's, when first made)."""
        self.option_keys = [key for key in grid if key not in AGENT_KEYS]
        self.agents: dict[tuple[str, str, str], CheckedAgent] = {}
        """What each agent combination needs, filled by :func:`expand` (agents are the same on every maze)."""

    def option_axes(self, pacman: Any) -> list[Sequence[Any]]:
        """The grid's option values for ``pacman``: one :data:`_UNSET` for an option it does not declare."""
        return [self.grid[key] if key in self.declared[pacman] else [_UNSET] for key in self.option_keys]

    def options_of(self, pacman: Any, option_values: Sequence[Any]) -> tuple[dict, dict]:
        """The varied options and the [pacman_options] that apply to ``pacman``."""
        varied = {key: value for key, value in zip(self.option_keys, option_values) if value is not _UNSET}
        own = {key: value for key, value in self.pacman_options.items() if key in self.declared[pacman]}
        return varied, own

    def true_model(self, pacman: str, options: dict, ghosts: str, checker: Checker) -> tuple[AgentSpec, dict]:
        """The Pacman's parsed spec and options, ``model=true`` (in either) replaced by the condition's ghost spec."""
        text, options = _true_model(self.specs[pacman], options, self.specs[ghosts], self.ghost_options, checker)
        if text not in self.specs:
            self.specs[text] = parse_spec(text)
        return self.specs[text], options

    def _axes(self, pacman: Any) -> list[Sequence[Any]]:
        return [self.grid["ghosts"], self.layouts, self.grid.get("num_ghosts", [None]), *self.option_axes(pacman)]

    def _block(self, pacman: Any) -> int:
        return math.prod(len(axis) for axis in self._axes(pacman))

    def __len__(self) -> int:
        return sum(self._block(pacman) for pacman in self.grid["pacman"])

    @overload
    def __getitem__(self, index: int) -> Condition: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Condition]: ...

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return [self[position] for position in range(len(self))[index]]
        position = range(len(self))[index]  # IndexError as a list's
        for pacman in self.grid["pacman"]:  # a block of conditions a Pacman, in grid order
            if position >= self._block(pacman):
                position -= self._block(pacman)
                continue
            values = []
            for axis in reversed(self._axes(pacman)):  # itertools.product's order: the last axis varies fastest
                position, offset = divmod(position, len(axis))
                values.append(axis[offset])
            return self._condition(pacman, *reversed(values))
        raise IndexError(index)

    def __iter__(self) -> Iterator[Condition]:
        # itertools.product would hold the layouts (a million generated mazes) in a tuple: they are walked instead.
        for pacman in self.grid["pacman"]:
            rest = list(itertools.product(self.grid.get("num_ghosts", [None]), *self.option_axes(pacman)))
            for ghosts in self.grid["ghosts"]:
                for layout in self.layouts:
                    for values in rest:
                        yield self._condition(pacman, ghosts, layout, *values)

    def samples(self) -> Iterator[Condition]:
        """One condition for each agent combination and ``layout`` value (a
        generated spec's first maze stands for all of its mazes)."""
        entries = [(entry.name_at(0), entry) for entry in self.layouts.entries]
        for pacman in self.grid["pacman"]:
            for values in itertools.product(self.grid["ghosts"], entries, self.grid.get("num_ghosts", [None]),
                                            *self.option_axes(pacman)):
                yield self._condition(pacman, *values)

    def mazes(self) -> Iterator[Condition]:
        """One condition for each layout (each generated maze) and ghost count."""
        pacman = self.grid["pacman"][0]
        for layout in self.layouts:
            for num_ghosts in self.grid.get("num_ghosts", [None]):
                yield self._condition(pacman, self.grid["ghosts"][0], layout, num_ghosts,
                                      *(axis[0] for axis in self.option_axes(pacman)))

    def _condition(self, pacman: str, ghosts: str, named_layout: tuple[str, _GridLayout], num_ghosts: int | None,
                   *option_values: Any) -> Condition:
        layout_name, layout = named_layout
        varied, own_options = self.options_of(pacman, option_values)
        pacman_spec, options = self.true_model(pacman, {**own_options, **varied}, ghosts,
                                               Checker("<grid>"))  # checked by expand: it cannot fail here
        agents = self.agents[(pacman_spec.text, sort_key(options), ghosts)]
        files = {**layout.files, **agents.files}
        label = _label(self.specs[pacman], self.specs[ghosts], layout_name, num_ghosts, varied)
        if num_ghosts is None:
            num_ghosts = layout.num_ghosts
        # Games of edited plugin code or data are another condition: reports must not pool them.
        if agents.code:
            label += f"/code={_code_tag(agents.code)}"
        if files:
            label += f"/files={_code_tag(files)}"
        return _condition(pacman_spec, self.specs[ghosts], layout_name, layout, num_ghosts, options,
                          self.ghost_options, label, agents, files)


def _declared_options(checker: Checker, pacmen: list[Any], specs: dict[str, AgentSpec], option_keys: list[str],
                      pacman_options: dict, sandbox: Limits | None = None) -> dict[Any, set[str]]:
    """Each Pacman spec's options (:func:`~pacsim.agents.registry.option_names`;
    a sandboxed plugin's as its sandbox tells them); an option of the grid or
    of [pacman_options] that none of them declares is an error naming the key
    and the nearest option they have."""
    declared = {pacman: _option_names(checker, specs[pacman], sandbox) for pacman in pacmen}
    known = set().union(*declared.values())
    for key, where in [*((key, f"grid.{key}") for key in option_keys),
                       *((key, f"pacman_options.{key}") for key in pacman_options)]:
        if key not in known:
            checker.fail(where, f"no Pacman of the grid takes option {key!r} "
                                f"(their options: {', '.join(sorted(known - set(RENAMED_OPTIONS))) or 'none'})"
                                f"{did_you_mean(key, [*known, *AGENT_KEYS])}")
    return declared


def _option_names(checker: Checker, pacman: AgentSpec, sandbox: Limits | None) -> set[str]:
    if sandbox is None or not sandboxed_here(pacman, sandbox):
        return option_names(resolve(PACMAN, pacman))
    try:
        return set(check_in_sandbox(PACMAN, pacman, {}, sandbox).options)
    except AgentError as error:
        checker.fail("grid.pacman", str(error))


TRUE_MODEL = "true"
"""``model = "true"``: an expectimax Pacman models the ghosts by the
condition's own ghost spec (the Pacman that knows its opponent)."""


def _true_model(pacman: AgentSpec, options: dict, ghosts: AgentSpec, ghost_options: dict,
                checker: Checker) -> tuple[str, dict]:
    """The Pacman spec's text and options with ``model=true`` (in either) replaced
    by the condition's ghost spec."""
    in_spec = pacman.options.get("model") == TRUE_MODEL
    if not in_spec and options.get("model") != TRUE_MODEL:
        return pacman.text, options
    ghost = join_spec(ghosts, ghost_options)
    if "," in ghost:  # Pacman options are split on commas: a ghost spec with several options cannot be one
        checker.fail("model", f"model={TRUE_MODEL} takes a ghost with at most one option, not {ghost!r}")
    if in_spec:
        return pacman.text.replace(f"model={TRUE_MODEL}", f"model={ghost}"), options
    return pacman.text, {**options, "model": ghost}


def _build_agents(checker: Checker, pacman: AgentSpec, options: dict, varied: dict, ghosts: AgentSpec,
                  ghost_options: dict, sandbox: Limits | None = None, startup: float | None = None) -> CheckedAgent:
    """A combination's agents built once through the factory its games use
    (:func:`~pacsim.runner.agent_factory.check_agent`): what a condition
    needs of them, each failure named by the grid key that caused it."""
    try:
        checked = check_agent(PACMAN, pacman, options, sandbox, startup)
    except AgentError as error:
        _fail_pacman(checker, pacman, options, varied, error, sandboxed_here(pacman, sandbox))
    except StartupOverrun:
        checker.fail("grid.pacman", f"{join_spec(pacman, options)}: {overran_startup(startup)}")
    try:
        ghost = check_agent(GHOST, ghosts, ghost_options, sandbox, startup)
    except AgentError as error:
        _fail_ghost(checker, ghosts, ghost_options, error, sandboxed_here(ghosts, sandbox))
    except StartupOverrun:
        checker.fail("grid.ghosts", f"{ghosts.text}: {overran_startup(startup)}")
    return CheckedAgent(code={**checked.code, **ghost.code}, files={**checked.files, **ghost.files},
                        depth=checked.depth)


def _fail_pacman(checker: Checker, spec: AgentSpec, options: dict, varied: dict, error: AgentError,
                 in_sandbox: bool) -> NoReturn:
    """Fail naming the key that caused ``error``: the option, else the Pacman (a sandbox's error names it already)."""
    if in_sandbox:
        checker.fail("grid.pacman", str(error))
    if error.option in options:
        checker.fail(f"grid.{error.option}" if error.option in varied else f"pacman_options.{error.option}",
                     str(error))
    checker.fail("grid.pacman", f"{join_spec(spec, options)}: {error}")


def _fail_ghost(checker: Checker, spec: AgentSpec, options: dict, error: AgentError, in_sandbox: bool) -> NoReturn:
    if in_sandbox:
        checker.fail("grid.ghosts", str(error))
    if error.option in options:
        checker.fail(f"ghost_options.{error.option}", str(error))
    checker.fail("grid.ghosts", f"{spec.text}: {error}")


def _condition(pacman: AgentSpec, ghosts: AgentSpec, layout_name, layout: _GridLayout, num_ghosts, options,
               ghost_options, label, agents: CheckedAgent, files: dict[str, str]) -> Condition:
    identity = {"pacman": pacman.text, "pacman_options": options, "ghosts": ghosts.text,
                "ghost_options": ghost_options, "layout": layout_name, "num_ghosts": num_ghosts}
    # Only plugins and user files add these, so keys of other conditions (and their stored games) stay as they were.
    if agents.code:
        identity["code"] = agents.code
    if files:
        identity["files"] = files
    key = json.dumps(identity, sort_keys=True, separators=(",", ":"))
    return Condition(key=key, label=label, pacman=pacman.text, ghosts=ghosts.text, layout=layout_name,
                     file_text=layout.file_text, num_ghosts=num_ghosts, pacman_options=dict(options),
                     ghost_options=dict(ghost_options), parsed_pacman=pacman, parsed_ghosts=ghosts,
                     depth=agents.depth)


def count_conditions(checker: Checker, grid: dict[str, list[Scalar]]) -> int:
    """The grid's size, each generated spec counted as its number of mazes."""
    count = 1
    for key, values in grid.items():
        count *= sum(_maze_count(checker, str(value)) for value in values) if key == "layout" else len(values)
    return count


def _maze_count(checker: Checker, name: str) -> int:
    if not is_generated(name):
        return 1
    try:
        return maze_count(name)
    except PacsimError as error:
        checker.fail("grid.layout", str(error))


def load_layouts(checker: Checker, values: list[Scalar]) -> GridLayouts:
    """The grid's ``layout`` values, each read once, no generated maze twice."""
    layouts = GridLayouts([_load_layout(checker, str(value)) for value in values])
    _check_overlaps(checker, layouts)
    return layouts


def _load_layout(checker: Checker, name: str) -> _GridLayout:
    """What the grid needs of a layout value, the name resolved as ``play``
    resolves it (:func:`~pacsim.engine.find_layout`): a file is read; of a
    generated spec's mazes only the first is built (a spec no maze can
    satisfy fails here, naming the key; the others when their games are planned)."""
    try:
        if is_generated(name):
            prefix, seeds = maze_names(name)
            spec = parse_maze_specs(prefix + str(seeds[0]))[0]
            generate_layout(spec)
            return _GridLayout(name=prefix, num_ghosts=spec.ghosts, file_text="", files={}, seeds=seeds)
        found = find_layout(name)
    except PacsimError as error:
        checker.fail("grid.layout", str(error))
    layout = found.layout
    return _GridLayout(name=name, num_ghosts=layout.num_ghosts, file_text=layout.text,
                       files=_layout_file(name, layout), note=found.note)


def _check_overlaps(checker: Checker, layouts: GridLayouts) -> None:
    """No generated maze twice: seed ranges of the same spec do not overlap."""
    ranges = sorted((entry.name, entry.seeds.start, entry.seeds.stop) for entry in layouts.entries if entry.seeds)
    for (name, _, stop), (next_name, next_start, _) in itertools.pairwise(ranges):
        if name == next_name and next_start < stop:
            checker.fail("grid.layout", "a generated maze appears twice (overlapping seed ranges?)")


def _layout_file(name: str, layout: Layout) -> dict[str, str]:
    """``{"layout NAME": content hash}`` for a layout read from the user's
    file; empty for a shipped one (pacsim's version identifies it)."""
    if Path(layout.source).resolve().parent == layouts_directory().resolve():
        return {}
    return {f"layout {name}": "sha256:" + hashlib.sha256(layout.text.encode("utf-8")).hexdigest()[:16]}


def _parsed_agents(checker: Checker, grid: dict[str, list[Any]], sandbox: Limits | None = None
                   ) -> dict[str, AgentSpec]:
    """Every agent spec of the grid parsed, once, and checked to name an
    agent (importing its plugin code if it has some; a sandboxed run's
    plugins are checked in their sandboxes instead)."""
    specs: dict[str, AgentSpec] = {}
    for key, role in (("pacman", PACMAN), ("ghosts", GHOST)):
        for text in grid[key]:
            try:
                spec = specs[text] = specs.get(text) or parse_spec(str(text))
                if not sandboxed_here(spec, sandbox):
                    resolve(role, spec)
            except AgentError as error:
                checker.fail(f"grid.{key}", str(error))
    return specs


def _label(pacman: AgentSpec, ghosts: AgentSpec, layout: str, num_ghosts: int | None, varied: dict) -> str:
    """Readable and shell-friendly: the agent names, the layout, then each grid option."""
    parts = [_agent_label(pacman), _agent_label(ghosts), layout]
    if num_ghosts is not None:
        parts.append(f"k{num_ghosts}")
    parts += [f"{key}={value}" for key, value in varied.items()]
    return "/".join(parts)


def _agent_label(spec: AgentSpec) -> str:
    """A spec as a label names it: a plugin file by its stem (``cautious:Cautious``),
    not by the absolute path the experiment's folder made of it."""
    if spec.file is None:
        return spec.text
    return spec.file.stem + spec.text[spec.text.index(spec.target) + len(spec.target):]


def _code_tag(code: dict[str, str]) -> str:
    """The condition label's name for one version of its plugin code: each
    plugin's :func:`code_id`, joined by ``+``, the ids ``run`` prints."""
    return "+".join(code_id(identity) for _, identity in sorted(code.items()))


def code_id(identity: str) -> str:
    """Eight hex digits naming one version of a plugin: the start of its file's
    sha256 (what ``plugin code:`` shows in full), or of its identity's hash
    when it has no file."""
    digest = identity.partition("sha256:")[2]
    return digest[:8] if len(digest) >= 8 else hashlib.sha256(identity.encode("utf-8")).hexdigest()[:8]
