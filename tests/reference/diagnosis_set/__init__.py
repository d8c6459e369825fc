"""A labelled set of wrong student searches, for measuring the diagnosis's precision.

Each file ``<family>/<name>.py`` below this folder is a complete student submission that
fails its exercise, written as students write (plain functions, a class whose bound methods
are the entry points, nested helpers, a private recursive helper, while loops,
``game.successors``). Its header, comment lines at the top, says what a teacher reading it
would say of it::

    # exercise: aima-fig5.2-minimax
    # matches: none
    # related: minimax/wrong_right_to_left
    # style: MIN searches its children right to left only; recursion through max_value/min_value

- ``exercise``: the slug of the shipped exercise (under ``exercises/``) it is graded on.
- ``matches``: the library mistake (``family/stem`` of ``exercises/implementations``) it is
  the same search as, or ``none``: then it makes a mistake the library does not hold, and
  an exact diagnosis of it is wrong.
- ``related``: the library mistakes that are an honest "nearest" for it, comma-separated
  (the mistake it partly shares: MIN right to left only is a version of right to left), or
  ``none``: then no library mistake is a version of its bug, and any nearest named is a
  guess.
- ``style``: a few words on the bug and how the file is written.

:func:`cases` reads them all; :func:`signatures` runs one on its exercise's public trees
and the first :data:`GENERATED` hidden-tree candidates of the development key (the trees
``tests/reference/test_diagnosis.py`` uses), so that a test or a bench can hand the result
to :func:`reference.diagnosis.diagnose`.

Not exact today: the ``matches`` cases that the diagnosis of commit 1315c91 does not name
exactly, all of them searches that recurse through a private helper (``_search``,
``_value``...) the entry points call once, so that the harness records only the root's call
(the known bug being fixed); it names the nearest instead, with no tree matched:

- ``minimax/helper_return_in_loop`` (minimax/wrong_return_in_loop)
- ``alphabeta/helper_window_swapped`` (alphabeta/wrong_window_swapped)
- ``negamax/ab_helper_window_not_negated`` (negamax/wrong_ab_window_not_negated; with only
  the root's call and the leaves to see, it is exactly negamax/wrong_ab_alpha_never_updated
  too, which the diagnosis being written names instead)
- ``depth-limited/helper_depth_counted_per_move`` (depth-limited/wrong_depth_counted_per_move)
- ``expectimax/helper_ignores_probabilities`` (expectimax/wrong_ignores_probabilities)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from reference.diagnosis import Signature, observed_signature
from reference.exercises import Catalog, load_catalog
from reference.exercises.model import Exercise
from reference.hidden import DEVELOPMENT_KEY, load_library
from reference.hidden.generate import candidate_tree
from reference.hidden.library import Implementation
from reference.tree import Tree
from worker.harness.local import entry_spec, run_local

HERE = Path(__file__).resolve().parent
EXERCISES = HERE.parents[2] / "exercises"
FAMILIES = ("minimax", "alphabeta", "negamax", "depth-limited", "expectimax")
GENERATED = 6
"""Hidden-tree candidates added to each exercise's public trees."""
LABELS = ("exercise", "matches", "related", "style")
"""The header's keys, in this order."""

_LINE = re.compile(r"^#\s*([a-z]+):\s*(.*?)\s*$")
_SLUG = re.compile(r"^[a-z0-9][a-z0-9.\-]*$")
_NAME = re.compile(r"^[a-z\-]+/[a-z0-9_]+$")


@dataclass(frozen=True, slots=True)
class Case:
    """One wrong student search and its labels."""

    path: Path
    family: str
    """The folder: minimax, alphabeta, negamax, depth-limited or expectimax."""
    exercise: str
    """The slug of the shipped exercise it is graded on."""
    matches: str | None
    """The library mistake (``family/stem``) it is the same search as; None: none is."""
    related: tuple[str, ...]
    """Library mistakes that are an honest nearest for it; empty: none is."""
    style: str

    @property
    def name(self) -> str:
        """``family/stem``, as the library names its files."""
        return f"{self.family}/{self.path.stem}"

    @property
    def source(self) -> str:
        return self.path.read_text(encoding="utf-8")


def load_case(path: Path) -> Case:
    """Read one file's labels; ValueError names the file and line of a bad header."""
    family = path.parent.name
    if family not in FAMILIES:
        raise ValueError(f"{path}:1: {family!r} is not a family ({', '.join(FAMILIES)})")
    lines = path.read_text(encoding="utf-8").splitlines()
    value: dict[str, str] = {}
    for number, key in enumerate(LABELS, start=1):
        line = lines[number - 1] if number <= len(lines) else ""
        found = _LINE.match(line)
        if found is None or found.group(1) != key:
            raise ValueError(f"{path}:{number}: expected '# {key}: ...', found {line!r}")
        if not found.group(2):
            raise ValueError(f"{path}:{number}: '{key}' is empty")
        value[key] = found.group(2)
    if not _SLUG.match(value["exercise"]):
        raise ValueError(f"{path}:1: {value['exercise']!r} is not an exercise's slug")
    matches = None if value["matches"] == "none" else value["matches"]
    if matches is not None and not _NAME.match(matches):
        raise ValueError(f"{path}:2: {matches!r} is not 'none' nor a library name family/stem")
    related = (
        ()
        if value["related"] == "none"
        else tuple(name.strip() for name in value["related"].split(","))
    )
    for name in related:
        if not _NAME.match(name):
            raise ValueError(f"{path}:3: {name!r} is not a library name family/stem")
    return Case(path, family, value["exercise"], matches, related, value["style"])


def cases() -> list[Case]:
    """Every case of the set, by family then name."""
    return [load_case(path) for family in FAMILIES for path in sorted((HERE / family).glob("*.py"))]


@cache
def catalog() -> Catalog:
    """The shipped exercises."""
    return load_catalog(EXERCISES)


def exercise(slug: str) -> Exercise:
    """The shipped exercise ``slug`` (KeyError: there is none)."""
    return catalog().get(slug)


@cache
def library() -> tuple[Implementation, ...]:
    """The library of correct and wrong searches the diagnosis compares a case with."""
    return tuple(load_library(EXERCISES / "implementations"))


@cache
def trees_of(slug: str) -> dict[str, Tree]:
    """The exercise's public trees by name, then ``hidden-0`` ... the candidates."""
    found = exercise(slug)
    trees = {entry.name: entry.tree for entry in found.trees}
    for index in range(GENERATED):
        trees[f"hidden-{index}"] = candidate_tree(found, DEVELOPMENT_KEY, index)
    return trees


def signatures(case: Case) -> tuple[Exercise, dict[str, Tree], dict[str, Signature]]:
    """The case's exercise, its trees, and the case's search of each tree as the sandbox's
    harness records it (run in process: the set is the project's own code)."""
    found, trees = exercise(case.exercise), trees_of(case.exercise)
    source = case.source
    searched = {}
    for name, tree in trees.items():
        spec = entry_spec(found.algorithm, found.entry_points, tree, found.options.depth_limit)
        run = run_local(tree, source, spec, filename=case.path.name)
        searched[name] = observed_signature(run.observed)
    return found, trees, searched
