"""Each exercise's hidden-tree pool, built once in a process and shared.

Building a pool judges the library's wrong implementations on many candidates
(:func:`reference.hidden.selection.build_pool`): it costs far more than a grading. Its
result depends only on the exercise, the key and the wrong implementations, so the grading
(every draw) and the version's analysis (the hidden-tree check) share one pool.
"""

from __future__ import annotations

from collections.abc import Mapping

from reference.caching import IdentityCache
from reference.exercises.model import Exercise
from reference.hidden.selection import Pool, build_pool
from reference.hidden.trusted import reference_judge

POOLS_KEPT = 32
"""Exercises whose pools are kept (an exercise object is never changed once loaded)."""

_kept: IdentityCache[dict[tuple[bytes, tuple[tuple[str, str], ...]], Pool]] = IdentityCache(
    POOLS_KEPT
)


def reference_pool(exercise: Exercise, key: bytes, wrong: Mapping[str, str]) -> Pool:
    """The pool of ``exercise`` under ``key`` for the ``wrong`` implementations (sources by
    name), judged against the reference search (kept)."""
    pools = _kept.get(dict, exercise)
    slot = (key, tuple(sorted(wrong.items())))
    found = pools.get(slot)
    if found is None:
        found = pools.setdefault(slot, build_pool(exercise, key, wrong, reference_judge(exercise)))
    return found
