"""What a diagnosis finds: the library's misconceptions nearest a student's search.

Frozen values, made by :func:`reference.diagnosis.diagnose`; the report carries them as its
``diagnosis`` (a later step). Hidden trees are counted, never described: their evidence
names no node.
"""

from __future__ import annotations

from dataclasses import dataclass

from reference.hidden.library import MisconceptionText
from reference.report import ComposedReport, DiagnosisReport, MisconceptionReport, TreeMatch

CUT = (
    "This search could not be compared with every known mistake within the diagnosis's "
    "share of a grading (its trees are large): the first divergence shows where it leaves "
    "the reference's."
)
"""What a diagnosis says when its work was spent before it could name anything."""
NONE_FITS = (
    "No known mistake fits this search: the first divergence shows where it leaves the reference's."
)
"""What a diagnosis says when no known mistake is near enough to name."""


@dataclass(frozen=True, slots=True)
class TreeEvidence:
    """How one misconception's search of one tree compares with the student's."""

    tree: str
    matches: bool
    agreeing: int
    """Steps that agree before the first that does not."""
    steps: int
    first_difference: str | None
    """The node where the two first differ; None where they agree, and on a hidden tree."""
    hidden: bool = False

    @property
    def share(self) -> float:
        """The share of the steps that agree before the first difference."""
        return 1.0 if self.steps == 0 else self.agreeing / self.steps


@dataclass(frozen=True, slots=True)
class Misconception:
    """One wrong search of the library (with those that search every tree alike)."""

    implementations: tuple[str, ...]
    """Library names, ``family/stem``: the first, then its equivalents."""
    bugs: tuple[str, ...]
    """Each implementation's ``bug`` line, in the same order."""
    told: tuple[MisconceptionText, ...]
    """Each implementation's misconception as students are told it (its name, explanation,
    pseudocode line and hint), in the same order."""
    matched: int
    """Trees on which it searches exactly as the student's search did."""
    trees: int
    closeness: float
    """How alike it and the student's search are where either departs from the
    reference: the mean, over those trees, of
    :func:`reference.diagnosis.compare.departure_share` (1.0 when it matches on every
    tree). Trees where both search as the reference does do not count."""
    evidence: tuple[TreeEvidence, ...]
    differing: int = 0
    """Trees on which it or the student's search departs from the reference."""
    alike: int = 0
    """Those of them on which it searches exactly as the student's search did."""

    @property
    def exact(self) -> bool:
        """True when it matches the student's search on every tree."""
        return self.matched == self.trees

    @property
    def name(self) -> str:
        """The first implementation's misconception's short name."""
        return self.told[0].name

    def describe(self) -> str:
        """One sentence of evidence."""
        if self.exact:
            return (
                f"Your search behaves exactly like one with this mistake: {self.name} "
                f"(same visits and values on {self.trees} of {self.trees} trees)."
            )
        return (
            f"The nearest known mistake: {self.name}. Where your search or one with this "
            f"mistake differs from the reference ({self.differing} of {self.trees} trees), "
            f"the two are the same search on {self.alike}, and {self.closeness:.0%} of "
            f"their steps agree from the first that differs."
        )

    def report(self) -> MisconceptionReport:
        """The report's account of it: evidence per public tree, hidden trees counted."""
        told = self.told[0]
        hidden = [evidence for evidence in self.evidence if evidence.hidden]
        return MisconceptionReport(
            implementations=list(self.implementations),
            name=told.name,
            explanation=told.explanation,
            pseudocode=told.pseudocode,
            hint=told.hint,
            trees_matched=self.matched,
            closeness=round(self.closeness, 2),
            trees_differing=self.differing,
            trees_alike=self.alike,
            evidence=[
                TreeMatch(
                    tree=evidence.tree,
                    matches=evidence.matches,
                    agreeing=evidence.agreeing,
                    steps=evidence.steps,
                    first_difference=evidence.first_difference,
                )
                for evidence in self.evidence
                if not evidence.hidden
            ],
            hidden_trees=len(hidden),
            hidden_matched=sum(evidence.matches for evidence in hidden),
        )


@dataclass(frozen=True, slots=True)
class Composed:
    """Two misconceptions that, made in one search, search every tree as the student's
    did (see :mod:`reference.diagnosis.composition`)."""

    first: Misconception
    second: Misconception
    explained: int
    """Trees on which the two together match (every tree compared)."""

    def describe(self) -> str:
        """One sentence."""
        trees = self.first.trees
        return (
            f"Your search behaves exactly like one with two known mistakes: "
            f"{self.first.name}, and {self.second.name} (same visits and values on "
            f"{self.explained} of {trees} trees)."
        )

    def report(self) -> ComposedReport:
        """The report's account of it."""
        return ComposedReport(
            misconceptions=[self.first.report(), self.second.report()],
            trees_explained=self.explained,
        )


@dataclass(frozen=True, slots=True)
class Diagnosis:
    """The misconceptions nearest a failed search, best first."""

    trees: int
    misconceptions: tuple[Misconception, ...]
    composed: Composed | None = None
    """Two mistakes that, made together, match on every tree (only when no single one
    does)."""
    cut: bool = False
    """True when its work was spent before it could name anything (it names nothing)."""

    @property
    def exact(self) -> bool:
        """True when the first misconception matches the student's search on every tree."""
        return bool(self.misconceptions) and self.misconceptions[0].exact

    def describe(self) -> str:
        """One sentence: the match, or that none matches exactly and the nearest."""
        if self.cut:
            return CUT
        if not self.misconceptions:
            if self.composed is not None:
                return f"No single known misconception matches exactly. {self.composed.describe()}"
            return NONE_FITS
        first = self.misconceptions[0].describe()
        if self.exact:
            return first
        if self.composed is not None:
            return f"No single known misconception matches exactly. {self.composed.describe()}"
        return f"No known misconception matches exactly. {first}"

    def report(self) -> DiagnosisReport:
        """The report's ``diagnosis``."""
        return DiagnosisReport(
            exact=self.exact,
            summary=self.describe(),
            trees=self.trees,
            misconceptions=[misconception.report() for misconception in self.misconceptions],
            composed=None if self.composed is None else self.composed.report(),
            cut=True if self.cut else None,
        )
