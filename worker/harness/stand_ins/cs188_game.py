"""CS188's ``game`` as a multi-agent search file uses it: ``Agent``, the base of every agent
class, and ``Directions``, the names of Pacman's moves."""

from __future__ import annotations

from typing import Any, ClassVar


class Agent:
    """An agent of the game: ``getAction(state)`` returns its move. ``index`` 0 is Pacman."""

    def __init__(self, index: int = 0) -> None:
        self.index = index

    def getAction(self, state: Any) -> Any:
        raise NotImplementedError("getAction is not written yet")


class Directions:
    """The names of the moves on the board."""

    NORTH = "North"
    SOUTH = "South"
    EAST = "East"
    WEST = "West"
    STOP = "Stop"
    LEFT: ClassVar[dict[str, str]] = {
        NORTH: WEST,
        SOUTH: EAST,
        EAST: NORTH,
        WEST: SOUTH,
        STOP: STOP,
    }
    RIGHT: ClassVar[dict[str, str]] = {y: x for x, y in LEFT.items()}
    REVERSE: ClassVar[dict[str, str]] = {
        NORTH: SOUTH,
        SOUTH: NORTH,
        EAST: WEST,
        WEST: EAST,
        STOP: STOP,
    }
