"""The feedback of a graded run, tree by tree, as the submission page shows it: each public
tree drawn twice by the page's tree views (``static/treeview.js``: the student's search,
marked by verdict, and the reference's), with its replay; each hidden tree's verdict and
reason only.

The page itself holds none of a tree's nodes, so that its answer costs the same for a tree
of 13 nodes and one of 5,000: its scripts fetch them (``student.py``'s ``tree_drawing``,
``tree_node`` and ``tree_replay``, built by :mod:`grader.web.tree_data`). The tree
document (:func:`tree_document`) holds ``columns``: for each key below, one list with an
entry per node in the tree's preorder (children in search order), null where the node has
no such value (columns, not one object per node, keep a 5,000-node tree's document small:
the keys are written once):

==========  ==================================================================
``n``       the node's name
``p``       its parent's index in ``nodes`` (left out for the root)
``k``       its kind: ``max``, ``min``, ``chance`` or ``leaf``
``g``       the game position (``Node.label``: a board, piles), if any
``a``       the action of the edge from its parent, if it says more than the name
``q``       the probability of the edge from its (chance) parent
``u``       a leaf's utility; ``h`` an internal node's heuristic
``v``       the student's verdict (left out: the report does not list the node)
``s``       the value the student's search returned there
``x``       the expected value, where it differs from ``s``
``e``/``c`` the expected (or allowed) and actual texts the verdict compares, where they
            say more than ``s`` and ``x``; ``m`` its sentence (left out for ok nodes)
``r``       the reference search there: ``v`` visited, ``p`` pruned, ``u`` unvisited
            (null: beyond the steps a cut replay kept)
``rv``      the value the reference returned (left out where it is ``s``); ``rw`` the
            window it searched with
``cut``     1 where the reference's cut-off prunes the edge from the parent
==========  ==================================================================

and ``divergence``, the first divergence's node (or null). Values are short texts.

The scripts get it in two parts: the drawing (:func:`drawing_document`: the columns of
:data:`DRAWN`, what the views draw and say of every node) when the page is read, and a
node's every key (:func:`node_document`, with its sentence whatever :data:`MESSAGES` says)
when it is opened.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from reference.feedback.verdicts import GOOD_VERDICTS
from reference.report import NodeReport, NodeVerdict, Report, Step, TreeCase
from reference.tree import Node, Tree
from reference.values import format_value

VALUE_CHARS = 24
"""The most characters of a value a node shows; longer ones (a student's odd return
value) are cut with an ellipsis."""
MESSAGES = 200
"""The most nodes whose verdict keeps its sentence (``m``), the first divergence's aside: a
search wrong everywhere would otherwise spend most of a big tree's document on sentences
the page can say from the verdict and the values."""
TEXT_CHARS = 300
"""The most characters of a verdict's texts kept for the details panel."""
GLYPHS: Mapping[str, str] = {
    "ok": "\u2713",
    "pruned": "\u2702",
    "extra": "+",
    "missed": "\u2212",
    "wrong_value": "\u2260",
    "wrong_bounds": "\u03b1\u03b2",
    "out_of_order": "\u21c5",
    "repeated": "2\u00d7",
    "not_observed": "?",
}
"""The short text telling each node verdict apart without colour, on the tree views and in
the legend (``student/_macros.html``); ``static/treeview.js`` reads it from the document."""
_KINDS = {"MAX": "max", "MIN": "min", "CHANCE": "chance", "LEAF": "leaf"}
DRAWN = ("n", "p", "k", "u", "q", "v", "s", "x", "r", "rv", "cut")
"""The keys of the drawing (:func:`drawing_document`): what the tree views need to draw
each node and to name it, its verdict and its values to a screen reader; the others
(positions, moves, texts, windows) come with a node's details, when it is opened."""


@dataclass
class TreeView:
    """One tree of a graded run as the feedback page shows it."""

    name: str
    hidden: bool
    verdict: str
    message: str
    position: int = 0
    """The tree's place in the report: its documents' address."""
    score: float | None = None
    max_score: float | None = None
    drawn: bool = False
    """Whether the tree views draw it (its version's analysis kept it whole)."""
    divergence: str | None = None
    """The first divergence's node, where it is drawn ("Go to first divergence")."""
    counts: dict[str, int] = field(default_factory=dict)
    case: TreeCase | None = None
    """The tree's case without its node verdicts and replay (they are fetched)."""
    replayed: bool = False
    """Whether it has a replay to step through."""


