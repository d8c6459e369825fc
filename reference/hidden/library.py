"""The implementation library: correct and wrong solutions, each with a machine-readable header.

Every ``*.py`` file below ``exercises/implementations/<family>/`` starts with comment lines
``# key: value`` (see ``exercises/implementations/README.md``)::

    # family: alphabeta
    # algorithms: alphabeta
    # expect: wrong
    # bug: alpha is never updated in MAX-VALUE
    # first-divergence: aima-fig5.2-alphabeta at C2
    # misconception: alpha never raised at MAX nodes
    # explanation: MAX-VALUE finds a move worth v but never tells the MIN nodes below
    #   it, so they keep searching moves MAX would never allow.
    # pseudocode: Figure 5.7, MAX-VALUE: α ← MAX(α, v)
    # hint: After MAX-VALUE finds a better move, what should the MIN nodes below learn?

A value may go on over the following lines that start with ``#`` and at least two spaces
(they are joined with single spaces). Wrong implementations name their misconception
(``misconception``, ``explanation``, ``pseudocode``, ``hint``; see :class:`MisconceptionText`).

Wrong implementations are what hidden-tree selection must catch; correct ones are what
starter files and tests come from.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from reference.algorithms import ALGORITHMS
from reference.contracts import DEFAULT_CONTRACT, hidden_layers
from reference.exercises.model import ENTRY_POINTS, Exercise
from reference.hidden.trusted import judge_source
from reference.problems import FileProblems, Problem
from reference.search import SearchError

LIBRARY_FOLDER = "implementations"
"""The library's folder inside the exercises directory."""

FAMILIES = ("minimax", "alphabeta", "negamax", "depth-limited", "expectimax")
EXPECTS = ("correct", "wrong")
PRUNING = ("on-equality", "strict")
MISCONCEPTION_KEYS = ("misconception", "explanation", "pseudocode", "hint")
"""What a wrong file tells a student about its bug; every wrong file has all four."""
KEYS = (
    "family",
    "algorithms",
    "expect",
    "pruning",
    "bug",
    "first-divergence",
    *MISCONCEPTION_KEYS,
    "equivalent",
)
REQUIRED = ("family", "algorithms", "expect")

_HEADER_LINE = re.compile(r"^#\s*([a-z-]+):\s*(.*?)\s*$")
_CONTINUATION = re.compile(r"^#  +(\S.*?)\s*$")
"""A header value goes on over lines indented by at least two spaces after the ``#``."""
DIVERGENCE = re.compile(r"^(?P<slug>[a-z0-9][a-z0-9.\-]*)(?:/(?P<tree>\S+))? at (?P<node>\S+)$")
"""``first-divergence``: ``SLUG at NODE``, ``SLUG/TREE at NODE`` or ``none``."""


@dataclass(frozen=True, slots=True)
class MisconceptionText:
    """What a wrong implementation gets wrong, as a student is told it: the text of a
    misconception (what the diagnosis found the student's search to match is a
    :class:`reference.diagnosis.Misconception`)."""

    name: str
    """A short name, e.g. "alpha never raised at MAX nodes"."""
    explanation: str
    """One paragraph in the textbook's terms (AIMA's chapter on adversarial search)."""
    pseudocode: str
    """The line of the textbook's pseudocode it concerns, naming the figure."""
    hint: str
    """Where to look, without the corrected code."""


@dataclass(frozen=True, slots=True)
class Implementation:
    """One file of the library and what its header says about it."""

    name: str
    """``family/stem``, e.g. ``alphabeta/wrong_alpha_never_updated``."""
    path: Path
    family: str
    algorithms: tuple[str, ...]
    expect: str
    pruning: str | None
    """Set when the implementation is correct under this pruning rule only."""
    bug: str | None
    first_divergence: str | None
    source: str
    misconception: MisconceptionText | None = None
    """What the bug is, for students (wrong files only)."""
    equivalent: tuple[str, ...] = ()
    """The stems of the files of the same family that are the same misconception."""

    def applies_to(self, exercise: Exercise) -> bool:
        """True when the implementation is written for ``exercise``'s algorithm: with a
        depth limit for the depth-limited family (its functions take the depth last),
        without one for the others; and for its trees' turns (MAX and MIN in turn)."""
        if exercise.algorithm not in self.algorithms:
            return False
        # The library's searches take turns MAX, MIN (or chance) as the textbook's trees
        # do: not where a contract's trees have a layer per opponent (CS188's ghosts).
        layers = ALGORITHMS[exercise.algorithm].layers
        if hidden_layers(exercise.contract, layers) != layers:
            return False
        return (self.family == "depth-limited") == (exercise.options.depth_limit is not None)

    def written_for(self, exercise: Exercise) -> bool:
        """True when a student could hand the file in to ``exercise`` as it is: it applies
        to the exercise, whose students write to the textbook's contract, as the library's
        files are written (to another course's contract its known mistakes still apply,
        through the catchers and the diagnosis, but the file is no submission of it)."""
        return self.applies_to(exercise) and exercise.contract.name == DEFAULT_CONTRACT

    def is_correct_for(self, exercise: Exercise) -> bool:
        """True when the implementation should pass ``exercise``'s trees."""
        if not self.applies_to(exercise) or self.expect != "correct":
            return False
        if self.pruning is None:
            return True
        return (self.pruning == "on-equality") == exercise.options.prune_on_equality

    def is_wrong_for(self, exercise: Exercise) -> bool:
        """True when the hidden trees of ``exercise`` must catch the implementation."""
        return self.applies_to(exercise) and not self.is_correct_for(exercise)


