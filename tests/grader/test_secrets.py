"""Production refuses weak secrets: outside development, a hidden-tree key that is the
built-in development key or shorter than 32 bytes stops the web app, a Celery worker at its
start and the commands that draw hidden trees, each saying how to make a good key. The web
app alone also needs its public address (the links it mails are built from it); the worker
and the commands do without."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from grader.cli import main
from grader.config import MAKE_KEY, PUBLIC_URL_EXAMPLE, ConfigError, Settings
from grader.web import create_app
from reference.hidden import DEVELOPMENT_KEY
from tests.processes import end_with_test

ROOT = Path(__file__).resolve().parents[2]
STRONG = secrets.token_hex(32)
WEAK = {
    "unset": None,
    "the development key": DEVELOPMENT_KEY.decode(),
    "31 bytes": "k" * 31,
}
CORRECT = ROOT / "exercises" / "implementations" / "alphabeta" / "correct_fail_hard.py"
PUBLIC_URL = "https://grader.example.edu"


def production(tmp_path: Path, key: str | None) -> dict[str, str]:
    """The environment of a production worker or command on this machine with hidden-tree
    ``key`` (no public URL: they mail no links)."""
    outside = {name: value for name, value in os.environ.items() if not name.startswith("GRADER_")}
    environment = {
        **outside,
        "GRADER_ENV": "production",
        "GRADER_SECRET_KEY": "s" * 32,
        "GRADER_INSTANCE_DIR": str(tmp_path / "instance"),
        "PYTHONPATH": str(ROOT),
    }
    if key is not None:
        environment["GRADER_HIDDEN_TREE_KEY"] = key
    return environment


def web_production(tmp_path: Path, key: str | None) -> dict[str, str]:
    """The same for the web app, which also needs its public address."""
    return production(tmp_path, key) | {"GRADER_PUBLIC_URL": PUBLIC_URL}


def settings_of(environment: dict[str, str]) -> Settings:
    return Settings.from_env(environment)


@pytest.mark.parametrize("key", list(WEAK.values()), ids=list(WEAK))
def test_settings_with_a_weak_key_are_refused_saying_how_to_make_one(
    tmp_path: Path, key: str | None
) -> None:
    settings = settings_of(web_production(tmp_path, key))
    for needs_secret_key in (True, False):
        with pytest.raises(ConfigError, match="GRADER_HIDDEN_TREE_KEY") as refused:
            settings.checked(needs_secret_key=needs_secret_key)
        assert MAKE_KEY in str(refused.value)
    # Development keeps its built-in key.
    development = production(tmp_path, key) | {"GRADER_ENV": "development"}
    assert settings_of(development).checked()


def test_a_strong_key_is_accepted(tmp_path: Path) -> None:
    settings = settings_of(web_production(tmp_path, STRONG))
    assert settings.checked() is settings
    assert len(settings.hidden_tree_key) >= 32


@pytest.mark.parametrize("key", list(WEAK.values()), ids=list(WEAK))
def test_the_web_app_refuses_a_weak_key(tmp_path: Path, key: str | None) -> None:
    with pytest.raises(ConfigError, match="GRADER_HIDDEN_TREE_KEY"):
        create_app(settings_of(web_production(tmp_path, key)))


def test_the_web_app_starts_with_a_strong_key(tmp_path: Path) -> None:
    app = create_app(settings_of(web_production(tmp_path, STRONG)))
    assert app.test_client().get("/healthz").status_code == 200


def test_the_web_app_refuses_to_start_without_a_public_url_saying_how_to_set_one(
    tmp_path: Path,
) -> None:
    with pytest.raises(ConfigError) as refused:
        create_app(settings_of(production(tmp_path, STRONG)))

    message = str(refused.value)
    assert message.startswith("GRADER_PUBLIC_URL is not set")
    assert PUBLIC_URL_EXAMPLE in message and "GRADER_TRUSTED_HOSTS" in message


def test_development_may_do_without_a_public_url(tmp_path: Path) -> None:
    development = production(tmp_path, None) | {"GRADER_ENV": "development"}

    app = create_app(settings_of(development))

    assert app.test_client().get("/healthz").status_code == 200


@pytest.mark.parametrize(
    "url", ["grader.example.edu", "ftp://grader.example.edu", "https://", "https://g.example/?a=1"]
)
def test_a_public_url_that_is_not_an_http_address_is_refused(tmp_path: Path, url: str) -> None:
    settings = settings_of(web_production(tmp_path, STRONG) | {"GRADER_PUBLIC_URL": url})

    with pytest.raises(ConfigError, match="GRADER_PUBLIC_URL must be an http:// or https://"):
        settings.checked()


def start_worker(tmp_path: Path, key: str | None) -> tuple[subprocess.Popen[bytes], Path]:
    """``celery -A worker.celery_app worker`` as the service starts it (its broker on SQLite
    in the instance folder); its output goes to a log file."""
    (tmp_path / "instance").mkdir(exist_ok=True)
    log = tmp_path / "worker.log"
    command = [
        sys.executable, "-m", "celery", "-A", "worker.celery_app", "worker", "--loglevel",
        "INFO", "--concurrency", "1", "--without-mingle", "--without-gossip",
    ]  # fmt: skip
    with log.open("wb") as out:
        process = subprocess.Popen(
            command, cwd=ROOT, env=production(tmp_path, key), stdout=out,
            stderr=subprocess.STDOUT, start_new_session=True, preexec_fn=end_with_test,
        )  # fmt: skip
    return process, log


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, 9)
        process.wait(10)


@pytest.mark.slow
@pytest.mark.parametrize("key", [None, "k" * 31], ids=["unset", "31 bytes"])
def test_a_celery_worker_with_a_weak_key_exits_at_start_saying_why(
    tmp_path: Path, key: str | None
) -> None:
    process, log = start_worker(tmp_path, key)
    try:
        assert process.wait(60) == 1
    finally:
        stop(process)
    output = log.read_text(errors="replace")
    assert "the grading worker refuses to start: GRADER_HIDDEN_TREE_KEY" in output
    assert MAKE_KEY in output
    assert "ready." not in output


@pytest.mark.slow
def test_a_celery_worker_with_a_strong_key_starts(tmp_path: Path) -> None:
    process, log = start_worker(tmp_path, STRONG)
    try:
        deadline = time.monotonic() + 60
        while "ready." not in log.read_text(errors="replace"):
            assert process.poll() is None, log.read_text(errors="replace")
            assert time.monotonic() < deadline, "the worker did not get ready in 60 s"
            time.sleep(0.2)
    finally:
        stop(process)


@pytest.mark.parametrize(
    "command",
    [
        ["grade", "--exercise", "aima-fig5.2-alphabeta", str(CORRECT)],
        ["exercises", "check-hidden", "aima-fig5.2-alphabeta"],
    ],
    ids=["grade", "check-hidden"],
)
@pytest.mark.parametrize("key", list(WEAK.values()), ids=list(WEAK))
def test_commands_that_draw_hidden_trees_refuse_a_weak_key(
    tmp_path: Path, command: list[str], key: str | None
) -> None:
    # None unsets a variable this process may have.
    environment: dict[str, str | None] = {
        **production(tmp_path, key),
        "GRADER_HIDDEN_TREE_KEY": key,
    }
    result = CliRunner(env=environment).invoke(main, command)
    assert result.exit_code == 1, result.output
    assert "GRADER_HIDDEN_TREE_KEY" in result.output and MAKE_KEY in result.output
    assert "hidden trees: draw" not in result.output  # nothing graded


def test_grade_works_with_a_strong_key(tmp_path: Path) -> None:
    environment = production(tmp_path, STRONG)
    command = ["grade", "--exercise", "aima-fig5.2-alphabeta", str(CORRECT)]
    result = CliRunner(env=environment).invoke(main, command)
    assert result.exit_code == 0, result.output
    assert "aima-fig5.2-alphabeta: passed" in result.stdout