def value_text(value: object, limit: int = VALUE_CHARS) -> str | None:
    """A value as a node shows it: short, exact where it can be (3, -2.5, 7/3, +inf)."""
    if value is None:
        return None
    if isinstance(value, float):
        if math.isfinite(value) and value.is_integer() and abs(value) < 1e15:
            return str(int(value))
        text = "nan" if math.isnan(value) else f"{value:.6g}"
        return "+inf" if text == "inf" else text
    text = format_value(value) if isinstance(value, Fraction) else str(value)
    if text == "inf":
        text = "+inf"
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def _returned(steps: list[Step]) -> dict[str, str | None]:
    """The value each node's last exit returned (a leaf's evaluation where it has no exit)."""
    found: dict[str, str | None] = {}
    for step in steps:
        if step.event == "exit" or (step.event == "evaluate" and step.node not in found):
            found[step.node] = value_text(step.value)
    return found


def _reference(tree: Tree, case: TreeCase) -> dict[str, dict[str, Any]]:
    """What the reference search did at each node: visited (with its value and window),
    pruned (``cut`` where its cut-off prunes the edge) or unvisited."""
    if case.replay is None:
        return {}
    windows: dict[str, str] = {}
    cut: set[str] = set()
    for step in case.replay.reference:
        if step.event == "enter" and step.node not in windows:
            bounds = [
                f"{key} = {value_text(value)}"
                for key, value in (("alpha", step.alpha), ("beta", step.beta))
                if value is not None
            ]
            windows[step.node] = ", ".join(bounds)
        elif step.event == "exit":
            cut.update(step.pruned or ())
    returned = _returned(case.replay.reference)
    marks: dict[str, dict[str, Any]] = {}
    pruned: set[str] = set()
    for node in tree:  # preorder: a parent's mark is made before its children's
        parent = tree.parent(node.name)
        if node.name in cut or (parent is not None and parent.name in pruned):
            pruned.add(node.name)
            marks[node.name] = {"r": "p", "cut": 1} if node.name in cut else {"r": "p"}
        elif node.name in windows or node.name in returned:
            mark: dict[str, Any] = {"r": "v", "rv": returned.get(node.name)}
            if windows.get(node.name):
                mark["rw"] = windows[node.name]
            marks[node.name] = mark
        elif not case.replay.truncated:
            marks[node.name] = {"r": "u"}
        # else: beyond the replay's kept steps, nothing is known of the reference there.
    return marks


def _short(text: str | None) -> str | None:
    if not text:
        return None
    return text if len(text) <= TEXT_CHARS else text[: TEXT_CHARS - 1] + "\u2026"


def _student(row: NodeReport | None, returned: str | None, reference: str | None) -> dict[str, Any]:
    """The student's side of a node: verdict, the value returned, the expected one where
    it differs, and the verdict's texts."""
    if row is None:
        return {"s": returned}
    verdict = str(row.verdict)
    expected, actual = value_text(row.expected, TEXT_CHARS), value_text(row.actual, TEXT_CHARS)
    shown = returned
    if shown is None and row.verdict in (NodeVerdict.OK, NodeVerdict.WRONG_VALUE):
        shown = value_text(row.actual)
    wanted = None
    if row.verdict is NodeVerdict.WRONG_VALUE:
        wanted = value_text(row.expected)
    elif row.verdict not in GOOD_VERDICTS and reference is not None:
        wanted = reference
    part: dict[str, Any] = {"v": verdict, "s": shown, "x": wanted if wanted != shown else None}
    # What would repeat another key is left out: most nodes of a big tree are ok, and an
    # ok node's sentence says no more than its value and the interval it is allowed.
    part["e"] = None if expected in (shown, wanted) else expected
    part["c"] = None if actual == shown else actual
    part["m"] = None if row.verdict is NodeVerdict.OK else _short(row.message)
    return part


