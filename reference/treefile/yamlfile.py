"""Tree files in YAML: one line per node, children in search order.

::

    title: AIMA Figure 5.2
    root: A
    nodes:
      A: {kind: MAX, children: {a1: B, a2: C, a3: D}}
      B: MIN[3 12 8]
      C: {kind: MIN, children: {c1: C1, c2: C2, c3: C3}}
      C1: 2
      ...

A node is a number (a leaf's utility), a compact subtree (see
:mod:`reference.treefile.compact`) or a mapping with ``kind``, ``children`` (action to
child name, or to ``{to: NAME, p: PROBABILITY}`` on a chance node), ``utility``,
``heuristic`` and ``label``. A whole tree may instead be given in compact notation under
``tree``. Every problem is reported with file, line and column.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import yaml

from reference import yamldoc
from reference.allocation import gc_paused
from reference.naming import ROOT_NAME
from reference.problems import FileProblems, Problem
from reference.tree import Edge, Kind, Node, Number, Tree
from reference.treefile.assemble import (
    DEFAULT_MAX_NODES,
    Placed,
    Position,
    Unread,
    assemble,
    too_many_nodes_message,
)
from reference.treefile.compact import placed_nodes
from reference.treefile.numbers import NumberError, looks_numeric, parse_number
from reference.treefile.scalars import scalar_shift

TOP_KEYS = ("title", "description", "root", "nodes", "tree")
NODE_KEYS = ("kind", "children", "utility", "heuristic", "label")
EDGE_KEYS = ("to", "p")
_KIND_NAMES = {kind.value: kind for kind in Kind}


def _at(filename: str, node: yaml.Node, message: str) -> Problem:
    return Problem(filename, *yamldoc.position(node), message)


def _scalar(node: yaml.Node) -> str | None:
    return node.value if isinstance(node, yaml.ScalarNode) else None


class _Reader:
    """Collects every problem of one file while reading its nodes."""

    def __init__(self, text: str, filename: str, max_nodes: int) -> None:
        self.text = text
        self.filename = filename
        self.max_nodes = max_nodes
        self.problems: list[Problem] = []
        self.placed: list[Placed] = []
        self.unread: dict[str, Unread] = {}

    def problem(self, node: yaml.Node, message: str) -> None:
        self.problems.append(_at(self.filename, node, message))

    def unknown_keys(self, mapping: yaml.MappingNode, allowed: tuple[str, ...], what: str) -> None:
        for key, _ in mapping.value:
            text = _scalar(key)
            if text is None:
                self.problem(key, f"{what} keys must be plain words")
            elif text not in allowed:
                self.problem(key, f"unknown key {text!r} in {what} (allowed: {', '.join(allowed)})")

    def duplicate_keys(self, document: yaml.MappingNode) -> list[Problem]:
        """Keys given twice anywhere, except node names (reported as duplicate nodes)."""
        problems: list[Problem] = []
        seen: set[str] = set()
        for key, value in document.value:
            text = _scalar(key)
            if text in seen:
                problems.append(_at(self.filename, key, f"{text!r} is given twice"))
            seen.add(text or "")
            if text == "nodes" and isinstance(value, yaml.MappingNode):
                for _, definition in value.value:
                    problems += yamldoc.duplicate_keys(definition, self.filename)
            else:
                problems += yamldoc.duplicate_keys(value, self.filename)
        return problems

    def number(self, node: yaml.Node, what: str) -> Number | None:
        text = _scalar(node)
        if text is None:
            self.problem(node, f"{what} must be a number, not a {_shape(node)}")
            return None
        try:
            return parse_number(text.strip())
        except NumberError as error:
            self.problem(node, f"{what} must be a finite number: {error}")
            return None

    def read(self, document: yaml.Node) -> Tree:
        if not isinstance(document, yaml.MappingNode):
            message = "a tree file is a mapping with the keys root and nodes (or tree)"
            raise FileProblems([_at(self.filename, document, message)])
        self.problems += self.duplicate_keys(document)
        self.unknown_keys(document, TOP_KEYS, "a tree file")
        fields = {_scalar(key): (key, value) for key, value in document.value}
        for key in ("title", "description"):
            if key in fields and _scalar(fields[key][1]) is None:
                self.problem(fields[key][1], f"{key} must be text")
        root_name: str | None
        if "tree" in fields:
            if "nodes" in fields or "root" in fields:
                self.problem(fields["tree"][0], "give either tree or root and nodes, not both")
            root_name, root_position = self.compact_tree(fields["tree"][1])
            if not self.placed:
                # The compact notation stops at its first syntax error: there is no tree
                # to check further.
                raise FileProblems(self.problems)
        elif "nodes" in fields:
            root_name, root_position = self.node_table(fields["nodes"][1], fields.get("root"))
        else:
            message = "no tree: give root and nodes, or a compact tree under tree"
            raise FileProblems([*self.problems, _at(self.filename, document, message)])
        # The nodes are checked together (undefined children, unreachable nodes, cycles)
        # even when some were written wrongly, so that every problem is reported at once.
        return assemble(
            root_name,
            root_position,
            self.placed,
            self.filename,
            written_wrongly=self.unread,
            problems=self.problems,
        )

    def compact_tree(self, node: yaml.Node) -> tuple[str, Position]:
        text = _scalar(node)
        if text is None:
            self.problem(node, f"tree must be a compact tree in a string, not a {_shape(node)}")
            return ROOT_NAME, yamldoc.position(node)
        self.compact(text, node, ROOT_NAME, is_root=True, named=False)
        if not self.placed:
            return ROOT_NAME, yamldoc.position(node)
        return self.placed[0].node.name, self.placed[0].position

    def compact(
        self, text: str, node: yaml.Node, name: str, *, is_root: bool, named: bool = True
    ) -> None:
        """Reads a compact (sub)tree; with ``named``, its root must be the node ``name``."""
        shift = scalar_shift(node, self.text)
        limit = self.max_nodes - len(self.placed)
        try:
            placed = placed_nodes(
                text,
                self.filename,
                root_name=name,
                is_root=is_root,
                max_nodes=limit,
                shift=shift,
            )
        except FileProblems as error:
            self.problems += error.problems
            return
        if named and placed[0].node.name != name:
            message = f"the subtree of {name!r} names its root {placed[0].node.name!r}"
            self.problem(node, message)
        self.placed += placed

    def node_table(
        self, nodes: yaml.Node, root_entry: tuple[yaml.Node, yaml.Node] | None
    ) -> tuple[str | None, Position]:
        if not isinstance(nodes, yaml.MappingNode) or not nodes.value:
            message = "nodes must be a mapping from node names to their definitions"
            raise FileProblems([*self.problems, _at(self.filename, nodes, message)])
        root_name: str | None
        if root_entry is not None:
            root_name = _scalar(root_entry[1])
            root_position = yamldoc.position(root_entry[1])
            if not root_name:
                self.problem(root_entry[1], "root must be the name of a node")
                root_name = None
        else:
            first = nodes.value[0][0]
            root_name, root_position = _scalar(first), yamldoc.position(first)
        for key, value in nodes.value:
            name = _scalar(key)
            if name is None:
                self.problem(key, "a node name must be text")
                continue
            if len(self.placed) >= self.max_nodes:
                # The size limit protects the service: reading on is what it forbids.
                message = too_many_nodes_message(self.max_nodes)
                raise FileProblems([*self.problems, _at(self.filename, key, message)])
            self.definition(name, key, value, is_root=name == root_name)
        return root_name, root_position

    def definition(self, name: str, key: yaml.Node, value: yaml.Node, *, is_root: bool) -> None:
        """Places the node ``name``; one written wrongly is kept aside as unread."""
        where = yamldoc.position(key)
        placed = len(self.placed)
        children = self.read_definition(name, where, value, is_root=is_root)
        if children is not None:
            # A compact subtree that names its root wrongly was read whole: drop it too.
            del self.placed[placed:]
            self.unread[name] = Unread(where, children)

    def read_definition(
        self, name: str, where: Position, value: yaml.Node, *, is_root: bool
    ) -> tuple[str, ...] | None:
        """None when the node was placed; else the children it names (it has problems)."""
        if isinstance(value, yaml.MappingNode):
            return self.mapping(name, where, value)
        text = _scalar(value)
        if text is None:
            self.problem(
                value,
                f"node {name!r}: expected a number, a compact subtree or a "
                f"mapping, not a {_shape(value)}",
            )
            return ()
        stripped = text.strip()
        if not stripped:
            self.problem(
                value,
                f"node {name!r} has no definition: give a number (a leaf's "
                "utility), a compact subtree like MIN[3 12 8], or a mapping",
            )
            return ()
        if looks_numeric(stripped) or value.tag == "tag:yaml.org,2002:bool":
            utility = self.number(value, f"the utility of {name!r}")
            if utility is None:
                return ()
            self.placed.append(Placed(Node(name, Kind.LEAF, utility=utility), where, ()))
            return None
        # A compact subtree defines its nodes and names none of the table's: when it has a
        # syntax error, no edge to another node goes unread.
        problems = len(self.problems)
        self.compact(text, value, name, is_root=is_root)
        return () if len(self.problems) > problems else None

    def mapping(
        self, name: str, where: Position, value: yaml.MappingNode
    ) -> tuple[str, ...] | None:
        # An unknown key leaves the node readable: its own problems are still checked.
        self.unknown_keys(value, NODE_KEYS, f"node {name!r}")
        before = len(self.problems)
        fields = {_scalar(key): (key, item) for key, item in value.value}
        kind = self.kind(name, value, fields)
        utility = heuristic = None
        label: str | None = None
        if "utility" in fields:
            utility = self.number(fields["utility"][1], f"the utility of {name!r}")
        if "heuristic" in fields:
            heuristic = self.number(fields["heuristic"][1], f"the heuristic of {name!r}")
        if "label" in fields:
            label = _scalar(fields["label"][1])
            if label is None:
                self.problem(fields["label"][1], f"the label of {name!r} must be text")
        edges: list[Edge] = []
        positions: list[Position] = []
        if "children" in fields:
            self.children(name, fields["children"][1], edges, positions)
        if kind is None or len(self.problems) > before:
            return tuple(edge.child for edge in edges)
        node = Node(name, kind, tuple(edges), utility, heuristic, label)
        self.placed.append(Placed(node, where, tuple(positions)))
        return None

    def kind(
        self, name: str, value: yaml.Node, fields: dict[str | None, tuple[yaml.Node, yaml.Node]]
    ) -> Kind | None:
        if "kind" not in fields:
            if "utility" in fields and "children" not in fields:
                return Kind.LEAF
            self.problem(value, f"node {name!r} has no kind (MAX, MIN, CHANCE or LEAF)")
            return None
        node = fields["kind"][1]
        text = _scalar(node)
        kind = _KIND_NAMES.get((text or "").strip().upper())
        if kind is None:
            self.problem(node, f"unknown kind {text!r} for {name!r} (MAX, MIN, CHANCE or LEAF)")
        return kind

    def children(
        self, name: str, node: yaml.Node, edges: list[Edge], positions: list[Position]
    ) -> None:
        if not isinstance(node, yaml.MappingNode):
            message = f"the children of {name!r} must be a mapping from actions to child names"
            self.problem(node, message)
            return
        for key, target in node.value:
            action = _scalar(key)
            if action is None:
                self.problem(key, f"an action of {name!r} must be text")
                continue
            probability: Number | None = None
            child: str | None
            if isinstance(target, yaml.MappingNode):
                self.unknown_keys(target, EDGE_KEYS, f"edge {action!r} of {name!r}")
                fields = {_scalar(k): v for k, v in target.value}
                if "p" in fields:
                    probability = self.number(fields["p"], f"the probability of {action!r}")
                if "to" not in fields:
                    self.problem(target, f"edge {action!r} of {name!r} has no child (to: NAME)")
                    continue
                target = fields["to"]
            child = _scalar(target)
            if child is None or not child:
                self.problem(target, f"edge {action!r} of {name!r} must name a child node")
                continue
            edges.append(Edge(action, child, _as_probability(probability)))
            positions.append(yamldoc.position(target))


def _as_probability(value: Number | None) -> float | Fraction | None:
    if value is None or isinstance(value, float | Fraction):
        return value
    return Fraction(value)


def _shape(node: yaml.Node) -> str:
    if isinstance(node, yaml.MappingNode):
        return "mapping"
    if isinstance(node, yaml.SequenceNode):
        return "list"
    return "scalar"


def parse(text: str, filename: str = "<tree>", *, max_nodes: int = DEFAULT_MAX_NODES) -> Tree:
    """The tree in the tree-file ``text``; raises ``FileProblems`` listing every problem."""
    with gc_paused():
        document = yamldoc.compose(text, filename)
        if document is None:
            message = "the file is empty: expected root and nodes, or a compact tree under tree"
            raise FileProblems([Problem(filename, 1, 1, message)])
        return _Reader(text, filename, max_nodes).read(document)


def parse_bytes(
    data: bytes, filename: str = "<tree>", *, max_nodes: int = DEFAULT_MAX_NODES
) -> Tree:
    """Like :func:`parse`, for raw bytes (an upload); non-UTF-8 bytes are a located problem."""
    return parse(yamldoc.decode(data, filename), filename, max_nodes=max_nodes)


def load(path: Path | str, *, max_nodes: int = DEFAULT_MAX_NODES) -> Tree:
    """The tree in the file at ``path``; an unreadable file is a problem too."""
    filename = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        reason = error.strerror or str(error)
        raise FileProblems([Problem(filename, 1, 1, f"cannot read the file: {reason}")]) from None
    return parse_bytes(data, filename, max_nodes=max_nodes)


def validate(path: Path | str, *, max_nodes: int = DEFAULT_MAX_NODES) -> list[Problem]:
    """Every problem of the tree file at ``path``; empty when it is valid."""
    try:
        load(path, max_nodes=max_nodes)
    except FileProblems as error:
        return error.problems
    return []
