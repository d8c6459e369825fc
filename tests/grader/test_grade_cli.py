"""``grader grade``: the whole pipeline, sandbox included, on this machine."""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from grader.cli import main
from tests.worker.test_grading_trust import on_hidden_trees as acting_on_hidden_trees

# The module (grader.cli's attribute ``grade`` is the command).
grade_module = importlib.import_module("grader.cli.grade")

LIBRARY = Path(__file__).resolve().parents[2] / "exercises" / "implementations"
ESCAPES = "\x1b[2K\r"
"""Erase the line, back to its start: what output would use to hide what came before."""


@pytest.fixture(autouse=True)
def development(monkeypatch: pytest.MonkeyPatch) -> None:
    """The built-in hidden-tree key is accepted in development only (see test_secrets)."""
    monkeypatch.setenv("GRADER_ENV", "development")
    monkeypatch.delenv("GRADER_HIDDEN_TREE_KEY", raising=False)


def strict_json(text: str) -> Any:
    """``text`` parsed as strict JSON: NaN and Infinity tokens are refused."""

    def refuse(token: str) -> None:
        raise ValueError(f"not strict JSON: {token}")

    return json.loads(text, parse_constant=refuse)


def grade(path: Path, *extra: str, slug: str = "aima-fig5.2-alphabeta") -> Any:
    result = CliRunner().invoke(main, ["grade", "--exercise", slug, str(path), "--json", *extra])
    assert result.exit_code == 0, result.output
    return strict_json(result.stdout)


def test_fail_hard_alphabeta_passes_every_tree() -> None:
    report = grade(LIBRARY / "alphabeta" / "correct_fail_hard.py")
    assert (report["verdict"], report["score"], report["max_score"]) == ("passed", 100.0, 100)
    fig52 = report["cases"][0]
    verdicts = {node["node"]: node["verdict"] for node in fig52["nodes"]}
    assert verdicts["C2"] == verdicts["C3"] == "pruned"
    assert {verdicts[name] for name in verdicts if name not in ("C2", "C3")} == {"ok"}
    assert [case["hidden"] for case in report["cases"]].count(True) == 8
    assert set(report) == {
        "schema_version", "exercise", "verdict", "score", "max_score", "score_parts", "message",
        "stdout", "usage", "cases",
    }  # fmt: skip
    assert set(report["usage"]) == {"cpu_ms", "wall_ms", "max_rss_kb"}


def test_textbook_nested_style_passes() -> None:
    report = grade(LIBRARY / "alphabeta" / "correct_search.py")
    assert report["verdict"] == "passed"


def test_no_pruning_is_told_where_it_went_wrong() -> None:
    report = grade(LIBRARY / "alphabeta" / "wrong_no_pruning.py")
    assert report["verdict"] == "failed"
    fig52 = report["cases"][0]
    assert fig52["first_divergence"] == {
        "node": "C",
        "message": "At C (MIN, alpha = 3): after C1 returned 2, v = 2 <= alpha = 3, so C "
        "could return at once; your search went on to C2.",
    }
    extra = [node["node"] for node in fig52["nodes"] if node["verdict"] == "extra"]
    assert extra == ["C2", "C3"]
    hidden = [case for case in report["cases"] if case["hidden"]]
    assert all(set(case) <= {"name", "hidden", "verdict", "message"} for case in hidden)


def test_a_hidden_tree_names_the_kind_of_mistake_but_not_how_many() -> None:
    report = grade(LIBRARY / "alphabeta" / "wrong_no_pruning.py")
    failed = [case for case in report["cases"] if case["hidden"] and case["verdict"] == "failed"]
    assert failed
    for case in failed:
        assert (
            case["message"]
            == "other nodes searched than the reference's (visits, order or pruning)"
        )
        # A count, or a node's name, would tell of the tree's shape.
        assert not any(character.isdigit() for character in case["message"]), case["message"]


def test_syntax_error_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.py"
    path.write_text("def max_value(game, state, alpha, beta):\n    return (\n", encoding="utf-8")
    report = grade(path)
    assert report["verdict"] == "compile_error"
    assert "line 2" in report["message"]
    assert report["score"] == 0


def test_text_report_marks_the_nodes() -> None:
    path = LIBRARY / "alphabeta" / "wrong_no_pruning.py"
    result = CliRunner().invoke(main, ["grade", "--exercise", "aima-fig5.2-alphabeta", str(path)])
    assert result.exit_code == 0, result.output
    assert "C2 = 4  EXTRA: C2 was visited" in result.stdout
    assert "first divergence at C" in result.stdout


def test_the_text_report_names_the_misconception_and_a_correct_search_gets_none() -> None:
    command = ["grade", "--exercise", "aima-fig5.2-alphabeta"]
    wrong = CliRunner().invoke(main, [*command, str(LIBRARY / "alphabeta" / "wrong_no_pruning.py")])
    assert wrong.exit_code == 0, wrong.output
    assert "Your search behaves exactly like one with this mistake: bounds kept but never" in (
        wrong.stdout
    )
    assert "  the textbook's line: Figure 5.7, MAX-VALUE" in wrong.stdout
    assert "  hint: " in wrong.stdout
    right = CliRunner().invoke(
        main, [*command, str(LIBRARY / "alphabeta" / "correct_fail_soft.py")]
    )
    assert right.exit_code == 0, right.output
    assert "the mistake" not in right.stdout and "hint:" not in right.stdout


