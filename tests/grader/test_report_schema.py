"""The report's JSON Schema is published, generated from the model, and the OpenAPI
document points the submission's and the callback's report at it."""

from __future__ import annotations

from flask.testing import FlaskClient

from reference.report import SCHEMA_PATH, Report, RunVerdict

OPENAPI = "/api/v1/openapi.json"


def test_the_schema_is_published_as_the_model_makes_it(client: FlaskClient) -> None:
    response = client.get(SCHEMA_PATH)
    assert response.status_code == 200
    assert response.mimetype == "application/schema+json"
    assert response.get_json() == Report.model_json_schema()


def test_the_openapi_document_refers_to_the_schema(client: FlaskClient) -> None:
    document = client.get(OPENAPI).get_json()
    schemas = document["components"]["schemas"]
    assert schemas["Report"]["$ref"] == SCHEMA_PATH
    report = {"$ref": "#/components/schemas/Report"}
    assert report in schemas["Submission"]["properties"]["report"]["oneOf"]
    callback = schemas["CallbackEvent"]["properties"]["data"]["properties"]["report"]
    assert callback["$ref"] == report["$ref"]
    assert SCHEMA_PATH.removeprefix("/api/v1") in document["paths"]


def test_the_submissions_verdict_is_the_reports(client: FlaskClient) -> None:
    schemas = client.get(OPENAPI).get_json()["components"]["schemas"]
    verdict = schemas["Submission"]["properties"]["verdict"]
    assert verdict["enum"] == [str(word) for word in RunVerdict] + [None]
