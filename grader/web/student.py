"""The students' pages: their exercises, an exercise with its submit form, a submission
with its live status and, once graded, its feedback tree by tree."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, Response, abort, jsonify, redirect, render_template, request, url_for
from flask_login import current_user, login_required
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from markupsafe import Markup, escape
from sqlalchemy import select
from sqlalchemy.orm import defer, joinedload, selectinload
from werkzeug.wrappers import Response as BaseResponse
from wtforms import TextAreaField

from grader.models import (
    Course,
    Exercise,
    ExerciseStatus,
    ExerciseVersion,
    GradeOverride,
    GradingRun,
    Membership,
    Role,
    Section,
    Submission,
    User,
    utcnow,
)
from grader.models.base import aware
from grader.models.submissions import SubmissionKind
from grader.services import analyses, notices, overrides, permissions, sections
from grader.services.exercise_store import outline_version
from grader.services.grades import AttemptScore, grades_of_student, student_grade
from grader.services.runs import queue_position
from grader.services.submissions import (
    SubmissionRefused,
    decode_source,
    standing,
    submit,
)
from grader.web.context import db_session, queue, settings
from grader.web.deadlines import due_view, due_views
from grader.web.submission_view import FINISHED, feedback_parts
from grader.web.treesvg import stored_tree_svg
from reference.algorithms import ALGORITHMS
from reference.caching import IdentityCache
from reference.exercises.model import Exercise as ExerciseModel
from reference.report import OUTPUT_CAP, STDOUT_KEPT
from reference.starter import entry_parameters, starter_source
from reference.verdict_words import verdict_word

blueprint = Blueprint("student", __name__)


GAME_INTERFACE = (
    ("game.actions(state)", "the legal actions, left to right"),
    ("game.result(state, action)", "the state an action leads to"),
    ("game.terminal_test(state)", "True when the game is over at this state"),
    ("game.utility(state, player)", 'the value of a finished game for "MAX" or "MIN"'),
    ("game.to_move(state)", '"MAX", "MIN" or "CHANCE": who moves at this state'),
    ("game.successors(state)", "(action, state) pairs, in search order"),
    ("game.eval(state)", "the heuristic value of a state (depth-limited search)"),
    ("game.chance_outcomes(state)", "(action, probability) pairs of a chance node"),
)


class SubmitForm(FlaskForm):
    upload = FileField("Upload your Python file")
    pasted = TextAreaField("or write or paste your code")


class ResubmitForm(FlaskForm):
    """Submit a check's code as an attempt (the form holds nothing but its CSRF token)."""


# -- who may see what ------------------------------------------------------------------


def _visible_exercise(exercise_id: int) -> Exercise:
    """The exercise if the current user may see it, else 404 (never 403: no hints)."""
    # With its version and the user's membership of its course, in one statement.
    found = (
        db_session()
        .execute(
            select(Exercise, Membership.role)
            .outerjoin(
                Membership,
                (Membership.course_id == Exercise.course_id)
                & (Membership.user_id == current_user.id),
            )
            .where(Exercise.id == exercise_id)
            .options(joinedload(Exercise.current_version))
        )
        .first()
    )
    if found is None or found[0].current_version is None:
        abort(404)
    exercise, membership_role = found
    role = permissions.role_in_course(current_user, membership_role)
    # An archived exercise opens (read-only) for the students who submitted to it.
    submitted = (
        exercise.status == ExerciseStatus.ARCHIVED
        and role == Role.STUDENT
        and permissions.student_submitted(db_session(), current_user, exercise)
    )
    if not permissions.may_see_exercise(exercise, role, submitted=submitted):
        abort(404)
    return exercise


def _visible_submission(submission_id: int) -> tuple[Submission, Exercise]:
    """The submission if it is the current user's (or they teach its course), else 404."""
    submission = db_session().get(Submission, submission_id)
    if submission is None:
        abort(404)
    exercise = db_session().get(Exercise, submission.exercise_id)
    if exercise is None:
        abort(404)
    if not permissions.may_see_submission(db_session(), current_user, submission, exercise):
        abort(404)
    return submission, exercise


# -- the exercise list -----------------------------------------------------------------


