"""Every wrong implementation of the library names its misconception for students."""

from __future__ import annotations

import re
import shutil
from collections import defaultdict
from pathlib import Path

import pytest

from grader.config import Settings
from reference.hidden import LIBRARY_FOLDER, Implementation, load_library
from reference.hidden.library import FAMILIES
from reference.problems import FileProblems

LIBRARY_DIR = Settings().exercises_dir / LIBRARY_FOLDER
LIBRARY = load_library(LIBRARY_DIR)
WRONG = [impl for impl in LIBRARY if impl.expect == "wrong"]

# A hint points at the place; it must not hand over the corrected code.
CODE_IN_HINT = re.compile(r"(?<![<>=!≤≥])=(?!=)|\b(?:max|min)\(|\bdef ", re.IGNORECASE)
FIGURE = re.compile(r"^(Figure 5\.[37]|Section 5\.[45])\b")


def by_name(impl: Implementation) -> str:
    return impl.name


@pytest.mark.parametrize("impl", WRONG, ids=by_name)
def test_every_wrong_implementation_names_its_misconception(impl: Implementation) -> None:
    misconception = impl.misconception
    assert misconception is not None
    for field in ("name", "explanation", "pseudocode", "hint"):
        assert getattr(misconception, field).strip(), f"{impl.name}: empty {field}"
    assert len(misconception.name) <= 60, "the name is short, for a feedback line"
    assert len(misconception.explanation) >= 150, "the explanation is a paragraph"
    assert FIGURE.match(misconception.pseudocode), "the pseudocode line names its figure"


def test_correct_implementations_have_no_misconception() -> None:
    correct = [impl for impl in LIBRARY if impl.expect == "correct"]
    assert correct
    assert all(impl.misconception is None and not impl.equivalent for impl in correct)


@pytest.mark.parametrize("impl", WRONG, ids=by_name)
def test_hints_give_no_code_away(impl: Implementation) -> None:
    assert impl.misconception is not None
    assert CODE_IN_HINT.search(impl.misconception.hint) is None, impl.misconception.hint


@pytest.mark.parametrize(
    ("hint", "code"),
    [
        ("Try alpha = max(alpha, v) after the loop.", True),
        ("Set v = 0 first.", True),
        ("Use MIN(beta, v).", True),
        ("def max_value is where to look.", True),
        ("What should the MIN nodes below learn?", False),
        ("Does v go up when v ≥ β, or when v <= alpha?", False),
    ],
)
def test_the_code_pattern_tells_code_from_prose(hint: str, code: bool) -> None:
    assert (CODE_IN_HINT.search(hint) is not None) == code


def test_names_are_unique_in_a_family_unless_equivalent() -> None:
    names: dict[tuple[str, str], list[Implementation]] = defaultdict(list)
    for impl in WRONG:
        assert impl.misconception is not None
        names[impl.family, impl.misconception.name.casefold()].append(impl)
    for (family, name), impls in names.items():
        for impl in impls:
            others = {other.path.stem for other in impls if other is not impl}
            assert others <= set(impl.equivalent), f"{family}: {name!r} used by {sorted(others)}"


def test_equivalents_are_symmetric() -> None:
    stems = {(impl.family, impl.path.stem): impl for impl in WRONG}
    for impl in WRONG:
        for stem in impl.equivalent:
            assert impl.path.stem in stems[impl.family, stem].equivalent


# -- the loader's problems ----------------------------------------------------------------


def copy_library(tmp_path: Path) -> Path:
    root = tmp_path / LIBRARY_FOLDER
    for family in FAMILIES:
        shutil.copytree(LIBRARY_DIR / family, root / family)
    return root


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def problems_of(root: Path) -> list[str]:
    with pytest.raises(FileProblems) as raised:
        load_library(root)
    return [str(problem) for problem in raised.value.problems]


def test_a_missing_field_is_a_problem_with_file_and_line(tmp_path: Path) -> None:
    root = copy_library(tmp_path)
    path = root / "alphabeta" / "wrong_alpha_never_updated.py"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    start = next(n for n, line in enumerate(lines) if line.startswith("# hint:"))
    end = start + 1
    while lines[end].startswith("#  "):  # the hint's continued lines go with it
        end += 1
    path.write_text("".join(lines[:start] + lines[end:]), encoding="utf-8")
    (problem,) = problems_of(root)
    assert problem == f"{path}:1:1: a wrong implementation needs a 'hint' line"


def test_an_empty_field_is_a_problem_on_its_line(tmp_path: Path) -> None:
    root = copy_library(tmp_path)
    path = root / "minimax" / "wrong_terminal_zero.py"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    number = next(n for n, line in enumerate(lines, 1) if line.startswith("# misconception:"))
    lines[number - 1] = "# misconception:\n"
    path.write_text("".join(lines), encoding="utf-8")
    assert problems_of(root) == [
        f"{path}:{number}:1: a wrong implementation needs a 'misconception' line"
    ]


def test_a_correct_file_with_a_misconception_is_a_problem(tmp_path: Path) -> None:
    root = copy_library(tmp_path)
    path = root / "minimax" / "correct_plain.py"
    edit(path, "# expect: correct\n", "# expect: correct\n# hint: look at the leaves\n")
    assert problems_of(root) == [f"{path}:4:1: 'hint' is for wrong implementations only"]


def test_a_value_goes_on_over_indented_lines(tmp_path: Path) -> None:
    root = copy_library(tmp_path)
    path = root / "minimax" / "wrong_terminal_zero.py"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    number = next(n for n, line in enumerate(lines, 1) if line.startswith("# hint:"))
    end = number
    while lines[end].startswith("#  "):
        end += 1
    lines[number - 1 : end] = ["# hint: Where does your search learn\n", "#   how a game ended?\n"]
    path.write_text("".join(lines), encoding="utf-8")
    impl = next(i for i in load_library(root) if i.name == "minimax/wrong_terminal_zero")
    assert impl.misconception is not None
    assert impl.misconception.hint == "Where does your search learn how a game ended?"


def test_equivalent_must_be_named_back(tmp_path: Path) -> None:
    root = copy_library(tmp_path)
    one = root / "minimax" / "wrong_utility_for_min.py"
    other = root / "minimax" / "wrong_swapped_max_min.py"
    edit(one, "# expect: wrong\n", "# expect: wrong\n# equivalent: wrong_swapped_max_min\n")
    assert problems_of(root) == [
        f"{one}:4:1: 'wrong_swapped_max_min' does not name 'wrong_utility_for_min' "
        "as equivalent in turn"
    ]
    edit(other, "# expect: wrong\n", "# expect: wrong\n# equivalent: wrong_utility_for_min\n")
    impls = {impl.name: impl for impl in load_library(root)}
    assert impls["minimax/wrong_utility_for_min"].equivalent == ("wrong_swapped_max_min",)
    assert impls["minimax/wrong_swapped_max_min"].equivalent == ("wrong_utility_for_min",)


def test_equivalent_must_name_a_wrong_file_of_the_family(tmp_path: Path) -> None:
    root = copy_library(tmp_path)
    path = root / "minimax" / "wrong_utility_for_min.py"
    edit(path, "# expect: wrong\n", "# expect: wrong\n# equivalent: correct_plain\n")
    assert problems_of(root) == [
        f"{path}:4:1: equivalent names 'correct_plain', not a wrong file of 'minimax'"
    ]
