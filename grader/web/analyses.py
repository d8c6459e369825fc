"""A version's analysis on the instructors' pages: the preview built from the stored result,
the status its page polls while a worker does the work, and "run again" after a failure.

No page here expands a game or searches a tree: the worker did (see
:mod:`grader.services.analyses`); the pages draw what it stored.
"""

from __future__ import annotations

from flask import Blueprint, abort, flash, jsonify, redirect, render_template, request, url_for
from flask_wtf import FlaskForm
from markupsafe import Markup
from werkzeug.wrappers import Response

from grader.models import AnalysisState, Course, Exercise, ExerciseVersion, Role
from grader.services import analyses, authoring
from grader.services.exercise_store import outline_version
from grader.web.context import db_session, queue, role_required, settings, taught_exercise
from grader.web.score_rules import score_rules
from grader.web.treesvg import NodeMark
from grader.web.treesvg import stored_tree_svg as draw
from reference.problems import FileProblems
from reference.starter import entry_text

blueprint = Blueprint("analyses", __name__, url_prefix="/teach")

REFRESH_SECONDS = 3
"""How often a page without JavaScript reloads while its analysis runs."""


class ActionForm(FlaskForm):
    """A button that changes something ("run again"): the CSRF token only."""


def _exercise_and_version(exercise_id: int, version_id: int) -> tuple[Exercise, ExerciseVersion]:
    exercise = taught_exercise(exercise_id)
    version = db_session().get(ExerciseVersion, version_id)
    if version is None or version.exercise_id != exercise.id:
        abort(404)
    return exercise, version


@blueprint.route("/exercises/<int:exercise_id>/versions/<int:version_id>/analysis")
@role_required(Role.INSTRUCTOR)
def status(exercise_id: int, version_id: int) -> Response:
    """The analysis's state, stage and progress, as JSON (the preview page polls it)."""
    _exercise, version = _exercise_and_version(exercise_id, version_id)
    response = jsonify(analyses.status(analyses.shown(db_session(), version)))
    response.headers["Cache-Control"] = "no-store"
    return response


@blueprint.route(
    "/exercises/<int:exercise_id>/versions/<int:version_id>/analysis/again", methods=["POST"]
)
@role_required(Role.INSTRUCTOR)
def run_again(exercise_id: int, version_id: int) -> Response:
    exercise, version = _exercise_and_version(exercise_id, version_id)
    if not ActionForm().validate_on_submit():
        abort(400)
    session = db_session()
    row = analyses.request_analysis(session, version, queue())
    if analyses.run_again(session, row, queue()):
        flash("The analysis of this version runs again.", "info")
    else:
        flash("The analysis of this version has not failed: nothing to run again.", "info")
    return redirect(url_for("instructor.preview", exercise_id=exercise.id, version_id=version.id))


def preview_page(exercise: Exercise, version: ExerciseVersion) -> tuple[str, int]:
    """The preview of a version from its stored analysis (queued, to the page, while it has
    none): its progress while it runs, its problems, or its reference traces and
    hidden-tree check."""
    session = db_session()
    course = session.get(Course, exercise.course_id)
    try:
        outline = outline_version(settings(), exercise.slug, version)
    except FileProblems as error:
        # A version saved before the engine's rules changed may no longer load.
        page = render_template(
            "instructor/broken.html", exercise=exercise, version=version, problems=error.problems
        )
        return page, 200
    row, result = analyses.result_for(session, version)
    drawings: dict[str, Markup] = {}
    current: dict[str, int] = {}
    hidden_drawings: dict[str, Markup] = {}
    if result is not None:
        chosen_tree = request.args.get("tree", "")
        requested = request.args.get("step", "0")
        for trace in result.traces:
            step = 0
            if trace.name == chosen_tree and requested.isdigit():
                step = min(int(requested), max(len(trace.steps) - 1, 0))
            current[trace.name] = step
            focus = trace.steps[step].node if trace.steps else None
            drawings[trace.name] = draw(
                trace.drawing, _trace_marks(trace, focus), caption=f"tree {trace.name}"
            )
        if result.hidden is not None:
            hidden_drawings = {name: draw(tree, caption=name) for name, tree in result.hidden.trees}
    running = row.state in (AnalysisState.QUEUED, AnalysisState.RUNNING)
    return render_template(
        "instructor/preview.html",
        exercise=exercise,
        course=course,
        version=version,
        model=outline.rules,
        outline=outline,
        conventions=authoring.conventions(outline.rules.options),
        entry_text=entry_text(outline.rules),
        score_rules=score_rules(outline),
        analysis=row,
        running=running,
        refresh=REFRESH_SECONDS if running else None,
        status_url=url_for("analyses.status", exercise_id=exercise.id, version_id=version.id),
        result=result,
        traces=result.traces if result is not None else (),
        drawings=drawings,
        current=current,
        check=result.hidden if result is not None else None,
        hidden_drawings=hidden_drawings,
        is_current=exercise.current_version_id == version.id,
        form=ActionForm(),
    ), 200


def _trace_marks(trace: analyses.StoredTrace, focus: str | None) -> dict[str, NodeMark]:
    """Each drawn node with the value the reference backs up (or "pruned"); ``focus``
    stands out."""
    marks = {}
    for node in trace.drawing.tree:
        classes = []
        label = None  # a leaf shows its utility
        title = f"{node.name}: {node.kind}"
        if node.name in trace.values:
            title += f", returns {trace.values[node.name]}"
            if not node.is_leaf:
                label = trace.values[node.name]
        elif node.name in trace.pruned:
            classes.append("pruned")
            title += ", pruned"
        else:
            classes.append("unsearched")
            title += ", not searched"
        if node.name == focus:
            classes.append("current")
        marks[node.name] = NodeMark(" ".join(classes), title, label, node.name in trace.pruned)
    return marks


def publish_refusal(exercise: Exercise, version: ExerciseVersion) -> str | None:
    """Why ``version`` may not be published yet (its analysis is not done, or it found
    problems), or None. A published version's pages read its analysis: publishing one
    that is not done would leave students without its trees."""
    session = db_session()
    row = analyses.request_analysis(session, version, queue())
    if row.state in (AnalysisState.QUEUED, AnalysisState.RUNNING):
        return (
            "This version is still being analysed (its games expanded, its trees traced): "
            "publish it once the preview shows the result."
        )
    if row.state == AnalysisState.FAILED:
        return "The analysis of this version failed: run it again before publishing."
    result = analyses.stored_result(session, row)
    if result is not None and result.problems:
        return "This version has problems (listed on its preview): it cannot be published."
    return None
