"""Run the course's own ``capture.py`` (a copy kept outside the repository) as its command line would.

Usage: python -m pacsim.bench.course_capture COURSE_FOLDER capture.py-arguments...

``pacsim bench --capture-course DIR`` times the course's engine through it,
and the tests record and trace the course's games with it.

Two things newer Pythons need that the course's Python 3 port lacks, supplied
here without touching its files: ``importlib.util`` imported (Python 3.11 no
longer imports it with ``importlib``), and ``frozendict`` (its ``game.py``
imports it; a plain dict stands in when the package is not installed).
Also a trace mode: ``... COURSE_FOLDER --trace REPLAY`` prints,
as JSON lines, the course engine's state after every move of a recorded game.
"""

import importlib.util  # noqa: F401  # the course's loadAgents needs it loaded
import json
import pickle
import runpy
import sys
import types


def _frozendict_if_missing() -> None:
    try:
        import frozendict  # noqa: F401
    except ImportError:
        shim = types.ModuleType("frozendict")
        shim.frozendict = dict  # type: ignore[attr-defined]
        sys.modules["frozendict"] = shim


def _state_row(state) -> dict:
    data = state.data
    return {
        "score": data.score,
        "food": sorted(data.food.asList()),
        "capsules": sorted(data.capsules),
        "positions": [list(map(int, agent.getPosition())) for agent in data.agentStates],
        "pacman": [bool(agent.isPacman) for agent in data.agentStates],
        "carrying": [agent.numCarrying for agent in data.agentStates],
        "returned": [agent.numReturned for agent in data.agentStates],
        "scared": [agent.scaredTimer for agent in data.agentStates],
        "over": bool(data._win) or data.timeleft <= 0,
    }


def trace(replay_path: str) -> None:
    import capture
    with open(replay_path, "rb") as file:
        recorded = pickle.load(file, encoding="utf-8")
    state = capture.GameState()
    state.initialize(recorded["layout"], len(recorded["agents"]))
    state.data.timeleft = recorded["length"]
    print(json.dumps(_state_row(state)))
    for agent, action in recorded["actions"]:
        state = state.generateSuccessor(agent, action)
        print(json.dumps(_state_row(state)))


def main() -> None:
    folder, arguments = sys.argv[1], sys.argv[2:]
    _frozendict_if_missing()
    sys.path.insert(0, folder)
    if arguments[:1] == ["--trace"]:
        trace(arguments[1])
        return
    sys.argv = [f"{folder}/capture.py", *arguments]
    runpy.run_path(f"{folder}/capture.py", run_name="__main__")


if __name__ == "__main__":
    main()
