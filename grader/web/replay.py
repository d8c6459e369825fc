"""The step-through replay of a public tree: the student's search beside the reference's.

The worker stores both searches in each public case's ``replay`` entry (see
:mod:`worker.grading`): steps ``enter`` (with the window or depth), ``evaluate`` (a leaf's
utility or a heuristic) and ``exit`` (the value returned; on the reference side also the
cut-off that ended the node early). Here they become sentences for the page, and the
reference's steps become the marks of its drawing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from grader.web.treesvg import NodeMark
from reference.tree import Tree

STEP_LIMIT = 2000
SIDES = ("student", "reference")


def _text(value: object) -> str | None:
    return None if value is None else str(value)[:200]


def describe(step: Mapping[str, Any]) -> str:
    """One step in words: ``enter C (alpha = 3, beta = +inf)``, ``C returns 2``, ..."""
    node = str(step.get("node", "?"))
    event = step.get("event")
    if event == "enter":
        bounds = [
            f"{key} = {step[key]}"
            for key in ("alpha", "beta", "depth")
            if step.get(key) is not None
        ]
        return f"enter {node}" + (f" ({', '.join(bounds)})" if bounds else "")
    if event == "evaluate":
        value = step.get("value")
        return f"evaluate {node}: " + ("no value" if value is None else str(value))
    if event == "exit":
        value = step.get("value")
        text = f"{node} returns " + ("nothing usable" if value is None else str(value))
        if step.get("cutoff"):
            pruned = ", ".join(str(name) for name in step.get("pruned") or [])
            text += f" at once, since {step['cutoff']}" + (f" ({pruned} pruned)" if pruned else "")
        return text
    return f"{event} {node}"


def _steps(raw: object) -> list[dict[str, Any]]:
    if not isinstance(raw, list):
        return []
    steps = []
    for step in raw[:STEP_LIMIT]:
        if isinstance(step, dict) and isinstance(step.get("node"), str):
            steps.append({"node": step["node"], "event": step.get("event"), "text": describe(step)})
    return steps


def _place(step: Mapping[str, Any]) -> tuple[object, object]:
    return step["node"], step["event"]


def replay_data(case: Mapping[str, Any]) -> dict[str, Any] | None:
    """What the page's script needs to step through a case's replay (None: no replay)."""
    raw = case.get("replay")
    if not isinstance(raw, dict):
        return None
    student, reference = _steps(raw.get("student")), _steps(raw.get("reference"))
    differs = None
    # A decision function's nested helpers are not observed: only the nodes it scores are,
    # so its steps cannot be lined up with the reference's.
    decision_style = bool(raw.get("decision_style"))
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
        "truncated": bool(raw.get("truncated")),
        "differs": differs,
        "decision_style": decision_style,
    }


def reference_marks(tree: Tree, case: Mapping[str, Any]) -> dict[str, NodeMark]:
    """Marks drawing the reference search of ``tree``: what it visited and returned, and
    the branches its cut-offs pruned."""
    raw = case.get("replay")
    steps = raw.get("reference") if isinstance(raw, dict) else None
    if not isinstance(steps, list):
        return {}
    entered: dict[str, str] = {}
    returned: dict[str, str] = {}
    cut: set[str] = set()
    for step in steps:
        if not isinstance(step, dict) or step.get("node") not in tree:
            continue
        node = step["node"]
        if step.get("event") == "enter":
            bounds = [f"{key} = {step[key]}" for key in ("alpha", "beta") if step.get(key)]
            entered.setdefault(node, ", ".join(bounds))
        elif step.get("event") == "exit":
            returned[node] = _text(step.get("value")) or "-"
            cut.update(name for name in step.get("pruned") or [] if name in tree)
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
