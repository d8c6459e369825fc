"""The feedback of a graded run, tree by tree, as the submission page shows it: each public
tree drawn twice (the student's search, marked by verdict, and the reference's), with its
replay; each hidden tree's verdict and reason only."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup

from grader.web.replay import reference_marks, replay_data
from grader.web.treesvg import NodeMark, tree_svg
from reference.exercises.model import Exercise as ExerciseModel
from reference.report import NodeReport, Report, TreeCase, finite
from reference.tree import Tree
from reference.verdict_words import verdict_word


@dataclass
class TreeView:
    """One tree of a graded run as the feedback page shows it."""

    name: str
    hidden: bool
    verdict: str
    message: str
    score: float | None = None
    max_score: float | None = None
    drawing: Markup | None = None
    reference_drawing: Markup | None = None
    counts: dict[str, int] = field(default_factory=dict)
    case: TreeCase | None = None
    replay: dict[str, Any] | None = None


def verdict_marks(
    tree: Tree, rows: Mapping[str, NodeReport], divergence: str | None
) -> dict[str, NodeMark]:
    """Marks colouring each node by its verdict, values and messages in its hover text."""
    marks: dict[str, NodeMark] = {}
    for node in tree:
        row = rows.get(node.name)
        if row is None:
            continue
        verdict = str(row.verdict)
        parent = tree.parent(node.name)
        parent_row = rows.get(parent.name) if parent is not None else None
        parent_pruned = parent_row is not None and parent_row.verdict == "pruned"
        lines = [f"{node.name} ({node.kind}): {verdict_word(verdict)}"]
        for key, value in (("expected", row.expected), ("actual", row.actual)):
            if value is not None:
                lines.append(f"{key}: {finite(value)}")
        if row.message:
            lines.append(row.message)
        actual = None if row.actual is None else finite(row.actual)
        label = None
        if not node.is_leaf and verdict in ("ok", "wrong_value") and actual is not None:
            label = str(actual)[:8]
        classes = f"verdict-{verdict}"
        if node.name == divergence:
            classes += " divergence"
        marks[node.name] = NodeMark(
            css_class=classes,
            title="\n".join(lines),
            label=label,
            cut=verdict == "pruned" and not parent_pruned,
        )
    return marks


def tree_views(report: Report, model: ExerciseModel | None) -> list[TreeView]:
    views = []
    for case in report.cases:
        view = TreeView(case.name, case.hidden, case.verdict, case.message or "")
        if case.hidden:
            # A hidden tree shows whether it passed and an abstract reason, nothing else.
            views.append(view)
            continue
        view.score, view.max_score = case.score, case.max_score
        view.counts = dict(case.verdict_counts())
        view.case = case
        view.replay = replay_data(case)
        entry = None
        if model is not None:
            entry = next((tree for tree in model.trees if tree.name == case.name), None)
        if entry is not None:
            found = case.first_divergence
            divergence = found.node if found is not None else None
            rows = {node.node: node for node in case.nodes or ()}
            view.drawing = tree_svg(
                entry.tree,
                verdict_marks(entry.tree, rows, divergence),
                caption=f"your search of {entry.name}",
            )
            if view.replay is not None:
                view.reference_drawing = tree_svg(
                    entry.tree,
                    reference_marks(entry.tree, case),
                    caption=f"the reference search of {entry.name}",
                )
        views.append(view)
    return views
