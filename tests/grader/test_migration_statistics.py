"""The migrations that fill tables gather those tables' statistics at once (PostgreSQL):
0006 writes every stored report's tree and node rows again, 0009 fills the runs'
misconception columns. Until autovacuum got to them every estimate on them was a guess."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, text

from grader.migrate import upgrade


@pytest.mark.parametrize("fresh_url", ["postgresql"], indirect=True)
def test_the_migrations_that_fill_tables_analyse_them(fresh_url: str) -> None:
    upgrade(fresh_url, "0005")
    engine = create_engine(fresh_url)
    try:
        with engine.connect() as connection:
            started = connection.execute(text("SELECT clock_timestamp()")).scalar_one()

        upgrade(fresh_url)

        with engine.connect() as connection:
            analysed = set(
                connection.execute(
                    text(
                        "SELECT relname FROM pg_stat_user_tables "
                        "WHERE schemaname = current_schema() AND last_analyze >= :started"
                    ),
                    {"started": started},
                ).scalars()
            )
    finally:
        engine.dispose()
    assert analysed == {"grading_runs", "tree_results", "node_results"}
