"""The step-through replay of a public tree: the student's search beside the reference's.

The worker stores both searches in each public case's ``replay`` (a
:class:`reference.report.Replay`): steps ``enter`` (with the window or depth),
``evaluate`` (a leaf's utility or a heuristic) and ``exit`` (the value returned; on the
reference side also the cut-off that ended the node early). Here they become sentences for
the page, and the reference's steps become the marks of its drawing.
"""

from __future__ import annotations

from typing import Any

from grader.web.treesvg import NodeMark
from reference.report import Step, TreeCase
from reference.tree import Tree

STEP_LIMIT = 2000
SIDES = ("student", "reference")


def _text(value: object) -> str | None:
    return None if value is None else str(value)[:200]


def describe(step: Step) -> str:
    """One step in words: ``enter C (alpha = 3, beta = +inf)``, ``C returns 2``, ..."""
    node = step.node
    if step.event == "enter":
        window = {"alpha": step.alpha, "beta": step.beta, "depth": step.depth}
        bounds = [f"{key} = {value}" for key, value in window.items() if value is not None]
        return f"enter {node}" + (f" ({', '.join(bounds)})" if bounds else "")
    if step.event == "evaluate":
        value = step.value
        return f"evaluate {node}: " + ("no value" if value is None else str(value))
    value = step.value
    text = f"{node} returns " + ("nothing usable" if value is None else str(value))
    if step.cutoff:
        pruned = ", ".join(step.pruned or [])
        text += f" at once, since {step.cutoff}" + (f" ({pruned} pruned)" if pruned else "")
    return text


def _steps(steps: list[Step]) -> list[dict[str, Any]]:
    return [
        {"node": step.node, "event": step.event, "text": describe(step)}
        for step in steps[:STEP_LIMIT]
    ]


def _place(step: dict[str, Any]) -> tuple[object, object]:
    return step["node"], step["event"]


def replay_data(case: TreeCase) -> dict[str, Any] | None:
    """What the page's script needs to step through a case's replay (None: no replay)."""
    replay = case.replay
    if replay is None:
        return None
    student, reference = _steps(replay.student), _steps(replay.reference)
    differs = None
    # A decision function's nested helpers are not observed: only the nodes it scores are,
    # so its steps cannot be lined up with the reference's.
    decision_style = bool(replay.decision_style)
    for index in range(0 if decision_style else max(len(student), len(reference))):
        mine = student[index] if index < len(student) else None
        theirs = reference[index] if index < len(reference) else None
        # Values are compared by the feedback; here, where the two searches part.
        if mine is None or theirs is None or _place(mine) != _place(theirs):
            differs = index
            break
    return {
        "student": student,
        "reference": reference,
        "truncated": replay.truncated,
        "differs": differs,
        "decision_style": decision_style,
    }


def reference_marks(tree: Tree, case: TreeCase) -> dict[str, NodeMark]:
    """Marks drawing the reference search of ``tree``: what it visited and returned, and
    the branches its cut-offs pruned."""
    if case.replay is None:
        return {}
    entered: dict[str, str] = {}
    returned: dict[str, str] = {}
    cut: set[str] = set()
    for step in case.replay.reference:
        if step.node not in tree:
            continue
        if step.event == "enter":
            bounds = [
                f"{key} = {value}"
                for key, value in (("alpha", step.alpha), ("beta", step.beta))
                if value
            ]
            entered.setdefault(step.node, ", ".join(bounds))
        elif step.event == "exit":
            returned[step.node] = _text(step.value) or "-"
            cut.update(name for name in step.pruned or [] if name in tree)
    marks: dict[str, NodeMark] = {}
    pruned: set[str] = set()
    for node in tree:  # preorder: a parent's mark is made before its children's
        parent = tree.parent(node.name)
        if node.name in cut or (parent is not None and parent.name in pruned):
            pruned.add(node.name)
            marks[node.name] = NodeMark(
                css_class="pruned",
                title=f"{node.name}: pruned by the reference search",
                cut=node.name in cut,
            )
        elif node.name in entered:
            window = f" (searched with {entered[node.name]})" if entered[node.name] else ""
            value = returned.get(node.name)
            marks[node.name] = NodeMark(
                css_class="visited",
                title=f"{node.name}: the reference search returns {value or '-'}{window}",
                label=None if node.is_leaf else value,
            )
        else:
            marks[node.name] = NodeMark(
                css_class="unvisited", title=f"{node.name}: not reached by the reference search"
            )
    return marks
