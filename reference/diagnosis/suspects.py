"""Wrong searches that are not the project's code: an instructor's added implementations.

The library's implementations are run in process (:mod:`reference.hidden.trusted`); an
added one never is. Its signatures come from the sandbox: stored when it was checked (on
the exercise's public trees and the hidden pool's catchers, by :func:`tree_key`), and, on
any other tree, from ``run``, which the worker gives to run it in the sandbox there.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from reference.diagnosis.signature import Signature
from reference.diagnosis.stored import tree_key
from reference.hidden.library import MisconceptionText
from reference.tree import Tree

ADDED = "added/"
"""The prefix of an added implementation's name (``added/<stem>``)."""


class NotCompared(Exception):
    """Raised by an added suspect's ``run`` when it will not be run on a tree (what its
    course may spend on such runs is spent): the suspect is left out of the diagnosis,
    neither named nor ranked, rather than judged on trees it was never run on."""


@dataclass(frozen=True, slots=True)
class AddedSuspect:
    """An instructor's wrong implementation, as the diagnosis compares it."""

    name: str
    """``added/<stem>``."""
    told: MisconceptionText
    stored: Mapping[str, Signature] = field(default_factory=dict)
    """Its signatures by :func:`tree_key`."""
    run: Callable[[Tree], Signature | None] | None = None
    """Runs it in the sandbox on a tree it has no stored signature of (None where it did
    not complete; :class:`NotCompared` where it will not be run); None: such trees are not
    compared."""

    def signature(self, tree: Tree) -> Signature | None:
        """Its signature on ``tree``, or None where it has none (it then matches nothing
        there)."""
        found = self.stored.get(tree_key(tree))
        if found is None and self.run is not None:
            found = self.run(tree)
        return found
