"""What judging needs to know about a tree and its reference search, worked out once.

Every submission to an exercise is judged on the same public and hidden trees, each with
the reference search the grader keeps for it. Everything here depends on the tree and
that search only, so for small trees it is kept, by the identity of the two objects, and
shared by all their judgements. Nothing in a :class:`TreeFacts` changes once it is made.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from reference.algorithms import ALGORITHMS
from reference.caching import IdentityCache
from reference.feedback.columns import ByName
from reference.feedback.geometry import Geometry
from reference.feedback.reference_view import ReferenceView, read_reference
from reference.feedback.screen import allowed_columns
from reference.feedback.values import Allowed, negamax_values, true_value_column
from reference.search import SearchResult
from reference.tree import Number, Tree

KEPT_NODES = 10_000
"""The largest tree whose facts are kept (the grader keeps the reference search of trees up
to this size; a larger tree's search is run anew for each judgement, so never met again)."""
KEPT_TOTAL = 100_000
"""The most nodes kept in all, the least recently judged trees going first."""


@dataclass(frozen=True, slots=True)
class TreeFacts:
    """A tree and its reference search, indexed for judging any student's search of it."""

    tree: Tree
    reference: SearchResult
    geometry: Geometry
    ref: ReferenceView
    negamax: bool
    """Whether the reference is a negamax search (values in the mover's view)."""
    max_values: Mapping[str, Number]
    """True values from MAX's point of view."""
    values: Mapping[str, Number]
    """True values as the algorithm returns them (the mover's view in negamax)."""
    searched_in_preorder: bytearray
    """1 for each node the reference visits, 0 for the others, in preorder (as the columns
    below: one entry per node, so that nodes are judged without looking each one up)."""
    values_in_preorder: list[Number | None]
    windows_in_preorder: list[tuple[Number, Number] | None]
    allowed_in_preorder: list[Allowed | None]
    """What each node the reference visits may return (None: not visited, or no value)."""
    exact_in_preorder: list[Number | None]
    """The true value of each node that must return it exactly: one the reference visits,
    inside its window or without one."""
    described_in_preorder: list[tuple[str, str] | None]
    """What each node of ``allowed_in_preorder`` may return, as a verdict's sentence says
    it: the values (``3``, ``[2, 3)``) and, after a value returned, what it was to be
    within (``, within [2, 3)``, or nothing for one value)."""
    order_positions: list[int]
    """The preorder position of each node of ``ref.order``, in the same order."""


def make_facts(tree: Tree, reference: SearchResult) -> TreeFacts:
    """Index ``tree`` and ``reference`` (see :func:`tree_facts` for the kept ones)."""
    options = reference.options
    geometry = Geometry(
        tree,
        options.order,
        order_judged=options.order_judged,
        generated=options.generation == "generated",
    )
    if options.depth_limit is not None:
        geometry.depth  # noqa: B018 - worked out now, so that a kept geometry never changes
    ref = read_reference(reference, geometry)
    algorithm = ALGORITHMS.get(reference.algorithm)
    negamax = algorithm is not None and algorithm.negamax
    names, index = geometry.names, geometry.index
    max_column = true_value_column(tree, geometry.child_counts, options.depth_limit)
    max_values: Mapping[str, Number] = ByName(names, index, max_column)
    values, values_in_preorder = max_values, max_column
    if negamax:
        values = negamax_values(tree, max_values)
        values_in_preorder = list(map(values.get, names))
    windows: list[tuple[Number, Number] | None] = [None] * len(names)
    if ref.windows:
        windows = list(map(ref.windows.get, names))
    allowed, exact, described = allowed_columns(
        values_in_preorder,
        windows,
        ref.searched_in_preorder,
        prune_on_equality=options.prune_on_equality,
    )
    return TreeFacts(
        tree,
        reference,
        geometry,
        ref,
        negamax,
        max_values,
        values,
        ref.searched_in_preorder,
        values_in_preorder,
        windows,
        allowed,
        exact,
        described,
        ref.order_positions,
    )


_kept: IdentityCache[TreeFacts] = IdentityCache(KEPT_TOTAL, weight=lambda facts: len(facts.tree))


def tree_facts(tree: Tree, reference: SearchResult) -> TreeFacts:
    """The facts of ``tree`` and ``reference``: kept ones for a pair met before, if the tree
    is small (see :data:`KEPT_NODES`)."""
    if len(tree) > KEPT_NODES:
        return make_facts(tree, reference)
    return _kept.get(lambda: make_facts(tree, reference), tree, reference)
