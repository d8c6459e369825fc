"""On the real PostgreSQL, the migrated schema and the models agree."""

from __future__ import annotations

import pytest

from grader.migrate import drift

pytestmark = pytest.mark.integration


def test_postgresql_schema_matches_the_models(pg_url: str) -> None:
    assert drift(pg_url) == []
