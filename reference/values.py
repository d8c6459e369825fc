"""Arithmetic helpers for backed-up values: exact where the inputs are exact, readable in print."""

from __future__ import annotations

import math
from fractions import Fraction

from reference.tree import Number

INF = math.inf


def normalize(value: Number) -> Number:
    """Turn a whole Fraction into an int, so exact expectations print as 10, not 10/1."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return int(value.numerator)
    return value


def format_value(value: Number | None) -> str:
    """A short, exact-enough text for a value: 3, -2.5, 7/3, +inf, -inf."""
    if value is None:
        return "-"
    if isinstance(value, Fraction):
        value = normalize(value)
        if isinstance(value, Fraction):
            return f"{value.numerator}/{value.denominator}"
    if isinstance(value, float):
        if math.isinf(value):
            return "+inf" if value > 0 else "-inf"
        if value.is_integer() and abs(value) < 1e15:
            return f"{value:.1f}"
        return f"{value:.6g}"
    return str(value)
