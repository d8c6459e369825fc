"""The step-through replay of a public tree: the student's search beside the reference's.

The worker stores both searches in each public case's ``replay`` (a
:class:`reference.report.Replay`): steps ``enter`` (with the window or depth),
``evaluate`` (a leaf's utility or a heuristic) and ``exit`` (the value returned; on the
reference side also the cut-off that ended the node early). Here they become sentences for
the page, and the reference's steps become the marks of its drawing.

The replay is shown as stored: the report was fitted to its limits once
(:func:`reference.reporting.limits.fit`: its steps, its values' texts), nothing is cut here.
"""

from __future__ import annotations

from typing import Any

from grader.web.treesvg import NodeMark
from reference.feedback.verdicts import GOOD_VERDICTS
from reference.report import Step, TreeCase
from reference.tree import Tree

SIDES = ("student", "reference")


def _text(value: object) -> str | None:
    return None if value is None else str(value)


Segment = tuple[str, str]
"""A piece of a step's sentence and what it tells (``alpha``, ``beta``, ``depth``,
``value``; ``""`` for the words around them), so the page can mark the part that differs."""


def segments(step: Step) -> list[Segment]:
    """One step in words, in pieces: ``enter C (`` ``alpha = 3`` ``, `` ``beta = +inf``
    ``)``; ``C returns `` ``2``; ..."""
    node = step.node
    if step.event == "enter":
        window = {"alpha": step.alpha, "beta": step.beta, "depth": step.depth}
        shown = [(key, f"{key} = {value}") for key, value in window.items() if value is not None]
        if not shown:
            return [("", f"enter {node}")]
        pieces: list[Segment] = [("", f"enter {node} (")]
        for position, piece in enumerate(shown):
            pieces += [("", ", ")] if position else []
            pieces.append(piece)
        return [*pieces, ("", ")")]
    value = step.value
    if step.event == "evaluate":
        return [("", f"evaluate {node}: "), ("value", "no value" if value is None else str(value))]
    pieces = [
        ("", f"{node} returns "),
        ("value", "nothing usable" if value is None else str(value)),
    ]
    if step.cutoff:
        pruned = ", ".join(step.pruned or [])
        pieces.append(
            ("", f" at once, since {step.cutoff}" + (f" ({pruned} pruned)" if pruned else ""))
        )
    return pieces


def describe(step: Step) -> str:
    """One step in words: ``enter C (alpha = 3, beta = +inf)``, ``C returns 2``, ..."""
    return "".join(text for _, text in segments(step))


WINDOW = ("alpha", "beta", "depth")
"""The parts of a step's window, compared where both searches give them."""
COMPARED = (*WINDOW, "value")


def _spans(pieces: list[Segment]) -> dict[str, list[int]]:
    """Where each told part (``alpha``, ``value``...) is in the sentence: [start, end]."""
    found: dict[str, list[int]] = {}
    start = 0
    for key, text in pieces:
        if key:
            found[key] = [start, start + len(text)]
        start += len(text)
    return found


def _steps(steps: list[Step]) -> list[dict[str, Any]]:
    """The steps as the page's script reads them (node, event, ``text``), with what is
    compared (``alpha`` ... ``value``) and where each part is in the text (``spans``),
    which are dropped before sending (:func:`_sent`)."""
    found = []
    for step in steps:
        pieces = segments(step)
        told = {
            key: _text(getattr(step, key)) for key in COMPARED if getattr(step, key) is not None
        }
        text = "".join(piece for _, piece in pieces)
        found.append(
            {"node": step.node, "event": step.event, "text": text, "spans": _spans(pieces), **told}
        )
    return found


def _sent(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{key: step[key] for key in ("node", "event", "text")} for step in steps]


def wrong_nodes(case: TreeCase) -> set[str] | None:
    """The nodes the feedback judges wrong (a verdict that earns no points), or None when
    that is not known: the search did not run to its end, or a report cut to its size left
    some wrong nodes out."""
    if case.nodes is None:
        return None
    if set(case.nodes_omitted or {}) - GOOD_VERDICTS:
        return None
    return {node.node for node in case.nodes if node.verdict not in GOOD_VERDICTS}


def differing_parts(
    mine: dict[str, Any] | None, theirs: dict[str, Any] | None, wrong: set[str] | None
) -> list[str]:
    """What differs between two steps at the same index: ``node`` and ``event`` (the
    searches part), else the window (``alpha``, ``beta``, ``depth``, compared where both
    give them) and ``value``. A window or value that differs in its text at a node the
    feedback judges good (a fail-hard value within the window, say) is no difference:
    ``wrong``, the nodes judged wrong, says which (None: every text difference counts)."""
    if mine is None or theirs is None:
        return ["node", "event"]
    parts = [key for key in ("node", "event") if mine[key] != theirs[key]]
    if parts:
        return parts
    if wrong is not None and mine["node"] not in wrong:
        return []
    for key in WINDOW:
        if key in mine and key in theirs and mine[key] != theirs[key]:
            parts.append(key)
    if mine.get("value") != theirs.get("value") and mine["event"] != "enter":
        parts.append("value")
    return parts


