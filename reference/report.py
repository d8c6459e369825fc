"""The grading report: what grading one submission found, tree by tree and node by node.

:mod:`reference.reporting` builds it and fits it to its size (for
:func:`worker.grading.grade`); the service stores it (:meth:`Report.to_json`),
the pages, the API, the LMS callbacks and ``grader grade`` read it back with
:meth:`Report.from_json`. Its JSON Schema (:func:`report_schema`) is published at
``SCHEMA_PATH``, and the report names the version of that schema it follows
(``schema_version``).

A report carries text and numbers the student's code chose. Both are made storable here,
once: every text field goes through :func:`reference.safe_json.safe_text` when the model is
built (NUL and lone surrogates become visible escapes), and a value that is a non-finite
float is written as ``"inf"``, ``"-inf"`` or ``"nan"`` when the model is dumped (strict JSON
has no such numbers). An optional field without a value is left out of the JSON, whether
it was given as None or not given: a hidden tree has no ``nodes`` and no ``replay``, a step
no ``alpha`` it was not given, and an empty message is no message. So a report has one JSON
document, whoever built it and however it was stored.
"""

from __future__ import annotations

import math
from collections import Counter
from enum import StrEnum
from typing import Annotated, Any, Final, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, PlainSerializer

from reference.feedback.verdicts import Verdict as NodeVerdict
from reference.safe_json import safe_text

__all__ = [
    "MIB",
    "OUTPUT_CAP",
    "SCHEMA_PATH",
    "SCHEMA_VERSION",
    "ComposedReport",
    "Decision",
    "DiagnosisReport",
    "Divergence",
    "MisconceptionReport",
    "NodeReport",
    "NodeVerdict",
    "PartScore",
    "Replay",
    "Report",
    "RunVerdict",
    "ScoreParts",
    "ShareScore",
    "Step",
    "Text",
    "TotalParts",
    "TreeCase",
    "TreeMatch",
    "Usage",
    "Value",
    "ValueCheck",
    "finite",
    "report_schema",
]

SCHEMA_VERSION: Final = 1
"""The version of the report's shape; a change that removes or renames a field raises it."""
SCHEMA_PATH = f"/api/v1/schemas/report-v{SCHEMA_VERSION}.json"
"""Where the service publishes the report's JSON Schema."""
MIB: Final = 1024 * 1024
OUTPUT_CAP: Final = 8 * MIB
"""Bytes the student's code may print on one tree: past it, the tree ends as
``output_limit`` (a flood far beyond debugging, which would only cost the grader)."""


class RunVerdict(StrEnum):
    """How grading a submission, or one of its trees, ended.

    ``passed`` and ``failed`` are a search that ran to its end and was judged; the others
    (but ``not_run``) are the sandbox's words for a run it stopped. ``not_run`` is a tree
    that was never run: the file does not compile, an earlier tree hit a limit, or the
    submission's time was spent.

    A submission's verdict is not picked by a rank among these: it is ``compile_error``
    when the file does not compile, else the verdict of its first tree (in the trees'
    order) that did not run to its end, else ``time_limit`` when the submission's time
    ran out before every tree ran, else ``failed`` if a tree failed, else ``passed``
    (:func:`reference.reporting.overall.overall`)."""

    PASSED = "passed"
    FAILED = "failed"
    COMPILE_ERROR = "compile_error"
    RUNTIME_ERROR = "runtime_error"
    TIME_LIMIT = "time_limit"
    MEMORY_LIMIT = "memory_limit"
    OUTPUT_LIMIT = "output_limit"
    PROTOCOL_VIOLATION = "protocol_violation"
    INTERNAL_ERROR = "internal_error"
    NOT_RUN = "not_run"

    @property
    def is_judged(self) -> bool:
        """A search that ran to its end and was judged: ``passed`` or ``failed``."""
        return self in (RunVerdict.PASSED, RunVerdict.FAILED)

    @property
    def is_limit(self) -> bool:
        """A limit of time or memory: a verdict that may differ with more time or on a less
        loaded machine (a fast-lane run with one is graded again in the slow lane).
        ``output_limit`` is not one: the same code prints as much anywhere."""
        return self in (RunVerdict.TIME_LIMIT, RunVerdict.MEMORY_LIMIT)

    @property
    def ends_run(self) -> bool:
        """Whether a tree that ends so stops the submission: its remaining trees are not run
        (``not_run``), since what hit a limit, broke the protocol or did not compile on one
        tree would cost as much on the next, for nothing. A ``runtime_error`` does not: the
        next tree may not reach the same fault."""
        return self.is_limit or self in (
            RunVerdict.OUTPUT_LIMIT,
            RunVerdict.PROTOCOL_VIOLATION,
            RunVerdict.COMPILE_ERROR,
        )


