"""The submitted source as the submission page shows it: numbered, highlighted lines.

Highlighting is done here, on the server, with Pygments' Python lexer; the page needs no
script for it. Every line is an element with the id ``line-N`` (so ``#line-N`` links to
it), every piece of text is escaped, and a token's kind becomes one short class that
``code.css`` colours (the colours meet WCAG AA contrast on the panel's background). Lines
an error or a divergence names are marked with a class, a sign and words, not colour alone.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from markupsafe import Markup, escape
from pygments.lexers.python import PythonLexer
from pygments.token import (
    Comment,
    Keyword,
    Name,
    Number,
    Operator,
    String,
    _TokenType,
)

from reference.report import Report
from reference.verdict_words import verdict_word

SOURCE_SHOWN = 512 * 1024
"""Characters of a source shown highlighted; a longer one (past any upload limit) is cut,
saying so."""

_CLASSES: tuple[tuple[_TokenType, str], ...] = (
    (Comment, "c"),
    (String.Doc, "sd"),
    (String, "s"),
    (Number, "m"),
    (Keyword.Constant, "kc"),
    (Keyword, "k"),
    (Operator.Word, "k"),
    (Name.Builtin.Pseudo, "bp"),
    (Name.Builtin, "nb"),
    (Name.Function, "nf"),
    (Name.Class, "nc"),
    (Name.Decorator, "nd"),
    (Name.Exception, "ne"),
)
"""Token kinds and their classes, the most specific first."""


@dataclass(frozen=True, slots=True)
class Mark:
    """A line to mark in the listing: ``kind`` is ``error``, ``call`` or ``fix`` (where a
    divergence's fix belongs); ``note`` says why
    (shown beside the line and read by screen readers)."""

    kind: str
    note: str


@functools.cache
def _css_class(token: _TokenType) -> str | None:
    """The class of a token kind (kept: a listing asks it once per token, of a few kinds)."""
    for kind, name in _CLASSES:
        if token in kind:
            return name
    return None


def _lines(source: str) -> Iterable[list[tuple[str | None, str]]]:
    """The highlighted pieces of each line of ``source``, line by line."""
    lexer = PythonLexer(stripnl=False, ensurenl=False, tabsize=0)
    line: list[tuple[str | None, str]] = []
    for token, text in lexer.get_tokens(source):
        name = _css_class(token)
        parts = text.split("\n")
        for index, part in enumerate(parts):
            if index:
                yield line
                line = []
            if part and line and line[-1][0] == name:
                line[-1] = (name, line[-1][1] + part)
            elif part:
                line.append((name, part))
    yield line


LISTINGS_KEPT = 16
"""Listings kept rendered, the most recently shown (a page polled or reloaded while it is
graded shows the same one; a file at the upload limit takes the lexer most of a second)."""


def render_source(source: str, marks: Mapping[int, Mark] | None = None) -> Markup:
    """``source`` as an ordered listing of highlighted lines, ``marks`` marked by number."""
    return _listing(source, tuple(sorted((marks or {}).items())))


@functools.lru_cache(maxsize=LISTINGS_KEPT)
def _listing(source: str, marked: tuple[tuple[int, Mark], ...]) -> Markup:
    marks = dict(marked)
    cut = len(source) > SOURCE_SHOWN
    shown = _newlines(source[:SOURCE_SHOWN] if cut else source)
    if shown.endswith("\n"):
        shown = shown[:-1]
    rows = []
    for number, pieces in enumerate(_lines(shown), start=1):
        code = "".join(
            str(escape(text)) if name is None else f'<span class="{name}">{escape(text)}</span>'
            for name, text in pieces
        )
        mark = marks.get(number)
        classes = "line"
        note = ""
        if mark is not None:
            classes += f" marked mark-{escape(mark.kind)}"
            note = f'<span class="mark-note">{escape(mark.note)}</span>'
        rows.append(
            f'<span class="{classes}" id="line-{number}">'
            f'<span class="ln" aria-hidden="true">{number}</span>'
            f'<span class="lc">{code or " "}</span>{note}</span>'
        )
    # Each line is a block of its own: a newline between them would show as an empty line.
    listing = "".join(rows)
    ending = '<p class="muted source-cut">The rest of the file is not shown.</p>' if cut else ""
    return Markup(f'<pre class="source"><code>{listing}</code></pre>{ending}')


NOTE_LIMIT = 160
"""Characters of a message kept in a line's note."""


def _newlines(source: str) -> str:
    """``source`` with its lines ended as Python counts them (``\r\n`` and ``\r`` too)."""
    return source.replace("\r\n", "\n").replace("\r", "\n")


def line_count(source: str) -> int:
    """How many lines the listing of ``source`` has."""
    shown = _newlines(source[:SOURCE_SHOWN])
    return shown.count("\n") + (0 if shown.endswith("\n") else 1)


def _short(text: str) -> str:
    return text if len(text) <= NOTE_LIMIT else text[: NOTE_LIMIT - 1] + "…"


def report_marks(report: Report | None, source: str) -> dict[int, Mark]:
    """The lines of ``source`` that ``report`` names: its errors' lines (the run's, each
    public tree's) and the lines from which the first divergences' calls were made. A line
    the listing does not have (an error at the end of the file) is left out."""
    if report is None:
        return {}
    lines = line_count(source)
    found: dict[int, Mark] = {}

    def add(line: int | None, kind: str, note: str) -> None:
        if line is None or not 0 < line <= lines:
            return
        earlier = found.get(line)
        if earlier is None:
            found[line] = Mark(kind, _short(note))
        elif note not in earlier.note:
            kind = "error" if "error" in (kind, earlier.kind) else kind
            found[line] = Mark(kind, _short(f"{earlier.note}; {note}"))

    add(report.line, "error", f"{verdict_word(report.verdict)}: {report.message}")
    for case in report.cases:
        if case.hidden:
            continue
        if case.line is not None and case.line != report.line:
            add(case.line, "error", f"{case.name}: {case.message or verdict_word(case.verdict)}")
        divergence = case.first_divergence
        if divergence is not None:
            add(
                divergence.line,
                "call",
                f"{case.name}: the first divergence, at node {divergence.node}, comes from here",
            )
            if divergence.fix_site in ("assignment", "loop") and divergence.fix_name:
                add(
                    divergence.fix_line,
                    "fix",
                    f"{case.name}: where {divergence.fix_name} should change "
                    f"(the first divergence, at node {divergence.node})",
                )
    return found
