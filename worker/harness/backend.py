"""What the student-side game talks to: the trusted side, in process or over a channel."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from worker.harness.values import Described


@dataclass(frozen=True, slots=True)
class Refusal:
    """The answer to a request the game cannot grant; the student's call raises GameError."""

    message: str


class Backend(Protocol):
    """One game request per call; entry-function calls and returns, and what the student's
    own functions return for a state, are only noted."""

    @property
    def game_calls(self) -> int:
        """How many game calls the trusted side has been sent so far (requests, and calls
        answered from told facts): the trusted side's count at the same point
        (:attr:`worker.harness.host.TreeHost.requests`)."""
        ...

    def request(self, method: str, token: str, argument: str | None) -> object:
        """The answer to ``game.<method>(state[, argument])`` for the state ``token``."""
        ...

    def note_call(
        self,
        function: str,
        token: str | None,
        alpha: Described | None,
        beta: Described | None,
        depth: Described | None,
        line: int | None = None,
    ) -> None:
        """An entry function was called on ``token`` with these bounds / depth (None:
        absent), from ``line`` of the student's file (None: not from it, or not recorded)."""
        ...

    def note_return(
        self, function: str, token: str | None, value: Described, line: int | None = None
    ) -> None:
        """The entry function called on ``token`` (from ``line``) returned ``value``."""
        ...

    def note_helper(
        self, function: str, token: str, start: int, value: Described | None, outermost: bool
    ) -> None:
        """A function of the student's file called on ``token`` after ``start`` game calls
        returned ``value`` (None: not a number); ``outermost``: no other function of the
        file was open on the same state (see :mod:`worker.harness.observer`)."""
        ...
