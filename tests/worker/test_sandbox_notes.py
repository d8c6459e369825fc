"""What reading a tree's notes costs the trusted side is bounded by the tree, not by the
student: a value's size, the notes per tree and per game call, and the CPU time spent on
them. Past a bound the tree ends as ``protocol_violation``; a correct search never gets
near one."""

from __future__ import annotations

import json
import textwrap
import time
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path

import pytest

from reference.exercises import load_catalog
from reference.exercises.model import Limits
from reference.hidden import DEVELOPMENT_KEY, LIBRARY_FOLDER, candidate_tree, load_library
from reference.observed import Call, Return, Visit
from reference.tree import Tree
from reference.treefile import parse_compact
from tests.worker.test_sandbox_support import ALPHABETA, FIG52, leftover_processes, run, server
from worker.harness.local import entry_spec, run_local
from worker.sandbox import RunRecord, SandboxOptions, SandboxVerdict, run_sandboxed_trees
from worker.sandbox.bounds import NoteBounds, submission_decode_seconds
from worker.sandbox.reports import VALUE_FIELD_LIMIT

FLOOD = """
import os

def _flood(game, state):
    token = state._token.encode()
    fields = {fields!r}
    line = b"Cmax_value\\t" + token + b"\\t"
    batch = []
    for number in range({notes}):
        alpha, beta, depth = (field.replace(b"#", str(number).encode()) for field in fields)
        batch.append(line + alpha + b"\\t" + beta + b"\\t" + depth + b"\\n")
        if len(batch) == {per_packet}:
            body = b"".join(batch)
            os.write(4, len(body).to_bytes(4, "little") + body)
            batch.clear()
        if number % {per_game_call} == {per_game_call} - 1:
            game.actions(state)

_flooded = []
"""


def flooding(
    fields: tuple[bytes, bytes, bytes], notes: int, per_packet: int, per_game_call: int
) -> str:
    """The correct search, after sending ``notes`` call notes of its root on its own, with
    these value fields (``#`` is replaced by the note's number), ``per_packet`` to a
    message, and a game call after every ``per_game_call`` notes."""
    flood = FLOOD.format(
        fields=fields, notes=notes, per_packet=per_packet, per_game_call=per_game_call
    )
    return flood + ALPHABETA.replace(
        "def max_value(game, state, alpha, beta):\n",
        "def max_value(game, state, alpha, beta):\n"
        "    if not _flooded:\n"
        "        _flooded.append(True)\n"
        "        _flood(game, state)\n",
    )


def fraction_field(terms: int, shown: str) -> bytes:
    """A ``j`` value field: a fraction of two ``terms``-digit integers."""
    value = [[10 ** (terms - 1) + 1, 10 ** (terms - 1) + 3], None, shown]
    return b"j" + json.dumps(value).encode()


@contextmanager
def grader_cpu() -> Iterator[list[float]]:
    """The CPU time this thread (the trusted side's serving loop) spends in the block."""
    spent: list[float] = []
    start = time.thread_time()
    yield spent
    spent.append(time.thread_time() - start)


def full_tree(branching: int, height: int) -> Tree:
    """A MAX/MIN tree of that shape with small utilities."""
    counter = iter(range(10**9))

    def node(level: int) -> str:
        if level == height:
            return str(next(counter) % 19 - 9)
        kind = "MAX" if level % 2 == 0 else "MIN"
        return f"{kind}[ " + " ".join(node(level + 1) for _ in range(branching)) + " ]"

    return parse_compact(node(0))


SLOW = Limits(cpu_seconds=20, wall_seconds=20, memory_mb=256)
"""Limits the floods never reach: what ends them must be the bounds of the notes."""


def flood_run(source: str, tree: Tree | None = None) -> tuple[RunRecord, float]:
    with grader_cpu() as spent:
        record = run(source, tree=tree, limits=SLOW)
    assert leftover_processes(server()) == []
    return record, spent[0]


def test_a_value_longer_than_any_honest_one_is_refused_before_it_is_read() -> None:
    # 2,000 notes of two 4,000-digit fractions: unread, they cost nothing.
    huge = fraction_field(4000, "x")
    record, cpu = flood_run(flooding((huge, huge, b""), 2000, 3, 10**6))
    assert record.outcome.verdict is SandboxVerdict.PROTOCOL_VIOLATION, record.outcome
    assert "a reported value longer than" in record.outcome.message
    assert cpu < 0.5


def test_an_integer_over_1024_bits_is_refused() -> None:
    # 500 digits fit the longest honest value field (it allows for an 80-character shown
    # text), but no honest value has such an integer.
    field = fraction_field(500, "x")
    assert len(field) < VALUE_FIELD_LIMIT
    record, _ = flood_run(flooding((field, b"i1", b""), 1, 1, 10**6))
    assert record.outcome.verdict is SandboxVerdict.PROTOCOL_VIOLATION, record.outcome
    assert "1,024 bits" in record.outcome.message


def test_a_flood_of_notes_between_two_game_calls_is_a_violation() -> None:
    # Distinct small values (none read twice), 15,000 notes with no game call between.
    record, cpu = flood_run(flooding((b"i#", b"i-#", b""), 15_000, 200, 10**6))
    assert record.outcome.verdict is SandboxVerdict.PROTOCOL_VIOLATION, record.outcome
    assert "without a game call between them" in record.outcome.message
    assert cpu < 2.0


