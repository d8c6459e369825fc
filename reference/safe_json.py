r"""Values made safe to store and to print, whatever text a student's code produced.

A grading report carries text the student's code chose (exception messages, printed
output, node names it asked about) and numbers it returned. Three kinds of value break
storage: non-finite floats (strict JSON has no ``Infinity``; PostgreSQL refuses it), NUL
characters (PostgreSQL's text refuses them) and lone surrogates (no UTF-8 encoding exists,
so both PostgreSQL and SQLite refuse them). Printing to a terminal adds a fourth: control
characters, with which the text could move the cursor or rewrite what was printed before.

>>> json_safe({"value": float("inf"), "message": "bad\x00byte"})
{'value': 'inf', 'message': 'bad\\x00byte'}
>>> print(terminal_text("\x1b[2Kdone"))
\x1b[2Kdone

Each character is replaced by visible text: ``\x00`` for NUL, ``\ud800`` for a lone
surrogate. An existing backslash is left as it is, so the escaping is for reading, not a
reversible encoding.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any, TypeAlias, overload

JsonValue: TypeAlias = "dict[str, JsonValue] | list[JsonValue] | str | int | float | bool | None"

_STORED_UNSAFE = re.compile("[\x00\ud800-\udfff]")
"""What storage refuses: NUL and surrogates (left alone once the pairs are joined)."""
_TERMINAL_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
"""C0 controls but tab and newline, DEL, C1 controls, and surrogates."""
_SURROGATE_PAIR = re.compile("[\ud800-\udbff][\udc00-\udfff]")


def _shown(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def _paired(match: re.Match[str]) -> str:
    # A high and a low surrogate side by side are one character written in UTF-16 (as a
    # JSON escape or a UTF-16 codec would leave it): kept as that character.
    high, low = (ord(c) for c in match.group())
    return chr(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))


def _escaped(text: str, unsafe: re.Pattern[str]) -> str:
    text = _SURROGATE_PAIR.sub(_paired, text)
    return unsafe.sub(_shown, text)


def safe_text(text: str) -> str:
    """``text`` with each NUL shown as ``\\x00`` and each lone surrogate as ``\\udXXX``:
    storable in PostgreSQL and SQLite text columns and encodable as UTF-8."""
    if text.isascii() and "\x00" not in text:
        return text  # the common case, checked at C speed
    return _escaped(text, _STORED_UNSAFE)


def terminal_text(text: str) -> str:
    """``text`` fit to print on a terminal: every control character but newline and tab
    (ESC, CR, BEL, backspace, DEL, the C1 controls ...) shown as ``\\x1b`` and the like,
    NUL and lone surrogates as in :func:`safe_text`."""
    return _escaped(text, _TERMINAL_UNSAFE)


def _float(value: float) -> float | str:
    if math.isfinite(value):
        return float(value)
    if math.isnan(value):
        return "nan"
    return "inf" if value > 0 else "-inf"


def _key(key: object) -> str:
    if isinstance(key, str):
        return safe_text(key)
    # The keys json.dumps itself accepts, written as it writes them.
    if isinstance(key, bool) or key is None:
        return {True: "true", False: "false", None: "null"}[key]
    if isinstance(key, int):
        return str(int(key))
    if isinstance(key, float):
        shown = _float(key)
        return shown if isinstance(shown, str) else repr(shown)
    raise TypeError(f"a JSON object's key must be a string, not {type(key).__name__}")


@overload
def json_safe(value: Mapping[Any, Any]) -> dict[str, Any]: ...
@overload
def json_safe(value: list[Any] | tuple[Any, ...]) -> list[Any]: ...
@overload
def json_safe(value: object) -> JsonValue: ...
def json_safe(value: object) -> JsonValue:
    """A copy of the JSON-like ``value`` that is valid strict JSON, encodable as UTF-8 and
    storable in PostgreSQL (JSON and JSONB) and SQLite.

    Dicts, lists and tuples (which become lists) are copied through; floats ``inf``,
    ``-inf`` and ``nan`` become the strings ``"inf"``, ``"-inf"`` and ``"nan"``; every
    string, keys included, goes through :func:`safe_text`. Other types raise TypeError, as
    :func:`json.dumps` would."""
    if isinstance(value, str):
        return safe_text(value)
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return _float(value)
    if isinstance(value, Mapping):
        return {_key(key): json_safe(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(item) for item in value]
    raise TypeError(f"not a JSON value: {type(value).__name__}")
