"""Whether the games in a store still match the code and files an experiment
runs: a plugin or data file whose content changed makes another condition,
and ``pacsim run`` says so before playing."""

from __future__ import annotations

import json
from collections.abc import Callable

from pacsim.runner.experiment import Experiment
from pacsim.runner.plan import code_id


def plugin_notes(experiment: Experiment, stored: Callable[[], set[tuple[str, int]]]) -> list[str]:
    """What ``pacsim run`` says about plugin code and data files: each module
    it imported, and each file whose content differs from the one the games
    in the store (``stored()``: their condition keys and game indexes, asked
    only of a grid with such files) read (those games are played again: the
    content is part of the condition)."""
    used = {label: identity for condition in experiment.conditions.samples() for label, identity in condition.code.items()}
    notes = [f"plugin code: {label} code={code_id(identity)} ({identity})" for label, identity in used.items()]
    for change, games in identity_changes(experiment, stored).items():
        notes.append(f"{change}: {games} games to play")
    return notes


def identity_changes(experiment: Experiment, stored_games: Callable[[], set[tuple[str, int]]]) -> dict[str, int]:
    """What changed -> games to play, for each plugin or data file whose
    content differs from the one stored games of the same condition (same
    config, same condition but for the files) ran with.

    Stored games from before data files were recorded (no ``files`` in their
    key) are another condition too: their content is unknown, so they are
    said to predate the check rather than silently kept or silently replaced."""
    if not any(condition.code or condition.files for condition in experiment.conditions.samples()):
        return {}  # nothing to compare (a grid of a million shipped or generated mazes is not walked)
    stored = stored_games()
    stored_versions: dict[str, list[dict[str, dict[str, str]]]] = {}
    for key in {key for key, _ in stored}:
        base, versions = _split_identity(key)
        stored_versions.setdefault(base, []).append(versions)
    changes: dict[str, int] = {}
    for condition in experiment.conditions:
        base, versions = _split_identity(condition.key)
        to_play = sum((condition.key, index) not in stored for index in range(experiment.games))
        if not to_play:
            continue
        for change in _changes(versions, stored_versions.get(base, [])):
            changes[change] = changes.get(change, 0) + to_play
    return changes


def _split_identity(key: str) -> tuple[str, dict[str, dict[str, str]]]:
    """A condition key without its file identities, and those identities by kind."""
    identity = json.loads(key)
    versions = {"code": identity.pop("code", {}), "files": identity.pop("files", {})}
    return json.dumps(identity, sort_keys=True), versions


def _changes(versions: dict[str, dict[str, str]], earlier: list[dict[str, dict[str, str]]]) -> list[str]:
    changes = []
    for old in earlier:
        for label, digest in versions["code"].items():
            if old["code"].get(label, digest) != digest:
                changes.append(f"code of {label} changed")
        for label, digest in versions["files"].items():
            if not old["files"]:
                changes.append(f"{label}: the stored games do not record its content (stored before pacsim checked it)")
            elif old["files"].get(label, digest) != digest:
                changes.append(f"{label} changed")
    return sorted(set(changes))
