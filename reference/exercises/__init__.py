"""Exercises: trees + algorithm + conventions + entry points + limits + scoring.

An exercise lives in a folder holding ``exercise.yaml`` and its tree files; see
:func:`load_exercise` and :func:`load_catalog`.
"""

from reference.exercises.catalog import Catalog, load_catalog
from reference.exercises.loader import load_exercise
from reference.exercises.model import (
    ENTRY_POINTS,
    Exercise,
    ExerciseTree,
    Expectation,
    HiddenTreePolicy,
    Limits,
    Scoring,
)

__all__ = [
    "ENTRY_POINTS",
    "Catalog",
    "Exercise",
    "ExerciseTree",
    "Expectation",
    "HiddenTreePolicy",
    "Limits",
    "Scoring",
    "load_catalog",
    "load_exercise",
]
