"""Where the fix of a first divergence belongs in the student's source.

The harness knows the line a diverging call was made from; where what differed is a bound
the call received (alpha, beta or depth) or the value it returned, the line to change is
often another: the update of alpha that the loop over the children lacks, or that is
wrong. :func:`fix_site` reads the student's source with :mod:`ast` and says which line,
and whether it is an assignment that should change the variable, the loop where no
assignment changes it, or, where the source does not tell (no loop, a lambda, a helper in
between, a file that does not parse), the call itself.

Any source is safe to give: the analysis never raises, gives up past ``SOURCE_LIMIT``
characters or ``NODE_LIMIT`` nodes walked, and walks without recursion.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from reference.algorithms import Algorithm

FixSite = Literal["assignment", "loop", "call"]
"""An assignment that should change the variable; the loop over the children, where none
does; the call (the source does not tell)."""
Changed = Literal["alpha", "beta", "depth", "value"]
"""What differed first at a call: a bound it received, or the value it returned."""

SOURCE_LIMIT = 512 * 1024
"""Characters of a source analysed, past any upload limit (256 KiB by default)."""
NODE_LIMIT = 20_000
"""Syntax nodes walked before giving up (a search's file has a few hundred)."""
NAME_LIMIT = 40
"""The longest variable name told: a longer one is the call's to show."""
PARSED_KEPT = 4
"""Sources kept parsed: one grading asks about each of its public trees."""

_LOOPS = (ast.For, ast.AsyncFor, ast.While)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


@dataclass(frozen=True, slots=True)
class Fix:
    """The ``line`` where the fix belongs, what is there (``site``) and the variable that
    should have changed (``name``; None at the call)."""

    line: int
    site: FixSite
    name: str | None = None


class _GiveUp(Exception):
    """The source does not tell, or telling would cost too much."""


class _Budget:
    def __init__(self, limit: int) -> None:
        self.left = limit

    def spend(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise _GiveUp


def fix_site(
    source: str | bytes,
    line: int,
    changed: Changed,
    algorithm: Algorithm,
    entry_points: tuple[str, ...],
) -> Fix:
    """Where the fix belongs of a first divergence at the call of one of ``entry_points``
    (the student's search functions of ``algorithm``) made from ``line`` of ``source``,
    where ``changed`` is what differed first.

    For a bound: the variable the caller passes in the bound's position (``alpha``,
    ``-alpha``, ``depth - 1``), and the first assignment to it in the loop over the
    children around the call, else that loop (for the depth, the call itself, where it is
    counted down). For a value: the variable the called
    function returns, and the first assignment to it in its loop over the children (or
    after it), else that loop. Else, the call's own line."""
    at_call = Fix(line, "call")
    try:
        module = _parsed(source)
        if module is None:
            return at_call
        return _fix(module, line, changed, algorithm, entry_points, _Budget(NODE_LIMIT))
    except _GiveUp:
        return at_call
    except Exception:
        # A hint beside the feedback never costs a grading: whatever the source holds, the
        # call's line stands.
        return at_call


@functools.lru_cache(maxsize=PARSED_KEPT)
def _parsed(source: str | bytes) -> ast.Module | None:
    if len(source) > SOURCE_LIMIT:
        return None
    try:
        text = source.decode("utf-8") if isinstance(source, bytes) else source
        return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
        # A syntax error, null bytes or bytes that are not UTF-8, or a file nested past
        # what the parser's stack holds.
        return None


def _fix(
    module: ast.Module,
    line: int,
    changed: Changed,
    algorithm: Algorithm,
    entry_points: tuple[str, ...],
    budget: _Budget,
) -> Fix:
    call, path = _the_call(module, line, entry_points, budget)
    if changed == "value":
        function = _callee(call, path, budget)
        name = _returned(function, budget)
        loop = _children_loop(function, entry_points, budget)
        found = _first_assignment(loop.body, name, budget)
        if found is None:
            found = _first_assignment(_after(function, loop), name, budget)
    else:
        index = algorithm.argument_index(changed)
        if index is None or index >= len(call.args):
            raise _GiveUp
        if any(isinstance(argument, ast.Starred) for argument in call.args[: index + 1]):
            raise _GiveUp
        name = _variable(call.args[index], budget)
        loop = _enclosing_loop(path)
        _check_local(name, _innermost_scope(path), budget)
        found = _first_assignment(loop.body, name, budget)
    if len(name) > NAME_LIMIT:
        raise _GiveUp
    if found is not None:
        return Fix(found, "assignment", name)
    if changed == "depth":
        # The depth left is counted down where the child is called (``depth - 1``), not by
        # an update in the loop: a depth that does not change is the call's to fix.
        return Fix(line, "call", name)
    return Fix(loop.lineno, "loop", name)


def _the_call(
    module: ast.Module, line: int, entry_points: tuple[str, ...], budget: _Budget
) -> tuple[ast.Call, list[ast.AST]]:
    """The call of an entry function made from ``line`` (one that starts there, else one
    that spans it), with the nodes that hold it, outermost first."""
    starting: list[tuple[ast.Call, list[ast.AST]]] = []
    spanning: list[tuple[ast.Call, list[ast.AST]]] = []
    stack: list[tuple[ast.AST, list[ast.AST]]] = [(module, [])]
    while stack:
        node, path = stack.pop()
        budget.spend()
        if isinstance(node, ast.Call) and _called_name(node.func) in entry_points:
            (starting if node.lineno == line else spanning).append((node, path))
        inner = [*path, node]
        for child in ast.iter_child_nodes(node):
            first = getattr(child, "lineno", None)
            last = getattr(child, "end_lineno", None)
            if first is None or last is None or first <= line <= last:
                stack.append((child, inner))
    found = starting or spanning
    if not found:
        raise _GiveUp
    call, path = found[0]
    # Two calls on the line are told apart only if they pass the same arguments.
    if any(ast.dump(other) != ast.dump(call) for other, _ in found[1:]):
        raise _GiveUp
    return call, path


def _called_name(function: ast.expr) -> str | None:
    if isinstance(function, ast.Name):
        return function.id
    if isinstance(function, ast.Attribute):
        return function.attr
    return None


def _enclosing_loop(path: list[ast.AST]) -> ast.For | ast.AsyncFor | ast.While:
    """The innermost loop around the call, in the body of the function the call is in,
    with no lambda or comprehension between them."""
    for at in range(len(path) - 1, -1, -1):
        node = path[at]
        if isinstance(node, _SCOPES):
            break
        if isinstance(node, _COMPREHENSIONS):
            raise _GiveUp
        if isinstance(node, _LOOPS):
            inside = path[at + 1] if at + 1 < len(path) else None
            if inside is None or not any(inside is statement for statement in node.body):
                raise _GiveUp  # in the loop's test, target or else
            if at == 0 or not any(isinstance(outer, _SCOPES) for outer in path[:at]):
                raise _GiveUp  # a loop of the module itself
            if isinstance(_innermost_scope(path[:at]), ast.Lambda | ast.ClassDef):
                raise _GiveUp
            return node
    raise _GiveUp


def _check_local(name: str, function: ast.AST | None, budget: _Budget) -> None:
    """Give up on a variable that is not the function's own: a parameter, one it assigns,
    or an attribute of a parameter (``self.alpha``); ``math.inf`` changes nowhere."""
    if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
        raise _GiveUp
    arguments = function.args
    parameters = {
        argument.arg
        for argument in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
    }
    base = name.split(".", 1)[0]
    if base in parameters:
        return
    if "." not in name and _first_assignment(function.body, name, budget) is not None:
        return
    raise _GiveUp


def _innermost_scope(path: list[ast.AST]) -> ast.AST | None:
    for node in reversed(path):
        if isinstance(node, _SCOPES):
            return node
    return None


def _variable(expression: ast.expr, budget: _Budget) -> str:
    """The one variable ``expression`` is made of (``alpha``, ``-beta``, ``depth - 1``,
    ``self.alpha``); give up on none or several."""
    names: set[str] = set()
    stack: list[ast.AST] = [expression]
    while stack:
        node = stack.pop()
        budget.spend()
        if isinstance(node, _SCOPES + _COMPREHENSIONS):
            raise _GiveUp
        dotted = _dotted(node)
        if dotted is not None:
            names.add(dotted)
            continue
        if isinstance(node, ast.Call):
            stack.extend(node.args)
            stack.extend(keyword.value for keyword in node.keywords)
            continue
        stack.extend(ast.iter_child_nodes(node))
    if len(names) != 1:
        raise _GiveUp
    return names.pop()


def _dotted(node: ast.AST) -> str | None:
    """``x`` for a name, ``self.x`` for an attribute of a name."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return f"{node.value.id}.{node.attr}"
    return None


def _statements(body: list[ast.stmt], budget: _Budget) -> Iterator[ast.AST]:
    """Every node of ``body``, in no set order, without entering a nested scope."""
    stack: list[ast.AST] = [node for node in body if not isinstance(node, _SCOPES)]
    while stack:
        node = stack.pop()
        budget.spend()
        yield node
        stack.extend(
            child for child in ast.iter_child_nodes(node) if not isinstance(child, _SCOPES)
        )


def _first_assignment(body: list[ast.stmt], name: str, budget: _Budget) -> int | None:
    """The first line of ``body`` that assigns to ``name``: ``=``, ``+=``, an annotated
    assignment, a tuple's part, ``:=``."""
    lines = [
        node.lineno
        for node in _statements(body, budget)
        if isinstance(node, ast.stmt | ast.expr)
        and any(_dotted(target) == name for target in _targets(node))
    ]
    return min(lines, default=None)


def _targets(node: ast.AST) -> Iterator[ast.AST]:
    found: list[ast.AST] = []
    if isinstance(node, ast.Assign):
        found = list(node.targets)
    elif isinstance(node, ast.AugAssign | ast.NamedExpr) or (
        isinstance(node, ast.AnnAssign) and node.value is not None
    ):
        found = [node.target]
    while found:
        target = found.pop()
        if isinstance(target, ast.Tuple | ast.List):
            found.extend(target.elts)
        elif isinstance(target, ast.Starred):
            found.append(target.value)
        else:
            yield target


def _callee(
    call: ast.Call, path: list[ast.AST], budget: _Budget
) -> ast.FunctionDef | ast.AsyncFunctionDef:
    """The function ``call`` calls: a function of the module by its name, or a method of
    the class the call is made in (``self.min_value``)."""
    name = _called_name(call.func)
    holder: list[ast.stmt] = []
    if isinstance(call.func, ast.Name):
        holder = path[0].body if path and isinstance(path[0], ast.Module) else []
    elif isinstance(call.func, ast.Attribute):
        classes = [node for node in path if isinstance(node, ast.ClassDef)]
        if not classes:
            raise _GiveUp
        holder = classes[-1].body
    found = []
    for statement in holder:
        budget.spend()
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef) and statement.name == name:
            found.append(statement)
    if len(found) != 1:
        raise _GiveUp
    return found[0]


def _returned(function: ast.FunctionDef | ast.AsyncFunctionDef, budget: _Budget) -> str:
    """The one variable ``function``'s returns of a variable return."""
    names = set()
    for node in _statements(function.body, budget):
        if isinstance(node, ast.Return) and node.value is not None:
            dotted = _dotted(node.value)
            if dotted is not None:
                names.add(dotted)
    if len(names) != 1:
        raise _GiveUp
    return names.pop()


def _children_loop(
    function: ast.FunctionDef | ast.AsyncFunctionDef, entry_points: tuple[str, ...], budget: _Budget
) -> ast.For | ast.AsyncFor | ast.While:
    """The first loop of ``function`` that calls an entry function: its loop over the
    children."""
    loops = [
        node
        for node in _statements(function.body, budget)
        if isinstance(node, _LOOPS)
        and any(
            isinstance(inner, ast.Call) and _called_name(inner.func) in entry_points
            for inner in _statements(node.body, budget)
        )
    ]
    if not loops:
        raise _GiveUp
    return min(loops, key=lambda loop: (loop.lineno, loop.col_offset))


def _after(function: ast.FunctionDef | ast.AsyncFunctionDef, loop: ast.stmt) -> list[ast.stmt]:
    """The statements of ``function``'s body after the one holding ``loop``."""
    end = loop.end_lineno or loop.lineno
    return [statement for statement in function.body if statement.lineno > end]


@dataclass(frozen=True, slots=True)
class StudentCode:
    """A student's source and how its search functions are called: what :func:`fix_site`
    reads, given once per grading (public trees only)."""

    source: str
    algorithm: Algorithm
    entry_points: tuple[str, ...]

    def fix(self, line: int, changed: Changed) -> Fix:
        """Where the fix belongs of a divergence at the call made from ``line``."""
        return fix_site(self.source, line, changed, self.algorithm, self.entry_points)
