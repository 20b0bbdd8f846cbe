"""The child side of the sandbox: the agents of one entrant (one, or a team), answering the game over a pipe.

Run by :mod:`pacsim.sandbox.room` as ``python -m pacsim.sandbox.child`` in
its own process (under bubblewrap where it can be, and always under resource
limits).  The parent sends requests on standard input, each an 8-byte length
and a pickle (the parent is trusted); the child answers each with one line of
JSON on what was standard output (the parent never unpickles what an
entrant's process sends).  The entrant's own printing goes to ``/dev/null``,
so it cannot forge or flood the answers.

The requests (see the package's docstring):

* ``("start", host, seats)``: import the module ``host`` (pacsim's own code,
  named by the parent) and build one agent per seat ``(role, spec, options,
  index, rng)`` with ``host.build(role, spec, options)``, which returns the
  agent and what the start reply says of it (``depth``, ``options``,
  ``used``); each agent is reset with its index and random stream.  One seat
  for a Pacman or a ghost entrant, two for a capture team;
* ``("layout", layout)``: the game's layout, once a game;
* ``("move", index, fields)``: the agent of seat ``index`` moves in the state
  ``host.state(layout, fields)``;
* ``("final", fields)``: every agent sees the last state.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import os
import pickle
import struct
from typing import Any, BinaryIO

MEMORY_EXIT = 86
"""The exit status of a child that ran out of memory outside the agent's own code."""
HEADER = struct.Struct(">Q")
"""The length before each request."""


def read_request(requests: BinaryIO) -> Any:
    """The next request, or None when the parent has closed the pipe."""
    header = requests.read(HEADER.size)
    if len(header) < HEADER.size:
        return None
    return pickle.loads(requests.read(HEADER.unpack(header)[0]))


def answer(replies: BinaryIO, reply: dict[str, Any]) -> None:
    replies.write(json.dumps(reply).encode() + b"\n")
    replies.flush()


def private_channels() -> tuple[BinaryIO, BinaryIO]:
    """The request and reply pipes moved off descriptors 0 and 1, which
    then point at ``/dev/null`` for the entrant's code."""
    requests = os.fdopen(os.dup(0), "rb")
    replies = os.fdopen(os.dup(1), "wb")
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    return requests, replies


def start(host: Any, seats: list[tuple[Any, ...]]) -> tuple[dict[int, Any], dict[str, Any]]:
    """Each seat's agent built and reset, by its game index, and the start reply: the first seat's depth and
    option names, and the files every seat's code used."""
    agents: dict[int, Any] = {}
    reply: dict[str, Any] = {"ready": True, "depth": None, "options": [], "used": []}
    for role, spec, options, index, rng in seats:
        agent, said = host.build(role, spec, options)
        agent.reset(index, rng)
        if not agents:
            depth = said["depth"]
            reply["depth"] = depth if type(depth) is int and abs(depth) < 1 << 63 else None
            reply["options"] = said["options"]
        reply["used"] += said["used"]
        agents[index] = agent
    return agents, reply


def serve(requests: BinaryIO, replies: BinaryIO) -> None:
    """Answer requests until the parent closes the pipe or an agent fails."""
    from pacsim.engine.game import describe_failure

    host: Any = None
    agents: dict[int, Any] = {}
    layout = None
    while (request := read_request(requests)) is not None:
        kind = request[0]
        try:
            if kind == "start":
                host = importlib.import_module(request[1])
                agents, reply = start(host, request[2])
                answer(replies, reply)
            elif kind == "layout":
                layout = request[1]
            elif kind == "move":
                agent = agents[request[1]]
                action = agent.get_action(host.state(layout, request[2]))
                answer(replies, _move_reply(action, agent.last_stats))
            elif kind == "final":
                last = host.state(layout, request[1])
                for agent in agents.values():
                    agent.final(last)
                answer(replies, {"done": True})
        except BaseException as error:  # the entrant's failure is its own result: say what it was, then end
            answer(replies, {"error": describe_failure(error), "memory": isinstance(error, MemoryError)})
            return


def _move_reply(action: Any, stats: Any) -> dict[str, Any]:
    reply: dict[str, Any] = {"action": action if type(action) is str else None, "type": type(action).__name__}
    if dataclasses.is_dataclass(stats) and not isinstance(stats, type):
        reply["stats"] = dataclasses.asdict(stats)
    return reply


def main() -> None:
    requests, replies = private_channels()
    try:
        serve(requests, replies)
    except MemoryError:
        os._exit(MEMORY_EXIT)
    os._exit(0)  # no interpreter shutdown: an entrant's atexit hooks or threads cannot delay it


if __name__ == "__main__":
    main()