@dataclass
class ExerciseResults:
    """A student's results on one exercise."""

    attempts: int = 0
    best: float | None = None
    max_score: float | None = None
    latest: str | None = None
    overridden: bool = False


def _standings(user_id: int, exercise_ids: list[int]) -> dict[int, ExerciseResults]:
    submissions = db_session().scalars(
        select(Submission)
        .where(
            Submission.user_id == user_id,
            Submission.exercise_id.in_(exercise_ids),
            Submission.kind == SubmissionKind.ATTEMPT,
        )
        .order_by(Submission.id)
        .options(selectinload(Submission.runs))
    )
    found: dict[int, ExerciseResults] = {}
    for submission in submissions:
        standing = found.setdefault(submission.exercise_id, ExerciseResults())
        standing.attempts += 1
        run = submission.latest_run
        if run is None:
            continue
        standing.latest = run.verdict or run.state
        if run.score is not None and (standing.best is None or run.score > standing.best):
            standing.best, standing.max_score = run.score, run.max_score
    # An instructor's grade is the grade while it stands.
    for override in db_session().scalars(
        select(GradeOverride).where(
            GradeOverride.user_id == user_id, GradeOverride.exercise_id.in_(exercise_ids)
        )
    ):
        standing = found.setdefault(override.exercise_id, ExerciseResults())
        standing.best, standing.max_score = override.score, override.max_score
        standing.overridden = True
    return found


@blueprint.route("/")
@login_required
def home() -> str:
    session = db_session()
    courses = session.scalars(
        select(Course)
        .join(Membership, Membership.course_id == Course.id)
        .where(Membership.user_id == current_user.id)
        .order_by(Course.title, Course.id)
    ).all()
    course_ids = [course.id for course in courses]
    # Published exercises, and the archived ones the student submitted to (listed apart).
    mine = select(Submission.exercise_id).where(Submission.user_id == current_user.id)
    exercises = session.scalars(
        select(Exercise).where(
            Exercise.course_id.in_(course_ids),
            Exercise.current_version_id.is_not(None),
            (Exercise.status == ExerciseStatus.PUBLISHED)
            | ((Exercise.status == ExerciseStatus.ARCHIVED) & Exercise.id.in_(mine)),
        )
    ).all()
    course_sections = session.scalars(
        select(Section).where(Section.course_id.in_(course_ids)).order_by(Section.position)
    ).all()
    by_course: dict[int, list[sections.Group[Exercise]]] = {}
    archived: dict[int, list[Exercise]] = {}
    for course in courses:
        listed = [e for e in exercises if e.course_id == course.id and e.published]
        by_course[course.id] = sections.grouped(
            [section for section in course_sections if section.course_id == course.id],
            listed,
            lambda exercise: exercise,
        )
        archived[course.id] = sorted(
            (e for e in exercises if e.course_id == course.id and not e.published),
            key=sections.exercise_order,
        )
    standings = _standings(current_user.id, [exercise.id for exercise in exercises])
    # Where a due date applies, the best score is the best after the late policy.
    dated = [e for e in exercises if e.id in standings and e.due_at is not None]
    for exercise_id, grade in grades_of_student(session, dated, current_user.id).items():
        standings[exercise_id].best = grade.score
        standings[exercise_id].max_score = grade.max_score
    return render_template(
        "student/home.html",
        courses=courses,
        by_course=by_course,
        archived=archived,
        standings=standings,
        unseen=notices.unseen_counts(session, current_user.id),
        due=due_views(session, list(exercises), current_user.id),
    )


# -- an exercise and submitting to it --------------------------------------------------

_CODE = re.compile(r"`([^`\n]+)`")


def statement_html(text: str) -> Markup:
    """A statement as paragraphs: blank lines separate them, indented blocks stay as they
    are (a board), `code` is set as code; everything else is escaped."""
    parts = []
    for block in re.split(r"\n\s*\n", text.strip()):
        lines = block.splitlines()
        if lines and all(line.startswith("    ") or not line.strip() for line in lines):
            shown = "\n".join(line[4:] for line in lines)
            parts.append(f'<pre class="statement-block">{escape(shown)}</pre>')
        elif block.strip():
            escaped = str(escape(" ".join(line.strip() for line in lines)))
            parts.append("<p>" + _CODE.sub(r"<code>\1</code>", escaped) + "</p>")
    return Markup("\n".join(parts))