def finite(value: int | float | str | None) -> int | float | str | None:
    """``value`` as the report's JSON writes it: inf, -inf and nan as text."""
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else "inf" if value > 0 else "-inf"
    return value


Text = Annotated[str, AfterValidator(safe_text)]
"""Text the student's code may have chosen, storable whatever it holds."""
Message = Annotated[Text | None, AfterValidator(lambda text: text or None)]
"""An optional sentence: an empty one is none."""
Value = Annotated[int | float | Text | None, PlainSerializer(finite)]
"""A value as a report holds it: a number JSON carries exactly, else its text (a fraction,
a value the code returned that is not a number); inf, -inf and nan are dumped as text."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class Step(_Model):
    """One step of a search in a replay: a node entered (with its window), evaluated or
    left (with its value; a reference cut-off is told on the exit it causes)."""

    node: Text
    event: Literal["enter", "evaluate", "exit"]
    alpha: Value = None
    beta: Value = None
    depth: int | None = None
    value: Value = None
    cutoff: Text | None = None
    pruned: list[Text] | None = None


class Replay(_Model):
    """Both searches of a public tree, step by step."""

    student: list[Step]
    reference: list[Step]
    truncated: bool
    decision_style: bool | None = None


class ValueCheck(_Model):
    """The value the search returned at the root, and the reference's."""

    expected: Value = None
    actual: Value = None


class Decision(_Model):
    """The move the search chose at the root, and the reference's."""

    expected: Text | None = None
    actual: Text | None = None


class Divergence(_Model):
    """The first node where the student's search left the reference's."""

    node: Text
    message: Text
    line: int | None = None
    """The line of the student's file from which the call or return that diverged was made,
    where the harness saw it."""
    fix_line: int | None = None
    """Where a window, depth or value that differed should have changed: the line of the
    assignment that changes it, or of the loop over the children where nothing does, or
    the call's own ``line`` where the source does not tell (see ``fix_site``); None
    where the divergence is of another kind or its line is not known."""
    fix_site: Literal["assignment", "loop", "call"] | None = None
    """What is at ``fix_line`` (:mod:`reference.feedback.fix_site`)."""
    fix_name: Text | None = None
    """The variable of the student's code that should have changed there (``alpha``,
    ``v``, ``depth``); None at the call."""


class NodeReport(_Model):
    """One node's verdict, with the values compared and a sentence on it."""

    node: Text
    verdict: NodeVerdict
    expected: Value = None
    actual: Value = None
    message: Text = ""


class PartScore(_Model):
    """One part of a tree's score: the points it earned of the points it may earn, once
    scaled (a part that cannot be observed is left out and the others scaled up to the
    tree's maximum), and the exercise's points for it before scaling (``weight``)."""

    earned: float
    possible: float
    weight: int


class ScoreParts(_Model):
    """What makes a tree's score: the root value, the decision (None: not observed, left
    out) and the node verdicts (``good`` of ``counted`` nodes earned their share). The parts'
    ``earned`` add up to the tree's score."""

    value: PartScore | None = None
    decision: PartScore | None = None
    verdicts: PartScore
    """The node verdicts' part."""
    good: int
    counted: int
    """Nodes counted (a tree with none counts its node part as earned)."""


class ShareScore(_Model):
    """The public or the hidden trees' share of the total: how many trees, how many
    passed, their mean score out of the maximum, their weight in the total (a fraction of
    1) and the points they bring (``weight`` times ``mean``, rounded)."""

    trees: int
    passed: int
    mean: float
    weight: float
    points: float


class TotalParts(_Model):
    """What makes the total: the public trees' mean weighs ``public.weight``, the hidden
    trees' ``hidden.weight``; a public tree counts its own score, a hidden tree all of the
    maximum if it passed and otherwise the credit of its reason. The shares' ``points`` add
    up to the score."""

    public: ShareScore
    hidden: ShareScore
    hidden_credit: dict[Text, float] | None = None
    """The points, out of a tree's maximum, a failed hidden tree earns by the reason it
    gives, in the exercise's words (without the suffix a returned object that is no number
    adds); None: nothing (``whole`` credit, or a report made before partial credit)."""


class TreeCase(_Model):
    """One tree's result. A hidden tree tells only its verdict and, if it failed, one
    reason of a fixed few (``message``); a public one tells everything below."""

    name: Text
    hidden: bool
    verdict: RunVerdict
    message: Message = None
    line: int | None = None
    """The line of the student's file a compile or runtime error on this tree names."""
    column: int | None = None
    replay: Replay | None = None
    value: ValueCheck | None = None
    decision: Decision | None = None
    first_divergence: Divergence | None = None
    score: float | None = None
    max_score: int | None = None
    score_parts: ScoreParts | None = None
    """The parts that make ``score`` (a public tree the search ran to its end on)."""
    nodes: Annotated[list[NodeReport] | None, AfterValidator(lambda nodes: nodes or None)] = None
    """Each node's verdict, in the tree's order; None (an empty list is none) when the
    search did not run to its end, the tree is hidden, or every node was cut."""
    nodes_omitted: dict[NodeVerdict, int] | None = None
    """Nodes left out of ``nodes`` (a report cut to its size limit), counted by verdict."""

    def verdict_counts(self) -> Counter[str]:
        """How many of the tree's nodes have each verdict, those left out included."""
        counts = Counter(str(node.verdict) for node in self.nodes or ())
        counts.update({str(verdict): n for verdict, n in (self.nodes_omitted or {}).items()})
        return counts


