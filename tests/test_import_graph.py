"""The packages point one way: ``reference`` imports neither of the others, and ``grader``
imports ``worker`` only in its command line (which wires both); ``worker`` may import
``grader``. Within them, no module imports itself back through others: no import circles.
Every import counts, at any level (inside functions too), relative ones resolved."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("reference", "worker", "grader")
"""The project's packages: the modules whose imports of each other are checked."""

FORBIDDEN = {
    "reference": ("grader", "worker"),
    "grader": ("worker",),
}
"""The packages each package must never import."""
ALLOWED = ("grader/cli/",)
"""Where a forbidden arrow is the point (the command line wires grader and worker)."""


def module_name(relative: str) -> str:
    """The dotted name of the module in file ``relative`` (``a/b/__init__.py`` is ``a.b``)."""
    parts = relative.removesuffix(".py").split("/")
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(tree: ast.AST, module: str = "", package: bool = False) -> list[tuple[int, str]]:
    """The line and the absolute dotted name of everything ``tree`` (the source of
    ``module``, a package's ``__init__`` when ``package``) imports: ``from a import b``
    gives ``a.b``, since ``b`` may be a module; relative imports are resolved."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                # A module's own package is one level up; a package's __init__ is its own.
                parents = module.split(".")[: None if package else -1]
                parents = parents[: len(parents) - (node.level - 1)]
                base = ".".join([*parents, *([base] if base else [])])
            found.extend(
                (node.lineno, base if alias.name == "*" else f"{base}.{alias.name}".lstrip("."))
                for alias in node.names
            )
    return found


def sources(root: Path, packages: tuple[str, ...]) -> Iterator[tuple[str, str, ast.AST]]:
    """Each module of ``packages`` under ``root``: its file, its dotted name, its syntax."""
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            relative = path.relative_to(root).as_posix()
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=relative)
            yield relative, module_name(relative), tree


def forbidden_arrows(root: Path = ROOT) -> list[str]:
    """``file:line: a -> b`` for every import that goes the wrong way."""
    arrows: list[str] = []
    for relative, module, tree in sources(root, tuple(FORBIDDEN)):
        if relative.startswith(ALLOWED):
            continue
        package, targets = module.split(".")[0], FORBIDDEN[module.split(".")[0]]
        for line, name in imported(tree, module, relative.endswith("__init__.py")):
            top = name.split(".")[0]
            if top in targets:
                arrows.append(f"{relative}:{line}: {package} -> {top} ({name})")
    return arrows


Graph = dict[str, dict[str, str]]
"""Each module's imports of project modules: the imported module, and where (file:line)."""


def import_graph(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> Graph:
    """Which project module imports which. An imported name counts for the longest project
    module it starts with: ``grader.models.User`` is ``grader.models``."""
    found = list(sources(root, packages))
    modules = {module for _, module, _ in found}
    graph: Graph = {}
    for relative, module, tree in found:
        edges = graph.setdefault(module, {})
        for line, name in imported(tree, module, relative.endswith("__init__.py")):
            parts = name.split(".")
            prefixes = (".".join(parts[:size]) for size in range(len(parts), 0, -1))
            target = next((prefix for prefix in prefixes if prefix in modules), None)
            if target is not None and target != module:
                edges.setdefault(target, f"{relative}:{line}")
    return graph


def circles(graph: Graph) -> list[list[str]]:
    """The groups of modules that import each other, through any path (the strongly
    connected components of more than one module, by Tarjan's algorithm), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in graph.get(module, {}):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group: list[str] = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return sorted(groups)


def described(graph: Graph, group: list[str]) -> str:
    """A circle's modules, and the imports that join them (file:line)."""
    arrows = [
        f"    {module} -> {target} ({where})"
        for module in group
        for target, where in sorted(graph[module].items())
        if target in group
    ]
    return " <-> ".join(group) + "\n" + "\n".join(arrows)


def test_the_packages_point_one_way() -> None:
    arrows = forbidden_arrows()
    assert not arrows, "imports against the package order:\n" + "\n".join(arrows)


def test_no_module_imports_itself_back() -> None:
    graph = import_graph()
    found = circles(graph)
    assert not found, "import circles:\n" + "\n".join(described(graph, group) for group in found)


def test_the_check_sees_imports_inside_functions() -> None:
    tree = ast.parse("def f():\n    from worker.execute import execute_run\n    import grader\n")
    assert imported(tree) == [(2, "worker.execute.execute_run"), (3, "grader")]


def test_relative_imports_are_read_from_where_they_are() -> None:
    tree = ast.parse("from . import api\nfrom ..models import User\nfrom .errors import *\n")
    assert imported(tree, "grader.web.student") == [
        (1, "grader.web.api"),
        (2, "grader.models.User"),
        (3, "grader.web.errors"),
    ]
    assert imported(tree, "grader.web", package=True)[0] == (1, "grader.web.api")


def write(root: Path, files: dict[str, str]) -> Path:
    for relative, text in files.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text, encoding="utf-8")
    return root


def test_a_function_importing_the_worker_from_the_grader_is_against_the_order(
    tmp_path: Path,
) -> None:
    root = write(
        tmp_path,
        {
            "grader/__init__.py": "",
            "grader/views.py": "def run():\n    from worker.execute import execute_run\n",
            "grader/cli/run.py": "from worker.execute import execute_run\n",
            "reference/__init__.py": "",
        },
    )
    assert forbidden_arrows(root) == [
        "grader/views.py:2: grader -> worker (worker.execute.execute_run)"
    ]


def test_a_circle_closed_inside_a_function_is_found(tmp_path: Path) -> None:
    root = write(
        tmp_path,
        {
            "grader/__init__.py": "",
            "grader/web/__init__.py": "def create_app():\n    from grader.web import api\n",
            "grader/web/api.py": "from grader.web.errors import is_outage\n",
            "grader/web/errors.py": "def page():\n    from .api import problem_response\n",
            "grader/web/links.py": "from grader.web import api\n",
        },
    )
    graph = import_graph(root, ("grader",))
    assert circles(graph) == [["grader.web.api", "grader.web.errors"]]
    assert "grader.web.errors -> grader.web.api (grader/web/errors.py:2)" in described(
        graph, ["grader.web.api", "grader.web.errors"]
    )