def replay_data(case: TreeCase) -> dict[str, Any] | None:
    """What the page's script needs to step through a case's replay (None: no replay).

    Each step pair is compared by node, event, window and value (:func:`differing_parts`);
    ``differs`` is the first pair that differs, ``parts`` what differs there, ``diffs`` the
    pairs at the same node and event that differ (by index: the parts and, for each side,
    where they are in its sentence), ``agrees``
    whether that step is at the node of the first divergence the feedback names (None when
    there is nothing to agree on), and ``why`` a sentence when it is not."""
    replay = case.replay
    if replay is None:
        return None
    student = _steps(replay.student)
    reference = _steps(_with_depths(replay.reference, replay.student))
    differs: int | None = None
    parts: list[str] = []
    # A decision function's nested helpers are not observed: only the nodes it scores are,
    # so its steps cannot be lined up with the reference's.
    decision_style = bool(replay.decision_style)
    wrong = wrong_nodes(case)
    diffs: dict[int, dict[str, Any]] = {}
    for index in range(0 if decision_style else max(len(student), len(reference))):
        mine = student[index] if index < len(student) else None
        theirs = reference[index] if index < len(reference) else None
        found = differing_parts(mine, theirs, wrong)
        if found and differs is None:
            differs, parts = index, found
        if found and mine is not None and theirs is not None and "node" not in found:
            # A window or a value: what differs and where it is in each side's sentence,
            # to be marked there. (The page's script sees for itself where the steps are
            # at different nodes or events: most steps, once the searches have parted.)
            diffs[index] = {"parts": found}
            for side, step in (("student", mine), ("reference", theirs)):
                diffs[index][side] = [step["spans"][key] for key in found if key in step["spans"]]
    divergence = case.first_divergence
    agrees: bool | None = None
    why = None
    if divergence is not None and not decision_style:
        at = set() if differs is None else _nodes_at(student, reference, differs)
        agrees = divergence.node in at
        if not agrees:
            why = _disagreement(divergence.node, differs, replay.truncated)
    return {
        "student": _sent(student),
        "reference": _sent(reference),
        "truncated": replay.truncated,
        "differs": differs,
        "parts": parts,
        "diffs": diffs,
        "divergence": None if divergence is None else divergence.node,
        "agrees": agrees,
        "why": why,
        "decision_style": decision_style,
    }


def _nodes_at(
    student: list[dict[str, Any]], reference: list[dict[str, Any]], index: int
) -> set[str]:
    """The nodes the step pair at ``index`` is about: each side's node and, where the
    searches part (another node entered, a node left early), the node open in both whose
    loop made the choice."""
    found = {side[index]["node"] for side in (student, reference) if index < len(side)}
    open_nodes: list[str] = []
    for step in student[:index]:
        if step["event"] == "enter":
            open_nodes.append(step["node"])
        elif step["event"] == "exit" and open_nodes and open_nodes[-1] == step["node"]:
            open_nodes.pop()
    mine = student[index] if index < len(student) else None
    theirs = reference[index] if index < len(reference) else None
    if open_nodes and (mine is None or theirs is None or mine["node"] != theirs["node"]):
        found.add(open_nodes[-1])
    return found


def _with_depths(reference: list[Step], student: list[Step]) -> list[Step]:
    """The reference's steps with the depth each node is searched with, where the
    student's search is depth-limited and the reference's steps do not say: the root is
    searched with the depth the student's root was given (the exercise's limit), each ply
    one less (the library's convention, which the feedback checks)."""
    root = student[0].depth if student and student[0].event == "enter" else None
    if root is None or any(step.depth is not None for step in reference):
        return reference
    steps = []
    ply = 0
    for step in reference:
        if step.event == "enter":
            steps.append(step.model_copy(update={"depth": root - ply}))
            ply += 1
        else:
            if step.event == "exit":
                ply -= 1
            steps.append(step)
    return steps


def _disagreement(node: str, differs: int | None, truncated: bool) -> str:
    """Why the replay's first different step is not at the divergence ``node``."""
    if differs is None and truncated:
        return (
            f"The replay was cut before your search reached {node}, where the feedback "
            "says it first differs."
        )
    if differs is None:
        return (
            f"Step by step, both searches look alike: they differ at {node} in what the "
            "feedback checks beyond the steps (the value or move at the end)."
        )
    return (
        f"The first different step is not at {node}, where the feedback says your search "
        "first differs: the feedback judges the whole search, the replay only the steps."
    )


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