class Usage(_Model):
    """What the public trees' runs cost, together."""

    cpu_ms: int
    wall_ms: int
    max_rss_kb: int


class TreeMatch(_Model):
    """How a misconception's search of one public tree compares with the student's."""

    tree: Text
    matches: bool
    agreeing: int
    """Steps that agree before the first that does not."""
    steps: int
    first_difference: Text | None = None
    """The node where the two first differ (None: they agree)."""


class MisconceptionReport(_Model):
    """One known wrong search near the student's: what students are told of it (its
    name, an explanation in the textbook's terms, the pseudocode line it concerns, a hint),
    the library's implementations of it, and how close it is. Evidence is given per public
    tree; hidden trees are only counted."""

    implementations: list[Text]
    name: Text
    explanation: Text
    pseudocode: Text
    hint: Text
    trees_matched: int
    """Trees (public and hidden) on which it searches exactly as the student's search."""
    closeness: float
    """How alike the two searches are where either departs from the reference: the mean,
    over those trees, of the share of their steps that agree from the first that departs
    (1.0: the same search on every tree), to two decimals (it counts hidden trees: a finer
    figure would tell more of them)."""
    trees_differing: int = 0
    """Trees (public and hidden) on which it or the student's search departs from the
    reference: the trees the closeness is measured on."""
    trees_alike: int = 0
    """Those of them on which the two are the same search."""
    evidence: list[TreeMatch]
    """The public trees, one by one."""
    hidden_trees: int
    hidden_matched: int


class ComposedReport(_Model):
    """Two known misconceptions that, made in one search, search every tree as the
    failed search did."""

    misconceptions: list[MisconceptionReport]
    """The two."""
    trees_explained: int
    """Trees on which the two together match (every tree compared)."""


class DiagnosisReport(_Model):
    """Which known misconceptions a failed search behaves like, nearest first."""

    exact: bool
    """True when the first misconception matches the search on every tree."""
    summary: Text
    """One sentence for the student."""
    trees: int
    """Trees compared (the public and hidden ones the search completed)."""
    misconceptions: list[MisconceptionReport]
    composed: ComposedReport | None = None
    """Two mistakes that, made together, match on every tree (only when no single one
    does)."""
    cut: bool | None = None
    """True when the diagnosis's work was spent before it could name anything (it names
    nothing then, and ``summary`` says so); left out otherwise."""


class Report(_Model):
    """The report of grading one submission on every tree of an exercise."""

    model_config = ConfigDict(
        extra="forbid",
        validate_assignment=True,
        json_schema_extra={"$id": SCHEMA_PATH},
    )

    schema_version: Literal[1] = SCHEMA_VERSION
    exercise: Text
    verdict: RunVerdict
    score: float | None
    """None once a run ends in an internal error: not a grade, whatever was judged."""
    max_score: int | None
    score_parts: TotalParts | None = None
    """The public and hidden trees' shares that make ``score``."""
    message: Text
    line: int | None = None
    """The line of the student's file the run's compile or runtime error names."""
    column: int | None = None
    stdout: Text = ""
    stdout_dropped: int | None = None
    """Bytes of the public trees' printed output not kept in ``stdout`` (the run went on)."""
    usage: Usage | None = None
    cases: list[TreeCase]
    cut: Text | None = None
    """What was cut from a report over its size limit, if anything."""
    diagnosis: DiagnosisReport | None = None
    """The known misconceptions a search that did not pass behaves like (left out when
    it passed, none was computed, or it agrees with the reference where it completed)."""

    @classmethod
    def from_json(cls, data: Any) -> Report:
        """The report whose JSON document (a stored report, a parsed response) is ``data``."""
        return data if isinstance(data, Report) else cls.model_validate(data)

    def to_json(self) -> dict[str, Any]:
        """The report as a JSON document: strict JSON, storable, its left-out keys left out."""
        document = self.model_dump(mode="json", exclude_none=True)
        # The two required fields that may be None say so (not a grade, no maximum).
        return {
            "schema_version": self.schema_version,
            **document,
            "score": self.score,
            "max_score": self.max_score,
        }


def report_schema() -> dict[str, Any]:
    """The JSON Schema of a report's JSON document, as published at ``SCHEMA_PATH``."""
    return Report.model_json_schema()