def test_check_hidden_shows_every_wrong_implementation_caught() -> None:
    result = CliRunner().invoke(main, ["exercises", "check-hidden", "aima-fig5.2-alphabeta"])
    assert result.exit_code == 0, result.output
    assert "alphabeta/wrong_no_pruning" in result.stdout
    assert result.stdout.rstrip().endswith("fail at least one hidden tree")


def test_starter_file_compiles_and_names_the_entry_points(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["exercises", "starter", "aima-fig5.2-alphabeta"])
    assert result.exit_code == 0, result.output
    path = tmp_path / "starter.py"
    path.write_text(result.stdout, encoding="utf-8")
    compile(result.stdout, str(path), "exec")
    assert "def max_value(game, state, alpha, beta):" in result.stdout
    report = grade(path)
    assert report["verdict"] == "runtime_error"
    assert report["message"].startswith("NotImplementedError")


def on_hidden_trees(tmp_path: Path, action: str) -> Path:
    """A correct alpha-beta that does ``action`` once on every hidden tree (see
    :func:`tests.worker.test_grading_trust.on_hidden_trees`), written to a file."""
    path = tmp_path / "submission.py"
    path.write_text(acting_on_hidden_trees(action), encoding="utf-8")
    return path


def test_an_error_on_a_hidden_tree_tells_nothing_the_code_saw(tmp_path: Path) -> None:
    # The code passes the public tree, then raises with what it read of a hidden tree.
    report = grade(
        on_hidden_trees(tmp_path, "raise ValueError('LEAK ' + repr(game.actions(state)))")
    )
    assert report["cases"][0]["verdict"] == "passed"
    assert report["verdict"] == "runtime_error"
    assert report["message"] == "runtime error on a hidden tree (hidden-1)"
    assert "LEAK" not in json.dumps(report)


def test_the_resources_reported_are_the_public_trees_only(tmp_path: Path) -> None:
    # Time spent on hidden trees could carry what the code read there. Each hidden tree
    # sleeps longer than the public tree takes even on a busy machine.
    report = grade(on_hidden_trees(tmp_path, "time.sleep(0.3)"))
    assert report["verdict"] == "passed"
    assert report["usage"]["wall_ms"] < 300


def test_what_the_code_printed_and_raised_is_shown_escaped(tmp_path: Path) -> None:
    path = tmp_path / "submission.py"
    path.write_text(
        "def max_value(game, state, alpha, beta):\n"
        f"    print({ESCAPES!r} + 'PRINTED')\n"
        f"    raise ValueError({ESCAPES!r} + 'RAISED \\x07\\x9b')\n\n\n"
        "min_value = max_value\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(main, ["grade", "--exercise", "aima-fig5.2-alphabeta", str(path)])
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "\\x1b[2K\\x0dPRINTED" in text
    assert "\\x1b[2K\\x0dRAISED \\x07\\x9b" in text
    controls = {c for c in text if (ord(c) < 32 and c not in "\n\t") or 0x7F <= ord(c) <= 0x9F}
    assert controls == set()


def test_the_json_report_is_strict_json(tmp_path: Path) -> None:
    path = tmp_path / "submission.py"
    path.write_text(
        "def max_value(game, state, alpha, beta):\n"
        "    print('nul\\x00')\n"
        "    return float('inf')\n\n\n"
        "def min_value(game, state, alpha, beta):\n"
        "    return float('nan')\n",
        encoding="utf-8",
    )
    report = grade(path)  # parsed strictly
    assert report["cases"][0]["value"]["actual"] == "inf"
    assert report["stdout"].startswith("nul\\x00")


def test_the_draw_of_hidden_trees_is_printed_first_and_can_be_chosen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    draws = []
    real = grade_module.grade_submission

    def spy(*args: Any, **kwargs: Any) -> Any:
        draws.append(kwargs["draw"])
        return real(*args, **kwargs)

    monkeypatch.setattr(grade_module, "grade_submission", spy)
    path = LIBRARY / "alphabeta" / "correct_fail_hard.py"
    command = ["grade", "--exercise", "aima-fig5.2-alphabeta", str(path)]
    chosen = CliRunner().invoke(main, [*command, "--draw", "spring-exam"])
    drawn = CliRunner().invoke(main, command)
    assert chosen.exit_code == drawn.exit_code == 0, chosen.output + drawn.output
    assert chosen.stdout.splitlines()[0] == "hidden trees: draw spring-exam"
    first = drawn.stdout.splitlines()[0]
    assert re.fullmatch(r"hidden trees: draw [0-9a-f]{16}", first)
    assert draws == ["spring-exam", first.rsplit(" ", 1)[1]]
    # With --json, stdout holds the report alone; the draw is told on stderr.
    quiet = CliRunner().invoke(main, [*command, "--json", "--draw", "again"])
    assert quiet.stderr.strip() == "hidden trees: draw again"
    assert strict_json(quiet.stdout)["verdict"] == "passed"