def test_a_flood_of_notes_on_one_tree_is_a_violation() -> None:
    # Distinct small values, a game call every 1,000 notes, more notes than the tree's bound.
    bounds = NoteBounds.for_tree(len(parse_compact(FIG52)), 10_000)
    record, cpu = flood_run(flooding((b"i#", b"i-#", b""), bounds.per_tree + 1000, 200, 1000))
    assert record.outcome.verdict is SandboxVerdict.PROTOCOL_VIOLATION, record.outcome
    assert f"more than {bounds.per_tree:,} calls and returns" in record.outcome.message
    assert cpu < 2.0


@pytest.mark.slow
def test_the_cpu_time_spent_reading_notes_is_bounded() -> None:
    # The longest values an honest child sends (two 1,024-bit integers and 80 characters
    # of shown text), three to a note, on a tree large enough that the count of notes
    # alone would allow more than the CPU bound.
    value = [[-(2**1024 - 1), 2**1024 - 3], None, "\U0001f600" * 80]
    field = b"j" + json.dumps(value).encode()
    assert len(field) - 1 <= VALUE_FIELD_LIMIT
    tree = full_tree(4, 6)
    record, cpu = flood_run(flooding((field, field, field), 200_000, 13, 500), tree)
    bounds = NoteBounds.for_tree(len(tree), 10_000)
    assert record.outcome.verdict is SandboxVerdict.PROTOCOL_VIOLATION, record.outcome
    assert "s of CPU time" in record.outcome.message
    # Past the bound the tree ends; the serving loop's own work comes on top (a loaded
    # machine has made it about a second). Before the bound existed: 12 s and more.
    assert bounds.decode_seconds <= cpu < bounds.decode_seconds + 2.0


@pytest.mark.parametrize(
    "tree",
    [parse_compact(FIG52), full_tree(4, 6)],
    ids=["figure 5.2", "4^6 leaves"],
)
def test_a_correct_search_is_far_from_every_bound(tree: Tree) -> None:
    record = run(ALPHABETA, tree=tree, limits=SLOW)
    assert record.outcome.verdict is SandboxVerdict.COMPLETED, record.outcome
    notes = sum(isinstance(event, Call | Return) for event in record.observed.events)
    assert notes < NoteBounds.for_tree(len(tree), 10_000).per_tree / 4


def test_exact_fractions_still_travel() -> None:
    source = textwrap.dedent(
        """
        from fractions import Fraction

        def max_value(game, state, alpha, beta):
            return Fraction(2**1000 + 1, 3)

        def min_value(game, state, alpha, beta):
            return 0
        """
    )
    record = run(source)
    assert record.outcome.verdict is SandboxVerdict.COMPLETED, record.outcome
    assert record.observed.root_value == Fraction(2**1000 + 1, 3)


EXERCISES = Path(__file__).resolve().parents[2] / "exercises"


def notes_of(events: list[object]) -> tuple[int, int]:
    """The notes of a search, and the most of them between two game calls (a ``result``
    is not counted as one: it is often answered without a line)."""
    notes = most = since = 0
    for event in events:
        if isinstance(event, Call | Return):
            notes += 1
            since += 1
            most = max(most, since)
        elif isinstance(event, Visit):
            since = 0
    return notes, most


@pytest.mark.slow
def test_the_librarys_searches_stay_far_within_the_bounds() -> None:
    # Honest searches, right or wrong (searching children twice, never pruning, ...), on
    # every exercise's public trees and the first hidden-tree candidates.
    catalog = load_catalog(EXERCISES)
    library = load_library(EXERCISES / LIBRARY_FOLDER)
    for slug in catalog.slugs():
        exercise = catalog.get(slug)
        trees = [entry.tree for entry in exercise.trees]
        trees += [candidate_tree(exercise, DEVELOPMENT_KEY, index) for index in range(10)]
        for implementation in (item for item in library if item.applies_to(exercise)):
            for tree in trees:
                spec = entry_spec(
                    exercise.algorithm, exercise.entry_points, tree, exercise.options.depth_limit
                )
                searched = run_local(tree, implementation.source, spec, implementation.path.name)
                notes, most = notes_of(searched.observed.events)
                bounds = NoteBounds.for_tree(len(tree), spec.recursion_limit)
                where = f"{slug} {implementation.name} on a tree of {len(tree)} nodes"
                assert notes <= bounds.per_tree / 2, where
                assert most <= bounds.per_game_call / 100, where


def test_reading_values_has_one_allowance_per_submission_not_one_per_tree() -> None:
    # Long values, 12,000 notes a tree: each tree alone stays under its own bound (one
    # second and a little), but nine trees of it would cost the grader several seconds.
    value = [[-(2**1024 - 1), 2**1024 - 3], None, "\U0001f600" * 80]
    field = b"j" + json.dumps(value).encode()
    source = flooding((field, field, field), 12_000, 13, 500)
    tree = parse_compact(FIG52)
    runs = [(tree, entry_spec("alphabeta", ("max_value", "min_value"), tree))] * 9
    allowance = submission_decode_seconds(9 * len(tree))
    with grader_cpu() as spent:
        records = run_sandboxed_trees(
            runs, source, "flood.py", SLOW, options=SandboxOptions(forkserver=server())
        )
    assert leftover_processes(server()) == []
    last = records[-1].outcome
    assert last.verdict is SandboxVerdict.PROTOCOL_VIOLATION, [r.outcome for r in records]
    assert "what was left for this tree" in last.message
    assert len(records) < 9
    # The serving loop's own work (forks, requests, the other notes) comes on top; a busy
    # machine has made it about a second.
    assert spent[0] < allowance + 2.0
