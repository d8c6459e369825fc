"""The report's model: what it reads, what it writes, and the schema it publishes."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from pydantic import ValidationError

from reference.report import SCHEMA_PATH, NodeVerdict, Report, RunVerdict, report_schema


def a_report(value: object = 3, text: str = "") -> dict[str, Any]:
    node = {"node": "A", "verdict": "wrong_value", "expected": "3", "actual": value,
            "message": text}  # fmt: skip
    return {
        "exercise": "aima-fig5.2-alphabeta",
        "verdict": "failed",
        "score": 12.5,
        "max_score": 100,
        "message": text,
        "stdout": text,
        "usage": {"cpu_ms": 5, "wall_ms": 40, "max_rss_kb": 9000},
        "cases": [
            {"name": "fig5.2", "hidden": False, "verdict": "failed", "message": text,
             "value": {"expected": 3, "actual": value}, "first_divergence": None,
             "nodes": [node]},
            {"name": "hidden-1", "hidden": True, "verdict": "not_run",
             "message": "not run: the file does not compile"},
        ],
    }  # fmt: skip


@pytest.mark.parametrize(
    ("value", "written"),
    [(math.inf, "inf"), (-math.inf, "-inf"), (math.nan, "nan"), (2.5, 2.5), (7, 7),
     ("1/3", "1/3"), (None, None)],
)  # fmt: skip
def test_values_are_written_as_strict_json(value: object, written: object) -> None:
    document = Report.model_validate(a_report(value)).to_json()
    json.dumps(document, allow_nan=False)
    # A value that is None is left out, as any optional field without a value.
    assert document["cases"][0]["value"].get("actual") == written
    assert document["cases"][0]["nodes"][0].get("actual") == written
    assert ("actual" in document["cases"][0]["value"]) is (written is not None)


def test_text_storage_refuses_is_shown_instead() -> None:
    document = Report.model_validate(a_report(text="a\x00b\udc80")).to_json()
    assert document["message"] == document["stdout"] == "a\\x00b\\udc80"
    json.dumps(document, ensure_ascii=False).encode("utf-8")


def test_a_document_reads_back_as_itself_keys_left_out_included() -> None:
    document = Report.model_validate(a_report()).to_json()
    assert document["schema_version"] == 1
    hidden = document["cases"][1]
    assert set(hidden) == {"name", "hidden", "verdict", "message"}
    assert "first_divergence" not in document["cases"][0]  # given as None: left out
    again = Report.model_validate_json(json.dumps(document), strict=True)
    assert again.to_json() == document


def test_one_report_has_one_document_however_its_empty_fields_were_given() -> None:
    given = a_report()
    given["cases"][0].update(message="", first_divergence=None, decision=None)
    left_out = a_report()
    for key in ("message", "first_divergence", "decision"):
        left_out["cases"][0].pop(key, None)
    assert Report.model_validate(given).to_json() == Report.model_validate(left_out).to_json()
    # The two required fields that may be None keep saying so.
    ended = Report.model_validate({**a_report(), "score": None, "max_score": None}).to_json()
    assert (ended["score"], ended["max_score"]) == (None, None)


def test_words_outside_the_vocabulary_are_refused() -> None:
    with pytest.raises(ValidationError):
        Report.model_validate({**a_report(), "verdict": "completed"})
    with pytest.raises(ValidationError):
        Report.model_validate({**a_report(), "surprise": 1})


def test_the_verdicts_are_the_services_words() -> None:
    assert {str(verdict) for verdict in RunVerdict} >= {"passed", "failed", "not_run"}
    assert str(RunVerdict.INTERNAL_ERROR) == "internal_error"
    assert "pruned" in {str(verdict) for verdict in NodeVerdict}


def test_the_schema_is_the_models() -> None:
    schema = report_schema()
    assert schema == Report.model_json_schema()
    assert schema["$id"] == SCHEMA_PATH == "/api/v1/schemas/report-v1.json"
    assert set(schema["required"]) == {
        "exercise", "verdict", "score", "max_score", "message", "cases"
    }  # fmt: skip
    verdicts = schema["$defs"]["RunVerdict"]["enum"]
    assert verdicts == [str(verdict) for verdict in RunVerdict]