def conventions(model: ExerciseModel) -> list[tuple[str, str]]:
    """The rules a submission is graded by, as (name, explanation) rows."""
    rows = [("Algorithm", f"{model.algorithm}: {ALGORITHMS[model.algorithm].summary}")]
    parameters = entry_parameters(model)
    rows.append(("Entry points", ", ".join(f"{name}({parameters})" for name in model.entry_points)))
    if ALGORITHMS[model.algorithm].windowed:
        if model.options.prune_on_equality:
            rule = "on equality (AIMA): MAX returns when v >= beta, MIN when v <= alpha"
        else:
            rule = "strict (CS188): MAX returns when v > beta, MIN when v < alpha"
        rows.append(("Pruning", rule))
        rows.append(("Root window", "alpha = -inf, beta = +inf"))
    rows.append(("Order", f"children are searched {model.options.order}"))
    if model.options.depth_limit is not None:
        rows.append(
            (
                "Depth limit",
                f"the root gets depth {model.options.depth_limit}, counting down; "
                "at 0 a node is scored by game.eval(state)",
            )
        )
    limits = model.limits
    rows.append(
        (
            "Limits per tree",
            f"{limits.cpu_seconds:g} s of CPU, {limits.wall_seconds:g} s in all, "
            f"{limits.memory_mb} MB of memory",
        )
    )
    scoring = model.scoring
    rows.append(
        (
            "Scoring per tree",
            f"root value {scoring.value}, decision {scoring.decision}, "
            f"nodes {scoring.nodes} (out of {scoring.total})",
        )
    )
    return rows


def _model(exercise: Exercise, version: ExerciseVersion | None = None) -> ExerciseModel:
    """The rules of the exercise's version (its trees are not in it: a page draws them
    from the version's analysis, never expanding a game in a request)."""
    version = version or exercise.current_version
    if version is None:
        abort(404)
    return outline_version(settings(), exercise.slug, version).rules


def _analysis(version: ExerciseVersion | None) -> analyses.AnalysisResult | None:
    """The stored analysis of ``version`` (requested when there is none), None until done."""
    if version is None:
        return None
    return analyses.result_for(db_session(), version, queue())[1]


ATTEMPTS_SHOWN = 20
"""Earlier attempts listed on a page, the most recent first (each keeps its number)."""


def _attempts(user_id: int, exercise_id: int) -> list[Submission]:
    # In one statement, without the sources and reports the list does not show.
    return list(
        db_session()
        .scalars(
            select(Submission)
            .where(
                Submission.user_id == user_id,
                Submission.exercise_id == exercise_id,
                Submission.kind == SubmissionKind.ATTEMPT,
            )
            .order_by(Submission.id.desc())
            .limit(ATTEMPTS_SHOWN)
            .options(
                defer(Submission.source),
                joinedload(Submission.runs).load_only(
                    GradingRun.state,
                    GradingRun.verdict,
                    GradingRun.score,
                    GradingRun.max_score,
                    GradingRun.counted,
                ),
            )
        )
        .unique()
    )


def _scores(exercise: Exercise, user_id: int) -> dict[int, AttemptScore]:
    """Each attempt's score after the late policy, by submission id."""
    grade = student_grade(db_session(), exercise, user_id)
    return {attempt.submission_id: attempt for attempt in grade.attempts}


@dataclass(frozen=True, slots=True)
class _Fixed:
    """The parts of an exercise page that only its version decides."""

    trees: list[tuple[str, Markup]]
    statement: Markup
    conventions: list[tuple[str, str]]


_FIXED_KEPT = 64
_fixed: IdentityCache[dict[str, _Fixed]] = IdentityCache(_FIXED_KEPT)
"""Each exercise model's fixed parts, by the statement shown with it (one in practice)."""


def _fixed_parts(
    model: ExerciseModel, result: analyses.AnalysisResult | None, statement: str
) -> _Fixed:
    """The drawn trees (from the version's analysis ``result``), statement and conventions
    of ``model`` (neither object is changed once made: the parts are made once per model,
    result and statement)."""
    kept = _fixed.get(dict, model, result)
    hit = kept.get(statement)
    if hit is not None:
        return hit
    traces = () if result is None else result.traces
    fixed = _Fixed(
        [(trace.name, stored_tree_svg(trace.drawing, caption=trace.name)) for trace in traces],
        statement_html(statement),
        conventions(model),
    )
    return kept.setdefault(statement, fixed)


