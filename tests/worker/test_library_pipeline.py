"""Every implementation of the library, graded through the whole pipeline (sandbox, hidden
trees, feedback): the correct ones pass every exercise of their kind, the wrong ones fail,
and the feedback points at the node where the bug shows.

One correct and one wrong implementation of each family are graded on every run; the
others carry the ``exhaustive`` marker (hundreds of gradings), which scripts/test.sh runs
apart from the sandbox's timing tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from reference.algorithms import ALGORITHMS
from reference.exercises import Exercise, load_catalog
from reference.hidden import DEVELOPMENT_KEY, LIBRARY_FOLDER, Implementation, load_library
from worker.grading import grade

pytestmark = pytest.mark.slow

EXERCISES = Path(__file__).resolve().parents[2] / "exercises"
CATALOG = load_catalog(EXERCISES)
LIBRARY = load_library(EXERCISES / LIBRARY_FOLDER)


def representatives(library: list[Implementation]) -> set[str]:
    """The names of the first correct and the first wrong implementation (by name) of each
    family: the ones graded on every run; the others are in the ``exhaustive`` set."""
    chosen: dict[tuple[str, str], str] = {}
    for implementation in sorted(library, key=lambda each: each.name):
        chosen.setdefault((implementation.family, implementation.expect), implementation.name)
    return set(chosen.values())


REPRESENTATIVES = representatives(LIBRARY)
PAIRS = [
    pytest.param(
        slug,
        implementation,
        id=f"{slug}:{implementation.name}",
        marks=() if implementation.name in REPRESENTATIVES else pytest.mark.exhaustive,
    )
    for slug in CATALOG.slugs()
    for implementation in LIBRARY
    if implementation.written_for(CATALOG.get(slug))
]


def flagged_nodes(case: dict[str, Any]) -> set[str]:
    good = {"ok", "pruned", "not_observed"}
    return {node["node"] for node in case.get("nodes", []) if node["verdict"] not in good}


def public_case(report: dict[str, Any], where: str, exercise: Exercise) -> dict[str, Any]:
    tree = where.split("/", 1)[1] if "/" in where else exercise.trees[0].name
    return next(case for case in report["cases"] if case["name"] == tree)


@pytest.mark.parametrize(("slug", "implementation"), PAIRS)
def test_library_implementation_gets_its_verdict(slug: str, implementation: Implementation) -> None:
    exercise = CATALOG.get(slug)
    report = grade(
        exercise,
        implementation.source,
        implementation.path.name,
        key=DEVELOPMENT_KEY,
        exercises_dir=EXERCISES,
    ).to_json()
    if implementation.is_correct_for(exercise):
        assert report["verdict"] == "passed", report["message"]
        assert report["score"] == report["max_score"]
        return
    assert report["verdict"] != "passed", implementation.bug
    assert report["score"] < report["max_score"]
    header = implementation.first_divergence or ""
    where, _, node = header.partition(" at ")
    if where.split("/")[0] != slug:
        return  # the bug first shows on another exercise's tree, or only on hidden trees
    case = public_case(report, where, exercise)
    divergence = (case.get("first_divergence") or {}).get("node")
    tree = exercise.tree(case["name"]).tree
    ancestors = set()
    parent = tree.parent(node)
    while parent is not None:
        ancestors.add(parent.name)
        parent = tree.parent(parent.name)
    flagged = flagged_nodes(case)
    decision_style = any(
        f"def {name}(" in implementation.source
        for name in ALGORITHMS[exercise.algorithm].decision_names
    )
    if decision_style and node == tree.root.name and flagged:
        # The library's runner sees a decision function's move alone, so its header names
        # the root; the grader also sees what the helpers return below it.
        flagged.add(node)
    assert node in flagged or divergence == node or divergence in ancestors, (
        f"{implementation.bug}: expected feedback at {node}, got divergence {divergence} "
        f"and flagged {sorted(flagged_nodes(case))[:8]}"
    )
