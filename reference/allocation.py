"""Help for building large trees quickly."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while a large, acyclic structure is built.

    Building a tree allocates millions of objects and no reference cycles; the collector's
    repeated passes over the growing heap would otherwise triple the time it takes.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
