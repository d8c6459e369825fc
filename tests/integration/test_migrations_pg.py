"""On the real PostgreSQL, the migrated schema and the models agree, and the migration that
makes attempt numbers unique numbers again the attempts of an older database that share one."""

from __future__ import annotations

import secrets
from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from grader.migrate import drift
from tests.grader.test_migrations import numbered_again_by_0010

pytestmark = pytest.mark.integration


@pytest.fixture
def empty_schema(pg_url: str) -> Iterator[str]:
    """A schema of its own, empty, on the same server: a migration's test goes up and down."""
    admin = create_engine(make_url(pg_url).set(query={}))
    schema = f"grader_old_{secrets.token_hex(4)}"
    with admin.begin() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = make_url(pg_url).update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.begin() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


def test_postgresql_schema_matches_the_models(pg_url: str) -> None:
    assert drift(pg_url) == []


def test_attempts_that_share_a_number_are_numbered_again_in_the_order_made(
    empty_schema: str,
) -> None:
    numbered_again_by_0010(empty_schema)
