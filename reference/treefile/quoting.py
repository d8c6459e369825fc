"""Quoting of names, actions and labels for YAML flow mappings and the compact notation."""

from __future__ import annotations

import re

_PLAIN_YAML = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+\-/]*\Z")
_YAML_ESCAPES = {'"': '\\"', "\\": "\\\\"}


def printable(char: str) -> bool:
    """Characters YAML keeps as they are inside a double-quoted scalar."""
    code = ord(char)
    if code in (0x2028, 0x2029, 0xFEFF):  # line and paragraph separators, byte-order mark
        return False
    return (
        0x20 <= code <= 0x7E
        or 0xA0 <= code <= 0xD7FF
        or 0xE000 <= code <= 0xFFFD
        or code >= 0x10000
    )


def _escape(char: str) -> str:
    if char in _YAML_ESCAPES:
        return _YAML_ESCAPES[char]
    if printable(char):
        return char
    code = ord(char)
    if code <= 0xFF:
        return f"\\x{code:02X}"
    if code <= 0xFFFF:
        return f"\\u{code:04X}"
    return f"\\U{code:08X}"


def yaml_quoted(text: str) -> str:
    """``text`` as a YAML double-quoted scalar that reads back exactly."""
    return '"' + "".join(map(_escape, text)) + '"'


def yaml_scalar(text: str) -> str:
    """``text`` plain where YAML reads it back verbatim inside a flow mapping, else quoted."""
    return text if _PLAIN_YAML.match(text) else yaml_quoted(text)


SIMPLE_KEY_LIMIT = 1000
"""YAML reads a key without ``?`` only up to 1024 characters; longer keys are explicit."""


def yaml_key(text: str, indent: str | None = None) -> str:
    """``text`` as a mapping key with its ``": "`` separator, explicit (``? key``) when long.

    ``indent`` is the indentation of a block mapping's entries; None means a flow mapping.
    """
    scalar = yaml_scalar(text)
    if len(scalar) <= SIMPLE_KEY_LIMIT:
        return f"{scalar}: "
    if indent is None:
        return f"? {scalar} : "
    return f"? {scalar}\n{indent}: "
