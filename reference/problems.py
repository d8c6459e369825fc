"""Readable, located problems found in input files (tree files, exercise files, imports)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem in an input file; ``line`` and ``column`` count from 1."""

    file: str
    line: int
    column: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: {self.message}"


def in_file_order(problems: Iterable[Problem]) -> list[Problem]:
    """``problems`` sorted by file, line and column, each once (two trees of an exercise
    may share a tree file, and its problems would be found twice)."""
    return sorted(dict.fromkeys(problems), key=lambda p: (p.file, p.line, p.column))


class FileProblems(ValueError):
    """Raised when an input file is invalid; carries every problem found, in file order."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = in_file_order(problems)
        super().__init__("\n".join(str(problem) for problem in self.problems))
