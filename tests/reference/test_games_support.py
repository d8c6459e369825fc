"""Helpers shared by the game tests: an independent minimax over a generated tree.

Kept apart from ``reference.search`` on purpose: these tests check the game trees, and
must not depend on the engine that will be graded against them.
"""

from __future__ import annotations

from reference.tree import Kind, Number, Tree


def minimax(tree: Tree) -> dict[str, Number]:
    """The minimax value of every node; frontier nodes are worth their heuristic."""
    values: dict[str, Number] = {}
    for node in reversed(list(tree)):  # reversed preorder: children before parents
        if node.is_leaf:
            assert node.utility is not None
            values[node.name] = node.utility
        elif not node.edges:
            assert node.heuristic is not None
            values[node.name] = node.heuristic
        else:
            children = [values[edge.child] for edge in node.edges]
            values[node.name] = max(children) if node.kind is Kind.MAX else min(children)
    return values


def root_actions(tree: Tree) -> dict[str, tuple[str | None, Number]]:
    """Each root action with the label and minimax value of the state it leads to."""
    values = minimax(tree)
    return {edge.action: (tree[edge.child].label, values[edge.child]) for edge in tree.root.edges}


def distinct_labels(tree: Tree) -> set[str | None]:
    """The labels of the nodes: one per distinct state, for games whose label is the state."""
    return {node.label for node in tree}
