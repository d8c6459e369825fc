"""Two mistakes in one search: the library's wrong implementations composed in pairs.

Each wrong implementation of the library is one small change to a correct one of its
family (its *base*: the correct file it differs least from). Two wrong implementations of
the same base whose changes touch different lines are composed by making both changes to
the base: the search a student with both mistakes would write. The composed sources are
the library's own code, made from it, so they run in process like the library.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache

from reference.hidden.library import Implementation

MOST_CHANGED_LINES = 6
"""A wrong implementation changing more lines of its base than this is not composed (its
mistake is not one local change)."""

_CODE_STARTS = ("import ", "from ", "def ", "class ", "@")


@dataclass(frozen=True, slots=True)
class _Change:
    """One wrong implementation as its base and its changes to the base's code lines."""

    implementation: Implementation
    base: Implementation
    hunks: tuple[tuple[int, int, tuple[str, ...]], ...]
    """(first line, end line, lines put there) in the base's code lines, in order."""


@dataclass(frozen=True, slots=True)
class ComposedImplementation:
    """Two wrong implementations made into one search."""

    implementation: Implementation
    """The composed file, named ``first+second_stem``."""
    parts: tuple[Implementation, Implementation]
    base: Implementation
    """The correct implementation both changed."""


def _code(source: str) -> list[str]:
    """The code lines of a library file: from its first import or definition on, without
    one-line docstrings, comment lines and blank lines (the files differ in those)."""
    lines = source.splitlines()
    start = next(
        (index for index, line in enumerate(lines) if line.startswith(_CODE_STARTS)), len(lines)
    )
    return [line for line in lines[start:] if not _aside(line.strip())]


def _aside(line: str) -> bool:
    return (
        not line
        or line.startswith("#")
        or (len(line) >= 6 and line[:3] == line[-3:] and line[:3] in ('"""', "'''"))
    )


def _change(wrong: Implementation, bases: Sequence[Implementation]) -> _Change | None:
    best: _Change | None = None
    changed = MOST_CHANGED_LINES + 1
    for base in bases:
        before, after = _code(base.source), _code(wrong.source)
        matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
        hunks = tuple(
            (first, end, tuple(after[start:stop]))
            for tag, first, end, start, stop in matcher.get_opcodes()
            if tag != "equal"
        )
        size = sum(max(end - first, len(lines)) for first, end, lines in hunks)
        if 0 < size < changed:
            best, changed = _Change(wrong, base, hunks), size
    return best


def _apart(one: _Change, other: _Change) -> bool:
    """True when no change of ``one`` touches or borders a change of ``other``."""
    return all(
        end < other_first or other_end < first
        for first, end, _ in one.hunks
        for other_first, other_end, _ in other.hunks
    )


def _both(one: _Change, other: _Change) -> str:
    lines = _code(one.base.source)
    for first, end, put in sorted(one.hunks + other.hunks, reverse=True):
        lines[first:end] = put
    return "\n".join(lines) + "\n"


@cache
def composed(library: tuple[Implementation, ...]) -> tuple[ComposedImplementation, ...]:
    """Every pair of ``library``'s wrong implementations that can be composed (see the
    module's docstring), as one implementation each, that compiles."""
    found: list[ComposedImplementation] = []
    families = sorted({implementation.family for implementation in library})
    for family in families:
        members = [implementation for implementation in library if implementation.family == family]
        bases = [implementation for implementation in members if implementation.expect == "correct"]
        changes = [
            change
            for implementation in members
            if implementation.expect == "wrong"
            for change in (_change(implementation, bases),)
            if change is not None
        ]
        for index, one in enumerate(changes):
            for other in changes[index + 1 :]:
                if other.base is not one.base or not _apart(one, other):
                    continue
                source = _both(one, other)
                try:
                    compile(source, "<composed>", "exec")
                except SyntaxError:
                    continue
                first, second = one.implementation, other.implementation
                stem = second.name.split("/", 1)[1]
                found.append(
                    ComposedImplementation(
                        replace(
                            first,
                            name=f"{first.name}+{stem}",
                            bug=f"{first.bug}; {second.bug}",
                            first_divergence=None,
                            source=source,
                            misconception=None,
                            equivalent=(),
                            algorithms=tuple(
                                algorithm
                                for algorithm in one.base.algorithms
                                if algorithm in first.algorithms and algorithm in second.algorithms
                            ),
                        ),
                        (first, second),
                        one.base,
                    )
                )
    return tuple(found)
