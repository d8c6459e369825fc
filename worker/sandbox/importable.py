"""The modules a student's code may import in the sandbox: the fork-server loads them before
the child is confined; anything else would need ``open()``, which the filter refuses."""

from __future__ import annotations

import ast

PRELOADED = (
    "abc",
    "bisect",
    "collections",
    "copy",
    "dataclasses",
    "decimal",
    "enum",
    "fractions",
    "functools",
    "heapq",
    "itertools",
    "json",
    "math",
    "numbers",
    "operator",
    "random",
    "re",
    "statistics",
    "string",
    "time",
    "typing",
)
"""What a student's module may import (anything else needs open(), which the filter refuses)."""

THIRD_PARTY = ("numpy",)
"""Modules outside the standard library a student may import (installed with the grader;
aima-python's code imports ``numpy`` for ``np.inf``). Loading numpy makes the fork-server
five times larger in address space and each run half as dear again
(``bench/sandbox_preload.py``), so only a file that imports one gets a fork-server that
preloads it (:func:`preload_for`)."""
IMPORTABLE = PRELOADED + THIRD_PARTY
"""Every module a student's file may import, for the message that refuses another."""


def preload_for(source: str) -> tuple[str, ...]:
    """What the fork-server that runs ``source`` preloads: :data:`PRELOADED`, and the
    modules of :data:`THIRD_PARTY` that the file imports."""
    wanted = [name for name in THIRD_PARTY if name in source and name in _imported(source)]
    return PRELOADED + tuple(wanted)


def _imported(source: str) -> set[str]:
    """The top-level names of the modules ``source`` imports (none if it does not parse:
    then it does not compile, and no child runs)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return set()
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module.split(".")[0])
    return found
