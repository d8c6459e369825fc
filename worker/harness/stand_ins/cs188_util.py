"""CS188's ``util`` as a multi-agent search file uses it.

The course's ``util`` holds the project's data structures and helpers. A student's
``multiAgents.py`` imports it for ``manhattanDistance`` (the reflex agent), ``lookup``
(``MultiAgentSearchAgent`` finds its evaluation function by name with it) and
``raiseNotDefined`` (the unfinished methods of the handout); the rest is here for searches
that use the course's queues or counters.
"""

from __future__ import annotations

import heapq
import random
import sys
from collections.abc import Callable, Mapping
from typing import Any


def manhattanDistance(xy1: tuple[float, float], xy2: tuple[float, float]) -> float:
    """The Manhattan distance between two points."""
    return abs(xy1[0] - xy2[0]) + abs(xy1[1] - xy2[1])


def raiseNotDefined() -> None:
    """Stop: the method that calls this is not written yet."""
    caller = sys._getframe(1).f_code
    raise NotImplementedError(f"method not implemented: {caller.co_name}")


def lookup(name: str, namespace: Mapping[str, Any]) -> Any:
    """The object called ``name`` in ``namespace`` (a module's globals): how
    ``MultiAgentSearchAgent`` finds its evaluation function from ``evalFn``."""
    if name in namespace:
        return namespace[name]
    found = [
        getattr(module, name)
        for module in namespace.values()
        if type(module) is type(sys) and hasattr(module, name)
    ]
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        raise Exception(f"Name conflict for {name}")
    raise Exception(f"{name} not found as a method or class")


def flipCoin(p: float) -> bool:
    """True with probability ``p``."""
    return random.random() < p


def sign(x: float) -> int:
    """1 for x >= 0, else -1."""
    return 1 if x >= 0 else -1


class Stack:
    """Last in, first out."""

    def __init__(self) -> None:
        self.list: list[Any] = []

    def push(self, item: Any) -> None:
        self.list.append(item)

    def pop(self) -> Any:
        return self.list.pop()

    def isEmpty(self) -> bool:
        return not self.list


class Queue:
    """First in, first out."""

    def __init__(self) -> None:
        self.list: list[Any] = []

    def push(self, item: Any) -> None:
        self.list.insert(0, item)

    def pop(self) -> Any:
        return self.list.pop()

    def isEmpty(self) -> bool:
        return not self.list


class PriorityQueue:
    """The item of lowest priority first (ties: first pushed first)."""

    def __init__(self) -> None:
        self.heap: list[tuple[float, int, Any]] = []
        self.count = 0

    def push(self, item: Any, priority: float) -> None:
        heapq.heappush(self.heap, (priority, self.count, item))
        self.count += 1

    def pop(self) -> Any:
        return heapq.heappop(self.heap)[-1]

    def isEmpty(self) -> bool:
        return not self.heap

    def update(self, item: Any, priority: float) -> None:
        for index, (known, count, present) in enumerate(self.heap):
            if present == item:
                if known <= priority:
                    return
                del self.heap[index]
                self.heap.append((priority, count, item))
                heapq.heapify(self.heap)
                return
        self.push(item, priority)


class PriorityQueueWithFunction(PriorityQueue):
    """A priority queue whose items' priorities are ``function(item)``."""

    def __init__(self, function: Callable[[Any], float]) -> None:
        self.function = function
        super().__init__()

    def push(self, item: Any, priority: float | None = None) -> None:
        super().push(item, self.function(item))


class Counter(dict[Any, float]):
    """A dictionary whose missing keys count 0."""

    def __getitem__(self, key: Any) -> float:
        self.setdefault(key, 0)
        return dict.__getitem__(self, key)

    def incrementAll(self, keys: Any, count: float) -> None:
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
        if total:
            for key in list(self):
                self[key] = self[key] / total

    def copy(self) -> Counter:
        return Counter(dict.copy(self))
