"""The compact nested notation: ``MAX[ MIN[3 12 8] MIN[2 4 6] MIN[14 5 2] ]``.

Grammar (whitespace and commas separate tokens)::

    node  := [NAME '='] ( NUMBER | KIND ['(' NUMBER ')'] ['[' edge* ']'] )
    edge  := [ACTION ':'] [PROBABILITY '*'] node
    KIND  := MAX | MIN | CHANCE

A number is a leaf's utility; ``KIND(h)`` gives an internal node a heuristic, and
``KIND(h)`` without children is a frontier node. Names and actions that are left out are
generated the textbook's way (see :mod:`reference.naming`). A name or action that is not
a plain word is written as a JSON string.

The parser is iterative, so a tree nested 10,000 levels deep is no problem.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction

from reference.allocation import gc_paused
from reference.naming import ROOT_NAME, action_labels, child_names
from reference.problems import FileProblems, Problem
from reference.tree import Edge, Kind, Node, Number, Tree
from reference.treefile.assemble import (
    DEFAULT_MAX_NODES,
    Placed,
    Position,
    assemble,
    too_many_nodes_message,
)
from reference.treefile.numbers import NumberError, format_number, looks_numeric, parse_number
from reference.treefile.quoting import printable

KINDS = {"MAX": Kind.MAX, "MIN": Kind.MIN, "CHANCE": Kind.CHANCE}

_TOKEN = re.compile(
    r"""(?P<space>[\s,]+)
      | (?P<string>"(?:[^"\\\n]|\\.)*")
      | (?P<punct>[\[\]()=:*])
      | (?P<word>[^\s,\[\]()=:*"]+)
      | (?P<bad>.)""",
    re.VERBOSE | re.DOTALL,
)
_WORD = re.compile(r'[^\s,\[\]()=:*"]+\Z')


@dataclass(frozen=True, slots=True)
class _Token:
    kind: str  # "word", "string", one of "[]()=:*", or "end"
    text: str
    position: Position

    def describe(self) -> str:
        return "the end of the tree" if self.kind == "end" else repr(self.text)


@dataclass(slots=True)
class _RawEdge:
    action: str | None
    probability: Number | None
    child: int
    position: Position


@dataclass(slots=True)
class _RawNode:
    name: str | None
    kind: Kind
    position: Position
    utility: Number | None = None
    heuristic: Number | None = None
    edges: list[_RawEdge] = field(default_factory=list)


class _Syntax(Exception):
    def __init__(self, position: Position, message: str) -> None:
        super().__init__(message)
        self.position = position
        self.message = message


def _tokens(text: str) -> Iterator[_Token]:
    line_starts = [0] + [match.end() for match in re.finditer("\n", text)]

    def position(offset: int) -> Position:
        line = bisect.bisect_right(line_starts, offset)
        return line, offset - line_starts[line - 1] + 1

    for match in _TOKEN.finditer(text):
        group = match.lastgroup
        if group == "space":
            continue
        where = position(match.start())
        token = match.group()
        if group == "bad":
            if token == '"':
                raise _Syntax(where, "unterminated string (a name or action in quotes)")
            raise _Syntax(where, f"unexpected character {token!r}")
        if group == "string":
            try:
                token = json.loads(token)
            except ValueError:
                raise _Syntax(where, f"bad escape in the string {token}") from None
            yield _Token("string", token, where)
        elif group == "punct":
            yield _Token(token, token, where)
        else:
            yield _Token("word", token, where)
    yield _Token("end", "", position(len(text)))


class _Parser:
    """Reads the tokens into raw nodes (index 0 is the root); names come later."""

    def __init__(self, text: str, max_nodes: int, filename: str) -> None:
        self.tokens = list(_tokens(text))
        self.at = 0
        self.nodes: list[_RawNode] = []
        self.max_nodes = max_nodes
        self.filename = filename

    def peek(self, ahead: int = 0) -> _Token:
        return self.tokens[min(self.at + ahead, len(self.tokens) - 1)]

    def take(self) -> _Token:
        token = self.peek()
        self.at += 1
        return token

    def label_before(self, punct: str) -> str | None:
        """A name or action if the next tokens are ``label punct``; consumes them."""
        token = self.peek()
        if token.kind in ("word", "string") and self.peek(1).kind == punct:
            self.at += 2
            return token.text
        return None

    def number(self, token: _Token, what: str) -> Number:
        if token.kind != "word":
            raise _Syntax(token.position, f"expected {what}, found {token.describe()}")
        try:
            return parse_number(token.text)
        except NumberError as error:
            raise _Syntax(token.position, f"bad {what}: {error}") from None

    def parse(self) -> list[_RawNode]:
        open_nodes: list[tuple[int, Position]] = []
        self.node(open_nodes)
        while open_nodes:
            token = self.peek()
            if token.kind == "]":
                self.at += 1
                open_nodes.pop()
                continue
            if token.kind == "end":
                where = open_nodes[-1][1]
                raise _Syntax(where, "this '[' is never closed")
            start = token.position
            action = self.label_before(":")
            probability: Number | None = None
            if self.peek().kind == "word" and self.peek(1).kind == "*":
                probability = self.number(self.take(), "probability")
                self.at += 1
            parent = open_nodes[-1][0]
            child = self.node(open_nodes)
            self.nodes[parent].edges.append(_RawEdge(action, probability, child, start))
        token = self.peek()
        if token.kind != "end":
            raise _Syntax(token.position, f"unexpected {token.describe()} after the tree")
        return self.nodes

    def node(self, open_nodes: list[tuple[int, Position]]) -> int:
        """Reads one node; an internal node's '[' is left open on ``open_nodes``."""
        start = self.peek().position
        name = self.label_before("=")
        token = self.take()
        if token.kind != "word":
            raise _Syntax(token.position, f"expected a node, found {token.describe()}")
        index = len(self.nodes)
        if index >= self.max_nodes:
            raise _Syntax(start, too_many_nodes_message(self.max_nodes))
        kind = KINDS.get(token.text)
        if kind is None:
            try:
                utility = parse_number(token.text)
            except NumberError as error:
                if looks_numeric(token.text):
                    message = f"bad utility: {error}"
                else:
                    message = f"expected a number or MAX, MIN, CHANCE, found {token.text!r}"
                raise _Syntax(token.position, message) from None
            self.nodes.append(_RawNode(name, Kind.LEAF, start, utility=utility))
            if self.peek().kind in ("[", "("):
                message = "a leaf (a number) cannot have children or a heuristic"
                raise _Syntax(self.peek().position, message)
            return index
        node = _RawNode(name, kind, start)
        self.nodes.append(node)
        if self.peek().kind == "(":
            self.at += 1
            node.heuristic = self.number(self.take(), "heuristic")
            closing = self.take()
            if closing.kind != ")":
                raise _Syntax(closing.position, f"expected ')', found {closing.describe()}")
        if self.peek().kind == "[":
            open_nodes.append((index, self.take().position))
        elif node.heuristic is None:
            message = f"{token.text} needs children in [...] or a heuristic in (...)"
            raise _Syntax(self.peek().position, message)
        return index


def placed_nodes(
    text: str,
    filename: str,
    *,
    root_name: str = ROOT_NAME,
    is_root: bool = True,
    max_nodes: int,
    shift: Callable[[Position], Position] = lambda position: position,
) -> list[Placed]:
    """The nodes of a compact tree with their positions, names generated where omitted.

    ``root_name`` is used when the text does not name its root; ``is_root`` says whether
    that node is the root of the whole tree (its children are then named B, C, D, ...).
    ``shift`` maps positions in ``text`` to positions in the enclosing file.
    """
    try:
        raw = _Parser(text, max_nodes, filename).parse()
    except _Syntax as error:
        raise FileProblems([Problem(filename, *shift(error.position), error.message)]) from None
    names: list[str] = [""] * len(raw)
    names[0] = raw[0].name if raw[0].name is not None else root_name
    placed: list[Placed] = []
    stack = [(0, is_root)]
    while stack:
        index, root = stack.pop()
        node = raw[index]
        count = len(node.edges)
        generated = child_names(names[index], count, parent_is_root=root)
        actions = action_labels(names[index], count)
        edges = []
        for i, edge in enumerate(node.edges):
            child = raw[edge.child]
            names[edge.child] = child.name if child.name is not None else generated[i]
            action = edge.action if edge.action is not None else actions[i]
            edges.append(Edge(action, names[edge.child], _probability(edge.probability)))
        built = Node(names[index], node.kind, tuple(edges), node.utility, node.heuristic)
        where = tuple(shift(edge.position) for edge in node.edges)
        placed.append(Placed(built, shift(node.position), where))
        stack.extend((edge.child, False) for edge in reversed(node.edges))
    return placed


def _probability(value: Number | None) -> Fraction | float | None:
    if value is None or isinstance(value, Fraction | float):
        return value
    return Fraction(value)


def parse_compact(
    text: str,
    filename: str = "<compact>",
    *,
    root_name: str = ROOT_NAME,
    max_nodes: int = DEFAULT_MAX_NODES,
) -> Tree:
    """The tree written in compact notation; raises ``FileProblems`` with positions in ``text``."""
    with gc_paused():
        placed = placed_nodes(text, filename, root_name=root_name, max_nodes=max_nodes)
        return assemble(placed[0].node.name, placed[0].position, placed, filename)


def _word(text: str) -> str:
    """A name or action as a bare word, or as a JSON string whose every character YAML
    accepts, so a compact tree can always be pasted into a tree file."""
    if _WORD.match(text) and all(map(printable, text)):
        return text
    quoted = json.dumps(text, ensure_ascii=False)
    return "".join(c if printable(c) else f"\\u{ord(c):04x}" for c in quoted)


def render_compact(tree: Tree) -> str:
    """The tree in compact notation, naming nodes and actions only where the generated
    names differ. Labels are not part of the notation and are left out."""
    parts: list[str] = []
    # Each stack item is a node to write (name, prefix written before it, is_root) or a
    # closing bracket.
    stack: list[tuple[str, str, bool] | None] = [(tree.root.name, "", True)]
    while stack:
        item = stack.pop()
        if item is None:
            parts.append("]")
            continue
        name, prefix, is_root = item
        node = tree[name]
        parts.append(prefix)
        if is_root and name != ROOT_NAME:
            parts.append(_word(name) + "=")
        if node.is_leaf:
            assert node.utility is not None
            parts.append(format_number(node.utility))
            continue
        parts.append(str(node.kind))
        if node.heuristic is not None:
            parts.append(f"({format_number(node.heuristic)})")
        if not node.edges:
            continue
        parts.append("[")
        count = len(node.edges)
        generated = child_names(name, count, parent_is_root=is_root)
        actions = action_labels(name, count)
        stack.append(None)
        children: list[tuple[str, str, bool] | None] = []
        for i, edge in enumerate(node.edges):
            text = " " if i else ""
            if edge.action != actions[i]:
                text += _word(edge.action) + ":"
            if edge.probability is not None:
                text += format_number(edge.probability) + "*"
            if edge.child != generated[i]:
                text += _word(edge.child) + "="
            children.append((edge.child, text, False))
        stack.extend(reversed(children))
    return "".join(parts)
