"""A value as a report holds it: a number JSON carries exactly, else its whole text (the
report is cut to size by :func:`reference.reporting.limits.fit`, not here)."""

from __future__ import annotations

from reference.tree import Number
from reference.values import format_value


def reported(value: Number | None) -> int | float | str | None:
    """``value`` as the report holds it: an int JSON carries exactly or a float (a
    non-finite float is written "inf", "-inf" or "nan" by :mod:`reference.report`), else
    its text."""
    if value is None or (type(value) is int and abs(value) < 2**53) or type(value) is float:
        return value
    return format_value(value)


def shown(value: Number | None) -> str | None:
    """``value``'s text, as a step or a rule shows it (None: no value)."""
    return None if value is None else format_value(value)
