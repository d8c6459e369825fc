"""Numbers as tree files write them: ints, floats, exponents and exact fractions.

Numbers are parsed from the text as written, not through YAML's type resolution, so
``1/3`` is an exact fraction, ``.nan`` and ``1e999`` are refused, and ``yes`` is not a number.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

from reference.tree import Number

_INT = re.compile(r"[+-]?[0-9]+\Z")
_FLOAT = re.compile(r"[+-]?(?:[0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)(?:[eE][+-]?[0-9]+)?\Z")
_FRACTION = re.compile(r"([+-]?[0-9]+)/([0-9]+)\Z")
_NON_FINITE = re.compile(r"[+-]?\.?(?:nan|inf|infinity)\Z", re.IGNORECASE)
_MAX_DIGITS = 1000


class NumberError(ValueError):
    """The text is not a finite number; the message says why."""


def looks_numeric(text: str) -> bool:
    """True when ``text`` is meant as a number, even a bad one (NaN, inf, 1/0, 1e999)."""
    return bool(
        _INT.match(text) or _FLOAT.match(text) or _FRACTION.match(text) or _NON_FINITE.match(text)
    )


def parse_number(text: str) -> Number:
    """The int, float or Fraction written as ``text``.

    Raises :class:`NumberError` for anything else, including NaN, infinities, numbers
    that overflow a float, a zero denominator and booleans.
    """
    if len(text) > _MAX_DIGITS:
        raise NumberError(f"number too long ({len(text)} characters)")
    if _INT.match(text):
        return int(text)
    if fraction := _FRACTION.match(text):
        numerator, denominator = int(fraction[1]), int(fraction[2])
        if denominator == 0:
            raise NumberError(f"{text!r} divides by zero")
        return Fraction(numerator, denominator)
    if _FLOAT.match(text):
        value = float(text)
        if not math.isfinite(value):
            raise NumberError(f"{text!r} is too large for a finite number")
        return value
    if _NON_FINITE.match(text):
        raise NumberError(f"{text!r} is not a finite number")
    raise NumberError(f"{text!r} is not a number")


def format_number(value: Number) -> str:
    """The text that :func:`parse_number` reads back as an equal value of the same type."""
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, float):
        return repr(value)
    return str(int(value))
