"""The packages point one way: ``reference`` imports neither of the others, and ``grader``
imports ``worker`` only in its command line (which wires both); ``worker`` may import
``grader``. Every import counts, at any level (inside functions too)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

FORBIDDEN = {
    "reference": ("grader", "worker"),
    "grader": ("worker",),
}
"""The packages each package must never import."""
ALLOWED = ("grader/cli/",)
"""Where a forbidden arrow is the point (the command line wires grader and worker)."""


def imported(tree: ast.AST) -> list[tuple[int, str]]:
    """The line and the dotted name of every absolute import in ``tree``."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
    return found


def forbidden_arrows() -> list[str]:
    """``file:line: a -> b`` for every import that goes the wrong way."""
    arrows: list[str] = []
    for package, targets in FORBIDDEN.items():
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if relative.startswith(ALLOWED):
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=relative)
            for line, name in imported(tree):
                top = name.split(".")[0]
                if top in targets:
                    arrows.append(f"{relative}:{line}: {package} -> {top} ({name})")
    return arrows


def test_the_packages_point_one_way() -> None:
    arrows = forbidden_arrows()
    assert not arrows, "imports against the package order:\n" + "\n".join(arrows)


def test_the_check_sees_imports_inside_functions() -> None:
    tree = ast.parse("def f():\n    from worker.execute import execute_run\n    import grader\n")
    assert imported(tree) == [(2, "worker.execute"), (3, "grader")]
