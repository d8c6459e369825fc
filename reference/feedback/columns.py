"""A column of one entry per node, in preorder, read by node name as a mapping.

Judging keeps what it knows of a tree's nodes in columns (lists in preorder) rather than in
dictionaries by name: on a large tree, each insertion into or lookup in a dictionary by
name touches memory far apart, and costs more than the work it serves. Sentences and rare
checks that ask by name read the column through :class:`ByName`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from itertools import compress, repeat
from operator import is_not
from typing import Generic, TypeVar, overload

V = TypeVar("V")
D = TypeVar("D")


class ByName(Mapping[str, V], Generic[V]):
    """``column`` (one entry per node of ``names``, in preorder) by node name; a None entry
    is no entry."""

    __slots__ = ("_column", "_index", "_names")

    def __init__(self, names: list[str], index: dict[str, int], column: list[V | None]) -> None:
        self._names = names
        self._index = index
        self._column = column

    def __getitem__(self, name: str) -> V:
        at = self._index.get(name)
        found = None if at is None else self._column[at]
        if found is None:
            raise KeyError(name)
        return found

    @overload
    def get(self, name: str, /) -> V | None: ...

    @overload
    def get(self, name: str, default: D, /) -> V | D: ...

    def get(self, name: str, default: object = None) -> object:
        at = self._index.get(name)
        found = None if at is None else self._column[at]
        return default if found is None else found

    def __contains__(self, name: object) -> bool:
        at = self._index.get(name)  # type: ignore[call-overload]
        return at is not None and self._column[at] is not None

    def __iter__(self) -> Iterator[str]:
        return compress(self._names, map(is_not, self._column, repeat(None)))

    def __len__(self) -> int:
        return len(self._column) - self._column.count(None)
