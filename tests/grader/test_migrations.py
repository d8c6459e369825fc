"""The migrations build the schema from empty, agree with the models, and go back down."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect

from grader.config import ConfigError, Settings
from grader.migrate import alembic_config, drift, upgrade
from grader.models import Base
from grader.web import create_app


def test_migrations_from_empty_match_the_models(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'fresh.db'}"
    upgrade(url)
    assert drift(url) == []
    engine = create_engine(url)
    tables = set(inspect(engine).get_table_names())
    engine.dispose()
    assert set(Base.metadata.tables) <= tables


def test_downgrade_to_empty_and_up_again(tmp_path: Path) -> None:
    from alembic import command

    url = f"sqlite:///{tmp_path / 'cycle.db'}"
    upgrade(url)
    command.downgrade(alembic_config(url), "base")
    engine = create_engine(url)
    assert set(inspect(engine).get_table_names()) <= {"alembic_version"}
    engine.dispose()
    upgrade(url)
    assert drift(url) == []


def test_the_app_refuses_to_start_without_a_secret_outside_development(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="GRADER_SECRET_KEY"):
        create_app(Settings(env="production", instance_dir=tmp_path))
    with pytest.raises(ConfigError, match="too short"):
        create_app(Settings(env="production", instance_dir=tmp_path, secret_key="short"))
    strong = Settings(
        env="production",
        instance_dir=tmp_path,
        secret_key="s" * 32,
        hidden_tree_key=b"k" * 32,
        public_url="https://grader.example.edu",
    )
    app = create_app(strong)
    assert app.config["SESSION_COOKIE_SECURE"] is True


def test_settings_come_from_prefixed_variables() -> None:
    settings = Settings.from_env(
        {
            "GRADER_DATABASE_URL": "postgresql+psycopg://db/grader",
            "GRADER_REDIS_URL": "redis://cache:6379/0",
            "GRADER_UPLOAD_LIMIT_BYTES": "1000",
            "GRADER_SUBMISSIONS_PER_HOUR": "5",
            "DATABASE_URL": "ignored://",
        }
    )
    assert settings.sqlalchemy_url == "postgresql+psycopg://db/grader"
    assert settings.broker_url == settings.result_backend == "redis://cache:6379/0"
    assert (settings.upload_limit_bytes, settings.submissions_per_hour) == (1000, 5)
    assert Settings.from_env({}).broker_url.startswith("sqla+sqlite:///")