def _item(
    tree: Tree,
    node: Node,
    index: Mapping[str, int],
    row: NodeReport | None,
    returned: str | None,
    mark: Mapping[str, Any],
) -> dict[str, Any]:
    """One node's keys (see the module's docstring), those with a value: ``index`` gives
    each node's place in the preorder, ``row`` is its verdict, ``returned`` the value the
    student's search returned there and ``mark`` what the reference did there."""
    parent = tree.parent(node.name)
    item: dict[str, Any] = {"n": node.name, "k": _KINDS[str(node.kind)], "g": node.label}
    if parent is not None:
        item["p"] = index[parent.name]
        edge = next(edge for edge in parent.edges if edge.child == node.name)
        if edge.action and edge.action != node.name:
            item["a"] = edge.action[:VALUE_CHARS]
        if edge.probability is not None:
            item["q"] = format_value(edge.probability)
    if node.is_leaf:
        item["u"] = value_text(node.utility)
    elif node.heuristic is not None:
        item["h"] = value_text(node.heuristic)
    item.update(_student(row, returned, mark.get("rv")))
    item.update(mark)
    if item.get("rv") is not None and item["rv"] == item.get("s"):
        item["rv"] = None  # the same as the student's
    return {key: value for key, value in item.items() if value is not None}


def _divergence(tree: Tree, case: TreeCase) -> str | None:
    found = case.first_divergence
    return found.node if found is not None and found.node in tree else None


def tree_document(tree: Tree, case: TreeCase) -> dict[str, Any]:
    """The compact JSON document of ``tree`` with ``case``'s verdicts and both searches
    (see the module's docstring); the sentences of the first :data:`MESSAGES` wrong
    nodes only."""
    rows = {row.node: row for row in case.nodes or ()}
    student = _returned(case.replay.student) if case.replay is not None else {}
    reference = _reference(tree, case)
    index = {name: at for at, name in enumerate(tree.nodes)}
    nodes = [
        _item(tree, node, index, rows.get(node.name), student.get(node.name),
              reference.get(node.name, {}))
        for node in tree
    ]  # fmt: skip
    divergence = _divergence(tree, case)
    told = 0
    for item in nodes:
        if "m" in item and item["n"] != divergence:
            told += 1
            if told > MESSAGES:
                del item["m"]
    keys = sorted({key for item in nodes for key in item})
    return {
        "columns": {key: [item.get(key) for item in nodes] for key in keys},
        "divergence": divergence,
        "glyphs": dict(GLYPHS),
    }


def drawing_document(tree: Tree, case: TreeCase) -> dict[str, Any]:
    """The part of :func:`tree_document` the tree views draw from: the columns of
    :data:`DRAWN` only."""
    document = tree_document(tree, case)
    columns = document["columns"]
    document["columns"] = {key: columns[key] for key in DRAWN if key in columns}
    return document


def node_document(tree: Tree, case: TreeCase, at: int) -> dict[str, Any] | None:
    """Every key of the node at ``at`` in ``tree``'s preorder, and ``i``, its place: as
    ``{"nodes": [...]}``, in preorder, so that a subtree can be answered the same way
    (a subtree is the run of nodes from its root's place to the next node that is not in
    it). Its sentence is told whatever its rank among the wrong nodes. None: no such node.

    ``case`` needs only that node's verdict (``tree_case(..., node=...)``)."""
    names = list(tree.nodes)
    if not 0 <= at < len(names):
        return None
    index = {name: place for place, name in enumerate(names)}
    node = tree[names[at]]
    rows = {row.node: row for row in case.nodes or ()}
    student = _returned(case.replay.student) if case.replay is not None else {}
    mark = _reference(tree, case).get(node.name, {})
    item = _item(tree, node, index, rows.get(node.name), student.get(node.name), mark)
    return {"nodes": [{"i": at, **item}]}


def tree_views(
    report: Report, replayed: Sequence[bool], trees: Mapping[str, Tree]
) -> list[TreeView]:
    """The views of ``report``'s trees (a summary: without node verdicts and replays;
    ``replayed`` says which have one, by position); a public tree is drawn when ``trees``
    holds it (whole: a tree an analysis kept only the first levels of is not drawn)."""
    views = []
    for position, case in enumerate(report.cases):
        view = TreeView(case.name, case.hidden, case.verdict, case.message or "", position)
        if case.hidden:
            # A hidden tree shows whether it passed and an abstract reason, nothing else.
            views.append(view)
            continue
        view.score, view.max_score = case.score, case.max_score
        view.counts = dict(case.verdict_counts())
        view.case = case
        view.replayed = replayed[position]
        tree = trees.get(case.name)
        if tree is not None:
            view.drawn = True
            view.divergence = _divergence(tree, case)
        views.append(view)
    return views
