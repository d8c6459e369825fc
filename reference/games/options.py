"""Game options declared as data, so that exercises and command lines can be built from them.

A game declares each option as a dataclass field made with :func:`option`: a default, an
:class:`OptionType` and a help text. The option type turns a value given in Python, in an
exercise's YAML or on a command line (always text there) into the canonical typed value,
or raises a ``ValueError`` that says what is wrong.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

T = TypeVar("T")

Cell = tuple[int, int]
"""A board cell as (row, column), both counted from 1."""


class OptionType(ABC, Generic[T]):
    """How the values of one option are checked and converted."""

    metavar: str = "VALUE"
    """How the value is shown in command-line help."""

    choices: tuple[str, ...] = ()
    """The allowed values, when they are a fixed set of words."""

    @abstractmethod
    def coerce(self, value: object) -> T:
        """The canonical value for ``value`` (text or a Python value); ValueError if invalid."""


@dataclass(frozen=True)
class Integer(OptionType[int]):
    """A whole number between ``minimum`` and ``maximum`` (inclusive)."""

    minimum: int
    maximum: int
    metavar: str = "INT"

    def coerce(self, value: object) -> int:
        number = _integer(value)
        if not self.minimum <= number <= self.maximum:
            raise ValueError(f"must be from {self.minimum} to {self.maximum}, got {number}")
        return number


@dataclass(frozen=True)
class Integers(OptionType[tuple[int, ...]]):
    """A non-empty sequence of whole numbers, each from 0 to ``maximum``; text "1,3"."""

    maximum: int
    max_length: int
    metavar: str = "N,N,..."

    def coerce(self, value: object) -> tuple[int, ...]:
        items: Sequence[object]
        if isinstance(value, str):
            items = [item.strip() for item in value.split(",")]
        elif isinstance(value, list | tuple):
            items = value
        else:
            raise ValueError(f"expected numbers such as 1,3, got {value!r}")
        numbers = tuple(_integer(item) for item in items)
        if not 1 <= len(numbers) <= self.max_length:
            raise ValueError(f"expected 1 to {self.max_length} numbers, got {len(numbers)}")
        for number in numbers:
            if not 0 <= number <= self.maximum:
                raise ValueError(f"each number must be from 0 to {self.maximum}, got {number}")
        return numbers


@dataclass(frozen=True)
class Boolean(OptionType[bool]):
    """True or false; text "true"/"false", "yes"/"no", "1"/"0"."""

    metavar: str = "BOOL"

    def coerce(self, value: object) -> bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str):
            text = value.strip().lower()
            if text in {"true", "yes", "on", "1"}:
                return True
            if text in {"false", "no", "off", "0"}:
                return False
        raise ValueError(f"expected true or false, got {value!r}")


@dataclass(frozen=True, init=False)
class Choice(OptionType[str | None]):
    """One word out of a fixed set (case-insensitive); None too when ``optional``."""

    choices: tuple[str, ...]
    optional: bool

    def __init__(self, *choices: str, optional: bool = False) -> None:
        object.__setattr__(self, "choices", choices)
        object.__setattr__(self, "optional", optional)
        object.__setattr__(self, "metavar", "[" + "|".join(choices) + "]")

    def coerce(self, value: object) -> str | None:
        if value is None and self.optional:
            return None
        if isinstance(value, str):
            for choice in self.choices:
                if value.strip().lower() == choice.lower():
                    return choice
        raise ValueError(f"expected one of {', '.join(self.choices)}, got {value!r}")


_CELL = re.compile(r"\(?\s*(\d+)\s*,\s*(\d+)\s*\)?")


@dataclass(frozen=True)
class Cells(OptionType[tuple[Cell, ...]]):
    """A set of board cells, sorted; text "1,1;2,3" (or "(1,1) (2,3)"); may be empty."""

    metavar: str = "R,C;R,C..."

    def coerce(self, value: object) -> tuple[Cell, ...]:
        cells: list[Cell] = []
        if isinstance(value, str):
            if _CELL.sub("", value).strip("; \t\n"):
                raise ValueError(f"expected cells such as 1,1;2,3, got {value!r}")
            cells = [(int(match[1]), int(match[2])) for match in _CELL.finditer(value)]
        elif isinstance(value, list | tuple):
            for item in value:
                if not isinstance(item, list | tuple) or len(item) != 2:
                    raise ValueError(f"expected a cell (row, column), got {item!r}")
                cells.append((_integer(item[0]), _integer(item[1])))
        else:
            raise ValueError(f"expected cells such as 1,1;2,3, got {value!r}")
        return tuple(sorted(set(cells)))


def _integer(value: object) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and re.fullmatch(r"\s*[+-]?\d+\s*", value):
        return int(value)
    raise ValueError(f"expected a whole number, got {value!r}")


@dataclass(frozen=True)
class Option:
    """One declared option of a game: its name, type, default and help text.

    ``field`` is the game's attribute holding the value; it differs from ``name`` only
    where the option's name is taken by a method of the game (tic-tac-toe's ``to_move``).
    """

    name: str
    type: OptionType[Any]
    default: object
    help: str
    field: str


OPTION_KEY = "game-option"
"""The dataclass field metadata key under which :func:`option` keeps the option's details."""


def option(
    default: T,
    type: OptionType[Any],
    help: str,
    *,
    name: str | None = None,
) -> T:
    """Declare a game option as a dataclass field: ``pile: int = option(7, Integer(1, 30), "...")``.

    ``name`` is the option's public name when it cannot be the field's own.
    """
    metadata = {OPTION_KEY: (type, help, name)}
    return field(default=default, metadata=metadata)