def _exercise_page(
    exercise: Exercise,
    form: SubmitForm | None = None,
    *,
    refusal: str | None = None,
    refused_kind: SubmissionKind = SubmissionKind.ATTEMPT,
    status: int = 200,
) -> tuple[str, int]:
    model = _model(exercise)
    session = db_session()
    version = exercise.current_version
    result = _analysis(version)
    fixed = _fixed_parts(model, result, (version.statement if version else "") or model.statement)
    user_id = current_user.id
    checks = standing(session, settings(), user_id, exercise.id, kind=SubmissionKind.CHECK)
    shown = notices.for_exercise(session, user_id, exercise.id)
    notices.mark_seen(session, shown)
    page = render_template(
        "student/exercise.html",
        exercise=exercise,
        model=model,
        statement=fixed.statement,
        conventions=fixed.conventions,
        interface=GAME_INTERFACE,
        trees=fixed.trees,
        trees_pending=result is None,
        limits=model.limits,
        output_kept=STDOUT_KEPT,
        output_cap=OUTPUT_CAP,
        upload_limit=settings().upload_limit_bytes,
        form=form or SubmitForm(),
        refusal=refusal,
        refused_check=refused_kind == SubmissionKind.CHECK,
        next_allowed=standing(session, settings(), user_id, exercise.id).next_allowed,
        next_check=checks.next_allowed,
        checks_per_hour=settings().checks_per_hour,
        attempts=_attempts(user_id, exercise.id),
        due=due_view(session, exercise, user_id),
        scores=_scores(exercise, user_id),
        override=overrides.standing(session, exercise.id, user_id),
        notices=shown,
        open_for_submissions=permissions.may_submit_to(exercise),
    )
    return page, status


@blueprint.route("/exercises/<int:exercise_id>")
@login_required
def exercise(exercise_id: int) -> tuple[str, int]:
    found = _visible_exercise(exercise_id)
    form = SubmitForm()
    draft = request.args.get("draft", type=int)
    if draft is not None:
        # Back from a check or an attempt: its code in the editor (the student's own only).
        earlier = db_session().get(Submission, draft)
        if (
            earlier is not None
            and earlier.user_id == current_user.id
            and earlier.exercise_id == found.id
        ):
            form.pasted.data = earlier.source
    return _exercise_page(found, form)


@blueprint.route("/exercises/<int:exercise_id>/starter.py")
@login_required
def starter(exercise_id: int) -> Response:
    found = _visible_exercise(exercise_id)
    response = Response(starter_source(_model(found)), mimetype="text/x-python")
    response.headers["Content-Disposition"] = f'attachment; filename="{found.slug}.py"'
    return response


def _submitted_file(form: SubmitForm) -> tuple[str, bytes]:
    upload = request.files.get(form.upload.name)
    if upload is not None and upload.filename:
        return upload.filename, upload.read()
    pasted = (form.pasted.data or "").replace("\r\n", "\n")
    return "pasted.py", pasted.encode("utf-8")


def _accept(
    found: Exercise, form: SubmitForm, filename: str, data: bytes, kind: SubmissionKind
) -> BaseResponse:
    """Submit ``data`` as a ``kind`` (an attempt or a check) and go to its page; or the
    exercise page again, saying why it was refused."""
    session = db_session()
    try:
        source = decode_source(data, settings().upload_limit_bytes)
        user = session.get(User, current_user.id)
        assert user is not None
        submission = submit(session, settings(), user, found, filename, source, kind=kind)
    except SubmissionRefused as refused:
        session.rollback()
        page, status = _exercise_page(
            found, form, refusal=refused.message, refused_kind=kind, status=refused.status
        )
        response = Response(page, status=status)
        if refused.retry_at is not None:
            wait = (aware(refused.retry_at) - utcnow()).total_seconds()
            response.headers["Retry-After"] = str(max(int(wait) + 1, 1))
        return response
    queue().send_after_commit(session, [submission.runs[0].id])
    if found.current_version is not None:
        # Its feedback draws the trees of the version's analysis: asked for now if a
        # version published before analyses existed has none.
        analyses.request_analysis(session, found.current_version, queue())
    return redirect(url_for("student.submission", submission_id=submission.id))


