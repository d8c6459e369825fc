"""The JSON documents the feedback page's scripts fetch for one public tree of a graded run:
its drawing, one node's details (see :mod:`grader.web.feedback`) and its replay (see
:mod:`grader.web.replay`). The page holds none of them, so that its answer costs the
same whatever the size of its trees.

They are addressed by the submission, the run and the tree's position in the report
(``/submissions/<id>/runs/<run>/trees/<position>``, ``.../nodes/<index>``,
``.../replay``), and opened to whoever may open the submission's page (its student, its
course's instructors: ``student_access.visible_submission``); anything else, a hidden
tree included, is not found.

A graded run's documents never change, so each has an ETag made of what it is built from
(the run, the tree, the analysis that kept the drawn tree, :data:`FORMAT`), known before
it is built: a browser that has one asks again with it and is answered "not modified" at
the cost of the access check. They are never used unasked (``no-cache``): who may read
them is checked at every use, and two people sharing a browser never read each other's.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Response, abort, request
from sqlalchemy.orm import Session

from grader.models import ExerciseVersion, GradingRun, Submission, TreeResult
from grader.services import analyses, report_parts
from grader.web.context import db_session
from grader.web.feedback import drawing_document, node_document
from grader.web.replay import replay_data
from reference.tree import Tree

FORMAT = "1"
"""The documents' form, part of their ETags: change it with what they hold, so that the
browsers that kept the former ones fetch them again."""
CACHE_CONTROL = "private, no-cache"
"""Kept by the browser only, and used only once the server has checked who asks."""


def drawn_trees(session: Session, run: GradingRun) -> tuple[dict[str, Tree], str]:
    """The public trees of ``run``'s version that its analysis kept whole, by name (none
    until it is done: a page never expands a game), and what tells that analysis apart
    (for the ETags)."""
    version = session.get(ExerciseVersion, run.exercise_version_id)
    if version is None:
        return {}, ""
    row, result = analyses.result_for(session, version)
    if result is None:
        return {}, ""
    trees = {name: kept.tree for name, kept in result.drawings().items() if kept.whole}
    return trees, f"{row.version_id}@{row.finished_at.isoformat() if row.finished_at else ''}"


@dataclass(frozen=True, slots=True)
class Found:
    """A public tree of a graded run, as its documents are built from it."""

    session: Session
    run: GradingRun
    row: TreeResult
    tree: Tree | None
    """The tree drawn, or None while its version's analysis is not done (or kept only its
    first levels)."""
    analysis: str

    def etag(self, document: str) -> str:
        return f"{FORMAT}-{document}-{self.run.id}-{self.row.position}-{self.analysis}"


def found(submission: Submission, run_id: int, position: int) -> Found:
    """Run ``run_id`` of ``submission`` (which the user may open) and its public tree at
    ``position``; 404 for anything else: another submission's run, one not graded, a
    hidden tree."""
    session = db_session()
    run = session.get(GradingRun, run_id)
    if run is None or run.submission_id != submission.id:
        abort(404)
    row = report_parts.public_tree(session, run, position)
    if row is None:
        abort(404)
    trees, analysis = drawn_trees(session, run)
    return Found(session, run, row, trees.get(row.name), analysis)


def _answer(etag: str, build: Callable[[], Any]) -> Response:
    """The document ``build`` makes, or "not modified" when the browser has it already."""
    if etag in request.if_none_match:
        response = Response(status=304)
    else:
        text = json.dumps(build(), ensure_ascii=False, separators=(",", ":"))
        response = Response(text, mimetype="application/json")
    response.set_etag(etag)
    response.headers["Cache-Control"] = CACHE_CONTROL
    response.vary.add("Cookie")
    return response


def drawing(found: Found) -> Response:
    """The tree's drawing (:func:`grader.web.feedback.drawing_document`); 404 while the
    tree is not drawn."""
    tree = found.tree
    if tree is None:
        abort(404)
    return _answer(
        found.etag("drawing"),
        lambda: drawing_document(tree, report_parts.tree_case(found.session, found.run, found.row)),
    )


def node(found: Found, index: int) -> Response:
    """The details of the node at ``index`` in the drawn tree's preorder
    (:func:`grader.web.feedback.node_document`); 404 while the tree is not drawn, or for
    no such node."""
    tree = found.tree
    if tree is None or not 0 <= index < len(tree):
        abort(404)
    name = list(tree.nodes)[index]

    def build() -> Any:
        case = report_parts.tree_case(found.session, found.run, found.row, node=name)
        return node_document(tree, case, index)

    return _answer(found.etag(f"node{index}"), build)


def replay(found: Found) -> Response:
    """The tree's replay as the page steps through it (:func:`grader.web.replay.replay_data`);
    404 for a tree without one."""
    stored = (found.run.details or {}).get("cases", [])
    if found.row.position >= len(stored) or stored[found.row.position].get("replay") is None:
        abort(404)
    return _answer(
        found.etag("replay"),
        lambda: replay_data(report_parts.tree_case(found.session, found.run, found.row)),
    )
