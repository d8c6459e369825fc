"""How far the diagnosis can be trusted, measured on the labelled set (:func:`cases`).

Each case is diagnosed on its exercise's public trees and the development key's first
hidden-tree candidates, as :func:`signatures` runs it, and its diagnosis is judged by the
case's labels:

* an **exact** diagnosis (or a pair of mistakes) is right only for a case that ``matches``
  a library mistake and only when that mistake is among the ones named;
* a **nearest** mistake offered for a case that matches none is *misleading* unless it is
  one of the case's ``related`` ones; offered for a case that matches one, it is right only
  when it is that one;
* "no known mistake fits" is never wrong (the first divergence is shown instead), but a case
  that matches a library mistake and gets it is a miss.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from reference.diagnosis import Diagnosis, diagnose
from tests.reference.diagnosis_set import Case, cases, library, signatures


@dataclass(frozen=True, slots=True)
class Told:
    """What the diagnosis told of one case."""

    case: Case
    kind: str
    """``exact``, ``pair``, ``nearest`` or ``none`` (no known mistake fits)."""
    named: tuple[str, ...]
    """The library names it gave (the group of equivalents, or the pair's two)."""
    closeness: float | None = None

    @property
    def right(self) -> bool:
        """True when what it told is right by the case's labels (see the module)."""
        if self.kind == "none":
            return True
        if self.kind in ("exact", "pair"):
            return self.case.matches is not None and self.case.matches in self.named
        if self.case.matches is not None:
            return self.case.matches in self.named
        return any(name in self.case.related for name in self.named)


@dataclass(slots=True)
class Precision:
    """The figures of one measurement."""

    told: list[Told] = field(default_factory=list)

    def _of(self, kinds: Iterable[str], matching: bool | None) -> list[Told]:
        wanted = set(kinds)
        return [
            told
            for told in self.told
            if told.kind in wanted
            and (matching is None or (told.case.matches is not None) == matching)
        ]

    @property
    def exact(self) -> list[Told]:
        """Every exact diagnosis (one mistake or a pair)."""
        return self._of(("exact", "pair"), None)

    @property
    def nearest_for_none(self) -> list[Told]:
        """Nearest mistakes offered for cases that match no library mistake."""
        return self._of(("nearest",), False)

    @property
    def nearest_for_known(self) -> list[Told]:
        """Nearest mistakes offered for cases that match one."""
        return self._of(("nearest",), True)

    @property
    def known_found(self) -> int:
        """Cases matching a library mistake that were told it, exactly or as the nearest."""
        return sum(1 for told in self.told if told.case.matches is not None and told.right)

    @property
    def known(self) -> int:
        return sum(1 for told in self.told if told.case.matches is not None)

    def lines(self) -> list[str]:
        """The figures, one per line."""

        def share(found: list[Told]) -> str:
            right = sum(told.right for told in found)
            return f"{right} of {len(found)} right" if found else "none offered"

        misleading = sum(not told.right for told in self.nearest_for_none)
        return [
            f"cases: {len(self.told)} ({self.known} making a library mistake, "
            f"{len(self.told) - self.known} making none)",
            f"exact diagnoses: {share(self.exact)}",
            f"nearest offered for a search making no library mistake: "
            f"{len(self.nearest_for_none)}, misleading {misleading}",
            f"nearest offered for a search making one: {share(self.nearest_for_known)}",
            f"'no known mistake fits': {len(self._of(('none',), None))} "
            f"({len(self._of(('none',), True))} of them making a library mistake)",
            f"library mistakes found (exact or nearest): {self.known_found} of {self.known}",
        ]


def told(case: Case, diagnosis: Diagnosis | None) -> Told:
    """What ``diagnosis`` told of ``case``."""
    if diagnosis is None:
        raise AssertionError(f"{case.name}: a wrong search got no diagnosis")
    if diagnosis.composed is not None:
        pair = diagnosis.composed
        return Told(case, "pair", pair.first.implementations + pair.second.implementations)
    if not diagnosis.misconceptions:
        return Told(case, "none", ())
    first = diagnosis.misconceptions[0]
    kind = "exact" if diagnosis.exact else "nearest"
    return Told(case, kind, first.implementations, first.closeness)


def measure(among: Iterable[Case] | None = None) -> Precision:
    """Diagnose every case (of ``among``, by default the whole set) and judge it."""
    found = Precision()
    for case in cases() if among is None else among:
        exercise, trees, student = signatures(case)
        diagnosis = diagnose(student, trees, exercise, library(), hidden={"hidden-0"})
        found.told.append(told(case, diagnosis))
    return found
