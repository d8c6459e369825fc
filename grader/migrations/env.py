"""Alembic's environment: the URL comes from the caller (``grader.migrate``)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from grader.models import Base

config = context.config
url = config.get_main_option("sqlalchemy.url")
assert url, "grader.migrate passes the database URL"

if context.is_offline_mode():
    context.configure(url=url, target_metadata=Base.metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    engine = create_engine(url)
    with engine.connect() as connection:
        context.configure(
            connection=connection,
            target_metadata=Base.metadata,
            render_as_batch=connection.dialect.name == "sqlite",
            compare_type=True,
        )
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()
