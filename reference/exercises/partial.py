"""What can still be checked in an ``exercise.yaml`` that breaks its schema.

An upload should report every problem in one pass: a misspelt key in exercise.yaml must
not hide an undefined node in a tree file. So the trees are checked one by one, each
with the search of the exercise when that part of the file is valid on its own.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from reference.algorithms import ALGORITHMS
from reference.exercises.schema import ConventionsSchema, TreeSchema
from reference.search import SearchOptions

SOURCE_KEYS = ("file", "tree", "game")


def readable_parts(
    data: Any,
) -> tuple[tuple[str, SearchOptions] | None, list[tuple[int, TreeSchema]]]:
    """The algorithm with its options (None unless both are valid) and the trees whose
    source is valid, each with its index in ``trees``."""
    if not isinstance(data, dict):
        return None, []
    chosen = None
    algorithm = data.get("algorithm")
    try:
        conventions = ConventionsSchema.model_validate(data.get("conventions", {}))
    except ValidationError:
        conventions = None
    if isinstance(algorithm, str) and algorithm in ALGORITHMS and conventions is not None:
        chosen = (algorithm, conventions.options())
    trees = data.get("trees")
    entries = []
    for index, item in enumerate(trees if isinstance(trees, list) else []):
        entry = _readable_entry(item)
        if entry is not None:
            entries.append((index, entry))
    return chosen, entries


def _readable_entry(item: Any) -> TreeSchema | None:
    """The tree entry; or, when it has problems of its own (already reported), only its
    source, so that its tree file is checked beside a misspelt key. Its expectations are
    then left for the next upload: any of them may be what is wrong."""
    try:
        return TreeSchema.model_validate(item)
    except ValidationError:
        pass
    if not isinstance(item, dict):
        return None
    source = {key: item[key] for key in SOURCE_KEYS if key in item}
    try:
        return TreeSchema.model_validate({"name": "unnamed", **source})
    except ValidationError:
        return None
