"""What an exercise's page shows that only its version decides: the rules (its model), the
statement as markup, the conventions in words, the game interface and the drawn trees of
the version's analysis, made once per version and kept."""

from __future__ import annotations

import re
from dataclasses import dataclass

from flask import abort
from markupsafe import Markup, escape

from grader.models import Exercise, ExerciseVersion
from grader.services import analyses
from grader.services.exercise_store import outline_version
from grader.web.context import db_session, settings
from grader.web.treesvg import stored_tree_svg
from reference.algorithms import ALGORITHMS
from reference.caching import IdentityCache
from reference.contracts import DEFAULT_CONTRACT
from reference.exercises.model import Exercise as ExerciseModel
from reference.starter import entry_text

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
    contract = model.contract.contract
    if contract.name != DEFAULT_CONTRACT:
        rows.append(("Course", f"{contract.title}: {contract.writes}"))
    rows.append(("Entry points", entry_text(model)))
    if ALGORITHMS[model.algorithm].windowed:
        if model.options.prune_on_equality:
            rule = "on equality (AIMA): MAX returns when v >= beta, MIN when v <= alpha"
        else:
            rule = "strict (CS188): MAX returns when v > beta, MIN when v < alpha"
        rows.append(("Pruning", rule))
        rows.append(("Root window", "alpha = -inf, beta = +inf"))
    if model.options.order_judged:
        rows.append(("Order", f"children are searched {model.options.order}"))
    else:
        rows.append(("Order", "any: the states searched must be the reference's, in any order"))
    if model.options.generation == "generated":
        rows.append(("Counted", "a state counts as searched once generateSuccessor makes it"))
    if model.contract.depth is not None:
        agents = model.contract.agents
        rows.append(
            (
                "Depth",
                f"depth {model.contract.depth}: that many moves of each of the {agents} agents "
                f"({model.options.depth_limit} plies), then self.evaluationFunction",
            )
        )
    elif model.options.depth_limit is not None:
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
    # How the score is made has a section of its own (student/_scoring.html).
    return rows


def exercise_model(exercise: Exercise, version: ExerciseVersion | None = None) -> ExerciseModel:
    """The rules of the exercise's version (its trees are not in it: a page draws them
    from the version's analysis, never expanding a game in a request)."""
    version = version or exercise.current_version
    if version is None:
        abort(404)
    return outline_version(settings(), exercise.slug, version).rules


def version_analysis(version: ExerciseVersion | None) -> analyses.AnalysisResult | None:
    """The stored analysis of ``version``, None until done (or while it has none)."""
    if version is None:
        return None
    return analyses.result_for(db_session(), version)[1]


@dataclass(frozen=True, slots=True)
class Fixed:
    """The parts of an exercise page that only its version decides."""

    trees: list[tuple[str, Markup]]
    statement: Markup
    conventions: list[tuple[str, str]]


_FIXED_KEPT = 64
_fixed: IdentityCache[dict[str, Fixed]] = IdentityCache(_FIXED_KEPT)
"""Each exercise model's fixed parts, by the statement shown with it (one in practice)."""


def fixed_parts(
    model: ExerciseModel, result: analyses.AnalysisResult | None, statement: str
) -> Fixed:
    """The drawn trees (from the version's analysis ``result``), statement and conventions
    of ``model`` (neither object is changed once made: the parts are made once per model,
    result and statement)."""
    kept = _fixed.get(dict, model, result)
    hit = kept.get(statement)
    if hit is not None:
        return hit
    traces = () if result is None else result.traces
    fixed = Fixed(
        [(trace.name, stored_tree_svg(trace.drawing, caption=trace.name)) for trace in traces],
        statement_html(statement),
        conventions(model),
    )
    return kept.setdefault(statement, fixed)