def parse_header(source: str, filename: str) -> tuple[dict[str, tuple[str, int]], list[Problem]]:
    """The ``# key: value`` lines at the top of ``source`` (with their line numbers)."""
    fields: dict[str, tuple[str, int]] = {}
    problems: list[Problem] = []
    last: str | None = None  # the key a continuation line adds to
    for number, line in enumerate(source.splitlines(), start=1):
        if not line.startswith("#"):
            break
        more = _CONTINUATION.match(line)
        if more is not None:
            if last is None:
                problems.append(Problem(filename, number, 1, "a continued line without a key"))
            else:
                text, first = fields[last]
                fields[last] = (f"{text} {more.group(1)}".strip(), first)
            continue
        last = None
        match = _HEADER_LINE.match(line)
        if match is None:
            continue
        key, value = match.groups()
        if key not in KEYS:
            problems.append(Problem(filename, number, 3, f"unknown header key {key!r}"))
        elif key in fields:
            problems.append(Problem(filename, number, 3, f"header key {key!r} given twice"))
        else:
            fields[key] = (value, number)
            last = key
    return fields, problems


def _check(fields: dict[str, tuple[str, int]], family: str, filename: str) -> list[Problem]:
    problems: list[Problem] = []

    def problem(key: str, message: str) -> None:
        line = fields[key][1] if key in fields else 1
        problems.append(Problem(filename, line, 1, message))

    for key in REQUIRED:
        if key not in fields:
            problem(key, f"the header has no {key!r} line")
    value = {key: text for key, (text, _) in fields.items()}
    if "family" in value and value["family"] != family:
        problem("family", f"family {value['family']!r} but the file is in {family!r}")
    for algorithm in _split(value.get("algorithms", "")):
        if algorithm not in ALGORITHMS:
            problem("algorithms", f"unknown algorithm {algorithm!r}")
    expect = value.get("expect")
    if expect is not None and expect not in EXPECTS:
        problem("expect", f"expect must be one of {', '.join(EXPECTS)}, not {expect!r}")
    if "pruning" in value and value["pruning"] not in PRUNING:
        problem("pruning", f"pruning must be one of {', '.join(PRUNING)}")
    # Wrong files, and correct files that are wrong under the other pruning rule, say why.
    if expect == "wrong" or "pruning" in value:
        for key in ("bug", "first-divergence"):
            if not value.get(key):
                problem(key, f"the header needs a {key!r} line")
    divergence = value.get("first-divergence")
    if divergence and divergence != "none" and not DIVERGENCE.match(divergence):
        problem("first-divergence", "first-divergence is 'SLUG at NODE' or 'none'")
    if expect == "wrong":
        for key in MISCONCEPTION_KEYS:
            if not value.get(key):
                problem(key, f"a wrong implementation needs a {key!r} line")
    elif expect == "correct":
        for key in (*MISCONCEPTION_KEYS, "equivalent"):
            if key in value:
                problem(key, f"{key!r} is for wrong implementations only")
    return problems


def _split(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip())


def load_implementation(path: Path, family: str) -> Implementation:
    """Read one library file; FileProblems lists what is wrong with its header."""
    filename = str(path)
    source = path.read_text(encoding="utf-8")
    fields, problems = parse_header(source, filename)
    problems += _check(fields, family, filename)
    if problems:
        raise FileProblems(problems)
    value = {key: text for key, (text, _) in fields.items()}
    misconception = None
    if value["expect"] == "wrong":
        misconception = MisconceptionText(
            name=value["misconception"],
            explanation=value["explanation"],
            pseudocode=value["pseudocode"],
            hint=value["hint"],
        )
    return Implementation(
        name=f"{family}/{path.stem}",
        path=path,
        family=family,
        algorithms=_split(value["algorithms"]),
        expect=value["expect"],
        pruning=value.get("pruning"),
        bug=value.get("bug"),
        first_divergence=value.get("first-divergence"),
        source=source,
        misconception=misconception,
        equivalent=_split(value.get("equivalent", "")),
    )


