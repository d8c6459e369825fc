"""The textbook's way of naming unnamed nodes and edges.

AIMA names the root A, its children B, C, D, and their children B1, B2, ...; the edges out of
a node are labelled after it (a1, a2, a3 out of A; b1, b2, b3 out of B). Deeper levels
continue the pattern with a dot where two numbers would run together (B1.1, B1.2, b1.1).
"""

from __future__ import annotations

import string

ROOT_NAME = "A"
_LETTERS = string.ascii_uppercase


def _join(prefix: str, index: int) -> str:
    separator = "." if prefix[-1:].isdigit() else ""
    return f"{prefix}{separator}{index}"


def child_names(parent: str, count: int, *, parent_is_root: bool) -> list[str]:
    """Names for the ``count`` children of ``parent``.

    The children of the tree's root take the letters after the root's own (B, C, D, ...)
    while there are enough of them; every other child is its parent's name and its index.
    """
    if parent_is_root and len(parent) == 1 and parent in _LETTERS:
        start = _LETTERS.index(parent) + 1
        if start + count <= len(_LETTERS):
            return list(_LETTERS[start : start + count])
    return [_join(parent, i) for i in range(1, count + 1)]


def action_labels(parent: str, count: int) -> list[str]:
    """Labels for the ``count`` edges out of ``parent``: its name in lower case and an index."""
    return [_join(parent.lower(), i) for i in range(1, count + 1)]
