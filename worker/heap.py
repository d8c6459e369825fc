"""Keeping the cyclic garbage collector off what a worker process keeps for good.

A grading process keeps, per exercise it grades, the hidden-tree pool, the library, the
kept reference searches and the judge's and diagnosis's kept facts: a few hundred thousand
objects that live as long as the process. Every full collection walks all of them, which
measured as an eighth of a grading's CPU in the trusted process (Figure 5.2 alpha-beta on
PostgreSQL, 47.0 ms a grading, 41.3 ms with them frozen). So, after gradings 1, 2, 4, 8,
... (at most every :data:`SETTLE_AT_MOST` gradings), the process collects once and moves
every object it holds into the collector's permanent generation (:func:`gc.freeze`),
where full collections no longer look. What is frozen is still freed when nothing refers
to it (reference counting is untouched); only a reference cycle made before a freeze and
dropped after it would stay: the kept structures are trees of frozen dataclasses, without
cycles.
"""

from __future__ import annotations

import gc
import threading

SETTLE_AT_MOST = 256
"""Gradings between two settlings once the process is warm."""

_lock = threading.Lock()
_graded = 0
_next = 1


def settle_after_grading() -> bool:
    """Count a grading; collect and freeze when this is one after which it is due. True
    when it settled."""
    global _graded, _next
    with _lock:
        _graded += 1
        if _graded < _next:
            return False
        _next = _graded + min(_graded, SETTLE_AT_MOST)
    gc.collect()
    gc.freeze()
    return True