def load_library(root: str | Path) -> list[Implementation]:
    """Every implementation below ``root`` (``exercises/implementations``), sorted by name.

    Raises FileProblems listing the problems of every file with a bad header.
    """
    root = Path(root)
    found: list[Implementation] = []
    problems: list[Problem] = []
    for family in FAMILIES:
        for path in sorted((root / family).glob("*.py")):
            try:
                found.append(load_implementation(path, family))
            except FileProblems as error:
                problems += error.problems
    problems += _check_equivalents(found)
    if problems:
        raise FileProblems(problems)
    return sorted(found, key=lambda implementation: implementation.name)


def _check_equivalents(library: list[Implementation]) -> list[Problem]:
    """``equivalent`` names wrong files of the same family that name this file back."""
    by_name = {impl.name: impl for impl in library}
    problems: list[Problem] = []
    for impl in library:
        line = next(
            (n for n, text in enumerate(impl.source.splitlines(), 1) if text.startswith("# equiv")),
            1,
        )
        for stem in impl.equivalent:
            other = by_name.get(f"{impl.family}/{stem}")
            if other is None or other.expect != "wrong":
                message = f"equivalent names {stem!r}, not a wrong file of {impl.family!r}"
            elif impl.path.stem not in other.equivalent:
                message = f"{stem!r} does not name {impl.path.stem!r} as equivalent in turn"
            else:
                continue
            problems.append(Problem(str(impl.path), line, 1, message))
    return problems


def wrong_for(exercise: Exercise, library: list[Implementation]) -> dict[str, str]:
    """The sources of the implementations ``exercise``'s hidden trees must catch, by name."""
    return {impl.name: impl.source for impl in library if impl.is_wrong_for(exercise)}


def correct_for(exercise: Exercise, library: list[Implementation]) -> dict[str, str]:
    """The sources of the implementations that must pass ``exercise``, by name."""
    return {impl.name: impl.source for impl in library if impl.is_correct_for(exercise)}


def _as_wrong_case(impl: Implementation, exercise: Exercise) -> Exercise | None:
    """``exercise`` searched the way ``impl`` is wrong for: with its algorithm and, for an
    implementation correct under one pruning rule only, under the other rule."""
    algorithm = exercise.algorithm if impl.applies_to(exercise) else impl.algorithms[0]
    options = exercise.options
    if impl.expect == "correct":
        if impl.pruning is None:
            return None
        options = dataclasses.replace(options, prune_on_equality=impl.pruning == "strict")
    if algorithm.startswith("depth-limited-") and options.depth_limit is None:
        return None
    return dataclasses.replace(
        exercise, algorithm=algorithm, options=options, entry_points=ENTRY_POINTS[algorithm]
    )


def public_divergence(impl: Implementation, exercises: Sequence[Exercise]) -> str:
    """Where ``impl`` first goes wrong on the public trees: ``SLUG at NODE`` or ``none``.

    The textbook-contract exercises of the implementation's algorithms are tried in slug
    order, each tree
    in file order. When no exercise uses one of its algorithms (negamax with alpha-beta,
    say), the other exercises' trees are searched with its first algorithm instead. An
    implementation correct under one pruning rule is tried under the other one.
    """
    # The library's files are written to the textbook's contract: its exercises only.
    ordered = sorted(
        (exercise for exercise in exercises if exercise.contract.name == DEFAULT_CONTRACT),
        key=lambda exercise: exercise.slug,
    )
    own = [exercise for exercise in ordered if impl.applies_to(exercise)]
    if {exercise.algorithm for exercise in own} != set(impl.algorithms):
        own += [exercise for exercise in ordered if not impl.applies_to(exercise)]
    for exercise in own:
        case = _as_wrong_case(impl, exercise)
        if case is None:
            continue
        for tree in exercise.trees:
            try:
                node = judge_source(impl.source, case, tree.tree)
            except SearchError:  # a tree this algorithm cannot search
                break
            if node is not None:
                where = (
                    exercise.slug if len(exercise.trees) == 1 else f"{exercise.slug}/{tree.name}"
                )
                return f"{where} at {node}"
    return "none"
