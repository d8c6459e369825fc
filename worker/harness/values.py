"""Turning whatever a student's function returned into a number the grader can trust."""

from __future__ import annotations

import math
import sys
from decimal import Decimal
from fractions import Fraction
from typing import Any

from reference.observed import ValueProblem
from reference.tree import Number

Described = tuple[Number | None, ValueProblem | None, str]
"""A returned object as (value, problem, short safe description)."""

_SHOWN_LIMIT = 60
MAX_INT_BITS = 1024
"""Larger integers are no game value (and printing them could fail or take long)."""
_MAX_DECIMAL_DIGITS = 400
"""A decimal with more significant digits, or a larger exponent, than this is beyond
:data:`MAX_INT_BITS` (10**400 has 1329 bits): refused before it is made a fraction, which
for ``Decimal("1e999999999")`` would take long."""

# A type's own slots, read through ``type``'s descriptors: a metaclass of the student's
# cannot answer for them.
_TYPE_FLAGS = type.__dict__["__flags__"]
_TYPE_MODULE = type.__dict__["__module__"]
_HEAP_TYPE = 1 << 9
"""Py_TPFLAGS_HEAPTYPE: set on every class a ``class`` statement makes, never on numpy's
own scalar types (defined in C)."""


def describe_value(obj: object) -> Described:
    """``obj`` as a plain number, or why it is not one.

    Objects whose type is exactly int, float or Fraction are numbers. So are numpy's own
    integer and floating scalars (``numpy.float64``, ``numpy.int64``, ``numpy.uint8`` ...,
    what ``np.dot`` or ``np.max`` return), a 0-d numpy array of an integer or floating
    dtype (what ``np.where`` on scalars returns), and a ``decimal.Decimal``: each is made
    the plain int, float or Fraction it equals and then judged as one. A bool or
    ``numpy.bool_``, an int or float subclass of the student's (even one that calls itself
    ``numpy.float64``) with a rigged ``__eq__``, or any other object is reported, never
    compared. ±infinity is a number here (a search may return it from an empty window);
    NaN is not. No method of the student's object is called (numpy's and decimal's own
    conversions are).
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
    if kind is Decimal:
        assert isinstance(obj, Decimal)
        return _describe_decimal(obj)
    plain = _numpy_number(obj, kind)
    if plain is not None:
        return describe_value(plain)
    if isinstance(obj, int | float | Fraction):
        return None, ValueProblem.RIGGED, f"an object of type {kind.__name__!r}"
    return None, ValueProblem.NOT_A_NUMBER, f"an object of type {kind.__name__!r}"


def _numpy_number(obj: object, kind: type) -> int | float | None:
    """``obj`` as a plain int or float if it is one of numpy's own integer or floating
    scalars or a 0-d array of one (None otherwise).

    numpy is not imported here: a student's object can only be numpy's if the student's
    code loaded numpy. Only numpy's own types count (defined in C, in module ``numpy``),
    not a subclass of them or a class of the student's that borrows their names.
    """
    numpy = sys.modules.get("numpy")
    if numpy is None or _TYPE_FLAGS.__get__(kind) & _HEAP_TYPE:
        return None
    if _TYPE_MODULE.__get__(kind) != "numpy":
        return None
    scalar: Any = obj
    if kind is numpy.ndarray:
        if scalar.ndim != 0:
            return None
        scalar = scalar[()]  # the array's one element, as numpy's scalar
        kind = type(scalar)
    if issubclass(kind, numpy.floating):
        return float(scalar)
    if issubclass(kind, numpy.integer):
        return int(scalar)
    return None


def _describe_decimal(obj: Decimal) -> Described:
    if obj.is_nan():
        return None, ValueProblem.NOT_FINITE, "nan"
    if obj.is_infinite():
        return describe_value(float(obj))
    _, digits, exponent = obj.as_tuple()
    assert isinstance(exponent, int)
    significant = len(digits)
    while significant > 1 and digits[significant - 1] == 0:  # 1.000 is 1: its zeros are no size
        significant -= 1
        exponent += 1
    if significant > _MAX_DECIMAL_DIGITS or abs(exponent) > _MAX_DECIMAL_DIGITS:
        return (
            None,
            ValueProblem.TOO_LARGE,
            f"a decimal of {significant} digits, exponent {exponent}",
        )
    return describe_value(Fraction(obj))


def _short(text: str) -> str:
    if len(text) <= _SHOWN_LIMIT:
        return text
    return f"{text[:20]}...({len(text)} digits)"
