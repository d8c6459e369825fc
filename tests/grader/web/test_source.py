"""The submitted source as the submission page lists it: every line an anchor, highlighted,
escaped, the lines a report names marked, and colours that meet WCAG AA contrast."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from grader.web import source as listing
from grader.web.source import Mark, line_count, render_source, report_marks
from reference.report import Divergence, Report, RunVerdict, TreeCase

CSS = (Path(__file__).resolve().parents[3] / "grader" / "web" / "static" / "code.css").read_text()
SOURCE = '''import math

def max_value(game, state):  # <b>not bold</b> & "quoted"
    """A doc
    string over two lines."""
    return 3 if True else None
'''


class _Lines(HTMLParser):
    """The text of each ``.line`` element (without its number), by its id."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: dict[str, str] = {}
        self._current: str | None = None
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        classes = (found.get("class") or "").split()
        if "line" in classes:
            self._current = found["id"]
            self.lines[self._current or ""] = ""
        elif self._skip or "ln" in classes or "mark-note" in classes:
            self._skip += 1

    def handle_endtag(self, tag: str) -> None:
        if self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if self._current is not None and not self._skip:
            self.lines[self._current] += data


def test_every_line_is_an_anchor_holding_its_text_escaped() -> None:
    html = str(render_source(SOURCE))
    parser = _Lines()
    parser.feed(html)
    expected = SOURCE.splitlines()
    assert list(parser.lines) == [f"line-{n}" for n in range(1, len(expected) + 1)]
    assert [text.rstrip(" ") for text in parser.lines.values()] == [text or "" for text in expected]
    assert "<b>" not in html and "&lt;b&gt;" in html
    assert line_count(SOURCE) == len(expected) == 6


def test_lines_end_as_python_counts_them() -> None:
    source = "a = 1\r\nb = 2\rc = 3\n"
    html = str(render_source(source))
    assert 'id="line-3"><span class="ln" aria-hidden="true">3</span><span class="lc">c' in html
    assert 'id="line-4"' not in html and line_count(source) == 3


def test_python_is_highlighted_by_token_kind() -> None:
    html = str(render_source(SOURCE))
    assert '<span class="k">import</span>' in html
    assert '<span class="k">def</span> <span class="nf">max_value</span>' in html
    assert '<span class="c"># &lt;b&gt;not bold&lt;/b&gt; &amp; &#34;quoted&#34;</span>' in html
    assert '<span class="kc">True</span>' in html and '<span class="m">3</span>' in html
    # A string over two lines is highlighted on each of them.
    assert html.count('<span class="sd">') == 2


def test_marked_lines_say_why_in_words_not_colour_alone() -> None:
    html = str(render_source(SOURCE, {6: Mark("error", "runtime error: <oops>")}))
    line = re.search(r'<span class="([^"]*)" id="line-6">(.*?)</code>', html)
    assert line is not None
    assert line.group(1).split() == ["line", "marked", "mark-error"]
    assert '<span class="mark-note">runtime error: &lt;oops&gt;</span>' in line.group(2)


def test_a_source_past_the_shown_length_is_cut_saying_so(monkeypatch: pytest.MonkeyPatch) -> None:
    # The rule, on a shown length small enough to lex in a moment (the service's is 512 KiB,
    # about 87,000 such lines and 6 s of a core).
    monkeypatch.setattr(listing, "SOURCE_SHOWN", 6 * 1000)
    html = str(render_source("x = 1\n" * 2000))
    assert "The rest of the file is not shown." in html
    assert 'id="line-1000"' in html and 'id="line-1001"' not in html
    assert "not shown" not in str(render_source("x = 1\n" * 1000))


def _report(**changes: object) -> Report:
    fields: dict[str, object] = {
        "exercise": "e",
        "verdict": RunVerdict.RUNTIME_ERROR,
        "score": 0.0,
        "max_score": 100,
        "message": "ZeroDivisionError: division by zero (line 6)",
        "line": 6,
        "cases": [
            TreeCase(name="fig5.2", hidden=False, verdict=RunVerdict.RUNTIME_ERROR, line=6),
            TreeCase(
                name="other",
                hidden=False,
                verdict=RunVerdict.FAILED,
                first_divergence=Divergence(node="C", message="differs", line=3),
            ),
            TreeCase(name="hidden-1", hidden=True, verdict=RunVerdict.RUNTIME_ERROR, line=4),
        ],
    }
    fields.update(changes)
    return Report.model_validate(fields)


def test_a_report_marks_its_error_and_divergence_lines_never_a_hidden_trees() -> None:
    marks = report_marks(_report(), SOURCE)
    assert sorted(marks) == [3, 6]
    assert marks[6].kind == "error" and "division by zero" in marks[6].note
    assert marks[3] == Mark("call", "other: the first divergence, at node C, comes from here")


def test_a_line_past_the_end_of_the_file_is_not_marked() -> None:
    assert report_marks(_report(line=40), SOURCE).keys() == {3, 6}
    assert report_marks(None, SOURCE) == {}


# -- contrast ----------------------------------------------------------------------------


def _luminance(colour: str) -> float:
    digits = colour.lstrip("#")
    if len(digits) == 3:
        digits = "".join(2 * d for d in digits)
    channels = [int(digits[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(foreground: str, background: str) -> float:
    """The WCAG 2.1 contrast ratio of two colours."""
    lighter, darker = sorted((_luminance(foreground), _luminance(background)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def _rule(selector: str) -> str:
    found = re.search(re.escape(selector) + r"\s*(?:,[^{]*)?\{([^}]*)\}", CSS)
    assert found is not None, selector
    return found.group(1)


def _colour(selector: str, prop: str = "color") -> str:
    found = re.search(rf"(?<![-\w]){prop}:\s*(#[0-9a-fA-F]{{3,6}})", _rule(selector))
    assert found is not None, (selector, prop)
    return found.group(1)


def test_the_contrast_checker_knows_black_on_white_and_a_failing_grey() -> None:
    assert contrast("#000", "#fff") == pytest.approx(21)
    assert contrast("#999", "#fff") < 4.5


TOKENS = [".c", ".s", ".m", ".k", ".nf", ".nb", ".nd", ".ln", ".mark-note"]
BACKGROUNDS = [
    (".code-scroll", "background"),
    ("pre.source .mark-error", "background"),
    ("pre.source .mark-call", "background"),
    ("pre.source .line:target", "background"),
]


@pytest.mark.parametrize("token", TOKENS)
@pytest.mark.parametrize(("selector", "prop"), BACKGROUNDS)
def test_every_text_colour_meets_aa_on_every_background(
    token: str, selector: str, prop: str
) -> None:
    foreground = _colour(f"pre.source {token}")
    background = _colour(selector, prop)
    assert contrast(foreground, background) >= 4.5, (token, foreground, background)


def test_the_cut_output_note_meets_aa() -> None:
    assert contrast(_colour(".output-cut"), _colour(".output-cut", "background")) >= 4.5
