"""The modules a student's code may import in the sandbox: the fork-server loads them before
the child is confined; anything else would need ``open()``, which the filter refuses."""

from __future__ import annotations

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
