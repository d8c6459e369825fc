"""YAML documents with positions: decode, compose safely, convert, and locate by path.

Every failure becomes a located :class:`~reference.problems.Problem`; no YAML exception,
UnicodeDecodeError or RecursionError escapes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import yaml

from reference.problems import FileProblems, Problem

_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's loader when PyYAML was built with it (the wheels are): same results, faster."""

MAX_NESTING = 64
"""Deeper YAML nesting is refused before composing (PyYAML's composer recurses)."""

TAG_REFUSED = "YAML tags such as !!python/object/apply are not allowed here"
"""Said of any explicit tag: tree and exercise files need none, and a tag is how a YAML
file asks a loader to build Python objects (or binary data) instead of plain values."""


def decode(data: bytes, filename: str) -> str:
    """The UTF-8 text of ``data``, or a problem naming the line and column of the first bad byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        good = data[: error.start]
        line = good.count(b"\n") + 1
        column = len(good) - (good.rfind(b"\n") + 1) + 1
        byte = data[error.start]
        raise FileProblems(
            [Problem(filename, line, column, f"not valid UTF-8 (byte 0x{byte:02x})")]
        ) from None


class _Mark(Protocol):
    line: int
    column: int


def _problem_at(filename: str, mark: _Mark | None, message: str) -> Problem:
    if mark is None:
        return Problem(filename, 1, 1, message)
    return Problem(filename, mark.line + 1, mark.column + 1, message)


def compose(text: str, filename: str) -> yaml.Node | None:
    """The composed YAML node tree of ``text`` (None for an empty document).

    Refuses syntax errors, nesting deeper than :data:`MAX_NESTING`, several documents,
    aliases and explicit tags (tree and exercise files have no use for them; an alias is
    also how a small file expands into a huge one), each with its position.
    """
    try:
        depth = 0
        documents = 0
        for event in yaml.parse(text, Loader=_LOADER):
            if isinstance(event, yaml.DocumentStartEvent):
                documents += 1
                if documents > 1:
                    raise FileProblems(
                        [_problem_at(filename, event.start_mark, "only one YAML document allowed")]
                    )
            elif isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_NESTING:
                    message = f"nested more than {MAX_NESTING} levels deep"
                    raise FileProblems([_problem_at(filename, event.start_mark, message)])
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
            elif isinstance(event, yaml.AliasEvent):
                message = "YAML aliases (*name) are not allowed here"
                raise FileProblems([_problem_at(filename, event.start_mark, message)])
            if isinstance(event, yaml.NodeEvent) and getattr(event, "tag", None) is not None:
                raise FileProblems([_problem_at(filename, event.start_mark, TAG_REFUSED)])
        return yaml.compose(text, Loader=_LOADER)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        message = f"YAML syntax error: {error.problem or error.context}"
        raise FileProblems([_problem_at(filename, mark, message)]) from None
    except yaml.reader.ReaderError as error:
        before = text[: error.position]
        line = before.count("\n") + 1
        column = error.position - (before.rfind("\n") + 1) + 1
        code = error.character if isinstance(error.character, int) else ord(error.character)
        message = f"the character U+{code:04X} is not allowed in a YAML file"
        raise FileProblems([Problem(filename, line, column, message)]) from None
    except yaml.YAMLError as error:
        raise FileProblems([Problem(filename, 1, 1, f"YAML error: {error}")]) from None


def construct(node: yaml.Node) -> Any:
    """Plain Python data for a composed node (safe types only)."""
    return yaml.SafeLoader("").construct_document(node)


def duplicate_keys(node: yaml.Node, filename: str) -> list[Problem]:
    """Keys given twice in any mapping below ``node`` (YAML loaders silently keep the last)."""
    problems: list[Problem] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, yaml.MappingNode):
            seen: set[str] = set()
            for key, value in current.value:
                if isinstance(key, yaml.ScalarNode):
                    if key.value in seen:
                        message = f"{key.value!r} is given twice"
                        problems.append(_problem_at(filename, key.start_mark, message))
                    seen.add(key.value)
                stack.append(value)
        elif isinstance(current, yaml.SequenceNode):
            stack.extend(current.value)
    return problems


def locate(node: yaml.Node, path: Sequence[str | int]) -> tuple[yaml.Node, bool]:
    """The node at ``path`` below ``node`` (keys and list indexes), as deep as it exists.

    Returns the node and whether the whole path was found; a missing key locates the
    mapping that lacks it. For a key that is itself wrong, the key node is returned.
    """
    current = node
    for step in path:
        if isinstance(current, yaml.MappingNode):
            for key, value in current.value:
                if isinstance(key, yaml.ScalarNode) and key.value == step:
                    current = value
                    break
            else:
                return current, False
        elif isinstance(current, yaml.SequenceNode) and isinstance(step, int):
            if not 0 <= step < len(current.value):
                return current, False
            current = current.value[step]
        else:
            return current, False
    return current, True


def key_node(mapping: yaml.Node, key: str) -> yaml.Node | None:
    """The key node named ``key`` in a mapping, for pointing at an unknown key."""
    if isinstance(mapping, yaml.MappingNode):
        for candidate, _ in mapping.value:
            if isinstance(candidate, yaml.ScalarNode) and candidate.value == key:
                return candidate
    return None


def position(node: yaml.Node) -> tuple[int, int]:
    """The 1-based line and column where ``node`` starts."""
    return node.start_mark.line + 1, node.start_mark.column + 1
