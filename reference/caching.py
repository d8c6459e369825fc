"""Values kept for objects met again: one bounded cache keyed by the objects themselves.

Objects such as a :class:`~reference.tree.Tree` or an exercise model are never changed once
made, so what is derived from them may be kept; but they are not hashed by value (a tree of
thousands of nodes) and an ``id`` alone names another object once the first one is gone.
:class:`IdentityCache` keys by ``id`` and keeps the key objects alive beside the value, so
an ``id`` it holds is never reused while its value is kept.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class IdentityCache(Generic[V]):
    """Values by the identity of one or more objects, the least recently used going first
    once the values' total weight passes ``limit`` (a weight of 1 each unless ``weight``
    says otherwise: then ``limit`` is, say, nodes rather than values). Safe to share between
    threads; a value may be made twice when two threads ask for it at once, and the first
    one kept wins."""

    def __init__(self, limit: int, weight: Callable[[V], int] | None = None) -> None:
        self.limit = limit
        self._weight = weight
        self._kept: OrderedDict[tuple[int, ...], tuple[tuple[object, ...], V, int]] = OrderedDict()
        self._total = 0
        self._lock = threading.Lock()

    def get(self, make: Callable[[], V], *objects: object) -> V:
        """The value kept for ``objects``, or ``make()`` kept for them."""
        key = tuple(map(id, objects))
        with self._lock:
            hit = self._kept.get(key)
            if hit is not None:
                self._kept.move_to_end(key)
                return hit[1]
        value = make()
        weight = 1 if self._weight is None else self._weight(value)
        with self._lock:
            hit = self._kept.get(key)
            if hit is not None:
                return hit[1]
            self._kept[key] = (objects, value, weight)
            self._total += weight
            while self._total > self.limit and self._kept:
                _, (_, _, dropped) = self._kept.popitem(last=False)
                self._total -= dropped
        return value

    def __contains__(self, objects: tuple[object, ...]) -> bool:
        """True when a value is kept for ``objects`` (a tuple, as :meth:`get` takes them)."""
        with self._lock:
            return tuple(map(id, objects)) in self._kept

    def __len__(self) -> int:
        return len(self._kept)

    def clear(self) -> None:
        """Forget every value."""
        with self._lock:
            self._kept.clear()
            self._total = 0


K = TypeVar("K", bound=Hashable)


class KeyedCache(Generic[K, V]):
    """Values by a key that names their content (a content hash, say), the least recently
    used going first past ``limit`` values. Safe to share between threads; a value may be
    made twice when two threads ask for it at once, and the first one kept wins."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._kept: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K, make: Callable[[], V]) -> V:
        """The value kept for ``key``, or ``make()`` kept for it."""
        with self._lock:
            if key in self._kept:
                self._kept.move_to_end(key)
                return self._kept[key]
        value = make()
        with self._lock:
            value = self._kept.setdefault(key, value)
            self._kept.move_to_end(key)
            while len(self._kept) > self.limit:
                self._kept.popitem(last=False)
        return value

    def clear(self) -> None:
        """Forget every value."""
        with self._lock:
            self._kept.clear()
