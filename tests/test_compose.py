"""docker-compose.yml and the Dockerfile describe a service that can start: the commands
name modules and commands that exist, the order of start-up is right, nothing is privileged.

Docker itself need not be here; when the ``docker compose`` client is, it checks the file too.
"""

from __future__ import annotations

import importlib
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from grader.cli import main as grader_cli

ROOT = Path(__file__).resolve().parents[1]
COMPOSE = ROOT / "docker-compose.yml"
APP_SERVICES = ("web", "worker", "worker-slow", "callbacks", "maintenance", "beat")
WORKERS = {
    "worker": ["grading"],
    "worker-slow": ["grading-slow"],
    "callbacks": ["callbacks"],
    "maintenance": ["maintenance"],
}
"""Each worker service and the Celery queues it serves."""
UNSAFE_KEYS = ("privileged", "cap_add", "security_opt", "devices", "pid", "ipc", "userns_mode")


@pytest.fixture(scope="module")
def services() -> dict[str, dict[str, Any]]:
    document = yaml.safe_load(COMPOSE.read_text())
    found: dict[str, dict[str, Any]] = document["services"]
    return found


def command(service: dict[str, Any]) -> list[str]:
    value = service["command"]
    return shlex.split(value) if isinstance(value, str) else list(value)


def test_every_service_is_there(services: dict[str, dict[str, Any]]) -> None:
    assert set(services) == {*APP_SERVICES, "migrate", "postgres", "redis"}
    assert services["postgres"]["image"].startswith("postgres:15")
    assert services["redis"]["image"].startswith("redis:7")


def test_redis_keeps_the_queued_tasks_across_a_restart(
    services: dict[str, dict[str, Any]],
) -> None:
    redis = services["redis"]
    words = command(redis)
    assert words[words.index("--appendonly") + 1] == "yes"
    volume = next(v for v in redis["volumes"] if v.endswith(":/data"))
    assert volume.split(":")[0] in yaml.safe_load(COMPOSE.read_text())["volumes"]


def test_nothing_is_privileged(services: dict[str, dict[str, Any]]) -> None:
    for name, service in services.items():
        for key in UNSAFE_KEYS:
            assert key not in service, f"{name} sets {key}"
        assert service.get("network_mode") != "host", name


def test_the_grader_services_wait_for_the_migration_and_the_servers(
    services: dict[str, dict[str, Any]],
) -> None:
    for name in APP_SERVICES:
        assert services[name]["depends_on"] == {
            "migrate": {"condition": "service_completed_successfully"},
            "postgres": {"condition": "service_healthy"},
            "redis": {"condition": "service_healthy"},
        }, name
    assert services["migrate"]["depends_on"] == {"postgres": {"condition": "service_healthy"}}
    assert services["migrate"]["restart"] == "no"


def test_healthchecks(services: dict[str, dict[str, Any]]) -> None:
    def check(name: str) -> str:
        return " ".join(services[name]["healthcheck"]["test"])

    assert "pg_isready" in check("postgres")
    assert "redis-cli ping" in check("redis")
    assert "/healthz" in check("web") and "urllib" in check("web")


def test_the_grader_services_get_their_settings(services: dict[str, dict[str, Any]]) -> None:
    for name in (*APP_SERVICES, "migrate"):
        environment = services[name]["environment"]
        assert environment["GRADER_DATABASE_URL"].startswith("postgresql+psycopg://"), name
        assert environment["GRADER_REDIS_URL"].startswith("redis://redis:6379/"), name
        # Required (compose refuses to start without them), never given a default.
        for secret in ("GRADER_SECRET_KEY", "GRADER_HIDDEN_TREE_KEY", "GRADER_PUBLIC_URL"):
            assert environment[secret].startswith(f"${{{secret}:?"), secret
        assert environment["GRADER_PROXY_HOPS"] == "${GRADER_PROXY_HOPS:-0}"


