"""The diagnosis set (``tests/reference/diagnosis_set``) is what its labels say it is.

Structural only: the set measures the diagnosis, so what today's diagnosis names for each
case is not asserted here.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from reference.diagnosis import agreement, tree_signatures
from tests.reference.diagnosis_set import (
    FAMILIES,
    HERE,
    Case,
    cases,
    catalog,
    exercise,
    library,
    load_case,
    signatures,
)

CASES = cases()
LEAST_UNMATCHED = 24
LEAST_UNMATCHED_PER_FAMILY = 4
LEAST_MATCHED = 15


def test_every_file_of_the_set_is_a_case_that_compiles() -> None:
    folders = {path.name for path in HERE.iterdir() if path.is_dir() and path.name[0] != "_"}
    assert folders <= set(FAMILIES)
    files = sorted(path for family in FAMILIES for path in (HERE / family).glob("*.py"))
    assert sorted(case.path for case in CASES) == files
    for case in CASES:
        compile(case.source, str(case.path), "exec")
        assert case.style


def test_a_header_without_a_label_names_its_file_and_line(tmp_path: Path) -> None:
    folder = tmp_path / "minimax"
    folder.mkdir()
    broken = folder / "broken.py"
    broken.write_text(
        "# exercise: aima-fig5.2-minimax\n# related: none\n# style: x\n", encoding="utf-8"
    )
    with pytest.raises(ValueError, match=r"broken\.py:2: expected '# matches: \.\.\.'"):
        load_case(broken)
    broken.write_text(
        "# exercise: aima-fig5.2-minimax\n# matches: wrong_x\n# related: none\n# style: x\n",
        encoding="utf-8",
    )
    with pytest.raises(ValueError, match=r"broken\.py:2: 'wrong_x' is not"):
        load_case(broken)
    broken.write_text("def max_value(game, state):\n    return 0\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"broken\.py:1: expected '# exercise: \.\.\.'"):
        load_case(broken)


def test_labels_name_shipped_exercises_and_library_mistakes_that_apply_to_them() -> None:
    shipped = set(catalog().slugs())
    for case in CASES:
        assert case.exercise in shipped, case.name
        found = exercise(case.exercise)
        named = [case.matches] if case.matches else []
        assert case.matches not in case.related, case.name
        for name in named + list(case.related):
            impl = next((impl for impl in library() if impl.name == name), None)
            assert impl is not None, (case.name, name)
            assert impl.family == case.family, (case.name, name)
            assert impl.is_wrong_for(found), (case.name, name)
        # The family's library is written for the case's exercise (its entry points).
        assert any(impl.family == case.family and impl.written_for(found) for impl in library()), (
            case.name
        )


def test_the_set_holds_enough_cases_of_every_family() -> None:
    unmatched = Counter(case.family for case in CASES if case.matches is None)
    matched = Counter(case.family for case in CASES if case.matches is not None)
    assert sum(unmatched.values()) >= LEAST_UNMATCHED
    assert all(unmatched[family] >= LEAST_UNMATCHED_PER_FAMILY for family in FAMILIES), unmatched
    assert sum(matched.values()) >= LEAST_MATCHED
    assert all(matched[family] >= 1 for family in FAMILIES), matched


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_every_case_fails_on_some_tree_of_its_exercise(case: Case) -> None:
    found, trees, searched = signatures(case)
    on_equality = found.options.prune_on_equality
    failing = [
        name
        for name, tree in trees.items()
        if not agreement(searched[name], tree_signatures(found, tree).searched, on_equality).matches
    ]
    assert failing, f"{case.name} searches every tree as the reference does"
