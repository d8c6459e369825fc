"""Turning whatever a student's function returned into a number the grader can trust."""

from __future__ import annotations

import math
from fractions import Fraction

from reference.observed import ValueProblem
from reference.tree import Number

Described = tuple[Number | None, ValueProblem | None, str]
"""A returned object as (value, problem, short safe description)."""

_SHOWN_LIMIT = 60
MAX_INT_BITS = 1024
"""Larger integers are no game value (and printing them could fail or take long)."""


def describe_value(obj: object) -> Described:
    """``obj`` as a plain number, or why it is not one.

    Only objects whose type is exactly int, float or Fraction count as numbers: a bool,
    an int subclass with a rigged ``__eq__`` or any other object is reported, never
    compared. ±infinity is a number here (a search may return it from an empty window);
    NaN is not. No method of the student's object is called.
    """
    kind = type(obj)
    if obj is None:
        return None, ValueProblem.NONE, "None"
    if kind is bool:
        return None, ValueProblem.NOT_A_NUMBER, repr(obj)
    if kind is int:
        assert isinstance(obj, int)
        if obj.bit_length() > MAX_INT_BITS:
            return None, ValueProblem.TOO_LARGE, f"an integer of {obj.bit_length()} bits"
        return obj, None, _short(str(obj))
    if kind is Fraction:
        assert isinstance(obj, Fraction)
        bits = max(obj.numerator.bit_length(), obj.denominator.bit_length())
        if bits > MAX_INT_BITS:
            return None, ValueProblem.TOO_LARGE, f"a fraction of {bits}-bit integers"
        return obj, None, _short(str(obj))
    if kind is float:
        assert isinstance(obj, float)
        if math.isnan(obj):
            return None, ValueProblem.NOT_FINITE, "nan"
        return obj, None, repr(obj)
    if isinstance(obj, int | float | Fraction):
        return None, ValueProblem.RIGGED, f"an object of type {kind.__name__!r}"
    return None, ValueProblem.NOT_A_NUMBER, f"an object of type {kind.__name__!r}"


def _short(text: str) -> str:
    if len(text) <= _SHOWN_LIMIT:
        return text
    return f"{text[:20]}...({len(text)} digits)"