@blueprint.route("/exercises/<int:exercise_id>/submissions", methods=["POST"])
@login_required
def submit_source(exercise_id: int) -> BaseResponse:
    return _posted(exercise_id, SubmissionKind.ATTEMPT)


@blueprint.route("/exercises/<int:exercise_id>/checks", methods=["POST"])
@login_required
def check_source(exercise_id: int) -> BaseResponse:
    """Grade a draft on the public trees only: a check, not an attempt."""
    return _posted(exercise_id, SubmissionKind.CHECK)


def _posted(exercise_id: int, kind: SubmissionKind) -> BaseResponse:
    """The exercise's submit form, posted as a submission of ``kind``."""
    found = _visible_exercise(exercise_id)
    form = SubmitForm()
    if not form.validate_on_submit():
        abort(400)
    filename, data = _submitted_file(form)
    return _accept(found, form, filename, data, kind)


@blueprint.route("/submissions/<int:submission_id>/attempt", methods=["POST"])
@login_required
def submit_checked(submission_id: int) -> BaseResponse:
    """Submit the code of one of the student's checks as an attempt."""
    checked, found = _visible_submission(submission_id)
    if not checked.is_check or checked.user_id != current_user.id:
        abort(404)
    if not ResubmitForm().validate_on_submit():
        abort(400)
    form = SubmitForm(formdata=None)
    form.pasted.data = checked.source
    data = checked.source.encode("utf-8")
    return _accept(found, form, checked.filename, data, SubmissionKind.ATTEMPT)


# -- a submission ----------------------------------------------------------------------


def _status(submission: Submission) -> dict[str, Any]:
    run = submission.latest_run
    if run is None:
        return {"state": "none", "position": None, "verdict": None, "score": None,
                "max_score": None, "feedback_url": None}  # fmt: skip
    finished = run.state in FINISHED
    url = url_for("student.submission", submission_id=submission.id) + "#feedback"
    return {
        "state": run.state,
        "position": queue_position(db_session(), run),
        "verdict": run.verdict,
        "score": run.score,
        "max_score": run.max_score,
        "feedback_url": url if finished else None,
    }


@blueprint.route("/submissions/<int:submission_id>")
@login_required
def submission(submission_id: int) -> str:
    found, exercise_ = _visible_submission(submission_id)
    session = db_session()
    own = found.user_id == current_user.id
    shown = notices.for_exercise(session, found.user_id, exercise_.id) if own else []
    notices.mark_seen(session, shown)
    role = permissions.course_role(session, current_user, exercise_.course_id)
    open_for_submissions = permissions.may_submit_to(exercise_)
    return render_template(
        "student/submission.html",
        **feedback_parts(session, settings(), found, exercise_),
        status=_status(found),
        attempts=_attempts(found.user_id, found.exercise_id),
        scores=_scores(exercise_, found.user_id),
        resubmit=ResubmitForm() if found.is_check and own and open_for_submissions else None,
        override=overrides.standing(session, found.exercise_id, found.user_id),
        notices=shown,
        open_for_submissions=open_for_submissions,
        # A hidden exercise's page is closed to its students; their submissions are not.
        exercise_listed=permissions.may_see_exercise(exercise_, role, submitted=own),
    )


@blueprint.route("/submissions/<int:submission_id>/status")
@login_required
def submission_status(submission_id: int) -> Response:
    found, _exercise = _visible_submission(submission_id)
    response = jsonify(_status(found))
    response.headers["Cache-Control"] = "no-store"
    return response


blueprint.add_app_template_filter(verdict_word, "verdict_word")


@blueprint.app_template_filter("moment")
def moment(value: datetime | None) -> Markup:
    """A time as every page shows it: in UTC from the server, in the viewer's time zone
    once ``localtime.js`` has run (the UTC text stays as the title)."""
    if value is None:
        return Markup("")
    value = aware(value).astimezone(UTC)
    iso = value.isoformat(timespec="seconds").replace("+00:00", "Z")
    return Markup(f'<time datetime="{iso}" data-local>{value:%Y-%m-%d %H:%M:%S} UTC</time>')