@pytest.mark.slow
def test_web_serves_the_wsgi_app_on_port_8000(services: dict[str, dict[str, Any]]) -> None:
    argv = command(services["web"])
    assert argv[0] == "gunicorn"
    module, _, attribute = next(arg for arg in argv if ":" in arg and "." in arg).partition(":")
    assert module == "grader.wsgi"
    assert "0.0.0.0:8000" in argv
    assert any(port.endswith(":8000") for port in services["web"]["ports"])
    # Importing grader.wsgi builds the app from the environment: give it what production needs.
    environment = {"GRADER_SECRET_KEY": "x" * 32, "GRADER_ENV": "production"}
    environment["GRADER_HIDDEN_TREE_KEY"] = "k" * 64
    environment["GRADER_PUBLIC_URL"] = "https://grader.example.edu"
    environment["GRADER_DATABASE_URL"] = "sqlite://"
    outside = {key: value for key, value in os.environ.items() if not key.startswith("GRADER_")}
    code = f"import {module}; assert {module}.{attribute}.name"
    subprocess.run(
        [sys.executable, "-c", code],
        check=True,
        env={**outside, **environment},
        cwd=ROOT,
        timeout=120,
    )


def test_worker_and_beat_run_the_celery_app(services: dict[str, dict[str, Any]]) -> None:
    worker = command(services["worker"])
    assert worker[:4] == ["celery", "-A", "worker.celery_app", "worker"]
    assert worker[worker.index("--concurrency") + 1] == "8"  # four slots a CPU, two CPUs
    assert worker[worker.index("-O") + 1] == "fair"
    assert command(services["beat"])[:4] == ["celery", "-A", "worker.celery_app", "beat"]
    celery_app = importlib.import_module("worker.celery_app")
    assert celery_app.app.main == "grader"
    # The sandbox drops each student's process to nobody: only root may do that.
    for name in ("worker", "worker-slow"):
        assert services[name].get("user", "root") in ("root", "0"), name


def test_each_worker_serves_its_own_queues(services: dict[str, dict[str, Any]]) -> None:
    celery_app = importlib.import_module("worker.celery_app")
    known = set(celery_app.app.amqp.queues)
    served: list[str] = []
    for name, queues in WORKERS.items():
        argv = command(services[name])
        argv = argv[argv.index("celery") :]  # after nice, if any
        assert argv[:4] == ["celery", "-A", "worker.celery_app", "worker"], name
        assert argv[argv.index("-Q") + 1].split(",") == queues, name
        served += queues
    # Every queue of the app has a worker, and only one kind of worker.
    assert sorted(served) == sorted(known)
    slow = command(services["worker-slow"])
    assert slow[:3] == ["nice", "-n", "10"]
    assert services["worker-slow"]["cpu_shares"] < 1024  # below the other containers' weight
    assert "--concurrency" not in slow  # Celery's default: as many as the CPUs
    callbacks = command(services["callbacks"])
    assert callbacks[callbacks.index("--pool") + 1] == "threads"
    # Every task goes to a queue some worker serves.
    routes = celery_app.app.conf.task_routes
    assert {route["queue"] for route in routes.values()} <= known


def test_migrate_runs_a_real_command(
    services: dict[str, dict[str, Any]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = command(services["migrate"])
    assert argv == ["grader", "db", "upgrade"]
    monkeypatch.setenv("GRADER_DATABASE_URL", f"sqlite:///{tmp_path / 'grader.db'}")
    result = CliRunner().invoke(grader_cli, argv[1:])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "grader.db").exists()


def test_the_image_installs_the_locked_dependencies_and_libseccomp() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert dockerfile.startswith("#") and "FROM python:3.11-slim-bookworm" in dockerfile
    assert "pip install --require-hashes -r requirements/run.lock" in dockerfile
    assert "pip install --no-deps" in dockerfile
    assert "libseccomp2" in dockerfile
    for folder in ("reference", "grader", "worker", "exercises"):
        assert f"COPY {folder} {folder}" in dockerfile
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert ".venv" in ignored and ".git" in ignored


def test_docker_compose_accepts_the_file() -> None:
    docker = shutil.which("docker")
    if docker is None:
        pytest.skip("no docker client")
    version = subprocess.run(
        [docker, "compose", "version"], capture_output=True, text=True, timeout=60
    )
    if version.returncode != 0:
        pytest.skip("the docker client has no compose plugin")
    # ``config`` reads the file only: no daemon is needed.
    secrets = {
        "GRADER_SECRET_KEY": "x" * 32,
        "GRADER_HIDDEN_TREE_KEY": "y" * 32,
        "GRADER_PUBLIC_URL": "https://grader.example.edu",
    }
    result = subprocess.run(
        [docker, "compose", "-f", str(COMPOSE), "config", "-q"],
        capture_output=True,
        text=True,
        env={**os.environ, **secrets},
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
