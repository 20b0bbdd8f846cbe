"""What a sandboxed child may answer: each line's nesting bounded before it is parsed, then held to a schema.

The child is pacsim's code, but the entrant runs in the same process and can
write to its reply pipe: every line is untrusted.  A line nested deeper than
:data:`MAX_NESTING` is refused before :func:`json.loads` can recurse; a reply
of the wrong shape, or with a number a game row cannot hold (SQLite keeps
64-bit integers; floats must be finite), is refused after.  Each refusal is
an :class:`~pacsim.engine.game.AgentFault` of kind :data:`PROTOCOL`, charged
to the entrant whose child sent it.
"""

from __future__ import annotations

import json
import math
from dataclasses import fields
from typing import Any

from pacsim.engine.game import AgentFault
from pacsim.engine.stats import BACKENDS, MoveStats

PROTOCOL = "protocol"
"""The fault of a child that sent what pacsim's child never sends."""
MAX_NESTING = 3
"""The deepest nesting of a true answer: the start reply's list of lists."""
INT64 = (-(1 << 63), (1 << 63) - 1)
"""The integers a game row can store."""
REPLIES: dict[str, dict[str, tuple[type, ...]]] = {
    "start": {"ready": (bool,), "depth": (int, type(None)), "options": (list,), "used": (list,)},
    "move": {"action": (str, type(None)), "type": (str,), "stats": (dict,)},
    "final": {"done": (bool,)},
    "error": {"error": (str,), "memory": (bool,)},
}
"""Each answer's keys and their types (a move's ``stats`` may be left out)."""
OPTIONAL = {"stats"}
QUOTE, BACKSLASH = ord('"'), ord("\\")
COUNTS = {item.name for item in fields(MoveStats)} - {"seconds", "value", "backend"}


def refuse(why: str) -> AgentFault:
    return AgentFault(PROTOCOL, f"broke the sandbox's protocol: {why}")


def nesting(line: bytes) -> int:
    """How deeply the JSON text ``line`` nests its arrays and objects (brackets inside strings not counted)."""
    if line.count(b"[") + line.count(b"{") <= MAX_NESTING:
        return line.count(b"[") + line.count(b"{")  # the usual move reply: no need to scan it
    depth = deepest = 0
    in_string = escaped = False
    for byte in line:
        if escaped:
            escaped = False
        elif in_string:
            escaped, in_string = byte == BACKSLASH, byte != QUOTE
        elif byte == QUOTE:
            in_string = True
        elif byte in b"[{":
            depth += 1
            deepest = max(deepest, depth)
        elif byte in b"]}":
            depth -= 1
    return deepest


def parse_reply(line: bytes, doing: str) -> dict[str, Any]:
    """The answer in ``line`` to a ``doing`` request (``start``, ``move`` or ``final``), checked whole."""
    if nesting(line) > MAX_NESTING:
        raise refuse(f"a reply nested over {MAX_NESTING} deep")
    try:
        reply = json.loads(line, parse_constant=_no_constant)
    except (ValueError, RecursionError) as error:
        raise refuse(f"not JSON ({str(error)[:80]})") from None
    if not isinstance(reply, dict):
        raise refuse(f"a reply that is a {type(reply).__name__}, not an object")
    kind = "error" if "error" in reply else doing
    _check_shape(reply, kind)
    _check_contents(reply, kind)
    return reply


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is no JSON number")


def _check_shape(reply: dict[str, Any], kind: str) -> None:
    schema = REPLIES[kind]
    if set(reply) - set(schema) or set(schema) - OPTIONAL - set(reply):
        raise refuse(f"a {kind} reply with keys {sorted(reply)[:8]}, not {sorted(schema)}")
    for key, value in reply.items():
        if type(value) not in schema[key]:
            raise refuse(f"{kind} reply's {key} is a {type(value).__name__}")


def _check_contents(reply: dict[str, Any], kind: str) -> None:
    if kind == "start":
        if reply["depth"] is not None:
            _check_integer("depth", reply["depth"])
        if not all(type(name) is str for name in reply["options"]):
            raise refuse("an option name that is no string")
        if not all(type(item) is list and len(item) == 4 and all(type(part) is str for part in item) for item in reply["used"]):
            raise refuse("a used file that is not four strings")
    if kind == "move" and "stats" in reply:
        check_stats(reply["stats"])


def _check_integer(name: str, value: Any, low: int = INT64[0]) -> None:
    if not (type(value) is int and low <= value <= INT64[1]):
        raise refuse(f"{name}={str(value)[:40]} is no integer from {low} to {INT64[1]}")


def _check_real(name: str, value: Any) -> None:
    if not ((type(value) is float and math.isfinite(value)) or (type(value) is int and INT64[0] <= value <= INT64[1])):
        raise refuse(f"{name}={str(value)[:40]} is no finite number")


def check_stats(stats: dict[str, Any]) -> None:
    """Every field of a move's statistics as :class:`MoveStats` takes it and a row can store it."""
    for name, value in stats.items():
        if name in COUNTS:
            _check_integer(name, value, low=0)
        elif name == "seconds" or (name == "value" and value is not None):
            _check_real(name, value)
        elif name == "backend" and value not in BACKENDS:
            raise refuse(f"backend={str(value)[:40]}")
        elif name not in ("value", "backend"):
            raise refuse(f"an unknown statistic {name[:40]!r}")
    if stats.get("seconds", 0) < 0:
        raise refuse("negative seconds")
