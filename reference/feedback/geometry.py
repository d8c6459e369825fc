"""The shape of a tree as feedback needs it: subtrees as preorder intervals, search order.

Every question here (is x inside y's subtree, which child of y leads to x) is answered
without recursion, so trees 10,000 levels deep cost nothing special.
"""

from __future__ import annotations

from functools import cached_property
from operator import attrgetter

from reference.search import Order
from reference.tree import Tree

_edges = attrgetter("edges")


class Geometry:
    """Preorder positions, subtree ends, depths and children in search order."""

    def __init__(
        self,
        tree: Tree,
        order: Order = "left-to-right",
        *,
        order_judged: bool = True,
        generated: bool = False,
    ) -> None:
        self.tree = tree
        self.order = order
        self.order_judged = order_judged
        """Whether a child searched before a sibling that comes first in ``order`` is a
        mistake (see :class:`reference.search.SearchOptions`)."""
        self.generated = generated
        """Whether a node counts as reached when its state is generated (CS188's
        ``generateSuccessor``), not only when the game is asked about it."""
        nodes = tree.nodes
        names = list(nodes)
        count = len(names)
        index = dict(zip(names, range(count), strict=True))
        children = list(map(len, map(_edges, nodes.values())))
        # A subtree ends where its last child's does. Read backwards, the preorder puts a
        # node's children, first child on top, on a stack of the subtrees read so far.
        end = list(range(1, count + 1))  # a leaf's subtree is itself
        read: list[int] = []
        for i in range(count - 1, -1, -1):
            k = children[i]
            if k:
                end[i] = end[read[-k]]
                del read[-k:]
            read.append(i)
        self.names = names
        """Node names in preorder (``names[index[name]] == name``)."""
        self.index = index
        self.end = end
        self.child_counts = children
        """How many children each node has, in preorder."""

    @cached_property
    def depth(self) -> dict[str, int]:
        """Each node's depth (only a depth-limited search asks, so it is worked out then)."""
        depth = dict.fromkeys(self.names, 0)
        for node in self.tree:  # preorder: parents first
            below = depth[node.name] + 1
            for edge in node.edges:
                depth[edge.child] = below
        return depth

    def contains(self, ancestor: str, name: str) -> bool:
        """True when ``name`` is ``ancestor`` or lies in its subtree."""
        i = self.index[ancestor]
        return i <= self.index[name] < self.end[i]

    def parent(self, name: str) -> str | None:
        """The parent's name, or None for the root."""
        parent = self.tree.parent(name)
        return None if parent is None else parent.name

    def children(self, name: str) -> tuple[str, ...]:
        """The children of ``name`` in the order the search takes them."""
        children = self.tree[name].children
        return children if self.order == "left-to-right" else children[::-1]

    def previous_sibling(self, name: str) -> str | None:
        """The sibling searched just before ``name``, or None for a first child."""
        parent = self.parent(name)
        if parent is None:
            return None
        siblings = self.children(parent)
        position = siblings.index(name)
        return siblings[position - 1] if position > 0 else None

    def child_toward(self, ancestor: str, name: str) -> str:
        """The child of ``ancestor`` whose subtree holds ``name`` (a proper descendant)."""
        while (parent := self.parent(name)) is not None and parent != ancestor:
            name = parent
        return name

    def common_ancestor(self, x: str, y: str) -> str:
        """The deepest node whose subtree holds both ``x`` and ``y``."""
        while not self.contains(x, y):
            parent = self.parent(x)
            assert parent is not None
            x = parent
        return x
