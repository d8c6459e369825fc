"""What a submission's page shows of it, for its student and for the course's instructors
alike: the run that counts, the code with its marked lines, and once graded the feedback
tree by tree (``templates/student/submission.html`` and its partials draw them)."""

from __future__ import annotations

from typing import Any

from flask import url_for
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from grader.config import Settings
from grader.models import (
    Exercise,
    ExerciseVersion,
    GradingRun,
    RunState,
    Submission,
    TreeResult,
)
from grader.services import analyses, report_parts
from grader.services.exercise_store import outline_version
from grader.services.runs import queue_position
from grader.web.context import db_session
from grader.web.feedback import TreeView, tree_views
from grader.web.source import render_source, report_marks
from grader.web.tree_data import drawn_trees
from reference.algorithms import ALGORITHMS
from reference.exercises.model import Exercise as ExerciseModel
from reference.feedback import verdict_legend
from reference.values import format_value

FINISHED = (RunState.GRADED, RunState.ERROR)


def verdict_words(model: ExerciseModel | None) -> dict[str, str]:
    """Each node verdict, in words for the legend, in the terms of the exercise's search
    (pruning and windows only for alpha-beta, the depth limit only where there is one)."""
    windowed = model is not None and ALGORITHMS[model.algorithm].windowed
    depth_limited = model is not None and model.options.depth_limit is not None
    legend = verdict_legend(windowed=windowed, depth_limited=depth_limited)
    return {str(verdict): words for verdict, words in legend.items()}


def feedback_parts(
    session: Session, settings: Settings, submission: Submission, exercise: Exercise
) -> dict[str, Any]:
    """The template's values for ``submission``'s code and feedback: ``submission``,
    ``exercise``, ``run``, ``finished``, ``report``, ``views``, ``verdicts``,
    ``source_listing``, ``source_marks``, ``format_value``, ``drawings_pending``,
    ``compacted`` and ``keep_days``.

    ``report`` is the run's summary (:func:`grader.services.report_parts.summary`): none
    of its trees' nodes or replays, which the page's scripts fetch (:mod:`.tree_data`)."""
    run = submission.latest_run
    views: list[TreeView] = []
    model = None
    found = None if run is None else report_parts.summary(session, run)
    report = None if found is None else found.report
    if run is not None and run.state == RunState.GRADED and found is not None:
        version = session.get(ExerciseVersion, run.exercise_version_id)
        if version is not None:
            model = outline_version(settings, exercise.slug, version).rules
        # The trees the version's analysis kept whole (none until it is done): never a
        # game expanded here, nor an analysis asked for by a page read.
        trees = drawn_trees(session, run)[0]
        views = tree_views(found.report, found.replayed, trees)
    finished = run is not None and run.state in FINISHED
    marks = report_marks(report if finished else None, submission.source)
    undrawn = any(not view.hidden and not view.drawn for view in views)
    return {
        "submission": submission,
        "exercise": exercise,
        "run": run,
        "finished": finished,
        "report": report,
        "views": views,
        "verdicts": verdict_words(model),
        "source_listing": render_source(submission.source, marks),
        "source_marks": marks,
        "format_value": format_value,
        # A public tree not drawn yet because its version's analysis is under way: the page
        # says so and reloads once it is done.
        "drawings_pending": undrawn and run is not None and drawings_pending(session, run),
        # The day its node rows went (GRADER_NODE_ROWS_KEEP_DAYS), if they did.
        "compacted": None if found is None or run is None else (run.details or {}).get("compacted"),
        "keep_days": settings.node_rows_keep_days,
    }


def drawings_pending(session: Session, run: GradingRun) -> bool:
    """Whether ``run`` is graded with public trees that its version's analysis, still under
    way, will draw (the page polls until it is done)."""
    if run.state != RunState.GRADED:
        return False
    public = session.scalar(
        select(func.count())
        .select_from(TreeResult)
        .where(TreeResult.run_id == run.id, TreeResult.hidden.is_(False))
    )
    return bool(public) and analyses.under_way(session, run.exercise_version_id)


def status_document(submission: Submission) -> dict[str, Any]:
    """Where the submission's latest run is (its queue position while it waits), and once
    finished its verdict, score and feedback link: the status the page polls."""
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
        "drawings_pending": finished and drawings_pending(db_session(), run),
    }
