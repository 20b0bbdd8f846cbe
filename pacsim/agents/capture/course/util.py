"""The course's ``util`` as capture team files use it, written by pacsim."""

from __future__ import annotations

import heapq
import random
import sys
from collections.abc import Callable, Iterable
from typing import Any

from pacsim.agents.capture.course.snake import add_snake_aliases


def manhattanDistance(xy1: tuple[float, float], xy2: tuple[float, float]) -> float:
    return abs(xy1[0] - xy2[0]) + abs(xy1[1] - xy2[1])


def nearestPoint(pos: tuple[float, float]) -> tuple[int, int]:
    """The grid point nearest to ``pos`` (rounding halves up, as the course does)."""
    return int(pos[0] + 0.5), int(pos[1] + 0.5)


def raiseNotDefined() -> None:
    caller = sys._getframe(1).f_code
    print(f"*** Method not implemented: {caller.co_name} at line {caller.co_firstlineno} of {caller.co_filename}")
    sys.exit(1)


def sign(x: float) -> int:
    return 1 if x >= 0 else -1


def flipCoin(p: float) -> bool:
    return random.random() < p


def normalize(vectorOrCounter: Any) -> Any:
    if isinstance(vectorOrCounter, Counter):
        counter = Counter()
        total = float(vectorOrCounter.totalCount())
        if total == 0:
            return counter
        for key, value in vectorOrCounter.items():
            counter[key] = value / total
        return counter
    total = float(sum(vectorOrCounter))
    return vectorOrCounter if total == 0 else [value / total for value in vectorOrCounter]


def sample(distribution: Any, values: list[Any] | None = None) -> Any:
    if isinstance(distribution, Counter):
        items = sorted(distribution.items())
        distribution, values = [item[1] for item in items], [item[0] for item in items]
    if sum(distribution) != 1:
        distribution = normalize(distribution)
    choice, index, total = random.random(), 0, distribution[0]
    while choice > total:
        index += 1
        total += distribution[index]
    return values[index] if values is not None else index


def sampleFromCounter(counter: Counter) -> Any:
    items = sorted(counter.items())
    return sample([value for _, value in items], [key for key, _ in items])


def chooseFromDistribution(distribution: Any) -> Any:
    if isinstance(distribution, dict):
        return sample(distribution)
    choice, base = random.random(), 0.0
    for probability, element in distribution:
        base += probability
        if choice <= base:
            return element
    return None


def getProbability(value: Any, distribution: Any, values: list[Any]) -> float:
    return sum(probability for probability, item in zip(distribution, values) if item == value)


def lookup(name: str, namespace: dict[str, Any]) -> Any:
    """An object called ``name`` in ``namespace`` (or ``module.name``)."""
    if "." in name:
        module_name, attribute = name.rsplit(".", 1)
        return getattr(__import__(module_name), attribute)
    if name in namespace:
        return namespace[name]
    raise Exception(f"{name} not found")


def pause() -> None:
    input("<Press enter/return to continue>")


def arrayInvert(array: list[list[Any]]) -> list[list[Any]]:
    return [list(column) for column in zip(*array)]


def matrixAsList(matrix: list[list[Any]], value: Any = True) -> list[tuple[int, int]]:
    return [(x, y) for x, column in enumerate(matrix) for y, item in enumerate(column) if item == value]


class Stack:
    def __init__(self) -> None:
        self.list: list[Any] = []

    def push(self, item: Any) -> None:
        self.list.append(item)

    def pop(self) -> Any:
        return self.list.pop()

    def isEmpty(self) -> bool:
        return not self.list


class Queue(Stack):
    def push(self, item: Any) -> None:
        self.list.insert(0, item)


class PriorityQueue:
    """A min-priority queue of items; ``update`` lowers an item's priority."""

    def __init__(self) -> None:
        self.heap: list[tuple[float, int, Any]] = []
        self.count = 0

    def push(self, item: Any, priority: float) -> None:
        heapq.heappush(self.heap, (priority, self.count, item))
        self.count += 1

    def pop(self) -> Any:
        return heapq.heappop(self.heap)[2]

    def isEmpty(self) -> bool:
        return not self.heap

    def update(self, item: Any, priority: float) -> None:
        for index, (old, count, entry) in enumerate(self.heap):
            if entry == item:
                if old <= priority:
                    return
                del self.heap[index]
                self.heap.append((priority, count, item))
                heapq.heapify(self.heap)
                return
        self.push(item, priority)


class PriorityQueueWithFunction(PriorityQueue):
    def __init__(self, priorityFunction: Callable[[Any], float]) -> None:
        self.priorityFunction = priorityFunction
        super().__init__()

    def push(self, item: Any, priority: float | None = None) -> None:
        super().push(item, self.priorityFunction(item))


class Counter(dict):
    """A dict whose missing keys count 0, with the course's arithmetic (``*`` is the dot product)."""

    def __getitem__(self, key: Any) -> Any:
        self.setdefault(key, 0)
        return dict.__getitem__(self, key)

    def incrementAll(self, keys: Iterable[Any], count: float) -> None:
        for key in keys:
            self[key] += count

    def argMax(self) -> Any:
        if not self:
            return None
        return max(self.items(), key=lambda item: item[1])[0]

    def sortedKeys(self) -> list[Any]:
        return [key for key, _ in sorted(self.items(), key=lambda item: -item[1])]

    def totalCount(self) -> float:
        return sum(self.values())

    def normalize(self) -> None:
        total = float(self.totalCount())
        if total == 0:
            return
        for key in list(self):
            self[key] = self[key] / total

    def divideAll(self, divisor: float) -> None:
        for key in list(self):
            self[key] = self[key] / float(divisor)

    def copy(self) -> Counter:
        return Counter(dict.copy(self))

    def __mul__(self, other: Counter) -> float:
        small, large = (self, other) if len(self) <= len(other) else (other, self)
        return sum(value * large[key] for key, value in small.items() if key in large)

    def __radd__(self, other: Counter) -> Counter:
        return self + other

    def __add__(self, other: Counter) -> Counter:
        added = Counter()
        for key in set(self) | set(other):
            added[key] = self.get(key, 0) + other.get(key, 0)
        return added

    def __sub__(self, other: Counter) -> Counter:
        difference = Counter()
        for key in set(self) | set(other):
            difference[key] = self.get(key, 0) - other.get(key, 0)
        return difference


class TimeoutFunctionException(Exception):
    """A function ran out of time (the course's name; pacsim's loop measures time itself)."""


class TimeoutFunction:
    """Calls ``function`` (pacsim enforces time limits in its game loop, not here)."""

    def __init__(self, function: Callable[..., Any], timeout: float) -> None:
        self.function, self.timeout = function, timeout

    def __call__(self, *args: Any, **keyArgs: Any) -> Any:
        return self.function(*args, **keyArgs)

# UPF's snake_case names (nearest_point, arg_max, get_distance, ...): aliases of these.
add_snake_aliases(globals())
add_snake_aliases(Stack)
add_snake_aliases(Queue)
add_snake_aliases(PriorityQueue)
add_snake_aliases(PriorityQueueWithFunction)
add_snake_aliases(Counter)
