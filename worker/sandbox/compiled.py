"""Whether a student's file compiles, decided on the trusted side before any child runs.

The child compiles the same source the same way (``dont_inherit=True``, the same
interpreter), so a compile error it reports can only be a forgery: the verdict
``compile_error`` comes from here alone (see :mod:`worker.sandbox.outcome`).
"""

from __future__ import annotations

import warnings

from worker.sandbox.outcome import SandboxOutcome, SandboxVerdict


def compile_check(source: str, filename: str) -> SandboxOutcome | None:
    """The ``compile_error`` outcome of ``source``, with the line and column where Python
    gives them, or None when it compiles."""
    try:
        # Warnings (an ``is`` with a literal, an invalid escape) are the student's to see in
        # their own run, not this process's stderr; and the process's filters (``-W
        # error``) must not turn them into compile errors the child would not agree with.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(source, filename, "exec", dont_inherit=True)
    except SyntaxError as error:  # IndentationError and TabError too
        message = f"{type(error).__name__}: {error.msg}"
        line, column = error.lineno, error.offset
        if line is None and "\0" in source:  # Python names no place for a NUL character
            line, column = _position(source, source.index("\0"))
        return SandboxOutcome(SandboxVerdict.COMPILE_ERROR, message, line, column)
    except UnicodeEncodeError as error:  # a lone surrogate: the text is not valid Unicode
        line, column = _position(source, error.start)
        message = "your file holds a character that is not valid text (a lone surrogate)"
        return SandboxOutcome(SandboxVerdict.COMPILE_ERROR, message, line, column)
    except ValueError as error:  # a NUL character, in Python versions that say so this way
        at = source.find("\0")
        line, column = _position(source, at) if at >= 0 else (None, None)
        return SandboxOutcome(
            SandboxVerdict.COMPILE_ERROR, f"your file cannot be compiled: {error}", line, column
        )
    except RecursionError:
        return SandboxOutcome(
            SandboxVerdict.COMPILE_ERROR,
            "your file nests expressions or blocks too deeply to compile",
        )
    except MemoryError:  # also the parser's own stack overflowing (``-`` * 100000 + ``1``)
        return SandboxOutcome(
            SandboxVerdict.COMPILE_ERROR, "your file is too large or nests too deeply to compile"
        )
    except OverflowError as error:
        return SandboxOutcome(
            SandboxVerdict.COMPILE_ERROR, f"your file cannot be compiled: {error}"
        )
    return None


def _position(source: str, index: int) -> tuple[int, int]:
    """The 1-based line and column of character ``index`` of ``source``."""
    line_start = source.rfind("\n", 0, index) + 1
    return source.count("\n", 0, index) + 1, index - line_start + 1
