r"""Text made safe to store and to print, whatever text a student's code produced.

A grading report carries text the student's code chose (exception messages, printed
output, node names it asked about). Two kinds of character break storage: NUL
(PostgreSQL's text refuses it) and lone surrogates (no UTF-8 encoding exists, so both
PostgreSQL and SQLite refuse them). Printing to a terminal adds control characters, with
which the text could move the cursor or rewrite what was printed before. (The report's
numbers, inf and nan among them, are written as strict JSON by :mod:`reference.report`,
whose text fields go through :func:`safe_text`.)

>>> safe_text("bad\x00byte")
'bad\\x00byte'
>>> print(terminal_text("\x1b[2Kdone"))
\x1b[2Kdone

Each character is replaced by visible text: ``\x00`` for NUL, ``\ud800`` for a lone
surrogate. An existing backslash is left as it is, so the escaping is for reading, not a
reversible encoding.
"""

from __future__ import annotations

import re

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
