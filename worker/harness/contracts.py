"""The harness's registry of course contracts: how a student's file is run under each
contract of :mod:`reference.contracts`, by the same name.

A runner gets the student's loaded module and searches the root with it the way the course
calls its students' code; the course's own modules a file may import are installed under
their names while it runs (the project's stand-ins, :mod:`worker.harness.stand_ins`).
Runners register with :func:`register`, next to their code.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from worker.harness.backend import Backend
    from worker.harness.game import Game
    from worker.harness.results import EntrySpec, StudentResult

Search = Callable[
    ["types.ModuleType", "EntrySpec", "Backend", "Game", str, tuple[str, ...]], "StudentResult"
]
"""(module, spec, backend, game, root handle, the file's own functions) -> the result."""


@dataclass(frozen=True, slots=True)
class Runner:
    """How files of one contract are run."""

    search: Search
    modules: Mapping[str, types.ModuleType]
    """The course's modules by the names a student's file imports them under."""


RUNNERS: dict[str, Runner] = {}
"""Every contract's runner, by the contract's name."""


def register(
    name: str, modules: Mapping[str, types.ModuleType] | None = None
) -> Callable[[Search], Search]:
    """Register the decorated function as contract ``name``'s search."""

    def add(search: Search) -> Search:
        RUNNERS[name] = Runner(search, dict(modules or {}))
        return search

    return add


@contextmanager
def course_modules(modules: Mapping[str, types.ModuleType]) -> Iterator[None]:
    """A course's ``modules`` importable under their names while the block runs (and the
    modules they replaced, if any, back after it)."""
    replaced = {name: sys.modules.get(name) for name in modules}
    sys.modules.update(modules)
    try:
        yield
    finally:
        for name, module in replaced.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
