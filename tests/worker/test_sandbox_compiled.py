"""Whether a file compiles is decided on the trusted side, before any child runs."""

from __future__ import annotations

import warnings

import pytest

from tests.worker.test_sandbox_support import ALPHABETA
from worker.sandbox import SandboxOutcome, SandboxVerdict, compile_check


def check(source: str) -> SandboxOutcome:
    outcome = compile_check(source, "submission.py")
    assert outcome is not None
    assert outcome.verdict is SandboxVerdict.COMPILE_ERROR
    return outcome


def test_a_file_that_compiles_has_no_outcome() -> None:
    assert compile_check(ALPHABETA, "submission.py") is None


@pytest.mark.parametrize(
    ("source", "message", "line", "column"),
    [
        ("def max_value(game, state:\n    pass\n", "SyntaxError: ", 1, 14),
        ("if True:\nx = 1\n", "IndentationError: expected an indented block", 2, 1),
        ("if True:\n\tx = 1\n        y = 2\n", "TabError: inconsistent use of tabs", 3, 1),
        ("x = 1\nreturn x\n", "SyntaxError: 'return' outside function", 2, 1),
        ("x = 1\ny = 'a\0b'\n", "null bytes", 2, 7),
        ("x = 1\ny = '\ud800'\n", "not valid text", 2, 6),
    ],
    ids=["syntax", "indentation", "tabs", "return outside", "NUL", "lone surrogate"],
)
def test_an_error_names_its_line_and_column(
    source: str, message: str, line: int, column: int
) -> None:
    outcome = check(source)
    assert message in outcome.message
    assert (outcome.line, outcome.column) == (line, column)


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("x = " + "1 + " * 300_000 + "1\n", "nests expressions or blocks too deeply"),
        ("x = " + "-" * 100_000 + "1\n", "too large or nests too deeply"),
    ],
    ids=["recursion", "parser stack"],
)
def test_a_file_too_deep_for_the_compiler_is_a_compile_error(source: str, message: str) -> None:
    assert message in check(source).message


def test_a_warning_is_no_compile_error_whatever_the_graders_warning_filters() -> None:
    source = 'def max_value(game, state):\n    return 1 if state is "x" else "\\d"\n'
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert compile_check(source, "warned.py") is None
